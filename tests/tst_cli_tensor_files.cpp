// SPDX-License-Identifier: Apache-2.0
// Tensor files and honest verdicts, end to end through `msprobe compare` and `msprobe graph_visualize`: a dump
// written as .npy (our capture's default) compares like the same dump as .pt; a tensor file that is missing or
// unreadable (deleted dump_tensor_data/, truncated .pt, .npy whose header lies) makes its row an error naming the
// file and is counted in the summary, --json and the HTML report, and --fail-on error acts on it; graph_visualize
// warns about such files the same way; unpaired rows are counted and warned about past a tenth of the rows.
#include "test_util.h"
#include "cli_runner.h"

#include "dump/tensor_file.h"
#include "graph/visdb/vis_db_reader.h"
#include "support/csv_text.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>

#include <bit>
#include <cstring>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

// IEEE 754 binary16 bits of a float, rounded to nearest even (clang 14 has no _Float16 on x86-64).
std::uint16_t halfBits(float value)
{
    std::uint32_t f;
    std::memcpy(&f, &value, sizeof f);
    const std::uint32_t sign = (f >> 16) & 0x8000u;
    const std::uint32_t exponent = (f >> 23) & 0xffu;
    std::uint32_t mantissa = f & 0x7fffffu;
    if (exponent == 0xffu)
        return static_cast<std::uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
    const int e = static_cast<int>(exponent) - 127 + 15;
    if (e >= 0x1f)
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return static_cast<std::uint16_t>(sign);
        mantissa |= 0x800000u;
        const int shift = 14 - e;
        std::uint32_t half = mantissa >> shift;
        const std::uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1u)))
            ++half;
        return static_cast<std::uint16_t>(sign | half);
    }
    std::uint32_t half = (static_cast<std::uint32_t>(e) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
        ++half; // a carry into the exponent is the right rounding (up to infinity)
    return static_cast<std::uint16_t>(sign | half);
}

QString qp(const fs::path& p) { return QString::fromStdString(p.string()); }

std::string readText(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The only file under dir whose name ends with suffix.
fs::path onlyFile(const fs::path& dir, std::string_view suffix)
{
    fs::path found;
    int count = 0;
    for (const auto& item : fs::recursive_directory_iterator(dir))
        if (item.is_regular_file() && item.path().string().ends_with(suffix)) {
            found = item.path();
            ++count;
        }
    if (count != 1)
        qWarning("%d files ending with %s under %s", count, std::string(suffix).c_str(), dir.string().c_str());
    return found;
}

// np.save's bytes for the tensor (bfloat16 written as float32, as our capture does).
std::string npyBytes(const dump::TensorData& tensor)
{
    const char* descr = "<f4";
    switch (tensor.elementType) {
    case dump::ElementType::Bool: descr = "|b1"; break;
    case dump::ElementType::UInt8: descr = "|u1"; break;
    case dump::ElementType::Int8: descr = "|i1"; break;
    case dump::ElementType::Int16: descr = "<i2"; break;
    case dump::ElementType::Int32: descr = "<i4"; break;
    case dump::ElementType::Int64: descr = "<i8"; break;
    case dump::ElementType::Float16: descr = "<f2"; break;
    case dump::ElementType::Float64: descr = "<f8"; break;
    case dump::ElementType::BFloat16:
    case dump::ElementType::Float32: break;
    }
    std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (";
    for (std::size_t i = 0; i < tensor.shape.size(); ++i)
        header += std::to_string(tensor.shape[i]) + (tensor.shape.size() == 1 || i + 1 < tensor.shape.size() ? "," : "");
    header += "), }";
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    for (double v : tensor.values) {
        auto put = [&](auto x) {
            char bytes[sizeof x];
            std::memcpy(bytes, &x, sizeof x);
            out.append(bytes, sizeof x);
        };
        switch (tensor.elementType) {
        case dump::ElementType::Bool:
        case dump::ElementType::UInt8: put(static_cast<std::uint8_t>(v)); break;
        case dump::ElementType::Int8: put(static_cast<std::int8_t>(v)); break;
        case dump::ElementType::Int16: put(static_cast<std::int16_t>(v)); break;
        case dump::ElementType::Int32: put(static_cast<std::int32_t>(v)); break;
        case dump::ElementType::Int64: put(static_cast<std::int64_t>(v)); break;
        case dump::ElementType::Float16: put(halfBits(static_cast<float>(v))); break;
        case dump::ElementType::Float64: put(v); break;
        case dump::ElementType::BFloat16:
        case dump::ElementType::Float32: put(static_cast<float>(v)); break;
        }
    }
    return out;
}

// Rewrites a tensor dump as our capture writes it by default: every .pt becomes a .npy, data_names follow.
void convertDumpToNpy(const fs::path& rankDir)
{
    const fs::path data = rankDir / "dump_tensor_data";
    std::vector<fs::path> pts;
    for (const auto& item : fs::directory_iterator(data))
        if (item.path().extension() == ".pt")
            pts.push_back(item.path());
    for (const fs::path& pt : pts) {
        writeFile(fs::path(pt).replace_extension(".npy"), npyBytes(dump::readTensorFile(pt)));
        fs::remove(pt);
    }
    std::string json = readText(rankDir / "dump.json");
    for (std::size_t at = 0; (at = json.find(".pt\"", at)) != std::string::npos;)
        json.replace(at, 4, ".npy\"");
    writeFile(rankDir / "dump.json", json);
}

struct Dumps {
    QTemporaryDir tmp;
    fs::path root, npu, bench; // the rank folders

    explicit Dumps(const char* kind = "tensor")
    {
        root = tmp.path().toStdString();
        fs::copy(refDumps() / (std::string("problem_mix_") + kind), root / "problem", fs::copy_options::recursive);
        fs::copy(refDumps() / (std::string("bench_mix_") + kind), root / "bench", fs::copy_options::recursive);
        npu = onlySubdir(root / "problem" / "step0");
        bench = onlySubdir(root / "bench" / "step0");
    }

    Run compare(const std::string& out, QStringList extra = {}) const
    {
        QStringList args { "compare", "-tp", qp(npu / "dump.json"), "-gp", qp(bench / "dump.json"), "-o", qp(root / out),
            "--no-progress" };
        return runCli(args + extra);
    }
};

support::CsvTable resultCsv(const fs::path& out) { return support::readCsvFile(onlyFile(out, ".csv")); }

const std::vector<std::string>& rowOf(const support::CsvTable& table, std::string_view npuName)
{
    for (const auto& row : table.rows)
        if (row[0] == npuName)
            return row;
    static const std::vector<std::string> none;
    return none;
}

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

} // namespace

class TestCliTensorFiles : public QObject {
    Q_OBJECT

private slots:
    void npyDumpComparesLikePt()
    {
        Dumps dumps;
        const Run pt = dumps.compare("pt");
        QVERIFY2(pt.exitCode == 0, qPrintable(pt.err));
        convertDumpToNpy(dumps.npu);
        convertDumpToNpy(dumps.bench);
        const Run npy = dumps.compare("npy");
        QVERIFY2(npy.exitCode == 0, qPrintable(npy.err));
        QVERIFY2(npy.out.contains("0 tensor files missing or unreadable"), qPrintable(npy.out));
        const support::CsvTable a = resultCsv(dumps.root / "pt"), b = resultCsv(dumps.root / "npy");
        QCOMPARE(b.rows.size(), a.rows.size());
        const int cosine = a.column("Cosine"), result = a.column("Result"), message = a.column("Err_message");
        std::size_t numeric = 0;
        for (std::size_t r = 0; r < a.rows.size(); ++r) {
            for (int c = cosine; c < cosine + 6; ++c)
                QVERIFY2(a.rows[r][c] == b.rows[r][c], (a.rows[r][0] + " " + a.header[c] + ": " + a.rows[r][c] + " vs " + b.rows[r][c]).c_str());
            QCOMPARE(b.rows[r][result], a.rows[r][result]);
            QCOMPARE(b.rows[r][message], a.rows[r][message]);
            numeric += a.rows[r][cosine] != "unsupported";
        }
        QVERIFY(numeric > 100); // the .npy rows were really compared, not reported "unsupported"
    }

    void unreadableFilesAreErrorsNamedAndCounted_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<int>("files");
        QTest::newRow("truncated .pt") << "truncate-pt" << 1;
        QTest::newRow(".npy header lies about its shape") << "npy-shape" << 1;
        QTest::newRow(".npy header lies about its dtype") << "npy-dtype" << 1;
        QTest::newRow("dump_tensor_data deleted") << "delete-folder" << -1;
    }

    void unreadableFilesAreErrorsNamedAndCounted()
    {
        QFETCH(QString, damage);
        QFETCH(int, files);
        Dumps dumps;
        const std::string victimName = "Functional.gelu.1.forward.output.0";
        fs::path victim = dumps.npu / "dump_tensor_data" / (victimName + ".pt");
        std::string why;
        if (damage == "truncate-pt") {
            const std::string bytes = readText(victim);
            writeFile(victim, bytes.substr(0, bytes.size() / 2));
            why = "torch.save archive";
        } else if (damage.startsWith("npy")) {
            convertDumpToNpy(dumps.npu);
            convertDumpToNpy(dumps.bench);
            victim.replace_extension(".npy");
            std::string bytes = readText(victim);
            const std::size_t shape = bytes.find("'shape': (");
            QVERIFY(shape != std::string::npos);
            if (damage == "npy-shape")
                bytes.replace(shape + 10, 1, "9"); // a leading dimension of 9 needs more bytes than the file has
            else
                bytes.replace(bytes.find("<f4"), 3, "<f8");
            writeFile(victim, bytes);
            why = "truncated data";
        } else {
            fs::remove_all(dumps.npu / "dump_tensor_data");
            why = "no such file";
        }
        const Run run = dumps.compare("out", { "--json", "--html" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const support::CsvTable table = resultCsv(dumps.root / "out");
        const auto& row = rowOf(table, victimName);
        QVERIFY(!row.empty());
        QCOMPARE(q(row[table.column("Result")]), QStringLiteral("error"));
        const std::string& message = row[table.column("Err_message")];
        QVERIFY2(contains(message, victim.filename().string()) && contains(message, why), message.c_str());
        QCOMPARE(q(row[table.column("Cosine")]), QStringLiteral("unsupported"));

        const nlohmann::json verdict = nlohmann::json::parse(readText(onlyFile(dumps.root / "out", ".json")));
        const std::size_t counted = verdict["counts"]["unreadable_tensor_files"];
        if (files > 0)
            QCOMPARE(counted, std::size_t(files));
        else
            QVERIFY(counted > 100); // every file of the NPU side
        QVERIFY(verdict["counts"]["error"].get<std::size_t>() >= counted);
        QCOMPARE(q(verdict["verdict"].get<std::string>()), QStringLiteral("error"));
        const std::string countText = std::to_string(counted) + (counted == 1 ? " tensor file" : " tensor files") + " missing or unreadable";
        QVERIFY2(run.out.contains(q(countText)), qPrintable(run.out));
        QVERIFY2(run.err.contains(q(countText)) && run.err.contains("warning"), qPrintable(run.err));
        QVERIFY(contains(readText(onlyFile(dumps.root / "out", ".html")), countText));

        const Run failOn = dumps.compare("fail", { "--fail-on", "error" });
        QCOMPARE(failOn.exitCode, 3);
    }

    void unpairedRowsAreCountedAndWarned()
    {
        Dumps dumps("statistics");
        // The bench side keeps one entry in four: most NPU rows find no partner.
        nlohmann::ordered_json json = nlohmann::ordered_json::parse(readText(dumps.bench / "dump.json"));
        nlohmann::ordered_json kept = nlohmann::ordered_json::object();
        std::size_t index = 0;
        for (auto& [name, body] : json["data"].items())
            if (index++ % 4 == 0)
                kept[name] = body;
        json["data"] = kept;
        writeFile(dumps.bench / "dump.json", json.dump(1));
        const Run run = dumps.compare("out", { "--json", "--html" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const support::CsvTable table = resultCsv(dumps.root / "out");
        std::size_t unpaired = 0;
        for (const auto& row : table.rows)
            unpaired += row[1] == "N/A";
        QVERIFY(unpaired * 10 > table.rows.size());
        const std::string countText = std::to_string(unpaired) + " unpaired";
        QVERIFY2(run.out.contains(q(countText)), qPrintable(run.out));
        QVERIFY2(run.err.contains("warning") && run.err.contains("have no bench partner"), qPrintable(run.err));
        const nlohmann::json verdict = nlohmann::json::parse(readText(onlyFile(dumps.root / "out", ".json")));
        QCOMPARE(verdict["counts"]["unpaired"].get<std::size_t>(), unpaired);
        QCOMPARE(verdict["too_many_unpaired"].get<bool>(), true);
        QCOMPARE(verdict["pairs"][0]["unpaired"].get<std::size_t>(), unpaired);
        const std::string html = readText(onlyFile(dumps.root / "out", ".html"));
        QVERIFY(contains(html, std::to_string(unpaired) + " unpaired") && contains(html, "no bench partner"));

        // Fully paired dumps: counted as 0, no warning.
        Dumps paired("statistics");
        const Run clean = paired.compare("out", { "--json" });
        QVERIFY2(clean.exitCode == 0, qPrintable(clean.err));
        QVERIFY2(clean.out.contains("; 0 unpaired"), qPrintable(clean.out));
        QVERIFY2(!clean.err.contains("no bench partner"), qPrintable(clean.err));
        const nlohmann::json cleanVerdict = nlohmann::json::parse(readText(onlyFile(paired.root / "out", ".json")));
        QCOMPARE(cleanVerdict["too_many_unpaired"].get<bool>(), false);
    }

    void graphVisualizeWarnsAboutUnreadableFiles()
    {
        Dumps dumps;
        const std::string victimName = "Functional.gelu.1.forward.output.0";
        const fs::path victim = dumps.npu / "dump_tensor_data" / (victimName + ".pt");
        const std::string bytes = readText(victim);
        writeFile(victim, bytes.substr(0, bytes.size() / 2));
        fs::remove(dumps.bench / "dump_tensor_data" / "Functional.gelu.0.forward.output.0.pt");
        const fs::path out = dumps.root / "vis";
        const Run run = runCli({ "graph_visualize", "-tp", qp(dumps.npu), "-gp", qp(dumps.bench), "-o", qp(out) });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains("2 tensor files missing or unreadable") && run.err.contains(q(victim.filename().string()))
                && run.err.contains("Functional.gelu.0.forward.output.0.pt"),
            qPrintable(run.err));
        const graph::VisDb db(onlyFile(out, ".vis.db"));
        const auto [input, output] = db.nodeData(0, 0, "NPU", "Functional.gelu.1.forward");
        QVERIFY2(contains(output, "missing or unreadable") && contains(output, victim.filename().string()), output.c_str());
    }
};

QTEST_APPLESS_MAIN(TestCliTensorFiles)
#include "tst_cli_tensor_files.moc"
