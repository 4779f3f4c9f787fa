// SPDX-License-Identifier: Apache-2.0
// The .pt reader: genuine and synthetic torch.save files, hostile pickles and archives, pickle limits.
#include "tensor_test_bytes.h"
#include "test_util.h"

#include "dump/tensor_file.h"
#include "support/error.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace msprobe;
using test::contains;
using test::littleEndian;
using test::rawValues;
namespace fs = std::filesystem;

namespace {

fs::path tensorDir()
{
    return test::dataDir() / "tensor";
}

std::string readBytes(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

double maxOf(const std::vector<double>& v)
{
    return *std::max_element(v.begin(), v.end());
}
double minOf(const std::vector<double>& v)
{
    return *std::min_element(v.begin(), v.end());
}
double meanOf(const std::vector<double>& v)
{
    double sum = 0;
    for (double x : v)
        sum += x;
    return sum / static_cast<double>(v.size());
}
double normOf(const std::vector<double>& v)
{
    double sum = 0;
    for (double x : v)
        sum += x * x;
    return std::sqrt(sum);
}
// torch computes float32 Mean/Norm in float32; the double result agrees to about 1e-6 relative.
bool closeRelative(double actual, double expected, double tolerance = 1e-5)
{
    return std::abs(actual - expected) <= tolerance * std::max(std::abs(expected), 1e-30);
}

// ---- a minimal zip writer (stored entries), to build .pt archives around arbitrary pickles ----

std::uint32_t crc32(std::string_view data)
{
    std::uint32_t crc = 0xffffffffu;
    for (unsigned char c : data) {
        crc ^= c;
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

std::string storedZip(const std::vector<std::pair<std::string, std::string>>& entries)
{
    std::string out, central;
    for (const auto& [name, data] : entries) {
        const std::string common = littleEndian(0, 2) + littleEndian(0, 2) + littleEndian(0, 2) + littleEndian(0x21, 2)
            + littleEndian(crc32(data), 4) + littleEndian(data.size(), 4) + littleEndian(data.size(), 4)
            + littleEndian(name.size(), 2) + littleEndian(0, 2);
        central += littleEndian(0x02014b50, 4) + littleEndian(20, 2) + littleEndian(20, 2) + common + littleEndian(0, 2)
            + littleEndian(0, 2) + littleEndian(0, 2) + littleEndian(0, 4) + littleEndian(out.size(), 4) + name;
        out += littleEndian(0x04034b50, 4) + littleEndian(20, 2) + common + name + data;
    }
    const std::size_t centralOffset = out.size();
    out += central;
    out += littleEndian(0x06054b50, 4) + littleEndian(0, 2) + littleEndian(0, 2) + littleEndian(entries.size(), 2)
        + littleEndian(entries.size(), 2) + littleEndian(central.size(), 4) + littleEndian(centralOffset, 4)
        + littleEndian(0, 2);
    return out;
}

// The first entry of a stored zip written by make_synthetic_pt.py (data.pkl comes first there).
std::string firstZipEntry(const std::string& zip)
{
    const auto field = [&](std::size_t at, int bytes) {
        std::uint64_t value = 0;
        for (int i = bytes; i-- > 0;)
            value = (value << 8) | static_cast<unsigned char>(zip.at(at + i));
        return static_cast<std::size_t>(value);
    };
    const std::size_t size = field(18, 4);
    return zip.substr(30 + field(26, 2) + field(28, 2), size);
}

std::string ptArchive(const std::string& pickle, const std::string& storage)
{
    return storedZip({ { "archive/data.pkl", pickle }, { "archive/byteorder", "little" }, { "archive/data/0", storage },
        { "archive/version", "3\n" } });
}

} // namespace

class TestTensorFile : public QObject {
    Q_OBJECT

private slots:
    void dtypeNames()
    {
        QCOMPARE(dump::torchDtypeName(dump::ElementType::Float32), "torch.float32");
        QCOMPARE(dump::torchDtypeName(dump::ElementType::BFloat16), "torch.bfloat16");
        QCOMPARE(dump::torchDtypeName(dump::ElementType::Float16), "torch.float16");
        QCOMPARE(dump::torchDtypeName(dump::ElementType::Int64), "torch.int64");
        QCOMPARE(dump::torchDtypeName(dump::ElementType::Bool), "torch.bool");
        QCOMPARE(dump::torchDtypeName(dump::ElementType::UInt8), "torch.uint8");
        QCOMPARE(dump::elementSize(dump::ElementType::BFloat16), std::size_t(2));
        QCOMPARE(dump::elementSize(dump::ElementType::Float64), std::size_t(8));
    }

    // ---- genuine msprobe .pt files ----

    void genuinePt_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<double>("max");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("mean"); // NaN where dump.json has null
        QTest::addColumn<double>("norm");
        const double null = std::numeric_limits<double>::quiet_NaN();
        // Golden statistics copied from the genuine tool's dump.json for the same data_name:
        // shared/fixtures/msprobe-ref/dumps/bench_mix_tensor/step0/proc14868/dump.json (msprobe 26.0.0, torch 2.6).
        QTest::newRow("int64 input") << "Functional.embedding.0.forward.input.0.pt"
                                     << "torch.int64" << QList<qint64> { 2, 8 } << 29.0 << 2.0 << null << null;
        QTest::newRow("float32 activation") << "Functional.gelu.0.forward.output.0.pt"
                                            << "torch.float32" << QList<qint64> { 2, 8, 32 } << 1.6526515483856201
                                            << -0.16997060179710388 << 0.09230750799179077 << 7.520786285400391;
        QTest::newRow("parameter") << "Module.blocks.0.attn.q_proj.Linear.forward.0.parameters.weight.pt"
                                   << "torch.float32" << QList<qint64> { 16, 16 } << 0.24950793385505676
                                   << -0.24620607495307922 << -0.009576045908033848 << 2.271635055541992;
        QTest::newRow("backward grad") << "Functional.gelu.0.backward.input.0.pt"
                                       << "torch.float32" << QList<qint64> { 2, 8, 32 } << 0.008213288150727749
                                       << -0.007133675739169121 << -4.124516271986067e-05 << 0.055265117436647415;
        QTest::newRow("parameters_grad") << "Module.ln_f.LayerNorm.parameters_grad.0.weight.pt"
                                         << "torch.float32" << QList<qint64> { 16 } << 0.10078904777765274
                                         << -0.06640984117984772 << 0.01439530961215496 << 0.17908664047718048;
        QTest::newRow("0-dim loss") << "Functional.cross_entropy.0.forward.output.0.pt"
                                    << "torch.float32" << QList<qint64> {} << 3.5868916511535645 << 3.5868916511535645
                                    << 3.5868916511535645 << 3.5868916511535645;
    }

    void genuinePt()
    {
        QFETCH(QString, file);
        QFETCH(QString, dtype);
        QFETCH(QList<qint64>, shape);
        QFETCH(double, max);
        QFETCH(double, min);
        QFETCH(double, mean);
        QFETCH(double, norm);
        const dump::TensorData tensor = dump::readTensorFile(dump::resolveDataFile(tensorDir(), file.toStdString()));
        QCOMPARE(test::q(dump::torchDtypeName(tensor.elementType)), dtype);
        QCOMPARE(tensor.shape, std::vector<std::int64_t>(shape.begin(), shape.end()));
        qint64 count = 1;
        for (qint64 size : shape)
            count *= size;
        QCOMPARE(qint64(tensor.numel()), count);
        QCOMPARE(maxOf(tensor.values), max);
        QCOMPARE(minOf(tensor.values), min);
        if (!std::isnan(mean)) {
            QVERIFY2(closeRelative(meanOf(tensor.values), mean),
                qPrintable(QString::number(meanOf(tensor.values), 'g', 17)));
            QVERIFY2(closeRelative(normOf(tensor.values), norm),
                qPrintable(QString::number(normOf(tensor.values), 'g', 17)));
        }
    }

    // Every tensor of the genuine tensor dumps against its dump.json statistics, when the copy of the reference
    // dumps is present in tests/data.
    void genuineDumpsAgainstDumpJson()
    {
        const fs::path dumps = test::refDumps();
        std::size_t checked = 0;
        for (const char* name : { "bench_mix_tensor", "problem_mix_tensor" }) {
            const fs::path stepDir = dumps / name / "step0";
            if (!fs::is_directory(stepDir))
                QSKIP("reference tensor dumps not present");
            const fs::path procDir = test::onlySubdir(stepDir);
            const nlohmann::json dump = nlohmann::json::parse(readBytes(procDir / "dump.json"));
            checkLeaves(dump.at("data"), procDir / "dump_tensor_data", checked);
            if (QTest::currentTestFailed())
                return;
        }
        QCOMPARE(checked, std::size_t(1014));
    }

    // ---- synthetic .pt files (tests/data/tensor/make_synthetic_pt.py) ----

    void syntheticPt_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("type");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<QList<double>>("values");
        const double inf = std::numeric_limits<double>::infinity();
        const auto row = [](const char* name, const char* file, dump::ElementType type, QList<qint64> shape,
                             QList<double> values) { QTest::newRow(name) << file << int(type) << shape << values; };
        // arange(12).view(3, 4)[:, 1:3]: the file holds all 12 elements, offset 1, strides (4, 1).
        row("slice view", "synthetic_view_slice.pt", dump::ElementType::Float32, { 3, 2 }, { 1, 2, 5, 6, 9, 10 });
        // arange(6).view(2, 3).t(): strides (1, 3).
        row("transposed view", "synthetic_view_transposed.pt", dump::ElementType::Int64, { 3, 2 },
            { 0, 3, 1, 4, 2, 5 });
        row("0-dim view at offset 3", "synthetic_scalar_offset.pt", dump::ElementType::Float64, {}, { 3 });
        row("float16 on npu:0", "synthetic_npu_float16.pt", dump::ElementType::Float16, { 2, 3 },
            { 0.5, -2, 65504, std::ldexp(1.0, -24), inf, -0.0 });
        row("bfloat16 on cuda:0", "synthetic_cuda_bfloat16.pt", dump::ElementType::BFloat16, { 5 },
            { 1, -3.5, std::ldexp(1.0, -133), std::ldexp(255.0, 120), 0.10009765625 });
        row("bool", "synthetic_bool.pt", dump::ElementType::Bool, { 2, 2 }, { 1, 0, 1, 1 });
        row("int8", "synthetic_int8.pt", dump::ElementType::Int8, { 3 }, { -128, 127, 0 });
        row("big-endian int32", "synthetic_bigendian_int32.pt", dump::ElementType::Int32, { 4 },
            { 1, -2, 2147483647, -2147483648.0 });
        row("no byteorder record", "synthetic_no_byteorder_int16.pt", dump::ElementType::Int16, { 2 }, { -32768, 300 });
        row("nn.Parameter", "synthetic_parameter.pt", dump::ElementType::Float64, { 2 }, { 0.25, 1e300 });
        row("empty", "synthetic_empty.pt", dump::ElementType::Float32, { 0, 3 }, {});
    }

    void syntheticPt()
    {
        QFETCH(QString, file);
        QFETCH(int, type);
        QFETCH(QList<qint64>, shape);
        QFETCH(QList<double>, values);
        const dump::TensorData tensor = dump::readTensorFile(tensorDir() / file.toStdString());
        QCOMPARE(int(tensor.elementType), type);
        QCOMPARE(tensor.shape, std::vector<std::int64_t>(shape.begin(), shape.end()));
        QCOMPARE(tensor.values.size(), std::size_t(values.size()));
        for (qsizetype i = 0; i < values.size(); ++i) {
            // Bit equality: exact conversion, and -0.0 stays negative.
            QVERIFY2(std::bit_cast<std::uint64_t>(tensor.values[i]) == std::bit_cast<std::uint64_t>(values[i]),
                qPrintable(QString("element %1: %2 vs %3").arg(i).arg(tensor.values[i]).arg(values[i])));
        }
    }

    void hostilePt_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        QTest::newRow("stack underflow") << "bad_stack_underflow.pt"
                                         << "stack underflow";
        QTest::newRow("REDUCE on empty stack") << "bad_reduce_empty.pt"
                                               << "stack underflow";
        QTest::newRow("undefined memo") << "bad_memo_get.pt"
                                        << "memo entry 4294967295 is not defined";
        QTest::newRow("deep nesting") << "bad_deep_nesting.pt"
                                      << "nesting too deep";
        QTest::newRow("no STOP") << "bad_no_stop.pt"
                                 << "truncated pickle";
        QTest::newRow("os.system") << "bad_os_system.pt"
                                   << "unsupported object 'os.system'";
        QTest::newRow("dict") << "bad_not_a_tensor.pt"
                              << "not a single tensor";
        QTest::newRow("short storage") << "bad_storage_short.pt"
                                       << "truncated storage";
        QTest::newRow("view out of bounds") << "bad_view_out_of_bounds.pt"
                                            << "reaches beyond its storage";
        QTest::newRow("negative stride") << "bad_negative_stride.pt"
                                         << "negative stride";
        QTest::newRow("huge broadcast") << "bad_huge_broadcast.pt"
                                        << "too many elements";
        QTest::newRow("missing record") << "bad_missing_record.pt"
                                        << "data/7: storage record is missing";
        QTest::newRow("complex") << "bad_complex_storage.pt"
                                 << "unsupported storage type 'torch.ComplexFloatStorage'";
        QTest::newRow("byte order") << "bad_byteorder.pt"
                                    << "unknown byte order 'middle'";
        // Zip bombs are refused from the zip directory's sizes, before anything is inflated.
        QTest::newRow("storage zip bomb")
            << "bad_zip_bomb_storage.pt"
            << "data/0: the record inflates to 33554480 bytes, more than the 48 bytes its "
               "pickle describes (12 elements of torch.float32): refused without reading it";
        QTest::newRow("pickle zip bomb") << "bad_zip_bomb_pickle.pt"
                                         << "data.pkl: the record inflates to";
    }

    void hostilePt()
    {
        QFETCH(QString, file);
        QFETCH(QString, message);
        VERIFY_ERROR(dump::readTensorFile(tensorDir() / file.toStdString()), file.toStdString(), message.toStdString());
    }

    void brokenPtFiles()
    {
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const fs::path dir = temp.path().toStdString();
        const std::string genuine = readBytes(tensorDir() / "Functional.gelu.0.forward.output.0.pt");
        QVERIFY(genuine.size() > 1000);
        for (std::size_t size : { std::size_t(0), std::size_t(10), std::size_t(100), genuine.size() / 2,
                 genuine.size() - 30, genuine.size() - 1 }) {
            const fs::path file = dir / ("truncated_" + std::to_string(size) + ".pt");
            test::writeFile(file, genuine.substr(0, size));
            VERIFY_ERROR(dump::readTensorFile(file), file.filename().string(), "");
        }
        const fs::path text = dir / "notes.pt";
        test::writeFile(text, "this is a text file, not a torch.save archive\n");
        VERIFY_ERROR(dump::readTensorFile(text), "notes.pt", "cannot read as a torch.save archive");

        const fs::path noPickle = dir / "no_pickle.pt";
        test::writeFile(noPickle, storedZip({ { "archive/version", "3\n" }, { "archive/data/0", "abcd" } }));
        VERIFY_ERROR(dump::readTensorFile(noPickle), "no_pickle.pt", "data.pkl");

        VERIFY_ERROR(dump::readTensorFile(dir / "missing.pt"), "missing.pt", "no such file");
        fs::create_directory(dir / "folder.pt");
        VERIFY_ERROR(dump::readTensorFile(dir / "folder.pt"), "folder.pt", "not a regular file");
        test::writeFile(dir / "tensor.bin", "x");
        VERIFY_ERROR(dump::readTensorFile(dir / "tensor.bin"), "tensor.bin", "unsupported tensor file type '.bin'");
    }

    // Mutated pickles inside valid archives: each read either succeeds with a consistent result or throws
    // msprobe::Error. A crash here is a bug.
    void fuzzPickle()
    {
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const std::string pickle = firstZipEntry(readBytes(tensorDir() / "synthetic_view_slice.pt"));
        QVERIFY(pickle.starts_with("\x80\x02"));
        std::string storage;
        for (int i = 0; i < 12; ++i)
            storage += rawValues<float>({ float(i) });
        QCOMPARE(dump::readTensorFile(writePt(temp, "base.pt", pickle, storage)).values.size(), std::size_t(6));

        std::mt19937 random(12345);
        const auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
        int succeeded = 0;
        for (int round = 0; round < 3000; ++round) {
            std::string mutated = pickle;
            switch (pick(3)) {
            case 0:
                for (std::size_t k = 0, n = 1 + pick(3); k < n; ++k)
                    mutated[pick(mutated.size())] = static_cast<char>(pick(256));
                break;
            case 1:
                mutated.resize(pick(mutated.size()));
                break;
            default:
                mutated.insert(pick(mutated.size()), 1, static_cast<char>(pick(256)));
            }
            const fs::path file = writePt(temp, "fuzz.pt", mutated, storage);
            try {
                const dump::TensorData tensor = dump::readTensorFile(file);
                std::int64_t count = 1;
                for (std::int64_t size : tensor.shape)
                    count *= size;
                QCOMPARE(std::int64_t(tensor.values.size()), count);
                ++succeeded;
            } catch (const support::Error& e) {
                QVERIFY2(contains(e.what(), "fuzz.pt"), e.what());
            }
        }
        QVERIFY(succeeded > 0);
    }

    // Mutated bytes anywhere in a genuine archive (zip structure included).
    void fuzzArchive()
    {
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const std::string genuine = readBytes(tensorDir() / "Module.ln_f.LayerNorm.parameters_grad.0.weight.pt");
        std::mt19937 random(777);
        const auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
        const fs::path file = fs::path(temp.path().toStdString()) / "archive.pt";
        for (int round = 0; round < 1000; ++round) {
            std::string mutated = genuine;
            for (std::size_t k = 0, n = 1 + pick(4); k < n; ++k)
                mutated[pick(mutated.size())] = static_cast<char>(pick(256));
            test::writeFile(file, mutated);
            try {
                (void)dump::readTensorFile(file);
            } catch (const support::Error& e) {
                QVERIFY2(contains(e.what(), "archive.pt"), e.what());
            }
        }
    }

    // The bounds readPickle is given for data.pkl: a pickle claiming memory far beyond one tensor's is refused.
    void pickleLimits_data()
    {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<QString>("message");
        const std::string proto = "\x80\x02";
        std::string memo = proto + "N";
        for (std::uint32_t i = 0; i < 70000; ++i)
            memo += std::string("r") + char(i & 0xff) + char((i >> 8) & 0xff) + char((i >> 16) & 0xff) + '\0';
        const auto row = [](const char* name, const std::string& bytes, const char* message) {
            QTest::newRow(name) << QByteArray::fromStdString(bytes) << message;
        };
        row("stack", proto + std::string(70000, 'N') + ".", "too many values on the stack");
        row("marks", proto + std::string(70000, '(') + ".", "too many MARKs");
        std::string appends = proto + "]";
        for (int i = 0; i < 300000; ++i)
            appends += "Na";
        row("values", appends + ".", "too many values (more than 262144)");
        row("memo", memo + ".", "too many memo entries");
        row("text persistent id", proto + "ctorch._utils\n_rebuild_tensor_v2\n(Pstorage\nK\x01))tR.",
            "unsupported persistent id");
        row("bare persistent id", proto + "N\x85Q.", "holds a persistent id, not a single tensor");
    }

    void pickleLimits()
    {
        QFETCH(QByteArray, pickle);
        QFETCH(QString, message);
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const fs::path file = writePt(temp, "limits.pt", pickle.toStdString(), std::string(48, '\0'));
        VERIFY_ERROR(dump::readTensorFile(file), "limits.pt", message.toStdString());
    }

private:
    static fs::path writePt(
        const QTemporaryDir& temp, const std::string& name, const std::string& pickle, const std::string& storage)
    {
        const fs::path file = fs::path(temp.path().toStdString()) / name;
        test::writeFile(file, ptArchive(pickle, storage));
        return file;
    }

    void checkLeaves(const nlohmann::json& node, const fs::path& dataDir, std::size_t& checked)
    {
        if (node.is_array()) {
            for (const auto& child : node)
                checkLeaves(child, dataDir, checked);
        } else if (node.is_object() && node.contains("data_name")) {
            checkTensor(node, dataDir);
            ++checked;
        } else if (node.is_object()) {
            for (const auto& [key, child] : node.items())
                checkLeaves(child, dataDir, checked);
        }
    }

    void checkTensor(const nlohmann::json& leaf, const fs::path& dataDir)
    {
        const std::string dataName = leaf.at("data_name").get<std::string>();
        const dump::TensorData tensor = dump::readTensorFile(dump::resolveDataFile(dataDir, dataName));
        QVERIFY2(dump::torchDtypeName(tensor.elementType) == leaf.at("dtype").get<std::string>(), dataName.c_str());
        QVERIFY2(tensor.shape == leaf.at("shape").get<std::vector<std::int64_t>>(), dataName.c_str());
        QVERIFY2(maxOf(tensor.values) == leaf.at("Max").get<double>(), dataName.c_str());
        QVERIFY2(minOf(tensor.values) == leaf.at("Min").get<double>(), dataName.c_str());
        if (leaf.at("Mean").is_null())
            return;
        // A mean near zero is a difference of large float32 partial sums: compare against the norm's scale.
        const double scale = normOf(tensor.values) / std::sqrt(double(tensor.numel()));
        QVERIFY2(std::abs(meanOf(tensor.values) - leaf.at("Mean").get<double>()) <= 1e-5 * scale, dataName.c_str());
        QVERIFY2(closeRelative(normOf(tensor.values), leaf.at("Norm").get<double>()), dataName.c_str());
    }
};

QTEST_APPLESS_MAIN(TestTensorFile)
#include "tst_tensor_file.moc"
