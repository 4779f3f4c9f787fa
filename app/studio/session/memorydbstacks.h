// SPDX-License-Identifier: Apache-2.0
// Call stacks of a msMemScope .db dump (table memscope_dump, spec §1.5), read back on hover like the CSV ones: core's
// reader leaves the two Call Stack columns out, and numbers the rows it reads 1, 2, … in table (rowid) order
// (MemEvent::line). The loading thread keeps the rowid of every 256th row; hovering a block seeks to the nearest
// one kept and steps over at most 255 rows to its MALLOC row's stacks.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

namespace msprobe::studio {

struct CallStacks;

class DatabaseStackRows {
public:
    // nullptr unless `file` is a SQLite database whose memscope_dump table has both Call Stack columns and a stack in
    // one of its first 1000 rows.
    static std::shared_ptr<const DatabaseStackRows> build(const std::filesystem::path& file, const std::atomic<bool>* cancel = nullptr);
    // True when the file starts with the SQLite magic (what core's reader reads as the database variant).
    static bool isDatabase(const std::filesystem::path& file);

    // The stack cells of the row-th row in table order (1-based, as core numbers .db rows); empty when out of it.
    CallStacks stacksAt(std::uint64_t row) const;

private:
    static constexpr std::uint64_t kStride = 256;
    std::filesystem::path m_file;
    std::vector<std::int64_t> m_rowids; // m_rowids[k]: the rowid of row 1 + k * kStride
};

} // namespace msprobe::studio
