// SPDX-License-Identifier: Apache-2.0
#include "compare/mapping_yaml.h"

#include "support/error.h"

#include <fstream>
#include <sstream>

namespace msprobe {

namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

// A plain or quoted scalar; pos is advanced past it.
std::string scalar(std::string_view line, std::size_t& pos, bool isKey, const std::string& file, std::size_t lineNo)
{
    auto fail = [&](const std::string& message) {
        throw Error(file, "line " + std::to_string(lineNo), message);
    };
    while (pos < line.size() && line[pos] == ' ')
        ++pos;
    if (pos < line.size() && (line[pos] == '\'' || line[pos] == '"')) {
        const char quote = line[pos++];
        std::string out;
        while (true) {
            if (pos >= line.size())
                fail("unterminated quoted string");
            const char c = line[pos++];
            if (c == quote) {
                if (quote == '\'' && pos < line.size() && line[pos] == '\'') {
                    out += '\'';
                    ++pos;
                    continue;
                }
                return out;
            }
            if (quote == '"' && c == '\\' && pos < line.size()) {
                const char e = line[pos++];
                out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
                continue;
            }
            out += c;
        }
    }
    std::size_t end = pos;
    if (isKey) {
        // A plain key ends at the first ": " (or ':' at the end of the line).
        while (end < line.size() && !(line[end] == ':' && (end + 1 == line.size() || line[end + 1] == ' ')))
            ++end;
    } else {
        const std::size_t comment = line.find(" #", pos);
        end = comment == std::string_view::npos ? line.size() : comment;
    }
    std::string out(trim(line.substr(pos, end - pos)));
    pos = end;
    return out;
}

} // namespace

NameMapping parseFlatYamlMapping(std::string_view text, const std::string& displayName)
{
    NameMapping mapping;
    std::size_t lineNo = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t newline = text.find('\n', start);
        std::string_view line = text.substr(start, newline == std::string_view::npos ? std::string_view::npos : newline - start);
        start = newline == std::string_view::npos ? text.size() + 1 : newline + 1;
        ++lineNo;
        const std::string_view content = trim(line);
        if (content.empty() || content.front() == '#' || content == "---" || content == "...")
            continue;
        if (content == "{}")
            continue;
        if (line.front() == ' ' || line.front() == '\t' || content.front() == '-')
            throw Error(displayName, "line " + std::to_string(lineNo), "only a flat 'key: value' mapping is supported");
        std::size_t pos = 0;
        const std::string key = scalar(content, pos, true, displayName, lineNo);
        if (pos >= content.size() || content[pos] != ':')
            throw Error(displayName, "line " + std::to_string(lineNo), "expected 'key: value'");
        ++pos;
        std::string value = scalar(content, pos, false, displayName, lineNo);
        const std::string_view rest = trim(content.substr(std::min(pos, content.size())));
        if (!rest.empty() && rest.front() != '#')
            throw Error(displayName, "line " + std::to_string(lineNo), "unexpected text after the value");
        if (key.empty() || value.empty())
            throw Error(displayName, "line " + std::to_string(lineNo), "empty key or value (nested mappings are not supported)");
        bool replaced = false;
        for (auto& [k, v] : mapping)
            if (k == key) {
                v = value;
                replaced = true;
            }
        if (!replaced)
            mapping.emplace_back(key, std::move(value));
    }
    return mapping;
}

NameMapping readFlatYamlMapping(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw Error(file.string(), {}, "cannot open the mapping file");
    std::stringstream buffer;
    buffer << in.rdbuf();
    return parseFlatYamlMapping(buffer.str(), file.string());
}

} // namespace msprobe
