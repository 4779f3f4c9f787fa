// SPDX-License-Identifier: Apache-2.0
#include "capture/stack_trace.h"

#include <algorithm>

#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <unordered_map>

#ifdef MSPROBE_HAVE_LIBBACKTRACE
#include <backtrace.h>
#endif

#ifdef MSPROBE_HAVE_LIBUNWIND
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#endif

namespace msprobe::capture {

namespace {

struct Frame {
    bool keep = false;
    std::string text;
    bool isMain = false;
};

std::mutex g_mutex;
std::unordered_map<std::uintptr_t, std::vector<Frame>> g_cache;
std::unordered_map<std::string, std::vector<std::string>> g_sourceLines;

std::string demangle(const char* name)
{
    if (!name)
        return {};
    int status = 0;
    char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    if (status != 0 || !out)
        return name;
    std::string text = out;
    std::free(out);
    return text;
}

// Function name without the argument list: "ns::Cls::forward(at::Tensor)" -> "ns::Cls::forward".
std::string shortFunction(const std::string& name)
{
    int depth = 0;
    for (std::size_t k = name.size(); k-- > 0;) {
        if (name[k] == ')')
            ++depth;
        else if (name[k] == '(' && --depth == 0)
            return k > 0 ? name.substr(0, k) : name;
    }
    return name;
}

std::string sourceLine(const std::string& file, int line)
{
    auto it = g_sourceLines.find(file);
    if (it == g_sourceLines.end()) {
        std::vector<std::string> lines;
        std::ifstream in(file);
        for (std::string text; std::getline(in, text);)
            lines.push_back(text);
        it = g_sourceLines.emplace(file, std::move(lines)).first;
    }
    if (line < 1 || static_cast<std::size_t>(line) > it->second.size())
        return {};
    const std::string& text = it->second[static_cast<std::size_t>(line - 1)];
    const auto b = text.find_first_not_of(" \t");
    const auto e = text.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : text.substr(b, e - b + 1);
}

bool isCaptureLibrary(const std::string& file, const std::string& function)
{
    // Inline code of libtorch's and the C++ library's headers is plumbing, not the user's call site.
    return file.find("/capture/") != std::string::npos || file.rfind("/usr/include/", 0) == 0 || function.rfind("msprobe::capture::", 0) == 0
        || function.rfind("msprobe::ModuleScope", 0) == 0 || function.rfind("msprobe::PrecisionDebugger", 0) == 0;
}

Frame makeFrame(const std::string& file, int line, const std::string& function)
{
    Frame f;
    f.isMain = function == "main";
    if (function.empty() || isCaptureLibrary(file, function))
        return f;
    f.keep = true;
    f.text = "File " + file + ", line " + std::to_string(line) + ", in " + function + ", \n " + sourceLine(file, line);
    return f;
}

#ifdef MSPROBE_HAVE_LIBBACKTRACE
backtrace_state* state()
{
    static backtrace_state* s = backtrace_create_state(nullptr, 1, [](void*, const char*, int) { }, nullptr);
    return s;
}

struct PcInfo {
    std::vector<Frame>* frames;
};
#endif

std::vector<Frame> resolve(std::uintptr_t pc)
{
    std::vector<Frame> frames;
#ifdef MSPROBE_HAVE_LIBBACKTRACE
    PcInfo info { &frames };
    backtrace_pcinfo(
        state(), pc - 1,
        [](void* data, std::uintptr_t, const char* file, int line, const char* function) -> int {
            auto* info = static_cast<PcInfo*>(data);
            if (file && function)
                info->frames->push_back(makeFrame(file, line, shortFunction(demangle(function))));
            return 0;
        },
        [](void*, const char*, int) { }, &info);
    if (!frames.empty())
        return frames;
#endif
    Dl_info dl {};
    if (dladdr(reinterpret_cast<void*>(pc - 1), &dl) && dl.dli_sname) {
        const std::string function = shortFunction(demangle(dl.dli_sname));
        Frame f = makeFrame(dl.dli_fname ? dl.dli_fname : "?", 0, function);
        // Without line info, frames inside libtorch and the C++ runtime carry no value for the user.
        const std::string object = dl.dli_fname ? dl.dli_fname : "";
        if (object.find("libtorch") != std::string::npos || object.find("libc10") != std::string::npos
            || object.find("libstdc++") != std::string::npos || object.find("libc.so") != std::string::npos)
            f.keep = false;
        frames.push_back(f);
    }
    return frames;
}

} // namespace

std::vector<std::uintptr_t> captureStack(int skipFrames)
{
    void* buffer[64];
#ifdef MSPROBE_HAVE_LIBUNWIND
    // libunwind caches each return address's frame layout, so the repeated stacks of a training loop unwind
    // several times faster than with glibc's backtrace, which interprets the DWARF rules again every time.
    const int n = unw_backtrace(buffer, 64);
#else
    const int n = backtrace(buffer, 64);
#endif
    // One allocation (a growing vector took ~6 per op for a 30-frame stack).
    std::vector<std::uintptr_t> pcs(static_cast<std::size_t>(std::max(0, n - skipFrames - 1)));
    for (int k = skipFrames + 1; k < n; ++k)
        pcs[static_cast<std::size_t>(k - skipFrames - 1)] = reinterpret_cast<std::uintptr_t>(buffer[k]);
    return pcs;
}

std::vector<std::string> symbolizeStack(const std::vector<std::uintptr_t>& pcs)
{
    std::lock_guard lock(g_mutex);
    std::vector<std::string> out;
    for (auto pc : pcs) {
        auto it = g_cache.find(pc);
        if (it == g_cache.end())
            it = g_cache.emplace(pc, resolve(pc)).first;
        bool reachedMain = false;
        for (const auto& f : it->second) {
            if (f.keep)
                out.push_back(f.text);
            reachedMain |= f.isMain;
        }
        if (reachedMain)
            break;
    }
    return out;
}

} // namespace msprobe::capture
