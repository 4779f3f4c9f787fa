// SPDX-License-Identifier: Apache-2.0
// The .pt files the capture library writes, loaded the way Python's torch.load loads them: python3's zipfile +
// pickle with stand-ins for torch's classes (tests/scripts/pt_stand_in_load.py; Python torch is not installed
// here). The same loader reads a .pt written by the genuine Python msprobe first, so it is known to follow the real
// format; then our files must give back dtype, shape, strides and every value.
// libtorch before Qt: Qt's "slots" macro breaks libtorch's headers.
#ifndef Q_MOC_RUN // moc needs nothing of libtorch, and parsing it cost moc 8 CPU-seconds per test
#include <torch/torch.h>

#include "capture/tensor_io.h"
#endif
#include "dump/tensor_file.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include <QProcess>
#include <QTemporaryDir>

#include <fstream>

namespace fs = std::filesystem;

namespace {

const char* kScript = MSPROBE_TEST_DATA "/../scripts/pt_stand_in_load.py";

bool havePython()
{
    QProcess probe;
    probe.start(QStringLiteral("python3"), { QStringLiteral("--version") });
    return probe.waitForFinished(10000) && probe.exitCode() == 0;
}

// The stand-in loader's view of the file, or a null json with the failure in `error`.
nlohmann::json standInLoad(const fs::path& file, QString& error)
{
    QProcess python;
    python.start(QStringLiteral("python3"), { QString::fromUtf8(kScript), QString::fromStdString(file.string()) });
    if (!python.waitForFinished(60000) || python.exitCode() != 0) {
        error = QString::fromUtf8(python.readAllStandardError());
        return {};
    }
    return nlohmann::json::parse(python.readAllStandardOutput().toStdString());
}

void writeBytes(const fs::path& file, const std::string& bytes)
{
    std::ofstream(file, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

} // namespace

class TestCapturePtPython : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!havePython())
            QSKIP("python3 is not installed: the torch.load-style check needs it");
    }

    // The loader against a file the genuine Python msprobe saved: same values as our reader finds.
    void loaderReadsGenuineFiles()
    {
        const fs::path genuine = msprobe::test::dataDir() / "tensor" / "Functional.gelu.0.forward.output.0.pt";
        QString error;
        const auto loaded = standInLoad(genuine, error);
        QVERIFY2(!loaded.is_null(), qPrintable(error));
        const msprobe::dump::TensorData ours = msprobe::dump::readTensorFile(genuine);
        QCOMPARE(loaded["dtype"].get<std::string>(), std::string("float32"));
        QCOMPARE(loaded["shape"].get<std::vector<std::int64_t>>(), ours.shape);
        QCOMPARE(loaded["values"].get<std::vector<double>>(), ours.values);
    }

    void capturedFilesLoadAsTorchWouldLoadThem()
    {
        QTemporaryDir dir;
        torch::manual_seed(3);
        const at::Tensor base = torch::randn({ 4, 6 });
        struct Case {
            const char* name;
            at::Tensor tensor;
            const char* dtype;
        };
        const std::vector<Case> cases = {
            { "float32", base, "float32" },
            { "bfloat16", base.to(torch::kBFloat16), "bfloat16" },
            { "float16", base.to(torch::kFloat16), "float16" },
            { "float64", base.to(torch::kFloat64), "float64" },
            { "int64", torch::arange(-5, 7, torch::kInt64).reshape({ 3, 4 }), "int64" },
            { "bool", base.gt(0), "bool" },
            { "view", base.t().slice(0, 1, 4), "float32" }, // a non-contiguous view of a larger storage
            { "scalar", torch::tensor(2.5), "float32" },
        };
        for (const Case& c : cases) {
            const fs::path file = fs::path(dir.path().toStdString()) / (std::string(c.name) + ".pt");
            writeBytes(file, msprobe::capture::encodePt(c.tensor));
            QString error;
            const auto loaded = standInLoad(file, error);
            QVERIFY2(!loaded.is_null(), qPrintable(QString::fromLatin1(c.name) + QStringLiteral(": ") + error));
            QCOMPARE(loaded["dtype"].get<std::string>(), std::string(c.dtype));
            const auto expectedShape = c.tensor.sizes().vec();
            QCOMPARE(loaded["shape"].get<std::vector<std::int64_t>>(), expectedShape);
            // Row-major strides of a contiguous tensor: the view is saved as its own compact copy.
            const auto expectedStride = c.tensor.contiguous().strides().vec();
            QCOMPARE(loaded["stride"].get<std::vector<std::int64_t>>(), expectedStride);
            const at::Tensor flat = c.tensor.to(torch::kFloat64).contiguous().flatten();
            const auto values = loaded["values"].get<std::vector<double>>();
            QCOMPARE(values.size(), static_cast<std::size_t>(flat.numel()));
            for (std::int64_t i = 0; i < flat.numel(); ++i)
                QVERIFY2(values[static_cast<std::size_t>(i)] == flat[i].item<double>(), c.name);
        }
    }
};

QTEST_GUILESS_MAIN(TestCapturePtPython)
#include "tst_capture_pt_python.moc"
