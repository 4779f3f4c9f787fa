// SPDX-License-Identifier: Apache-2.0
// JSON text as Python's json.dump(data, f, indent=2) writes it: one member or element per line, two spaces per
// level, ", " never used, "[]" / "{}" for empty containers, non-ASCII escaped, NaN / Infinity for non-finite
// floats and floats in repr() form ("4.0", "1e-05").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::graph {

class PrettyJson {
public:
    void beginObject() { open('{'); }
    void endObject() { close('}'); }
    void beginArray() { open('['); }
    void endArray() { close(']'); }
    // Starts an object member; the value follows.
    void key(std::string_view name);
    // Starts an array element; the value follows.
    void element() { separate(); }

    void string(std::string_view text);
    void number(std::int64_t value);
    void number(double value);
    void boolean(bool value) { m_out += value ? "true" : "false"; }
    void null() { m_out += "null"; }

    // A Python literal (repr() text: None, True, 1.5, 'text', [1, 2], (1,), {'a': 1}, nan, inf) as JSON; text that
    // is not one is written as a JSON string.
    void pythonLiteral(std::string_view text);

    const std::string& text() const { return m_out; }

private:
    void open(char bracket);
    void close(char bracket);
    void separate();
    void newline();

    std::string m_out;
    std::vector<bool> m_empty; // per open container: nothing written in it yet
};

} // namespace msprobe::graph
