// SPDX-License-Identifier: Apache-2.0
// The studio window on real data: opening the bundled problem/bench pair (the table equals the CSV that
// `msprobe compare` writes for it), filters, selection sync through StudioFocus, step switching, exports with
// the CLI writers, opening a compare CSV and the reference's vis.db, drops, and the error shown for a bad folder.
#include "cli_runner.h"
#include "test_util.h"
#include "tst_graph_inputs.h"

#include "comparetableview.h"
#include "frozencolumntableview.h"
#include "graphswitcher.h"
#include "mainwindow.h"
#include "optionalviews.h"
#include "pairdialog.h"
#include "verdictbar.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QCheckBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

using namespace msprobe;
namespace fs = std::filesystem;

namespace {

QString samplePath(const char* side) { return QStringLiteral(MSPROBE_SAMPLES "/") + QLatin1String(side); }

fs::path findCsv(const fs::path& dir)
{
    for (const auto& item : fs::recursive_directory_iterator(dir))
        if (item.path().extension() == ".csv")
            return item.path();
    return {};
}

std::string readText(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

bool waitIdle(MainWindow& window)
{
    QSignalSpy idle(&window, &MainWindow::idle);
    return idle.wait(120000);
}

// Shows the window with the bundled problem/bench pair loaded.
bool openSamplePair(MainWindow& window)
{
    window.show();
    window.openPaths({ samplePath("problem"), samplePath("bench") });
    return waitIdle(window);
}

// The verdict line the studio should show for one pair, built from what `msprobe compare` printed for it:
// "  N mode, R rows: …; U unpaired …", "  first divergence: ENTRY (row N): REASON", "  first NaN/Inf: ENTRY (row N): …".
QString cliVerdictText(const QString& out, const QString& pairTitle)
{
    const qsizetype start = out.indexOf(pairTitle + QStringLiteral(": compare result"));
    if (start < 0)
        return QStringLiteral("no pair %1 in: %2").arg(pairTitle, out);
    const qsizetype end = out.indexOf(QStringLiteral(": compare result"), start + pairTitle.size() + 20);
    const QString block = out.mid(start, end < 0 ? -1 : end - start);
    QStringList parts;
    const auto divergence = QRegularExpression(QStringLiteral("first divergence: (\\S+) \\(row \\d+\\): (.*)")).match(block);
    parts << (divergence.hasMatch() ? QStringLiteral("First divergence: %1 — why: %2").arg(divergence.captured(1), divergence.captured(2).trimmed())
                                    : QStringLiteral("No divergence: every entry stays within tolerance"));
    const auto nanInf = QRegularExpression(QStringLiteral("first NaN/Inf: (\\S+) \\(row")).match(block);
    if (nanInf.hasMatch())
        parts << QStringLiteral("NaN/Inf first at %1").arg(nanInf.captured(1));
    const int unpaired = QRegularExpression(QStringLiteral("(\\d+) unpaired")).match(block).captured(1).toInt();
    if (unpaired == 1)
        parts << QStringLiteral("1 row unpaired");
    else if (unpaired > 1)
        parts << QStringLiteral("%1 rows unpaired").arg(unpaired);
    return parts.join(QStringLiteral("; "));
}

// The sample pair with every construct.json emptied, as an L1 dump has it: no module structure, so no graph.
QString l1CopyOfSamples(const QString& root)
{
    const fs::path to = fs::path(root.toStdString()) / "l1";
    fs::copy(fs::path(MSPROBE_SAMPLES), to, fs::copy_options::recursive);
    for (const auto& item : fs::recursive_directory_iterator(to))
        if (item.path().filename() == "construct.json")
            test::writeFile(item.path(), "{}");
    return QString::fromStdString(to.string());
}

bool hasLabelSaying(QWidget* parent, const QString& text)
{
    for (QLabel* label : parent->findChildren<QLabel*>())
        if (label->isVisibleTo(parent) && label->text().contains(text))
            return true;
    return false;
}

} // namespace

class TestStudioWindow : public QObject {
    Q_OBJECT

    QTemporaryDir m_scratch;
    fs::path m_cliCsv[2]; // msprobe compare of the sample pair: step0, step1

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("msprobe-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_views_studiowindow"));
        const QString out = m_scratch.filePath(QStringLiteral("cli"));
        const auto run = test::runCli({ QStringLiteral("compare"), QStringLiteral("-tp"), samplePath("problem"), QStringLiteral("-gp"),
            samplePath("bench"), QStringLiteral("-o"), out, QStringLiteral("--no-progress") });
        QCOMPARE(run.exitCode, 0);
        m_cliCsv[0] = findCsv(out.toStdString() + "/step0");
        m_cliCsv[1] = findCsv(out.toStdString() + "/step1");
        QVERIFY(!m_cliCsv[0].empty() && !m_cliCsv[1].empty());
    }

    void pairTableMatchesCliCsv()
    {
        MainWindow window;
        QVERIFY(openSamplePair(window));
        StudioSession* session = window.session();
        QVERIFY2(session->warnings().isEmpty(), qPrintable(session->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(session->graphs().size(), 2u);
        QVERIFY(session->graphs(1, 0).problem && session->graphs(1, 0).bench);
        QVERIFY(session->config().isCompare());
        QCOMPARE(session->compareResults().size(), 2u);
        QCOMPARE(window.graphSwitcher()->stepBox()->count(), 2);
        QCOMPARE(window.centralPage(), MainWindow::CentralPage::Graphs);
        // The Dump summary tab has the problem side's summary for a pair too.
        QVERIFY(session->summary());
        QVERIFY(!session->summary()->ranks.empty());

        for (int step : { 0, 1 }) {
            window.studioFocus()->setGraph(step, 0);
            const support::CsvTable cli = support::readCsvFile(m_cliCsv[step]);
            CompareTableModel* model = window.compareView()->model();
            QCOMPARE(model->rowCount(), static_cast<int>(cli.rows.size()));
            QCOMPARE(model->columnCount(), static_cast<int>(cli.header.size()));
            const int result = cli.column("Result");
            for (int row = 0; row < model->rowCount(); ++row) {
                QCOMPARE(model->index(row, 0).data().toString(), test::q(cli.rows[static_cast<std::size_t>(row)][0]));
                QCOMPARE(msprobe::studio::rowResultOf(test::q(cli.rows[static_cast<std::size_t>(row)][static_cast<std::size_t>(result)])),
                    static_cast<msprobe::studio::RowResult>(model->index(row, 0).data(CompareTableModel::ResultRole).toInt()));
            }
        }

        // Filters: text over NPU/bench names, then Result.
        window.studioFocus()->setGraph(0, 0);
        CompareTableView* view = window.compareView();
        const support::CsvTable cli = support::readCsvFile(m_cliCsv[0]);
        int layerNorm = 0, errors = 0;
        for (const auto& row : cli.rows) {
            layerNorm += row[0].find("layer_norm") != std::string::npos || row[1].find("layer_norm") != std::string::npos;
            errors += row[static_cast<std::size_t>(cli.column("Result"))] == "error";
        }
        QTest::keyClicks(view->filterEdit(), QStringLiteral("layer_norm"));
        QCOMPARE(view->proxy()->rowCount(), layerNorm);
        view->filterEdit()->clear();
        view->resultBox()->setCurrentIndex(view->resultBox()->findData(CompareFilterProxy::ErrorOnly));
        QCOMPARE(view->proxy()->rowCount(), errors);
        view->resultBox()->setCurrentIndex(0);
        QCOMPARE(view->proxy()->rowCount(), static_cast<int>(cli.rows.size()));
    }

    void selectionFollowsFocusBothWays()
    {
        MainWindow window;
        QVERIFY(openSamplePair(window));
        CompareTableView* view = window.compareView();
        StudioFocus* focus = window.studioFocus();

        // Table -> focus: clicking a parameter row focuses the module call that owns it.
        const QModelIndexList hits = view->proxy()->match(view->proxy()->index(0, 0), Qt::DisplayRole,
            QStringLiteral("Module.tok_emb.Embedding.forward.0.parameters.weight"), 1, Qt::MatchExactly);
        QCOMPARE(hits.size(), 1);
        const QRect cell = view->table()->frozenView()->visualRect(hits.front());
        QVERIFY(cell.isValid());
        view->table()->scrollTo(hits.front());
        QTest::mouseClick(view->table()->viewport(), Qt::LeftButton, {}, view->table()->visualRect(hits.front().siblingAtColumn(2)).center());
        QCOMPARE(focus->node(), QStringLiteral("Module.tok_emb.Embedding.forward.0"));
        QCOMPARE(focus->side(), StudioFocus::Side::Problem);

        // Focus -> table: another view focuses a node; the table selects its first row.
        focus->setNode(QStringLiteral("Module.head.Linear.parameters_grad.0"));
        const QModelIndex current = view->table()->currentIndex();
        QVERIFY(current.isValid());
        QVERIFY(current.siblingAtColumn(0).data().toString().startsWith(QStringLiteral("Module.head.Linear.parameters_grad.0.")));
        QCOMPARE(focus->node(), QStringLiteral("Module.head.Linear.parameters_grad.0")); // no echo back

        // Switching steps clears the node and shows the other step's rows.
        focus->setGraph(1, 0);
        QCOMPARE(view->model()->rowCount(), static_cast<int>(support::readCsvFile(m_cliCsv[1]).rows.size()));
    }

    // "All steps and ranks": both steps' rows with Step/Rank columns; a row of the other step switches the graphs.
    void allStepsAndRanksTable()
    {
        MainWindow window;
        QVERIFY(openSamplePair(window));
        CompareTableView* view = window.compareView();
        StudioFocus* focus = window.studioFocus();
        auto* all = view->findChild<QCheckBox*>(QStringLiteral("allRanks"));
        QVERIFY(all && !all->isHidden());
        const int step0 = static_cast<int>(support::readCsvFile(m_cliCsv[0]).rows.size());
        const int step1 = static_cast<int>(support::readCsvFile(m_cliCsv[1]).rows.size());
        QCOMPARE(view->model()->rowCount(), step0);
        all->setChecked(true);
        QVERIFY(view->showingAll());
        QCOMPARE(view->model()->rowCount(), step0 + step1);
        QCOMPARE(view->model()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("Step"));
        QCOMPARE(view->model()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("Rank"));
        QCOMPARE(view->model()->index(step0, 0).data().toString(), QStringLiteral("1"));
        QCOMPARE(view->model()->index(step0, 2).data().toString(), test::q(support::readCsvFile(m_cliCsv[1]).rows[0][0]));

        // Picking a step-1 row switches the focus to step 1 and its node.
        const QModelIndex row = view->proxy()->mapFromSource(view->model()->index(step0 + 8, 3));
        view->table()->setCurrentIndex(row);
        QCOMPARE(focus->step(), 1);
        QVERIFY(!focus->node().isEmpty());
        QVERIFY(view->model()->index(step0 + 8, 2).data().toString().startsWith(focus->node()));
        QVERIFY(view->showingAll()); // the graph switch kept the whole table
        QCOMPARE(view->model()->rowCount(), step0 + step1);

        // Focus -> table picks the row of the shown step.
        focus->setNode(QStringLiteral("Module.head.Linear.parameters_grad.0"));
        const QModelIndex current = view->proxy()->mapToSource(view->table()->currentIndex());
        QVERIFY(current.isValid());
        QVERIFY(current.row() >= step0);
        all->setChecked(false);
        QCOMPARE(view->model()->rowCount(), step1);
    }

    void exportsUseTheCliWriters()
    {
        MainWindow window;
        window.openPaths({ samplePath("problem"), samplePath("bench") });
        QVERIFY(waitIdle(window));
        window.studioFocus()->setGraph(0, 0);
        const QString csv = m_scratch.filePath(QStringLiteral("export.csv"));
        QCOMPARE(window.exportComparison(msprobe::studio::reportexport::Format::Csv, csv), QString());
        QCOMPARE(readText(csv.toStdString()), readText(m_cliCsv[0])); // byte for byte what the CLI wrote
        const QString xlsx = m_scratch.filePath(QStringLiteral("export.xlsx"));
        QCOMPARE(window.exportComparison(msprobe::studio::reportexport::Format::Xlsx, xlsx), QString());
        QVERIFY(readText(xlsx.toStdString()).starts_with("PK"));
        const QString html = m_scratch.filePath(QStringLiteral("report.html"));
        QCOMPARE(window.exportComparison(msprobe::studio::reportexport::Format::Html, html), QString());
        const std::string report = readText(html.toStdString());
        QVERIFY(report.find("<html") != std::string::npos);
        QVERIFY(report.find("step1") != std::string::npos);
        // No stray temporary files next to the exports.
        QCOMPARE(QDir(m_scratch.path()).entryList(QDir::Files).size(), 3);
        const QString bad = m_scratch.filePath(QStringLiteral("no/such/dir/x.csv"));
        QVERIFY(window.exportComparison(msprobe::studio::reportexport::Format::Csv, bad).contains(QStringLiteral("no/such/dir")));
    }

    void opensCsvAndReferenceVisDb()
    {
        MainWindow window;
        window.openPath(QString::fromStdString(m_cliCsv[1].string()));
        QVERIFY(waitIdle(window));
        QCOMPARE(window.studioFocus()->step(), 1); // from the step1/ folder of the path
        QCOMPARE(window.compareView()->model()->rowCount(), static_cast<int>(support::readCsvFile(m_cliCsv[1]).rows.size()));
        QVERIFY(window.session()->graphs().empty());
        QCOMPARE(window.centralPage(), MainWindow::CentralPage::NoGraph);
        QVERIFY2(window.noGraphText().contains(QStringLiteral("CSV")), qPrintable(window.noGraphText()));
        QVERIFY(!hasLabelSaying(window.graphView(), QStringLiteral("Laying out")));

        const fs::path gz = test::onlyGz(test::dataDir() / "msprobe-ref/outputs/graph_visualize/compare_problem_vs_bench_statistics_step0");
        const fs::path db = test::gunzipTo(gz, m_scratch.path().toStdString());
        QVERIFY(!db.empty());
        window.openPath(QString::fromStdString(db.string()));
        QVERIFY(waitIdle(window));
        QVERIFY(window.session()->config().isCompare());
        const auto pair = window.session()->graphs(0, 0);
        QVERIFY(pair.problem && pair.bench);
        QVERIFY(pair.problem->nodes.size() > 100);
        // The db alone still fills the compare table: one row per item of the debug nodes' stored data.
        std::size_t items = 0;
        for (const auto& row : test::readRows(db, "SELECT input_data, output_data FROM tb_nodes WHERE data_source = 'NPU'"))
            for (const char* column : { "input_data", "output_data" })
                items += nlohmann::json::parse(row.at(column).empty() ? std::string("{}") : row.at(column)).size();
        QVERIFY(items > 100);
        CompareTableModel* model = window.compareView()->model();
        QCOMPARE(std::size_t(model->rowCount()), items);
        const QModelIndexList embedding = model->match(model->index(0, 0), Qt::DisplayRole,
            QStringLiteral("Functional.embedding.0.forward.input.0"), 1, Qt::MatchExactly);
        QCOMPARE(embedding.size(), 1);
        const int row = embedding.front().row();
        QCOMPARE(model->index(row, model->rows()->column(QStringLiteral("Bench Name"))).data().toString(),
            QStringLiteral("Functional.embedding.0.forward.input.0"));
        QCOMPARE(model->index(row, model->rows()->column(QStringLiteral("NPU Dtype"))).data().toString(), QStringLiteral("torch.int64"));
        QCOMPARE(model->index(row, model->rows()->column(QStringLiteral("Result"))).data().toString(), QStringLiteral("pass"));
    }

    void badFolderShowsErrorNamingIt()
    {
        MainWindow window;
        window.show();
        QTemporaryDir empty;
        window.openPath(empty.path());
        QVERIFY(waitIdle(window));
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox*>()) != nullptr);
        QVERIFY2(box->text().contains(empty.path()), qPrintable(box->text()));
        box->close();

        window.openPaths({ m_scratch.filePath(QStringLiteral("missing")) });
        QVERIFY(waitIdle(window));
        QVERIFY(window.session()->graphs().empty());

        // A CSV that is not a compare result is refused with its name, not shown as an empty table.
        const QString notCompare = m_scratch.filePath(QStringLiteral("plain.csv"));
        test::writeFile(notCompare.toStdString(), "a,b\n1,2\n");
        window.openPath(notCompare);
        QVERIFY(waitIdle(window));
        auto boxNaming = [&window](const QString& text) -> QMessageBox* {
            for (QMessageBox* shown : window.findChildren<QMessageBox*>())
                if (shown->isVisible() && QString(shown->text() + shown->informativeText() + shown->detailedText()).contains(text))
                    return shown;
            return nullptr;
        };
        QTRY_VERIFY((box = boxNaming(QStringLiteral("plain.csv"))) != nullptr);
        QVERIFY2(box->text().contains(QStringLiteral("not a compare result"))
                || box->informativeText().contains(QStringLiteral("not a compare result")),
            qPrintable(box->text() + box->informativeText()));
        QVERIFY(window.session()->compareResults().empty());
        box->close();
    }

    // One verdict: the studio's "First divergence" names what `msprobe compare` prints for the pair (the GELU
    // whose kwarg approximate changed), not the graph's first error-coloured module.
    void firstDivergenceIsTheCliVerdict()
    {
        MainWindow window;
        QVERIFY(openSamplePair(window));
        const auto run = test::runCli({ QStringLiteral("compare"), QStringLiteral("-tp"), samplePath("problem"), QStringLiteral("-gp"),
            samplePath("bench"), QStringLiteral("-o"), m_scratch.filePath(QStringLiteral("verdict")), QStringLiteral("--no-progress") });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(QStringLiteral("first divergence: Functional.gelu.1.forward")), qPrintable(run.out));
        window.studioFocus()->setGraph(0, 0);
        window.goToFirstDivergence();
        QCOMPARE(window.studioFocus()->node(), QStringLiteral("Functional.gelu.1.forward"));
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("approximate")), qPrintable(window.statusBar()->currentMessage()));
    }

    // The verdict bar above the graphs says what `msprobe compare` prints for the shown pair, and a click on it
    // selects the diverging entry in the graph and in the table.
    void verdictBarIsTheCliVerdict()
    {
        MainWindow window;
        QVERIFY(openSamplePair(window));
        const auto run = test::runCli({ QStringLiteral("compare"), QStringLiteral("-tp"), samplePath("problem"), QStringLiteral("-gp"),
            samplePath("bench"), QStringLiteral("-o"), m_scratch.filePath(QStringLiteral("bar")), QStringLiteral("--no-progress") });
        QCOMPARE(run.exitCode, 0);
        VerdictBar* bar = window.verdictBar();
        for (int step : { 1, 0 }) {
            window.studioFocus()->setGraph(step, 0);
            QVERIFY(bar->isVisibleTo(&window));
            QCOMPARE(bar->text(), cliVerdictText(run.out, QStringLiteral("step%1/rank0").arg(step)));
        }
        QVERIFY(bar->text().startsWith(QStringLiteral("First divergence: Functional.gelu.1.forward — why: ")));
        QCOMPARE(bar->level(), VerdictBar::Level::Diverged);
        QTest::mouseClick(bar, Qt::LeftButton, {}, bar->rect().center());
        QCOMPARE(window.studioFocus()->node(), QStringLiteral("Functional.gelu.1.forward"));
        const QModelIndex current = window.compareView()->table()->currentIndex();
        QVERIFY(current.isValid());
        QVERIFY(current.siblingAtColumn(0).data().toString().startsWith(QStringLiteral("Functional.gelu.1.forward.")));
    }

    // An L1 pair (no construct.json structure) opens with the compare table and the verdict, says plainly that the
    // graph needs an L0 or mix dump, and leaves no "Laying out…" behind.
    void l1PairOpensWithTableAndVerdict()
    {
        const QString l1 = l1CopyOfSamples(m_scratch.path());
        const QString problem = l1 + QStringLiteral("/problem"), bench = l1 + QStringLiteral("/bench");
        const auto run = test::runCli({ QStringLiteral("compare"), QStringLiteral("-tp"), problem, QStringLiteral("-gp"), bench,
            QStringLiteral("-o"), m_scratch.filePath(QStringLiteral("l1out")), QStringLiteral("--no-progress") });
        QCOMPARE(run.exitCode, 0);
        MainWindow window;
        window.show();
        window.openPaths({ problem, bench });
        QVERIFY(waitIdle(window));
        QVERIFY(window.session()->graphs().empty());
        QCOMPARE(window.session()->compareResults().size(), 2u);
        window.studioFocus()->setGraph(0, 0);
        QVERIFY(window.compareView()->model()->rowCount() > 0);
        QCOMPARE(window.centralPage(), MainWindow::CentralPage::NoGraph);
        QVERIFY2(window.noGraphText().contains(QStringLiteral("L0 or mix")), qPrintable(window.noGraphText()));
        QVERIFY(!hasLabelSaying(window.graphView(), QStringLiteral("Laying out")));
        QVERIFY(window.verdictBar()->isVisibleTo(&window));
        QCOMPARE(window.verdictBar()->text(), cliVerdictText(run.out, QStringLiteral("step0/rank0")));
        // "First divergence" works without a graph: it selects the entry's row.
        window.goToFirstDivergence();
        const QModelIndex current = window.compareView()->table()->currentIndex();
        QVERIFY(current.isValid());
        QVERIFY(current.siblingAtColumn(0).data().toString().startsWith(window.verdictBar()->entry() + QLatin1Char('.')));
    }

    // Nothing open: the welcome page offers the ways in, and its sample button opens the bundled pair.
    void welcomePageOpensTheSample()
    {
        MainWindow window;
        window.show();
        QCOMPARE(window.centralPage(), MainWindow::CentralPage::Welcome);
        QVERIFY(!window.verdictBar()->isVisibleTo(&window));
        auto* sample = window.findChild<QPushButton*>(QStringLiteral("welcomeOpenSample"));
        QVERIFY(sample && sample->isVisibleTo(&window));
        QVERIFY(window.findChild<QPushButton*>(QStringLiteral("welcomeOpenFolder")));
        QVERIFY(window.findChild<QPushButton*>(QStringLiteral("welcomeOpenPair")));
        QSignalSpy idle(&window, &MainWindow::idle);
        sample->click();
        QVERIFY(idle.wait(120000));
        QCOMPARE(int(window.session()->request().kind), int(msprobe::studio::LoadRequest::Kind::Pair));
        QCOMPARE(window.centralPage(), MainWindow::CentralPage::Graphs);
    }

    // A failed open (an empty folder) keeps the pair that was open, its graphs and its compare table.
    void failedOpenKeepsTheOpenSession()
    {
        MainWindow window;
        QVERIFY(openSamplePair(window));
        StudioSession* session = window.session();
        const auto graphsBefore = session->graphs(0, 0);
        QVERIFY(graphsBefore.problem && graphsBefore.bench);
        const int rowsBefore = window.compareView()->model()->rowCount();
        QVERIFY(rowsBefore > 0);

        QTemporaryDir empty;
        window.openPath(empty.path());
        QVERIFY(waitIdle(window));
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox*>()) != nullptr);
        box->close();
        QCOMPARE(session->graphs(0, 0).problem, graphsBefore.problem);
        QCOMPARE(session->compareResults().size(), 2u);
        QCOMPARE(window.compareView()->model()->rowCount(), rowsBefore);
        QCOMPARE(session->request().bench, samplePath("bench"));
    }

    void dropOfTwoFoldersOpensAPair()
    {
        MainWindow window;
        window.show();
        QMimeData mime;
        mime.setUrls({ QUrl::fromLocalFile(samplePath("problem")), QUrl::fromLocalFile(samplePath("bench")) });
        QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY(waitIdle(window));
        QCOMPARE(int(window.session()->request().kind), int(msprobe::studio::LoadRequest::Kind::Pair));
        QCOMPARE(window.session()->request().bench, samplePath("bench"));
        QCOMPARE(window.session()->compareResults().size(), 2u);
    }

    // The pair dialog's layer-mapping YAML (-lm): a missing file disables Open; a malformed one fails the load with
    // an error naming it; a valid one builds the graphs with it.
    void pairDialogLayerMapping()
    {
        PairDialog dialog;
        dialog.setPaths(samplePath("problem"), samplePath("bench"));
        QVERIFY(dialog.canOpen());
        QVERIFY(dialog.request().layerMappingFile.isEmpty());
        dialog.layerMappingEdit()->setText(m_scratch.filePath(QStringLiteral("nope.yaml")));
        QVERIFY(!dialog.canOpen());
        // Open is disabled with the reason shown, naming the path; the field labels are shortcuts, not literal '&'.
        QVERIFY2(dialog.whyNotOpen().contains(QStringLiteral("nope.yaml")), qPrintable(dialog.whyNotOpen()));
        QCOMPARE(dialog.findChild<QLabel*>(QStringLiteral("whyNotOpen"))->text(), dialog.whyNotOpen());
        for (QLabel* label : dialog.findChildren<QLabel*>())
            if (label->text().contains(QLatin1Char('&')))
                QVERIFY2(label->buddy() != nullptr, qPrintable(label->text()));
        dialog.setPaths(samplePath("problem"), m_scratch.filePath(QStringLiteral("missing_bench")));
        QVERIFY(dialog.whyNotOpen().contains(QStringLiteral("missing_bench")));
        dialog.setPaths(samplePath("problem"), samplePath("bench"));

        const QString bad = m_scratch.filePath(QStringLiteral("bad_mapping.yaml"));
        test::writeFile(bad.toStdString(), "  orphan: entry\n");
        dialog.layerMappingEdit()->setText(bad);
        QVERIFY(dialog.canOpen());
        msprobe::studio::LoadRequest request = dialog.request();
        QCOMPARE(request.layerMappingFile, bad);
        StudioSession session;
        QSignalSpy finished(&session, &StudioSession::loadFinished);
        session.open(request);
        QVERIFY(finished.wait(120000));
        // As graph_visualize does: a malformed mapping fails the graph stage with an error naming the file and line.
        const QString message = finished.front().at(1).toString() + session.warnings().join(QLatin1Char('\n'));
        QVERIFY2(message.contains(QStringLiteral("Graph: ")) && message.contains(QStringLiteral("bad_mapping.yaml"))
                && message.contains(QStringLiteral("line 1")),
            qPrintable(message));

        const QString good = m_scratch.filePath(QStringLiteral("good_mapping.yaml"));
        test::writeFile(good.toStdString(), "GPTModel:\n  decoder: encoder\n");
        dialog.layerMappingEdit()->setText(good);
        request = dialog.request();
        finished.clear();
        session.open(request);
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
        QVERIFY(session.graphs(0, 0).problem && session.graphs(0, 0).bench);
        QVERIFY(!session.warnings().join(QLatin1Char('\n')).contains(QStringLiteral("layer mapping")));
    }

    // The window must fit a 1024x640 screen: its minimum size (docks, toolbar, graph header) stays within it.
    void fitsALaptopScreen()
    {
        MainWindow window;
        QVERIFY(openSamplePair(window));
        const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
        if (minimum.width() > 1024 || minimum.height() > 640) {
            for (QWidget* child : window.findChildren<QWidget*>())
                if (child->minimumSizeHint().width() > 300 || child->minimumSizeHint().height() > 200)
                    qWarning() << child->metaObject()->className() << child->objectName() << child->minimumSizeHint();
        }
        QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 640,
            qPrintable(QStringLiteral("minimum %1x%2").arg(minimum.width()).arg(minimum.height())));
    }

    void cancelStopsTheLoad()
    {
        MainWindow window;
        QSignalSpy finished(window.session(), &StudioSession::loadFinished);
        window.openPaths({ samplePath("problem"), samplePath("bench") });
        window.session()->cancel();
        QVERIFY(finished.wait(60000));
        // Either it was too quick to stop, or it stopped with no message (no error dialog).
        const bool ok = finished.front().at(0).toBool();
        QVERIFY(ok || finished.front().at(1).toString().isEmpty());
    }
};

QTEST_MAIN(TestStudioWindow)
#include "tst_views_studiowindow.moc"
