// SPDX-License-Identifier: Apache-2.0
#include "graph/visdb/db_image_writer.h"

#include "support/error.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace msprobe::graph {

namespace {

// The first page holds the header and sqlite_schema, which every CREATE INDEX changes: it is always written
// last. 64 kB covers the largest page size and keeps every other write O_DIRECT-aligned.
constexpr std::uint64_t kHeadBytes = 64u << 10;
constexpr std::uint64_t kChunkBytes = 16u << 20;

std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

struct FreeDeleter {
    void operator()(void* p) const { std::free(p); }
};

} // namespace

std::uint64_t imageChunkHash(std::string_view bytes)
{
    constexpr std::uint64_t k1 = 0x9E3779B185EBCA87ull, k2 = 0xC2B2AE3D27D4EB4Full;
    std::uint64_t lane[4] = { k1, k2, ~k1, ~k2 };
    const char* p = bytes.data();
    std::size_t n = bytes.size();
    for (; n >= 32; n -= 32, p += 32)
        for (int i = 0; i < 4; ++i) {
            std::uint64_t w;
            std::memcpy(&w, p + 8 * i, 8);
            lane[i] = rotl(lane[i] + w * k2, 31) * k1;
        }
    std::uint64_t h = rotl(lane[0], 1) + rotl(lane[1], 7) + rotl(lane[2], 12) + rotl(lane[3], 18) + bytes.size();
    for (; n > 0; --n, ++p)
        h = rotl(h ^ static_cast<unsigned char>(*p), 11) * k1;
    return (h ^ (h >> 29)) * k2;
}

DbImageWriter::DbImageWriter(const std::filesystem::path& file, support::AtomicFile::OnClash onClash)
    : m_out(file, onClash)
{
    m_out.useDirectWrites();
}

DbImageWriter::~DbImageWriter()
{
    // The helper reads memory the caller owns: never leave it running.
    if (m_early.valid())
        m_early.wait();
}

void DbImageWriter::writeEarly(std::string_view image)
{
    if (m_early.valid() || image.size() <= kHeadBytes)
        return;
    m_earlyEnd = image.size();
    m_early = std::async(std::launch::async, [this, image] {
        std::vector<Chunk> chunks;
        for (std::uint64_t offset = kHeadBytes; offset < image.size(); offset += kChunkBytes) {
            const std::string_view bytes = image.substr(offset, kChunkBytes);
            // Hashed before it is written: a change after the hash shows up as a mismatch in finish().
            chunks.push_back({ offset, bytes.size(), imageChunkHash(bytes) });
            m_out.writeAt(offset, bytes);
        }
        return chunks;
    });
}

void DbImageWriter::waitForEarlyWrite() const
{
    if (m_early.valid())
        m_early.wait();
}

void DbImageWriter::finish(std::string_view image)
{
    std::vector<Chunk> chunks;
    if (m_early.valid())
        chunks = m_early.get();
    if (image.size() < m_earlyEnd)
        throw support::Error(m_out.finalPath().string(), {}, "internal error: the database image shrank while it was written");

    // Check the early chunks against the finished image, half on a helper thread.
    std::vector<char> changed(chunks.size(), 0);
    auto check = [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            changed[i] = imageChunkHash(image.substr(chunks[i].offset, chunks[i].size)) != chunks[i].hash;
    };
    auto firstHalf = std::async(std::launch::async, check, 0, chunks.size() / 2);
    check(chunks.size() / 2, chunks.size());
    firstHalf.get();

    for (std::size_t i = 0; i < chunks.size(); ++i)
        if (changed[i]) {
            m_out.writeAt(chunks[i].offset, image.substr(chunks[i].offset, chunks[i].size));
            ++m_rewritten;
        }
    const std::uint64_t tail = std::max<std::uint64_t>(m_earlyEnd, std::min<std::uint64_t>(kHeadBytes, image.size()));
    if (tail < image.size())
        m_out.writeAt(tail, image.substr(tail));

    // The header page from an aligned copy, with file format bytes 18 and 19 = 2 (WAL).
    const std::size_t headSize = static_cast<std::size_t>(std::min<std::uint64_t>(kHeadBytes, image.size()));
    std::unique_ptr<char, FreeDeleter> head(static_cast<char*>(std::aligned_alloc(4096, kHeadBytes)));
    if (!head)
        throw support::Error(m_out.finalPath().string(), {}, "out of memory");
    std::memcpy(head.get(), image.data(), headSize);
    if (headSize >= 100)
        head.get()[18] = head.get()[19] = 2;
    m_out.writeAt(0, std::string_view(head.get(), headSize));
    m_out.commit();
}

} // namespace msprobe::graph
