// SPDX-License-Identifier: Apache-2.0
#include "support/json_number.h"

#include <charconv>
#include <cstdlib>
#include <string>
#include <limits>

namespace msprobe::support {

bool isJsonNumber(std::string_view token)
{
    std::size_t at = 0;
    const auto digits = [&] {
        const std::size_t start = at;
        while (at < token.size() && token[at] >= '0' && token[at] <= '9')
            ++at;
        return at - start;
    };
    if (at < token.size() && token[at] == '-')
        ++at;
    if (at < token.size() && token[at] == '0')
        ++at;
    else if (digits() == 0)
        return false;
    if (at < token.size() && token[at] == '.') {
        ++at;
        if (digits() == 0)
            return false;
    }
    if (at < token.size() && (token[at] == 'e' || token[at] == 'E')) {
        ++at;
        if (at < token.size() && (token[at] == '+' || token[at] == '-'))
            ++at;
        if (digits() == 0)
            return false;
    }
    return at == token.size();
}

namespace {

bool equalsIgnoringCase(std::string_view text, std::string_view lower)
{
    if (text.size() != lower.size())
        return false;
    for (std::size_t i = 0; i < text.size(); ++i)
        if ((text[i] | 0x20) != lower[i])
            return false;
    return true;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

} // namespace

std::optional<double> parseStrictNumber(std::string_view text)
{
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    std::string_view word = text;
    const bool negative = !word.empty() && word.front() == '-';
    if (!word.empty() && (word.front() == '-' || word.front() == '+'))
        word.remove_prefix(1);
    if (equalsIgnoringCase(word, "nan"))
        return std::numeric_limits<double>::quiet_NaN();
    if (equalsIgnoringCase(word, "inf") || equalsIgnoringCase(word, "infinity"))
        return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    if (!isJsonNumber(text))
        return std::nullopt;
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc::result_out_of_range) // beyond double's range: infinity or zero, as Python gives
        return std::strtod(std::string(text).c_str(), nullptr);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

} // namespace msprobe::support
