// SPDX-License-Identifier: Apache-2.0
// Reading vis.db files (ours and the reference's), explaining colours, collapsed-module summaries, picture
// export, and the graph_visualize command line (manual pairs, --svg, progress lines, usage errors).
#include "tst_graph_inputs.h"

#include "graph/model/graph_builder.h"
#include "graph/visdb/db_image_writer.h"
#include "graph/layout/graph_export.h"
#include "graph/match/graph_match.h"
#include "graph/model/graph_passes.h"
#include "graph/pair_writer.h"
#include "support/sqlite_util.h"
#include "graph/visdb/vis_db_writer.h"
#include "graph/layout/layout_service.h"
#include "graph/model/graph_labels.h"
#include "graph/graph_run.h"
#include "graph/visdb/precision_explain.h"
#include "graph/visdb/vis_db_reader.h"
#include "support/error.h"

#include <QProcess>
#include <QTemporaryDir>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>

using namespace msprobe;
using namespace msprobe::test;
using namespace msprobe::graph;
namespace fs = std::filesystem;

class TestGraphVisDb : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    fs::path m_db;

    fs::path tmp(const std::string& name) const { return fs::path(m_tmp.path().toStdString()) / name; }
    // No unfinished database (a hidden temporary named after `name`) is left in the folder.
    bool noTemporaryOf(const std::string& name) const
    {
        for (const auto& item : fs::directory_iterator(m_tmp.path().toStdString()))
            if (item.path().filename().string().rfind("." + name, 0) == 0)
                return false;
        return true;
    }

    static QString runCli(const QStringList& args, int* exitCode, QString* err = nullptr)
    {
        QProcess process;
        process.start(QStringLiteral(MSPROBE_CLI_PATH), args);
        process.waitForFinished(120000);
        *exitCode = process.exitCode();
        if (err)
            *err = QString::fromUtf8(process.readAllStandardError());
        return QString::fromUtf8(process.readAllStandardOutput());
    }

private slots:
    void initTestCase()
    {
        GraphRunOptions options;
        options.target = graphData() / "synthetic" / "npu";
        options.golden = graphData() / "synthetic" / "bench";
        options.output = tmp("golden");
        options.overflowCheck = true;
        m_db = runGraphVisualize(options).database;
    }

    void readsOursAndTheReferences()
    {
        VisDb db(m_db);
        QVERIFY(db.config().isCompare());
        QCOMPARE(db.config().ranks, (std::vector<int> { 0, 1 }));
        QCOMPARE(db.graphs().size(), std::size_t(4));
        const VisGraph npu = db.load(0, 0, "NPU");
        QCOMPARE(npu.nodes.size(), std::size_t(20));
        QCOMPARE(npu.nodes[npu.root()].name, std::string("DefaultModel"));
        QCOMPARE(npu.nodes[npu.root()].children.size(), std::size_t(3));
        const auto relu = npu.find("Torch.relu.0.backward");
        QCOMPARE(npu.nodes[relu].overflow, std::string("critical"));
        QCOMPARE(db.stackFrames(npu.nodes[relu].stackId).size(), std::size_t(1));
        QCOMPARE(displayLabel(npu, npu.find("Module.model.fc1.Linear.forward.0")), std::string("fc1.Linear.forward.0"));
        QCOMPARE(shortLabel("Module.layer4.0.BasicBlock.forward.0", 0, false), std::string("layer4.0.BasicBlock.forward.0"));
        QCOMPARE(shortLabel("Functional.linear.0.forward", 1, false), std::string("linear.0.forward"));

        const fs::path reference = gunzipTo(onlyGz(refOutputs() / "compare_problem_vs_bench_statistics_step0"), tmp(""));
        VisDb ref(reference);
        QCOMPARE(ref.config().task, std::string("summary"));
        QCOMPARE(ref.load(0, 0, "Bench").nodes.size(), std::size_t(252));
        QCOMPARE(ref.rowCount("tb_stack"), std::size_t(60));

        writeFile(tmp("not.vis.db"), "hello");
        try {
            VisDb bad(tmp("not.vis.db"));
            QFAIL("no error");
        } catch (const support::Error& error) {
            QVERIFY(QString::fromUtf8(error.what()).contains("not.vis.db"));
        }
    }

    // The database is built in memory and written in one piece; past its memory budget it continues on disk.
    // Either way the file holds the same rows in the same order (NPU rows first although the bench rows are
    // written while the NPU side is compared) and is marked WAL, as the reference leaves its files.
    void inMemoryOnDiskAndMovedDatabasesAreEqual()
    {
        const fs::path rank0 = graphData() / "synthetic";
        auto write = [&](const std::string& name, std::int64_t budget, std::size_t threads = 0) {
            Graph npu = buildGraph(rank0 / "npu" / "step0" / "rank0");
            Graph bench = buildGraph(rank0 / "bench" / "step0" / "rank0");
            bench.dataSource = "Bench";
            matchGraphs(npu, bench, {});
            pageByMicroStep(npu, &bench);
            const fs::path file = tmp(name);
            VisDbWriter writer(file, budget);
            const bool startedInMemory = writer.inMemory();
            GraphCompareOptions compare;
            compare.threads = threads;
            compareAndWritePair(writer, npu, bench, compare, 0, 0, {});
            const bool endedInMemory = writer.inMemory();
            writer.writeConfig({});
            writer.finish(false, false);
            return std::make_tuple(file, startedInMemory, endedInMemory && noTemporaryOf(name));
        };
        const auto [memory, memoryStart, memoryEnd] = write("memory.vis.db", -1);
        QVERIFY(memoryStart && memoryEnd);
        const auto [disk, diskStart, diskEnd] = write("disk.vis.db", 0);
        QVERIFY(!diskStart && !diskEnd);
        // The empty schema takes three 64 kB pages: the budget is passed after the first side's rows.
        const auto [moved, movedStart, movedEnd] = write("moved.vis.db", 3 * 65536 + 1);
        QVERIFY(movedStart && !movedEnd);
        QVERIFY(noTemporaryOf("moved.vis.db"));

        const std::string all = "SELECT rowid, * FROM tb_nodes ORDER BY rowid";
        const auto rows = readRows(memory, all);
        QCOMPARE(rows.size(), std::size_t(40));
        QCOMPARE(rows[19].at("data_source"), std::string("NPU")); // the 20 NPU nodes, then the bench's
        QCOMPARE(rows[19].at("node_name"), std::string("DefaultModel"));
        QCOMPARE(rows[20].at("data_source"), std::string("Bench"));
        QCOMPARE(rows.front().at("data_source"), std::string("NPU"));
        QCOMPARE(rows.front().at("rowid"), std::string("1"));
        QCOMPARE(rows.back().at("data_source"), std::string("Bench"));
        QCOMPARE(rows.back().at("rowid"), std::to_string(rows.size()));
        QVERIFY(rows == readRows(disk, all));
        QVERIFY(rows == readRows(moved, all));
        // One compare thread: the writer waits for each chunk instead of racing ahead, same rows.
        QVERIFY(rows == readRows(std::get<0>(write("one_thread.vis.db", -1, 1)), all));
        QVERIFY(readRows(memory, "SELECT * FROM tb_stack ORDER BY id") == readRows(disk, "SELECT * FROM tb_stack ORDER BY id"));
        QCOMPARE(readRows(memory, "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'index%'").size(), std::size_t(7));
        // A raised cancel flag stops the pair with "cancelled" and leaves no file.
        {
            Graph npu = buildGraph(rank0 / "npu" / "step0" / "rank0");
            Graph bench = buildGraph(rank0 / "bench" / "step0" / "rank0");
            matchGraphs(npu, bench, {});
            std::atomic<bool> cancel { true };
            GraphCompareOptions compare;
            compare.cancel = &cancel;
            {
                VisDbWriter writer(tmp("cancelled.vis.db"));
                QVERIFY_THROWS_EXCEPTION(support::Error, compareAndWritePair(writer, npu, bench, compare, 0, 0, {}));
            }
            QVERIFY(!fs::exists(tmp("cancelled.vis.db")));
            QVERIFY(noTemporaryOf("cancelled.vis.db"));
            // The same on disk from the start (memory budget 0): the unfinished file goes.
            {
                VisDbWriter writer(tmp("cancelled_disk.vis.db"), 0);
                QVERIFY(!noTemporaryOf("cancelled_disk.vis.db"));
                QVERIFY_THROWS_EXCEPTION(support::Error, compareAndWritePair(writer, npu, bench, compare, 0, 0, {}));
            }
            QVERIFY(!fs::exists(tmp("cancelled_disk.vis.db")));
            QVERIFY(noTemporaryOf("cancelled_disk.vis.db"));
        }
        for (const fs::path& file : { memory, disk, moved }) {
            support::SqliteDb db(file, false);
            support::SqliteStatement mode(db, "PRAGMA journal_mode");
            QVERIFY(mode.step());
            QCOMPARE(std::string(mode.columnText(0)), std::string("wal"));
            // The in-memory file is written while its indexes are built: every page must still agree.
            support::SqliteStatement integrity(db, "PRAGMA integrity_check");
            QVERIFY(integrity.step());
            QCOMPARE(std::string(integrity.columnText(0)), std::string("ok"));
        }
    }

    // The early part of an image goes to disk while the rest is built; finish() writes what was added, rewrites
    // the chunk that changed after its early write and marks the header WAL. On disk (O_DIRECT straight from the
    // image) and on tmpfs (where O_DIRECT is refused).
    void imageWrittenEarlyIsCheckedAgainstTheFinalOne()
    {
        std::string word(8, 'x');
        QCOMPARE(imageChunkHash(word), imageChunkHash(std::string(8, 'x')));
        word[3] ^= 1;
        QVERIFY(imageChunkHash(word) != imageChunkHash(std::string(8, 'x')));
        std::string swapped = std::string(32, 'a') + std::string(32, 'b');
        const std::uint64_t before = imageChunkHash(swapped);
        std::swap_ranges(swapped.begin(), swapped.begin() + 32, swapped.begin() + 32);
        QVERIFY(imageChunkHash(swapped) != before);

        constexpr std::size_t kEarly = (33u << 20) + (5u << 16), kFinal = (48u << 20) + (3u << 16);
        std::vector<fs::path> folders { tmp("") };
        if (fs::is_directory("/dev/shm"))
            folders.push_back("/dev/shm");
        for (const fs::path& folder : folders) {
            struct Free {
                void operator()(char* p) const { std::free(p); }
            };
            std::unique_ptr<char, Free> buffer(static_cast<char*>(std::aligned_alloc(4096, kFinal)));
            QVERIFY(buffer);
            std::mt19937_64 rng(11);
            for (std::size_t i = 0; i < kFinal; i += 8) {
                const std::uint64_t value = rng();
                std::memcpy(buffer.get() + i, &value, 8);
            }
            const fs::path file = folder / "early_image_test.db";
            fs::remove(file);
            std::size_t rewritten = 0;
            {
                DbImageWriter writer(file);
                writer.writeEarly(std::string_view(buffer.get(), kEarly));
                writer.waitForEarlyWrite();
                buffer.get()[(20u << 20) + 7] ^= 0x5a; // the second early chunk changes afterwards
                buffer.get()[40] ^= 0x5a;              // so does the header page, always written last
                QVERIFY(!fs::exists(file));
                writer.finish(std::string_view(buffer.get(), kFinal));
                rewritten = writer.rewrittenChunks();
            }
            QCOMPARE(rewritten, std::size_t(1));
            std::string expected(buffer.get(), kFinal);
            expected[18] = expected[19] = 2;
            std::ifstream in(file, std::ios::binary);
            const std::string written { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
            QCOMPARE(written.size(), expected.size());
            QVERIFY2(written == expected, folder.c_str());
            fs::remove(file);
        }
    }

    // Every node can say which metric, value and limit set its colour.
    void explainsLevels()
    {
        VisDb db(m_db);
        const VisGraph npu = db.load(0, 0, "NPU", true);
        auto explain = [&](const char* name) {
            const auto n = npu.find(name);
            return explainNode(npu, n, db.config().task, npu.nodes[n].inputData, npu.nodes[n].outputData);
        };
        const Explanation linear = explain("Functional.linear.1.forward");
        QCOMPARE(int(linear.level), int(PrecisionLevel::Error));
        QCOMPARE(linear.reasons.size(), std::size_t(2));
        QCOMPARE(linear.reasons[0].metric, std::string("NormRelativeErr"));
        QCOMPARE(linear.reasons[0].value, std::string("55.555556%"));
        QCOMPARE(linear.reasons[0].item, std::string("Functional.linear.1.forward.output.0"));
        QVERIFY(q(linear.reasons[0].threshold).contains("50%"));
        QCOMPARE(int(linear.reasons[1].level), int(PrecisionLevel::Warning));
        QVERIFY(q(linear.summary).startsWith("error: NormRelativeErr"));

        const Explanation relu = explain("Torch.relu.0.backward");
        QCOMPARE(relu.reasons.at(0).metric, std::string("Max/Min"));
        QCOMPARE(relu.reasons.at(0).value, std::string("inf / -1.0"));
        QCOMPARE(relu.overflow.size(), std::size_t(1));

        QCOMPARE(int(explain("Tensor.mul.0.forward").level), int(PrecisionLevel::Unmatched));
        QCOMPARE(int(explain("DefaultModel").level), int(PrecisionLevel::NoData));
        const Explanation passing = explain("Torch.relu.0.forward");
        QCOMPARE(int(passing.level), int(PrecisionLevel::Pass));
        QVERIFY(passing.reasons.empty());
        const Explanation collection = explain("Apis_Between_Modules.0");
        QCOMPARE(collection.reasons.size(), std::size_t(1));
    }

    // A collapsed module shows the worst level and the count of bad nodes below it; its own value stays.
    void collapsedModulesSummariseTheirSubtree()
    {
        VisDb db(m_db);
        const VisGraph npu = db.load(0, 0, "NPU");
        const auto summary = summarizeSubtrees(npu);
        const auto net = npu.find("Module.model.Net.forward.0");
        QCOMPARE(summary[net].errors, std::size_t(2)); // fc2 and linear.1 below it
        QCOMPARE(int(summary[net].worst), int(PrecisionLevel::Error));
        QCOMPARE(npu.nodes[net].precision, 1.0);
        const auto backward = npu.find("Module.model.Net.backward.0");
        QCOMPARE(summary[backward].errors, std::size_t(1)); // relu.0.backward
        const auto root = npu.root();
        QCOMPARE(summary[root].unmatched, std::size_t(1)); // Tensor.mul (the collection is not counted)
        QCOMPARE(summary[root].errors, std::size_t(4));
    }

    void exportsPictures()
    {
        const fs::path svg = tmp("diff.svg");
        exportVisDbPicture(m_db, svg, PictureFormat::Svg);
        std::ifstream in(svg);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        QVERIFY(text.starts_with("<svg"));
        QVERIFY(text.find("<title>Functional.linear.1.forward</title>") != std::string::npos); // expanded to the problem
        QVERIFY(text.find("#FF704D") != std::string::npos);
        QVERIFY(text.find("<title>Tensor.mul.0.forward</title>") == std::string::npos); // its collection stays collapsed
        PictureOptions all;
        all.expandAll = true;
        exportVisDbPicture(m_db, svg, PictureFormat::Svg, all);
        std::ifstream again(svg);
        const std::string full((std::istreambuf_iterator<char>(again)), {});
        QVERIFY(full.find("<title>Tensor.mul.0.forward</title>") != std::string::npos);
        QVERIFY(full.find("#C7C7C7") != std::string::npos); // the unmatched Tensor.mul / Tensor.add

        // PNG goes through Graphviz's renderer plugins: where they exist (libgvc6, listed in .ci/packages.txt)
        // the file is a real PNG as wide as both sides; where they do not, the error says what is missing.
        const fs::path png = tmp("diff.png");
        std::string devices;
        if (!pngExportAvailable(&devices)) {
            try {
                exportVisDbPicture(m_db, png, PictureFormat::Png);
                QFAIL("PNG export succeeded although Graphviz lists no png device");
            } catch (const support::Error& error) {
                QVERIFY(std::string(error.what()).find("libgvc6") != std::string::npos);
            }
            return;
        }
        QVERIFY(devices.find("svg") != std::string::npos);
        exportVisDbPicture(m_db, png, PictureFormat::Png);
        std::ifstream pngIn(png, std::ios::binary);
        unsigned char header[24] = {};
        pngIn.read(reinterpret_cast<char*>(header), sizeof header);
        QCOMPARE(std::string(reinterpret_cast<char*>(header) + 1, 3), std::string("PNG"));
        QCOMPARE(std::string(reinterpret_cast<char*>(header) + 12, 4), std::string("IHDR"));
        const auto bigEndian = [&](int at) {
            return (std::uint32_t(header[at]) << 24) | (std::uint32_t(header[at + 1]) << 16) | (std::uint32_t(header[at + 2]) << 8)
                | header[at + 3];
        };
        // Both sides of the compare DB are drawn next to each other: far wider than one collapsed node box.
        QVERIFY(bigEndian(16) > 200);
        QVERIFY(bigEndian(20) > 20);
    }

    // Without -progress_log every stage is a line on stderr, the percentages never go back.
    void cliReportsStages()
    {
        int code = 0;
        QString err;
        runCli({ "graph_visualize", "-tp", q((graphData() / "synthetic" / "npu").string()), "-gp",
                   q((graphData() / "synthetic" / "bench").string()), "-o", q(tmp("stages").string()) },
            &code, &err);
        QVERIFY2(code == 0, qPrintable(err));
        for (const char* stage : { "step 0 rank 0: building", "step 0 rank 0: matching", "step 0 rank 0: comparing and writing",
                 "step 0 rank 1: comparing and writing", "creating indexes", "matching communication across ranks", "100% done" })
            QVERIFY2(err.contains(QString::fromUtf8(stage)), stage);
        int last = -1;
        for (const QString& line : err.split('\n', Qt::SkipEmptyParts)) {
            if (!line.startsWith("[Graph]"))
                continue;
            const int percent = line.mid(7).trimmed().section('%', 0, 0).toInt();
            QVERIFY2(percent >= last, qPrintable(line));
            last = percent;
        }
        QCOMPARE(last, 100);
    }

    // A pair made by hand in the desktop app is reproduced headless through --mapping-file.
    void cliReproducesManualPairs()
    {
        const fs::path mapping = tmp("pairs.vis.config");
        writeFile(mapping, "{\"Tensor.mul.0.forward\": \"Tensor.add.0.forward\"}");
        int code = 0;
        QString err;
        const QString out = runCli({ "graph_visualize", "-tp", q((graphData() / "synthetic" / "npu").string()), "-gp",
                                       q((graphData() / "synthetic" / "bench").string()), "-o", q(tmp("manual").string()), "--mapping-file",
                                       q(mapping.string()), "--svg", "-progress_log" },
            &code, &err);
        QVERIFY2(code == 0, qPrintable(err));
        QVERIFY(out.contains("PROGRESS: {\"current_progress\": 100, \"process_running\": false, \"error_msg\": []}"));
        const fs::path db = onlyVisDb(tmp("manual"));
        // The picture was drawn from the database without leaving SQLite's -wal/-shm files beside it.
        QVERIFY(!fs::exists(db.string() + "-wal") && !fs::exists(db.string() + "-shm"));
        const auto rows = readRows(db, "SELECT data_source, matched_node_link, modified, precision_index FROM tb_nodes WHERE rank = 0 AND "
                                       "node_name IN ('Tensor.mul.0.forward', 'Tensor.add.0.forward') ORDER BY data_source DESC");
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(q(rows[0].at("matched_node_link")), QStringLiteral("[\"DefaultModel\", \"Apis_Between_Modules.0\", \"Tensor.add.0.forward\"]"));
        QCOMPARE(q(rows[0].at("modified")), QStringLiteral("1"));
        QCOMPARE(q(rows[0].at("precision_index")), QStringLiteral("1")); // output 1.0 vs 2.5
        QCOMPARE(q(rows[1].at("matched_node_link")), QStringLiteral("[\"DefaultModel\", \"Apis_Between_Modules.0\", \"Tensor.mul.0.forward\"]"));
        QVERIFY(fs::exists(db.parent_path() / (db.stem().stem().string() + ".svg")));

        // What the desktop app saves after matching by hand is what the CLI reads back.
        VisDb vis(db);
        const auto pairs = manualPairsOf(vis.load(0, 0, "NPU"));
        QCOMPARE(pairs.size(), std::size_t(1));
        QCOMPARE(pairs[0].npu, std::string("Tensor.mul.0.forward"));
        QCOMPARE(pairs[0].bench.value(), std::string("Tensor.add.0.forward"));
        const fs::path config = visConfigPath(db, 0, 0);
        QCOMPARE(config.filename().string(), db.stem().stem().string() + "_0_0.vis.config");
        writeMappingFile(config, pairs);
        QCOMPARE(readMappingFile(config).at(0).bench.value(), std::string("Tensor.add.0.forward"));
    }

    // The layout job of an expanded group, cached under its expansion state.
    void groupLayoutJobs()
    {
        VisDb db(m_db);
        const VisGraph npu = db.load(0, 0, "NPU");
        const auto net = npu.find("Module.model.Net.forward.0");
        const auto request = groupLayoutRequest(npu, net, [&](std::uint32_t child) { return collapsedNodeSize(npu, child); });
        QCOMPARE(request.nodes.size(), std::size_t(3));
        QCOMPARE(request.edges.size(), std::size_t(2));
        std::unordered_set<std::uint32_t> expanded;
        const auto collapsed = expansionKey(npu, net, expanded);
        expanded.insert(npu.find("Module.model.fc2.Linear.forward.0"));
        QVERIFY(expansionKey(npu, net, expanded) != collapsed);
        QCOMPARE(expansionKey(npu, npu.find("Module.model.Net.backward.0"), expanded), collapsed); // not below it
        layout::LayoutService service;
        const auto result = service.layout({ "NPU/0/0/Module.model.Net.forward.0", collapsed }, request);
        QCOMPARE(result->boxes.size(), std::size_t(3));
    }

    void cliReportsBadInput()
    {
        int code = 0;
        QString err;
        runCli({ "graph_visualize", "-o", q(tmp("x").string()) }, &code, &err);
        QCOMPARE(code, 2);
        QVERIFY(err.contains("-tp/--target_path"));
        runCli({ "graph_visualize", "-tp", q(tmp("x").string()), "-o", q(tmp("x").string()), "--rank_size", "2" }, &code, &err);
        QCOMPARE(code, 2);
        fs::create_directories(tmp("l1") / "rank0");
        writeFile(tmp("l1") / "rank0" / "construct.json", "{}");
        writeFile(tmp("l1") / "rank0" / "dump.json", "{\"task\": \"statistics\", \"level\": \"L1\", \"data\": {}}");
        writeFile(tmp("l1") / "rank0" / "stack.json", "{}");
        runCli({ "graph_visualize", "-tp", q(tmp("l1").string()), "-o", q(tmp("l1out").string()) }, &code, &err);
        QCOMPARE(code, 1);
        QVERIFY2(err.contains("construct.json") && err.contains("L0 or mix"), qPrintable(err));
        QVERIFY(!fs::exists(tmp("l1out")) || onlyVisDb(tmp("l1out")).empty()); // no half-written database left
        // Parallel merge: --rank_size must equal the number of rank folders (one here).
        runCli({ "graph_visualize", "-tp", q(tmp("l1").string()), "-o", q(tmp("pm").string()), "--rank_size", "2", "--tp", "2", "--pp",
                   "1" },
            &code, &err);
        QCOMPARE(code, 1);
        QVERIFY2(err.contains("--rank_size is 2 but the dump has 1 rank folder"), qPrintable(err));
        runCli({ "graph_visualize", "-tp", q(tmp("l1").string()), "-gp", q(tmp("l1").string()), "-o", q(tmp("pm").string()),
                   "--rank_size", "1", "--tp", "1", "--pp", "1" },
            &code, &err);
        QCOMPARE(code, 2);
        QVERIFY2(err.contains("two values"), qPrintable(err));
    }

    // A file that is no database, or a database cut short: the message names the file and what SQLite says,
    // not the first 60 characters of the statement it failed on.
    void unreadableDatabaseSaysWhy()
    {
        const fs::path garbage = tmp("garbage.vis.db");
        writeFile(garbage, std::string(4096, 'x'));
        std::ifstream whole(m_db, std::ios::binary);
        std::string head(8192, '\0');
        whole.read(head.data(), static_cast<std::streamsize>(head.size()));
        const fs::path truncated = tmp("truncated.vis.db");
        writeFile(truncated, head);
        for (const auto& [file, why] : { std::pair { garbage, "file is not a database" }, std::pair { truncated, "malformed" } }) {
            try {
                VisDb db(file);
                QFAIL("an unreadable vis.db was opened");
            } catch (const support::Error& error) {
                const std::string text = error.what();
                QVERIFY2(text.starts_with(file.string() + ": not a vis.db file: SQLite: ") && text.find(why) != std::string::npos,
                    text.c_str());
                QVERIFY2(text.find("SELECT") == std::string::npos, text.c_str());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestGraphVisDb)
#include "tst_graph_visdb.moc"
