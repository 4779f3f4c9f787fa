// SPDX-License-Identifier: Apache-2.0
// Discovery of steps and ranks, construct.json and stack.json in their current and older formats.
#include "test_util.h"

#include "dump/construct_stack.h"
#include "dump/construct_stack_check.h"
#include "dump/dump_tree.h"
#include "support/error.h"

#include <QTemporaryDir>

#include <functional>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

class TestDumpTree : public QObject {
    Q_OBJECT

private slots:
    void realDumpPathAndStepAndRankLevels()
    {
        const auto root = refDumps() / "bench_2rank_mix_statistics";
        const dump::DumpTree all = dump::discoverDumpTree(root);
        QCOMPARE(int(all.kind), int(dump::DumpRootKind::DumpPath));
        QCOMPARE(all.steps.size(), std::size_t(2));
        QCOMPARE(all.steps[1].step.value(), 1);
        QCOMPARE(all.steps[0].ranks.size(), std::size_t(2));
        QCOMPARE(all.steps[0].ranks[1].label, std::string("rank1"));
        QCOMPARE(all.steps[0].ranks[1].rank.value(), 1);
        QCOMPARE(all.steps[0].ranks[1].dumpJson, root / "step0" / "rank1" / "dump.json");

        const dump::DumpTree step = dump::discoverDumpTree(root / "step1");
        QCOMPARE(int(step.kind), int(dump::DumpRootKind::StepDir));
        QCOMPARE(step.steps.size(), std::size_t(1));
        QCOMPARE(step.steps[0].ranks.size(), std::size_t(2));

        const dump::DumpTree rank = dump::discoverDumpTree(root / "step1" / "rank0");
        QCOMPARE(int(rank.kind), int(dump::DumpRootKind::RankDir));
        QCOMPARE(rank.steps[0].ranks[0].label, std::string("rank0"));

        const dump::DumpTree file = dump::discoverDumpTree(root / "step1" / "rank0" / "dump.json");
        QCOMPARE(int(file.kind), int(dump::DumpRootKind::File));
        QCOMPARE(file.steps[0].ranks[0].dumpJson, root / "step1" / "rank0" / "dump.json");

        const dump::DumpTree proc = dump::discoverDumpTree(refDumps() / "bench_mix_statistics" / "step0");
        QVERIFY(proc.steps[0].ranks[0].label.starts_with("proc"));
    }

    void numericOrderAndOddNames()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        for (const char* step : { "step10", "step2", "step0" })
            for (const char* rank : { "rank10", "rank2", "rank", "proc77", "notarank" })
                writeFile(root / step / rank / "dump.json", "{}");
        writeFile(root / "step2x" / "rank0" / "dump.json", "{}"); // not a step directory
        const dump::DumpTree tree = dump::discoverDumpTree(root);
        QCOMPARE(tree.steps.size(), std::size_t(3));
        QCOMPARE(tree.steps[0].label, std::string("step0"));
        QCOMPARE(tree.steps[1].label, std::string("step2"));
        QCOMPARE(tree.steps[2].label, std::string("step10"));
        std::vector<std::string> ranks;
        for (const auto& r : tree.steps[0].ranks)
            ranks.push_back(r.label);
        QCOMPARE(ranks, (std::vector<std::string> { "rank", "rank2", "rank10", "proc77" }));

        writeFile(root / "debugrank" / "debug.json", "{}");
        const dump::DumpTree debug = dump::discoverDumpTree(root / "debugrank");
        QVERIFY(debug.steps[0].ranks[0].isDebug);
    }

    void noDumpIsAClearError()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        fs::create_directories(root / "empty" / "nothing");
        try {
            dump::discoverDumpTree(root / "empty");
            QFAIL("no error");
        } catch (const support::Error& error) {
            QVERIFY(QString::fromUtf8(error.what()).contains(QStringLiteral("no msprobe dump found")));
            QVERIFY(QString::fromUtf8(error.what()).contains(tmp.path()));
        }
        QVERIFY_THROWS_EXCEPTION(support::Error, dump::discoverDumpTree(root / "missing"));
        writeFile(root / "notes.txt", "x");
        QVERIFY_THROWS_EXCEPTION(support::Error, dump::discoverDumpTree(root / "notes.txt"));
    }

    void realConstructAndStack()
    {
        const auto dir = onlySubdir(refDumps() / "bench_mix_statistics" / "step0");
        const dump::ConstructInfo construct = dump::readConstructJson(dir / "construct.json");
        QCOMPARE(construct.nodes.size(), std::size_t(230));
        QCOMPARE(construct.nodes[0].name, std::string("Torch.arange.0.forward"));
        QVERIFY(!construct.nodes[0].parent);
        const auto* emb = construct.find("Functional.embedding.0.forward");
        QVERIFY(emb);
        QCOMPARE(emb->parent.value(), std::string("Module.tok_emb.Embedding.forward.0"));
        QVERIFY(!construct.megatronMicroStepNumber);

        const dump::StackInfo stack = dump::readStackJson(dir / "stack.json");
        QVERIFY(!stack.legacyFormat);
        QCOMPARE(stack.frames.size(), std::size_t(29));
        QCOMPARE(stack.groupOf.size(), std::size_t(102));
        const auto* frames = stack.framesOf("Module.pos_emb.Embedding.forward.0");
        QVERIFY(frames);
        QVERIFY(frames->front().starts_with("File /usr/lib/python3/dist-packages/torch/nn/modules/module.py, line 1772, in inner, \n"));
        QVERIFY(!stack.framesOf("Functional.linear.0.backward"));

        // The prefetching look-up table answers exactly as groupOf does, for every name and for absent ones;
        // a copy (whose table would point into the original) falls back to groupOf.
        dump::StackInfo indexed = stack;
        indexed.buildLookup();
        for (const auto& [name, group] : stack.groupOf)
            QCOMPARE(indexed.framesOf(name, dump::StackInfo::nameHash(name)), &indexed.frames[group]);
        QVERIFY(!indexed.framesOf("Functional.linear.0.backward", dump::StackInfo::nameHash("Functional.linear.0.backward")));
        QVERIFY(!indexed.framesOf("", dump::StackInfo::nameHash("")));
        const dump::StackInfo copy = indexed;
        const std::string someName = stack.groupOf.begin()->first;
        QCOMPARE(copy.framesOf(someName, dump::StackInfo::nameHash(someName)), &copy.frames[stack.groupOf.begin()->second]);
        const dump::StackInfo moved = std::move(indexed); // map nodes move with their addresses: the table stays valid
        QCOMPARE(moved.framesOf(someName, dump::StackInfo::nameHash(someName)), &moved.frames[stack.groupOf.begin()->second]);
    }

    void stackJsonEdgeCases()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        // Numeric group order (not text order): "10" comes after "2", and a name listed twice takes the later group.
        writeFile(root / "order.json", "{\"10\": [[\"n\"], [\"ten\"]], \"2\": [[\"n\", \"m\"], [\"two\"]], \"0\": [[\"z\"], []]}");
        const dump::StackInfo order = dump::readStackJson(root / "order.json");
        QVERIFY(!order.legacyFormat);
        QCOMPARE(order.framesOf("n")->front(), std::string("ten"));
        QCOMPARE(order.framesOf("m")->front(), std::string("two"));
        QCOMPARE(order.framesOf("z")->size(), std::size_t(0));
        // A key given twice keeps its last value, as a JSON object does.
        writeFile(root / "dup.json", "{\"0\": [[\"a\"], [\"first\"]], \"0\": [[\"b\"], [\"second\"]]}");
        const dump::StackInfo dup = dump::readStackJson(root / "dup.json");
        QVERIFY(!dup.framesOf("a"));
        QCOMPARE(dup.framesOf("b")->front(), std::string("second"));
        // Malformed text names the file and says where.
        writeFile(root / "cut.json", "{\"0\": [[\"a\"], [\"fr");
        try {
            dump::readStackJson(root / "cut.json");
            QFAIL("no error");
        } catch (const support::Error& error) {
            const QString message = QString::fromUtf8(error.what());
            QVERIFY2(message.contains(QStringLiteral("cut.json")) && message.contains(QStringLiteral("invalid JSON")), qPrintable(message));
        }
        writeFile(root / "array.json", "[1, 2]");
        QVERIFY_THROWS_EXCEPTION(support::Error, dump::readStackJson(root / "array.json"));
    }

    void olderAndMegatronFormats()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "legacy_stack.json", "{\"Functional.relu.0.forward\": [\"File a.py, line 1, in f, \\n x\"], \"Tensor.add.0.forward\": []}");
        const dump::StackInfo legacy = dump::readStackJson(root / "legacy_stack.json");
        QVERIFY(legacy.legacyFormat);
        QCOMPARE(legacy.framesOf("Functional.relu.0.forward")->size(), std::size_t(1));
        QCOMPARE(legacy.framesOf("Tensor.add.0.forward")->size(), std::size_t(0));

        writeFile(root / "mega.json", "{\"Module.a.A.forward.0\": [null, 0], \"Functional.x.0.forward\": [\"Module.a.A.forward.0\", 1], \"megatron_micro_step_number\": 2}");
        const dump::ConstructInfo mega = dump::readConstructJson(root / "mega.json");
        QCOMPARE(mega.megatronMicroStepNumber.value(), 2);
        QCOMPARE(mega.nodes.size(), std::size_t(2));
        QCOMPARE(mega.nodes[1].parent.value(), std::string("Module.a.A.forward.0"));
        QCOMPARE(mega.nodes[1].microStep.value(), 1);

        writeFile(root / "empty.json", "{}");
        QCOMPARE(dump::readConstructJson(root / "empty.json").nodes.size(), std::size_t(0)); // L1 dumps
        QCOMPARE(dump::readConstructJson(root / "absent.json").nodes.size(), std::size_t(0)); // extra_info false

        writeFile(root / "bad_mega.json", "{\"Module.a.A.forward.0\": [null], \"megatron_micro_step_number\": 2}");
        QVERIFY_THROWS_EXCEPTION(support::Error, dump::readConstructJson(root / "bad_mega.json"));
        writeFile(root / "trunc.json", "{\"Module.a.A.forward.0\": nu");
        try {
            dump::readConstructJson(root / "trunc.json");
            QFAIL("no error");
        } catch (const support::Error& error) {
            const QString message = QString::fromUtf8(error.what());
            QVERIFY2(message.contains(QStringLiteral("trunc.json: byte")), qPrintable(message));
        }
        writeFile(root / "badparent.json", "{\"a\": 5}");
        QVERIFY_THROWS_EXCEPTION(support::Error, dump::readConstructJson(root / "badparent.json"));
        writeFile(root / "badstack.json", "{\"0\": [[\"a\"], [1]]}");
        QVERIFY_THROWS_EXCEPTION(support::Error, dump::readStackJson(root / "badstack.json"));
    }

    // checkConstructJson / checkStackJson (msprobe info) accept what the readers accept and refuse the rest with
    // the readers' message, for every kind of fault, good files (both formats, Megatron, repeated keys) included.
    void checksAgreeWithTheReaders()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const auto outcome = [](const std::function<void()>& run) -> std::string {
            try {
                run();
                return "ok";
            } catch (const support::Error& error) {
                return error.what();
            }
        };
        const std::vector<std::string> constructs = { "{}", "{\"a\": null, \"b\": \"a\", \"b\": null}",
            "{\"Module.a.A.forward.0\": [null, 0], \"Functional.x.0.forward\": [\"Module.a.A.forward.0\", 1], \"megatron_micro_step_number\": 2}",
            "", " \n", "[1, 2]", "{\"a\": 5}", "{\"a\": {}}", "{\"a\": [null]}", "{\"a\": [\"p\", \"x\"]}", "{\"a\": [[1], 0]}",
            "{\"megatron_micro_step_number\": \"2\"}", "{\"a\": nu", "{\"a\": \"b\"} x", "{\"a\": \"\\x\"}" };
        for (std::size_t i = 0; i < constructs.size(); ++i) {
            const fs::path file = root / ("construct" + std::to_string(i) + ".json");
            writeFile(file, constructs[i]);
            const std::string read = outcome([&] { (void)dump::readConstructJson(file); });
            QCOMPARE(outcome([&] { dump::checkConstructJson(file); }), read);
        }
        const std::vector<std::string> stacks = { "{}", "{\"0\": [[\"a\", \"b\"], [\"f1\", \"f2\"]], \"1\": [[\"c\"], []]}",
            "{\"Functional.relu.0.forward\": [\"File a.py\"], \"Tensor.add.0.forward\": []}", "", "[1]", "{\"0\": [[\"a\"], [1]]}",
            "{\"0\": [[\"a\"], [\"f\"]], \"1\": [\"x\"]}", "{\"0\": [[1], [\"f\"]]}", "{\"x\": [1]}", "{\"0\": [[\"a\"], [\"fr",
            "{\"0\": [[\"a\"], [\"f\"]], \"2\": 5, \"10\": [[], 7]}" };
        for (std::size_t i = 0; i < stacks.size(); ++i) {
            const fs::path file = root / ("stack" + std::to_string(i) + ".json");
            writeFile(file, stacks[i]);
            const std::string read = outcome([&] { (void)dump::readStackJson(file); });
            QCOMPARE(outcome([&] { dump::checkStackJson(file); }), read);
        }
        QCOMPARE(outcome([&] { dump::checkConstructJson(root / "absent.json"); }), std::string("ok"));
        QCOMPARE(outcome([&] { dump::checkStackJson(root / "absent.json"); }), std::string("ok"));
    }
};

QTEST_APPLESS_MAIN(TestDumpTree)
#include "tst_dump_tree.moc"
