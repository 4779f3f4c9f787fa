// SPDX-License-Identifier: Apache-2.0
#include "dump/pt_zip.h"

#include "dump/pt_zip_api.h"
#include "support/error.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

#ifndef MSPROBE_PT_ZIP_INSTALL_DIR
#define MSPROBE_PT_ZIP_INSTALL_DIR "lib/msprobe"
#endif

namespace fs = std::filesystem;

namespace msprobe {

namespace {

constexpr const char* kModuleFile = "libmsprobe_pt_zip.so";

struct Loaded {
    const MsprobePtZipApi* api = nullptr;
    std::string failure;
};

std::vector<fs::path> candidates()
{
    std::vector<fs::path> paths;
    if (const char* env = std::getenv("MSPROBE_PT_ZIP_MODULE"); env && *env)
        paths.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        paths.push_back(exe.parent_path() / kModuleFile);
        paths.push_back(exe.parent_path().parent_path() / MSPROBE_PT_ZIP_INSTALL_DIR / kModuleFile);
    }
#ifdef MSPROBE_PT_ZIP_BUILD_PATH
    paths.emplace_back(MSPROBE_PT_ZIP_BUILD_PATH);
#endif
    return paths;
}

const Loaded& module()
{
    static const Loaded loaded = [] {
        Loaded result;
        std::string tried;
        for (const fs::path& path : candidates()) {
            std::error_code ec;
            if (!fs::is_regular_file(path, ec))
                continue;
            void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!handle) {
                tried += std::string(tried.empty() ? "" : "; ") + dlerror();
                continue;
            }
            using Entry = const MsprobePtZipApi* (*)();
            auto entry = reinterpret_cast<Entry>(dlsym(handle, kMsprobePtZipEntry));
            const MsprobePtZipApi* api = entry ? entry() : nullptr;
            if (api && api->version == kMsprobePtZipApiVersion) {
                result.api = api;
                return result;
            }
            tried += std::string(tried.empty() ? "" : "; ") + path.string() + ": not a matching msprobe_pt_zip module";
        }
        result.failure = std::string("cannot load the .pt reader module ") + kModuleFile
            + (tried.empty() ? " (not found; set MSPROBE_PT_ZIP_MODULE)" : " (" + tried + ")");
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
