// SPDX-License-Identifier: Apache-2.0
// Internal to the dump.json reader: DumpBuilder turns one simdjson On-Demand document (a whole file or
// a piece of one, see dump_json_chunks.h) into the compact model. Its hot path (entries, containers,
// leaves, statistics) is in dump_json_builder.cpp; values read rarely (scalar values, Python reprs,
// extras) and the number grammar in dump_json_values.cpp.
#pragma once

#include "dump/dump_json_reader.h"

#include <simdjson.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::dump::detail {

namespace od = simdjson::ondemand;

constexpr int kMaxDepth = 400; // the Python writer's own recursion limit
constexpr std::size_t kMaxRank = 64;
constexpr std::size_t kProgressEvery = 256;

// Large texts are parsed in windows of about this size, each cut at an entry boundary, so that
// neither the whole text nor simdjson's index of it (4 bytes per structural character) is held
// at once. 1 MiB measured ~25 MB less peak memory than 4 MiB at the same CPU time (two pieces are
// built at once). Changed only by tests (setDumpJsonChunkBytesForTesting).
extern std::size_t g_chunkBytes;

// How a parsed document relates to the file: all of it, or the first, a middle or the last
// piece of a file cut at entry boundaries inside "data" (see readChunked).
enum class Part { Whole, First, Middle, Last };

// Internal: a parse failure before it gets its location attached.
struct ParseFailure {
    std::string message;
    const char* where = nullptr;
};

[[noreturn]] inline void failAt(const char* where, std::string message) { throw ParseFailure { std::move(message), where }; }

inline constexpr const char* kEndsEarly = "the file ends early: the top-level object is never closed (truncated file?)";

inline bool isNullLiteral(od::value& v)
{
    bool isNull = false;
    return !v.is_null().get(isNull) && isNull;
}

// simdjson_result<field>::value() is the field's value accessor, not the unwrap, hence this helper.
inline od::field takeField(simdjson::simdjson_result<od::field>& result)
{
    od::field field;
    if (auto error = std::move(result).get(field))
        throw simdjson::simdjson_error(error);
    return field;
}

// NaN, Infinity or -Infinity (Python's json tokens), followed by nothing but spaces.
bool nonFiniteToken(std::string_view token, double& out);

// Where the text's first JSON value closes (one past its last byte), or npos when the text ends
// inside it: a truncated file. Only used to explain a failure, so a plain byte scan.
std::size_t endOfFirstValue(std::string_view text);

// A token as the reader names it in a message: trailing spaces cut, bytes made printable, at most 40 shown.
std::string tokenText(std::string_view token);
// The token without the spaces simdjson's raw_json_token() keeps after it.
std::string_view trimmedToken(std::string_view token);

// Capacity for a typical dump of `textSize` bytes, reserved up front.
void reserveModel(DumpFile& out, std::uint64_t textSize);

// Interning through a small direct-mapped cache: most strings of a dump are the same few keys,
// types and dtypes, and the pool's hash table is large (every entry name is in it).
class InternCache {
public:
    support::StringId intern(support::StringPool& pool, std::string_view text)
    {
        Slot& slot = m_slots[slotOf(text)];
        if (slot.id != support::kNoString && slot.size == text.size() && (text.empty() || std::memcmp(slot.data, text.data(), text.size()) == 0))
            return slot.id;
        const support::StringId id = pool.intern(text);
        const std::string_view stored = pool.view(id);
        slot = { stored.data(), stored.size(), id };
        return id;
    }

private:
    struct Slot {
        const char* data = nullptr;
        std::size_t size = 0;
        support::StringId id = support::kNoString;
    };
    static constexpr std::size_t kSlots = 1024;

    static std::size_t slotOf(std::string_view text)
    {
        std::uint64_t head = 0, tail = 0;
        if (text.size() >= 8) {
            std::memcpy(&head, text.data(), 8);
            std::memcpy(&tail, text.data() + text.size() - 8, 8);
        } else if (!text.empty()) {
            std::memcpy(&head, text.data(), text.size());
        }
        const std::uint64_t mixed = (head * 0x9e3779b97f4a7c15ull) ^ (tail * 0xc2b2ae3d27d4eb4full) ^ text.size();
        return static_cast<std::size_t>(mixed >> 54) % kSlots;
    }

    std::array<Slot, kSlots> m_slots {};
};

class DumpBuilder {
public:
    DumpBuilder(DumpFile& out, const char* base, std::size_t size, const ReadOptions& options)
        : m_out(out)
        , m_base(base)
        , m_size(size)
        , m_totalSize(size)
        , m_options(options)
    {
        reserveModel(out, size);
    }

    // A First or Middle piece ends with a synthetic "}}" that must close "data" and the top level;
    // a Middle or Last piece starts with a synthetic {"data": { that continues the open "data".
    void run(od::document& doc, Part part = Part::Whole);

    bool sawTask() const { return m_sawTask; }
    const char* currentLocation() const;
    std::string_view currentEntry() const { return m_entryName; }

private:
    struct LeafFields {
        std::string_view type, dtype, dataName, md5;
        bool hasDtype = false, isP2P = false;
        StatValue max, min, mean, norm;
        std::int8_t requiresGrad = -1;
        ScalarValueKind valueKind = ScalarValueKind::Missing;
        StatValue number;
        std::string valueText, md5Text;
    };

    // dump_json_builder.cpp
    std::string optionalString(od::value value, const char* key);
    void readData(od::value value, bool continuation);
    void reportProgress();
    support::StringId intern(std::string_view text) { return m_internCache.intern(m_out.strings, text); }
    std::string_view keyOf(od::field& field);
    std::uint32_t pushNode(NodeKind kind, support::StringId key, std::uint32_t payload = 0);
    void closeContainer(std::uint32_t index);
    void readValue(od::value value, support::StringId key, int depth);
    void readContainerObject(od::object& object, support::StringId key, int depth, bool mayBeLeaf);
    void readLeaf(od::object& object, support::StringId key, int depth);
    void startLeaf();
    void finishLeaf(const LeafFields& leaf, support::StringId key);
    void readLeafFields(od::object& object, LeafFields& leaf, int depth, bool insideP2P);
    [[gnu::always_inline]] inline void readLeafField(od::field& field, LeafFields& leaf, int depth, bool insideP2P);
    void readShape(od::value v);
    void readStatInto(od::value v, StatValue& stat, const char* name, int depth);
    StatValue readStat(od::value v, const char* name);
    StatValue readNumber(od::value v, const char* name);
    // A number get_number() read, as a statistic (`v` is its value, for the rare re-read).
    static StatValue statOf(od::number number, od::value& v);

    // dump_json_values.cpp
    void truncate(std::size_t nodes, std::size_t tensors, std::size_t scalars, std::size_t extras);
    void readScalarValue(od::value v, LeafFields& leaf, int depth);
    void addExtra(std::string_view key, od::value v, int depth);
    void addExtraText(std::string_view key, std::string text);
    void appendPythonRepr(od::value v, std::string& out, int depth);
    void readRawScalar(od::value v, support::StringId key);
    StatValue readUnusualNumber(od::value v, const char* name);
    void readNumericMd5(od::value v, LeafFields& leaf);
    // Keeps the first position and the last value of a key repeated in the Dict at `index`, as json.load does.
    void dropRepeatedKeys(std::uint32_t index);

    DumpFile& m_out;
    const char* m_base;
    std::size_t m_size;
    std::uint64_t m_totalSize;
    const ReadOptions& m_options;
    bool m_sawData = false, m_sawTask = false;
    std::vector<std::int64_t> m_entryOfName; // of the "data" object being read
    const char* m_dataClosedAt = nullptr; // where the iterator stood after the last "data" object
    InternCache m_internCache;
    od::document* m_doc = nullptr;
    const char* m_pos = nullptr;
    std::string_view m_entryName;
    std::vector<std::int64_t> m_shape;
    std::size_t m_leafExtrasBegin = 0; // the extras of the leaf being read start here
};

} // namespace msprobe::dump::detail
