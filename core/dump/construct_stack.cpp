// SPDX-License-Identifier: Apache-2.0
#include "dump/construct_stack.h"

#include "support/error.h"
#include "support/json_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace msprobe {

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

namespace {

constexpr std::string_view kMicroStepKey = "megatron_micro_step_number";

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
        throw Error(m_file, "byte " + std::to_string(position), std::string("invalid JSON: ") + ex.what());
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

    bool fail(const std::string& place, const std::string& message) { throw Error(m_file, place, message); }

    std::string m_file, m_key;
    int m_depth = 0;
    std::vector<std::string> m_list;
    std::vector<Kind> m_listKinds;
    std::int64_t m_micro = 0;
};

} // namespace

ConstructInfo readConstructJson(const std::filesystem::path& file)
{
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return {};
    const std::string text = readWholeFile(file);
    ConstructSax sax(file.string());
    nlohmann::json::sax_parse(text, &sax);
    ConstructInfo info = std::move(sax.info);
    // The Megatron variant gives every node a micro step (0 for plain parents).
    if (info.megatronMicroStepNumber)
        for (auto& node : info.nodes)
            if (!node.microStep)
                node.microStep = 0;
    return info;
}

StackInfo readStackJson(const std::filesystem::path& file)
{
    StackInfo info;
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return info;
    const std::string text = readWholeFile(file);
    // std::map-backed DOM: O(n log n) for the one-key-per-node legacy format.
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& ex) {
        throw Error(file.string(), {}, std::string("invalid JSON: ") + ex.what());
    }
    if (!json.is_object())
        throw Error(file.string(), {}, "stack.json must be a JSON object");
    auto stringList = [&](const nlohmann::json& value, const std::string& where) {
        if (!value.is_array())
            throw Error(file.string(), where, "expected a list of strings");
        std::vector<std::string> out;
        out.reserve(value.size());
        for (const auto& item : value) {
            if (!item.is_string())
                throw Error(file.string(), where, "expected a list of strings");
            out.push_back(item.get<std::string>());
        }
        return out;
    };
    const auto first = json.find("0");
    info.legacyFormat = json.empty() || first == json.end() || !first->is_array() || first->size() != 2;
    std::vector<std::string> keys;
    for (const auto& item : json.items())
        keys.push_back(item.key());
    if (!info.legacyFormat) // groups in numeric order: a name listed twice takes the later group
        std::stable_sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) {
            return a.size() != b.size() ? a.size() < b.size() : a < b;
        });
    for (const auto& key : keys) {
        const auto& value = json[key];
        const auto group = static_cast<std::uint32_t>(info.frames.size());
        if (info.legacyFormat) {
            info.frames.push_back(stringList(value, "node '" + key + "'"));
            info.groupOf[key] = group;
            continue;
        }
        if (!value.is_array() || value.size() != 2)
            throw Error(file.string(), "group \"" + key + "\"", "expected [[node names], [frames]]");
        for (auto& name : stringList(value[0], "group \"" + key + "\" names"))
            info.groupOf[name] = group;
        info.frames.push_back(stringList(value[1], "group \"" + key + "\" frames"));
    }
    return info;
}

} // namespace msprobe
