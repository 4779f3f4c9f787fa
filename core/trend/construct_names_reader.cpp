// SPDX-License-Identifier: Apache-2.0
#include "trend/construct_names_reader.h"

#include "dump/construct_stack.h"

#include <simdjson.h>

namespace msprobe::trend {

struct ConstructNamesReader::State {
    simdjson::dom::parser parser;
    dump::ConstructInfo fallback; // what m_names views when dump::readConstructJson read the file
};

ConstructNamesReader::ConstructNamesReader() : m_state(std::make_unique<State>()) { }

ConstructNamesReader::~ConstructNamesReader() = default;

const ConstructNames& ConstructNamesReader::read(const std::filesystem::path& file)
{
    m_index.reset();
    m_state->fallback = {};
    if (readFast(file)) {
        m_index.emplace(m_names);
        if (!m_index->hasRepeatedNames())
            return m_names;
        m_index.reset();
    }
    m_state->fallback = dump::readConstructJson(file);
    m_names = constructNamesOf(m_state->fallback);
    m_index.emplace(m_names);
    return m_names;
}

bool ConstructNamesReader::readFast(const std::filesystem::path& file)
{
    m_names.names.clear();
    m_names.parents.clear();
    std::error_code ec;
    if (std::filesystem::symlink_status(file, ec).type() == std::filesystem::file_type::not_found)
        return true; // as dump::readConstructJson: no construct.json, no nodes
    simdjson::padded_string text;
    if (simdjson::padded_string::load(file.string()).get(text))
        return false;
    simdjson::dom::element root;
    simdjson::dom::object object;
    if (m_state->parser.parse(text).get(root) || root.get_object().get(object))
        return false;
    m_names.names.reserve(object.size());
    m_names.parents.reserve(object.size());
    for (auto [key, value] : object) {
        using Type = simdjson::dom::element_type;
        if (value.type() == Type::STRING)
            m_names.parents.emplace_back(value.get_string().value_unsafe());
        else if (value.type() == Type::NULL_VALUE)
            m_names.parents.emplace_back(std::nullopt);
        else
            return false; // [parent, micro_step] lists, the Megatron micro-step count, or an error to report
        m_names.names.push_back(key);
    }
    return true;
}

} // namespace msprobe::trend
