// SPDX-License-Identifier: Apache-2.0
// The .npy reader (every dtype, byte order and layout np.save writes; hostile headers) and data_name resolution.
#include "tensor_test_bytes.h"
#include "test_util.h"

#include "dump/tensor_file.h"
#include "support/error.h"

#include <QTemporaryDir>

#include <cmath>
#include <limits>
#include <random>

using namespace msprobe;
using test::contains;
using test::littleEndian;
using test::rawValues;
namespace fs = std::filesystem;

namespace {

// A .npy file with the given header text, as np.save lays it out: magic, version, header length, header.
std::string npyWithHeader(const std::string& header, const std::string& data, int major = 1)
{
    std::string out = "\x93NUMPY";
    out += static_cast<char>(major);
    out += '\0';
    out += littleEndian(header.size(), major == 1 ? 2 : 4);
    return out + header + data;
}

// The header dict np.save writes, padded with spaces so the data starts at a multiple of 64 bytes.
std::string npyFile(
    std::string_view descr, std::string_view fortran, std::string_view shape, const std::string& data, int major = 1)
{
    std::string dict = "{'descr': '" + std::string(descr) + "', 'fortran_order': " + std::string(fortran)
        + ", 'shape': " + std::string(shape) + ", }";
    const std::size_t prefix = major == 1 ? 10 : 12;
    dict.append((64 - (prefix + dict.size() + 1) % 64) % 64, ' ');
    return npyWithHeader(dict + '\n', data, major);
}

} // namespace

class TestTensorNpy : public QObject {
    Q_OBJECT

private slots:
    void npy_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("type");
        QTest::addColumn<QList<qint64>>("shape");
        QTest::addColumn<QList<double>>("values");
        const auto row = [](const char* name, const std::string& bytes, dump::ElementType type, QList<qint64> shape,
                             QList<double> values) {
            QTest::newRow(name) << QByteArray::fromStdString(bytes) << int(type) << shape << values;
        };
        const double inf = std::numeric_limits<double>::infinity();
        row("float32 arange", npyFile("<f4", "False", "(2, 3)", rawValues<float>({ 0, 1, 2, 3, 4, 5 })),
            dump::ElementType::Float32, { 2, 3 }, { 0, 1, 2, 3, 4, 5 });
        // Column-major bytes of [[0, 1, 2], [3, 4, 5]].
        row("float32 fortran order", npyFile("<f4", "True", "(2, 3)", rawValues<float>({ 0, 3, 1, 4, 2, 5 })),
            dump::ElementType::Float32, { 2, 3 }, { 0, 1, 2, 3, 4, 5 });
        row("fortran order 3-d",
            npyFile("<i2", "True", "(2, 2, 2)", rawValues<std::int16_t>({ 0, 4, 2, 6, 1, 5, 3, 7 })),
            dump::ElementType::Int16, { 2, 2, 2 }, { 0, 1, 2, 3, 4, 5, 6, 7 });
        row("float16 bits",
            npyFile("<f2", "False", "(4,)", rawValues<std::uint16_t>({ 0x3c00, 0xbe00, 0x0001, 0xfc00 })),
            dump::ElementType::Float16, { 4 }, { 1, -1.5, std::ldexp(1.0, -24), -inf });
        row("int64", npyFile("<i8", "False", "(3,)", rawValues<std::int64_t>({ -1, 1LL << 40, 7 })),
            dump::ElementType::Int64, { 3 }, { -1, std::ldexp(1.0, 40), 7 });
        row("bool", npyFile("|b1", "False", "(3,)", std::string("\x01\x00\x01", 3)), dump::ElementType::Bool, { 3 },
            { 1, 0, 1 });
        row("uint8", npyFile("|u1", "False", "(2,)", "\xff\x07"), dump::ElementType::UInt8, { 2 }, { 255, 7 });
        row("int8", npyFile("|i1", "False", "(2,)", "\xff\x80"), dump::ElementType::Int8, { 2 }, { -1, -128 });
        row("int32", npyFile("<i4", "False", "(1,)", rawValues<std::int32_t>({ -123456 })), dump::ElementType::Int32,
            { 1 }, { -123456 });
        row("big-endian float64", npyFile(">f8", "False", "(2,)", rawValues<double>({ 0.1, -2.5 }, true)),
            dump::ElementType::Float64, { 2 }, { 0.1, -2.5 });
        row("big-endian int16", npyFile(">i2", "False", "(2,)", rawValues<std::int16_t>({ -2, 513 }, true)),
            dump::ElementType::Int16, { 2 }, { -2, 513 });
        row("bfloat16 as <V2", npyFile("<V2", "False", "(2,)", rawValues<std::uint16_t>({ 0x3f80, 0xc060 })),
            dump::ElementType::BFloat16, { 2 }, { 1, -3.5 });
        row("bfloat16 by name", npyFile("bfloat16", "False", "(1,)", rawValues<std::uint16_t>({ 0x4049 })),
            dump::ElementType::BFloat16, { 1 }, { 3.140625 });
        row("0-dim", npyFile("<f8", "False", "()", rawValues<double>({ 42.5 })), dump::ElementType::Float64, {},
            { 42.5 });
        row("empty", npyFile("<f4", "False", "(0, 5)", ""), dump::ElementType::Float32, { 0, 5 }, {});
        row("version 2.0", npyFile("<f4", "False", "(1,)", rawValues<float>({ 7 }), 2), dump::ElementType::Float32,
            { 1 }, { 7 });
        row("version 3.0", npyFile("<i4", "False", "(2,)", rawValues<std::int32_t>({ 5, 6 }), 3),
            dump::ElementType::Int32, { 2 }, { 5, 6 });
        row("keys reordered",
            npyWithHeader(
                "{\"shape\": (1,), \"fortran_order\": False, \"descr\": '<f4'}\n", rawValues<float>({ 1.5f })),
            dump::ElementType::Float32, { 1 }, { 1.5 });
    }

    void npy()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, type);
        QFETCH(QList<qint64>, shape);
        QFETCH(QList<double>, values);
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const fs::path file = fs::path(temp.path().toStdString()) / "tensor.npy";
        test::writeFile(file, bytes.toStdString());
        const dump::TensorData tensor = dump::readTensorFile(file);
        QCOMPARE(int(tensor.elementType), type);
        QCOMPARE(tensor.shape, std::vector<std::int64_t>(shape.begin(), shape.end()));
        QCOMPARE(tensor.values, std::vector<double>(values.begin(), values.end()));
    }

    void hostileNpy_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* name, const std::string& bytes, const char* message) {
            QTest::newRow(name) << QByteArray::fromStdString(bytes) << message;
        };
        const std::string six = rawValues<float>({ 0, 1, 2, 3, 4, 5 });
        row("truncated data", npyFile("<f4", "False", "(2, 3)", six.substr(0, 20)), "truncated data");
        row("shape smaller than the data", npyFile("<f4", "False", "(2, 2)", six),
            "the header does not describe the data");
        row("dtype narrower than the data", npyFile("<f2", "False", "(2, 3)", six),
            "the header does not describe the data");
        row("dtype wider than the data", npyFile("<f8", "False", "(2, 3)", six), "truncated data");
        row("absurd shape", npyFile("<f4", "False", "(1099511627776, 1099511627776)", six), "is too large");
        row("shape overflow", npyFile("<f8", "False", "(4611686018427387904, 4)", six), "is too large");
        row("dimension overflow", npyFile("<f8", "False", "(99999999999999999999,)", six), "dimension too large");
        row("negative dimension", npyFile("<f4", "False", "(-1,)", six), "negative dimension");
        row("unsupported dtype", npyFile("<c8", "False", "(1,)", six), "unsupported dtype '<c8'");
        row("object dtype", npyFile("|O", "False", "(1,)", six), "unsupported dtype '|O'");
        row("structured dtype",
            npyWithHeader("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }\n", six),
            "structured dtypes are not supported");
        row("missing key", npyWithHeader("{'descr': '<f4', 'shape': (1,)}\n", six), "missing key 'fortran_order'");
        row("unexpected key", npyWithHeader("{'extra': 1, }\n", six), "unexpected key 'extra'");
        row("garbage header", npyWithHeader("hello\n", six), "expected '{'");
        row("unterminated string", npyWithHeader("{'descr\n", six), "unterminated string");
        row("bad bool", npyFile("<f4", "Maybe", "(1,)", six), "expected True or False");
        row("header past end", std::string("\x93NUMPY\x01\x00\xff\xff", 10) + "{'descr'", "runs past the end");
        row("version 2 header past end", std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12) + "{",
            "runs past the end");
        row("bad magic", "\x93NUMPZ\x01\x00\x00\x00", "not a .npy file");
        row("short file", "\x93NUMPY", "not a .npy file");
        row("empty file", "", "not a .npy file");
        row("version 9", npyFile("<f4", "False", "(1,)", six).replace(6, 1, "\x09"),
            "unsupported .npy format version 9");
    }

    void hostileNpy()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const fs::path file = fs::path(temp.path().toStdString()) / "hostile.npy";
        test::writeFile(file, bytes.toStdString());
        VERIFY_ERROR(dump::readTensorFile(file), "hostile.npy", message.toStdString());
    }

    void fuzzNpy()
    {
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const fs::path file = fs::path(temp.path().toStdString()) / "fuzz.npy";
        const std::string valid = npyFile("<f4", "True", "(2, 3)", rawValues<float>({ 0, 1, 2, 3, 4, 5 }));
        std::mt19937 random(4242);
        const auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
        for (int round = 0; round < 3000; ++round) {
            std::string mutated = valid;
            if (round % 4 == 3) {
                mutated.resize(pick(mutated.size()));
            } else {
                for (std::size_t k = 0, n = 1 + pick(3); k < n; ++k)
                    mutated[pick(80)] = static_cast<char>(round % 2 ? pick(256) : "0123456789(),' -TF"[pick(18)]);
            }
            test::writeFile(file, mutated);
            try {
                const dump::TensorData tensor = dump::readTensorFile(file);
                std::int64_t count = 1;
                for (std::int64_t size : tensor.shape)
                    count *= size;
                QCOMPARE(std::int64_t(tensor.values.size()), count);
            } catch (const support::Error& e) {
                QVERIFY2(contains(e.what(), "fuzz.npy"), e.what());
            }
        }
    }

    // ---- data_name resolution ----

    void resolveAccepts()
    {
        const fs::path dir = "/dumps/step0/rank0/dump_tensor_data";
        QCOMPARE(dump::resolveDataFile(dir, "Functional.linear.0.forward.input.0.pt"),
            dir / "Functional.linear.0.forward.input.0.pt");
        QCOMPARE(dump::resolveDataFile(dir, "x.npy"), dir / "x.npy");
    }

    void resolveRejects_data()
    {
        QTest::addColumn<QByteArray>("dataName");
        QTest::addColumn<QString>("shown");
        QTest::newRow("parent twice") << QByteArray("../../x") << "'../../x'";
        QTest::newRow("parent") << QByteArray("..") << "'..'";
        QTest::newRow("dot") << QByteArray(".") << "'.'";
        QTest::newRow("inner parent") << QByteArray("a/../b.pt") << "'a/../b.pt'";
        QTest::newRow("dots in name") << QByteArray("x..pt") << "'x..pt'";
        QTest::newRow("absolute") << QByteArray("/etc/passwd") << "'/etc/passwd'";
        QTest::newRow("separator") << QByteArray("sub/x.pt") << "'sub/x.pt'";
        QTest::newRow("backslash") << QByteArray("..\\x.pt") << "'..\\x.pt'";
        QTest::newRow("backslash only") << QByteArray("a\\x.pt") << "'a\\x.pt'";
        QTest::newRow("NUL") << QByteArray("x\0y.pt", 6) << "'x\\x00y.pt'";
        QTest::newRow("empty") << QByteArray("") << "''";
    }

    void resolveRejects()
    {
        QFETCH(QByteArray, dataName);
        QFETCH(QString, shown);
        const std::string name = dataName.toStdString();
        VERIFY_ERROR(dump::resolveDataFile("/dumps/dump_tensor_data", name), "data_name " + shown.toStdString(),
            "/dumps/dump_tensor_data");
    }

    void resolveSymlinks()
    {
        QTemporaryDir temp;
        QVERIFY(temp.isValid());
        const fs::path root = temp.path().toStdString();
        const fs::path dir = root / "dump_tensor_data";
        test::writeFile(dir / "real.pt", "x");
        test::writeFile(root / "outside.pt", "x");
        fs::create_symlink(root / "outside.pt", dir / "escape.pt");
        fs::create_symlink("real.pt", dir / "alias.pt");
        fs::create_symlink("/nonexistent/target.pt", dir / "dangling.pt");
        VERIFY_ERROR(dump::resolveDataFile(dir, "escape.pt"), "data_name 'escape.pt'", "inside the folder");
        VERIFY_ERROR(dump::resolveDataFile(dir, "dangling.pt"), "data_name 'dangling.pt'", "inside the folder");
        QCOMPARE(dump::resolveDataFile(dir, "alias.pt"), dir / "alias.pt");
        QCOMPARE(dump::resolveDataFile(dir, "real.pt"), dir / "real.pt");
        // A symlinked dump folder itself is fine.
        fs::create_directory_symlink(dir, root / "linked_dir");
        QCOMPARE(dump::resolveDataFile(root / "linked_dir", "alias.pt"), root / "linked_dir" / "alias.pt");
        // A dump_tensor_data that is a link out of its dump folder is refused like a file link out of it.
        fs::create_directories(root / "rank0");
        fs::create_directory_symlink(dir, root / "rank0" / "dump_tensor_data");
        VERIFY_ERROR(dump::resolveDataFile(root / "rank0" / "dump_tensor_data", "real.pt"), "rank0/dump_tensor_data",
            "inside the dump folder");
        fs::create_directory_symlink("/nonexistent", root / "rank0" / "dangling_dir");
        VERIFY_ERROR(dump::resolveDataFile(root / "rank0" / "dangling_dir", "real.pt"), "dangling_dir",
            "inside the dump folder");
        fs::create_directory_symlink("../rank0", root / "rank0" / "loop_dir"); // resolves to the dump folder itself
        VERIFY_ERROR(
            dump::resolveDataFile(root / "rank0" / "loop_dir", "real.pt"), "loop_dir", "inside the dump folder");
    }
};

QTEST_APPLESS_MAIN(TestTensorNpy)
#include "tst_tensor_npy.moc"
