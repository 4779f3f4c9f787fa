// SPDX-License-Identifier: Apache-2.0
#include "dump/pt_zip.h"

#include "dump/pt_zip_api.h"
#include "support/error.h"
#include "support/module_loader.h"

#include <zip.h>

#include <algorithm>
#include <cctype>

#ifndef MSPROBE_PT_ZIP_INSTALL_DIR
#define MSPROBE_PT_ZIP_INSTALL_DIR "lib/msprobe"
#endif

namespace msprobe::dump {

namespace {

struct Loaded {
    const MsprobePtZipApi* api = nullptr;
    std::string failure;
};

const Loaded& module()
{
    static const Loaded loaded = [] {
#ifdef MSPROBE_PT_ZIP_BUILD_PATH
        const char* buildPath = MSPROBE_PT_ZIP_BUILD_PATH;
#else
        const char* buildPath = nullptr;
#endif
        const support::LoadedModule found = support::loadModule({ "libmsprobe_pt_zip.so", "MSPROBE_PT_ZIP_MODULE",
            MSPROBE_PT_ZIP_INSTALL_DIR, buildPath, kMsprobePtZipEntry });
        Loaded result;
        using Entry = const MsprobePtZipApi* (*)();
        const MsprobePtZipApi* api = found.entry ? reinterpret_cast<Entry>(found.entry)() : nullptr;
        if (api && api->version == kMsprobePtZipApiVersion)
            result.api = api;
        else
            result.failure = found.entry ? "the .pt reader module libmsprobe_pt_zip.so has another API version"
                                         : "cannot read .pt files: " + found.failure;
        return result;
    }();
    return loaded;
}

const MsprobePtZipApi& api(const std::string& path)
{
    const Loaded& loaded = module();
    if (!loaded.api)
        throw support::Error(path, "", loaded.failure);
    return *loaded.api;
}

void check(int rc, const char* error)
{
    if (rc != 0)
        throw PtZipFailure(error);
}

} // namespace

PtZipArchive::PtZipArchive(const std::string& path)
    : m_path(path)
{
    char error[1024] = {};
    check(api(path).open(path.c_str(), &m_archive, error, sizeof error), error);
}

PtZipArchive::~PtZipArchive()
{
    if (m_archive)
        module().api->close(m_archive);
}

bool PtZipArchive::hasRecord(const std::string& name) const
{
    char error[1024] = {};
    int has = 0;
    check(module().api->hasRecord(m_archive, name.c_str(), &has, error, sizeof error), error);
    return has != 0;
}

PtZipArchive::Record PtZipArchive::getRecord(const std::string& name) const
{
    char error[1024] = {};
    void* owner = nullptr;
    Record record;
    check(module().api->getRecord(m_archive, name.c_str(), &owner, &record.data, &record.size, error, sizeof error), error);
    record.owner = std::shared_ptr<void>(owner, module().api->freeRecord);
    return record;
}

namespace {

std::string lowerCased(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

} // namespace

std::optional<std::uint64_t> PtZipArchive::recordSize(const std::string& name) const
{
    if (!m_sizes) {
        int code = 0;
        zip_t* zip = zip_open(m_path.c_str(), ZIP_RDONLY, &code);
        if (!zip) {
            zip_error_t error;
            zip_error_init_with_code(&error, code);
            const std::string message = std::string("cannot read the zip directory: ") + zip_error_strerror(&error);
            zip_error_fini(&error);
            throw PtZipFailure(message);
        }
        const std::unique_ptr<zip_t, decltype(&zip_discard)> closer(zip, zip_discard);
        std::unordered_map<std::string, std::uint64_t> sizes;
        const zip_int64_t count = zip_get_num_entries(zip, 0);
        std::string prefix; // libtorch: every record lives under the first entry's top folder
        for (zip_int64_t i = 0; i < count; ++i) {
            zip_stat_t stat;
            zip_stat_init(&stat);
            if (zip_stat_index(zip, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW, &stat) != 0 || !(stat.valid & ZIP_STAT_NAME)
                || !(stat.valid & ZIP_STAT_SIZE))
                throw PtZipFailure("cannot read the zip directory entry " + std::to_string(i));
            const std::string entry = lowerCased(stat.name);
            if (i == 0)
                prefix = entry.substr(0, entry.find('/') + 1);
            if (prefix.empty() || !entry.starts_with(prefix))
                continue;
            std::uint64_t& size = sizes[entry.substr(prefix.size())];
            size = std::max<std::uint64_t>(size, stat.size);
        }
        m_sizes = std::move(sizes);
    }
    const auto it = m_sizes->find(lowerCased(name));
    if (it == m_sizes->end())
        return std::nullopt;
    return it->second;
}

} // namespace msprobe::dump
