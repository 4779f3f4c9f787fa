// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "dump/entry_name.h"
#include "support/string_pool.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace msprobe::dump {

// A statistic cell as written by Python: absent, null, an int, a float (incl. NaN/±inf) or a bool.
enum class StatKind : std::uint8_t { Missing, Null, Int, Float, Bool };

// The statistic keys of a dump item, in the order StatValue arrays keep them.
inline constexpr std::string_view kStatKeys[4] = { "Max", "Min", "Mean", "Norm" };

struct StatValue {
    StatKind kind = StatKind::Missing;
    union {
        double f;
        std::int64_t i;
        bool b;
    };
    StatValue() : f(0.0) { }
    static StatValue null() { StatValue v; v.kind = StatKind::Null; return v; }
    static StatValue ofInt(std::int64_t x) { StatValue v; v.kind = StatKind::Int; v.i = x; return v; }
    static StatValue ofFloat(double x) { StatValue v; v.kind = StatKind::Float; v.f = x; return v; }
    static StatValue ofBool(bool x) { StatValue v; v.kind = StatKind::Bool; v.i = 0; v.b = x; return v; }

    bool isNumber() const { return kind == StatKind::Int || kind == StatKind::Float; }
    double asDouble() const { return kind == StatKind::Int ? static_cast<double>(i) : kind == StatKind::Float ? f : NAN; }
    bool isNonFinite() const { return kind == StatKind::Float && !std::isfinite(f); }
    bool operator==(const StatValue& other) const;
};

// Python's str() of the value: "29", "2.0", "nan", "inf", "True", "None".
std::string pythonText(const StatValue& value);

enum class NodeKind : std::uint8_t {
    Null, // JSON null (a None or an unsupported object)
    List, // JSON array of nodes
    Dict, // JSON object that is not a leaf (kwargs, parameters, namedtuples); may be empty ("{}")
    Tensor, // tensor or ndarray leaf; P2POp leaves too (the tensor inside, op/peer/... as extras)
    Scalar, // any other leaf with a "type" (int, float, str, bool, slice, torch.Size, torch.dtype, ProcessGroup, ...)
    Raw, // a bare JSON number/string/bool where a leaf was expected (not written by msprobe; kept, not lost)
};

// Values are stored as a flat pre-order array; a container's children follow it, and
// node + subtreeSize is its next sibling.
struct ValueNode {
    NodeKind kind = NodeKind::Null;
    support::StringId key = support::kNoString; // the dict key when the parent is a Dict
    std::uint32_t subtreeSize = 1; // this node and all its descendants
    std::uint32_t payload = 0; // Tensor: row in TensorTable; Scalar/Raw: row in ScalarTable
};

// Keys of a leaf that the model has no column for (device_mesh, placements, group_ranks, op, peer, ...),
// kept as Python-repr text so nothing is lost.
struct LeafExtra {
    support::StringId key;
    support::StringId text;
};

struct ExtrasRange {
    std::uint32_t begin = 0;
    std::uint32_t count = 0;
};

// One statistic (Max, Min, Mean or Norm) of every tensor row: a kind byte and 8 value bytes per row.
class StatColumn {
public:
    void push(const StatValue& value);
    void set(std::size_t row, const StatValue& value);
    StatValue operator[](std::size_t row) const;
    std::size_t size() const { return m_kind.size(); }
    void reserve(std::size_t n) { m_kind.reserve(n); m_bits.reserve(n); }
    // See support::adviseHugePages: for the reserved capacity of a large model.
    void adviseHugePages() const;
    // Appends every row of `other`.
    void append(const StatColumn& other)
    {
        m_kind.insert(m_kind.end(), other.m_kind.begin(), other.m_kind.end());
        m_bits.insert(m_bits.end(), other.m_bits.begin(), other.m_bits.end());
    }
    // Keeps the first `rows` rows.
    void truncate(std::size_t rows) { m_kind.resize(std::min(rows, size())); m_bits.resize(std::min(rows, size())); }

private:
    std::vector<StatKind> m_kind;
    std::vector<std::uint64_t> m_bits;
};

// Columnar tensor statistics: one row per tensor leaf.
struct TensorTable {
    std::vector<support::StringId> type; // "torch.Tensor", "numpy.ndarray", ...
    std::vector<support::StringId> dtype; // "torch.float32"
    std::vector<std::uint32_t> shapeBegin; // into shapePool
    std::vector<std::uint8_t> shapeRank;
    std::vector<std::int64_t> shapePool;
    StatColumn max, min, mean, norm;
    std::vector<std::int8_t> requiresGrad; // -1 absent, 0 false, 1 true
    std::vector<support::StringId> dataName; // kNoString when absent
    std::vector<support::StringId> md5; // kNoString when absent
    std::vector<ExtrasRange> extras;

    std::size_t size() const { return type.size(); }
    std::span<const std::int64_t> shape(std::size_t row) const
    {
        return { shapePool.data() + shapeBegin[row], shapeRank[row] };
    }
};

// The "value" of a non-tensor leaf.
enum class ScalarValueKind : std::uint8_t { Missing, Null, Bool, Int, Float, String, Composite };

struct ScalarTable {
    std::vector<support::StringId> type; // leaf "type" ("int", "torch.Size", ...); kNoString for Raw nodes
    std::vector<ScalarValueKind> valueKind;
    StatColumn number; // Bool/Int/Float values
    std::vector<support::StringId> text; // Python str(value): "3", "2.0", "True", "None", "[1, None, 2]", the string itself
    std::vector<ExtrasRange> extras;

    std::size_t size() const { return type.size(); }
};

struct Entry {
    support::StringId name = support::kNoString;
    EntryName parsed; // views into the pooled name
    std::uint32_t body = 0; // index of the entry's body node (normally a Dict of input_args/.../output)
};

// One dump.json (or debug.json), fully read. Entries keep the file's insertion order.
struct DumpFile {
    std::string path;
    std::string task;
    std::string level;
    std::string framework; // "pytorch" when the file has none
    bool frameworkPresent = false;
    std::string dumpDataDir; // empty when null/absent
    std::uint64_t fileSize = 0;

    support::StringPool strings;
    std::vector<Entry> entries;
    std::vector<ValueNode> nodes;
    TensorTable tensors;
    ScalarTable scalars;
    std::vector<LeafExtra> extras;

    std::string_view text(support::StringId id) const { return strings.view(id); }
    std::string_view entryName(std::size_t index) const { return strings.view(entries[index].name); }
    std::span<const LeafExtra> extrasOf(ExtrasRange range) const { return { extras.data() + range.begin, range.count }; }
    // Children of a List/Dict node, as node indices in order.
    std::vector<std::uint32_t> children(std::uint32_t node) const;
    // The direct child of a Dict node with the given key, or -1.
    std::int64_t childByKey(std::uint32_t node, std::string_view key) const;
};

struct DumpCounts {
    std::size_t entries = 0, api = 0, module = 0, backward = 0, parametersGrad = 0, debug = 0, unknown = 0;
    std::size_t tensors = 0, tensorsWithNanOrInf = 0;
};
DumpCounts countEntries(const DumpFile& dump);

// Whether a tensor row has a NaN or ±inf in Max/Min/Mean/Norm.
bool tensorHasNanOrInf(const TensorTable& tensors, std::size_t row);

} // namespace msprobe::dump
