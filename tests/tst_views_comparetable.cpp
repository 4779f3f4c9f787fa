// SPDX-License-Identifier: Apache-2.0
// The compare table: the CSV reader on the reference's CSV, the table model (QAbstractItemModelTester), the
// Result/text filter and numeric sort, and the mapping from compare rows to graph nodes.
#include "test_util.h"

#include "comparefilterproxy.h"
#include "comparetablemodel.h"

#include "compare/compare_engine.h"
#include "graph/graph_run.h"
#include "graph/visdb/vis_db_reader.h"
#include "support/error.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QTemporaryDir>

#include <cmath>

using namespace msprobe;
namespace fs = std::filesystem;

namespace {

fs::path referenceCsv()
{
    return test::dataDir() / "msprobe-ref" / "outputs" / "compare" / "statistics_problem_vs_bench_step0"
        / "compare_result_20261122035733.csv";
}

fs::path sample(const char* side) { return fs::path(MSPROBE_SAMPLES) / side; }

} // namespace

class TestCompareTable : public QObject {
    Q_OBJECT

private slots:
    void readsReferenceCsv()
    {
        const support::CsvTable csv = support::readCsvFile(referenceCsv());
        QCOMPARE(csv.header.size(), 28u);
        QCOMPARE(csv.rows.size(), 573u);
        QCOMPARE(csv.header.front(), std::string("NPU Name"));
        QCOMPARE(csv.rows.front().front(), std::string("Functional.embedding.0.forward.input.0"));
        // A quoted stack cell with commas and quotes stays one field.
        const std::string& stack = csv.rows.front()[static_cast<std::size_t>(csv.column("NPU_Stack_Info"))];
        QVERIFY(stack.starts_with("['File /usr/lib/python3/dist-packages/torch/nn/modules/sparse.py, line 190, in forward, \\n return F.embedding("));
        QCOMPARE(csv.rows.front()[static_cast<std::size_t>(csv.column("NPU Tensor Shape"))], std::string("[2, 8]"));
    }

    void badCsvNamesFileAndLine()
    {
        try {
            support::parseCsvText("a,b\n1,2\n3,\"open\n", "broken.csv");
            QFAIL("no error");
        } catch (const support::Error& error) {
            QCOMPARE(QString::fromStdString(error.file()), QStringLiteral("broken.csv"));
            QCOMPARE(QString::fromStdString(error.place()), QStringLiteral("line 3"));
        }
        try {
            support::parseCsvText("a,b\n1,2\n1,2,3\n", "wide.csv");
            QFAIL("no error");
        } catch (const support::Error& error) {
            QCOMPARE(QString::fromStdString(error.place()), QStringLiteral("line 3"));
        }
        QVERIFY_THROWS_EXCEPTION(support::Error, support::parseCsvText("", "empty.csv"));
    }

    void modelOverCsv()
    {
        CompareTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(msprobe::studio::compareRowsOf(support::readCsvFile(referenceCsv())));
        QCOMPARE(model.rowCount(), 573);
        QCOMPARE(model.columnCount(), 28);
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("NPU Name"));
        QCOMPARE(model.resultColumn(), 25);
        int errors = 0, warnings = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            const auto result = static_cast<msprobe::studio::RowResult>(model.index(row, 0).data(CompareTableModel::ResultRole).toInt());
            errors += result == msprobe::studio::RowResult::Error;
            warnings += result == msprobe::studio::RowResult::Warning;
            if (result == msprobe::studio::RowResult::Error) {
                QCOMPARE(model.index(row, 0).data().toString(), QStringLiteral("Functional.gelu.1.forward.input.approximate"));
                QCOMPARE(model.index(row, 3).data(Qt::BackgroundRole).value<QColor>(), CompareTableModel::resultColour(msprobe::studio::RowResult::Error));
            }
        }
        QCOMPARE(errors, 1);
        QCOMPARE(warnings, 5);
        // Pass rows tint only the Result cell.
        QVERIFY(!model.index(0, 3).data(Qt::BackgroundRole).isValid());
        QVERIFY(model.index(0, model.resultColumn()).data(Qt::BackgroundRole).isValid());
        // Numbers sort as numbers.
        QCOMPARE(model.index(0, 8).data(CompareTableModel::SortRole).typeId(), int(QMetaType::Double));
        model.setRows(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void proxyFiltersAndSorts()
    {
        CompareTableModel model;
        CompareFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(msprobe::studio::compareRowsOf(support::readCsvFile(referenceCsv())));
        QCOMPARE(proxy.rowCount(), 573);
        proxy.setResultFilter(CompareFilterProxy::ErrorOnly);
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setResultFilter(CompareFilterProxy::NotPass);
        QCOMPARE(proxy.rowCount(), 6);
        proxy.setResultFilter(CompareFilterProxy::WarningOnly);
        proxy.setText(QStringLiteral("GELU"));
        QCOMPARE(proxy.rowCount(), 2); // Functional.gelu.1.backward.output.0 and Module.blocks.1.mlp.act.GELU.backward.0.output.0
        proxy.setResultFilter(CompareFilterProxy::AllResults);
        proxy.setText(QStringLiteral("layer_norm"));
        QCOMPARE(proxy.rowCount(), 50); // counted with Python's csv module on the same file
        proxy.setText(QString());

        const int maxDiff = model.rows()->column(QStringLiteral("Max diff"));
        proxy.sort(maxDiff, Qt::AscendingOrder);
        double previous = -INFINITY;
        bool sawText = false;
        for (int row = 0; row < proxy.rowCount(); ++row) {
            const QVariant value = proxy.index(row, maxDiff).data(CompareTableModel::SortRole);
            if (value.typeId() != QMetaType::Double) {
                sawText = true;
                continue;
            }
            QVERIFY2(!sawText, "numbers must come before text cells");
            QVERIFY(value.toDouble() >= previous);
            previous = value.toDouble();
        }
        QVERIFY(previous > 0);
    }

    void modelOverComparedTable()
    {
        const auto npu = test::onlySubdir(sample("problem") / "step0") / "dump.json";
        const auto bench = test::onlySubdir(sample("bench") / "step0") / "dump.json";
        std::shared_ptr<const compare::CompareTable> table = compare::compareDumpFiles(npu, bench, {});
        CompareTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(msprobe::studio::compareRowsOf(table));
        QCOMPARE(model.rowCount(), static_cast<int>(table->rows.size()));
        QCOMPARE(model.rows()->table(), table.get());
        QCOMPARE(model.columnCount(), static_cast<int>(table->columns().size()));
        int errors = 0;
        for (int row = 0; row < model.rowCount(); ++row)
            errors += model.index(row, 0).data(CompareTableModel::ResultRole).toInt() == int(msprobe::studio::RowResult::Error);
        QCOMPARE(static_cast<std::size_t>(errors), table->countLevel(compare::ResultLevel::Error));
        QCOMPARE(model.index(0, 0).data(CompareTableModel::NpuNameRole).toString(), model.index(0, 0).data().toString());
    }

    void rowsMapToTheirGraphNode()
    {
        QTemporaryDir dir;
        graph::GraphRunOptions options;
        options.target = sample("problem");
        options.golden = sample("bench");
        options.output = dir.path().toStdString();
        const auto result = graph::runGraphVisualize(options);
        const graph::VisDb db(result.database);
        const graph::VisGraph npu = db.load(0, 0, "NPU");
        QCOMPARE(msprobe::studio::nodeOwningItem(npu, QStringLiteral("Functional.embedding.0.forward.input.0")), QStringLiteral("Functional.embedding.0.forward"));
        QCOMPARE(msprobe::studio::nodeOwningItem(npu, QStringLiteral("Module.head.Linear.parameters_grad.0.bias")),
            QStringLiteral("Module.head.Linear.parameters_grad.0"));
        QCOMPARE(msprobe::studio::nodeOwningItem(npu, QStringLiteral("Module.tok_emb.Embedding.forward.0.parameters.weight")),
            QStringLiteral("Module.tok_emb.Embedding.forward.0"));
        QCOMPARE(msprobe::studio::nodeOwningItem(npu, QStringLiteral("Nothing.like.this")), QString());
    }
};

QTEST_MAIN(TestCompareTable)
#include "tst_views_comparetable.moc"
