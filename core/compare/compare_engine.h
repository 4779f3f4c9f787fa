// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_table.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>

namespace msprobe::compare {

class TensorMetricCache;

// The comparison mode of a pair of dumps (spec 2.3); throws msprobe::Error naming both files when the
// tasks differ, the task cannot be compared, or one side has md5 checksums and the other not.
CompareMode detectCompareMode(const dump::DumpFile& npu, const dump::DumpFile& bench);

// Whether the dump has md5 checksums the way the reference's md5_find looks for them.
bool hasMd5Checksums(const dump::DumpFile& dump);

struct CompareHooks {
    const std::atomic<bool>* cancel = nullptr; // checked between steps and in the tensor loop
    std::function<void(std::size_t done, std::size_t total)> rowProgress; // tensor mode rows
    std::size_t threads = 0; // 0: defaultThreadCount()
    // Where compareDumpFiles gets each dump.json (the studio lends the parse its graphs used); empty: read it.
    std::function<std::shared_ptr<const dump::DumpFile>(const std::filesystem::path& dumpJson)> readDump;
    // Tensor mode: where each row's metrics come from (the studio lends those its graph compare computed);
    // null: each row reads its two tensor files.
    TensorMetricCache* tensorMetrics = nullptr;
};

// Compares the two dump.json (or debug.json) files: reads them, flattens, matches, computes the metrics and
// the Result rules. The table keeps both dumps; one file given as both sides (a self-compare) is read once and
// both sides share the parse. Throws msprobe::Error for unreadable or incompatible input.
std::unique_ptr<CompareTable> compareDumpFiles(const std::filesystem::path& npuJson, const std::filesystem::path& benchJson,
    const CompareOptions& options, const CompareHooks& hooks = {});

// The construct.json of both sides (cross-runtime pairing counts calls inside module calls); empty when absent.
struct CompareConstructs {
    dump::ConstructInfo npu, bench;
};

// Whether the options and the dumps make this a cross-runtime compare (Aten.* vs Python API entries).
bool usesCrossRuntimePairing(const dump::DumpFile& npu, const dump::DumpFile& bench, const CompareOptions& options);

// The same on dumps already read (npu and bench may be one parse); stack is the NPU side's stack.json or empty.
std::unique_ptr<CompareTable> compareDumps(std::shared_ptr<const dump::DumpFile> npu, std::shared_ptr<const dump::DumpFile> bench,
    dump::StackInfo stack, bool stackMode, const CompareOptions& options, const CompareHooks& hooks = {},
    const CompareConstructs& constructs = {});

// The same on two dumps the table takes over (used by tests and the benchmark).
std::unique_ptr<CompareTable> compareDumps(dump::DumpFile npu, dump::DumpFile bench, dump::StackInfo stack, bool stackMode,
    const CompareOptions& options, const CompareHooks& hooks = {}, const CompareConstructs& constructs = {});

} // namespace msprobe::compare
