// SPDX-License-Identifier: Apache-2.0
#include "dump/pt_zip.h"

#include "dump/pt_zip_api.h"
#include "support/error.h"
#include "support/module_loader.h"

#ifndef MSPROBE_PT_ZIP_INSTALL_DIR
#define MSPROBE_PT_ZIP_INSTALL_DIR "lib/msprobe"
#endif

namespace msprobe {

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
        const LoadedModule found = loadModule({ "libmsprobe_pt_zip.so", "MSPROBE_PT_ZIP_MODULE",
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
        throw Error(path, "", loaded.failure);
    return *loaded.api;
}

void check(int rc, const char* error)
{
    if (rc != 0)
        throw PtZipFailure(error);
}

} // namespace

PtZipArchive::PtZipArchive(const std::string& path)
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

} // namespace msprobe
