// SPDX-License-Identifier: Apache-2.0
#include "dump/dump_json_chunks.h"

#include "dump/dump_json_builder.h"
#include "support/error.h"

#include <algorithm>
#include <cstring>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace msprobe::dump::detail {

namespace {

// Cuts a text of `size` bytes, fetched through readAt, into pieces of about g_chunkBytes that end after
// an entry of "data": at a line "\n" + two indents + "}," as Python's json.dump(indent=N) writes it.
// Each piece gets a synthetic start ({"data": {) and end (}}); the builder then proves that the cut was
// inside "data" (see DumpBuilder::run).
class PieceCutter {
public:
    PieceCutter(const ReadAt& readAt, std::uint64_t size)
        : m_readAt(readAt)
        , m_size(size)
    {
    }

    // False when the text does not look like an indented msprobe dump.
    bool start()
    {
        char buffer[64];
        auto headSize = static_cast<std::size_t>(std::min<std::uint64_t>(sizeof buffer, m_size));
        if (!m_readAt(buffer, 0, headSize))
            return false;
        if (const void* nul = std::memchr(buffer, '\0', headSize))
            m_nulAt = static_cast<std::uint64_t>(static_cast<const char*>(nul) - buffer);
        const char* head = buffer;
        if (headSize >= 3 && std::memcmp(head, "\xEF\xBB\xBF", 3) == 0) { // a UTF-8 byte order mark
            m_bom = 3;
            head += 3;
            headSize -= 3;
        }
        if (m_nulAt != UINT64_MAX || headSize < 4 || head[0] != '{' || head[1] != '\n')
            return false;
        std::size_t indent = 0;
        while (2 + indent < headSize && head[2 + indent] == ' ')
            ++indent;
        if (indent == 0 || 2 + indent >= headSize || head[2 + indent] != '"')
            return false;
        m_boundary = "\n" + std::string(2 * indent, ' ') + "},";
        return true;
    }

    // Reads and cuts the next piece into `piece`; false on a read failure.
    bool next(PieceText& piece)
    {
        constexpr std::string_view kContinue = "{\"data\": {";
        constexpr std::string_view kClose = "}}";
        std::vector<char>& buffer = piece.buffer;
        std::size_t window = std::max<std::size_t>(g_chunkBytes, 16);
        for (;;) {
            const std::string_view prefix = m_first ? std::string_view() : kContinue;
            const std::uint64_t left = m_size - m_offset;
            const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(std::max(window, m_carry.size()), left));
            const std::size_t needed = prefix.size() + take + kClose.size() + simdjson::SIMDJSON_PADDING;
            if (buffer.size() < needed) // only grows: resize() would zero-fill what it adds back
                buffer.resize(needed);
            char* text = buffer.data() + prefix.size();
            prefix.copy(buffer.data(), prefix.size());
            m_carry.copy(text, m_carry.size());
            if (!m_readAt(text + m_carry.size(), m_offset + m_carry.size(), take - m_carry.size()))
                return false;
            if (m_first)
                std::memset(text, ' ', m_bom); // JSON space in place of the mark keeps every offset
            const bool last = take == left;
            std::size_t cut = take;
            if (!last) {
                const std::size_t at = std::string_view(text, take).rfind(m_boundary);
                if (at == std::string_view::npos) { // no entry ends in this window: widen it
                    // A NUL byte is never valid JSON: stop before a zero-filled file widens the window to
                    // all of it. (In a piece that is cut, simdjson stops at a NUL, and the caller's whole
                    // read names it.)
                    if (const void* nul = std::memchr(text + m_carry.size(), '\0', take - m_carry.size())) {
                        m_nulAt = m_offset + static_cast<std::uint64_t>(static_cast<const char*>(nul) - text);
                        return false;
                    }
                    m_carry.assign(text, take);
                    window *= 2;
                    continue;
                }
                cut = at + m_boundary.size() - 1; // on the ","
                m_carry.assign(text + cut + 1, take - cut - 1);
                std::memcpy(text + cut, kClose.data(), kClose.size());
            }
            piece.size = prefix.size() + cut + (last ? 0 : kClose.size());
            std::memset(buffer.data() + piece.size, 0, simdjson::SIMDJSON_PADDING);
            piece.part = m_first ? (last ? Part::Whole : Part::First) : (last ? Part::Last : Part::Middle);
            m_offset += cut + 1;
            piece.end = std::min(m_offset, m_size);
            m_first = false;
            return true;
        }
    }

    std::uint64_t nulAt() const { return m_nulAt; }

private:
    const ReadAt& m_readAt;
    std::uint64_t m_size;
    std::string m_boundary;
    std::string m_carry; // text read past the last cut; it starts at m_offset
    std::uint64_t m_offset = 0;
    bool m_first = true;
    std::size_t m_bom = 0;
    std::uint64_t m_nulAt = UINT64_MAX;
};

// The model of one piece, built on its own: ids and rows start at 0, and appendPiece shifts them.
struct BuiltPiece {
    bool ok = false;
    bool sawTask = false;
    bool last = false;
    std::uint64_t end = 0;
    DumpFile model;
};

// The parsed name of a piece's entry, its views moved from the piece's copy of the name to the file's (the
// same text): the caller appends every piece alone, so it does not parse each name again.
EntryName rebased(EntryName parsed, std::string_view from, std::string_view to)
{
    for (std::string_view* part : { &parsed.prefix, &parsed.api, &parsed.modulePath, &parsed.moduleClass })
        if (part->data() >= from.data() && part->data() <= from.data() + from.size())
            *part = { to.data() + (part->data() - from.data()), part->size() };
    return parsed;
}

// Appends a piece's model to the file's, in order: strings re-interned in their order of first use
// (so the pool is the one a whole read makes), rows and nodes shifted, a repeated entry name
// replacing the earlier body as in a whole read.
void appendPiece(DumpFile& out, const DumpFile& piece, std::vector<std::int64_t>& entryOfName)
{
    std::vector<support::StringId> remap(piece.strings.size());
    constexpr std::size_t kAhead = 16;
    for (support::StringId id = 0; id < remap.size(); ++id) { // hashed once, on the lane
        if (id + kAhead < remap.size())
            out.strings.prefetchHash(piece.strings.hashAt(id + kAhead));
        remap[id] = out.strings.intern(piece.strings.view(id), piece.strings.hashAt(id));
    }
    const auto map = [&remap](support::StringId id) { return id == support::kNoString ? support::kNoString : remap[id]; };
    const auto nodeBase = static_cast<std::uint32_t>(out.nodes.size());
    const auto tensorBase = static_cast<std::uint32_t>(out.tensors.size());
    const auto scalarBase = static_cast<std::uint32_t>(out.scalars.size());
    const auto extrasBase = static_cast<std::uint32_t>(out.extras.size());
    const auto shapeBase = static_cast<std::uint32_t>(out.tensors.shapePool.size());

    // Copied whole, then shifted in place: a push_back per row checked the capacity each time.
    out.nodes.insert(out.nodes.end(), piece.nodes.begin(), piece.nodes.end());
    for (auto node = out.nodes.begin() + nodeBase; node != out.nodes.end(); ++node) {
        node->key = map(node->key);
        if (node->kind == NodeKind::Tensor)
            node->payload += tensorBase;
        else if (node->kind == NodeKind::Scalar || node->kind == NodeKind::Raw)
            node->payload += scalarBase;
    }
    out.extras.insert(out.extras.end(), piece.extras.begin(), piece.extras.end());
    for (auto extra = out.extras.begin() + extrasBase; extra != out.extras.end(); ++extra)
        *extra = { map(extra->key), map(extra->text) };
    const auto shiftExtras = [extrasBase](ExtrasRange range) { return range.count == 0 ? ExtrasRange {} : ExtrasRange { range.begin + extrasBase, range.count }; };

    const TensorTable& t = piece.tensors;
    TensorTable& ot = out.tensors;
    const auto appendMapped = [&map](std::vector<support::StringId>& into, const std::vector<support::StringId>& from) {
        const std::size_t at = into.size();
        into.resize(at + from.size());
        std::transform(from.begin(), from.end(), into.begin() + static_cast<std::ptrdiff_t>(at), map);
    };
    for (auto [into, from] : { std::pair { &ot.type, &t.type }, { &ot.dtype, &t.dtype }, { &ot.dataName, &t.dataName }, { &ot.md5, &t.md5 } })
        appendMapped(*into, *from);
    const auto appendShifted = [](auto& into, const auto& from, auto shift) {
        const std::size_t at = into.size();
        into.resize(at + from.size());
        std::transform(from.begin(), from.end(), into.begin() + static_cast<std::ptrdiff_t>(at), shift);
    };
    appendShifted(ot.shapeBegin, t.shapeBegin, [shapeBase](std::uint32_t begin) { return begin + shapeBase; });
    appendShifted(ot.extras, t.extras, shiftExtras);
    for (auto [into, from] : { std::pair { &ot.max, &t.max }, { &ot.min, &t.min }, { &ot.mean, &t.mean }, { &ot.norm, &t.norm } })
        into->append(*from);
    ot.shapeRank.insert(ot.shapeRank.end(), t.shapeRank.begin(), t.shapeRank.end());
    ot.shapePool.insert(ot.shapePool.end(), t.shapePool.begin(), t.shapePool.end());
    ot.requiresGrad.insert(ot.requiresGrad.end(), t.requiresGrad.begin(), t.requiresGrad.end());

    const ScalarTable& sc = piece.scalars;
    ScalarTable& os = out.scalars;
    appendMapped(os.type, sc.type);
    appendMapped(os.text, sc.text);
    os.number.append(sc.number);
    appendShifted(os.extras, sc.extras, shiftExtras);
    os.valueKind.insert(os.valueKind.end(), sc.valueKind.begin(), sc.valueKind.end());

    for (const Entry& entry : piece.entries) {
        const support::StringId name = remap[entry.name];
        if (entryOfName.size() <= name)
            entryOfName.resize(name + 1, -1);
        if (entryOfName[name] >= 0) {
            out.entries[static_cast<std::size_t>(entryOfName[name])].body = entry.body + nodeBase;
            continue;
        }
        entryOfName[name] = static_cast<std::int64_t>(out.entries.size());
        Entry moved;
        moved.name = name;
        moved.parsed = rebased(entry.parsed, piece.strings.view(entry.name), out.strings.view(name));
        moved.body = entry.body + nodeBase;
        out.entries.push_back(moved);
    }
}

// Builds the pieces of a chunked read on one thread per lane: a lane takes the next piece from the cutter
// (reading is sequential), indexes it and builds its model; the calling thread appends the models in
// order. At most one model per lane waits to be appended.
class PieceLanes {
public:
    PieceLanes(PieceCutter& cutter, Lanes& lanes)
        : m_cutter(cutter)
        , m_lanes(lanes.size())
    {
        for (const std::unique_ptr<Lane>& lane : lanes)
            m_threads.emplace_back([this, &lane = *lane] { work(lane); });
    }

    ~PieceLanes()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_changed.notify_all();
        for (std::thread& thread : m_threads)
            thread.join();
    }

    // The model of the next piece in order (ok false when it could not be read or built).
    BuiltPiece next()
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_built.contains(m_handedOut); });
        BuiltPiece piece = std::move(m_built[m_handedOut]);
        m_built.erase(m_handedOut++);
        m_changed.notify_all();
        return piece;
    }

private:
    void work(Lane& lane)
    {
        for (;;) {
            std::size_t index = 0;
            BuiltPiece built;
            {
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [&] { return m_stop || m_cutDone || m_nextIndex < m_handedOut + m_lanes; });
                if (m_stop || m_cutDone)
                    return;
                index = m_nextIndex++;
                try {
                    built.ok = m_cutter.next(lane.text);
                } catch (const std::exception&) { // no memory for a huge window: the caller reads whole
                }
                built.last = !built.ok || lane.text.part == Part::Whole || lane.text.part == Part::Last;
                m_cutDone = built.last;
            }
            if (built.ok)
                build(lane, built);
            {
                std::lock_guard lock(m_mutex);
                m_built.emplace(index, std::move(built));
            }
            m_changed.notify_all();
        }
    }

    static void build(Lane& lane, BuiltPiece& built)
    {
        PieceText& text = lane.text;
        built.end = text.end;
        try {
            od::document doc;
            if (lane.parser.iterate(simdjson::padded_string_view(text.buffer.data(), text.size, text.buffer.size())).get(doc)) {
                built.ok = false;
                return;
            }
            const ReadOptions quiet; // progress and cancel are the caller's, between pieces
            DumpBuilder builder(built.model, text.buffer.data(), text.size, quiet);
            builder.run(doc, text.part);
            built.sawTask = builder.sawTask();
        } catch (...) { // a parse failure, or no memory: the caller reads whole, which reports it
            built.ok = false;
        }
    }

    PieceCutter& m_cutter;
    std::size_t m_lanes;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<std::size_t, BuiltPiece> m_built;
    std::size_t m_nextIndex = 0; // the next piece to cut
    std::size_t m_handedOut = 0; // the next piece to append
    bool m_cutDone = false;
    bool m_stop = false;
    std::vector<std::thread> m_threads; // last: they start once the rest is set up
};

} // namespace

Lanes makeLanes()
{
    const std::size_t cores = std::thread::hardware_concurrency();
    Lanes lanes(std::clamp<std::size_t>(cores > 1 ? cores - 1 : 2, 2, 6));
    for (std::unique_ptr<Lane>& lane : lanes)
        lane = std::make_unique<Lane>();
    return lanes;
}

// Anything unexpected returns ok false, and the caller parses the whole text, which gives exactly the
// same model or error (the pieces are the text itself, in order).
ChunkOutcome readChunked(Lanes& lanes, const ReadAt& readAt, std::uint64_t size, DumpFile& out, const ReadOptions& options)
{
    PieceCutter cutter(readAt, size);
    if (!cutter.start())
        return { false, cutter.nulAt() };
    reserveModel(out, size);
    std::vector<std::int64_t> entryOfName;
    PieceLanes pieces(cutter, lanes);
    for (bool first = true;; first = false) {
        BuiltPiece piece = pieces.next();
        if (!piece.ok || (first && !piece.sawTask))
            return { false, cutter.nulAt() };
        if (first) {
            out.task = std::move(piece.model.task);
            out.level = std::move(piece.model.level);
            out.framework = std::move(piece.model.framework);
            out.frameworkPresent = piece.model.frameworkPresent;
            out.dumpDataDir = std::move(piece.model.dumpDataDir);
        }
        appendPiece(out, piece.model, entryOfName);
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            throw support::Error(out.path, {}, "cancelled");
        if (options.progress)
            options.progress(piece.end, size);
        if (piece.last) {
            if (!out.frameworkPresent)
                out.framework = "pytorch";
            return { true };
        }
    }
}

} // namespace msprobe::dump::detail
