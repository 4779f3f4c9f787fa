// SPDX-License-Identifier: Apache-2.0
// Bad input files: mapping YAML read by a YAML library, only regular files read (FIFOs, devices, /proc refused,
// option files capped), broken construct.json / stack.json reported by info and compare, step and rank
// directories that cannot be followed named, rank folders listed in numeric order.
#include "test_util.h"
#include "cli_runner.h"

#include "compare/mapping_yaml.h"
#include "dump/construct_stack.h"
#include "dump/dump_tree.h"
#include "graph/graph_run.h"
#include "graph/match/layer_mapping.h"
#include "support/error.h"
#include "support/input_file.h"

#include <QTemporaryDir>

#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace msprobe;
using namespace msprobe::test;

namespace {

QString errorOf(const std::function<void()>& action)
{
    try {
        action();
    } catch (const support::Error& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

fs::path samples() { return MSPROBE_SAMPLES; }

// A copy of the sample's step0/rank0 (problem or bench) as DIR/step0/RANK.
fs::path copyRank(const fs::path& dir, const char* side, const std::string& rank = "rank0")
{
    const fs::path to = dir / "step0" / rank;
    fs::create_directories(to);
    for (const char* name : { "dump.json", "construct.json", "stack.json" })
        fs::copy_file(samples() / side / "step0" / "rank0" / name, to / name, fs::copy_options::overwrite_existing);
    return to;
}

void makeFifo(const fs::path& file)
{
    fs::remove(file);
    QCOMPARE(::mkfifo(file.c_str(), 0600), 0);
}

} // namespace

class TestCliInputs : public QObject {
    Q_OBJECT

private slots:
    // Flow style, anchors, aliases and merge keys are YAML; the hand-written parser misread them.
    void mappingYamlIsRealYaml()
    {
        const auto flow = compare::parseFlatYamlMapping("{a.forward: b.forward, 'c d': \"e\"}\n", "flow.yaml");
        QCOMPARE(flow.size(), std::size_t(2));
        QCOMPARE(flow[0].second, std::string("b.forward"));
        QCOMPARE(flow[1].first, std::string("c d"));
        const auto aliases = compare::parseFlatYamlMapping("x: &target Tensor.add.0.forward\ny: *target\n", "alias.yaml");
        QCOMPARE(aliases.size(), std::size_t(2));
        QCOMPARE(aliases[1].second, std::string("Tensor.add.0.forward"));
        const auto merged = compare::parseFlatYamlMapping("<<: &base {p: q, r: s}\nr: t\n", "merge.yaml");
        QCOMPARE(merged.size(), std::size_t(2));
        QCOMPARE(merged[1].second, std::string("t")); // the node's own member wins over the merged one
        QVERIFY(errorOf([] { compare::parseFlatYamlMapping("a: [b\n", "bad.yaml"); }).contains("bad.yaml: line 2"));
        QVERIFY(errorOf([] { compare::parseFlatYamlMapping("a:\n  b: c\n", "nested.yaml"); }).contains("nested.yaml: line 2"));
        QVERIFY(errorOf([] { compare::parseFlatYamlMapping("- a\n- b\n", "list.yaml"); }).contains("must be a mapping"));
        QVERIFY(errorOf([] { compare::parseFlatYamlMapping("# nothing\n", "empty.yaml"); }).contains("no YAML document"));

        QTemporaryDir tmp;
        const fs::path yaml = fs::path(tmp.path().toStdString()) / "layers.yaml";
        writeFile(yaml, "common: &renames {decoder: encoder}\nGPTModel: *renames\nBlock: {attn: attention}\n");
        const auto rules = graph::readLayerMappingYaml(yaml);
        QCOMPARE(rules.size(), std::size_t(3));
        QCOMPARE(rules[1].second.at(0).second, std::string("encoder"));
        QCOMPARE(rules[2].second.at(0).first, std::string("attn"));
        writeFile(yaml, "GPTModel:\n  decoder: [encoder\n");
        QVERIFY(errorOf([&] { graph::readLayerMappingYaml(yaml); }).contains("line 3"));
    }

    // -lm with a malformed file: an error naming the file and line (exit 1), not a warning and exit 0.
    void malformedLayerMappingFails()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "lm.yaml", "GPTModel:\n  decoder: encoder\n bad indent: x\n");
        const Run run = runCli({ "graph_visualize", "-tp", q((samples() / "problem").string()), "-gp",
            q((samples() / "bench").string()), "-o", q((root / "out").string()), "-lm", q((root / "lm.yaml").string()) });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("lm.yaml: line 3"), qPrintable(run.err));
    }

    // Two NPU nodes on one bench node: a warning for -dm (legal there), an error for --mapping-file (pairs are 1:1).
    void twoNpuNodesOnOneBenchNode()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "dm.yaml", "Tensor.add.0.forward.input.0: Tensor.add.0.forward.input.0\n"
                                    "Tensor.add.1.forward.input.0: Tensor.add.0.forward.input.0\n");
        const Run run = runCli({ "compare", "-tp", q((samples() / "problem").string()), "-gp", q((samples() / "bench").string()),
            "-o", q((root / "out").string()), "-dm", q((root / "dm.yaml").string()) });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("'Tensor.add.0.forward.input.0' and 'Tensor.add.1.forward.input.0' both map to"), qPrintable(run.err));

        writeFile(root / "pairs.json", R"({"Module.a.forward.0": "Module.b.forward.0", "Module.c.forward.0": ["x", "Module.b.forward.0"]})");
        const QString error = errorOf([&] { graph::readMappingFile(root / "pairs.json"); });
        QVERIFY2(error.contains("'Module.a.forward.0' and 'Module.c.forward.0' are both mapped onto bench node 'Module.b.forward.0'"),
            qPrintable(error));
    }

    // A FIFO as an option file used to block forever, /dev/zero to grow without bound; /proc files are not run output.
    void onlyRegularOptionFiles()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const fs::path fifo = root / "map.fifo";
        makeFifo(fifo);
        const QString problem = q((samples() / "problem").string()), bench = q((samples() / "bench").string());
        const QString out = q((root / "out").string());
        const QList<QStringList> commands {
            { "compare", "-tp", problem, "-gp", bench, "-o", out, "-dm", q(fifo.string()) },
            { "compare", "-tp", problem, "-gp", bench, "-o", out, "-cm", q(fifo.string()) },
            { "graph_visualize", "-tp", problem, "-gp", bench, "-o", out, "-lm", q(fifo.string()) },
            { "graph_visualize", "-tp", problem, "-gp", bench, "-o", out, "--mapping-file", q(fifo.string()) },
            { "data2db", "--db", out, "--data", q(root.string()), "--mapping", q(fifo.string()) },
            { "compare", "-i", q(fifo.string()), "-o", out },
        };
        for (const auto& args : commands) {
            QProcess process;
            process.start(QStringLiteral(MSPROBE_CLI_PATH), args);
            const bool finished = process.waitForFinished(20000);
            if (!finished)
                process.kill(), process.waitForFinished();
            QVERIFY2(finished, qPrintable(args.join(' ') + " hangs"));
            const QString err = QString::fromUtf8(process.readAllStandardError());
            QCOMPARE(process.exitCode(), 1);
            QVERIFY2(err.contains("map.fifo: is a FIFO (named pipe), not a regular file"), qPrintable(err));
        }
        Run run = runCli({ "compare", "-tp", problem, "-gp", bench, "-o", out, "-dm", "/dev/zero" });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("/dev/zero: is a character device"), qPrintable(run.err));
        run = runCli({ "compare", "-tp", problem, "-gp", bench, "-o", out, "-dm", "/proc/self/status" });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("kernel pseudo-file"), qPrintable(run.err));
        // Over the cap (a sparse file: no disk used).
        const fs::path big = root / "big.yaml";
        writeFile(big, "a: b\n");
        fs::resize_file(big, support::kOptionFileLimit + 1);
        run = runCli({ "compare", "-tp", problem, "-gp", bench, "-o", out, "-dm", q(big.string()) });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("over the 64 MiB limit"), qPrintable(run.err));
        QVERIFY(!fs::exists(root / "out"));
    }

    void permissionDeniedIsNamed()
    {
        if (::geteuid() == 0)
            QSKIP("root reads every file");
        QTemporaryDir tmp;
        const fs::path file = fs::path(tmp.path().toStdString()) / "locked.yaml";
        writeFile(file, "a: b\n");
        fs::permissions(file, fs::perms::none);
        QVERIFY(errorOf([&] { compare::readFlatYamlMapping(file); }).contains("locked.yaml: permission denied"));
    }

    // construct.json / stack.json that are empty, truncated, of the wrong type, FIFOs or devices: info says so
    // (exit 1) instead of summarising as if all were well.
    void infoReportsBrokenSideFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("content"); // "FIFO": a named pipe; "DEVNULL": a link to /dev/null
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty construct") << "construct.json" << "" << "construct.json: the file is empty";
        QTest::newRow("truncated construct") << "construct.json" << "{\"Module.a\": nu" << "construct.json";
        QTest::newRow("list construct") << "construct.json" << "[1, 2]" << "must be a JSON object";
        QTest::newRow("fifo construct") << "construct.json" << "FIFO" << "construct.json: is a FIFO";
        QTest::newRow("empty stack") << "stack.json" << " \n" << "stack.json: the file is empty";
        QTest::newRow("truncated stack") << "stack.json" << "{\"0\": [[\"a\"], [\"b\"" << "stack.json";
        QTest::newRow("string stack") << "stack.json" << "\"frames\"" << "stack.json must be a JSON object";
        QTest::newRow("device stack") << "stack.json" << "DEVNULL" << "stack.json: is a character device";
    }

    void infoReportsBrokenSideFiles()
    {
        QFETCH(QString, file);
        QFETCH(QString, content);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        const fs::path rank = copyRank(tmp.path().toStdString(), "problem");
        const fs::path target = rank / file.toStdString();
        fs::remove(target);
        if (content == "FIFO")
            makeFifo(target);
        else if (content == "DEVNULL")
            fs::create_symlink("/dev/null", target);
        else
            writeFile(target, content.toStdString());
        QProcess process;
        process.start(QStringLiteral(MSPROBE_CLI_PATH), { "info", tmp.path() });
        QVERIFY(process.waitForFinished(20000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QCOMPARE(process.exitCode(), 1);
        QVERIFY2(err.contains(expected), qPrintable(err));
        QVERIFY(QString::fromUtf8(process.readAllStandardOutput()).contains("rank0")); // the summary is still printed
    }

    // A stack.json that is not a regular file was silently taken as "no stacks".
    void compareRefusesBrokenStackJson()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const fs::path npu = copyRank(root / "npu", "problem");
        copyRank(root / "bench", "bench");
        makeFifo(npu / "stack.json");
        QProcess process;
        process.start(QStringLiteral(MSPROBE_CLI_PATH), { "compare", "-tp", q((root / "npu").string()), "-gp",
                                                            q((root / "bench").string()), "-o", q((root / "out").string()) });
        QVERIFY(process.waitForFinished(20000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QCOMPARE(process.exitCode(), 1);
        QVERIFY2(err.contains("stack.json: is a FIFO"), qPrintable(err));
    }

    // Discovery names what it cannot follow, and lists rank folders by number everywhere.
    void discoveryNamesTheCause()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        fs::create_directories(root / "loop");
        fs::create_symlink("step1", root / "loop" / "step0");
        fs::create_symlink("step0", root / "loop" / "step1");
        QVERIFY2(errorOf([&] { dump::discoverDumpTree(root / "loop"); }).contains("step0: is a symbolic link loop"),
            qPrintable(errorOf([&] { dump::discoverDumpTree(root / "loop"); })));
        fs::create_symlink("self", root / "self");
        QVERIFY(errorOf([&] { dump::discoverDumpTree(root / "self"); }).contains("self: is a symbolic link loop"));

        const fs::path rank = copyRank(root / "fifo", "problem");
        makeFifo(rank / "dump.json");
        QVERIFY(errorOf([&] { dump::discoverDumpTree(root / "fifo"); }).contains("dump.json: is a FIFO"));
        QVERIFY(errorOf([&] { dump::discoverDumpTree(rank / "dump.json"); }).contains("is a FIFO (named pipe): neither"));

        for (const char* name : { "rank0", "rank1", "rank10", "rank2" })
            copyRank(root / "ranks", "problem", name);
        const Run run = runCli({ "info", q((root / "ranks").string()) });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("rank dirs: rank0, rank1, rank2, rank10"), qPrintable(run.out));
        QVERIFY(dump::dumpDirLess("rank2", "rank10") && dump::dumpDirLess("rank", "rank0") && !dump::dumpDirLess("step10", "step9"));
    }
};

QTEST_APPLESS_MAIN(TestCliInputs)
#include "tst_cli_inputs.moc"
