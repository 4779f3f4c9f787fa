// SPDX-License-Identifier: Apache-2.0
// The dump.json reader against real dumps written by the genuine Python msprobe, every leaf form of the
// spec, and hostile input.
#include "test_util.h"
#include "dump_reader_inputs.h"

#include "dump/dump_json_reader.h"
#include "dump/dump_summary.h"
#include "support/error.h"

#include <cmath>

using namespace msprobe;
using namespace msprobe::test;

namespace {

std::int64_t entryIndex(const dump::DumpFile& dump, std::string_view name)
{
    for (std::size_t i = 0; i < dump.entries.size(); ++i)
        if (dump.entryName(i) == name)
            return static_cast<std::int64_t>(i);
    return -1;
}

// Node of field/index path below an entry body, e.g. {"output", "0"}.
std::uint32_t nodeAt(const dump::DumpFile& dump, std::string_view entry, std::initializer_list<std::string_view> path)
{
    const auto e = entryIndex(dump, entry);
    if (e < 0)
        throw std::runtime_error("no entry " + std::string(entry));
    std::uint32_t node = dump.entries[static_cast<std::size_t>(e)].body;
    for (auto step : path) {
        if (dump.nodes[node].kind == dump::NodeKind::Dict) {
            auto child = dump.childByKey(node, step);
            if (child < 0)
                throw std::runtime_error("no key " + std::string(step));
            node = static_cast<std::uint32_t>(child);
        } else {
            node = dump.children(node).at(std::stoul(std::string(step)));
        }
    }
    return node;
}

dump::DumpFile parseText(const std::string& text)
{
    dump::DumpJsonReader reader;
    return reader.parse(text, "inline.json");
}


} // namespace

class TestDumpReader : public QObject {
    Q_OBJECT

private slots:
    void realStatisticsDump()
    {
        const auto file = onlySubdir(refDumps() / "bench_mix_statistics" / "step0") / "dump.json";
        const dump::DumpFile dump = dump::readDumpJson(file);
        QCOMPARE(dump.task, std::string("statistics"));
        QCOMPARE(dump.level, std::string("mix"));
        QCOMPARE(dump.framework, std::string("pytorch"));
        QVERIFY(dump.dumpDataDir.empty());
        QCOMPARE(dump.entries.size(), std::size_t(186));
        // Insertion order, with the module re-inserted after the API it ran (post-order).
        QCOMPARE(dump.entryName(0), std::string_view("Functional.embedding.0.forward"));
        QCOMPARE(dump.entryName(1), std::string_view("Module.tok_emb.Embedding.forward.0"));
        QCOMPARE(dump.entryName(185), std::string_view("Tensor.add_.37.forward"));
        QCOMPARE(dump.tensors.size(), std::size_t(507));
        QCOMPARE(dump.scalars.size(), std::size_t(60));

        const auto counts = dump::countEntries(dump);
        QCOMPARE(counts.api, std::size_t(110));
        QCOMPARE(counts.module, std::size_t(56));
        QCOMPARE(counts.parametersGrad, std::size_t(20));
        QCOMPARE(counts.backward, std::size_t(64));
        QCOMPARE(counts.tensorsWithNanOrInf, std::size_t(0));

        // Functional.linear.0.forward output 0, exactly as written.
        const auto out = nodeAt(dump, "Functional.linear.0.forward", { "output", "0" });
        QCOMPARE(dump.nodes[out].kind, dump::NodeKind::Tensor);
        const auto row = dump.nodes[out].payload;
        QCOMPARE(dump.text(dump.tensors.dtype[row]), std::string_view("torch.float32"));
        QCOMPARE(std::vector<std::int64_t>(dump.tensors.shape(row).begin(), dump.tensors.shape(row).end()),
            (std::vector<std::int64_t> { 2, 8, 16 }));
        QCOMPARE(dump.tensors.max[row].f, 1.6287082433700562);
        QCOMPARE(dump.tensors.min[row].f, -1.6126511096954346);
        QCOMPARE(dump.tensors.mean[row].f, 0.031654857099056244);
        QCOMPARE(dump.tensors.norm[row].f, 8.960599899291992);
        QCOMPARE(int(dump.tensors.requiresGrad[row]), 1);
        QCOMPARE(dump.tensors.md5[row], support::kNoString);

        // int64 input of the embedding: integer Max/Min, null Mean/Norm.
        const auto ids = nodeAt(dump, "Functional.embedding.0.forward", { "input_args", "0" });
        const auto idRow = dump.nodes[ids].payload;
        QCOMPARE(dump.tensors.max[idRow].kind, dump::StatKind::Int);
        QCOMPARE(dump.tensors.max[idRow].i, std::int64_t(29));
        QCOMPARE(dump.tensors.min[idRow].i, std::int64_t(2));
        QCOMPARE(dump.tensors.mean[idRow].kind, dump::StatKind::Null);
        QCOMPARE(dump.tensors.norm[idRow].kind, dump::StatKind::Null);
        QCOMPARE(int(dump.tensors.requiresGrad[idRow]), 0);
        // Positional None and a float scalar.
        QCOMPARE(dump.nodes[nodeAt(dump, "Functional.embedding.0.forward", { "input_args", "2" })].kind, dump::NodeKind::Null);
        const auto scale = nodeAt(dump, "Functional.embedding.0.forward", { "input_args", "4" });
        QCOMPARE(dump.nodes[scale].kind, dump::NodeKind::Scalar);
        const auto sRow = dump.nodes[scale].payload;
        QCOMPARE(dump.text(dump.scalars.type[sRow]), std::string_view("float"));
        QCOMPARE(dump.text(dump.scalars.text[sRow]), std::string_view("2.0"));
        QCOMPARE(dump.scalars.number[sRow].f, 2.0);

        // parameters_grad entry: param name -> list of one leaf.
        const auto pg = nodeAt(dump, "Module.head.Linear.parameters_grad.0", { "bias", "0" });
        QCOMPARE(dump.tensors.max[dump.nodes[pg].payload].f, 0.047888290137052536);
        const auto& parsed = dump.entries[static_cast<std::size_t>(entryIndex(dump, "Module.head.Linear.parameters_grad.0"))].parsed;
        QCOMPARE(int(parsed.kind), int(dump::EntryKind::ParametersGrad));
        QCOMPARE(parsed.modulePath, std::string_view("head"));
        QCOMPARE(parsed.moduleClass, std::string_view("Linear"));
        QCOMPARE(parsed.callIndex, std::int64_t(0));
    }

    void realMd5TensorAndMultiRankDumps()
    {
        const auto md5 = dump::readDumpJson(onlySubdir(refDumps() / "bench_mix_md5" / "step0") / "dump.json");
        const auto out = nodeAt(md5, "Functional.linear.0.forward", { "output", "0" });
        QCOMPARE(md5.text(md5.tensors.md5[md5.nodes[out].payload]), std::string_view("dc9a5a74"));
        QCOMPARE(int(dump::detectDumpMode(md5)), int(dump::DumpMode::Md5));

        const auto tensor = dump::readDumpJson(onlySubdir(refDumps() / "bench_mix_tensor" / "step0") / "dump.json");
        QCOMPARE(int(dump::detectDumpMode(tensor)), int(dump::DumpMode::Tensor));
        QCOMPARE(tensor.dumpDataDir, std::string("/home/user/msprobe-ref/dumps/bench_mix_tensor/step0/proc14868/dump_tensor_data"));
        const auto tOut = nodeAt(tensor, "Functional.linear.0.forward", { "output", "0" });
        QCOMPARE(tensor.text(tensor.tensors.dataName[tensor.nodes[tOut].payload]),
            std::string_view("Functional.linear.0.forward.output.0.pt"));

        const auto rank1 = dump::readDumpJson(refDumps() / "bench_2rank_mix_statistics" / "step0" / "rank1" / "dump.json");
        QCOMPARE(rank1.entries.size(), std::size_t(262));
        QCOMPARE(int(dump::detectDumpMode(rank1)), int(dump::DumpMode::Statistics));
        const auto allReduceOut = nodeAt(rank1, "Distributed.all_reduce.0.forward", { "output", "0" });
        QCOMPARE(rank1.tensors.norm[rank1.nodes[allReduceOut].payload].f, 0.13123035430908203);
        QCOMPARE(rank1.tensors.mean[rank1.nodes[allReduceOut].payload].f, 2.000888343900442e-11);
    }

    void nonFiniteTokens()
    {
        const auto dump = parseText(wrapEntries(kNonFiniteEntries));
        const auto t = dump.nodes[nodeAt(dump, "Torch.div.0.forward", { "output", "0" })].payload;
        QVERIFY(std::isinf(dump.tensors.max[t].f) && dump.tensors.max[t].f > 0);
        QVERIFY(std::isinf(dump.tensors.min[t].f) && dump.tensors.min[t].f < 0);
        QVERIFY(std::isnan(dump.tensors.mean[t].f));
        QVERIFY(dump::tensorHasNanOrInf(dump.tensors, t));
        const auto s = dump.nodes[nodeAt(dump, "Torch.div.0.forward", { "output", "1" })].payload;
        QCOMPARE(dump.text(dump.scalars.text[s]), std::string_view("nan"));
        const auto s2 = dump.nodes[nodeAt(dump, "Torch.div.0.forward", { "output", "2" })].payload;
        QCOMPARE(dump.text(dump.scalars.text[s2]), std::string_view("-inf"));
        QCOMPARE(dump::countEntries(dump).tensorsWithNanOrInf, std::size_t(1));
    }

    void everyLeafForm()
    {
        const auto dump = parseText(wrapEntries(kLeafFormEntries));
        QCOMPARE(dump.entries.size(), std::size_t(4));
        const char* e = "Tensor.__getitem__.0.forward";
        auto scalarText = [&](std::initializer_list<std::string_view> path) {
            return std::string(dump.text(dump.scalars.text[dump.nodes[nodeAt(dump, e, path)].payload]));
        };
        auto scalarType = [&](std::initializer_list<std::string_view> path) {
            return std::string(dump.text(dump.scalars.type[dump.nodes[nodeAt(dump, e, path)].payload]));
        };
        QCOMPARE(scalarText({ "input_args", "0" }), std::string("[0, None, 2]"));
        QCOMPARE(scalarType({ "input_args", "0" }), std::string("slice"));
        QCOMPARE(scalarText({ "input_args", "1" }), std::string("..."));
        QCOMPARE(scalarText({ "input_args", "2" }), std::string("[2, 3]"));
        QCOMPARE(dump.nodes[nodeAt(dump, e, { "input_args", "3" })].kind, dump::NodeKind::Dict); // positional dtype: {}
        QCOMPARE(dump.nodes[nodeAt(dump, e, { "input_args", "3" })].subtreeSize, 1u);
        QCOMPARE(dump.nodes[nodeAt(dump, e, { "input_args", "4" })].kind, dump::NodeKind::List);
        QCOMPARE(scalarText({ "input_args", "4", "1", "1" }), std::string("True"));
        QCOMPARE(dump.nodes[nodeAt(dump, e, { "input_args", "4", "1", "0" })].kind, dump::NodeKind::Null);
        // memory_format keeps its "format" as an extra, value missing.
        const auto mf = dump.nodes[nodeAt(dump, e, { "input_args", "5" })].payload;
        QCOMPARE(dump.scalars.valueKind[mf], dump::ScalarValueKind::Missing);
        QCOMPARE(dump.extrasOf(dump.scalars.extras[mf]).size(), std::size_t(1));
        QCOMPARE(dump.text(dump.extrasOf(dump.scalars.extras[mf])[0].text), std::string_view("'channels_last'"));
        // bool tensor: Max/Min booleans.
        const auto b = dump.nodes[nodeAt(dump, e, { "input_args", "6" })].payload;
        QCOMPARE(dump.tensors.max[b].kind, dump::StatKind::Bool);
        QCOMPARE(dump.tensors.max[b].b, true);
        QCOMPARE(dump.tensors.min[b].b, false);
        // DTensor: 0-d shape, extras kept in Python repr.
        const auto dt = dump.nodes[nodeAt(dump, e, { "input_args", "7" })].payload;
        QCOMPARE(dump.tensors.shape(dt).size(), std::size_t(0));
        QCOMPARE(dump.text(dump.tensors.dtype[dt]), std::string_view("torch.bfloat16"));
        const auto dtExtras = dump.extrasOf(dump.tensors.extras[dt]);
        QCOMPARE(dtExtras.size(), std::size_t(2));
        QCOMPARE(dump.text(dtExtras[0].text), std::string_view("[[0, 1]]"));
        QCOMPARE(dump.text(dtExtras[1].text), std::string_view("[{'Shard': {'dim': 0}}]"));
        QCOMPARE(scalarText({ "input_args", "8" }), std::string("it's"));
        // ndarray without requires_grad.
        const auto nd = dump.nodes[nodeAt(dump, e, { "input_args", "9" })].payload;
        QCOMPARE(int(dump.tensors.requiresGrad[nd]), -1);
        QCOMPARE(dump.tensors.max[nd].kind, dump::StatKind::Null);
        // kwargs: dtype leaf, ProcessGroup, a kwarg literally named "type", nested dict, big int.
        QCOMPARE(scalarText({ "input_kwargs", "dtype" }), std::string("torch.float32"));
        const auto pgRow = dump.nodes[nodeAt(dump, e, { "input_kwargs", "group" })].payload;
        QCOMPARE(dump.text(dump.extrasOf(dump.scalars.extras[pgRow])[0].text), std::string_view("[0, 1]"));
        QCOMPARE(scalarText({ "input_kwargs", "type" }), std::string("x"));
        QCOMPARE(scalarText({ "input_kwargs", "inner", "a" }), std::string("9007199254740993"));
        // Output list wrapped in a list, md5.
        const auto o = dump.nodes[nodeAt(dump, e, { "output", "0", "0" })].payload;
        QCOMPARE(dump.text(dump.tensors.md5[o]), std::string_view("0000abcd"));
        QCOMPARE(dump.tensors.min[o].i, std::int64_t(-3));
        // Entry-level bool kept as a raw value, not lost.
        QCOMPARE(dump.nodes[nodeAt(dump, e, { "is_recompute" })].kind, dump::NodeKind::Raw);

        // P2POp: the inner tensor's statistics plus op/peer as extras.
        const auto p2p = dump.nodes[nodeAt(dump, "Distributed.batch_isend_irecv.0.forward", { "input_args", "0", "0" })];
        QCOMPARE(p2p.kind, dump::NodeKind::Tensor);
        QCOMPARE(dump.tensors.mean[p2p.payload].f, 0.75);
        bool sawPeer = false;
        for (const auto& extra : dump.extrasOf(dump.tensors.extras[p2p.payload]))
            if (dump.text(extra.key) == "peer")
                sawPeer = dump.text(extra.text) == "1";
        QVERIFY(sawPeer);

        // Legacy parameters_grad name and a module backward entry whose "type" is not the first key.
        QCOMPARE(int(dump.entries[2].parsed.kind), int(dump::EntryKind::ParametersGrad));
        QCOMPARE(dump.entries[2].parsed.callIndex, std::int64_t(-1));
        const auto bwd = dump.nodes[nodeAt(dump, "Module.layer1.0.conv1.Conv2d.backward.3", { "output", "0" })];
        QCOMPARE(bwd.kind, dump::NodeKind::Tensor);
        QCOMPARE(dump.tensors.max[bwd.payload].f, 2e-05);
        QCOMPARE(int(dump.entries[3].parsed.direction), int(dump::Direction::Backward));
        QCOMPARE(dump.entries[3].parsed.modulePath, std::string_view("layer1.0.conv1"));
        QCOMPARE(dump.entries.size(), std::size_t(4));
    }

    void frameworkDefaultsAndDuplicates()
    {
        const auto dump = parseText(kDuplicateDump);
        QCOMPARE(dump.framework, std::string("pytorch"));
        QVERIFY(!dump.frameworkPresent);
        QCOMPARE(dump.entries.size(), std::size_t(2)); // Python's json: first position, last value
        QCOMPARE(dump.entryName(0), std::string_view("Torch.relu.0.forward"));
        const auto v = dump.nodes[nodeAt(dump, "Torch.relu.0.forward", { "output", "0" })].payload;
        QCOMPARE(dump.text(dump.scalars.text[v]), std::string_view("2"));
    }

    void entryNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("direction");
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QString>("apiOrPath");
        QTest::addColumn<QString>("moduleClass");
        auto row = [](const char* n, dump::EntryKind k, dump::Direction d, int i, const char* p, const char* a, const char* c) {
            QTest::newRow(n) << QString::fromUtf8(n) << int(k) << int(d) << i << QString::fromUtf8(p) << QString::fromUtf8(a)
                             << QString::fromUtf8(c);
        };
        row("Functional.relu.3.backward", dump::EntryKind::Api, dump::Direction::Backward, 3, "Functional", "relu", "");
        row("Tensor.__add__.0.forward", dump::EntryKind::Api, dump::Direction::Forward, 0, "Tensor", "__add__", "");
        row("NPU.npu_fusion_attention.12.forward", dump::EntryKind::Api, dump::Direction::Forward, 12, "NPU", "npu_fusion_attention", "");
        row("Module.layer1.0.conv1.Conv2d.forward.0", dump::EntryKind::Module, dump::Direction::Forward, 0, "Module", "layer1.0.conv1", "Conv2d");
        row("Module.a.A.backward.2", dump::EntryKind::Module, dump::Direction::Backward, 2, "Module", "a", "A");
        row("Cell.fc1.Dense.forward.1", dump::EntryKind::Module, dump::Direction::Forward, 1, "Cell", "fc1", "Dense");
        row("Module.fc.Linear.parameters_grad.4", dump::EntryKind::ParametersGrad, dump::Direction::None, 4, "Module", "fc", "Linear");
        row("Module.fc.Linear.parameters_grad", dump::EntryKind::ParametersGrad, dump::Direction::None, -1, "Module", "fc", "Linear");
        row("x_grad.2.debug", dump::EntryKind::Debug, dump::Direction::None, 2, "", "x_grad", "");
        row("garbage", dump::EntryKind::Unknown, dump::Direction::None, -1, "", "", "");
        row("Functional.relu.x.forward", dump::EntryKind::Unknown, dump::Direction::None, -1, "", "", "");
    }

    void entryNames()
    {
        QFETCH(QString, name);
        QFETCH(int, kind);
        QFETCH(int, direction);
        QFETCH(int, index);
        QFETCH(QString, prefix);
        QFETCH(QString, apiOrPath);
        QFETCH(QString, moduleClass);
        const std::string text = name.toStdString();
        const dump::EntryName parsed = dump::parseEntryName(text);
        QCOMPARE(int(parsed.kind), kind);
        QCOMPARE(int(parsed.direction), direction);
        QCOMPARE(parsed.callIndex, std::int64_t(index));
        QCOMPARE(q(parsed.prefix), prefix);
        QCOMPARE(q(parsed.kind == dump::EntryKind::Module || parsed.kind == dump::EntryKind::ParametersGrad ? parsed.modulePath : parsed.api), apiOrPath);
        QCOMPARE(q(parsed.moduleClass), moduleClass);
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        for (const auto& bad : badDumpCases())
            QTest::newRow(bad.name) << QString::fromStdString(bad.text) << QString::fromUtf8(bad.expected);
    }

    void badInput()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        try {
            parseText(text.toStdString());
            QFAIL("no error raised");
        } catch (const support::Error& error) {
            const QString message = QString::fromUtf8(error.what());
            QVERIFY2(message.startsWith(QStringLiteral("inline.json")), qPrintable(message));
            QVERIFY2(message.contains(expected), qPrintable(message));
        }
    }

    // Every prefix of a real file must fail cleanly (an Error naming the file), never crash or succeed
    // silently with fewer entries.
    void everyTruncationOfARealFileFails()
    {
        const auto file = onlySubdir(refDumps() / "bench_mix_statistics" / "step0") / "dump.json";
        std::ifstream in(file, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        dump::DumpJsonReader reader;
        std::size_t checked = 0;
        for (std::size_t length = 0; length + 2 < text.size(); length += 997) {
            try {
                reader.parse(std::string_view(text.data(), length), "cut.json");
                QFAIL(qPrintable(QStringLiteral("a cut at byte %1 was accepted").arg(length)));
            } catch (const support::Error& error) {
                const std::string message = error.what();
                QVERIFY(message.starts_with("cut.json"));
                QVERIFY2(length == 0 || message.find("(truncated file?)") != std::string::npos, message.c_str());
            }
            ++checked;
        }
        QVERIFY(checked > 100);
        QCOMPARE(reader.parse(text, "whole.json").entries.size(), std::size_t(186));
    }

    // A file cut anywhere outside a string says that it ends early, at its last byte.
    void truncatedFileSaysWhereItEnds()
    {
        const auto file = onlySubdir(refDumps() / "bench_mix_statistics" / "step0") / "dump.json";
        std::ifstream in(file, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        // After a comma, a number, an inner "}" and a "[": the cuts a killed writer leaves.
        const std::size_t cuts[] = { text.find(",\n", 5000) + 1, text.find("\"Max\": ") + 8, text.find("}", 9000) + 1,
            text.find("[", 7000) + 1, text.rfind('}') };
        for (const std::size_t length : cuts) {
            try {
                parseText(text.substr(0, length));
                QFAIL("a truncated file was accepted");
            } catch (const support::Error& error) {
                const std::string message = error.what();
                QVERIFY2(message.starts_with("inline.json: byte " + std::to_string(length) + " (line "), message.c_str());
                QVERIFY2(message.ends_with("the file ends early: the top-level object is never closed (truncated file?)"),
                    message.c_str());
            }
        }
        // A complete object followed by more text is not a truncation.
        try {
            parseText(R"({"task": "statistics", "data": {}} [)");
            QFAIL("trailing text was accepted");
        } catch (const support::Error& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("byte 34 (line 1, column 35): unexpected content")),
                error.what());
        }
    }

    // Rows read for the children of an object whose "type" comes late are dropped without disturbing
    // the rows before them, however many such objects a file has.
    // Leaf keys are recognised from their raw bytes; one written with escapes is the same key (json.load),
    // and a key that only starts like a known one ("Maxi", "types") stays an extra.
    void escapedAndNearMissLeafKeys()
    {
        const auto dump = parseText(R"({"task": "statistics", "data": {"Torch.e.0.forward": {"output": [)"
                                    R"({"typ\u0065": "torch.Tensor", "dtyp\u0065": "torch.float32", "shap\u0065": [2],)"
                                    R"( "M\u0061x": 1.5, "Min": -1, "Maxi": 7, "types": "x", "Mea": 2, "requires_gra\u0064": true}]}}})");
        const auto tensor = dump.nodes[nodeAt(dump, "Torch.e.0.forward", { "output", "0" })];
        QCOMPARE(int(tensor.kind), int(dump::NodeKind::Tensor));
        const auto row = tensor.payload;
        QCOMPARE(dump.text(dump.tensors.dtype[row]), std::string_view("torch.float32"));
        QCOMPARE(dump.tensors.max[row].f, 1.5);
        QCOMPARE(dump.tensors.min[row].i, std::int64_t(-1));
        QCOMPARE(int(dump.tensors.requiresGrad[row]), 1);
        QCOMPARE(int(dump.tensors.shapeRank[row]), 1);
        const auto extras = dump.extrasOf(dump.tensors.extras[row]);
        QCOMPARE(extras.size(), std::size_t(3));
        QCOMPARE(dump.text(extras[0].key), std::string_view("Maxi"));
        QCOMPARE(dump.text(extras[1].key), std::string_view("types"));
        QCOMPARE(dump.text(extras[2].key), std::string_view("Mea"));
    }

    void lateTypeKeysRewindTheirRows()
    {
        constexpr int kCount = 20000;
        const auto dump = parseText(wrapEntries(lateTypeEntries(kCount)));
        QCOMPARE(dump.entries.size(), std::size_t(kCount));
        QCOMPARE(dump.tensors.size(), std::size_t(kCount));
        QCOMPARE(dump.scalars.size(), std::size_t(kCount));
        QCOMPARE(dump.tensors.shapePool.size(), std::size_t(2 * kCount));
        QCOMPARE(dump.extras.size(), std::size_t(kCount));
        for (int i = 0; i < kCount; i += 997) {
            const std::string name = "Torch.late." + std::to_string(i) + ".forward";
            const auto tensor = dump.nodes[nodeAt(dump, name, { "output", "0" })];
            QCOMPARE(int(tensor.kind), int(dump::NodeKind::Tensor));
            QCOMPARE(tensor.payload, std::uint32_t(i));
            const auto shape = dump.tensors.shape(tensor.payload);
            QCOMPARE(std::vector<std::int64_t>(shape.begin(), shape.end()), (std::vector<std::int64_t> { i % 7 + 1, 2 }));
            QCOMPARE(dump.tensors.max[tensor.payload].i, std::int64_t(i));
            const auto leaf = dump.nodes[nodeAt(dump, name, { "output", "1" })];
            QCOMPARE(int(leaf.kind), int(dump::NodeKind::Scalar));
            QCOMPARE(dump.text(dump.scalars.text[leaf.payload]), std::string_view(std::to_string(i)));
            const auto extras = dump.extrasOf(dump.scalars.extras[leaf.payload]);
            QCOMPARE(extras.size(), std::size_t(1));
            QCOMPARE(dump.text(extras[0].key), std::string_view("inner"));
            QCOMPARE(dump.text(extras[0].text), std::string_view(kLateTypeInnerRepr));
        }
    }

    void fileErrorsNameTheFile()
    {
        QVERIFY_THROWS_EXCEPTION(support::Error, dump::readDumpJson(dataDir() / "does-not-exist" / "dump.json"));
        try {
            dump::readDumpJson(dataDir());
            QFAIL("a directory was accepted");
        } catch (const support::Error& error) {
            QVERIFY(QString::fromUtf8(error.what()).contains(QStringLiteral("is a directory")));
        }
    }

    void progressAndCancel()
    {
        const auto file = onlySubdir(refDumps() / "bench_mix_statistics" / "step1") / "dump.json";
        std::uint64_t last = 0, total = 0;
        int calls = 0;
        dump::ReadOptions options;
        options.progress = [&](std::uint64_t done, std::uint64_t all) {
            QVERIFY(done >= last);
            last = done;
            total = all;
            ++calls;
        };
        const auto dump = dump::readDumpJson(file, options);
        QVERIFY(calls >= 2);
        QCOMPARE(last, dump.fileSize);
        QCOMPARE(total, dump.fileSize);

        std::atomic<bool> cancel { true };
        dump::ReadOptions cancelled;
        cancelled.cancel = &cancel;
        try {
            dump::readDumpJson(file, cancelled);
            QFAIL("cancel ignored");
        } catch (const support::Error& error) {
            QVERIFY(QString::fromUtf8(error.what()).contains(QStringLiteral("cancelled")));
        }
    }
};

QTEST_APPLESS_MAIN(TestDumpReader)
#include "tst_dump_reader.moc"
