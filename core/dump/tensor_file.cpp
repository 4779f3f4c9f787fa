// SPDX-License-Identifier: Apache-2.0
#include "dump/tensor_file.h"

#include "support/error.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <new>
#include <optional>

namespace fs = std::filesystem;

namespace msprobe {

namespace {

// A view whose strides repeat elements (expand/broadcast) may describe more elements than its storage holds;
// beyond this many such a view is taken as hostile rather than converted.
constexpr std::int64_t kMaxBroadcastElements = std::int64_t(1) << 26;

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

// Element count of a shape, or nullopt when it does not fit in int64. Negative sizes are checked by callers.
std::optional<std::int64_t> elementCount(const std::vector<std::int64_t>& shape)
{
    std::int64_t count = 1;
    for (std::int64_t size : shape) {
        if (size == 0)
            return 0;
    }
    for (std::int64_t size : shape) {
        if (__builtin_mul_overflow(count, size, &count))
            return std::nullopt;
    }
    return count;
}

template <typename U> U loadUnsigned(const unsigned char* p, bool bigEndian)
{
    U value = 0;
    if (bigEndian) {
        for (std::size_t i = 0; i < sizeof(U); ++i)
            value = static_cast<U>((value << 8) | p[i]);
    } else {
        for (std::size_t i = sizeof(U); i-- > 0;)
            value = static_cast<U>((value << 8) | p[i]);
    }
    return value;
}

double halfToDouble(std::uint16_t bits)
{
    const int exponent = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    double magnitude;
    if (exponent == 0)
        magnitude = std::ldexp(mantissa, -24);
    else if (exponent == 31)
        magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else
        magnitude = std::ldexp(mantissa + 1024, exponent - 25);
    return (bits & 0x8000) ? -magnitude : magnitude;
}

double bfloat16ToDouble(std::uint16_t bits)
{
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

// Appends the layout's elements in row-major order; the layout has been validated and has elements.
template <typename Convert>
void gather(const detail::StridedLayout& layout, const unsigned char* storage, std::size_t itemSize, Convert convert,
    std::vector<double>& out)
{
    const auto at = [&](std::int64_t index) { return convert(storage + static_cast<std::size_t>(index) * itemSize); };
    const std::size_t rank = layout.shape.size();
    if (rank == 0) {
        out.push_back(at(layout.offset));
        return;
    }
    const std::int64_t inner = layout.shape[rank - 1];
    const std::int64_t innerStride = layout.strides[rank - 1];
    std::vector<std::int64_t> index(rank, 0);
    std::int64_t base = layout.offset;
    while (true) {
        for (std::int64_t i = 0; i < inner; ++i)
            out.push_back(at(base + i * innerStride));
        std::size_t dim = rank - 1;
        while (dim-- > 0) {
            if (++index[dim] < layout.shape[dim]) {
                base += layout.strides[dim];
                break;
            }
            base -= (layout.shape[dim] - 1) * layout.strides[dim];
            index[dim] = 0;
        }
        if (dim == static_cast<std::size_t>(-1))
            return;
    }
}

void gatherAs(
    const detail::StridedLayout& layout, const unsigned char* storage, bool bigEndian, std::vector<double>& out)
{
    const std::size_t size = elementSize(layout.elementType);
    switch (layout.elementType) {
    case ElementType::Bool:
        return gather(
            layout, storage, size, [](const unsigned char* p) { return *p ? 1.0 : 0.0; }, out);
    case ElementType::UInt8:
        return gather(
            layout, storage, size, [](const unsigned char* p) { return double(*p); }, out);
    case ElementType::Int8:
        return gather(
            layout, storage, size, [](const unsigned char* p) { return double(std::int8_t(*p)); }, out);
    case ElementType::Int16:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) { return double(std::int16_t(loadUnsigned<std::uint16_t>(p, bigEndian))); },
            out);
    case ElementType::Int32:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) { return double(std::int32_t(loadUnsigned<std::uint32_t>(p, bigEndian))); },
            out);
    case ElementType::Int64:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) { return double(std::int64_t(loadUnsigned<std::uint64_t>(p, bigEndian))); },
            out);
    case ElementType::Float16:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) { return halfToDouble(loadUnsigned<std::uint16_t>(p, bigEndian)); }, out);
    case ElementType::BFloat16:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) { return bfloat16ToDouble(loadUnsigned<std::uint16_t>(p, bigEndian)); }, out);
    case ElementType::Float32:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) {
                return double(std::bit_cast<float>(loadUnsigned<std::uint32_t>(p, bigEndian)));
            },
            out);
    case ElementType::Float64:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) { return std::bit_cast<double>(loadUnsigned<std::uint64_t>(p, bigEndian)); },
            out);
    }
}

// Returns the element count after checking that every element the layout addresses lies in the storage.
std::int64_t checkLayout(
    const detail::StridedLayout& layout, std::size_t storageBytes, const std::string& file, const std::string& place)
{
    const auto fail = [&](const std::string& message) { return Error(file, place, message); };
    if (layout.strides.size() != layout.shape.size())
        throw fail(
            "shape " + shapeText(layout.shape) + " and strides " + shapeText(layout.strides) + " differ in length");
    if (layout.offset < 0)
        throw fail("negative storage offset " + std::to_string(layout.offset));
    for (std::size_t i = 0; i < layout.shape.size(); ++i) {
        if (layout.shape[i] < 0)
            throw fail("negative size in shape " + shapeText(layout.shape));
        if (layout.strides[i] < 0)
            throw fail("negative stride in strides " + shapeText(layout.strides));
    }
    const std::optional<std::int64_t> count = elementCount(layout.shape);
    if (!count)
        throw fail("shape " + shapeText(layout.shape) + " has too many elements");
    if (*count == 0)
        return 0;

    const auto storageElements = static_cast<std::int64_t>(storageBytes / elementSize(layout.elementType));
    std::int64_t last = layout.offset;
    bool overflow = false;
    for (std::size_t i = 0; i < layout.shape.size(); ++i) {
        std::int64_t reach = 0;
        overflow = overflow || __builtin_mul_overflow(layout.shape[i] - 1, layout.strides[i], &reach)
            || __builtin_add_overflow(last, reach, &last);
    }
    if (overflow || last >= storageElements)
        throw fail("view of shape " + shapeText(layout.shape) + ", strides " + shapeText(layout.strides)
            + " and offset " + std::to_string(layout.offset) + " reaches beyond its storage of "
            + std::to_string(storageElements) + " elements");
    if (*count > std::max(storageElements, kMaxBroadcastElements))
        throw fail("view of shape " + shapeText(layout.shape) + " repeats a storage of "
            + std::to_string(storageElements) + " elements into too many elements");
    return *count;
}

// ---- .npy ----------------------------------------------------------------------------------------------

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
        throw Error(m_file, "header byte " + std::to_string(m_fileOffset + m_pos), message);
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
        throw Error(file.string(), "", "cannot open for reading");
    const std::streamoff size = in.tellg();
    if (size < 0)
        throw Error(file.string(), "", "cannot determine the file size");
    std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), size))
        throw Error(file.string(), "", "read error");
    return bytes;
}

NpyHeader readNpyHeader(const std::vector<unsigned char>& bytes, std::size_t& dataStart, const std::string& name)
{
    static constexpr unsigned char magic[] = { 0x93, 'N', 'U', 'M', 'P', 'Y' };
    if (bytes.size() < 10 || !std::equal(std::begin(magic), std::end(magic), bytes.begin()))
        throw Error(name, "", "not a .npy file (no \\x93NUMPY magic)");
    const unsigned major = bytes[6];
    if (major < 1 || major > 3)
        throw Error(name, "byte 6",
            "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(bytes[7]));
    std::size_t headerStart = 10;
    std::size_t headerLength = loadUnsigned<std::uint16_t>(&bytes[8], false);
    if (major >= 2) {
        if (bytes.size() < 12)
            throw Error(name, "", "truncated .npy header");
        headerStart = 12;
        headerLength = loadUnsigned<std::uint32_t>(&bytes[8], false);
    }
    if (headerLength > bytes.size() - headerStart)
        throw Error(name, "byte 8",
            "header length " + std::to_string(headerLength) + " runs past the end of the "
                + std::to_string(bytes.size()) + "-byte file");
    dataStart = headerStart + headerLength;
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()) + headerStart, headerLength);
    NpyHeader header = NpyHeaderParser(text, headerStart, name).parse();
    for (const auto& [present, key] : { std::pair { header.descr.has_value(), "descr" },
             { header.fortranOrder.has_value(), "fortran_order" }, { header.shape.has_value(), "shape" } }) {
        if (!present)
            throw Error(name, "header", std::string("missing key '") + key + "'");
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

TensorData readNpyFile(const fs::path& file)
{
    const std::string name = file.string();
    const std::vector<unsigned char> bytes = readWholeFile(file);
    std::size_t dataStart = 0;
    const NpyHeader header = readNpyHeader(bytes, dataStart, name);
    const std::optional<NpyDtype> dtype = parseDescr(*header.descr);
    if (!dtype)
        throw Error(name, "header", "unsupported dtype '" + *header.descr + "'");

    detail::StridedLayout layout;
    layout.elementType = dtype->type;
    layout.shape = *header.shape;
    const std::optional<std::int64_t> count = elementCount(layout.shape);
    const std::size_t available = bytes.size() - dataStart;
    const auto itemSize = static_cast<std::int64_t>(elementSize(dtype->type));
    std::int64_t needed = 0;
    if (!count || __builtin_mul_overflow(*count, itemSize, &needed))
        throw Error(name, "header", "shape " + shapeText(layout.shape) + " is too large");
    if (static_cast<std::uint64_t>(needed) > available)
        throw Error(name, "byte " + std::to_string(dataStart),
            "truncated data: shape " + shapeText(layout.shape) + " of '" + *header.descr + "' needs "
                + std::to_string(needed) + " bytes, the file has " + std::to_string(available) + " after the header");
    // Fortran order is a column-major layout over the same bytes; gathering it row-major transposes it.
    layout.strides = contiguousStrides(layout.shape, *header.fortranOrder);
    return detail::decodeStrided(
        layout, bytes.data() + dataStart, available, dtype->bigEndian, name, "byte " + std::to_string(dataStart));
}

// ---- data_name resolution -------------------------------------------------------------------------------

std::string printable(std::string_view text)
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

bool isStrictlyInside(const fs::path& path, const fs::path& folder)
{
    auto p = path.begin();
    for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
        if (f->empty() && std::next(f) == folder.end())
            break; // trailing separator
        if (p == path.end() || *p != *f)
            return false;
    }
    return p != path.end();
}

} // namespace

std::string_view torchDtypeName(ElementType type)
{
    switch (type) {
    case ElementType::Bool:
        return "torch.bool";
    case ElementType::UInt8:
        return "torch.uint8";
    case ElementType::Int8:
        return "torch.int8";
    case ElementType::Int16:
        return "torch.int16";
    case ElementType::Int32:
        return "torch.int32";
    case ElementType::Int64:
        return "torch.int64";
    case ElementType::Float16:
        return "torch.float16";
    case ElementType::BFloat16:
        return "torch.bfloat16";
    case ElementType::Float32:
        return "torch.float32";
    case ElementType::Float64:
        return "torch.float64";
    }
    return "torch.unknown";
}

std::size_t elementSize(ElementType type)
{
    switch (type) {
    case ElementType::Bool:
    case ElementType::UInt8:
    case ElementType::Int8:
        return 1;
    case ElementType::Int16:
    case ElementType::Float16:
    case ElementType::BFloat16:
        return 2;
    case ElementType::Int32:
    case ElementType::Float32:
        return 4;
    case ElementType::Int64:
    case ElementType::Float64:
        return 8;
    }
    return 1;
}

namespace detail {

TensorData decodeStrided(const StridedLayout& layout, const unsigned char* storage, std::size_t storageBytes,
    bool bigEndian, const std::string& file, const std::string& place)
{
    const std::int64_t count = checkLayout(layout, storageBytes, file, place);
    TensorData tensor;
    tensor.elementType = layout.elementType;
    tensor.shape = layout.shape;
    tensor.values.reserve(static_cast<std::size_t>(count));
    if (count > 0)
        gatherAs(layout, storage, bigEndian, tensor.values);
    return tensor;
}

} // namespace detail

TensorData readTensorFile(const fs::path& file)
{
    const std::string name = file.string();
    std::string extension = file.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const bool isPt = extension == ".pt" || extension == ".pth";
    if (!isPt && extension != ".npy")
        throw Error(name, "", "unsupported tensor file type '" + extension + "' (expected .pt or .npy)");
    std::error_code ec;
    const fs::file_status status = fs::status(file, ec);
    if (!fs::exists(status))
        throw Error(name, "", "no such file");
    if (!fs::is_regular_file(status))
        throw Error(name, "", "not a regular file");
    try {
        return isPt ? detail::readPtFile(file) : readNpyFile(file);
    } catch (const Error&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw Error(name, "", "not enough memory to read the tensor");
    } catch (const std::exception& e) {
        throw Error(name, "", e.what());
    }
}

fs::path resolveDataFile(const fs::path& dumpDataDir, std::string_view dataName)
{
    const auto reject = [&](const std::string& why) {
        return Error(dumpDataDir.string(), "data_name '" + printable(dataName) + "'", why);
    };
    if (dataName.empty())
        throw reject("is empty");
    if (dataName.find('\0') != std::string_view::npos)
        throw reject("contains a NUL character");
    if (dataName.find_first_of("/\\") != std::string_view::npos)
        throw reject("contains a path separator");
    if (dataName == "." || dataName.find("..") != std::string_view::npos)
        throw reject("contains '..' or is '.'");
    const fs::path relative { std::string(dataName) };
    if (relative.has_root_path())
        throw reject("is an absolute path");
    fs::path candidate = dumpDataDir / relative;
    std::error_code ec;
    if (fs::is_symlink(candidate, ec)) {
        std::error_code ecTarget, ecFolder;
        const fs::path target = fs::canonical(candidate, ecTarget);
        const fs::path folder = fs::canonical(dumpDataDir, ecFolder);
        if (ecTarget || ecFolder || !isStrictlyInside(target, folder))
            throw reject("is a symbolic link that does not resolve to a file inside the folder");
    }
    return candidate;
}

} // namespace msprobe
