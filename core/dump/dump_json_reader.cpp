// SPDX-License-Identifier: Apache-2.0
// The reader's entry points: a large file is read in pieces (dump_json_chunks), anything else or any
// failure whole (dump_json_builder), with errors placed in the file.
#include "dump/dump_json_reader.h"

#include "dump/dump_json_builder.h"
#include "dump/dump_json_bytes.h"
#include "dump/dump_json_chunks.h"
#include "support/error.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

namespace msprobe::dump {

using namespace detail;

namespace {

// Progress that never goes back, even when a chunked read falls back to a whole-text parse.
ReadOptions monotonicProgress(const ReadOptions& options, std::shared_ptr<std::uint64_t> reported)
{
    ReadOptions tracked = options;
    if (options.progress)
        tracked.progress = [progress = options.progress, reported](std::uint64_t done, std::uint64_t total) {
            *reported = std::max(*reported, done);
            progress(*reported, total);
        };
    return tracked;
}

} // namespace

struct DumpJsonReader::State {
    od::parser parser;
    simdjson::padded_string buffer;
    // Chunked reads: bounded by the chunk size, so kept between files.
    Lanes lanes = makeLanes();
};

namespace detail {
// For tests only (declared by them): sets the piece size of large reads (texts up to it are parsed
// whole) and returns the previous one.
std::size_t setDumpJsonChunkBytesForTesting(std::size_t bytes)
{
    return std::exchange(g_chunkBytes, bytes);
}
} // namespace detail

DumpJsonReader::DumpJsonReader()
    : m_state(std::make_unique<State>())
{
}

DumpJsonReader::~DumpJsonReader() = default;

DumpFile DumpJsonReader::read(const std::filesystem::path& file, const ReadOptions& options)
{
    const std::string display = file.string();
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
        throw support::Error(display, {}, "is a directory, not a dump.json file");
    if (!std::filesystem::exists(file, ec))
        throw support::Error(display, {}, "no such file");
    const ReadOptions tracked = monotonicProgress(options, std::make_shared<std::uint64_t>(0));
    const std::uint64_t size = std::filesystem::file_size(file, ec);
    if (!ec && size > g_chunkBytes) {
        if (std::unique_ptr<std::FILE, int (*)(std::FILE*)> in { std::fopen(display.c_str(), "rb"), &std::fclose }) {
            std::uint64_t position = 0;
            const ReadAt readAt = [&](char* into, std::uint64_t offset, std::size_t count) {
                if (offset != position && std::fseek(in.get(), static_cast<long>(offset), SEEK_SET) != 0)
                    return false;
                position = offset + count;
                return std::fread(into, 1, count, in.get()) == count;
            };
            DumpFile dump;
            dump.path = display;
            dump.fileSize = size;
            const ChunkOutcome outcome = readChunked(m_state->lanes, readAt, size, dump, tracked);
            if (outcome.ok) {
                if (tracked.progress)
                    tracked.progress(size, size);
                return dump;
            }
            if (outcome.nulAt != UINT64_MAX)
                throw support::Error(display, describeFileOffset(file, outcome.nulAt), nulByteMessage());
        }
        // Whatever failed, a file with a NUL byte is refused before it is read whole (a zero-filled file
        // of gigabytes would be held in memory for nothing).
        if (const auto nul = firstNulInFile(file))
            throw support::Error(display, describeFileOffset(file, *nul), nulByteMessage());
    }
    auto loaded = simdjson::padded_string::load(display);
    if (loaded.error())
        throw support::Error(display, {}, std::string("cannot read the file: ") + simdjson::error_message(loaded.error()));
    m_state->buffer = std::move(loaded).value_unsafe();
    DumpFile dump = parse(std::string_view(m_state->buffer.data(), m_state->buffer.size()), display, tracked);
    m_state->buffer = simdjson::padded_string(); // give the memory back between files
    return dump;
}

DumpFile DumpJsonReader::parse(std::string_view text, const std::string& displayName, const ReadOptions& givenOptions)
{
    const ReadOptions options = monotonicProgress(givenOptions, std::make_shared<std::uint64_t>(0));
    if (text.size() > g_chunkBytes && text.data() != m_state->buffer.data()) {
        const ReadAt readAt = [text](char* into, std::uint64_t offset, std::size_t count) {
            if (offset > text.size() || count > text.size() - offset)
                return false;
            std::memcpy(into, text.data() + offset, count);
            return true;
        };
        DumpFile dump;
        dump.path = displayName;
        dump.fileSize = text.size();
        if (readChunked(m_state->lanes, readAt, text.size(), dump, options).ok) {
            if (options.progress)
                options.progress(dump.fileSize, dump.fileSize);
            return dump;
        }
    }
    DumpFile dump;
    dump.path = displayName;
    dump.fileSize = text.size();

    simdjson::padded_string copy;
    simdjson::padded_string_view view;
    if (text.data() == m_state->buffer.data()) {
        view = simdjson::padded_string_view(text.data(), text.size(), m_state->buffer.size() + simdjson::SIMDJSON_PADDING);
    } else {
        copy = simdjson::padded_string(text);
        view = simdjson::padded_string_view(copy.data(), copy.size(), copy.size() + simdjson::SIMDJSON_PADDING);
    }
    char* base = text.data() == m_state->buffer.data() ? m_state->buffer.data() : copy.data();
    if (text.empty())
        throw support::Error(displayName, {}, "the file is empty");
    if (text.starts_with("\xEF\xBB\xBF")) // a UTF-8 byte order mark: JSON spaces keep every offset
        std::memset(base, ' ', 3);
    const std::string_view body(base, view.size());
    DumpBuilder builder(dump, base, view.size(), options);
    od::document doc; // outlives the try: the handlers ask the builder where the iterator stopped
    const auto fail = [&](const char* where, const std::string& message) {
        if (!where)
            where = builder.currentLocation();
        std::string place = where ? support::describeOffset(base, view.size(), static_cast<std::size_t>(where - base)) : std::string {};
        if (!builder.currentEntry().empty())
            place += (place.empty() ? "" : ", ") + std::string("entry '") + printable(builder.currentEntry()) + "'";
        // Whatever simdjson tripped on first, a byte that no JSON text has is the cause; else a text that
        // ends inside its top-level object is truncated.
        if (const auto bad = findBadByte(body))
            throw support::Error(displayName, support::describeOffset(base, view.size(), bad->offset), bad->message);
        const std::size_t start = body.find_first_not_of(" \t\r\n");
        if (start != std::string_view::npos && body[start] == '{' && endOfFirstValue(body) == std::string_view::npos)
            throw support::Error(displayName, support::describeOffset(base, view.size(), view.size()), kEndsEarly);
        throw support::Error(displayName, place, message);
    };
    try {
        auto error = m_state->parser.iterate(view).get(doc);
        if (error == simdjson::UNCLOSED_STRING)
            throw ParseFailure { "invalid JSON: a string is opened but never closed (truncated file?)", base + view.size() };
        if (error)
            throw ParseFailure { std::string("invalid JSON: ") + simdjson::error_message(error), nullptr };
        builder.run(doc);
    } catch (const ParseFailure& failure) {
        fail(failure.where, failure.message);
    } catch (const simdjson::simdjson_error& failure) {
        fail(nullptr, std::string("invalid JSON: ") + failure.what());
    }
    if (options.progress)
        options.progress(dump.fileSize, dump.fileSize);
    return dump;
}

DumpFile readDumpJson(const std::filesystem::path& file, const ReadOptions& options)
{
    DumpJsonReader reader;
    return reader.read(file, options);
}

} // namespace msprobe::dump