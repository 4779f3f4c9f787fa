// SPDX-License-Identifier: Apache-2.0
// Pairs a C++ libtorch capture (Aten.linear.0.forward, ...) with a Python msprobe dump (Functional.linear.0.forward,
// Tensor.__add__.0.forward, ...): both sides' entries get keys in aten terms, counted per aten operator inside the
// module call both sides share (construct.json), and their argument items are named by the aten schema.
#pragma once

#include "compare/items.h"
#include "dump/construct_stack.h"

#include <cstdint>
#include <string>
#include <vector>

namespace msprobe::compare {

// What a dump's API entries say about the runtime that wrote it.
enum class DumpRuntime : std::uint8_t { Unknown, Aten, Python };

// Aten: API entries are Aten.* only (our libtorch capture); Python: Functional/Tensor/Torch/... entries dominate.
DumpRuntime detectRuntime(const dump::DumpFile& dump);

// One side Aten, the other Python.
bool isCrossRuntimePair(const dump::DumpFile& npu, const dump::DumpFile& bench);

// Both sides written by the same runtime (both Aten.* captures or both Python dumps): nothing to pair across
// runtimes, even when --cross-runtime asks for it. Then what the summaries say instead, e.g. "--cross-runtime:
// both dumps are Python msprobe dumps (...): nothing to pair across runtimes, the ordinary compare by name was
// used"; empty otherwise.
std::string sameRuntimeNote(const dump::DumpFile& npu, const dump::DumpFile& bench);

// Per item of each side: the pairing key, and whether the item is left out (an argument only one runtime passes,
// at its default, such as aten layer_norm's cudnn_enable or F.softmax's _stacklevel; a tensor never is).
struct CrossRuntimeKeys {
    std::vector<std::string> npu, bench;
    std::vector<std::uint8_t> npuIgnored, benchIgnored;
    std::vector<std::string> npuEntryKeys, benchEntryKeys; // per ItemTable entry; empty: the entry cannot pair
    std::vector<std::uint8_t> npuLinearParts, benchLinearParts; // per entry: a part of a decomposed linear
    bool scoped = false; // counters re-based inside module calls (both construct.json name API parents)
};

// Keys for the items of both sides (constructs may be empty: then counters run over the whole dump).
CrossRuntimeKeys crossRuntimeKeys(const ItemTable& npu, const dump::ConstructInfo& npuConstruct, const ItemTable& bench,
    const dump::ConstructInfo& benchConstruct);

// One node of a pair matched by hand: its name ("Aten.softmax.0.forward"), its items' full names
// ("Aten.softmax.0.forward.input.1") and, per item, whether it is a tensor.
struct NodePairSide {
    std::string_view node;
    std::vector<std::string_view> items;
    std::vector<std::uint8_t> tensor;
};

// Per item of both nodes: the key inside the pair ("input.self", "output.0"; equal keys pair) and whether it is
// left out. active is false (nothing else set) unless one node is an Aten.* operator and the other a Python API.
struct NodePairKeys {
    bool active = false;
    std::vector<std::string> npu, bench;
    std::vector<std::uint8_t> npuIgnored, benchIgnored;
};

// A node pair made by hand (the studio's drag and drop, graph_visualize --mapping-file) named as the automatic
// cross-runtime pairing names it: arguments by the aten schema, F.linear's against a part of libtorch's
// decomposition (t / addmm / matmul / add_, forward and backward), non-tensor arguments only one node has left out.
NodePairKeys crossRuntimeNodePairKeys(const NodePairSide& npu, const NodePairSide& bench);

// "Module.blocks.0.attn.forward.0" for "Module.blocks.0.attn.Attention.forward.0": the class segment dropped (the
// C++ side may name a class differently, e.g. a TorchScript module's qualified name).
std::string moduleNameWithoutClass(std::string_view name);

// How the rows of a cross-runtime compare paired: summaries (terminal, --json, HTML, studio) show it.
struct CrossRuntimeReport {
    bool active = false;
    bool npuIsAten = false;
    bool scoped = false;
    std::size_t pairedRows = 0; // NPU rows with a bench partner
    std::size_t ignoredRows = 0; // one-runtime-only arguments, left out of the table
    std::size_t unpairedRows = 0; // NPU rows with no partner (they are warnings, never passes)
    std::vector<std::string> unpairedNpuEntries; // NPU entries with an unpaired row, in dump order
    std::vector<std::string> unpairedBenchEntries; // bench entries none of whose items was paired
    // Not active although --cross-runtime asked for it (sameRuntimeNote): why, for the summaries.
    std::string note;
};

} // namespace msprobe::compare
