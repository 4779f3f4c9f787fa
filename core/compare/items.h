// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/py_value.h"
#include "support/python_text.h"
#include "dump/dump_model.h"
#include "support/string_pool.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::compare {

// A shape as Python prints a list of ints: "[4, 128, 256]".
void appendShapeText(std::string& out, std::span<const std::int64_t> dims);

// Python's str(type(value)) of a scalar as the dump stored it: "<class 'int'>", "<class 'dict'>", ...
std::string_view pythonTypeName(dump::ScalarValueKind kind, std::string_view text);

// What part of its entry an item comes from (the reference's "state").
enum class ItemState : std::uint8_t { Input, Output, Parameters, ParametersGrad, Debug };
std::string_view toString(ItemState state);

// The direction the reference derives from an entry name (split_data_name_components).
enum class CallKind : std::uint8_t { Forward, Backward, ParametersGrad, Debug };

inline constexpr std::uint32_t kNullNode = 0xFFFFFFFFu;

// One flattened leaf (tensor or scalar) of an entry: one row of the reference's table.
struct Item {
    std::uint32_t entry = 0; // index into ItemTable::entries
    std::uint32_t node = kNullNode; // the leaf's node in the dump; kNullNode for a JSON null
    support::StringId suffix = support::kNoString; // ItemTable::pool: the item name with the entry name removed (".input.0")
    support::StringId explicitName = support::kNoString; // ItemTable::pool: set only when the name is not entry name + suffix
    ItemState state = ItemState::Input;
    bool firstOfEntry = false; // the row that carries the entry's stack
};

// One dump.json entry that the reference parses (names it cannot split are skipped, as there).
struct EntryInfo {
    std::uint32_t dumpEntry = 0; // index into DumpFile::entries
    std::uint32_t firstItem = 0;
    std::uint32_t itemCount = 0;
    CallKind kind = CallKind::Forward;
    std::string_view opNoNumber; // view into the dump's name pool ("Functional.relu")
    std::string_view callDirection; // "3.backward", "backward.2", "parameters_grad"
    std::uint32_t forwardOrder = 0, backwardOrder = 0; // earlier same-op entries of the direction
};

// The fields of an item as the reference's table shows them (before column-level dtype coercion).
struct ItemFields {
    std::string_view dtype; // "torch.float32", "<class 'int'>", "None"
    std::string shape; // "[2, 8]", "[]", "(3,)", "None"
    PyVal stats[4]; // Max, Min, Mean, Norm
    std::string_view requiresGrad; // "True", "False", "N/A"
    std::string md5; // "1a2b3c4d", "N/A"
    std::string_view dataName; // file name, or "-1"
    PyVal p2pOp = PyVal::str(kNoneText), p2pPeer = PyVal::str(kNoneText);
};

struct FlattenOptions {
    bool debugFile = false; // debug.json: entry names are not split
    // --consistent_check: the training (NPU) side skips entries between the model's backward and the next
    // embedding forward. Empty backend: parse everything.
    std::string consistentBackend;
};

// Every item of one dump in the reference's row order (entries in file order; inside an entry: inputs,
// parameters, outputs, parameter gradients).
class ItemTable {
public:
    ItemTable(const dump::DumpFile& dump, const FlattenOptions& options);

    const dump::DumpFile& dump() const { return *m_dump; }
    const std::vector<Item>& items() const { return m_items; }
    const std::vector<EntryInfo>& entries() const { return m_entries; }
    std::string_view entryName(const Item& item) const { return m_dump->entryName(m_entries[item.entry].dumpEntry); }
    std::string_view suffix(const Item& item) const { return m_pool.view(item.suffix); }
    std::string_view text(support::StringId id) const { return m_pool.view(id); }

    // The item's name ("Functional.relu.0.forward.input.0"; in tensor dumps the data_name without extension).
    std::string name(const Item& item) const;
    void appendName(std::string& out, const Item& item) const;
    ItemFields fields(const Item& item) const;
    // The statistics only (cheaper than fields()).
    void stats(const Item& item, PyVal out[4]) const;
    PyVal stat(const Item& item, int k) const;
    std::string shape(const Item& item) const;
    void appendShape(std::string& out, const Item& item) const; // shape(item) appended without a temporary
    std::string_view requiresGrad(const Item& item) const;
    std::string_view dtype(const Item& item) const;
    std::string_view dataName(const Item& item) const;
    // Python's name.replace(from, to) on the names of one entry's items: a parallel merge renames a node whose
    // tensor items are named after their data_name (the reference's _update_node_data_key).
    void renameItems(std::uint32_t entry, std::string_view from, std::string_view to);

private:
    void flattenEntry(std::uint32_t dumpEntry);
    void parseValue(std::uint32_t node, std::string& name, ItemState state, bool paramsGrad, int depth);
    void checkStrings(std::uint32_t node, std::string_view entry) const;

    const dump::DumpFile* m_dump;
    FlattenOptions m_options;
    support::StringPool m_pool;
    std::vector<Item> m_items;
    std::vector<EntryInfo> m_entries;
    std::vector<Item> m_scratch;
    std::uint32_t m_currentEntry = 0;
};

} // namespace msprobe::compare
