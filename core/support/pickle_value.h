// SPDX-License-Identifier: Apache-2.0
// A Python pickle (protocols 2–5, and the text opcodes of 0/1 that Python still writes for ints) read into a tree
// of plain values: None, bool, int, float, str, bytes, tuple, list, dict, set, class references and persistent ids.
// Objects built with REDUCE/NEWOBJ are kept as an Object holding the class name and its arguments
// (collections.OrderedDict becomes a Dict). No code is ever run. Used for PyTorch memory snapshots
// (core/memory/torch_snapshot) and for the data.pkl of torch.save archives (core/dump/tensor_file_pt.cpp, which
// turns the tree into a tensor and passes tighter limits).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::support {

struct PickleNode;

struct PickleValue {
    enum class Kind : std::uint8_t { None, Bool, Int, BigInt, Float, String, Bytes, Tuple, List, Dict, Set, Global, Object, PersistentId };
    Kind kind = Kind::None;
    std::int64_t integer = 0; // Bool, Int (an unsigned value of 2^63..2^64-1 is kept as its bit pattern, see isUnsigned)
    bool isUnsigned = false;
    double real = 0; // Float
    std::shared_ptr<const std::string> text; // String, Bytes, Global ("module.name")
    // Tuple, List, Set, Object: items; Dict: keys and values alternating; PersistentId: the id (one item)
    std::shared_ptr<PickleNode> node;

    bool isInt() const { return kind == Kind::Int || kind == Kind::Bool; }
    bool isText() const { return kind == Kind::String || kind == Kind::Bytes; }
    const std::string& str() const;
    const std::vector<PickleValue>& items() const; // empty for a value without items
    // Dict lookup by string key (linear: the dicts of a snapshot have a handful of keys); nullptr when absent or
    // not a dict.
    const PickleValue* find(std::string_view key) const;
};

struct PickleNode {
    std::vector<PickleValue> items;
    std::string className; // Object: the class or function that built it
    int depth = 1;
};

// "None", "an int", "a dict", ... for messages.
std::string_view pickleKindName(PickleValue::Kind kind);

// True when `data` starts as a binary pickle does (PROTO 2..5).
bool looksLikePickle(const unsigned char* data, std::size_t size);

// Bounds on what a hostile pickle can claim. The defaults suit large snapshots: memory stays linear in the input.
struct PickleLimits {
    int maxNesting = 200; // also keeps the recursive destruction of the tree shallow
    std::size_t maxStackValues = std::size_t(1) << 22; // values on the stack, and MARKs
    std::size_t maxMemoEntries = std::size_t(-1); // beyond that, the memo never outgrows the input's size
    std::size_t maxValues = std::size_t(-1); // values pushed over the whole pickle: bounds the tree a list of APPENDs builds
    std::string_view place = "pickle"; // names the pickle in messages: "<place> byte N"
};

// Reads the pickle in `data`. Throws msprobe::Error naming `file` and the byte of the opcode that failed for
// anything malformed: truncated data, an unknown opcode, stack underflow, nesting too deep, too many values,
// integers wider than 64 bits used as numbers (they are kept as BigInt, which callers refuse).
PickleValue readPickle(const unsigned char* data, std::size_t size, const std::string& file, const PickleLimits& limits = {});

} // namespace msprobe::support
