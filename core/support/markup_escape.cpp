// SPDX-License-Identifier: Apache-2.0
#include "support/markup_escape.h"

namespace msprobe::support {

void appendMarkupEscaped(std::string& out, std::string_view text)
{
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
}

std::string markupEscaped(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    appendMarkupEscaped(out, text);
    return out;
}

std::string printableText(std::string_view text)
{
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f)
            out += std::string("\\x") + hex[u >> 4] + hex[u & 15];
        else
            out += c;
    }
    return out;
}

} // namespace msprobe::support
