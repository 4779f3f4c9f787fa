// SPDX-License-Identifier: Apache-2.0
// msprobe data2db for dump folders: dump_data.trend.db checked row for row against the databases the reference
// tool wrote (a proc-directory dump, a 2-rank dump, and the synthetic dump of the golden files with micro steps
// on and off), plus the naming rules of spec §3.3 on hand-made names.
#include "cli_runner.h"
#include "dump/construct_stack.h"
#include "sqlite_rows.h"
#include "support/sqlite_util.h"
#include "test_util.h"
#include "trend/construct_names_reader.h"
#include "trend/dump_rank_rows.h"
#include "trend/trend_db.h"
#include "trend/trend_tags.h"

#include <QTemporaryDir>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

// Rows handed to TrendDbWriter::addRows from a plain list.
class ListedRows final : public trend::TrendRowSource {
public:
    struct Listed {
        std::int64_t rank, step, target, metric;
        std::vector<std::optional<double>> values;
    };
    explicit ListedRows(std::vector<Listed> rows) : m_rows(std::move(rows)) { }
    std::size_t rowCount() const override { return m_rows.size(); }
    Row row(std::size_t k) const override
    {
        const auto& r = m_rows[k];
        return { r.rank, r.step, r.target, r.metric, r.values };
    }

private:
    std::vector<Listed> m_rows;
};

fs::path trendData() { return dataDir() / "trend"; }

std::string number(double value)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

// Trend rows with target and metric ids resolved to names (ids are opaque: the reference leaves gaps).
std::vector<std::string> trendRows(const fs::path& db)
{
    return queryRows(db,
        "SELECT t.rank, t.step, m.target_name, m.vpp_stage, m.micro_step, k.metric_name, t.norm, t.max, t.min, t.mean"
        " FROM trend_data t JOIN monitoring_targets m ON t.target_id = m.target_id"
        " JOIN monitoring_metrics k ON t.metric_id = k.metric_id");
}

std::vector<std::string> tagMappings(const fs::path& db)
{
    return queryRows(db,
        "SELECT g.tag_name, g.category, k.metric_name, m.target_name, m.micro_step FROM tag_target_mapping p"
        " JOIN monitoring_tags g ON p.tag_id = g.tag_id JOIN monitoring_targets m ON p.target_id = m.target_id"
        " JOIN monitoring_metrics k ON g.metric_id = k.metric_id");
}

// The schema, white space collapsed.
std::vector<std::string> schema(const fs::path& db)
{
    auto rows = queryRows(db, "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%'");
    for (auto& row : rows)
        row = std::regex_replace(row, std::regex(R"(\s+)"), " ");
    return rows;
}

Run data2db(const fs::path& db, const fs::path& data, const QStringList& extra = {})
{
    return runCli(QStringList { "data2db", "--db", q(db.string()), "--data", q(data.string()) } + extra);
}

void compareWithReference(const fs::path& ours, const fs::path& reference, std::size_t rows)
{
    QCOMPARE(schema(ours), schema(reference));
    const auto expected = trendRows(reference);
    QCOMPARE(expected.size(), rows);
    QCOMPARE(trendRows(ours), expected);
    QCOMPARE(queryRows(ours, "SELECT metric_id, metric_name FROM monitoring_metrics"),
        queryRows(reference, "SELECT metric_id, metric_name FROM monitoring_metrics"));
    QCOMPARE(queryRows(ours, "SELECT target_name, vpp_stage, micro_step FROM monitoring_targets"),
        queryRows(reference, "SELECT target_name, vpp_stage, micro_step FROM monitoring_targets"));
    QCOMPARE(queryRows(ours, "SELECT tag_name, category, metric_id FROM monitoring_tags"),
        queryRows(reference, "SELECT tag_name, category, metric_id FROM monitoring_tags"));
    QCOMPARE(tagMappings(ours), tagMappings(reference));
    QCOMPARE(queryRows(ours, "SELECT * FROM global_stats"), queryRows(reference, "SELECT * FROM global_stats"));
}

// The golden text dump of a trend.db (Python reprs): its trend rows, tags and global_stats in our row format.
struct GoldenDb {
    std::vector<std::string> rows, tags;
    std::string globalStats;
};

GoldenDb readGolden(const fs::path& file)
{
    std::ifstream in(file);
    std::map<std::string, std::string> targets; // id -> "name|vpp|micro"
    const std::vector<std::string> metrics = { "", "forward", "backward", "recompute", "parameters_grad" };
    static const std::regex target(R"('target_id': (\d+), 'target_name': '([^']*)', 'vpp_stage': (\d+), 'micro_step': (\d+))");
    static const std::regex tag(R"('tag_name': '([^']*)', 'category': '([^']*)', 'metric_id': (\d+))");
    static const std::regex row(R"(^   \((\d+), (\d+), (\d+), (\d+), ([^,]+), ([^,]+), ([^,]+), ([^)]+)\))");
    static const std::regex stats(R"('max_rank': (\d+), 'min_step': (\d+), 'max_step': (\d+), 'forward': '([^']*)', 'backward': '([^']*)', 'recompute': '([^']*)', 'parameters_grad': '([^']*)')");
    GoldenDb golden;
    auto value = [](const std::string& text) { return text == "None" ? std::string("NULL") : number(std::stod(text)); };
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_search(line, m, target))
            targets[m[1]] = m[2].str() + "|" + m[3].str() + "|" + m[4].str();
        else if (std::regex_search(line, m, tag))
            golden.tags.push_back(m[1].str() + "|" + m[2].str() + "|" + m[3].str());
        else if (std::regex_search(line, m, row))
            golden.rows.push_back(m[1].str() + "|" + m[2].str() + "|" + targets.at(m[3]) + "|"
                + metrics.at(std::stoul(m[4])) + "|" + value(m[5]) + "|" + value(m[6]) + "|" + value(m[7]) + "|" + value(m[8]));
        else if (line.starts_with("global_stats:") && std::regex_search(line, m, stats))
            golden.globalStats = m[1].str() + "|" + m[2].str() + "|" + m[3].str() + "|" + m[4].str() + "|" + m[5].str()
                + "|" + m[6].str() + "|" + m[7].str();
    }
    std::sort(golden.rows.begin(), golden.rows.end());
    std::sort(golden.tags.begin(), golden.tags.end());
    return golden;
}

std::vector<std::string> tagNames(const std::vector<trend::TrendTag>& tags)
{
    std::vector<std::string> names;
    for (const auto& tag : tags)
        names.push_back(tag.category + ":" + tag.name);
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

class TestCliData2dbDump : public QObject {
    Q_OBJECT

private slots:
    // The reference's trend.db for its single-process dump (step{0,1}/proc14851, --format auto): 7 micro steps per
    // step (the optimizer root counts), call indices re-based, parameter grads and top-level APIs left out.
    void referenceProcDumpRowForRow()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        const Run run = data2db(out, refDumps() / "bench_mix_statistics");
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(!fs::exists(out / "monitor_data.trend.db"));
        compareWithReference(out / "dump_data.trend.db", trendData() / "dump_bench_mix_statistics_reference.trend.db", 1022);
        QVERIFY2(run.out.contains("steps 0-13"), qPrintable(run.out));
    }

    // Two ranks, --format dump; read by two workers (the rows do not depend on the worker count).
    void referenceTwoRankDumpRowForRow()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        const Run run = data2db(out, refDumps() / "bench_2rank_mix_statistics", { "--format", "dump", "--process_num", "2" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        compareWithReference(
            out / "dump_data.trend.db", trendData() / "dump_bench_2rank_mix_statistics_reference.trend.db", 2044);
    }

    // The golden dumps of the synthetic dump: inf -> 1e9 + 1, micro steps on (top-level APIs and parameter grads
    // dropped) and off (all kept, step = the step directory's number).
    void goldenSyntheticDump_data()
    {
        QTest::addColumn<QString>("microStep");
        QTest::addColumn<QString>("golden");
        QTest::addColumn<int>("rows");
        QTest::newRow("micro steps") << "true" << "trend_db_ms_dump_data.trend.txt" << 128;
        QTest::newRow("no micro steps") << "false" << "trend_db_nms_dump_data.trend.txt" << 172;
    }
    void goldenSyntheticDump()
    {
        QFETCH(QString, microStep);
        QFETCH(QString, golden);
        QFETCH(int, rows);
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        const Run run = data2db(out, trendData() / "synthetic_dump", { "--format", "dump", "--micro_step", microStep });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const fs::path db = out / "dump_data.trend.db";
        const GoldenDb expected = readGolden(trendData() / golden.toStdString());
        QCOMPARE(expected.rows.size(), std::size_t(rows));
        QCOMPARE(trendRows(db), expected.rows);
        QCOMPARE(queryRows(db, "SELECT tag_name, category, metric_id FROM monitoring_tags"), expected.tags);
        QCOMPARE(queryRows(db,
                     "SELECT max_rank, min_step, max_step, forward, backward, recompute, parameters_grad FROM global_stats"),
            std::vector<std::string> { expected.globalStats });
    }

    // --mapping rewrites names before they are classified; the tags follow the mapped name.
    void mappingRenamesTargets()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        writeFile(out / "map.json", R"({"fc1": "first", "model.first": "net.first"})");
        const Run run = data2db(out, trendData() / "synthetic_dump",
            { "--format", "dump", "--mapping", q((out / "map.json").string()), "--micro_step", "false" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto names = queryRows(out / "dump_data.trend.db", "SELECT DISTINCT target_name FROM monitoring_targets");
        QVERIFY(std::find(names.begin(), names.end(), "Module.net.first.Linear.weight") != names.end());
        for (const auto& name : names)
            QVERIFY2(name.find("fc1") == std::string::npos, name.c_str());
        const auto tags = queryRows(out / "dump_data.trend.db", "SELECT DISTINCT tag_name FROM monitoring_tags");
        QVERIFY(std::find(tags.begin(), tags.end(), "net.first") != tags.end());
    }

    void l1DumpIsRefusedWithTheReason()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        writeFile(out / "in" / "step0" / "rank0" / "dump.json",
            R"({"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {}})");
        const Run run = data2db(out / "db", out / "in", { "--format", "dump" });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("dump.json") && run.err.contains("L1") && run.err.contains("construct.json")
                && run.err.contains("L0 or mix"),
            qPrintable(run.err));
        QVERIFY(!fs::exists(out / "db" / "dump_data.trend.db"));
    }

    void folderWithoutStepsIsAClearError()
    {
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        fs::create_directories(out / "in" / "misc");
        const Run run = data2db(out / "db", out / "in", { "--format", "dump" });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(q((out / "in").string())), qPrintable(run.err));
    }

    // The worked examples of spec §3.3.
    // Rows of one rank come out in key order (micro step, target, metric) with the first of two rows of one key
    // kept, as the reference keeps it (a later row of the key, e.g. two names mapped onto one, is dropped).
    void repeatedKeysKeepTheFirst()
    {
        using trend::DumpMetric;
        trend::RankRows rows;
        auto add = [&](std::int64_t micro, std::uint32_t target, DumpMetric metric, double value) {
            rows.rows.push_back({ target, metric, micro, { value, value, value, value } });
        };
        add(1, 0, DumpMetric::Forward, 1);
        add(0, 1, DumpMetric::Forward, 2);
        add(0, 1, DumpMetric::Forward, 3); // the key of the row before: dropped
        add(0, 0, DumpMetric::Backward, 4);
        add(0, 0, DumpMetric::Forward, 5);
        add(1, 0, DumpMetric::Forward, 6); // the key of the first row: dropped
        trend::sortRankRows(rows);
        QCOMPARE(rows.repeatedRows, std::size_t(2));
        std::vector<double> order;
        for (const auto& row : rows.rows)
            order.push_back(*row.values[0]);
        QCOMPARE(order, (std::vector<double> { 5, 4, 2, 1 }));

        // Rows already in key order: a repeated key is dropped, the rest keep their places; a longer cycle of
        // moves (every row one place on) ends with each row where its key puts it.
        rows = {};
        add(0, 0, DumpMetric::Forward, 1);
        add(0, 0, DumpMetric::Forward, 2); // dropped
        add(0, 1, DumpMetric::Forward, 3);
        add(2, 0, DumpMetric::Forward, 4);
        trend::sortRankRows(rows);
        order.clear();
        for (const auto& row : rows.rows)
            order.push_back(*row.values[0]);
        QCOMPARE(order, (std::vector<double> { 1, 3, 4 }));
        QCOMPARE(rows.repeatedRows, std::size_t(1));
        rows = {};
        for (std::int64_t micro : { 5000, 4, 0, 1, 2, 3 }) // 5000: a key of more than one sorting digit
            add(micro, 0, DumpMetric::Forward, static_cast<double>(micro));
        trend::sortRankRows(rows);
        order.clear();
        for (const auto& row : rows.rows)
            order.push_back(*row.values[0]);
        QCOMPARE(order, (std::vector<double> { 0, 1, 2, 3, 4, 5000 }));
        QCOMPARE(rows.repeatedRows, std::size_t(0));
    }

    // Batches SQLite reads through the row feed: values as given (nullopt and values past the span's end are
    // NULL), a repeated key ignored where allowed (the first wins) and an error where not, which leaves the file
    // written before as it was.
    void rowFeedBatches()
    {
        QTemporaryDir tmp;
        const fs::path file = fs::path(tmp.path().toStdString()) / "dump_data.trend.db";
        const std::vector<std::string> expected { "0|0|1|1|1.5|2.5|3.5|4.5", "0|0|2|1|NULL|-2.25|NULL|NULL",
            "0|3|1|2|0.125|NULL|1000000001|-1000000000", "1|0|1|1|7.5|7.5|7.5|7.5" };
        {
            trend::TrendDbWriter writer(file, trend::dumpStatColumns());
            QCOMPARE(writer.metricId("forward"), std::int64_t(1));
            QCOMPARE(writer.metricId("backward"), std::int64_t(2));
            QCOMPARE(writer.targetId("a.input.0", 0, 0), std::int64_t(1));
            QCOMPARE(writer.targetId("b.input.0", 0, 0), std::int64_t(2));
            writer.addRows(ListedRows({ { 0, 0, 1, 1, { 1.5, 2.5, 3.5, 4.5 } }, { 0, 0, 2, 1, { std::nullopt, -2.25 } } }), false);
            writer.addRows(ListedRows(std::vector<ListedRows::Listed> {}), false);
            writer.addRows(ListedRows({ { 0, 0, 1, 1, { 9.5, 9.5, 9.5, 9.5 } }, { 1, 0, 1, 1, { 7.5, 7.5, 7.5, 7.5 } },
                               { 0, 3, 1, 2, { 0.125, std::nullopt, 1e9 + 1, -1e9 } } }),
                true);
            writer.finish();
        }
        QCOMPARE(queryRows(file, "SELECT * FROM trend_data"), expected);
        {
            trend::TrendDbWriter writer(file, trend::dumpStatColumns());
            writer.addRows(ListedRows({ { 0, 0, 1, 1, { 1.0 } } }), false);
            QVERIFY_THROWS_EXCEPTION(support::Error, writer.addRows(ListedRows({ { 0, 0, 1, 1, { 2.0 } } }), false));
        }
        QCOMPARE(queryRows(file, "SELECT * FROM trend_data"), expected);
        QCOMPARE(std::distance(fs::directory_iterator(file.parent_path()), fs::directory_iterator()), std::ptrdiff_t(1));
    }

    // The import's construct.json reading gives the names and parents dump::readConstructJson gives, for the
    // files it reads itself and those it hands over (Megatron lists, repeated names), and its errors.
    void constructNamesMatchTheFullReader()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        auto listed = [](const trend::ConstructNames& names) {
            std::vector<std::string> out;
            for (std::size_t i = 0; i < names.names.size(); ++i)
                out.push_back(std::string(names.names[i]) + " <- " + std::string(names.parents[i].value_or("(none)")));
            return out;
        };
        const std::vector<std::pair<std::string, std::string>> files = {
            { "plain", R"({"Module.a.forward.0": null, "Tensor.add.0.forward": "Module.a.forward.0", "Torch.x.0.forward": null})" },
            { "megatron", R"({"Module.a.forward.0": [null, 0], "Tensor.add.0.forward": ["Module.a.forward.0", 1], "megatron_micro_step_number": 2})" },
            { "repeated", R"({"Module.a.forward.0": null, "Tensor.add.0.forward": null, "Module.a.forward.0": "Tensor.add.0.forward"})" },
            { "escaped", "{\"Module.\\u0061.forward.0\": null, \"T.\\\"q\\\".0.forward\": \"Module.a.forward.0\"}" },
        };
        trend::ConstructNamesReader reader;
        for (const auto& [name, text] : files) {
            const fs::path file = dir / (name + ".json");
            std::ofstream(file) << text;
            const auto expected = listed(trend::constructNamesOf(dump::readConstructJson(file)));
            QVERIFY2(!expected.empty(), name.c_str());
            QCOMPARE(listed(reader.read(file)), expected);
            for (const auto& node : reader.read(file).names)
                QCOMPARE(reader.index().find(node).has_value(), true);
            QCOMPARE(reader.microSteps(), trend::microStepsOf(dump::readConstructJson(file)));
        }
        QVERIFY(reader.read(dir / "missing.json").names.empty());
        // Another rank's copy of the bytes read last keeps the names; other bytes of the same length do not,
        // and neither does a missing file between two copies.
        std::ofstream(dir / "copy.json") << files.front().second;
        std::string swapped = files.front().second;
        std::swap(swapped[9], swapped[10]); // "Module.a.forward.0" becomes "Module..aforward.0"
        std::ofstream(dir / "same_length.json") << swapped;
        const auto plain = listed(trend::constructNamesOf(dump::readConstructJson(dir / "plain.json")));
        const auto other = listed(trend::constructNamesOf(dump::readConstructJson(dir / "same_length.json")));
        QVERIFY(plain != other);
        // The micro steps kept with the names follow them: worked out again whenever the names change.
        const auto plainMicro = trend::microStepsOf(dump::readConstructJson(dir / "plain.json"));
        const auto otherMicro = trend::microStepsOf(dump::readConstructJson(dir / "same_length.json"));
        QVERIFY(plainMicro != otherMicro);
        for (const char* name : { "plain.json", "copy.json", "same_length.json", "copy.json", "missing.json", "plain.json" }) {
            const auto& names = reader.read(dir / name);
            if (std::string_view(name) == "missing.json") {
                QVERIFY(names.names.empty());
                QVERIFY(reader.microSteps().empty());
                continue;
            }
            QCOMPARE(reader.microSteps(), std::string_view(name) == "same_length.json" ? otherMicro : plainMicro);
            QCOMPARE(listed(names), std::string_view(name) == "same_length.json" ? other : plain);
            for (const auto& node : names.names)
                QVERIFY(reader.index().find(node).has_value());
        }
        std::ofstream(dir / "broken.json") << R"({"Module.a.forward.0": nul)";
        try {
            reader.read(dir / "broken.json");
            QFAIL("a malformed construct.json was read");
        } catch (const support::Error& error) {
            QVERIFY2(std::string(error.what()).find("broken.json") != std::string::npos, error.what());
        }
    }

    // A node or parent named with ".backward" / ".parameters_grad" (once, twice, both, at the end or inside) is
    // read as the ".forward" twin: the micro step of the node that name gives.
    void microStepsReadMarkersAsForward()
    {
        dump::ConstructInfo construct;
        auto add = [&](std::string name, std::optional<std::string> parent) {
            construct.nodes.push_back({ std::move(name), std::move(parent), std::nullopt });
        };
        add("Module.a.forward.0", std::nullopt); // root 0
        add("Module.b.forward.0", std::nullopt); // root 1
        add("Module.b.forward.0.x.forward.1", "Module.b.backward.0");
        add("Tensor.t.0.forward", "Module.a.parameters_grad.0");
        add("Tensor.u.0.forward", "Module.b.backward.0.x.parameters_grad.1");
        add("Module.b.backward.0.x.backward.1", "Module.a.forward.0"); // its twin's root, not its parent's
        add("Tensor.v.0.backward", std::nullopt); // twin missing: no root
        add("Tensor.w.0.forward", "Module.a.backwardX.0"); // not a marker: no such node
        add("Module.c.backward.0", std::nullopt); // ".backward" root-like: never a root
        add("Tensor.z.0.forward", "Module.c.parameters_grad.backward.0");
        add("Module.c.forward.forward.0", std::nullopt); // root 2
        for (std::size_t i = 0; i < construct.nodes.size(); ++i)
            construct.indexOf[construct.nodes[i].name] = i;
        const std::vector<std::int64_t> expected = { 0, 1, 1, 0, 1, 1, -1, -1, -1, 2, 2 };
        QCOMPARE(trend::microStepsOf(construct), expected);
    }

    void namingRules()
    {
        auto classify = [](const std::string& key, bool recompute = false) {
            const auto c = trend::classifyDumpKey(key, recompute);
            return c ? trend::dumpMetricNames()[static_cast<std::size_t>(c->metric)] + " " + c->prefix + " "
                    + std::to_string(c->callIndex)
                     : std::string("skip");
        };
        QCOMPARE(classify("Module.model.fc1.Linear.forward.0"), std::string("forward Module.model.fc1.Linear 0"));
        QCOMPARE(classify("Module.model.fc1.Linear.forward.0", true), std::string("recompute Module.model.fc1.Linear 0"));
        QCOMPARE(classify("Functional.linear.1.forward"), std::string("forward Functional.linear 1"));
        QCOMPARE(classify("Module.model.Net.backward.0"), std::string("backward Module.model.Net 0"));
        QCOMPARE(classify("Module.model.fc1.Linear.parameters_grad.0"), std::string("parameters_grad Module.model.fc1.Linear 0"));
        QCOMPARE(classify("Module.model.fc1.Linear.parameters_grad"), std::string("parameters_grad Module.model.fc1.Linear 0"));
        QCOMPARE(classify("Functional.linear.0.debug"), std::string("skip"));
        // Markers at the very start or end of the key, repeated, or cut short.
        QCOMPARE(classify(".forward"), std::string("forward  0"));
        QCOMPARE(classify("a.forward.forward.1"), std::string("forward a 1"));
        QCOMPARE(classify("x.backward."), std::string("backward x. 0"));
        QCOMPARE(classify("Module.m.backward"), std::string("backward Module.m 0"));
        QCOMPARE(classify("p.parameters_grad.parameters_grad"), std::string("parameters_grad p 0"));
        QCOMPARE(classify("Module.m.backwar"), std::string("skip"));

        QCOMPARE(tagNames(trend::dumpTags("Module.module.language_model.encoder.layers.0.mlp.ParallelMlp.input.0")),
            (std::vector<std::string> { "default:Module", "index:input.0", "layer:layers.0", "module:mlp.ParallelMlp",
                "module:module.language_model.encoder" }));
        QCOMPARE(tagNames(trend::dumpTags("Module.blocks.3.layer.1.conv2.Conv2d.input.2")),
            (std::vector<std::string> { "default:Module", "index:input.2", "layer:blocks.3", "layer:layer.1", "module:conv2.Conv2d" }));
        QCOMPARE(tagNames(trend::dumpTags("Module.layers.0.1.fc.Linear.output.0")),
            (std::vector<std::string> { "default:Module", "index:output.0", "layer:layers.0", "module:fc.Linear" }));
        QCOMPARE(tagNames(trend::dumpTags("Module.model.fc1.Linear.weight")),
            (std::vector<std::string> { "default:Module", "index:Linear.weight", "module:model.fc1" }));
        QCOMPARE(tagNames(trend::dumpTags("Functional.linear.input.0")),
            (std::vector<std::string> { "function:Functional.linear", "index:input.0" }));
        QVERIFY(trend::dumpTags("Module.input.0").empty());
        QVERIFY(trend::dumpTags("linear.input").empty());

        // Call indices re-based per micro step and group.
        const std::vector<std::pair<std::string_view, std::int64_t>> keys = { { "Functional.linear.5.forward", 1 },
            { "Functional.linear.3.forward", 1 }, { "Functional.linear.7.forward", 2 }, { "Module.a.Linear.forward.4", 1 },
            { "Module.a.Linear.backward.9", 1 } };
        QCOMPARE(trend::rebaseCallIndices(keys),
            (std::vector<std::string> { "Functional.linear.1.forward", "Functional.linear.0.forward",
                "Functional.linear.0.forward", "Module.a.Linear.forward.0", "Module.a.Linear.backward.0" }));
    }
};

QTEST_GUILESS_MAIN(TestCliData2dbDump)
#include "tst_cli_data2db_dump.moc"
