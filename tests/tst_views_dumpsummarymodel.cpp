// SPDX-License-Identifier: Apache-2.0
// The dump summary model over the bundled sample, checked by QAbstractItemModelTester.
#include "test_util.h"

#include "dumpsummarymodel.h"

#include <QAbstractItemModelTester>

using namespace msprobe;

class TestDumpSummaryModel : public QObject {
    Q_OBJECT

private slots:
    void sampleTree()
    {
        DumpSummaryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setSummary(std::make_shared<const dump::TreeSummary>(
            dump::summarizeDumpTree(dump::discoverDumpTree(std::filesystem::path(MSPROBE_SAMPLES) / "bench"))));
        QCOMPARE(model.rowCount(), 2);
        const QModelIndex step1 = model.index(1, 0);
        QCOMPARE(model.data(step1).toString(), QStringLiteral("step1"));
        QCOMPARE(model.rowCount(step1), 1);
        const QModelIndex rank = model.index(0, DumpSummaryModel::EntriesColumn, step1);
        QCOMPARE(model.data(rank).toULongLong(), 262ull);
        QCOMPARE(model.data(model.index(0, DumpSummaryModel::TensorsColumn, step1)).toULongLong(), 697ull);
        QCOMPARE(model.parent(rank), step1.siblingAtColumn(0));
    }
};

QTEST_MAIN(TestDumpSummaryModel)
#include "tst_views_dumpsummarymodel.moc"
