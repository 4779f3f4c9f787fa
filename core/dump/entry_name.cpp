// SPDX-License-Identifier: Apache-2.0
#include "dump/entry_name.h"
#include "support/python_text.h"

#include <algorithm>
#include <charconv>
#include <vector>

namespace msprobe {

namespace {

bool isNumber(std::string_view text, std::int64_t& out)
{
    if (text.empty() || text.size() > 18 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    std::from_chars(text.data(), text.data() + text.size(), out);
    return true;
}

// The text between parts[first] and parts[last] inclusive, taken from the original name.
std::string_view join(std::string_view name, const std::vector<std::string_view>& parts, std::size_t first, std::size_t last)
{
    const char* begin = parts[first].data();
    const char* end = parts[last].data() + parts[last].size();
    return name.substr(static_cast<std::size_t>(begin - name.data()), static_cast<std::size_t>(end - begin));
}

Direction directionOf(std::string_view word)
{
    if (word == "forward")
        return Direction::Forward;
    if (word == "backward")
        return Direction::Backward;
    return Direction::None;
}

} // namespace

EntryName parseEntryName(std::string_view name)
{
    EntryName result;
    const auto parts = pythonSplit(name, '.');
    const std::size_t count = parts.size();
    if (count < 2)
        return result;
    result.prefix = parts[0];
    const bool moduleLike = parts[0] == "Module" || parts[0] == "Cell";

    // parameters_grad: last or second-to-last segment.
    std::int64_t number = -1;
    if (moduleLike && count >= 3) {
        std::size_t pgIndex = 0;
        if (parts[count - 1] == "parameters_grad")
            pgIndex = count - 1;
        else if (count >= 4 && parts[count - 2] == "parameters_grad" && isNumber(parts[count - 1], number))
            pgIndex = count - 2;
        if (pgIndex >= 2) {
            result.kind = EntryKind::ParametersGrad;
            result.callIndex = pgIndex == count - 2 ? number : -1;
            result.moduleClass = parts[pgIndex - 1];
            result.modulePath = pgIndex >= 3 ? join(name, parts, 1, pgIndex - 2) : std::string_view {};
            return result;
        }
    }
    if (parts[count - 1] == "debug" && count >= 3 && isNumber(parts[count - 2], number)) {
        result.kind = EntryKind::Debug;
        result.callIndex = number;
        result.prefix = {};
        result.api = join(name, parts, 0, count - 3);
        return result;
    }
    if (moduleLike && count >= 4 && isNumber(parts[count - 1], number)
        && directionOf(parts[count - 2]) != Direction::None) {
        result.kind = EntryKind::Module;
        result.direction = directionOf(parts[count - 2]);
        result.callIndex = number;
        result.moduleClass = parts[count - 3];
        result.modulePath = count >= 5 ? join(name, parts, 1, count - 4) : std::string_view {};
        return result;
    }
    if (count >= 4 && directionOf(parts[count - 1]) != Direction::None && isNumber(parts[count - 2], number)) {
        result.kind = EntryKind::Api;
        result.direction = directionOf(parts[count - 1]);
        result.callIndex = number;
        result.api = join(name, parts, 1, count - 3);
        return result;
    }
    result.prefix = {};
    return result;
}

std::string_view toString(EntryKind kind)
{
    switch (kind) {
    case EntryKind::Api: return "api";
    case EntryKind::Module: return "module";
    case EntryKind::ParametersGrad: return "parameters_grad";
    case EntryKind::Debug: return "debug";
    case EntryKind::Unknown: break;
    }
    return "unknown";
}

std::string_view toString(Direction direction)
{
    switch (direction) {
    case Direction::Forward: return "forward";
    case Direction::Backward: return "backward";
    case Direction::None: break;
    }
    return "";
}

} // namespace msprobe
