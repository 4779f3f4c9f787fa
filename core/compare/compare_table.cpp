// SPDX-License-Identifier: Apache-2.0
#include "compare/compare_table.h"

#include "compare/consistent_table.h"
#include "compare/stats_diff.h"
#include "compare/tensor_metrics_files.h"
#include "support/python_text.h"

namespace msprobe::compare {

std::string_view columnTitle(Column column)
{
    switch (column) {
    case Column::NpuName: return "NPU Name";
    case Column::BenchName: return "Bench Name";
    case Column::NpuDtype: return "NPU Dtype";
    case Column::BenchDtype: return "Bench Dtype";
    case Column::NpuShape: return "NPU Tensor Shape";
    case Column::BenchShape: return "Bench Tensor Shape";
    case Column::NpuRequiresGrad: return "NPU Requires_grad";
    case Column::BenchRequiresGrad: return "Bench Requires_grad";
    case Column::Cosine: return "Cosine";
    case Column::EucDist: return "EucDist";
    case Column::MaxAbsErr: return "MaxAbsErr";
    case Column::TensorMaxRelativeErr: return "MaxRelativeErr";
    case Column::OneThousandthErrRatio: return "One Thousandth Err Ratio";
    case Column::FiveThousandthsErrRatio: return "Five Thousandths Err Ratio";
    case Column::MaxDiff: return "Max diff";
    case Column::MinDiff: return "Min diff";
    case Column::MeanDiff: return "Mean diff";
    case Column::NormDiff: return "L2norm diff";
    case Column::MaxRelativeErr: return "MaxRelativeErr";
    case Column::MinRelativeErr: return "MinRelativeErr";
    case Column::MeanRelativeErr: return "MeanRelativeErr";
    case Column::NormRelativeErr: return "NormRelativeErr";
    case Column::NpuMax: return "NPU max";
    case Column::NpuMin: return "NPU min";
    case Column::NpuMean: return "NPU mean";
    case Column::NpuNorm: return "NPU l2norm";
    case Column::BenchMax: return "Bench max";
    case Column::BenchMin: return "Bench min";
    case Column::BenchMean: return "Bench mean";
    case Column::BenchNorm: return "Bench l2norm";
    case Column::NpuMd5: return "NPU MD5";
    case Column::BenchMd5: return "BENCH MD5";
    case Column::RequiresGradConsistent: return "Requires_grad Consistent";
    case Column::Result: return "Result";
    case Column::ErrMessage: return "Err_message";
    case Column::Accuracy: return "Accuracy Reached or Not";
    case Column::Stack: return "NPU_Stack_Info";
    case Column::DataName: return "Data_name";
    case Column::State: return "state";
    case Column::ApiOriginName: return "api_origin_name";
    case Column::NpuP2POp: return "NPU P2POp op";
    case Column::BenchP2POp: return "Bench P2POp op";
    case Column::NpuP2PPeer: return "NPU P2POp peer";
    case Column::BenchP2PPeer: return "Bench P2POp peer";
    }
    return {};
}

std::vector<Column> CompareTable::columns() const
{
    std::vector<Column> cols = { Column::NpuName, Column::BenchName, Column::NpuDtype, Column::BenchDtype,
        Column::NpuShape, Column::BenchShape, Column::NpuRequiresGrad, Column::BenchRequiresGrad };
    const std::vector<Column> stats = { Column::NpuMax, Column::NpuMin, Column::NpuMean, Column::NpuNorm,
        Column::BenchMax, Column::BenchMin, Column::BenchMean, Column::BenchNorm };
    switch (mode) {
    case CompareMode::Tensor:
        cols.insert(cols.end(), { Column::Cosine, Column::EucDist, Column::MaxAbsErr, Column::TensorMaxRelativeErr,
                                    Column::OneThousandthErrRatio, Column::FiveThousandthsErrRatio });
        cols.insert(cols.end(), stats.begin(), stats.end());
        cols.insert(cols.end(), { Column::RequiresGradConsistent, options.legacyResult ? Column::Accuracy : Column::Result, Column::ErrMessage });
        break;
    case CompareMode::Statistics:
        cols.insert(cols.end(), { Column::MaxDiff, Column::MinDiff, Column::MeanDiff, Column::NormDiff,
                                    Column::MaxRelativeErr, Column::MinRelativeErr, Column::MeanRelativeErr, Column::NormRelativeErr });
        cols.insert(cols.end(), stats.begin(), stats.end());
        cols.insert(cols.end(), { Column::RequiresGradConsistent, Column::Result, Column::ErrMessage });
        break;
    case CompareMode::Md5:
        cols.insert(cols.end(), { Column::NpuMd5, Column::BenchMd5, Column::RequiresGradConsistent, Column::Result });
        if (!options.legacyResult)
            cols.push_back(Column::ErrMessage);
        break;
    }
    if (stackMode)
        cols.push_back(Column::Stack);
    if (mode == CompareMode::Tensor)
        cols.push_back(Column::DataName);
    if (options.firstDiffAnalyze)
        cols.insert(cols.end(), { Column::State, Column::ApiOriginName, Column::NpuP2POp, Column::BenchP2POp,
                                    Column::NpuP2PPeer, Column::BenchP2PPeer });
    return cols;
}

std::vector<std::string> CompareTable::header() const
{
    std::vector<std::string> out;
    for (Column c : columns())
        out.emplace_back(columnTitle(c));
    return out;
}

PyVal CompareTable::statistic(const CompareRow& row, bool npuSide, int k) const
{
    if (consistent()) {
        const ConsistentRow& aggregated = consistentRows[row.npu];
        return (npuSide ? aggregated.npu : aggregated.bench).stats[k].view();
    }
    const Item* item = npuSide ? &npuItem(row) : benchItem(row);
    if (!item)
        return PyVal::str(kNA);
    PyVal v = (npuSide ? npu : bench).items->stat(*item, k);
    if (v.kind == PyKind::Int && (npuSide ? npuStatsAsFloat : benchStatsAsFloat))
        v = PyVal::real(static_cast<double>(v.i));
    return v;
}

void CompareTable::statistics(const CompareRow& row, bool npuSide, PyVal out[4]) const
{
    if (consistent()) {
        for (int k = 0; k < 4; ++k)
            out[k] = statistic(row, npuSide, k);
        return;
    }
    const Item* item = npuSide ? &npuItem(row) : benchItem(row);
    if (!item) {
        for (int k = 0; k < 4; ++k)
            out[k] = PyVal::str(kNA);
        return;
    }
    (npuSide ? npu : bench).items->stats(*item, out);
    if (npuSide ? npuStatsAsFloat : benchStatsAsFloat)
        for (int k = 0; k < 4; ++k)
            if (out[k].kind == PyKind::Int)
                out[k] = PyVal::real(static_cast<double>(out[k].i));
}

void CompareTable::statisticDiffCells(const CompareRow& row, int k, std::string& diff, std::string& rel) const
{
    statisticDiffCells(k, statistic(row, true, k), statistic(row, false, k), diff, rel);
}

void CompareTable::statisticDiffCells(int k, const PyVal& npuValue, const PyVal& benchValue, std::string& diff, std::string& rel) const
{
    if (options.legacyResult) {
        bool warn = false;
        legacyStatisticDiff(npuValue, benchValue, diff, rel, warn);
    } else {
        statisticDiff(npuValue, benchValue, npuIntColumn[k], benchIntColumn[k], diff, rel);
    }
}

const std::vector<std::string>* CompareTable::stackFrames(const CompareRow& row) const
{
    const Item& ni = npuItem(row);
    return ni.firstOfEntry ? stack.framesOf(npu.items->entryName(ni)) : nullptr;
}

const std::vector<std::string>* CompareTable::stackFrames(const CompareRow& row, std::uint64_t entryNameHash) const
{
    const Item& ni = npuItem(row);
    return ni.firstOfEntry ? stack.framesOf(npu.items->entryName(ni), entryNameHash) : nullptr;
}

std::size_t CompareTable::countLevel(ResultLevel level) const
{
    std::size_t n = 0;
    for (const auto& row : rows)
        n += row.level == level;
    return n;
}

namespace {

void setStr(Cell& out, std::string_view text)
{
    out.kind = Cell::Kind::Str;
    out.text.assign(text);
}

int statIndex(Column c, bool& npuSide)
{
    const int base = static_cast<int>(c) - static_cast<int>(Column::NpuMax);
    npuSide = base < 4;
    return base % 4;
}

} // namespace

void setPyCell(Cell& out, const PyVal& v)
{
    switch (v.kind) {
    case PyKind::Str:
        out.kind = Cell::Kind::Str;
        out.text.assign(v.s);
        return;
    case PyKind::Int:
        out.kind = Cell::Kind::Int;
        out.i = v.i;
        return;
    case PyKind::Float:
        out.kind = Cell::Kind::Float;
        out.f = v.f;
        return;
    case PyKind::Bool:
        out.kind = Cell::Kind::Bool;
        out.b = v.b;
        return;
    }
}

void setListCell(Cell& out, const std::vector<std::string>& items)
{
    out.kind = Cell::Kind::List;
    out.list = &items;
    out.text = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i)
            out.text += ", ";
        out.text += support::pythonStringRepr(items[i]);
    }
    out.text += ']';
}

std::optional<TensorMetrics> dataNameProblem(std::string_view npuName, std::string_view benchName)
{
    if (npuName == "-1")
        return tensorMetricsError("unsupported", "NPU does not have data file.");
    if (benchName == "-1")
        return tensorMetricsError("unsupported", "Bench does not have data file.");
    if ((npuName == kNA) != (benchName == kNA))
        return tensorMetricsError("unsupported", "Bench api/module unmatched.");
    return std::nullopt;
}

// The columns computed from the row's metrics and statistics alone, the same for exact and consistent tables.
bool CompareTable::derivedCell(std::size_t index, Column column, Cell& out) const
{
    const CompareRow& row = rows[index];
    switch (column) {
    case Column::Cosine:
    case Column::EucDist:
    case Column::MaxAbsErr:
    case Column::TensorMaxRelativeErr:
    case Column::OneThousandthErrRatio:
    case Column::FiveThousandthsErrRatio:
        setPyCell(out, tensorMetrics[row.metrics].cells[static_cast<std::size_t>(static_cast<int>(column) - static_cast<int>(Column::Cosine))]);
        return true;
    case Column::MaxDiff:
    case Column::MinDiff:
    case Column::MeanDiff:
    case Column::NormDiff:
    case Column::MaxRelativeErr:
    case Column::MinRelativeErr:
    case Column::MeanRelativeErr:
    case Column::NormRelativeErr: {
        const int offset = static_cast<int>(column) - static_cast<int>(Column::MaxDiff);
        std::string diff, rel;
        statisticDiffCells(row, offset % 4, diff, rel);
        out.kind = Cell::Kind::Str;
        out.text = offset < 4 ? std::move(diff) : std::move(rel);
        return true;
    }
    default: return false;
    }
}

void CompareTable::cell(std::size_t index, Column column, Cell& out) const
{
    out.list = nullptr;
    if (derivedCell(index, column, out))
        return;
    if (consistent()) {
        consistentCell(*this, index, column, out);
        return;
    }
    const CompareRow& row = rows[index];
    const ItemTable& npuTable = *npu.items;
    const ItemTable& benchTable = *bench.items;
    const Item& ni = npuItem(row);
    const Item* bi = benchItem(row);
    out.list = nullptr;
    switch (column) {
    case Column::NpuName:
        out.kind = Cell::Kind::Str;
        out.text.clear();
        npuTable.appendName(out.text, ni);
        return;
    case Column::BenchName:
        out.kind = Cell::Kind::Str;
        out.text.clear();
        if (bi)
            benchTable.appendName(out.text, *bi);
        else
            out.text = kNA;
        return;
    case Column::NpuDtype: setStr(out, npuTable.dtype(ni)); return;
    case Column::BenchDtype: setStr(out, bi ? benchTable.dtype(*bi) : kNA); return;
    case Column::NpuShape: setStr(out, npuTable.shape(ni)); return;
    case Column::BenchShape: setStr(out, bi ? benchTable.shape(*bi) : std::string(kNA)); return;
    case Column::NpuRequiresGrad: setStr(out, npuTable.requiresGrad(ni)); return;
    case Column::BenchRequiresGrad: setStr(out, bi ? benchTable.requiresGrad(*bi) : kNA); return;
    case Column::NpuMax:
    case Column::NpuMin:
    case Column::NpuMean:
    case Column::NpuNorm:
    case Column::BenchMax:
    case Column::BenchMin:
    case Column::BenchMean:
    case Column::BenchNorm: {
        bool npuSide = false;
        const int k = statIndex(column, npuSide);
        setPyCell(out, statistic(row, npuSide, k));
        return;
    }
    case Column::NpuMd5: setStr(out, npuTable.fields(ni).md5); return;
    case Column::BenchMd5: setStr(out, bi ? benchTable.fields(*bi).md5 : std::string(kNA)); return;
    case Column::RequiresGradConsistent:
        out.kind = Cell::Kind::Bool;
        out.b = npuTable.requiresGrad(ni) == (bi ? benchTable.requiresGrad(*bi) : kNA);
        return;
    case Column::Result:
        if (options.firstDiffAnalyze) {
            if (mode == CompareMode::Md5) {
                const std::string npuMd5 = npuTable.fields(ni).md5;
                const std::string benchMd5 = bi ? benchTable.fields(*bi).md5 : std::string(kNA);
                setStr(out, npuMd5 == benchMd5 ? "pass" : (bi ? "Different" : kNA));
            } else {
                setStr(out, bi ? "" : kNA);
            }
            return;
        }
        if (options.legacyResult && mode == CompareMode::Md5) {
            const std::string npuMd5 = npuTable.fields(ni).md5;
            setStr(out, bi && npuMd5 == benchTable.fields(*bi).md5 ? "pass" : (bi ? "Different" : kNanText));
            return;
        }
        if (options.legacyResult && mode == CompareMode::Statistics) {
            setStr(out, row.level == ResultLevel::Warning ? "warning" : "");
            return;
        }
        setStr(out, toString(row.level));
        return;
    case Column::Accuracy: setStr(out, index < legacyAccuracy.size() ? legacyAccuracy[index] : std::string()); return;
    case Column::ErrMessage:
        if (options.firstDiffAnalyze) {
            const bool consistent = npuTable.requiresGrad(ni) == (bi ? benchTable.requiresGrad(*bi) : kNA);
            if (mode == CompareMode::Md5) {
                if (bi)
                    out.kind = Cell::Kind::Missing;
                else
                    setStr(out, "No bench data matched.");
                return;
            }
            std::string text = bi ? "" : "No bench data matched.";
            if (!consistent)
                text += "Requires_grad inconsistent. ";
            setStr(out, text);
            return;
        }
        if (options.legacyResult) {
            setStr(out, index < legacyMessages.size() ? legacyMessages[index] : std::string());
            return;
        }
        if (mode == CompareMode::Tensor && !tensorMetrics.empty())
            setStr(out, errMessageWithProblems(row.messages, tensorMetrics[row.metrics].fileProblems));
        else
            setStr(out, errMessageText(row.messages));
        return;
    case Column::Stack: {
        const std::vector<std::string>* frames = stackFrames(row);
        if (frames)
            setListCell(out, *frames);
        else
            setStr(out, kNA);
        return;
    }
    case Column::DataName: {
        out.ownedList.assign({ std::string(npuTable.dataName(ni)), std::string(bi ? benchTable.dataName(*bi) : kNA) });
        setListCell(out, out.ownedList);
        return;
    }
    case Column::State: setStr(out, toString(ni.state)); return;
    case Column::ApiOriginName: setStr(out, npuTable.entryName(ni)); return;
    case Column::NpuP2POp:
    case Column::NpuP2PPeer:
    case Column::BenchP2POp:
    case Column::BenchP2PPeer: {
        // The reference assigns these columns by row position from the parsed item lists, not by match.
        const bool npuSide = column == Column::NpuP2POp || column == Column::NpuP2PPeer;
        const ItemTable& table = npuSide ? npuTable : benchTable;
        if (index >= table.items().size()) {
            out.kind = Cell::Kind::Missing;
            return;
        }
        const ItemFields f = table.fields(table.items()[index]);
        setPyCell(out, column == Column::NpuP2POp || column == Column::BenchP2POp ? f.p2pOp : f.p2pPeer);
        return;
    }
    default: return; // tensor metrics and statistic differences: derivedCell
    }
}

} // namespace msprobe::compare
