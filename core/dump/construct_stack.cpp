// SPDX-License-Identifier: Apache-2.0
#include "dump/construct_stack.h"
#include "dump/construct_stack_check.h"

#include "support/error.h"
#include "support/json_file.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <algorithm>
#include <unordered_map>

namespace msprobe::dump {

const ConstructInfo::Node* ConstructInfo::find(const std::string& name) const
{
    auto it = indexOf.find(name);
    return it == indexOf.end() ? nullptr : &nodes[it->second];
}

const std::vector<std::string>* StackInfo::framesOf(std::string_view name) const
{
    auto it = groupOf.find(name);
    return it == groupOf.end() ? nullptr : &frames[it->second];
}

void StackInfo::buildLookup()
{
    std::size_t capacity = 16;
    while (capacity < groupOf.size() * 2)
        capacity <<= 1;
    m_lookup.assign(capacity, LookupSlot {});
    m_lookupMask = capacity - 1;
    for (const auto& [name, group] : groupOf) {
        const std::uint64_t hash = nameHash(name);
        std::size_t pos = hash & m_lookupMask;
        while (m_lookup[pos].name)
            pos = (pos + 1) & m_lookupMask;
        m_lookup[pos] = { hash, &name, group };
    }
}

void StackInfo::prefetchSlot(std::uint64_t hash) const
{
    if (!m_lookup.empty())
        __builtin_prefetch(&m_lookup[hash & m_lookupMask]);
}

void StackInfo::prefetchName(std::uint64_t hash) const
{
    if (m_lookup.empty())
        return;
    const LookupSlot& slot = m_lookup[hash & m_lookupMask];
    if (slot.name)
        __builtin_prefetch(slot.name->data());
}

const std::vector<std::string>* StackInfo::framesOf(std::string_view name, std::uint64_t hash) const
{
    if (m_lookup.empty())
        return framesOf(name);
    for (std::size_t pos = hash & m_lookupMask; m_lookup[pos].name; pos = (pos + 1) & m_lookupMask)
        if (m_lookup[pos].hash == hash && *m_lookup[pos].name == name)
            return &frames[m_lookup[pos].group];
    return nullptr;
}

namespace {

constexpr std::string_view kMicroStepKey = "megatron_micro_step_number";

// Anything at the path, a dangling or looping symlink included (reading it then says what is wrong).
bool sideFilePresent(const std::filesystem::path& file)
{
    std::error_code ec;
    return std::filesystem::symlink_status(file, ec).type() != std::filesystem::file_type::not_found;
}

bool isBlank(const std::string& text) { return text.find_first_not_of(" \t\r\n") == std::string::npos; }

// Streams construct.json: {name: parent|null|[parent, micro_step], ..., "megatron_micro_step_number": N}.
class ConstructSax : public nlohmann::json_sax<nlohmann::json> {
public:
    explicit ConstructSax(std::string file)
        : m_file(std::move(file))
    {
    }

    ConstructInfo info;
    std::vector<std::pair<std::size_t, bool>> listValues; // node index, value was a [parent, micro] list

    bool null() override { return value(Kind::Null, {}, 0); }
    bool boolean(bool) override { return value(Kind::Other, {}, 0); }
    bool number_integer(number_integer_t v) override { return value(Kind::Int, {}, v); }
    bool number_unsigned(number_unsigned_t v) override { return value(Kind::Int, {}, static_cast<std::int64_t>(v)); }
    bool number_float(number_float_t, const string_t&) override { return value(Kind::Other, {}, 0); }
    bool string(string_t& v) override { return value(Kind::String, v, 0); }
    bool binary(binary_t&) override { return value(Kind::Other, {}, 0); }
    bool start_object(std::size_t) override
    {
        ++m_depth;
        if (m_depth == 1)
            return true;
        return fail("node '" + m_key + "'", "the parent must be a string, null or [parent, micro_step]");
    }
    bool end_object() override
    {
        --m_depth;
        return true;
    }
    bool key(string_t& k) override
    {
        m_key = k;
        return true;
    }
    bool start_array(std::size_t) override
    {
        ++m_depth;
        if (m_depth != 2)
            return fail("node '" + m_key + "'", "the parent must be a string, null or [parent, micro_step]");
        m_list.clear();
        m_listKinds.clear();
        return true;
    }
    bool end_array() override
    {
        --m_depth;
        if (m_listKinds.size() != 2 || (m_listKinds[0] != Kind::String && m_listKinds[0] != Kind::Null) || m_listKinds[1] != Kind::Int)
            return fail("node '" + m_key + "'", "a list value must be [parent, micro_step]");
        ConstructInfo::Node& node = slot();
        node.parent = m_listKinds[0] == Kind::String ? std::optional<std::string>(m_list[0]) : std::nullopt;
        node.microStep = static_cast<int>(m_micro);
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override
    {
        throw support::Error(m_file, "byte " + std::to_string(position), std::string("invalid JSON: ") + ex.what());
    }

private:
    enum class Kind { Null, String, Int, Other };

    ConstructInfo::Node& slot()
    {
        auto [it, inserted] = info.indexOf.emplace(m_key, info.nodes.size());
        if (inserted) {
            info.nodes.push_back({});
            info.nodes.back().name = m_key;
        }
        return info.nodes[it->second]; // a repeated key keeps its first position and takes the last value
    }

    bool value(Kind kind, const std::string& text, std::int64_t number)
    {
        if (m_depth == 0)
            return fail({}, "construct.json must be a JSON object of node -> parent");
        if (m_depth == 2) {
            m_listKinds.push_back(kind);
            m_list.push_back(text);
            if (kind == Kind::Int)
                m_micro = number;
            return true;
        }
        if (m_key == kMicroStepKey) {
            if (kind != Kind::Int)
                return fail(std::string(kMicroStepKey), "must be an integer");
            info.megatronMicroStepNumber = static_cast<int>(number);
            return true;
        }
        if (kind != Kind::Null && kind != Kind::String)
            return fail("node '" + m_key + "'", "the parent must be a string or null");
        ConstructInfo::Node& node = slot();
        node.parent = kind == Kind::String ? std::optional<std::string>(text) : std::nullopt;
        node.microStep.reset();
        return true;
    }

    bool fail(const std::string& place, const std::string& message) { throw support::Error(m_file, place, message); }

    std::string m_file, m_key;
    int m_depth = 0;
    std::vector<std::string> m_list;
    std::vector<Kind> m_listKinds;
    std::int64_t m_micro = 0;
};

// The simdjson DOM reads the file 3-4x faster than nlohmann's SAX; the SAX reader gives the messages for
// malformed JSON (with the byte position) and is the reference for what is accepted.
// Keep false: the same checks, nothing stored (msprobe info checks the side files it does not use).
template <bool Keep>
ConstructInfo parseConstruct(const std::string& file, const std::string& text)
{
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(text).get(root)) {
        ConstructSax sax(file);
        nlohmann::json::sax_parse(text, &sax);
        return std::move(sax.info);
    }
    simdjson::dom::object object;
    if (root.get_object().get(object))
        throw support::Error(file, {}, "construct.json must be a JSON object of node -> parent");
    ConstructInfo info;
    if constexpr (Keep) {
        info.nodes.reserve(object.size());
        info.indexOf.reserve(object.size());
    }
    auto slot = [&](std::string_view key) -> ConstructInfo::Node& {
        auto [it, inserted] = info.indexOf.emplace(std::string(key), info.nodes.size());
        if (inserted) {
            info.nodes.push_back({});
            info.nodes.back().name = key;
        }
        return info.nodes[it->second]; // a repeated key keeps its first position and takes the last value
    };
    auto fail = [&](std::string_view key, const char* message) -> void {
        throw support::Error(file, "node '" + std::string(key) + "'", message);
    };
    for (auto [key, value] : object) {
        using Type = simdjson::dom::element_type;
        const Type type = value.type();
        if (type == Type::ARRAY) {
            simdjson::dom::array list = value.get_array().value_unsafe();
            const Type first = list.size() == 2 ? list.at(0).value_unsafe().type() : Type::OBJECT;
            const Type second = list.size() == 2 ? list.at(1).value_unsafe().type() : Type::OBJECT;
            for (auto element : list)
                if (element.type() == Type::ARRAY || element.type() == Type::OBJECT)
                    fail(key, "the parent must be a string, null or [parent, micro_step]");
            if ((first != Type::STRING && first != Type::NULL_VALUE) || (second != Type::INT64 && second != Type::UINT64))
                fail(key, "a list value must be [parent, micro_step]");
            if constexpr (!Keep)
                continue;
            ConstructInfo::Node& node = slot(key);
            node.parent = first == Type::STRING ? std::optional<std::string>(list.at(0).get_string().value_unsafe()) : std::nullopt;
            node.microStep = static_cast<int>(second == Type::INT64 ? list.at(1).get_int64().value_unsafe()
                                                                    : static_cast<std::int64_t>(list.at(1).get_uint64().value_unsafe()));
            continue;
        }
        if (key == kMicroStepKey) {
            if (type == Type::INT64)
                info.megatronMicroStepNumber = static_cast<int>(value.get_int64().value_unsafe());
            else if (type == Type::UINT64)
                info.megatronMicroStepNumber = static_cast<int>(value.get_uint64().value_unsafe());
            else
                throw support::Error(file, std::string(kMicroStepKey), "must be an integer");
            continue;
        }
        if (type == Type::OBJECT)
            fail(key, "the parent must be a string, null or [parent, micro_step]");
        if (type != Type::STRING && type != Type::NULL_VALUE)
            fail(key, "the parent must be a string or null");
        if constexpr (!Keep)
            continue;
        ConstructInfo::Node& node = slot(key);
        node.parent = type == Type::STRING ? std::optional<std::string>(value.get_string().value_unsafe()) : std::nullopt;
        node.microStep.reset();
    }
    return info;
}

} // namespace

ConstructInfo readConstructJson(const std::filesystem::path& file)
{
    if (!sideFilePresent(file))
        return {};
    const std::string text = support::readWholeFile(file);
    if (isBlank(text))
        throw support::Error(file.string(), {}, "the file is empty (expected a JSON object of node -> parent; an interrupted dump?)");
    ConstructInfo info = parseConstruct<true>(file.string(), text);
    // The Megatron variant gives every node a micro step (0 for plain parents).
    if (info.megatronMicroStepNumber)
        for (auto& node : info.nodes)
            if (!node.microStep)
                node.microStep = 0;
    return info;
}

void checkConstructJson(const std::filesystem::path& file)
{
    if (!sideFilePresent(file))
        return;
    const std::string text = support::readWholeFile(file);
    if (isBlank(text))
        throw support::Error(file.string(), {}, "the file is empty (expected a JSON object of node -> parent; an interrupted dump?)");
    (void)parseConstruct<false>(file.string(), text);
}

namespace {

// The message nlohmann gives for text simdjson rejected (it names the line and column).
[[noreturn]] void throwInvalidJson(const std::filesystem::path& file, const std::string& text, simdjson::error_code code)
{
    try {
        const auto parsed = nlohmann::json::parse(text);
        (void)parsed;
    } catch (const nlohmann::json::exception& ex) {
        throw support::Error(file.string(), {}, std::string("invalid JSON: ") + ex.what());
    }
    throw support::Error(file.string(), {}, std::string("invalid JSON: ") + simdjson::error_message(code));
}

} // namespace

namespace {

template <bool Keep>
StackInfo parseStack(const std::filesystem::path& file)
{
    StackInfo info;
    if (!sideFilePresent(file))
        return info;
    const std::string text = support::readWholeFile(file);
    if (isBlank(text))
        throw support::Error(file.string(), {}, "the file is empty (expected a JSON object of call stacks; an interrupted dump?)");
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (auto error = parser.parse(text).get(root))
        throwInvalidJson(file, text, error);
    simdjson::dom::object object;
    if (root.get_object().get(object))
        throw support::Error(file.string(), {}, "stack.json must be a JSON object");
    // Keys in file order; a key given twice keeps its last value (as a JSON object does).
    std::vector<std::pair<std::string_view, simdjson::dom::element>> members;
    std::unordered_map<std::string_view, std::size_t> memberOf;
    for (auto [key, value] : object) {
        auto [it, fresh] = memberOf.try_emplace(key, members.size());
        if (fresh)
            members.emplace_back(key, value);
        else
            members[it->second].second = value;
    }
    auto stringList = [&](simdjson::dom::element value, const std::string& where) {
        simdjson::dom::array array;
        if (value.get_array().get(array))
            throw support::Error(file.string(), where, "expected a list of strings");
        std::vector<std::string> out;
        if constexpr (Keep)
            out.reserve(array.size());
        for (simdjson::dom::element item : array) {
            std::string_view textItem;
            if (item.get_string().get(textItem))
                throw support::Error(file.string(), where, "expected a list of strings");
            if constexpr (Keep)
                out.emplace_back(textItem);
        }
        return out;
    };
    auto pairOf = [](simdjson::dom::element value, simdjson::dom::array& array) {
        return !value.get_array().get(array) && array.size() == 2;
    };
    const auto first = memberOf.find("0");
    simdjson::dom::array firstPair;
    info.legacyFormat = members.empty() || first == memberOf.end() || !pairOf(members[first->second].second, firstPair);
    if (info.legacyFormat) // sorted keys, as the reference's dict walk in our earlier (std::map) reading gave
        std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    else // groups in numeric order: a name listed twice takes the later group
        std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) {
            return a.first.size() != b.first.size() ? a.first.size() < b.first.size() : a.first < b.first;
        });
    std::size_t names = members.size();
    if (!info.legacyFormat) {
        names = 0;
        for (const auto& member : members) {
            simdjson::dom::array pair, list;
            if (pairOf(member.second, pair) && !pair.at(0).get_array().get(list))
                names += list.size();
        }
    }
    if constexpr (Keep)
        info.groupOf.reserve(names);
    for (const auto& [key, value] : members) {
        const auto group = static_cast<std::uint32_t>(info.frames.size());
        if (info.legacyFormat) {
            auto frames = stringList(value, "node '" + std::string(key) + "'");
            if constexpr (Keep) {
                info.frames.push_back(std::move(frames));
                info.groupOf[std::string(key)] = group;
            }
            continue;
        }
        simdjson::dom::array pair;
        if (!pairOf(value, pair))
            throw support::Error(file.string(), "group \"" + std::string(key) + "\"", "expected [[node names], [frames]]");
        const std::string where = "group \"" + std::string(key) + "\"";
        for (auto& name : stringList(pair.at(0).value_unsafe(), where + " names"))
            info.groupOf.insert_or_assign(std::move(name), group);
        auto frames = stringList(pair.at(1).value_unsafe(), where + " frames");
        if constexpr (Keep)
            info.frames.push_back(std::move(frames));
    }
    return info;
}

} // namespace

StackInfo readStackJson(const std::filesystem::path& file) { return parseStack<true>(file); }

void checkStackJson(const std::filesystem::path& file) { (void)parseStack<false>(file); }

} // namespace msprobe::dump
