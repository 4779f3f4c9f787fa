// SPDX-License-Identifier: Apache-2.0
// The msprobe executable: info on the bundled samples and on bad input, help and version.
#include "test_util.h"
#include "cli_runner.h"

#include <QProcess>
#include <QTemporaryDir>

using namespace msprobe::test;


class TestCliInfo : public QObject {
    Q_OBJECT

private slots:
    void infoOnSamplePair()
    {
        const QString problem = QStringLiteral(MSPROBE_SAMPLES "/problem");
        const QString bench = QStringLiteral(MSPROBE_SAMPLES "/bench");
        const Run run = runCli({ QStringLiteral("info"), problem, bench });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(QStringLiteral("task: statistics   level: mix   framework: pytorch")), qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("steps: 2 (step0, step1)")));
        // step0/rank0: 186 entries, 110 api, 56 module, 64 backward, 20 parameters_grad, 507 tensors, 0 NaN/Inf.
        QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral("step0\\s+rank0\\s+186\\s+110\\s+56\\s+64\\s+20\\s+507\\s+0 "))),
            qPrintable(run.out));
        QVERIFY(run.out.contains(QRegularExpression(QStringLiteral("step1\\s+rank0\\s+<->\\s+rank0\\s+mode statistics\\s+entries 262 / 262, 262 with the same name"))));
        QVERIFY(run.out.contains(QStringLiteral("ready to compare: 2 rank pair(s)")));
    }

    void infoReportsNanAndInf()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        writeFile(dir / "step0" / "rank0" / "dump.json",
            R"({"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {"Torch.log.0.forward": {"input_args": [], "input_kwargs": {}, "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": Infinity, "Min": NaN, "Mean": NaN, "Norm": NaN, "requires_grad": false}]}}})");
        const Run run = runCli({ QStringLiteral("info"), tmp.path() });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(QStringLiteral("Torch.log.0.forward: output.0")), qPrintable(run.out));
    }

    void badInputExitsNonZeroNamingTheFile()
    {
        QTemporaryDir tmp;
        const std::filesystem::path dir = tmp.path().toStdString();
        writeFile(dir / "rank0" / "dump.json", R"({"task": "statistics", "data": {"Torch.a.0.forward": {"output": [{"type": "torch.Tensor", "dtype": 5}]}}})");
        const Run run = runCli({ QStringLiteral("info"), tmp.path() + QStringLiteral("/rank0") });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(tmp.path() + QStringLiteral("/rank0/dump.json: byte ")), qPrintable(run.err));
        QVERIFY(run.err.contains(QStringLiteral("entry 'Torch.a.0.forward'")));
        QVERIFY(run.err.contains(QStringLiteral("\"dtype\" must be a string")));

        const Run missing = runCli({ QStringLiteral("info"), tmp.path() + QStringLiteral("/nope") });
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains(QStringLiteral("no such file or directory")));
    }

    void helpVersionAndUsage()
    {
        QCOMPARE(runCli({ QStringLiteral("--help") }).exitCode, 0);
        QVERIFY(runCli({ QStringLiteral("--version") }).out.startsWith(QStringLiteral("msprobe ")));
        QVERIFY(runCli({ QStringLiteral("info"), QStringLiteral("-h") }).out.contains(QStringLiteral("usage: msprobe info")));
        QCOMPARE(runCli({ QStringLiteral("frobnicate") }).exitCode, 2);
        QCOMPARE(runCli({ QStringLiteral("info") }).exitCode, 2);
        QCOMPARE(runCli({ QStringLiteral("info"), QStringLiteral("--bogus") }).exitCode, 2);
    }
};

QTEST_APPLESS_MAIN(TestCliInfo)
#include "tst_cli_info.moc"
