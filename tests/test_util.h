// SPDX-License-Identifier: Apache-2.0
// Small helpers shared by the Qt Test suites.
#pragma once

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <string>

namespace msprobe::test {

inline std::filesystem::path dataDir() { return MSPROBE_TEST_DATA; }
inline std::filesystem::path refDumps() { return dataDir() / "msprobe-ref" / "dumps"; }

// The only rank directory below a step directory (fixtures use proc<pid> names).
inline std::filesystem::path onlySubdir(const std::filesystem::path& dir)
{
    std::filesystem::path found;
    for (const auto& item : std::filesystem::directory_iterator(dir))
        if (item.is_directory())
            found = item.path();
    return found;
}

inline void writeFile(const std::filesystem::path& file, const std::string& text)
{
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << text;
}

inline QString q(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

} // namespace msprobe::test
