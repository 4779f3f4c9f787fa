// SPDX-License-Identifier: Apache-2.0
// Finds and dlopen()s one of our plug-in modules (the parts that need libtorch), so that processes which never
// use them skip libtorch's start-up. Looked for, in order: $envVar, next to the executable, in
// {prefix}/{installDir} of an installed executable, and at the build tree path.
#pragma once

#include <string>

namespace msprobe::support {

struct ModuleSpec {
    const char* fileName; // "libmsprobe_pt_zip.so"
    const char* envVar; // overrides the search
    const char* installDir; // relative to the install prefix, e.g. "lib/msprobe"
    const char* buildPath; // absolute path in the build tree, or nullptr
    const char* entrySymbol; // extern "C" function to look up
};

struct LoadedModule {
    void* entry = nullptr; // the entry symbol; null on failure
    std::string failure; // why nothing could be loaded
};

// The first candidate that loads and exports entrySymbol; the handle stays open for the process's lifetime.
LoadedModule loadModule(const ModuleSpec& spec);

} // namespace msprobe::support
