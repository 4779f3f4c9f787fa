// SPDX-License-Identifier: Apache-2.0
// The compare engine on small hand-written dumps: flattening of every leaf kind, matching (exact with backward
// renumbering, fuzzy, data mapping), the dtype gate, unmatched rows on either side, pandas' column typing and
// the errors for incompatible inputs.
#include "test_util.h"

#include "compare/compare_engine.h"
#include "compare/csv_writer.h"
#include "dump/dump_json_reader.h"
#include "support/error.h"

using namespace msprobe;

namespace {

std::string tensorLeaf(const char* dtype, const char* shape, const char* max, const char* min, const char* mean, const char* norm,
    const char* extra = "")
{
    return std::string(R"({"type": "torch.Tensor", "dtype": ")") + dtype + R"(", "shape": )" + shape + R"(, "Max": )" + max
        + R"(, "Min": )" + min + R"(, "Mean": )" + mean + R"(, "Norm": )" + norm + R"(, "requires_grad": true)" + extra + "}";
}

dump::DumpFile parseDump(const std::string& data, const char* task = "statistics", const char* name = "dump.json")
{
    dump::DumpJsonReader reader;
    return reader.parse(std::string(R"({"task": ")") + task + R"(", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {)" + data + "}}",
        name);
}

std::unique_ptr<compare::CompareTable> runCompare(const std::string& npu, const std::string& bench, compare::CompareOptions options = {},
    const char* task = "statistics")
{
    return compare::compareDumps(parseDump(npu, task), parseDump(bench, task), {}, false, options);
}

std::string cellText(const compare::CompareTable& table, std::size_t row, compare::Column column)
{
    compare::Cell cell;
    table.cell(row, column, cell);
    std::string out;
    compare::appendCsvField(out, cell);
    return out;
}

std::string errorOf(const std::function<void()>& fn)
{
    try {
        fn();
    } catch (const support::Error& e) {
        return e.what();
    }
    return "<no error>";
}

} // namespace

class TestCompareEngine : public QObject {
    Q_OBJECT

private slots:
    void scalarLeaves()
    {
        // One entry with every non-tensor leaf kind; compared with itself.
        const std::string entry = R"("Functional.f.0.forward": {"input_args": [
              {"type": "int", "value": 3}, {"type": "float", "value": 1.5}, {"type": "bool", "value": true},
              {"type": "str", "value": "tanh"}, {"type": "slice", "value": [0, 4, null]}, {"type": "torch.Size", "value": [2, 8]},
              {"type": "ellipsis", "value": "..."}, null, {"type": "torch.ProcessGroup", "group_ranks": [0, 1], "group_id": "ab"},
              {}, [], {"type": "torch.memory_format", "format": "contiguous_format"}],
            "input_kwargs": {"src": {"type": "int", "value": 1}, "dtype": {"type": "torch.dtype", "value": "torch.float32"}},
            "output": [)" + tensorLeaf("torch.float32", "[2]", "1.0", "0.0", "0.5", "1.0") + "]}";
        const auto table = runCompare(entry, entry);
        // 10 items from input_args ({} and [] give none), 2 kwargs, 1 output
        QCOMPARE(table->rows.size(), std::size_t(13));
        const char* dtypes[] = { "<class 'int'>", "<class 'float'>", "<class 'bool'>", "<class 'str'>", "slice", "torch.Size",
            "ellipsis", "None", "torch.ProcessGroup", "<class 'NoneType'>", "int", "<class 'str'>", "torch.float32" };
        for (std::size_t r = 0; r < 13; ++r)
            QCOMPARE(cellText(*table, r, compare::Column::NpuDtype), std::string(dtypes[r]));
        QCOMPARE(cellText(*table, 4, compare::Column::NpuShape), std::string("\"(3,)\"")); // np.shape of a 3-list, quoted (comma)
        QCOMPARE(cellText(*table, 5, compare::Column::NpuShape), std::string("\"[2, 8]\""));
        QCOMPARE(cellText(*table, 7, compare::Column::NpuShape), std::string("None"));
        QCOMPARE(cellText(*table, 0, compare::Column::NpuMax), std::string("3"));
        QCOMPARE(cellText(*table, 2, compare::Column::NpuMean), std::string("True"));
        QCOMPARE(cellText(*table, 6, compare::Column::NpuNorm), std::string("..."));
        QCOMPARE(cellText(*table, 8, compare::Column::NpuMax), std::string("\"[0, 1]\""));
        QCOMPARE(cellText(*table, 10, compare::Column::NpuMax), std::string("1")); // src: str(value)
        QCOMPARE(cellText(*table, 10, compare::Column::NpuName), std::string("Functional.f.0.forward.input.src"));
        QCOMPARE(cellText(*table, 0, compare::Column::NpuRequiresGrad), std::string("N/A"));
        QCOMPARE(cellText(*table, 12, compare::Column::NpuRequiresGrad), std::string("True"));
        for (std::size_t r = 0; r < 13; ++r)
            QVERIFY(table->rows[r].level == compare::ResultLevel::Pass);
    }

    void md5Synthetic()
    {
        // md5 of non-tensors: CRC-32 of str(value); "True" -> 5dcee3b3, None -> crc("None") = dfa2aff1,
        // torch.Size [2, 8] -> crc("[2, 8]") = dc8675a5; the src item uses str(value) itself.
        const std::string npu = R"("Functional.f.0.forward": {"input_args": [{"type": "bool", "value": true}, {"type": "int", "value": null},
            {"type": "torch.Size", "value": [2, 8]}], "input_kwargs": {"dst": {"type": "int", "value": 3}},
            "output": [)" + tensorLeaf("torch.float32", "[2]", "1.0", "0.0", "0.5", "1.0", R"(, "md5": "0badf00d")") + "]}";
        std::string bench = npu;
        bench.replace(bench.find("0badf00d"), 8, "12345678");
        const auto table = runCompare(npu, bench);
        QVERIFY(table->mode == compare::CompareMode::Md5);
        QCOMPARE(cellText(*table, 0, compare::Column::NpuMd5), std::string("5dcee3b3"));
        QCOMPARE(cellText(*table, 1, compare::Column::NpuMd5), std::string("dfa2aff1"));
        QCOMPARE(cellText(*table, 2, compare::Column::NpuMd5), std::string("dc8675a5"));
        QCOMPARE(cellText(*table, 3, compare::Column::NpuMd5), std::string("3"));
        QVERIFY(table->rows[4].level == compare::ResultLevel::Error);
        QCOMPARE(cellText(*table, 4, compare::Column::ErrMessage), std::string("\"[\"\"error: The CRC-32 value of NPU differs from that of the bench.\"\"]\""));
    }

    void unmatchedAndDtypeGate()
    {
        const std::string common = R"("Torch.add.0.forward": {"input_args": [)" + tensorLeaf("torch.float32", "[2]", "1.0", "0.0", "0.5", "1.0") + "]}";
        const std::string npu = common + R"(, "Torch.mul.0.forward": {"input_args": [)" + tensorLeaf("torch.float16", "[2]", "1.0", "0.0", "0.5", "1.0")
            + "," + tensorLeaf("torch.float32", "[2]", "1.0", "0.0", "0.5", "1.0") + "]}"
            + R"(, "Torch.npu_only.0.forward": {"output": [)" + tensorLeaf("torch.float32", "[2]", "2.0", "0.0", "0.5", "1.0") + "]}";
        const std::string bench = common + R"(, "Torch.mul.0.forward": {"input_args": [)" + tensorLeaf("torch.float32", "[2]", "1.0", "0.0", "0.5", "1.0")
            + "," + tensorLeaf("torch.float64", "[2]", "1.0", "0.0", "0.5", "1.0") + "]}"
            + R"(, "Torch.bench_only.0.forward": {"output": [)" + tensorLeaf("torch.float32", "[2]", "2.0", "0.0", "0.5", "1.0") + "]}";
        const auto table = runCompare(npu, bench);
        // rows: add.input.0, mul.input.0 (fp16 vs fp32: matched, DType error), mul.input.1 (fp32 vs fp64: gate ->
        // unmatched), npu_only.output.0 (unmatched); bench_only is dropped
        QCOMPARE(table->rows.size(), std::size_t(4));
        QCOMPARE(cellText(*table, 1, compare::Column::BenchDtype), std::string("torch.float32"));
        QCOMPARE(cellText(*table, 1, compare::Column::ErrMessage), std::string("\"[\"\"error: The dtype of NPU and Bench are inconsistent.\"\"]\""));
        QCOMPARE(cellText(*table, 2, compare::Column::BenchName), std::string("N/A"));
        QCOMPARE(cellText(*table, 2, compare::Column::MaxDiff), std::string("N/A"));
        QCOMPARE(cellText(*table, 2, compare::Column::RequiresGradConsistent), std::string("False"));
        // unmatched rows with normal values end as pass / [] in statistics mode
        QVERIFY(table->rows[3].level == compare::ResultLevel::Pass);
        QCOMPARE(cellText(*table, 3, compare::Column::ErrMessage), std::string("[]"));
        QCOMPARE(cellText(*table, 3, compare::Column::BenchMax), std::string("N/A"));
    }

    void backwardRenumbering()
    {
        // A recomputed forward shifts backward counters: NPU relu.5 / relu.7 backward vs bench relu.3 / relu.4
        // are matched by order of appearance (0, 1); fuzzy matching disables the renumbering.
        auto entries = [](int first, int second) {
            return "\"Functional.relu." + std::to_string(first) + ".backward\": {\"input\": [" + tensorLeaf("torch.float32", "[2]", "1.0", "0.0", "0.5", "1.0")
                + "]}, \"Functional.relu." + std::to_string(second) + ".backward\": {\"input\": ["
                + tensorLeaf("torch.float32", "[2]", "2.0", "0.0", "0.5", "1.0") + "]}";
        };
        const auto table = runCompare(entries(5, 7), entries(3, 4));
        QCOMPARE(cellText(*table, 0, compare::Column::BenchName), std::string("Functional.relu.3.backward.input.0"));
        QCOMPARE(cellText(*table, 1, compare::Column::BenchName), std::string("Functional.relu.4.backward.input.0"));
        QCOMPARE(cellText(*table, 1, compare::Column::MaxDiff), std::string("0"));
    }

    void fuzzyAndDataMapping()
    {
        const std::string npu = R"("Functional.relu.2.forward": {"input_args": [)" + tensorLeaf("torch.float32", "[2]", "1.0", "0.0", "0.5", "1.0") + "]}";
        const std::string bench = R"("Functional.relu.0.forward": {"input_args": [)" + tensorLeaf("torch.float32", "[2]", "1.5", "0.0", "0.5", "1.0") + "]}";
        auto exact = runCompare(npu, bench);
        QCOMPARE(cellText(*exact, 0, compare::Column::BenchName), std::string("N/A"));
        compare::CompareOptions fuzzy;
        fuzzy.fuzzyMatch = true;
        auto matched = runCompare(npu, bench, fuzzy);
        QCOMPARE(cellText(*matched, 0, compare::Column::BenchName), std::string("Functional.relu.0.forward.input.0"));
        // 1.0 - 1.5 = -0.5; |-0.5 / 1.5 * 100| = 33.33333333333333%
        QCOMPARE(cellText(*matched, 0, compare::Column::MaxDiff), std::string("-0.5"));
        QCOMPARE(cellText(*matched, 0, compare::Column::MaxRelativeErr), std::string("33.33333333333333%"));
        compare::CompareOptions mapping;
        mapping.useDataMapping = true;
        mapping.dataMapping = { { "Functional.relu.2.forward.input.0", "Functional.relu.0.forward.input.0" } };
        auto mapped = runCompare(npu, bench, mapping);
        QCOMPARE(cellText(*mapped, 0, compare::Column::BenchName), std::string("Functional.relu.0.forward.input.0"));
    }

    void pandasColumnTyping()
    {
        // Every statistic of the NPU side is a number and one is a float -> the columns are float64 and the int
        // max 29 prints as 29.0; the bench side holds a None (mean of an int tensor) -> object, 29 stays 29.
        const std::string npu = R"("Torch.a.0.forward": {"input_args": [)" + tensorLeaf("torch.int64", "[2]", "29", "2", "3.5", "10.0") + "]}";
        const std::string bench = R"("Torch.a.0.forward": {"input_args": [)" + tensorLeaf("torch.int64", "[2]", "29", "2", "null", "null") + "]}";
        const auto table = runCompare(npu, bench);
        QCOMPARE(cellText(*table, 0, compare::Column::NpuMax), std::string("29.0"));
        QCOMPARE(cellText(*table, 0, compare::Column::BenchMax), std::string("29"));
        // "29.0" vs "29": texts differ, both numbers -> 0.0 and 0.0%
        QCOMPARE(cellText(*table, 0, compare::Column::MaxDiff), std::string("0.0"));
        QCOMPARE(cellText(*table, 0, compare::Column::MaxRelativeErr), std::string("0.0%"));
        // NaN statistics print as "Nan", infinities as " inf"
        const std::string nanEntry = R"("Torch.b.0.forward": {"output": [)" + tensorLeaf("torch.float32", "[2]", "Infinity", "NaN", "NaN", "NaN") + "]}";
        const std::string fine = R"("Torch.b.0.forward": {"output": [)" + tensorLeaf("torch.float32", "[2]", "1.0", "0.0", "0.5", "1.0") + "]}";
        const auto nan = runCompare(nanEntry, fine);
        QCOMPARE(cellText(*nan, 0, compare::Column::NpuMax), std::string(" inf"));
        QCOMPARE(cellText(*nan, 0, compare::Column::NpuMin), std::string("Nan"));
        QCOMPARE(cellText(*nan, 0, compare::Column::MinDiff), std::string("Nan"));
        QCOMPARE(cellText(*nan, 0, compare::Column::MaxDiff), std::string("inf"));
        QVERIFY(nan->rows[0].level == compare::ResultLevel::Error);
        QCOMPARE(cellText(*nan, 0, compare::Column::ErrMessage),
            std::string("\"[\"\"error: There is nan/inf/-inf in the maximum or minimum value of NPU.\"\"]\""));
    }

    void incompatibleInputs()
    {
        const std::string entry = R"("Torch.a.0.forward": {"input_args": [)" + tensorLeaf("torch.float32", "[2]", "1.0", "0.0", "0.5", "1.0") + "]}";
        const std::string md5Entry = R"("Torch.a.0.forward": {"input_args": [)"
            + tensorLeaf("torch.float32", "[2]", "1.0", "0.0", "0.5", "1.0", R"(, "md5": "00000001")") + "]}";
        QVERIFY(errorOf([&] { runCompare(entry, md5Entry); }).find("md5 checksums") != std::string::npos);
        QVERIFY(errorOf([&] { compare::compareDumps(parseDump(entry, "tensor"), parseDump(entry), {}, false, {}); }).find("differs") != std::string::npos);
        QVERIFY(errorOf([&] { runCompare(entry, entry, {}, "structure"); }).find("cannot be compared") != std::string::npos);
        const std::string formula = R"("Torch.a.0.forward": {"input_args": [{"type": "str", "value": "=cmd|' /C calc'!A0"}]})";
        QVERIFY(errorOf([&] { runCompare(formula, formula); }).find("formula") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestCompareEngine)
#include "tst_compare_engine.moc"
