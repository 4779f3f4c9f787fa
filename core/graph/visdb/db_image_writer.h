// SPDX-License-Identifier: Apache-2.0
// Writes an in-memory SQLite database image to its file, marked WAL as the reference leaves vis.db files.
// The part of the image that is already final (the table pages, before the index builds append their pages)
// can be written on a helper thread while SQLite still works on the rest: finish() then checks that part
// against the finished image and writes only what is new or changed.
#pragma once

#include "support/atomic_file.h"

#include <cstdint>
#include <filesystem>
#include <future>
#include <string_view>
#include <vector>

namespace msprobe::graph {

class DbImageWriter {
public:
    explicit DbImageWriter(const std::filesystem::path& file, support::AtomicFile::OnClash onClash = support::AtomicFile::OnClash::Replace);
    ~DbImageWriter();
    DbImageWriter(const DbImageWriter&) = delete;
    DbImageWriter& operator=(const DbImageWriter&) = delete;

    // Starts writing `image` (all but its first page) on a helper thread. Its bytes must stay readable at
    // this address until finish() returns; SQLite may change or extend them meanwhile.
    void writeEarly(std::string_view image);
    // Blocks until the early part is on disk (before changing bytes the early write may still be reading).
    void waitForEarlyWrite() const;
    // Writes the finished image (waiting for the early part first) and renames the file into place.
    // Throws msprobe::Error naming the file on I/O errors.
    void finish(std::string_view image);

    // The file; after finish() the name actually written.
    const std::filesystem::path& finalPath() const { return m_out.finalPath(); }

    // How many early-written chunks finish() had to write again because they changed (for tests).
    std::size_t rewrittenChunks() const { return m_rewritten; }

private:
    struct Chunk {
        std::uint64_t offset = 0, size = 0, hash = 0;
    };
    support::AtomicFile m_out;
    std::future<std::vector<Chunk>> m_early;
    std::uint64_t m_earlyEnd = 0;
    std::size_t m_rewritten = 0;
};

// A fast 64-bit hash of bytes (four independent multiply-rotate lanes), for change detection.
std::uint64_t imageChunkHash(std::string_view bytes);

} // namespace msprobe::graph
