// SPDX-License-Identifier: Apache-2.0
#include "support/module_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace fs = std::filesystem;

namespace msprobe::support {

LoadedModule loadModule(const ModuleSpec& spec)
{
    std::vector<fs::path> paths;
    if (const char* env = std::getenv(spec.envVar); env && *env)
        paths.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        paths.push_back(exe.parent_path() / spec.fileName);
        paths.push_back(exe.parent_path().parent_path() / spec.installDir / spec.fileName);
    }
    if (spec.buildPath)
        paths.emplace_back(spec.buildPath);

    LoadedModule result;
    std::string tried;
    for (const fs::path& path : paths) {
        if (!fs::is_regular_file(path, ec))
            continue;
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            tried += std::string(tried.empty() ? "" : "; ") + dlerror();
            continue;
        }
        if (void* entry = dlsym(handle, spec.entrySymbol)) {
            result.entry = entry;
            return result;
        }
        tried += std::string(tried.empty() ? "" : "; ") + path.string() + ": no " + spec.entrySymbol;
    }
    result.failure = std::string("cannot load the module ") + spec.fileName
        + (tried.empty() ? std::string(" (not found; set ") + spec.envVar + ")" : " (" + tried + ")");
    return result;
}

} // namespace msprobe::support
