// SPDX-License-Identifier: Apache-2.0
#pragma once

// Text as Python writes it: repr() of floats and strings, str.split, json.dumps string literals and whole
// json.dump(indent=...) documents, either re-serialised from raw JSON text or written member by member.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::support {

// Python's repr(float): shortest round-trip digits, "2.0" for integral values, exponent form
// ("1e-05", "1.5e+16") below 1e-4 or from 1e16, and "nan" / "inf" / "-inf".
std::string pythonFloatRepr(double value);
// The same text appended to out, without temporary strings (the compare CSV hot path).
void appendPythonFloatRepr(std::string& out, double value);
// Python's repr(str): single quotes unless the text has a single quote and no double quote.
std::string pythonStringRepr(std::string_view text);
// Python's str(bool).
inline std::string_view pythonBool(bool value) { return value ? "True" : "False"; }

// Python's text.split(separator): every field, empty ones included ("a..b" -> "a", "", "b"; "" -> "").
std::vector<std::string_view> pythonSplit(std::string_view text, char separator);

// JSON string literal as Python's json.dumps writes it (ensure_ascii: non-ASCII as \uXXXX).
void appendJsonString(std::string& out, std::string_view text);

// Re-serialises raw JSON text (NaN/Infinity tokens allowed) as Python's json.dump(indent=indent) writes what
// json.load read from it: key order kept, floats as repr(), ints as written, strings with ensure_ascii, nested
// lines indented from `depth`. Throws msprobe::Error on malformed input.
void appendPythonJson(std::string& out, std::string_view raw, int indent, int depth);

// JSON text as Python's json.dump(data, f, indent=2) writes it, member by member: one member or element per
// line, two spaces per level, "[]" / "{}" for empty containers, non-ASCII escaped, NaN / Infinity for
// non-finite floats and floats in repr() form ("4.0", "1e-05").
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

} // namespace msprobe::support
