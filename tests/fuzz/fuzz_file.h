// SPDX-License-Identifier: Apache-2.0
// Shared by the file-reading fuzz targets: the parsers' public entry points take paths, so each input is
// written to a file in a directory of this process (removed at exit) and read back from there.
#pragma once

#include "support/error.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace msprobe::fuzz {

class ScratchDir {
public:
    ScratchDir()
    {
        const char* base = std::getenv("TMPDIR");
        m_dir = std::filesystem::path(base && *base ? base : "/tmp") / ("msprobe_fuzz_" + std::to_string(::getpid()));
        std::filesystem::create_directories(m_dir);
    }
    ~ScratchDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
    }
    const std::filesystem::path& path() const { return m_dir; }

    // Writes the input to dir/relative (making its folders) and returns that path.
    std::filesystem::path write(const std::filesystem::path& relative, const std::uint8_t* data, std::size_t size) const
    {
        const std::filesystem::path file = m_dir / relative;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        return file;
    }

private:
    std::filesystem::path m_dir;
};

inline const ScratchDir& scratch()
{
    static const ScratchDir dir;
    return dir;
}

// Runs a parse: a msprobe::Error is an accepted answer to bad input, any other exception is a bug.
template <class Parse>
void expectResultOrError(const char* target, Parse parse)
{
    try {
        parse();
    } catch (const msprobe::support::Error&) {
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: not a msprobe::Error: %s\n", target, e.what());
        std::abort();
    }
}

} // namespace msprobe::fuzz
