// SPDX-License-Identifier: Apache-2.0
// DumpBuilder's hot path: the top level, "data" and its entries, containers, leaves and statistics.
#include "dump/dump_json_builder.h"
#include "dump/dump_json_leaf_keys.h"

#include "support/error.h"
#include "support/huge_pages.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>

namespace msprobe::dump::detail {

std::size_t g_chunkBytes = std::size_t(1) << 20;

namespace {

// The closing quote of a string whose text (just past its opening quote) starts at `from`, or nullptr when
// a backslash comes first (an escape: read the slow way) or the text ends first. Eight bytes at a time: the
// text is followed by simdjson's padding, so a word that starts before `end` can be read whole; the lowest
// byte equal to '"' or '\\' decides.
const char* closingQuote(const char* from, const char* end)
{
    constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
    const auto zeroBytes = [](std::uint64_t word) { return (word - kOnes) & ~word & kHighs; };
    for (const char* p = from; p < end; p += 8) {
        std::uint64_t word;
        std::memcpy(&word, p, sizeof word);
        const std::uint64_t quote = zeroBytes(word ^ (kOnes * '"'));
        const std::uint64_t backslash = zeroBytes(word ^ (kOnes * '\\'));
        if ((quote | backslash) == 0)
            continue;
        const int quoteAt = quote ? std::countr_zero(quote) : 64;
        const int backslashAt = backslash ? std::countr_zero(backslash) : 64;
        if (backslashAt < quoteAt)
            return nullptr;
        const char* close = p + quoteAt / 8;
        return close < end ? close : nullptr;
    }
    return nullptr;
}

// A string value exactly as get_string() gives it, and consumed the same way; read in place when it
// has no escape, which saves simdjson's copy. `end` is the end of the text.
simdjson::error_code stringOf(od::value& v, std::string_view& out, const char* end)
{
    const char* token = v.raw_json_token().data();
    if (*token == '"') {
        od::raw_json_string consumed;
        if (const char* close = closingQuote(token + 1, end); close && !v.get_raw_json_string().get(consumed)) {
            out = { token + 1, static_cast<std::size_t>(close - token - 1) };
            return simdjson::SUCCESS;
        }
    }
    return v.get_string().get(out);
}

template <class Column>
void adviseHugePages(const Column& column)
{
    support::adviseHugePages(column.data(), column.capacity() * sizeof(*column.data()));
}

} // namespace

// Capacity for a typical dump of this size (msprobe writes ~130 bytes per node, ~350 per tensor,
// ~800 per entry): growing by doubling would copy each column and briefly hold it twice.
// Capacity that is never written costs address space only. The large columns of a large model ask for
// huge pages: their 4 KiB page faults, each zero-filling fresh memory, were ~15% of a 200 MB read's CPU.
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
    for (StatColumn* column : { &t.max, &t.min, &t.mean, &t.norm }) {
        column->reserve(tensors);
        column->adviseHugePages();
    }
    adviseHugePages(out.entries);
    adviseHugePages(out.nodes);
    for (auto* column : { &t.type, &t.dtype, &t.shapeBegin, &t.dataName, &t.md5 })
        adviseHugePages(*column);
    adviseHugePages(t.shapeRank);
    adviseHugePages(t.requiresGrad);
    adviseHugePages(t.extras);
    adviseHugePages(t.shapePool);
}

void DumpBuilder::run(od::document& doc, Part part)
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
            if (m_sawData && part == Part::Whole) { // json.load: a repeated key replaces the earlier value
                m_out.entries.clear();
                truncate(0, 0, 0, 0);
            }
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

const char* DumpBuilder::currentLocation() const
{
    const char* location = nullptr;
    if (m_doc && !m_doc->current_location().get(location) && location >= m_base && location <= m_base + m_size)
        return location;
    return m_pos;
}

std::string DumpBuilder::optionalString(od::value value, const char* key)
{
    if (isNullLiteral(value))
        return {};
    std::string_view text;
    if (value.get_string().get(text))
        failAt(m_pos, std::string("the top-level key \"") + key + "\" must be a string");
    return std::string(text);
}

void DumpBuilder::readData(od::value value, bool continuation)
{
    od::object data;
    if (value.get_object().get(data))
        failAt(m_pos, "\"data\" must be a JSON object of entries");
    std::vector<std::int64_t>& entryOfName = m_entryOfName;
    if (!continuation)
        entryOfName.clear();
    // A piece's pool (~1 MiB of text) stays in cache: hashing each name once more to prefetch it only costs.
    const bool prefetchNames = m_size > 4 * g_chunkBytes;
    for (auto fieldResult : data) {
        od::field field = takeField(fieldResult);
        m_pos = field.key().raw();
        // Names are nearly all new: interned after the body, by when the prefetched slot is in cache,
        // and without the small cache, which they would only flush.
        const std::string_view name = keyOf(field);
        if (prefetchNames)
            m_out.strings.prefetch(name);
        m_entryName = name;

        od::value body = field.value();
        od::json_type type;
        if (body.type().get(type) || type != od::json_type::object)
            failAt(m_pos, "the entry is not a JSON object");
        const auto bodyIndex = static_cast<std::uint32_t>(m_out.nodes.size());
        od::object bodyObject = body.get_object().value();
        readContainerObject(bodyObject, support::kNoString, 1, /*mayBeLeaf=*/false);
        const support::StringId nameId = m_out.strings.intern(name);
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

void DumpBuilder::reportProgress()
{
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))
        throw support::Error(m_out.path, {}, "cancelled");
    if (m_options.progress && m_pos) {
        const auto done = static_cast<std::int64_t>(m_pos - m_base);
        m_options.progress(static_cast<std::uint64_t>(std::clamp<std::int64_t>(done, 0, static_cast<std::int64_t>(m_totalSize))),
            m_totalSize);
    }
}


// A key exactly as unescaped_key() gives it; read in place when it has no escape.
std::string_view DumpBuilder::keyOf(od::field& field)
{
    const char* const raw = field.key().raw();
    if (const char* close = closingQuote(raw, m_base + m_size))
        return { raw, static_cast<std::size_t>(close - raw) };
    return field.unescaped_key().value();
}

std::uint32_t DumpBuilder::pushNode(NodeKind kind, support::StringId key, std::uint32_t payload)
{
    ValueNode node;
    node.kind = kind;
    node.key = key;
    node.payload = payload;
    m_out.nodes.push_back(node);
    return static_cast<std::uint32_t>(m_out.nodes.size() - 1);
}

void DumpBuilder::closeContainer(std::uint32_t index)
{
    m_out.nodes[index].subtreeSize = static_cast<std::uint32_t>(m_out.nodes.size() - index);
}

void DumpBuilder::readValue(od::value value, support::StringId key, int depth)
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
            readValue(element.value(), support::kNoString, depth + 1);
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
void DumpBuilder::readContainerObject(od::object& object, support::StringId key, int depth, bool mayBeLeaf)
{
    const std::size_t nodeMark = m_out.nodes.size();
    const std::size_t tensorMark = m_out.tensors.size();
    const std::size_t scalarMark = m_out.scalars.size();
    const std::size_t extrasMark = m_out.extras.size();
    const std::uint32_t index = pushNode(NodeKind::Dict, key);
    bool isLeaf = false;
    // The keys read so far, to catch a repeated one cheaply; past kSeen keys the check is left to
    // dropRepeatedKeys.
    constexpr std::size_t kSeen = 8;
    std::array<support::StringId, kSeen> seen {};
    std::size_t keys = 0;
    bool repeated = false;
    // A leaf whose first key is "type" (as msprobe writes every leaf) is read in the same pass.
    LeafFields leaf;
    bool leafInPlace = false;
    for (auto fieldResult : object) {
        od::field field = takeField(fieldResult);
        if (leafInPlace) {
            readLeafField(field, leaf, depth, /*insideP2P=*/false);
            continue;
        }
        // Most keys are told from their raw bytes (no escapes to look for).
        const LeafKeyPattern* known = mayBeLeaf ? leafKeyAt(field.key().raw(), m_base + m_size) : nullptr;
        const std::string_view fieldKey = known ? known->name : keyOf(field);
        const bool typeKey = known ? known->key == LeafKey::Type || known->key == LeafKey::ClassType
                                   : mayBeLeaf && (fieldKey == "type" || fieldKey == "class_type");
        if (typeKey) {
            od::json_type type;
            if (!field.value().type().get(type) && type == od::json_type::string) {
                if (keys == 0 && known) { // (an escaped key was consumed by unescaped_key(): read again below)
                    m_out.nodes.pop_back();
                    startLeaf();
                    leafInPlace = true;
                    readLeafField(field, leaf, depth, /*insideP2P=*/false);
                    continue;
                }
                isLeaf = true;
                break;
            }
        }
        support::StringId childKey = intern(fieldKey);
        for (std::size_t i = 0; i < std::min(keys, kSeen); ++i)
            repeated = repeated || seen[i] == childKey;
        if (keys < kSeen)
            seen[keys] = childKey;
        ++keys;
        readValue(field.value(), childKey, depth + 1);
    }
    if (leafInPlace) {
        finishLeaf(leaf, key);
        return;
    }
    if (!isLeaf) {
        closeContainer(index);
        if (repeated || keys > kSeen)
            dropRepeatedKeys(index);
        return;
    }
    if (m_out.nodes.size() - nodeMark > 1) // rewind children read before a late "type"
        truncate(nodeMark, tensorMark, scalarMark, extrasMark);
    else
        m_out.nodes.pop_back();
    object.reset();
    readLeaf(object, key, depth);
}

void DumpBuilder::readLeaf(od::object& object, support::StringId key, int depth)
{
    LeafFields leaf;
    startLeaf();
    readLeafFields(object, leaf, depth, /*insideP2P=*/false);
    finishLeaf(leaf, key);
}

void DumpBuilder::startLeaf()
{
    m_shape.clear();
    m_leafExtrasBegin = m_out.extras.size();
}

void DumpBuilder::finishLeaf(const LeafFields& leaf, support::StringId key)
{
    const auto extrasBegin = static_cast<std::uint32_t>(m_leafExtrasBegin);
    // An empty range is always {0, 0}, so a whole read and a read in pieces give identical models.
    const auto extrasCount = static_cast<std::uint32_t>(m_out.extras.size() - extrasBegin);
    const ExtrasRange extras = extrasCount == 0 ? ExtrasRange {} : ExtrasRange { extrasBegin, extrasCount };

    if (leaf.hasDtype || leaf.isP2P) {
        auto& t = m_out.tensors;
        const auto row = static_cast<std::uint32_t>(t.size());
        t.type.push_back(intern(leaf.type));
        t.dtype.push_back(leaf.hasDtype ? intern(leaf.dtype) : support::kNoString);
        t.shapeBegin.push_back(static_cast<std::uint32_t>(t.shapePool.size()));
        t.shapeRank.push_back(static_cast<std::uint8_t>(m_shape.size()));
        t.shapePool.insert(t.shapePool.end(), m_shape.begin(), m_shape.end());
        t.max.push(leaf.max);
        t.min.push(leaf.min);
        t.mean.push(leaf.mean);
        t.norm.push(leaf.norm);
        t.requiresGrad.push_back(leaf.requiresGrad);
        t.dataName.push_back(leaf.dataName.empty() ? support::kNoString : intern(leaf.dataName));
        t.md5.push_back(leaf.md5.empty() ? support::kNoString : intern(leaf.md5));
        t.extras.push_back(extras);
        pushNode(NodeKind::Tensor, key, row);
        return;
    }
    auto& s = m_out.scalars;
    const auto row = static_cast<std::uint32_t>(s.size());
    s.type.push_back(intern(leaf.type));
    s.valueKind.push_back(leaf.valueKind);
    s.number.push(leaf.number);
    s.text.push_back(leaf.valueKind == ScalarValueKind::Missing ? support::kNoString : intern(leaf.valueText));
    s.extras.push_back(extras);
    pushNode(NodeKind::Scalar, key, row);
}

void DumpBuilder::readLeafFields(od::object& object, LeafFields& leaf, int depth, bool insideP2P)
{
    for (auto fieldResult : object) {
        od::field field = takeField(fieldResult);
        readLeafField(field, leaf, depth, insideP2P);
    }
}

inline void DumpBuilder::readLeafField(od::field& field, LeafFields& leaf, int depth, bool insideP2P)
{
    m_pos = field.key().raw();
    const LeafKeyPattern* known = leafKeyAt(m_pos, m_base + m_size);
    const std::string_view k = known ? known->name : keyOf(field);
    if (!known)
        known = leafKeyNamed(k);
    od::value v = field.value();
    switch (known ? known->key : LeafKey::Other) {
    case LeafKey::Type: {
        std::string_view text;
        if (stringOf(v, text, m_base + m_size))
            addExtra(k, v, depth);
        else
            leaf.type = text;
        return;
    }
    case LeafKey::ClassType:
        if (insideP2P)
            break;
        {
            std::string_view text;
            if (!v.get_string().get(text) && text == "torch.distributed.P2POp") {
                leaf.isP2P = true;
                if (leaf.type.empty())
                    leaf.type = text;
            }
            addExtraText(k, std::string(text));
        }
        return;
    case LeafKey::Tensor:
        if (!leaf.isP2P || insideP2P)
            break;
        {
            od::object inner;
            if (v.get_object().get(inner))
                failAt(m_pos, "the P2POp \"tensor\" must be an object");
            leaf.type = {};
            readLeafFields(inner, leaf, depth + 1, true);
        }
        return;
    case LeafKey::Dtype:
        if (stringOf(v, leaf.dtype, m_base + m_size))
            failAt(m_pos, "\"dtype\" must be a string");
        leaf.hasDtype = true;
        return;
    case LeafKey::Shape:
        readShape(v);
        return;
    case LeafKey::Max: readStatInto(v, leaf.max, "Max", depth); return;
    case LeafKey::Min: readStatInto(v, leaf.min, "Min", depth); return;
    case LeafKey::Mean: readStatInto(v, leaf.mean, "Mean", depth); return;
    case LeafKey::Norm: readStatInto(v, leaf.norm, "Norm", depth); return;
    case LeafKey::RequiresGrad: {
        bool flag;
        if (v.get_bool().get(flag))
            failAt(m_pos, "\"requires_grad\" must be true or false");
        leaf.requiresGrad = flag ? 1 : 0;
        return;
    }
    case LeafKey::DataName:
        if (!isNullLiteral(v) && stringOf(v, leaf.dataName, m_base + m_size))
            failAt(m_pos, "\"data_name\" must be a string");
        return;
    case LeafKey::Md5:
        if (!isNullLiteral(v) && stringOf(v, leaf.md5, m_base + m_size))
            readNumericMd5(v, leaf);
        return;
    case LeafKey::Value:
        if (insideP2P)
            break;
        readScalarValue(v, leaf, depth);
        return;
    case LeafKey::Other:
        break;
    }
    addExtra(k, v, depth);
}

void DumpBuilder::readStatInto(od::value v, StatValue& stat, const char* name, int depth)
{
    stat = readStat(v, name);
    // A string statistic ("inf", a writer placeholder) has no column; keep its text as an extra.
    if (stat.kind == StatKind::Missing)
        addExtra(name, v, depth);
}

void DumpBuilder::readShape(od::value v)
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

StatValue DumpBuilder::readStat(od::value v, const char* name)
{
    od::number number; // nearly every statistic is a plain number: no type check first
    if (!v.get_number().get(number))
        return statOf(number, v);
    od::json_type type;
    if (v.type().get(type)) {
        double nonFinite;
        std::string_view token = v.raw_json_token();
        if (nonFiniteToken(token, nonFinite))
            return StatValue::ofFloat(nonFinite);
        failAt(token.data(), std::string("\"") + name + "\" is not a number, bool, null, NaN or Infinity: " + tokenText(token));
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

StatValue DumpBuilder::readNumber(od::value v, const char* name)
{
    od::number number; // one pass over the digits for the common case
    if (!v.get_number().get(number))
        return statOf(number, v);
    return readUnusualNumber(v, name);
}

StatValue DumpBuilder::statOf(od::number number, od::value& v)
{
    if (number.is_int64())
        return StatValue::ofInt(number.get_int64());
    // simdjson 3.0 leaves 0 for a decimal of more than 19 significant digits ("1.00000000000000000001"): its
    // slow path writes into a copy of the result. A zero is rare: read the token again.
    if (number.as_double() == 0.0)
        return StatValue::ofFloat(std::strtod(std::string(trimmedToken(v.raw_json_token())).c_str(), nullptr));
    return StatValue::ofFloat(number.as_double());
}

} // namespace msprobe::dump::detail
