// SPDX-License-Identifier: Apache-2.0
#include "dump/dump_json_reader.h"

#include "support/error.h"
#include "support/pyformat.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

namespace msprobe {

namespace od = simdjson::ondemand;

namespace {

constexpr int kMaxDepth = 400; // the Python writer's own recursion limit
constexpr std::size_t kMaxRank = 64;
constexpr std::size_t kProgressEvery = 256;

// Large texts are parsed in windows of about this size, each cut at an entry boundary, so that
// neither the whole text nor simdjson's index of it (4 bytes per structural character) is held
// at once. 1 MiB measured ~25 MB less peak memory than 4 MiB at the same CPU time (two pieces are
// built at once). Changed only by tests (setDumpJsonChunkBytesForTesting).
std::size_t g_chunkBytes = std::size_t(1) << 20;

// How a parsed document relates to the file: all of it, or the first, a middle or the last
// piece of a file cut at entry boundaries inside "data" (see readChunked).
enum class Part { Whole, First, Middle, Last };

// Internal: a parse failure before it gets its location attached.
struct ParseFailure {
    std::string message;
    const char* where = nullptr;
};

[[noreturn]] void failAt(const char* where, std::string message) { throw ParseFailure { std::move(message), where }; }

bool isNullLiteral(od::value& v)
{
    bool isNull = false;
    return !v.is_null().get(isNull) && isNull;
}

// simdjson_result<field>::value() is the field's value accessor, not the unwrap, hence this helper.
od::field takeField(simdjson::simdjson_result<od::field>& result)
{
    od::field field;
    if (auto error = std::move(result).get(field))
        throw simdjson::simdjson_error(error);
    return field;
}

bool nonFiniteToken(std::string_view token, double& out)
{
    while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
        token.remove_suffix(1);
    if (token == "NaN")
        out = std::numeric_limits<double>::quiet_NaN();
    else if (token == "Infinity")
        out = std::numeric_limits<double>::infinity();
    else if (token == "-Infinity")
        out = -std::numeric_limits<double>::infinity();
    else
        return false;
    return true;
}

// Where the text's first JSON value closes (one past its last byte), or npos when the text ends
// inside it: a truncated file. Only used to explain a failure, so a plain byte scan.
std::size_t endOfFirstValue(std::string_view text)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t at = 0; at < text.size(); ++at) {
        const char c = text[at];
        if (inString) {
            if (c == '\\')
                ++at;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth <= 0) {
            return at + 1;
        }
    }
    return std::string_view::npos;
}

constexpr const char* kEndsEarly = "the file ends early: the top-level object is never closed (truncated file?)";

// A string value exactly as get_string() gives it, and consumed the same way; read in place when it
// has no escape, which saves simdjson's copy.
simdjson::error_code stringOf(od::value& v, std::string_view& out)
{
    const std::string_view token = v.raw_json_token(); // the string and the spaces after it
    const std::size_t close = token.find_last_not_of(" \t\n\r");
    if (token.size() >= 2 && token.front() == '"' && close != std::string_view::npos && close > 0 && token[close] == '"') {
        const std::string_view inner = token.substr(1, close - 1);
        od::raw_json_string consumed;
        if (inner.find('\\') == std::string_view::npos && !v.get_raw_json_string().get(consumed)) {
            out = inner;
            return simdjson::SUCCESS;
        }
    }
    return v.get_string().get(out);
}

// Interning through a small direct-mapped cache: most strings of a dump are the same few keys,
// types and dtypes, and the pool's hash table is large (every entry name is in it).
class InternCache {
public:
    StringId intern(StringPool& pool, std::string_view text)
    {
        Slot& slot = m_slots[slotOf(text)];
        if (slot.id != kNoString && slot.size == text.size() && (text.empty() || std::memcmp(slot.data, text.data(), text.size()) == 0))
            return slot.id;
        const StringId id = pool.intern(text);
        const std::string_view stored = pool.view(id);
        slot = { stored.data(), stored.size(), id };
        return id;
    }

private:
    struct Slot {
        const char* data = nullptr;
        std::size_t size = 0;
        StringId id = kNoString;
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

// Capacity for a typical dump of this size (msprobe writes ~130 bytes per node, ~350 per tensor,
// ~800 per entry): growing by doubling would copy each column and briefly hold it twice.
// Capacity that is never written costs address space only.
void reserveModel(DumpFile& out, std::uint64_t textSize)
{
    const auto expect = [textSize](std::uint64_t bytesPerItem) { return static_cast<std::size_t>(textSize / bytesPerItem); };
    out.entries.reserve(expect(512));
    out.strings.reserve(expect(512)); // mostly entry names
    out.nodes.reserve(expect(96));
    TensorTable& t = out.tensors;
    const std::size_t tensors = expect(256);
    for (auto* column : { &t.type, &t.dtype, &t.shapeBegin, &t.dataName, &t.md5 })
        column->reserve(tensors);
    t.shapeRank.reserve(tensors);
    t.requiresGrad.reserve(tensors);
    t.extras.reserve(tensors);
    t.shapePool.reserve(tensors * 4);
    for (StatColumn* column : { &t.max, &t.min, &t.mean, &t.norm })
        column->reserve(tensors);
}

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
    void run(od::document& doc, Part part = Part::Whole)
    {
        m_doc = &doc;
        od::object top;
        if (const auto error = doc.get_object().get(top)) {
            // simdjson's only check of a whole object up front: the last token must be its "}".
            if (error == simdjson::INCOMPLETE_ARRAY_OR_OBJECT) {
                const std::size_t end = endOfFirstValue({ m_base, m_size });
                if (end == std::string_view::npos)
                    failAt(m_base + m_size, kEndsEarly);
                failAt(m_base + end, "unexpected content after the top-level object");
            }
            failAt(m_base, "the top level is not a JSON object");
        }
        bool continuation = part == Part::Middle || part == Part::Last;
        bool sawDataHere = false;
        m_dataClosedAt = nullptr;
        for (auto fieldResult : top) {
            od::field field = takeField(fieldResult);
            m_pos = field.key().raw();
            std::string_view key = field.unescaped_key().value();
            od::value value = field.value();
            // A piece is built on its own: a top-level key that its neighbours would have to know of
            // sends the read back to a whole parse (see readChunked).
            if (part != Part::Whole && (sawDataHere || (continuation && key != "data")))
                failAt(m_pos, "a top-level key next to a cut \"data\"");
            if (key == "task") {
                m_out.task = optionalString(value, "task");
                m_sawTask = true;
            } else if (key == "level") {
                m_out.level = optionalString(value, "level");
            } else if (key == "framework") {
                m_out.framework = optionalString(value, "framework");
                m_out.frameworkPresent = true;
            } else if (key == "dump_data_dir") {
                m_out.dumpDataDir = optionalString(value, "dump_data_dir");
            } else if (key == "data") {
                readData(value, continuation);
                continuation = false;
                m_sawData = sawDataHere = true;
            }
        }
        const char* trailing = nullptr;
        if (!doc.current_location().get(trailing))
            failAt(trailing, "unexpected content after the top-level object");
        if (part == Part::First || part == Part::Middle) {
            if (m_dataClosedAt != m_base + m_size - 1)
                failAt(nullptr, "the piece does not end inside \"data\"");
            return;
        }
        if (part == Part::Last)
            return; // the first piece had the top-level keys
        if (!m_sawData)
            failAt(nullptr, "not a msprobe dump: the top-level key \"data\" is missing");
        if (!m_sawTask)
            failAt(nullptr, "not a msprobe dump: the top-level key \"task\" is missing");
        if (!m_out.frameworkPresent)
            m_out.framework = "pytorch";
    }

    bool sawTask() const { return m_sawTask; }

    const char* currentLocation() const
    {
        const char* location = nullptr;
        if (m_doc && !m_doc->current_location().get(location) && location >= m_base && location <= m_base + m_size)
            return location;
        return m_pos;
    }
    std::string_view currentEntry() const { return m_entryName; }

private:
    std::string optionalString(od::value value, const char* key)
    {
        if (isNullLiteral(value))
            return {};
        std::string_view text;
        if (value.get_string().get(text))
            failAt(m_pos, std::string("the top-level key \"") + key + "\" must be a string");
        return std::string(text);
    }

    void readData(od::value value, bool continuation)
    {
        od::object data;
        if (value.get_object().get(data))
            failAt(m_pos, "\"data\" must be a JSON object of entries");
        std::vector<std::int64_t>& entryOfName = m_entryOfName;
        if (!continuation)
            entryOfName.clear();
        for (auto fieldResult : data) {
            od::field field = takeField(fieldResult);
            m_pos = field.key().raw();
            // Names are nearly all new: interned after the body, by when the prefetched slot is in cache,
            // and without the small cache, which they would only flush.
            const std::string_view name = keyOf(field);
            m_out.strings.prefetch(name);
            m_entryName = name;

            od::value body = field.value();
            od::json_type type;
            if (body.type().get(type) || type != od::json_type::object)
                failAt(m_pos, "the entry is not a JSON object");
            const auto bodyIndex = static_cast<std::uint32_t>(m_out.nodes.size());
            od::object bodyObject = body.get_object().value();
            readContainerObject(bodyObject, kNoString, 1, /*mayBeLeaf=*/false);
            const StringId nameId = m_out.strings.intern(name);
            m_entryName = m_out.strings.view(nameId);

            if (entryOfName.size() <= nameId)
                entryOfName.resize(nameId + 1, -1);
            if (entryOfName[nameId] >= 0) {
                // Python's json keeps the first position and the last value of a repeated key.
                m_out.entries[static_cast<std::size_t>(entryOfName[nameId])].body = bodyIndex;
            } else {
                entryOfName[nameId] = static_cast<std::int64_t>(m_out.entries.size());
                Entry entry;
                entry.name = nameId;
                entry.parsed = parseEntryName(m_entryName);
                entry.body = bodyIndex;
                m_out.entries.push_back(entry);
            }
            if (m_out.entries.size() % kProgressEvery == 0)
                reportProgress();
        }
        m_entryName = {};
        const char* next = nullptr;
        m_dataClosedAt = m_doc->current_location().get(next) ? nullptr : next;
    }

    void reportProgress()
    {
        if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))
            throw Error(m_out.path, {}, "cancelled");
        if (m_options.progress && m_pos) {
            const auto done = static_cast<std::int64_t>(m_pos - m_base);
            m_options.progress(static_cast<std::uint64_t>(std::clamp<std::int64_t>(done, 0, static_cast<std::int64_t>(m_totalSize))),
                m_totalSize);
        }
    }

    StringId intern(std::string_view text) { return m_internCache.intern(m_out.strings, text); }

    // A key exactly as unescaped_key() gives it; read in place when it has no escape.
    std::string_view keyOf(od::field& field)
    {
        const char* const raw = field.key().raw();
        for (const char* p = raw; p < m_base + m_size; ++p) {
            if (*p == '"')
                return { raw, static_cast<std::size_t>(p - raw) };
            if (*p == '\\')
                break;
        }
        return field.unescaped_key().value();
    }

    std::uint32_t pushNode(NodeKind kind, StringId key, std::uint32_t payload = 0)
    {
        ValueNode node;
        node.kind = kind;
        node.key = key;
        node.payload = payload;
        m_out.nodes.push_back(node);
        return static_cast<std::uint32_t>(m_out.nodes.size() - 1);
    }

    void closeContainer(std::uint32_t index)
    {
        m_out.nodes[index].subtreeSize = static_cast<std::uint32_t>(m_out.nodes.size() - index);
    }

    void readValue(od::value value, StringId key, int depth)
    {
        if (depth > kMaxDepth)
            failAt(currentLocation(), "values nested deeper than " + std::to_string(kMaxDepth) + " levels");
        od::json_type type;
        if (value.type().get(type)) {
            readRawScalar(value, key);
            return;
        }
        switch (type) {
        case od::json_type::array: {
            const std::uint32_t index = pushNode(NodeKind::List, key);
            // A named local: value() of a temporary result returns a reference into it, which a
            // range-for over the call would leave dangling.
            od::array array = value.get_array().value();
            for (auto element : array)
                readValue(element.value(), kNoString, depth + 1);
            closeContainer(index);
            return;
        }
        case od::json_type::object: {
            od::object object = value.get_object().value();
            readContainerObject(object, key, depth, /*mayBeLeaf=*/true);
            return;
        }
        case od::json_type::null:
            if (!isNullLiteral(value))
                failAt(currentLocation(), "invalid literal (expected null)");
            pushNode(NodeKind::Null, key);
            return;
        default:
            readRawScalar(value, key);
            return;
        }
    }

    // An object is a leaf when it has a "type" key with a string value (or a P2POp "class_type").
    // The common case has "type" first; a later "type" makes us rewind and re-read it as a leaf.
    void readContainerObject(od::object& object, StringId key, int depth, bool mayBeLeaf)
    {
        const std::size_t nodeMark = m_out.nodes.size();
        const std::size_t tensorMark = m_out.tensors.size();
        const std::size_t scalarMark = m_out.scalars.size();
        const std::size_t extrasMark = m_out.extras.size();
        const std::uint32_t index = pushNode(NodeKind::Dict, key);
        bool isLeaf = false;
        for (auto fieldResult : object) {
            od::field field = takeField(fieldResult);
            std::string_view fieldKey = keyOf(field);
            if (mayBeLeaf && (fieldKey == "type" || fieldKey == "class_type")) {
                od::json_type type;
                if (!field.value().type().get(type) && type == od::json_type::string) {
                    isLeaf = true;
                    break;
                }
            }
            StringId childKey = intern(fieldKey);
            readValue(field.value(), childKey, depth + 1);
        }
        if (!isLeaf) {
            closeContainer(index);
            return;
        }
        if (m_out.nodes.size() - nodeMark > 1) // rewind children read before a late "type"
            truncate(nodeMark, tensorMark, scalarMark, extrasMark);
        else
            m_out.nodes.pop_back();
        object.reset();
        readLeaf(object, key, depth);
    }

    void truncate(std::size_t nodes, std::size_t tensors, std::size_t scalars, std::size_t extras);

    struct LeafFields {
        std::string_view type, dtype, dataName, md5;
        bool hasDtype = false, isP2P = false;
        std::vector<std::int64_t>* shape = nullptr;
        bool hasShape = false;
        StatValue max, min, mean, norm;
        std::int8_t requiresGrad = -1;
        ScalarValueKind valueKind = ScalarValueKind::Missing;
        StatValue number;
        std::string valueText;
    };

    void readLeaf(od::object& object, StringId key, int depth)
    {
        LeafFields leaf;
        m_shape.clear();
        const auto extrasBegin = static_cast<std::uint32_t>(m_out.extras.size());
        readLeafFields(object, leaf, depth, /*insideP2P=*/false);
        // An empty range is always {0, 0}, so a whole read and a read in pieces give identical models.
        const auto extrasCount = static_cast<std::uint32_t>(m_out.extras.size() - extrasBegin);
        const ExtrasRange extras = extrasCount == 0 ? ExtrasRange {} : ExtrasRange { extrasBegin, extrasCount };

        if (leaf.hasDtype || leaf.isP2P) {
            auto& t = m_out.tensors;
            const auto row = static_cast<std::uint32_t>(t.size());
            t.type.push_back(intern(leaf.type));
            t.dtype.push_back(leaf.hasDtype ? intern(leaf.dtype) : kNoString);
            t.shapeBegin.push_back(static_cast<std::uint32_t>(t.shapePool.size()));
            t.shapeRank.push_back(static_cast<std::uint8_t>(m_shape.size()));
            t.shapePool.insert(t.shapePool.end(), m_shape.begin(), m_shape.end());
            t.max.push(leaf.max);
            t.min.push(leaf.min);
            t.mean.push(leaf.mean);
            t.norm.push(leaf.norm);
            t.requiresGrad.push_back(leaf.requiresGrad);
            t.dataName.push_back(leaf.dataName.empty() ? kNoString : intern(leaf.dataName));
            t.md5.push_back(leaf.md5.empty() ? kNoString : intern(leaf.md5));
            t.extras.push_back(extras);
            pushNode(NodeKind::Tensor, key, row);
            return;
        }
        auto& s = m_out.scalars;
        const auto row = static_cast<std::uint32_t>(s.size());
        s.type.push_back(intern(leaf.type));
        s.valueKind.push_back(leaf.valueKind);
        s.number.push(leaf.number);
        s.text.push_back(leaf.valueKind == ScalarValueKind::Missing ? kNoString : intern(leaf.valueText));
        s.extras.push_back(extras);
        pushNode(NodeKind::Scalar, key, row);
    }

    void readLeafFields(od::object& object, LeafFields& leaf, int depth, bool insideP2P)
    {
        for (auto fieldResult : object) {
            od::field field = takeField(fieldResult);
            m_pos = field.key().raw();
            std::string_view k = keyOf(field);
            od::value v = field.value();
            if (k == "type") {
                std::string_view text;
                if (stringOf(v, text))
                    addExtra(k, v, depth);
                else
                    leaf.type = text;
            } else if (k == "class_type" && !insideP2P) {
                std::string_view text;
                if (!v.get_string().get(text) && text == "torch.distributed.P2POp") {
                    leaf.isP2P = true;
                    if (leaf.type.empty())
                        leaf.type = text;
                }
                addExtraText(k, std::string(text));
            } else if (k == "tensor" && leaf.isP2P && !insideP2P) {
                od::object inner;
                if (v.get_object().get(inner))
                    failAt(m_pos, "the P2POp \"tensor\" must be an object");
                leaf.type = {};
                readLeafFields(inner, leaf, depth + 1, true);
            } else if (k == "dtype") {
                if (stringOf(v, leaf.dtype))
                    failAt(m_pos, "\"dtype\" must be a string");
                leaf.hasDtype = true;
            } else if (k == "shape") {
                readShape(v);
            } else if (k == "Max" || k == "Min" || k == "Mean" || k == "Norm") {
                StatValue& stat = k == "Max" ? leaf.max : k == "Min" ? leaf.min : k == "Mean" ? leaf.mean : leaf.norm;
                stat = readStat(v, k == "Max" ? "Max" : k == "Min" ? "Min" : k == "Mean" ? "Mean" : "Norm");
                // A string statistic ("inf", a writer placeholder) has no column; keep its text as an extra.
                if (stat.kind == StatKind::Missing)
                    addExtra(k, v, depth);
            } else if (k == "requires_grad") {
                bool flag;
                if (v.get_bool().get(flag))
                    failAt(m_pos, "\"requires_grad\" must be true or false");
                leaf.requiresGrad = flag ? 1 : 0;
            } else if (k == "data_name") {
                if (!isNullLiteral(v) && v.get_string().get(leaf.dataName))
                    failAt(m_pos, "\"data_name\" must be a string");
            } else if (k == "md5") {
                if (!isNullLiteral(v) && v.get_string().get(leaf.md5))
                    failAt(m_pos, "\"md5\" must be a string");
            } else if (k == "value" && !insideP2P) {
                readScalarValue(v, leaf, depth);
            } else {
                addExtra(k, v, depth);
            }
        }
    }

    void readShape(od::value v)
    {
        od::array dims;
        if (v.get_array().get(dims))
            failAt(m_pos, "\"shape\" must be a list of integers");
        m_shape.clear();
        double elements = 1.0;
        for (auto dimResult : dims) {
            std::int64_t dim;
            if (dimResult.value().get_int64().get(dim) || dim < 0)
                failAt(m_pos, "\"shape\" must be a list of non-negative integers");
            if (m_shape.size() == kMaxRank)
                failAt(m_pos, "\"shape\" has more than " + std::to_string(kMaxRank) + " dimensions");
            elements *= static_cast<double>(dim);
            m_shape.push_back(dim);
        }
        if (elements > 9.2e18)
            failAt(m_pos, "\"shape\" describes more than 2^63 elements");
    }

    StatValue readStat(od::value v, const char* name)
    {
        od::json_type type;
        if (v.type().get(type)) {
            double nonFinite;
            std::string_view token = v.raw_json_token();
            if (nonFiniteToken(token, nonFinite))
                return StatValue::ofFloat(nonFinite);
            failAt(m_pos, std::string("\"") + name + "\" is not a number, bool, null, NaN or Infinity");
        }
        switch (type) {
        case od::json_type::number: return readNumber(v, name);
        case od::json_type::boolean: return StatValue::ofBool(v.get_bool().value());
        case od::json_type::null:
            if (!isNullLiteral(v))
                failAt(m_pos, std::string("\"") + name + "\" is not a number, bool, null, NaN or Infinity");
            return StatValue::null();
        case od::json_type::string: return {}; // an unresolved writer placeholder: no statistic
        default: failAt(m_pos, std::string("\"") + name + "\" must be a number, bool or null");
        }
    }

    StatValue readNumber(od::value v, const char* name)
    {
        od::number number; // one pass over the digits for the common case
        if (!v.get_number().get(number)) {
            if (number.is_int64())
                return StatValue::ofInt(number.get_int64());
            return StatValue::ofFloat(number.as_double());
        }
        od::number_type numberType;
        if (v.get_number_type().get(numberType)) {
            double nonFinite;
            if (nonFiniteToken(v.raw_json_token(), nonFinite))
                return StatValue::ofFloat(nonFinite);
            failAt(m_pos, std::string("\"") + name + "\" is not a valid number");
        }
        if (numberType == od::number_type::signed_integer) {
            std::int64_t i;
            if (!v.get_int64().get(i))
                return StatValue::ofInt(i);
        }
        double d;
        if (v.get_double().get(d)) {
            // Integers beyond 64 bits: keep the closest double rather than failing.
            std::string token(v.raw_json_token());
            d = std::strtod(token.c_str(), nullptr);
        }
        return StatValue::ofFloat(d);
    }

    void readScalarValue(od::value v, LeafFields& leaf, int depth)
    {
        od::json_type type;
        if (v.type().get(type)) {
            double nonFinite;
            if (!nonFiniteToken(v.raw_json_token(), nonFinite))
                failAt(m_pos, "\"value\" is not valid JSON");
            leaf.valueKind = ScalarValueKind::Float;
            leaf.number = StatValue::ofFloat(nonFinite);
            leaf.valueText = pythonFloatRepr(nonFinite);
            return;
        }
        switch (type) {
        case od::json_type::null:
            if (!isNullLiteral(v))
                failAt(m_pos, "\"value\" is not a valid literal");
            leaf.valueKind = ScalarValueKind::Null;
            leaf.valueText = "None";
            return;
        case od::json_type::boolean:
            leaf.valueKind = ScalarValueKind::Bool;
            leaf.number = StatValue::ofBool(v.get_bool().value());
            leaf.valueText = pythonBool(leaf.number.b);
            return;
        case od::json_type::number:
            leaf.number = readNumber(v, "value");
            leaf.valueKind = leaf.number.kind == StatKind::Int ? ScalarValueKind::Int : ScalarValueKind::Float;
            leaf.valueText = pythonText(leaf.number);
            return;
        case od::json_type::string:
            leaf.valueKind = ScalarValueKind::String;
            leaf.valueText = std::string(v.get_string().value());
            return;
        default:
            leaf.valueKind = ScalarValueKind::Composite;
            leaf.valueText.clear();
            appendPythonRepr(v, leaf.valueText, depth + 1);
            return;
        }
    }

    void addExtra(std::string_view key, od::value v, int depth)
    {
        std::string text;
        appendPythonRepr(v, text, depth + 1);
        addExtraText(key, std::move(text));
    }

    void addExtraText(std::string_view key, std::string text)
    {
        m_out.extras.push_back({ intern(key), intern(text) });
    }

    // Python's repr() of the JSON value as json.load would have produced it.
    void appendPythonRepr(od::value v, std::string& out, int depth)
    {
        if (depth > kMaxDepth)
            failAt(currentLocation(), "values nested deeper than " + std::to_string(kMaxDepth) + " levels");
        od::json_type type;
        if (v.type().get(type)) {
            double nonFinite;
            if (!nonFiniteToken(v.raw_json_token(), nonFinite))
                failAt(currentLocation(), "invalid JSON value");
            out += pythonFloatRepr(nonFinite);
            return;
        }
        switch (type) {
        case od::json_type::array: {
            out += '[';
            bool first = true;
            od::array array = v.get_array().value();
            for (auto element : array) {
                if (!first)
                    out += ", ";
                first = false;
                appendPythonRepr(element.value(), out, depth + 1);
            }
            out += ']';
            return;
        }
        case od::json_type::object: {
            out += '{';
            bool first = true;
            od::object object = v.get_object().value();
            for (auto fieldResult : object) {
                od::field field = takeField(fieldResult);
                if (!first)
                    out += ", ";
                first = false;
                out += pythonStringRepr(field.unescaped_key().value());
                out += ": ";
                appendPythonRepr(field.value(), out, depth + 1);
            }
            out += '}';
            return;
        }
        case od::json_type::string: out += pythonStringRepr(v.get_string().value()); return;
        case od::json_type::number: out += pythonText(readNumber(v, "value")); return;
        case od::json_type::boolean: out += pythonBool(v.get_bool().value()); return;
        case od::json_type::null:
            if (!isNullLiteral(v))
                failAt(currentLocation(), "invalid literal (expected null)");
            out += "None";
            return;
        }
    }

    void readRawScalar(od::value v, StringId key)
    {
        LeafFields leaf;
        readScalarValue(v, leaf, 0);
        auto& s = m_out.scalars;
        const auto row = static_cast<std::uint32_t>(s.size());
        s.type.push_back(kNoString);
        s.valueKind.push_back(leaf.valueKind);
        s.number.push(leaf.number);
        s.text.push_back(intern(leaf.valueText));
        s.extras.push_back({});
        pushNode(NodeKind::Raw, key, row);
    }

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
};

// Drops the rows read for the children of an object that turned out to be a leaf: every column is
// cut back to its mark, so the cost is that of the dropped rows only.
void DumpBuilder::truncate(std::size_t nodes, std::size_t tensors, std::size_t scalars, std::size_t extras)
{
    m_out.nodes.resize(nodes);
    m_out.extras.resize(extras);
    auto& t = m_out.tensors;
    if (t.size() > tensors) {
        t.shapePool.resize(t.shapeBegin[tensors]);
        for (auto* column : { &t.type, &t.dtype, &t.dataName, &t.md5 })
            column->resize(tensors);
        t.shapeBegin.resize(tensors);
        t.shapeRank.resize(tensors);
        for (StatColumn* column : { &t.max, &t.min, &t.mean, &t.norm })
            column->truncate(tensors);
        t.requiresGrad.resize(tensors);
        t.extras.resize(tensors);
    }
    auto& s = m_out.scalars;
    if (s.size() > scalars) {
        s.type.resize(scalars);
        s.valueKind.resize(scalars);
        s.number.truncate(scalars);
        s.text.resize(scalars);
        s.extras.resize(scalars);
    }
}

using ReadAt = std::function<bool(char* into, std::uint64_t offset, std::size_t size)>;

// The text of one piece of a chunked read, in a buffer of its lane.
struct PieceText {
    std::vector<char> buffer;
    std::size_t size = 0;
    std::uint64_t end = 0; // file offset just past the piece
    Part part = Part::Whole;
};

// What a lane (a thread that indexes and builds pieces) keeps between pieces.
struct Lane {
    od::parser parser;
    PieceText text;
};
constexpr std::size_t kLanes = 2;

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
        char head[64];
        const auto headSize = static_cast<std::size_t>(std::min<std::uint64_t>(sizeof head, m_size));
        if (!m_readAt(head, 0, headSize) || headSize < 4 || head[0] != '{' || head[1] != '\n')
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
            const bool last = take == left;
            std::size_t cut = take;
            if (!last) {
                const std::size_t at = std::string_view(text, take).rfind(m_boundary);
                if (at == std::string_view::npos) { // no entry ends in this window: widen it
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

private:
    const ReadAt& m_readAt;
    std::uint64_t m_size;
    std::string m_boundary;
    std::string m_carry; // text read past the last cut; it starts at m_offset
    std::uint64_t m_offset = 0;
    bool m_first = true;
};

// The model of one piece, built on its own: ids and rows start at 0, and appendPiece shifts them.
struct BuiltPiece {
    bool ok = false;
    bool sawTask = false;
    bool last = false;
    std::uint64_t end = 0;
    DumpFile model;
};

// Appends a piece's model to the file's, in order: strings re-interned in their order of first use
// (so the pool is the one a whole read makes), rows and nodes shifted, a repeated entry name
// replacing the earlier body as in a whole read.
void appendPiece(DumpFile& out, const DumpFile& piece, std::vector<std::int64_t>& entryOfName)
{
    std::vector<StringId> remap(piece.strings.size());
    constexpr std::size_t kAhead = 8;
    for (StringId id = 0; id < remap.size(); ++id) {
        if (id + kAhead < remap.size())
            out.strings.prefetch(piece.strings.view(id + kAhead));
        remap[id] = out.strings.intern(piece.strings.view(id));
    }
    const auto map = [&remap](StringId id) { return id == kNoString ? kNoString : remap[id]; };
    const auto nodeBase = static_cast<std::uint32_t>(out.nodes.size());
    const auto tensorBase = static_cast<std::uint32_t>(out.tensors.size());
    const auto scalarBase = static_cast<std::uint32_t>(out.scalars.size());
    const auto extrasBase = static_cast<std::uint32_t>(out.extras.size());
    const auto shapeBase = static_cast<std::uint32_t>(out.tensors.shapePool.size());

    for (ValueNode node : piece.nodes) {
        node.key = map(node.key);
        if (node.kind == NodeKind::Tensor)
            node.payload += tensorBase;
        else if (node.kind == NodeKind::Scalar || node.kind == NodeKind::Raw)
            node.payload += scalarBase;
        out.nodes.push_back(node);
    }
    for (LeafExtra extra : piece.extras)
        out.extras.push_back({ map(extra.key), map(extra.text) });
    const auto shiftExtras = [extrasBase](ExtrasRange range) { return range.count == 0 ? ExtrasRange {} : ExtrasRange { range.begin + extrasBase, range.count }; };

    const TensorTable& t = piece.tensors;
    TensorTable& ot = out.tensors;
    for (std::size_t row = 0; row < t.size(); ++row) {
        ot.type.push_back(map(t.type[row]));
        ot.dtype.push_back(map(t.dtype[row]));
        ot.shapeBegin.push_back(t.shapeBegin[row] + shapeBase);
        ot.max.push(t.max[row]);
        ot.min.push(t.min[row]);
        ot.mean.push(t.mean[row]);
        ot.norm.push(t.norm[row]);
        ot.dataName.push_back(map(t.dataName[row]));
        ot.md5.push_back(map(t.md5[row]));
        ot.extras.push_back(shiftExtras(t.extras[row]));
    }
    ot.shapeRank.insert(ot.shapeRank.end(), t.shapeRank.begin(), t.shapeRank.end());
    ot.shapePool.insert(ot.shapePool.end(), t.shapePool.begin(), t.shapePool.end());
    ot.requiresGrad.insert(ot.requiresGrad.end(), t.requiresGrad.begin(), t.requiresGrad.end());

    const ScalarTable& sc = piece.scalars;
    ScalarTable& os = out.scalars;
    for (std::size_t row = 0; row < sc.size(); ++row) {
        os.type.push_back(map(sc.type[row]));
        os.number.push(sc.number[row]);
        os.text.push_back(map(sc.text[row]));
        os.extras.push_back(shiftExtras(sc.extras[row]));
    }
    os.valueKind.insert(os.valueKind.end(), sc.valueKind.begin(), sc.valueKind.end());

    for (const Entry& entry : piece.entries) {
        const StringId name = remap[entry.name];
        if (entryOfName.size() <= name)
            entryOfName.resize(name + 1, -1);
        if (entryOfName[name] >= 0) {
            out.entries[static_cast<std::size_t>(entryOfName[name])].body = entry.body + nodeBase;
            continue;
        }
        entryOfName[name] = static_cast<std::int64_t>(out.entries.size());
        Entry moved;
        moved.name = name;
        moved.parsed = parseEntryName(out.strings.view(name));
        moved.body = entry.body + nodeBase;
        out.entries.push_back(moved);
    }
}

// Builds the pieces of a chunked read on kLanes threads: a lane takes the next piece from the cutter
// (reading is sequential), indexes it and builds its model; the calling thread appends the models in
// order. At most kLanes models wait to be appended.
class PieceLanes {
public:
    PieceLanes(PieceCutter& cutter, std::array<Lane, kLanes>& lanes)
        : m_cutter(cutter)
    {
        for (Lane& lane : lanes)
            m_threads.emplace_back([this, &lane] { work(lane); });
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
                m_changed.wait(lock, [&] { return m_stop || m_cutDone || m_nextIndex < m_handedOut + kLanes; });
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
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<std::size_t, BuiltPiece> m_built;
    std::size_t m_nextIndex = 0; // the next piece to cut
    std::size_t m_handedOut = 0; // the next piece to append
    bool m_cutDone = false;
    bool m_stop = false;
    std::vector<std::thread> m_threads; // last: they start once the rest is set up
};

// Parses a text in pieces (see PieceCutter) built in parallel. Anything unexpected returns false, and
// the caller parses the whole text, which gives exactly the same model or error (the pieces are the
// text itself, in order).
bool readChunked(std::array<Lane, kLanes>& lanes, const ReadAt& readAt, std::uint64_t size, DumpFile& out,
                 const ReadOptions& options)
{
    PieceCutter cutter(readAt, size);
    if (!cutter.start())
        return false;
    reserveModel(out, size);
    std::vector<std::int64_t> entryOfName;
    PieceLanes pieces(cutter, lanes);
    for (bool first = true;; first = false) {
        BuiltPiece piece = pieces.next();
        if (!piece.ok || (first && !piece.sawTask))
            return false;
        if (first) {
            out.task = std::move(piece.model.task);
            out.level = std::move(piece.model.level);
            out.framework = std::move(piece.model.framework);
            out.frameworkPresent = piece.model.frameworkPresent;
            out.dumpDataDir = std::move(piece.model.dumpDataDir);
        }
        appendPiece(out, piece.model, entryOfName);
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            throw Error(out.path, {}, "cancelled");
        if (options.progress)
            options.progress(piece.end, size);
        if (piece.last) {
            if (!out.frameworkPresent)
                out.framework = "pytorch";
            return true;
        }
    }
}

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
    std::array<Lane, kLanes> lanes;
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
        throw Error(display, {}, "is a directory, not a dump.json file");
    if (!std::filesystem::exists(file, ec))
        throw Error(display, {}, "no such file");
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
            if (readChunked(m_state->lanes, readAt, size, dump, tracked)) {
                if (tracked.progress)
                    tracked.progress(size, size);
                return dump;
            }
        }
    }
    auto loaded = simdjson::padded_string::load(display);
    if (loaded.error())
        throw Error(display, {}, std::string("cannot read the file: ") + simdjson::error_message(loaded.error()));
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
        if (readChunked(m_state->lanes, readAt, text.size(), dump, options)) {
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
    const char* base = view.data();

    if (text.empty())
        throw Error(displayName, {}, "the file is empty");
    DumpBuilder builder(dump, base, view.size(), options);
    od::document doc; // outlives the try: the handlers ask the builder where the iterator stopped
    const auto fail = [&](const char* where, const std::string& message) {
        if (!where)
            where = builder.currentLocation();
        std::string place = where ? describeOffset(base, view.size(), static_cast<std::size_t>(where - base)) : std::string {};
        if (!builder.currentEntry().empty())
            place += (place.empty() ? "" : ", ") + std::string("entry '") + std::string(builder.currentEntry()) + "'";
        // Whatever simdjson tripped on first, a text that ends inside its top-level object is truncated.
        const std::size_t start = text.find_first_not_of(" \t\r\n");
        if (start != std::string_view::npos && text[start] == '{' && endOfFirstValue(text) == std::string_view::npos)
            throw Error(displayName, describeOffset(base, view.size(), view.size()), kEndsEarly);
        throw Error(displayName, place, message);
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

} // namespace msprobe
