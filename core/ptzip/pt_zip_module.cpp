// SPDX-License-Identifier: Apache-2.0
// The msprobe_pt_zip module (see dump/pt_zip_api.h): the only code of the core that links libtorch.
#include "dump/pt_zip_api.h"

#include <c10/util/Exception.h>
#include <caffe2/serialize/inline_container.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>

namespace {

using caffe2::serialize::PyTorchStreamReader;

// c10 messages may carry a backtrace and a plea to report the message upstream; keep the message itself.
std::string torchMessage(const c10::Error& error)
{
    std::string_view text(error.what_without_backtrace());
    text = text.substr(0, text.find('\n'));
    text = text.substr(0, text.find("  (Could this error message be improved?"));
    return std::string(text);
}

void copyMessage(const std::string& message, char* error, std::size_t errorSize)
{
    if (!errorSize)
        return;
    const std::size_t n = std::min(message.size(), errorSize - 1);
    std::memcpy(error, message.data(), n);
    error[n] = '\0';
}

template <typename F>
int guarded(char* error, std::size_t errorSize, F&& body)
{
    try {
        body();
        return 0;
    } catch (const c10::Error& e) {
        copyMessage(torchMessage(e), error, errorSize);
    } catch (const std::exception& e) {
        copyMessage(e.what(), error, errorSize);
    }
    return 1;
}

struct Record {
    c10::DataPtr data;
};

int openArchive(const char* path, void** archive, char* error, std::size_t errorSize)
{
    return guarded(error, errorSize, [&] { *archive = new PyTorchStreamReader(std::string(path)); });
}

int hasRecord(void* archive, const char* name, int* has, char* error, std::size_t errorSize)
{
    return guarded(error, errorSize, [&] { *has = static_cast<PyTorchStreamReader*>(archive)->hasRecord(name) ? 1 : 0; });
}

int getRecord(void* archive, const char* name, void** record, const void** data, std::size_t* size, char* error,
    std::size_t errorSize)
{
    return guarded(error, errorSize, [&] {
        auto [ptr, bytes] = static_cast<PyTorchStreamReader*>(archive)->getRecord(name);
        auto* owned = new Record { std::move(ptr) };
        *data = owned->data.get();
        *size = bytes;
        *record = owned;
    });
}

void freeRecord(void* record)
{
    delete static_cast<Record*>(record);
}

void closeArchive(void* archive)
{
    delete static_cast<PyTorchStreamReader*>(archive);
}

const MsprobePtZipApi kApi = { kMsprobePtZipApiVersion, openArchive, hasRecord, getRecord, freeRecord, closeArchive };

} // namespace

extern "C" __attribute__((visibility("default"))) const MsprobePtZipApi* msprobe_pt_zip_api()
{
    return &kApi;
}
