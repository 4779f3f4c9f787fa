// SPDX-License-Identifier: Apache-2.0
// The .npy reader: the header dict np.save writes (a Python literal, only the subset np.save writes is accepted),
// then the data checked against shape x dtype before any element is read.
#include "dump/tensor_file.h"

#include "support/error.h"

#include <algorithm>
#include <bit>
#include <fstream>
#include <iterator>
#include <optional>

namespace fs = std::filesystem;

namespace msprobe::dump {

namespace {

using detail::elementCount;
using detail::shapeText;

std::uint32_t loadLittle(const unsigned char* p, std::size_t bytes)
{
    std::uint32_t value = 0;
    for (std::size_t i = bytes; i-- > 0;)
        value = (value << 8) | p[i];
    return value;
}

struct NpyHeader {
    std::optional<std::string> descr;
    std::optional<bool> fortranOrder;
    std::optional<std::vector<std::int64_t>> shape;
};

// The header is a Python dict literal; only the subset np.save writes is accepted.
class NpyHeaderParser {
public:
    NpyHeaderParser(std::string_view text, std::size_t fileOffset, const std::string& file)
        : m_text(text)
        , m_fileOffset(fileOffset)
        , m_file(file)
    {
    }

    NpyHeader parse()
    {
        NpyHeader header;
        expect('{');
        bool more = !accept('}');
        while (more) {
            const std::string key = parseString();
            expect(':');
            if (key == "descr")
                header.descr = parseDescrValue();
            else if (key == "fortran_order")
                header.fortranOrder = parseBool();
            else if (key == "shape")
                header.shape = parseShape();
            else
                fail("unexpected key '" + key + "'");
            more = !accept('}');
            if (more) {
                expect(',');
                more = !accept('}');
            }
        }
        skipSpace();
        if (m_pos != m_text.size())
            fail("unexpected text after the header dict");
        return header;
    }

private:
    [[noreturn]] void fail(const std::string& message) const
    {
        throw support::Error(m_file, "header byte " + std::to_string(m_fileOffset + m_pos), message);
    }

    void skipSpace()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\t'))
            ++m_pos;
    }

    bool accept(char c)
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }

    void expect(char c)
    {
        if (!accept(c))
            fail(std::string("expected '") + c + "'");
    }

    std::string parseString()
    {
        skipSpace();
        if (m_pos >= m_text.size() || (m_text[m_pos] != '\'' && m_text[m_pos] != '"'))
            fail("expected a quoted string");
        const char quote = m_text[m_pos++];
        const std::size_t end = m_text.find(quote, m_pos);
        if (end == std::string_view::npos)
            fail("unterminated string");
        std::string value(m_text.substr(m_pos, end - m_pos));
        if (value.find('\\') != std::string::npos)
            fail("escape sequences are not supported");
        m_pos = end + 1;
        return value;
    }

    std::string parseDescrValue()
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '[')
            fail("structured dtypes are not supported");
        return parseString();
    }

    bool parseBool()
    {
        skipSpace();
        for (const auto& [word, value] : { std::pair { std::string_view("True"), true }, { "False", false } }) {
            if (m_text.substr(m_pos, word.size()) == word) {
                m_pos += word.size();
                return value;
            }
        }
        fail("expected True or False");
    }

    std::int64_t parseDimension()
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '-')
            fail("negative dimension");
        if (m_pos >= m_text.size() || m_text[m_pos] < '0' || m_text[m_pos] > '9')
            fail("expected a dimension");
        std::int64_t value = 0;
        while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9') {
            if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, m_text[m_pos] - '0', &value))
                fail("dimension too large");
            ++m_pos;
        }
        accept('L'); // Python 2 long literal
        return value;
    }

    std::vector<std::int64_t> parseShape()
    {
        expect('(');
        std::vector<std::int64_t> shape;
        while (!accept(')')) {
            shape.push_back(parseDimension());
            if (!accept(',')) {
                expect(')');
                break;
            }
        }
        return shape;
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_fileOffset;
    const std::string& m_file;
};

struct NpyDtype {
    ElementType type;
    bool bigEndian;
};

std::optional<NpyDtype> parseDescr(std::string_view descr)
{
    constexpr bool nativeBig = std::endian::native == std::endian::big;
    // ml_dtypes' bfloat16 has no numpy type code: np.save writes it as a 2-byte void ('<V2'), newer stacks
    // may write the name.
    if (descr == "bfloat16")
        return NpyDtype { ElementType::BFloat16, nativeBig };
    if (descr.size() < 2)
        return std::nullopt;
    bool bigEndian;
    switch (descr[0]) {
    case '<':
    case '|':
        bigEndian = false;
        break;
    case '>':
        bigEndian = true;
        break;
    case '=':
        bigEndian = nativeBig;
        break;
    default:
        return std::nullopt;
    }
    static constexpr std::pair<std::string_view, ElementType> codes[] = {
        { "b1", ElementType::Bool },
        { "?", ElementType::Bool },
        { "u1", ElementType::UInt8 },
        { "i1", ElementType::Int8 },
        { "i2", ElementType::Int16 },
        { "i4", ElementType::Int32 },
        { "i8", ElementType::Int64 },
        { "f2", ElementType::Float16 },
        { "f4", ElementType::Float32 },
        { "f8", ElementType::Float64 },
        { "V2", ElementType::BFloat16 },
    };
    for (const auto& [code, type] : codes) {
        if (descr.substr(1) == code)
            return NpyDtype { type, bigEndian };
    }
    return std::nullopt;
}

std::vector<unsigned char> readWholeFile(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary | std::ios::ate);
    if (!in)
        throw support::Error(file.string(), "", "cannot open for reading");
    const std::streamoff size = in.tellg();
    if (size < 0)
        throw support::Error(file.string(), "", "cannot determine the file size");
    std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), size))
        throw support::Error(file.string(), "", "read error");
    return bytes;
}

NpyHeader readNpyHeader(const std::vector<unsigned char>& bytes, std::size_t& dataStart, const std::string& name)
{
    static constexpr unsigned char magic[] = { 0x93, 'N', 'U', 'M', 'P', 'Y' };
    if (bytes.size() < 10 || !std::equal(std::begin(magic), std::end(magic), bytes.begin()))
        throw support::Error(name, "", "not a .npy file (no \\x93NUMPY magic)");
    const unsigned major = bytes[6];
    if (major < 1 || major > 3)
        throw support::Error(name, "byte 6",
            "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(bytes[7]));
    std::size_t headerStart = 10;
    std::size_t headerLength = loadLittle(&bytes[8], 2);
    if (major >= 2) {
        if (bytes.size() < 12)
            throw support::Error(name, "", "truncated .npy header");
        headerStart = 12;
        headerLength = loadLittle(&bytes[8], 4);
    }
    if (headerLength > bytes.size() - headerStart)
        throw support::Error(name, "byte 8",
            "header length " + std::to_string(headerLength) + " runs past the end of the "
                + std::to_string(bytes.size()) + "-byte file");
    dataStart = headerStart + headerLength;
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()) + headerStart, headerLength);
    NpyHeader header = NpyHeaderParser(text, headerStart, name).parse();
    for (const auto& [present, key] : { std::pair { header.descr.has_value(), "descr" },
             { header.fortranOrder.has_value(), "fortran_order" }, { header.shape.has_value(), "shape" } }) {
        if (!present)
            throw support::Error(name, "header", std::string("missing key '") + key + "'");
    }
    return header;
}

std::vector<std::int64_t> contiguousStrides(const std::vector<std::int64_t>& shape, bool fortranOrder)
{
    std::vector<std::int64_t> strides(shape.size(), 1);
    std::int64_t step = 1;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        const std::size_t i = fortranOrder ? k : shape.size() - 1 - k;
        strides[i] = step;
        step *= std::max<std::int64_t>(shape[i], 1);
    }
    return strides;
}

} // namespace

TensorData detail::readNpyFile(const fs::path& file)
{
    const std::string name = file.string();
    const std::vector<unsigned char> bytes = readWholeFile(file);
    std::size_t dataStart = 0;
    const NpyHeader header = readNpyHeader(bytes, dataStart, name);
    const std::optional<NpyDtype> dtype = parseDescr(*header.descr);
    if (!dtype)
        throw support::Error(name, "header", "unsupported dtype '" + *header.descr + "'");

    detail::StridedLayout layout;
    layout.elementType = dtype->type;
    layout.shape = *header.shape;
    const std::optional<std::int64_t> count = elementCount(layout.shape);
    const std::size_t available = bytes.size() - dataStart;
    const auto itemSize = static_cast<std::int64_t>(elementSize(dtype->type));
    std::int64_t needed = 0;
    if (!count || __builtin_mul_overflow(*count, itemSize, &needed))
        throw support::Error(name, "header", "shape " + shapeText(layout.shape) + " is too large");
    if (static_cast<std::uint64_t>(needed) > available)
        throw support::Error(name, "byte " + std::to_string(dataStart),
            "truncated data: shape " + shapeText(layout.shape) + " of '" + *header.descr + "' needs "
                + std::to_string(needed) + " bytes, the file has " + std::to_string(available) + " after the header");
    // np.save writes exactly shape x dtype after the header: more means the header's shape or dtype is not
    // the one the data was written with.
    if (static_cast<std::uint64_t>(needed) < available)
        throw support::Error(name, "byte " + std::to_string(dataStart),
            "shape " + shapeText(layout.shape) + " of '" + *header.descr + "' needs " + std::to_string(needed)
                + " bytes, the file has " + std::to_string(available - static_cast<std::size_t>(needed))
                + " more after the header: the header does not describe the data");
    // Fortran order is a column-major layout over the same bytes; gathering it row-major transposes it.
    layout.strides = contiguousStrides(layout.shape, *header.fortranOrder);
    return detail::decodeStrided(
        layout, bytes.data() + dataStart, available, dtype->bigEndian, name, "byte " + std::to_string(dataStart));
}

} // namespace msprobe::dump
