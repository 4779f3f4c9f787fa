// SPDX-License-Identifier: Apache-2.0
// msprobe data2db --format monitor: monitor v1 CSVs into monitor_data.trend.db, checked against the trend.db the
// reference tool wrote for the same CSVs (row for row) and against a hand-checked worked example.
#include "cli_interrupt.h"
#include "sqlite_rows.h"
#include "cli_runner.h"
#include "support/sqlite_util.h"
#include "test_util.h"

#include <QTemporaryDir>

#include <algorithm>
#include <set>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

fs::path trendData() { return dataDir() / "trend"; }

std::vector<std::string> columnNames(const fs::path& db, const std::string& table)
{
    msprobe::support::SqliteDb file(db, true);
    msprobe::support::SqliteStatement query(file, "SELECT name FROM pragma_table_info('" + table + "') ORDER BY cid");
    std::vector<std::string> names;
    while (query.step())
        names.emplace_back(query.columnText(0));
    return names;
}

// Trend rows with target and metric ids resolved to names (ids are opaque: the reference leaves gaps).
std::vector<std::string> trendRows(const fs::path& db, const std::string& stats)
{
    return queryRows(db,
        "SELECT t.rank, t.step, m.target_name, m.vpp_stage, m.micro_step, k.metric_name, " + stats
            + " FROM trend_data t JOIN monitoring_targets m ON t.target_id = m.target_id"
              " JOIN monitoring_metrics k ON t.metric_id = k.metric_id");
}

std::vector<std::string> tagMappings(const fs::path& db)
{
    return queryRows(db,
        "SELECT g.tag_name, g.category, k.metric_name, m.target_name FROM tag_target_mapping p"
        " JOIN monitoring_tags g ON p.tag_id = g.tag_id JOIN monitoring_targets m ON p.target_id = m.target_id"
        " JOIN monitoring_metrics k ON g.metric_id = k.metric_id");
}

std::set<std::string> splitComma(const std::string& text)
{
    std::set<std::string> out;
    std::size_t start = 0;
    for (std::size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
        out.insert(text.substr(start, comma - start));
    out.insert(text.substr(start));
    return out;
}

Run data2db(const fs::path& db, const fs::path& data, const QStringList& extra = {})
{
    return runCli(QStringList { "data2db", "--db", q(db.string()), "--data", q(data.string()), "--format", "monitor" } + extra);
}

std::string readAll(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

std::vector<std::string> namesIn(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& item : fs::directory_iterator(dir))
        names.push_back(item.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// A monitor folder of one rank whose actv CSV has `rows` distinct targets (about 100 bytes of database each).
fs::path largeMonitorData(const fs::path& dir, int rows)
{
    std::string csv = "vpp_stage,name,step,micro_step,norm,max,min,mean,nans\n";
    for (int r = 0; r < rows; ++r)
        csv += "0,module.layers." + std::to_string(r) + ".mlp.input,0,0," + std::to_string(r) + ".5,2.0,-1.0,0.1,0\n";
    writeFile(dir / "Dec03_21-34-40-rank0-abcd1234" / "actv_0-1.csv", csv);
    return dir;
}

} // namespace

class TestCliData2db : public QObject {
    Q_OBJECT

private slots:
    // The reference's own trend.db for its monitor run (AdamW, 5 steps, 38 CSVs): every row, tag and mapping equal.
    void referenceMonitorRunRowForRow()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        const Run run = data2db(out, trendData() / "monitor_bench");
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const fs::path ours = out / "monitor_data.trend.db";
        const fs::path reference = trendData() / "monitor_bench_reference.trend.db";
        QCOMPARE(columnNames(ours, "trend_data"), columnNames(reference, "trend_data"));
        QCOMPARE(columnNames(ours, "monitoring_targets"), columnNames(reference, "monitoring_targets"));
        const std::string stats = "t.norm, t.min, t.max, t.zeros, t.nans, t.mean";
        const auto expected = trendRows(reference, stats);
        QCOMPARE(expected.size(), std::size_t(1644));
        QCOMPARE(trendRows(ours, stats), expected);
        QCOMPARE(queryRows(ours, "SELECT metric_name FROM monitoring_metrics"),
            queryRows(reference, "SELECT metric_name FROM monitoring_metrics"));
        QCOMPARE(queryRows(ours, "SELECT target_name, vpp_stage, micro_step FROM monitoring_targets"),
            queryRows(reference, "SELECT target_name, vpp_stage, micro_step FROM monitoring_targets"));
        QCOMPARE(tagMappings(ours), tagMappings(reference));
        QCOMPARE(queryRows(ours, "SELECT min_step, max_step, max_rank FROM global_stats"),
            queryRows(reference, "SELECT min_step, max_step, max_rank FROM global_stats"));
        // One TEXT column per metric listing its statistics; the reference's order is a Python set's.
        auto metricColumns = columnNames(reference, "global_stats");
        metricColumns.erase(metricColumns.begin(), metricColumns.begin() + 3);
        QCOMPARE(columnNames(ours, "global_stats").size(), metricColumns.size() + 3);
        for (const auto& metric : metricColumns) {
            const auto a = queryRows(ours, "SELECT " + metric + " FROM global_stats");
            const auto b = queryRows(reference, "SELECT " + metric + " FROM global_stats");
            QCOMPARE(splitComma(a.at(0)), splitComma(b.at(0)));
        }
    }

    // The worked example of the spec (two ranks, micro steps, clamping of inf / 2e10 / nan, foo_0-1.csv ignored),
    // values as the reference stored them.
    void workedExampleWithMicroSteps()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        const Run run = data2db(out, trendData() / "monitor_input_example");
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const fs::path db = out / "monitor_data.trend.db";
        QCOMPARE(columnNames(db, "trend_data"),
            (std::vector<std::string> { "rank", "step", "target_id", "metric_id", "norm", "min", "max", "nans", "mean" }));
        const auto rows = trendRows(db, "t.norm, t.min, t.max, t.nans, t.mean");
        QCOMPARE(rows.size(), std::size_t(24));
        const std::string in = "module.layers.0.mlp.input|0|0|actv|", outName = "module.layers.0.mlp.output|0|0|actv|";
        const std::string fc1 = "module.layers.0.mlp.linear_fc1.weight|0|0|grad_reduced|";
        const std::string emb = "module.embedding.word_embeddings.weight|0|0|grad_reduced|";
        for (const std::string& expected : {
                 "0|0|" + in + "1.5|-1|2|0|0.10000000000000001",
                 "0|1|" + outName + "1.6000000000000001|-1|2|0|0.10000000000000001",
                 "0|3|" + in + "2.6000000000000001|-1|2|0|0.10000000000000001",
                 "0|0|" + fc1 + "0.5|-1000000001|1000000001|0|NULL", // -inf, inf, nan
                 "0|2|" + fc1 + "1.5|-1000000001|1000000001|0|NULL",
                 "0|0|" + emb + "1000000000|-1|1|0|0", // 2e10 clamped
                 "1|2|" + in + "3.5|-1|2|0|0.10000000000000001",
                 "1|3|" + outName + "3.6000000000000001|-1|2|0|0.10000000000000001",
             })
            QVERIFY2(std::binary_search(rows.begin(), rows.end(), expected), expected.c_str());
        QCOMPARE(queryRows(db, "SELECT min_step, max_step, max_rank, actv, grad_reduced FROM global_stats"),
            (std::vector<std::string> { "0|3|1|norm,min,max,nans,mean|norm,min,max,nans,mean" }));
        QCOMPARE(queryRows(db, "SELECT metric_id, metric_name FROM monitoring_metrics"),
            (std::vector<std::string> { "1|actv", "2|grad_reduced" }));
        const auto tags = queryRows(db,
            "SELECT g.tag_name, g.category, k.metric_name FROM monitoring_tags g JOIN monitoring_metrics k"
            " ON g.metric_id = k.metric_id");
        QCOMPARE(tags,
            (std::vector<std::string> { "embedding|module|grad_reduced", "input|module|actv", "layers.0|layer|actv",
                "layers.0|layer|grad_reduced", "layers|module|actv", "layers|module|grad_reduced", "linear_fc1|module|grad_reduced",
                "mlp|module|actv", "mlp|module|grad_reduced", "module|module|actv", "module|module|grad_reduced",
                "output|module|actv", "weight|module|grad_reduced", "word_embeddings|module|grad_reduced" }));
        QCOMPARE(tagMappings(db).size(), std::size_t(20));
    }

    void withoutMicroStepsAndWithMapping()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        writeFile(out / "mapping.json", "{\"module.layers.0\": \"decoder.0\", \"decoder.0.mlp\": \"decoder.0.ffn\"}");
        const Run run = data2db(out, trendData() / "monitor_input_example",
            { "--micro_step", "False", "--mapping", q((out / "mapping.json").string()) });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const fs::path db = out / "monitor_data.trend.db";
        const auto rows = trendRows(db, "t.norm");
        QCOMPARE(rows.size(), std::size_t(24));
        // Trend step = CSV step, the micro step moves into the target; mappings apply in file order.
        QVERIFY(std::binary_search(rows.begin(), rows.end(), std::string("0|1|decoder.0.ffn.input|0|1|actv|2.6000000000000001")));
        QVERIFY(std::binary_search(rows.begin(), rows.end(), std::string("1|1|decoder.0.ffn.linear_fc1.weight|0|0|grad_reduced|1.5")));
        QCOMPARE(queryRows(db, "SELECT min_step, max_step FROM global_stats"), (std::vector<std::string> { "0|1" }));
    }

    void badInputIsAClearError()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        writeFile(out / "data" / "Xyz99_99-99-99-rank0-abc" / "actv_0-0.csv", "vpp_stage,name,step,norm\n0,a,0,1\n");
        Run run = data2db(out / "db", out / "data");
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("Xyz99_99-99-99-rank0-abc") && run.err.contains("%b%d_%H-%M-%S"), qPrintable(run.err));

        writeFile(out / "empty" / "readme.txt", "nothing here");
        run = data2db(out / "db", out / "empty");
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("no monitor CSV files"), qPrintable(run.err));

        // A micro_step too large to number (it overflowed the step sum before) names its file and row.
        writeFile(out / "huge" / "Dec03_21-34-40-rank0-abcd1234" / "actv_0-0.csv",
            "vpp_stage,name,step,micro_step,norm\n0,a,0,0,1\n0,a,0,9223372036854775807,1\n");
        run = data2db(out / "db", out / "huge");
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("actv_0-0.csv") && run.err.contains("line 3") && run.err.contains("micro_step"),
            qPrintable(run.err));

        run = data2db(out / "db", trendData() / "monitor_input_example", { "--process_num", "0" });
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--process_num"), qPrintable(run.err));
    }

    // Statistic cells follow the dump reader's number grammar (JSON's) plus the non-finite words Python writes:
    // strtod's hex, "nan(...)" and valid prefixes are not numbers; they are reported and stored as NULL.
    void statisticsFollowTheStrictNumberGrammar()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        const std::vector<std::pair<std::string, std::string>> cells = { { "0x10", "NULL" }, { "0X1F", "NULL" },
            { "0x1p3", "NULL" }, { "nan(7)", "NULL" }, { "1e", "NULL" }, { "1_000", "NULL" }, { "16.4abc", "NULL" },
            { "+1", "NULL" }, { ".5", "NULL" }, { "01", "NULL" }, { "1e5", "100000" }, { " -2.5E-1 ", "-0.25" },
            { "inf", "1000000001" }, { "-Infinity", "-1000000001" }, { "NaN", "NULL" }, { "1e400", "1000000001" } };
        std::string csv = "vpp_stage,name,step,norm\n";
        for (std::size_t i = 0; i < cells.size(); ++i)
            csv += "0,w" + std::to_string(i) + ",0," + cells[i].first + "\n";
        const fs::path file = out / "data" / "Dec03_21-34-40-rank0-abcd1234" / "grad_reduced_0-0.csv";
        writeFile(file, csv);
        const Run run = data2db(out / "db", out / "data");
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(q(file.string()) + ": 10 statistic values are not a number, stored as NULL:\n    line 2: norm \"0x10\"\n"
                     "    line 3: norm \"0X1F\"\n    line 4: norm \"0x1p3\"\n    line 5: norm \"nan(7)\"\n    line 6: norm \"1e\"\n"
                     "    ... and 5 more"),
            qPrintable(run.err));
        const auto rows = trendRows(out / "db" / "monitor_data.trend.db", "t.norm");
        QCOMPARE(rows.size(), cells.size());
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const std::string expected = "0|0|w" + std::to_string(i) + "|0|0|grad_reduced|" + cells[i].second;
            QVERIFY2(std::binary_search(rows.begin(), rows.end(), expected), expected.c_str());
        }
    }

    // Step numbers in a file name beyond 64 bits: an error naming the file (std::out_of_range escaped before).
    void hugeStepInFileNameIsAClearError()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        const std::string name = "actv_99999999999999999999-99999999999999999999.csv";
        writeFile(out / "data" / "Dec03_21-34-40-rank0-abcd1234" / name, "vpp_stage,name,step,norm\n0,a,0,1\n");
        const Run run = data2db(out / "db", out / "data");
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QString::fromStdString(name)) && run.err.contains("file name")
                && run.err.contains("beyond the 64-bit integer range"),
            qPrintable(run.err));
        QVERIFY(!fs::exists(out / "db" / "monitor_data.trend.db"));
    }

    // Ctrl-C once the new database is complete under its temporary name: the earlier database stays byte for
    // byte, nothing else is left, exit status 130.
    void interruptedRunLeavesTheEarlierDatabase()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        QCOMPARE(data2db(out / "db", trendData() / "monitor_input_example").exitCode, 0);
        const fs::path db = out / "db" / "monitor_data.trend.db";
        const std::string before = readAll(db);
        const auto run = runCliInterrupted({ "data2db", "--db", q((out / "db").string()), "--data",
                                               q(largeMonitorData(out / "data", 2000).string()) },
            1, SIGINT);
        QVERIFY2(run.held && run.exitedNormally && run.exitCode == 130, qPrintable(run.err));
        QVERIFY2(run.err.contains("no output file was written"), qPrintable(run.err));
        QCOMPARE(namesIn(out / "db"), std::vector<std::string> { "monitor_data.trend.db" });
        QVERIFY(readAll(db) == before);
    }

    // A full disk (here: the file size limit, so writes fail with EFBIG as they would with ENOSPC): exit 1 naming
    // the database, the earlier database untouched, no temporary left; without an earlier one, no file at all
    // (and no folder: the --db folder the run made is removed again).
    void fullDiskLeavesTheEarlierDatabase()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        const fs::path data = largeMonitorData(out / "data", 20000);
        auto limitedRun = [&](const fs::path& dbDir) {
            QProcess process;
            process.start("/bin/bash", { "-c", "ulimit -f 256; trap '' XFSZ; exec \"$0\" data2db --db \"$1\" --data \"$2\"",
                                           QStringLiteral(MSPROBE_CLI_PATH), q(dbDir.string()), q(data.string()) });
            process.waitForFinished(120000);
            return Run { process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
                QString::fromUtf8(process.readAllStandardError()) };
        };
        QCOMPARE(data2db(out / "db", trendData() / "monitor_input_example").exitCode, 0);
        const fs::path db = out / "db" / "monitor_data.trend.db";
        const std::string before = readAll(db);
        Run run = limitedRun(out / "db");
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(q(db.string())) && run.err.contains("left as it was"), qPrintable(run.err));
        QCOMPARE(namesIn(out / "db"), std::vector<std::string> { "monitor_data.trend.db" });
        QVERIFY(readAll(db) == before);

        run = limitedRun(out / "fresh");
        QCOMPARE(run.exitCode, 1);
        QVERIFY(!fs::exists(out / "fresh")); // nothing, not even the folder the run made
        // Without the limit the same data imports (the failure above was the disk, not the data).
        QCOMPARE(data2db(out / "fresh", data).exitCode, 0);
    }

    // Rows that cannot be imported and statistics that are not numbers are reported per file with their lines.
    void skippedRowsAndNonNumericValuesAreReported()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        fs::copy(trendData() / "monitor_input_example", out / "data", fs::copy_options::recursive);
        const fs::path csv = out / "data" / "Dec03_21-34-40-rank0-abcd1234" / "actv_0-1.csv";
        std::string text = readAll(csv);
        const auto lines = std::count(text.begin(), text.end(), '\n');
        text += "0,module.x,abc,0,1,2,3,4,0\n" // step not an integer
                "0,,1,0,1,2,3,4,0\n" // empty name
                ",module.y,1,0,1,2,3,4,0\n" // empty vpp_stage
                "0,module.z,1,0,oops,2,3,nan,0\n"; // non-numeric norm (nan is a number)
        writeFile(csv, text);
        const Run run = data2db(out / "db", out / "data");
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QString file = q(csv.string());
        const QString expected = file + ": 3 rows skipped:\n    line " + QString::number(lines + 1) + ": step \"abc\" is not an integer\n"
            + "    line " + QString::number(lines + 2) + ": name is empty\n    line " + QString::number(lines + 3) + ": vpp_stage is empty\n";
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
        QVERIFY2(run.err.contains(file + ": 1 statistic value is not a number, stored as NULL:\n    line " + QString::number(lines + 4)
                     + ": norm \"oops\""),
            qPrintable(run.err));
        QVERIFY2(run.out.contains("3 rows skipped, 1 non-numeric statistic values stored as NULL"), qPrintable(run.out));
        const auto rows = trendRows(out / "db" / "monitor_data.trend.db", "t.norm, t.mean");
        QCOMPARE(rows.size(), std::size_t(25)); // the example's 24 and module.z
        QVERIFY(std::any_of(rows.begin(), rows.end(), [](const std::string& r) { return r.find("module.z|0|0|actv|NULL|NULL") != std::string::npos; }));
        // The fixtures themselves import without a warning.
        QVERIFY(data2db(out / "db2", trendData() / "monitor_input_example").err.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliData2db)
#include "tst_cli_data2db.moc"
