// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_options.h"
#include "compare/consistent_match.h"
#include "compare/cross_runtime_pairing.h"
#include "compare/items.h"
#include "compare/matching.h"
#include "compare/result_rules.h"
#include "compare/tensor_metrics.h"
#include "dump/construct_stack.h"
#include "dump/dump_model.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace msprobe::compare {

enum class Column : std::uint8_t {
    NpuName, BenchName, NpuDtype, BenchDtype, NpuShape, BenchShape, NpuRequiresGrad, BenchRequiresGrad,
    Cosine, EucDist, MaxAbsErr, TensorMaxRelativeErr, OneThousandthErrRatio, FiveThousandthsErrRatio,
    MaxDiff, MinDiff, MeanDiff, NormDiff, MaxRelativeErr, MinRelativeErr, MeanRelativeErr, NormRelativeErr,
    NpuMax, NpuMin, NpuMean, NpuNorm, BenchMax, BenchMin, BenchMean, BenchNorm,
    NpuMd5, BenchMd5,
    RequiresGradConsistent, Result, ErrMessage, Accuracy, Stack, DataName,
    State, ApiOriginName, NpuP2POp, BenchP2POp, NpuP2PPeer, BenchP2PPeer,
};
std::string_view columnTitle(Column column);

// One rendered cell. Str also carries Python-list text (stack, Data_name); Missing is pandas' NaN (empty in CSV).
struct Cell {
    enum class Kind : std::uint8_t { Str, Int, Float, Bool, Missing, List } kind = Kind::Str;
    std::string text; // Str; List: the Python repr text
    std::int64_t i = 0;
    double f = 0;
    bool b = false;
    const std::vector<std::string>* list = nullptr; // List: the elements (stack frames, data names)
    std::vector<std::string> ownedList; // List when the elements are built for the row
};

// A cell holding the value as pandas would; a cell holding the Python list repr of the strings (kept by pointer).
void setPyCell(Cell& out, const PyVal& value);
void setListCell(Cell& out, const std::vector<std::string>& items);

// The tensor-mode row a data_name pair gets before any file is read ("-1": no data file; one side N/A), if any.
std::optional<TensorMetrics> dataNameProblem(std::string_view npuName, std::string_view benchName);

// One side of a compare: the dump and its flattened items. A parsed dump cannot be copied (its entry names view
// into its own string pool), so the sides hold it shared: a self-compare's two sides hold the same parse.
struct CompareSide {
    std::shared_ptr<const dump::DumpFile> dump;
    std::unique_ptr<ItemTable> items;
    std::filesystem::path dataDir; // dump_tensor_data next to the dump.json
};

struct CompareRow {
    std::uint32_t npu = 0;
    std::int32_t bench = kUnmatched;
    ResultLevel level = ResultLevel::Pass;
    std::uint16_t messages = 0;
    std::uint32_t metrics = 0; // index into CompareTable::tensorMetrics (tensor mode)
};

// The result of comparing two dumps: the reference's table, rendered cell by cell on demand.
class CompareTable {
public:
    CompareMode mode = CompareMode::Statistics;
    CompareOptions options;
    bool stackMode = false;
    CompareSide npu, bench;
    dump::StackInfo stack;
    std::vector<CompareRow> rows;
    std::vector<TensorMetrics> tensorMetrics;
    std::vector<std::string> legacyAccuracy; // legacy tensor mode: "Yes"/"No"/...
    std::vector<std::string> legacyMessages; // legacy modes: accumulated Err_message
    // --consistent_check: rows[i] shows consistentRows[i] (aggregated items; either side may be absent).
    std::vector<ConsistentRow> consistentRows;
    bool consistent() const { return !options.consistentBackend.empty(); }
    CrossRuntimeReport crossRuntime; // how a C++ (Aten) and a Python dump were paired, when they were
    // Cross-runtime: per bench item, 1 for an argument only that runtime passes (never an "absent" divergence).
    std::vector<std::uint8_t> benchItemIgnored;

    // Column facts that pandas derives from the whole table.
    bool npuStatsAsFloat = false, benchStatsAsFloat = false; // all four columns numeric with a float -> float64
    bool npuIntColumn[4] = {}, benchIntColumn[4] = {}; // to_numeric reads the column as int64

    std::vector<Column> columns() const;
    std::vector<std::string> header() const;
    void cell(std::size_t row, Column column, Cell& out) const;
    // Tensor metric and statistic difference cells (false for other columns).
    bool derivedCell(std::size_t row, Column column, Cell& out) const;

    const Item& npuItem(const CompareRow& row) const { return npu.items->items()[row.npu]; }
    const Item* benchItem(const CompareRow& row) const
    {
        return row.bench == kUnmatched ? nullptr : &bench.items->items()[static_cast<std::size_t>(row.bench)];
    }
    // Statistic k (0 max .. 3 norm) of a side as the table holds it (N/A when unmatched).
    PyVal statistic(const CompareRow& row, bool npuSide, int k) const;
    // All four statistics of a side at once (one look-up of the item).
    void statistics(const CompareRow& row, bool npuSide, PyVal out[4]) const;
    // Statistic k's "{S} diff" and "{S}RelativeErr" cells (statistics mode, or legacy rules) as text.
    void statisticDiffCells(const CompareRow& row, int k, std::string& diff, std::string& rel) const;
    // The same from statistics already fetched.
    void statisticDiffCells(int k, const PyVal& npuValue, const PyVal& benchValue, std::string& diff, std::string& rel) const;
    // The NPU_Stack_Info frames of the row: only the first row of an entry that stack.json lists has them.
    const std::vector<std::string>* stackFrames(const CompareRow& row) const;
    // The same with StackInfo::nameHash of the row's entry name already computed.
    const std::vector<std::string>* stackFrames(const CompareRow& row, std::uint64_t entryNameHash) const;
    std::string_view apiOriginName(const CompareRow& row) const { return npu.items->entryName(npuItem(row)); }
    std::size_t countLevel(ResultLevel level) const;
};

} // namespace msprobe::compare
