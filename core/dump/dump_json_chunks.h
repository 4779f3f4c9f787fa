// SPDX-License-Identifier: Apache-2.0
// Internal to the dump.json reader: a large indented dump is read in pieces cut at entry boundaries,
// each indexed and built on its own by one of several threads (lanes), then appended in order. Neither
// the whole text nor simdjson's index of it is held at once.
#pragma once

#include "dump/dump_json_reader.h"

#include <simdjson.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace msprobe::dump::detail {

enum class Part;

// Copies `size` bytes at `offset` of the text into `into`; false on a read failure.
using ReadAt = std::function<bool(char* into, std::uint64_t offset, std::size_t size)>;

// The text of one piece of a chunked read, in a buffer of its lane.
struct PieceText {
    std::vector<char> buffer;
    std::size_t size = 0;
    std::uint64_t end = 0; // file offset just past the piece
    Part part {};
};

// What a lane (a thread that indexes and builds pieces) keeps between pieces.
struct Lane {
    simdjson::ondemand::parser parser;
    PieceText text;
};
// One lane per core but one (the calling thread appends the pieces in order), at least 2 and at most 6:
// each holds a piece, simdjson's index of it and its model (a few MB).
using Lanes = std::vector<std::unique_ptr<Lane>>;
Lanes makeLanes();

// Why a chunked read gave up (the caller then reads the text whole, which gives the same model or error).
struct ChunkOutcome {
    bool ok = false;
    // Offset of a NUL byte met while cutting, or UINT64_MAX: a NUL-filled file is refused at once,
    // without widening a piece to the whole file.
    std::uint64_t nulAt = UINT64_MAX;
};

// Parses a text of `size` bytes fetched through readAt in pieces built in parallel, into `out`.
ChunkOutcome readChunked(Lanes& lanes, const ReadAt& readAt, std::uint64_t size, DumpFile& out, const ReadOptions& options);

} // namespace msprobe::dump::detail
