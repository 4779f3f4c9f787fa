// SPDX-License-Identifier: Apache-2.0
// The .pt reader's unpickler. libtorch provides the zip container (PyTorchStreamReader, through dump/pt_zip.h,
// see tensor_file_pt_archive.cpp); the pickle inside is read by the small unpickler below rather than
// torch::pickle_load, because libtorch 1.13's Unpickler
//  - pops an empty stack on malformed input (a 4-byte data.pkl segfaults it),
//  - never checks sizes/strides/offset against the storage record (a crafted file reads out of bounds),
//  - throws for the location "npu:0" that every msprobe dump taken on Ascend carries (at::Device cannot parse it),
//  - ignores the byteorder record and does not know torch._utils._rebuild_parameter.
#include "dump/tensor_file_pt.h"

#include "support/error.h"

#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace msprobe::dump {

namespace {

// Limits far above what torch.save writes for one tensor (its pickle is a few hundred bytes); they bound the
// memory a hostile pickle can claim, and the nesting limit keeps the recursive destruction of tuples shallow.
using detail::PickledStorage;
using detail::PickledTensor;

constexpr std::size_t kMaxStackValues = std::size_t(1) << 16;
constexpr int kMaxNesting = 64;

enum class Kind : std::uint8_t {
    None,
    Bool,
    Int,
    Float,
    String,
    Tuple,
    Opaque, // a list, dict or OrderedDict: its contents are never needed and are dropped
    Global, // a class or function reference, "module.name"
    Storage,
    Tensor,
};

struct Value {
    Kind kind = Kind::None;
    std::int64_t integer = 0;
    std::shared_ptr<const std::string> text; // shared so that copies (DUP, BINGET) stay cheap
    std::shared_ptr<const std::vector<Value>> items;
    std::shared_ptr<const PickledStorage> storage;
    std::shared_ptr<const PickledTensor> tensor;
    int depth = 1;

    static Value ofKind(Kind kind)
    {
        Value v;
        v.kind = kind;
        return v;
    }
    static Value ofInt(Kind kind, std::int64_t integer)
    {
        Value v = ofKind(kind);
        v.integer = integer;
        return v;
    }
    static Value ofText(Kind kind, std::string text)
    {
        Value v = ofKind(kind);
        v.text = std::make_shared<const std::string>(std::move(text));
        return v;
    }
    const std::string& str() const
    {
        static const std::string empty;
        return text ? *text : empty;
    }
};

std::string_view kindName(Kind kind)
{
    switch (kind) {
    case Kind::None:
        return "None";
    case Kind::Bool:
        return "a bool";
    case Kind::Int:
        return "an int";
    case Kind::Float:
        return "a float";
    case Kind::String:
        return "a string";
    case Kind::Tuple:
        return "a tuple";
    case Kind::Opaque:
        return "a list or dict";
    case Kind::Global:
        return "a class or function";
    case Kind::Storage:
        return "a bare storage";
    case Kind::Tensor:
        return "a tensor";
    }
    return "an object";
}

std::optional<ElementType> storageElementType(std::string_view storageClass)
{
    static constexpr std::pair<std::string_view, ElementType> classes[] = {
        { "BoolStorage", ElementType::Bool },
        { "ByteStorage", ElementType::UInt8 },
        { "CharStorage", ElementType::Int8 },
        { "ShortStorage", ElementType::Int16 },
        { "IntStorage", ElementType::Int32 },
        { "LongStorage", ElementType::Int64 },
        { "HalfStorage", ElementType::Float16 },
        { "BFloat16Storage", ElementType::BFloat16 },
        { "FloatStorage", ElementType::Float32 },
        { "DoubleStorage", ElementType::Float64 },
    };
    for (std::string_view prefix : { "torch.cuda.", "torch." }) {
        if (storageClass.starts_with(prefix)) {
            storageClass.remove_prefix(prefix.size());
            break;
        }
    }
    for (const auto& [name, type] : classes) {
        if (storageClass == name)
            return type;
    }
    return std::nullopt;
}

// Runs the pickle torch.save writes for one tensor: protocol 2 (higher protocols' framing and short forms are
// accepted too), persistent ids for storages, and the torch._utils rebuild functions.
class TensorUnpickler {
public:
    TensorUnpickler(const unsigned char* data, std::size_t size, const std::string& file)
        : m_data(data)
        , m_size(size)
        , m_file(file)
    {
    }

    PickledTensor run()
    {
        while (step()) { }
        if (m_stack.empty())
            fail("empty pickle");
        const Value& result = m_stack.back();
        if (result.kind != Kind::Tensor)
            throw support::Error(m_file, "data.pkl",
                std::string("holds ") + std::string(kindName(result.kind)) + ", not a single tensor");
        return *result.tensor;
    }

private:
    [[noreturn]] void fail(const std::string& message) const
    {
        throw support::Error(m_file, "data.pkl byte " + std::to_string(m_opStart), message);
    }

    const unsigned char* take(std::size_t count)
    {
        if (count > m_size - m_pos)
            fail("truncated pickle");
        const unsigned char* p = m_data + m_pos;
        m_pos += count;
        return p;
    }

    std::uint64_t readLE(std::size_t count)
    {
        const unsigned char* p = take(count);
        std::uint64_t value = 0;
        for (std::size_t i = count; i-- > 0;)
            value = (value << 8) | p[i];
        return value;
    }

    std::string readBytes(std::uint64_t count)
    {
        if (count > m_size - m_pos)
            fail("truncated pickle");
        return std::string(
            reinterpret_cast<const char*>(take(static_cast<std::size_t>(count))), static_cast<std::size_t>(count));
    }

    std::string readLine()
    {
        const auto* begin = m_data + m_pos;
        const auto* end = static_cast<const unsigned char*>(std::memchr(begin, '\n', m_size - m_pos));
        if (!end)
            fail("truncated pickle");
        m_pos += static_cast<std::size_t>(end - begin) + 1;
        return std::string(reinterpret_cast<const char*>(begin), static_cast<std::size_t>(end - begin));
    }

    // Signed little-endian integer of LONG1/LONG4; wider than 64 bits is rejected.
    std::int64_t readLong(std::uint64_t length)
    {
        if (length > 8)
            fail("integer wider than 64 bits");
        const unsigned char* p = take(static_cast<std::size_t>(length));
        std::uint64_t value = 0;
        for (std::size_t i = length; i-- > 0;)
            value = (value << 8) | p[i];
        if (length > 0 && length < 8 && (p[length - 1] & 0x80))
            value |= ~std::uint64_t(0) << (8 * length);
        return static_cast<std::int64_t>(value);
    }

    void push(Value value)
    {
        if (value.depth > kMaxNesting)
            fail("nesting too deep");
        if (m_stack.size() >= kMaxStackValues)
            fail("too many values on the stack");
        m_stack.push_back(std::move(value));
    }

    Value pop()
    {
        if (m_stack.size() <= (m_marks.empty() ? 0 : m_marks.back()))
            fail("stack underflow");
        Value value = std::move(m_stack.back());
        m_stack.pop_back();
        return value;
    }

    // The items pushed since the last MARK, which is removed.
    std::vector<Value> popToMark()
    {
        if (m_marks.empty())
            fail("no MARK on the stack");
        const std::size_t mark = m_marks.back();
        m_marks.pop_back();
        std::vector<Value> items(std::make_move_iterator(m_stack.begin() + static_cast<std::ptrdiff_t>(mark)),
            std::make_move_iterator(m_stack.end()));
        m_stack.resize(mark);
        return items;
    }

    static Value makeTuple(std::vector<Value> items)
    {
        Value tuple = Value::ofKind(Kind::Tuple);
        for (const Value& item : items)
            tuple.depth = std::max(tuple.depth, item.depth + 1);
        tuple.items = std::make_shared<const std::vector<Value>>(std::move(items));
        return tuple;
    }

    void pushTuple(std::size_t count)
    {
        std::vector<Value> items(count);
        for (std::size_t i = count; i-- > 0;)
            items[i] = pop();
        push(makeTuple(std::move(items)));
    }

    // Pops `count` values from a container's contents (dropped) and checks the container below them.
    void dropIntoContainer(std::size_t count)
    {
        for (std::size_t i = 0; i < count; ++i)
            pop();
        if (m_stack.empty() || m_stack.back().kind != Kind::Opaque)
            fail("item added to something that is not a list or dict");
    }

    void dropMarkedIntoContainer(bool pairs)
    {
        const std::vector<Value> items = popToMark();
        if (pairs && items.size() % 2 != 0)
            fail("odd number of dict items");
        dropIntoContainer(0);
    }

    void memoPut(std::uint64_t index)
    {
        if (m_stack.empty())
            fail("memo store from an empty stack");
        if (m_memo.size() >= kMaxStackValues && !m_memo.contains(index))
            fail("too many memo entries");
        m_memo[index] = m_stack.back();
    }

    void memoGet(std::uint64_t index)
    {
        const auto it = m_memo.find(index);
        if (it == m_memo.end())
            fail("memo entry " + std::to_string(index) + " is not defined");
        push(it->second);
    }

    const Value& item(const Value& tuple, std::size_t index, Kind kind, std::string_view what) const
    {
        if (tuple.kind != Kind::Tuple || index >= tuple.items->size() || (*tuple.items)[index].kind != kind)
            fail("expected " + std::string(kindName(kind)) + " as " + std::string(what));
        return (*tuple.items)[index];
    }

    std::vector<std::int64_t> intTuple(const Value& tuple, std::size_t index, std::string_view what) const
    {
        const Value& sizes = item(tuple, index, Kind::Tuple, what);
        std::vector<std::int64_t> values;
        for (const Value& v : *sizes.items) {
            if (v.kind != Kind::Int)
                fail(std::string(what) + " holds a non-integer");
            values.push_back(v.integer);
        }
        return values;
    }

    Value persistentLoad(const Value& pid) const
    {
        if (pid.kind != Kind::Tuple || pid.items->empty() || (*pid.items)[0].str() != "storage")
            fail("unsupported persistent id (expected a storage reference)");
        const std::string& storageClass = item(pid, 1, Kind::Global, "storage type").str();
        const std::optional<ElementType> type = storageElementType(storageClass);
        if (!type)
            fail("unsupported storage type '" + storageClass + "'");
        // The location (pid[3], e.g. "cuda:0", "npu:0") is ignored: the bytes are always read to host memory.
        auto storage = std::make_shared<PickledStorage>();
        storage->elementType = *type;
        storage->key = item(pid, 2, Kind::String, "storage key").str();
        storage->numel = item(pid, 4, Kind::Int, "storage size").integer;
        if (storage->numel < 0)
            fail("negative storage size");
        Value value = Value::ofKind(Kind::Storage);
        value.storage = std::move(storage);
        return value;
    }

    Value rebuildTensor(const Value& args) const
    {
        auto tensor = std::make_shared<PickledTensor>();
        tensor->storage = item(args, 0, Kind::Storage, "tensor storage").storage;
        tensor->layout.elementType = tensor->storage->elementType;
        tensor->layout.offset = item(args, 1, Kind::Int, "storage offset").integer;
        tensor->layout.shape = intTuple(args, 2, "tensor size");
        tensor->layout.strides = intTuple(args, 3, "tensor stride");
        Value value = Value::ofKind(Kind::Tensor);
        value.tensor = std::move(tensor);
        return value;
    }

    Value call(const Value& callable, const Value& args) const
    {
        if (callable.kind != Kind::Global || args.kind != Kind::Tuple)
            fail("REDUCE without a callable and an argument tuple");
        const std::string& name = callable.str();
        if (name == "collections.OrderedDict")
            return Value::ofKind(Kind::Opaque);
        if (name == "torch._utils._rebuild_tensor_v2" || name == "torch._utils._rebuild_tensor")
            return rebuildTensor(args);
        if (name == "torch._utils._rebuild_parameter" || name == "torch._utils._rebuild_parameter_with_state")
            return item(args, 0, Kind::Tensor, "parameter data");
        if (name == "torch._tensor._rebuild_from_type_v2") // tensor subclasses and tensors with attributes
            return call(item(args, 0, Kind::Global, "rebuild function"), item(args, 2, Kind::Tuple, "arguments"));
        fail("unsupported object '" + name + "' (only a tensor saved with torch.save is read)");
    }

    void reduce()
    {
        const Value args = pop();
        const Value callable = pop();
        push(call(callable, args));
    }

    void global(std::string module, std::string name) { push(Value::ofText(Kind::Global, module + "." + name)); }

    void stackGlobal()
    {
        const Value name = pop();
        const Value module = pop();
        if (name.kind != Kind::String || module.kind != Kind::String)
            fail("STACK_GLOBAL needs two strings");
        global(module.str(), name.str());
    }

    bool step()
    {
        m_opStart = m_pos;
        const unsigned char op = *take(1);
        switch (op) {
        case 0x80: // PROTO
            if (*take(1) > 5)
                fail("unsupported pickle protocol");
            break;
        case 0x95: // FRAME
            take(8);
            break;
        case '.': // STOP
            return false;
        case '(': // MARK
            if (m_marks.size() >= kMaxStackValues)
                fail("too many MARKs");
            m_marks.push_back(m_stack.size());
            break;
        case '0': // POP
            pop();
            break;
        case '1': // POP_MARK
            popToMark();
            break;
        case '2': { // DUP
            Value top = pop();
            push(top);
            push(std::move(top));
            break;
        }
        case 'N':
            push(Value::ofKind(Kind::None));
            break;
        case 0x88: // NEWTRUE
        case 0x89: // NEWFALSE
            push(Value::ofInt(Kind::Bool, op == 0x88));
            break;
        case 'K': // BININT1
            push(Value::ofInt(Kind::Int, static_cast<std::int64_t>(readLE(1))));
            break;
        case 'M': // BININT2
            push(Value::ofInt(Kind::Int, static_cast<std::int64_t>(readLE(2))));
            break;
        case 'J': // BININT
            push(Value::ofInt(Kind::Int, static_cast<std::int32_t>(readLE(4))));
            break;
        case 0x8a: // LONG1
            push(Value::ofInt(Kind::Int, readLong(readLE(1))));
            break;
        case 0x8b: // LONG4
            push(Value::ofInt(Kind::Int, readLong(readLE(4))));
            break;
        case 'G': // BINFLOAT: the value is never needed
            take(8);
            push(Value::ofKind(Kind::Float));
            break;
        case 'X': // BINUNICODE
        case 'T': // BINSTRING
        case 'B': // BINBYTES
            push(Value::ofText(Kind::String, readBytes(readLE(4))));
            break;
        case 0x8c: // SHORT_BINUNICODE
        case 'U': // SHORT_BINSTRING
        case 'C': // SHORT_BINBYTES
            push(Value::ofText(Kind::String, readBytes(readLE(1))));
            break;
        case 0x8d: // BINUNICODE8
        case 0x8e: // BINBYTES8
            push(Value::ofText(Kind::String, readBytes(readLE(8))));
            break;
        case ')': // EMPTY_TUPLE
            push(makeTuple({}));
            break;
        case 't': // TUPLE
            push(makeTuple(popToMark()));
            break;
        case 0x85: // TUPLE1
        case 0x86: // TUPLE2
        case 0x87: // TUPLE3
            pushTuple(op - 0x84u);
            break;
        case ']': // EMPTY_LIST
        case '}': // EMPTY_DICT
            push(Value::ofKind(Kind::Opaque));
            break;
        case 'l': // LIST
            popToMark();
            push(Value::ofKind(Kind::Opaque));
            break;
        case 'd': // DICT
            if (popToMark().size() % 2 != 0)
                fail("odd number of dict items");
            push(Value::ofKind(Kind::Opaque));
            break;
        case 'a': // APPEND
            dropIntoContainer(1);
            break;
        case 's': // SETITEM
            dropIntoContainer(2);
            break;
        case 'e': // APPENDS
            dropMarkedIntoContainer(false);
            break;
        case 'u': // SETITEMS
            dropMarkedIntoContainer(true);
            break;
        case 'q': // BINPUT
            memoPut(readLE(1));
            break;
        case 'r': // LONG_BINPUT
            memoPut(readLE(4));
            break;
        case 0x94: // MEMOIZE
            memoPut(m_memo.size());
            break;
        case 'h': // BINGET
            memoGet(readLE(1));
            break;
        case 'j': // LONG_BINGET
            memoGet(readLE(4));
            break;
        case 'c': { // GLOBAL
            std::string module = readLine();
            global(std::move(module), readLine());
            break;
        }
        case 0x93: // STACK_GLOBAL
            stackGlobal();
            break;
        case 'Q': // BINPERSID
            push(persistentLoad(pop()));
            break;
        case 'R': // REDUCE
            reduce();
            break;
        case 'b': { // BUILD: object state (e.g. of a tensor subclass) is not needed
            pop();
            Value object = pop();
            push(std::move(object));
            break;
        }
        default: {
            static constexpr char hex[] = "0123456789abcdef";
            fail(std::string("unsupported pickle opcode 0x") + hex[op >> 4] + hex[op & 15]);
        }
        }
        return true;
    }

    const unsigned char* m_data;
    std::size_t m_size;
    const std::string& m_file;
    std::size_t m_pos = 0;
    std::size_t m_opStart = 0;
    std::vector<Value> m_stack;
    std::vector<std::size_t> m_marks;
    std::unordered_map<std::uint64_t, Value> m_memo;
};
} // namespace

detail::PickledTensor detail::unpickleTensor(const unsigned char* data, std::size_t size, const std::string& file)
{
    return TensorUnpickler(data, size, file).run();
}

} // namespace msprobe::dump
