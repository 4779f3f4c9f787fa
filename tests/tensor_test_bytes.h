// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the tensor file suites: the error text a call throws, and raw little/big-endian bytes.
#pragma once

#include "support/error.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>

namespace msprobe::test {

// The text of the msprobe::Error fn throws; "<...>" when it throws nothing or something else.
template <typename F> std::string errorOf(F&& fn)
{
    try {
        fn();
    } catch (const support::Error& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("<not an msprobe::Error> ") + e.what();
    } catch (...) {
        return "<unknown exception>";
    }
    return "<no error>";
}

inline bool contains(const std::string& text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

#define VERIFY_ERROR(call, part1, part2)                                                                               \
    do {                                                                                                               \
        const std::string text_ = msprobe::test::errorOf([&] { (void)(call); });                                       \
        QVERIFY2(                                                                                                      \
            !text_.starts_with("<") && msprobe::test::contains(text_, part1) && msprobe::test::contains(text_, part2), \
            text_.c_str());                                                                                            \
    } while (false)

inline std::string littleEndian(std::uint64_t value, int bytes)
{
    std::string out;
    for (int i = 0; i < bytes; ++i)
        out += static_cast<char>((value >> (8 * i)) & 0xff);
    return out;
}

template <typename T> std::string rawValues(std::initializer_list<T> values, bool bigEndian = false)
{
    std::string out;
    for (T value : values) {
        std::string bytes(sizeof(T), '\0');
        std::memcpy(bytes.data(), &value, sizeof(T));
        if (bigEndian)
            std::reverse(bytes.begin(), bytes.end());
        out += bytes;
    }
    return out;
}

} // namespace msprobe::test
