// SPDX-License-Identifier: Apache-2.0
#include "support/pickle_value.h"

#include "support/error.h"

#include <charconv>
#include <cstring>

namespace msprobe::support {

namespace {

constexpr std::size_t kMaxPickleMemoGap = std::size_t(1) << 20; // a memo index this far past the last is hostile

PickleValue kindValue(PickleValue::Kind kind)
{
    PickleValue v;
    v.kind = kind;
    return v;
}

PickleValue intValue(std::int64_t integer, PickleValue::Kind kind = PickleValue::Kind::Int)
{
    PickleValue v = kindValue(kind);
    v.integer = integer;
    return v;
}

PickleValue textValue(PickleValue::Kind kind, std::string text)
{
    PickleValue v = kindValue(kind);
    v.text = std::make_shared<const std::string>(std::move(text));
    return v;
}

PickleValue nodeValue(PickleValue::Kind kind, std::vector<PickleValue> items = {})
{
    PickleValue v = kindValue(kind);
    v.node = std::make_shared<PickleNode>();
    v.node->items = std::move(items);
    for (const PickleValue& item : v.node->items)
        if (item.node)
            v.node->depth = std::max(v.node->depth, item.node->depth + 1);
    return v;
}

class PickleMachine {
public:
    PickleMachine(const unsigned char* data, std::size_t size, const std::string& file, const PickleLimits& limits)
        : m_data(data)
        , m_size(size)
        , m_file(file)
        , m_limits(limits)
    {
    }

    PickleValue run()
    {
        while (step()) { }
        if (m_stack.size() != 1 || !m_marks.empty())
            fail(m_stack.empty() ? "empty pickle" : "STOP with more than one value on the stack");
        return std::move(m_stack.back());
    }

private:
    [[noreturn]] void fail(const std::string& message) const
    {
        throw Error(m_file, std::string(m_limits.place) + " byte " + std::to_string(m_opStart), message);
    }

    const unsigned char* take(std::size_t count)
    {
        if (count > m_size - m_pos)
            fail("truncated pickle (the file ends inside it)");
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
            fail("truncated pickle (the file ends inside it)");
        return std::string(reinterpret_cast<const char*>(take(static_cast<std::size_t>(count))), static_cast<std::size_t>(count));
    }

    std::string readLine()
    {
        const auto* begin = m_data + m_pos;
        const auto* end = static_cast<const unsigned char*>(std::memchr(begin, '\n', m_size - m_pos));
        if (!end)
            fail("truncated pickle (the file ends inside it)");
        m_pos += static_cast<std::size_t>(end - begin) + 1;
        return std::string(reinterpret_cast<const char*>(begin), static_cast<std::size_t>(end - begin));
    }

    // LONG1/LONG4: little-endian two's complement of any width. Up to 64 bits (and 2^63..2^64-1, which Python
    // writes in 9 bytes) it is a number; wider values are kept as BigInt.
    PickleValue readLong(std::uint64_t length)
    {
        if (length > m_size - m_pos)
            fail("truncated pickle (the file ends inside it)");
        const unsigned char* p = take(static_cast<std::size_t>(length));
        const bool negative = length > 0 && (p[length - 1] & 0x80);
        if (length == 9 && p[8] == 0) {
            PickleValue v = intValue(static_cast<std::int64_t>(readLEFrom(p, 8)));
            v.isUnsigned = true;
            return v;
        }
        if (length > 8)
            return kindValue(PickleValue::Kind::BigInt);
        std::uint64_t value = readLEFrom(p, static_cast<std::size_t>(length));
        if (negative && length < 8)
            value |= ~std::uint64_t(0) << (8 * length);
        return intValue(static_cast<std::int64_t>(value));
    }

    static std::uint64_t readLEFrom(const unsigned char* p, std::size_t count)
    {
        std::uint64_t value = 0;
        for (std::size_t i = count; i-- > 0;)
            value = (value << 8) | p[i];
        return value;
    }

    // The decimal line of INT / LONG / PUT / GET (protocol 0).
    std::int64_t readDecimalLine()
    {
        std::string line = readLine();
        if (!line.empty() && line.back() == 'L')
            line.pop_back();
        std::int64_t value = 0;
        const auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), value);
        if (error != std::errc() || end != line.data() + line.size())
            fail("'" + line + "' is not a 64-bit integer");
        return value;
    }

    [[noreturn]] void failNesting() const
    {
        fail("nesting too deep (more than " + std::to_string(m_limits.maxNesting) + " levels)");
    }

    void push(PickleValue value)
    {
        if (value.node && value.node->depth > m_limits.maxNesting)
            failNesting();
        if (m_stack.size() >= m_limits.maxStackValues)
            fail("too many values on the stack");
        if (++m_valuesPushed > m_limits.maxValues)
            fail("too many values (more than " + std::to_string(m_limits.maxValues) + ")");
        m_stack.push_back(std::move(value));
    }

    PickleValue pop()
    {
        if (m_stack.size() <= (m_marks.empty() ? 0 : m_marks.back()))
            fail("stack underflow");
        PickleValue value = std::move(m_stack.back());
        m_stack.pop_back();
        return value;
    }

    PickleValue& top()
    {
        if (m_stack.size() <= (m_marks.empty() ? 0 : m_marks.back()))
            fail("stack underflow");
        return m_stack.back();
    }

    std::vector<PickleValue> popToMark()
    {
        if (m_marks.empty())
            fail("no MARK on the stack");
        const std::size_t mark = m_marks.back();
        m_marks.pop_back();
        std::vector<PickleValue> items(std::make_move_iterator(m_stack.begin() + static_cast<std::ptrdiff_t>(mark)),
            std::make_move_iterator(m_stack.end()));
        m_stack.resize(mark);
        return items;
    }

    void pushTuple(std::size_t count)
    {
        std::vector<PickleValue> items(count);
        for (std::size_t i = count; i-- > 0;)
            items[i] = pop();
        push(nodeValue(PickleValue::Kind::Tuple, std::move(items)));
    }

    // APPEND(S), SETITEM(S), ADDITEMS: the container is the value below the new items.
    void addToContainer(std::vector<PickleValue> items, PickleValue::Kind expected)
    {
        PickleValue& container = top();
        const bool fits = container.kind == expected || (expected == PickleValue::Kind::List && container.kind == PickleValue::Kind::Object);
        if (!fits || !container.node)
            fail("items added to " + std::string(pickleKindName(container.kind)) + ", not " + std::string(pickleKindName(expected)));
        if (expected == PickleValue::Kind::Dict && items.size() % 2 != 0)
            fail("odd number of dict items");
        PickleNode& node = *container.node;
        for (PickleValue& item : items) {
            if (item.node.get() == &node)
                fail("a container that holds itself");
            if (item.node)
                node.depth = std::max(node.depth, item.node->depth + 1);
            node.items.push_back(std::move(item));
        }
        if (node.depth > m_limits.maxNesting)
            failNesting();
    }

    void memoPut(std::uint64_t index)
    {
        if (m_stack.empty())
            fail("memo store from an empty stack");
        if (index >= m_memo.size()) {
            // Each entry costs an opcode, so a memo larger than the input plus one gap is hostile.
            if (index - m_memo.size() > kMaxPickleMemoGap || index >= m_size + kMaxPickleMemoGap)
                fail("memo index " + std::to_string(index) + " far past the last");
            if (index >= m_limits.maxMemoEntries)
                fail("too many memo entries");
            m_memo.resize(static_cast<std::size_t>(index) + 1);
            m_memoSet.resize(m_memo.size(), false);
        }
        m_memo[index] = m_stack.back();
        m_memoSet[index] = true;
    }

    void memoGet(std::uint64_t index)
    {
        if (index >= m_memo.size() || !m_memoSet[index])
            fail("memo entry " + std::to_string(index) + " is not defined");
        push(m_memo[index]);
    }

    // REDUCE / NEWOBJ: an OrderedDict, set or frozenset becomes a plain container; anything else an Object.
    PickleValue construct(const PickleValue& callable, const PickleValue& args)
    {
        if (callable.kind != PickleValue::Kind::Global || args.kind != PickleValue::Kind::Tuple)
            fail("REDUCE without a class and an argument tuple");
        const std::string& name = callable.str();
        if (name == "collections.OrderedDict" && args.items().empty())
            return nodeValue(PickleValue::Kind::Dict);
        if ((name == "builtins.set" || name == "builtins.frozenset") && args.items().size() == 1)
            return nodeValue(PickleValue::Kind::Set, args.items()[0].items());
        PickleValue object = nodeValue(PickleValue::Kind::Object, args.items());
        object.node->className = name;
        return object;
    }

    bool step()
    {
        using Kind = PickleValue::Kind;
        m_opStart = m_pos;
        const unsigned char op = *take(1);
        switch (op) {
        case 0x80: // PROTO
            if (*take(1) > 5)
                fail("pickle protocol above 5");
            break;
        case 0x95: // FRAME
            take(8);
            break;
        case '.': // STOP
            return false;
        case '(': // MARK
            if (m_marks.size() >= m_limits.maxStackValues)
                fail("too many MARKs");
            m_marks.push_back(m_stack.size());
            break;
        case '0': // POP
            pop();
            break;
        case '1': // POP_MARK
            popToMark();
            break;
        case '2': // DUP
            push(top());
            break;
        case 'N':
            push(kindValue(Kind::None));
            break;
        case 0x88: // NEWTRUE
        case 0x89: // NEWFALSE
            push(intValue(op == 0x88, Kind::Bool));
            break;
        case 'K': // BININT1
            push(intValue(static_cast<std::int64_t>(readLE(1))));
            break;
        case 'M': // BININT2
            push(intValue(static_cast<std::int64_t>(readLE(2))));
            break;
        case 'J': // BININT
            push(intValue(static_cast<std::int32_t>(readLE(4))));
            break;
        case 'I': // INT (protocol 0; "00"/"01" are False/True)
        case 'L': // LONG
            push(intValue(readDecimalLine()));
            break;
        case 0x8a: // LONG1
            push(readLong(readLE(1)));
            break;
        case 0x8b: // LONG4
            push(readLong(readLE(4)));
            break;
        case 'G': { // BINFLOAT, big-endian
            const std::uint64_t bits = __builtin_bswap64(readLE(8));
            PickleValue v = kindValue(Kind::Float);
            std::memcpy(&v.real, &bits, sizeof bits);
            push(std::move(v));
            break;
        }
        case 'X': // BINUNICODE
        case 'T': // BINSTRING
            push(textValue(Kind::String, readBytes(readLE(4))));
            break;
        case 0x8c: // SHORT_BINUNICODE
        case 'U': // SHORT_BINSTRING
            push(textValue(Kind::String, readBytes(readLE(1))));
            break;
        case 0x8d: // BINUNICODE8
            push(textValue(Kind::String, readBytes(readLE(8))));
            break;
        case 'B': // BINBYTES
            push(textValue(Kind::Bytes, readBytes(readLE(4))));
            break;
        case 'C': // SHORT_BINBYTES
            push(textValue(Kind::Bytes, readBytes(readLE(1))));
            break;
        case 0x8e: // BINBYTES8
        case 0x96: // BYTEARRAY8
            push(textValue(Kind::Bytes, readBytes(readLE(8))));
            break;
        case ')': // EMPTY_TUPLE
            push(nodeValue(Kind::Tuple));
            break;
        case 't': // TUPLE
            push(nodeValue(Kind::Tuple, popToMark()));
            break;
        case 0x85: // TUPLE1
        case 0x86: // TUPLE2
        case 0x87: // TUPLE3
            pushTuple(op - 0x84u);
            break;
        case ']': // EMPTY_LIST
            push(nodeValue(Kind::List));
            break;
        case '}': // EMPTY_DICT
            push(nodeValue(Kind::Dict));
            break;
        case 0x8f: // EMPTY_SET
            push(nodeValue(Kind::Set));
            break;
        case 'l': // LIST
            push(nodeValue(Kind::List, popToMark()));
            break;
        case 'd': { // DICT
            std::vector<PickleValue> items = popToMark();
            if (items.size() % 2 != 0)
                fail("odd number of dict items");
            push(nodeValue(Kind::Dict, std::move(items)));
            break;
        }
        case 0x91: // FROZENSET
            push(nodeValue(Kind::Set, popToMark()));
            break;
        case 'a': { // APPEND
            PickleValue item = pop();
            std::vector<PickleValue> items;
            items.push_back(std::move(item));
            addToContainer(std::move(items), Kind::List);
            break;
        }
        case 'e': // APPENDS
            addToContainer(popToMark(), Kind::List);
            break;
        case 's': { // SETITEM
            PickleValue value = pop();
            PickleValue key = pop();
            std::vector<PickleValue> items;
            items.push_back(std::move(key));
            items.push_back(std::move(value));
            addToContainer(std::move(items), Kind::Dict);
            break;
        }
        case 'u': // SETITEMS
            addToContainer(popToMark(), Kind::Dict);
            break;
        case 0x90: // ADDITEMS
            addToContainer(popToMark(), Kind::Set);
            break;
        case 'q': // BINPUT
            memoPut(readLE(1));
            break;
        case 'r': // LONG_BINPUT
            memoPut(readLE(4));
            break;
        case 'p': // PUT
            memoPut(static_cast<std::uint64_t>(readDecimalLine()));
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
        case 'g': // GET
            memoGet(static_cast<std::uint64_t>(readDecimalLine()));
            break;
        case 'c': { // GLOBAL
            std::string module = readLine();
            push(textValue(Kind::Global, module + "." + readLine()));
            break;
        }
        case 0x93: { // STACK_GLOBAL
            const PickleValue name = pop();
            const PickleValue module = pop();
            if (name.kind != Kind::String || module.kind != Kind::String)
                fail("STACK_GLOBAL needs two strings");
            push(textValue(Kind::Global, module.str() + "." + name.str()));
            break;
        }
        case 'P': // PERSID
            push(nodeValue(Kind::PersistentId, { textValue(Kind::String, readLine()) }));
            break;
        case 'Q': // BINPERSID
            push(nodeValue(Kind::PersistentId, { pop() }));
            break;
        case 'R': // REDUCE
        case 0x81: { // NEWOBJ
            const PickleValue args = pop();
            const PickleValue callable = pop();
            push(construct(callable, args));
            break;
        }
        case 0x92: { // NEWOBJ_EX: kwargs are dropped
            pop();
            const PickleValue args = pop();
            const PickleValue callable = pop();
            push(construct(callable, args));
            break;
        }
        case 'b': { // BUILD: a dict state fills an object's (or dict's) items; other state is dropped
            PickleValue state = pop();
            PickleValue& object = top();
            if (state.kind == Kind::Dict && object.node && (object.kind == Kind::Object || object.kind == Kind::Dict))
                addToContainer(state.node->items, object.kind == Kind::Dict ? Kind::Dict : Kind::List);
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
    const PickleLimits& m_limits;
    std::size_t m_pos = 0;
    std::size_t m_opStart = 0;
    std::vector<PickleValue> m_stack;
    std::vector<std::size_t> m_marks;
    std::size_t m_valuesPushed = 0;
    std::vector<PickleValue> m_memo;
    std::vector<bool> m_memoSet;
};

} // namespace

const std::string& PickleValue::str() const
{
    static const std::string empty;
    return text ? *text : empty;
}

const std::vector<PickleValue>& PickleValue::items() const
{
    static const std::vector<PickleValue> none;
    return node ? node->items : none;
}

const PickleValue* PickleValue::find(std::string_view key) const
{
    if (kind != Kind::Dict || !node)
        return nullptr;
    const auto& items = node->items;
    for (std::size_t i = 0; i + 1 < items.size(); i += 2)
        if (items[i].kind == Kind::String && items[i].str() == key)
            return &items[i + 1];
    return nullptr;
}

std::string_view pickleKindName(PickleValue::Kind kind)
{
    using Kind = PickleValue::Kind;
    switch (kind) {
    case Kind::None:
        return "None";
    case Kind::Bool:
        return "a bool";
    case Kind::Int:
        return "an int";
    case Kind::BigInt:
        return "an integer wider than 64 bits";
    case Kind::Float:
        return "a float";
    case Kind::String:
        return "a string";
    case Kind::Bytes:
        return "bytes";
    case Kind::Tuple:
        return "a tuple";
    case Kind::List:
        return "a list";
    case Kind::Dict:
        return "a dict";
    case Kind::Set:
        return "a set";
    case Kind::Global:
        return "a class or function";
    case Kind::Object:
        return "an object";
    case Kind::PersistentId:
        return "a persistent id";
    }
    return "a value";
}

bool looksLikePickle(const unsigned char* data, std::size_t size)
{
    return size >= 2 && data[0] == 0x80 && data[1] >= 2 && data[1] <= 5;
}

PickleValue readPickle(const unsigned char* data, std::size_t size, const std::string& file, const PickleLimits& limits)
{
    return PickleMachine(data, size, file, limits).run();
}

} // namespace msprobe::support
