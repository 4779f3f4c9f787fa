// SPDX-License-Identifier: Apache-2.0
#include "trend/construct_names_reader.h"

#include "dump/construct_stack.h"

#include <simdjson.h>

#include <string>
#include <string_view>

namespace msprobe::trend {

struct ConstructNamesReader::State {
    simdjson::dom::parser parser;
    dump::ConstructInfo fallback; // what m_names views when dump::readConstructJson read the file
    // The bytes behind m_names and m_index when the fast reading made them (empty otherwise): ranks of one
    // pipeline stage write the same construct.json, and a thread reading it again keeps what it has.
    std::string lastText;
};

ConstructNamesReader::ConstructNamesReader() : m_state(std::make_unique<State>()) { }

ConstructNamesReader::~ConstructNamesReader() = default;

const ConstructNames& ConstructNamesReader::read(const std::filesystem::path& file)
{
    switch (readFast(file)) {
    case FastRead::Same: return m_names;
    case FastRead::Read:
        m_microSteps.reset();
        m_index.emplace(m_names);
        if (!m_index->hasRepeatedNames())
            return m_names;
        m_state->lastText.clear();
        break;
    case FastRead::NotRead: break;
    }
    m_index.reset();
    m_microSteps.reset();
    m_state->fallback = dump::readConstructJson(file);
    m_names = constructNamesOf(m_state->fallback);
    m_index.emplace(m_names);
    return m_names;
}

const std::vector<std::int64_t>& ConstructNamesReader::microSteps()
{
    if (!m_microSteps)
        m_microSteps = microStepsOf(m_names, *m_index);
    return *m_microSteps;
}

ConstructNamesReader::FastRead ConstructNamesReader::readFast(const std::filesystem::path& file)
{
    std::error_code ec;
    const bool missing = std::filesystem::symlink_status(file, ec).type() == std::filesystem::file_type::not_found;
    simdjson::padded_string text;
    if (!missing && simdjson::padded_string::load(file.string()).get(text)) {
        m_state->lastText.clear();
        return FastRead::NotRead;
    }
    const std::string_view bytes(text.data(), text.size());
    if (!missing && m_index && !m_state->lastText.empty() && bytes == m_state->lastText)
        return FastRead::Same;
    m_index.reset();
    m_microSteps.reset();
    m_state->fallback = {};
    m_state->lastText.clear();
    m_names.names.clear();
    m_names.parents.clear();
    if (missing)
        return FastRead::Read; // as dump::readConstructJson: no construct.json, no nodes
    simdjson::dom::element root;
    simdjson::dom::object object;
    if (m_state->parser.parse(text).get(root) || root.get_object().get(object))
        return FastRead::NotRead;
    m_names.names.reserve(object.size());
    m_names.parents.reserve(object.size());
    for (auto [key, value] : object) {
        using Type = simdjson::dom::element_type;
        if (value.type() == Type::STRING)
            m_names.parents.emplace_back(value.get_string().value_unsafe());
        else if (value.type() == Type::NULL_VALUE)
            m_names.parents.emplace_back(std::nullopt);
        else
            return FastRead::NotRead; // [parent, micro_step] lists, the Megatron micro-step count, or an error
        m_names.names.push_back(key);
    }
    m_state->lastText.assign(bytes);
    return FastRead::Read;
}

} // namespace msprobe::trend
