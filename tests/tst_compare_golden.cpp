// SPDX-License-Identifier: Apache-2.0
// Golden tests: every compare case the genuine msprobe produced (tests/data/msprobe-ref/outputs/compare/<case>/: command.txt,
// log.txt, CSV / JSON) is re-run through the compare engine; our files must equal the reference files: same rows
// in the same order, text cells identical, numeric cells within 1e-9 relative; -da JSON files identical.
#include "test_util.h"

#include "compare/compare_inputs.h"
#include "compare/compare_job.h"
#include "support/csv_text.h"

#include <QTemporaryDir>

#include <zlib.h>

#include <cmath>
#include <regex>
#include <sstream>

using namespace msprobe;
namespace fs = std::filesystem;

namespace {

fs::path compareData() { return test::dataDir() / "msprobe-ref"; }

std::string readText(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string gunzip(const fs::path& file)
{
    gzFile gz = gzopen(file.c_str(), "rb");
    if (!gz)
        return {};
    std::string out;
    char buf[65536];
    int n;
    while ((n = gzread(gz, buf, sizeof buf)) > 0)
        out.append(buf, static_cast<std::size_t>(n));
    gzclose(gz);
    return out;
}

bool numeric(std::string text, double& value)
{
    while (!text.empty() && text.front() == ' ')
        text.erase(0, 1);
    if (!text.empty() && text.back() == '%')
        text.pop_back();
    if (text.empty())
        return false;
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end && *end == '\0';
}

// Empty when equal under the golden rule, else the first differences.
std::string compareCsv(const std::string& ours, const std::string& reference)
{
    // Header first, then the data rows (padded to the header's width, as Python's csv + pandas read them).
    auto allRows = [](const std::string& text, const char* what) {
        support::CsvTable table = support::parseCsvText(text, what);
        table.rows.insert(table.rows.begin(), std::move(table.header));
        return table.rows;
    };
    const auto a = allRows(ours, "ours"), b = allRows(reference, "reference");
    std::ostringstream problems;
    if (a.size() != b.size())
        problems << "row count " << a.size() << " vs reference " << b.size() << "; ";
    int reported = 0;
    for (std::size_t r = 0; r < std::min(a.size(), b.size()) && reported < 5; ++r) {
        if (a[r].size() != b[r].size()) {
            problems << "row " << r << " has " << a[r].size() << " fields vs " << b[r].size() << "; ";
            ++reported;
            continue;
        }
        for (std::size_t c = 0; c < a[r].size(); ++c) {
            const std::string& x = a[r][c];
            const std::string& y = b[r][c];
            if (x == y)
                continue;
            double nx = 0, ny = 0;
            const bool sameSuffix = (!x.empty() && x.back() == '%') == (!y.empty() && y.back() == '%');
            if (sameSuffix && numeric(x, nx) && numeric(y, ny) && std::isfinite(nx) && std::isfinite(ny)
                && std::fabs(nx - ny) <= 1e-9 * std::max(std::fabs(nx), std::fabs(ny)))
                continue;
            problems << "row " << r << " column '" << b[0][c] << "': ours '" << x.substr(0, 80) << "' reference '" << y.substr(0, 80) << "'; ";
            if (++reported >= 5)
                break;
        }
    }
    return problems.str();
}

struct GoldenCase {
    std::string name;
    std::vector<std::string> args;
};

std::vector<std::string> splitArgs(const std::string& line)
{
    std::istringstream in(line);
    std::vector<std::string> out;
    std::string word;
    while (in >> word)
        out.push_back(word);
    return out;
}

// Runs the case's command (as recorded in command.txt) through the engine into outDir.
compare::JobOutcome runCase(const fs::path& caseDir, const fs::path& outDir)
{
    std::string command = readText(caseDir / "command.txt");
    command = command.substr(0, command.find('\n'));
    const auto args = splitArgs(command);
    std::string target, golden;
    compare::JobOptions options;
    options.progress = false;
    options.outputRoot = outDir;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "-tp")
            target = args[++i];
        else if (args[i] == "-gp")
            golden = args[++i];
        else if (args[i] == "-da")
            options.compare.firstDiffAnalyze = true;
    }
    const fs::path targetPath = compareData() / target, goldenPath = compareData() / golden;
    if (fs::is_regular_file(targetPath))
        options.compare.firstDiffAnalyze = false; // the reference ignores -da for file inputs
    const auto pairs = compare::resolveComparePairs(targetPath, goldenPath, outDir, options.compare.firstDiffAnalyze);
    return compare::runCompareJob(pairs, options, nullptr);
}

// The file in dir whose name starts with prefix and has the extension (timestamps differ).
fs::path findOutput(const fs::path& dir, const std::string& prefix, const std::string& extension)
{
    for (const auto& item : fs::directory_iterator(dir)) {
        const std::string name = item.path().filename().string();
        if (name.rfind(prefix, 0) == 0 && item.path().extension() == extension)
            return item.path();
    }
    return {};
}

std::string stripTimestamp(const std::string& fileName)
{
    static const std::regex timestamp(R"(_[0-9]{14}(\.json\.gz|\.csv|\.json)$)");
    return std::regex_replace(fileName, timestamp, "");
}

} // namespace

class TestCompareGolden : public QObject {
    Q_OBJECT

private slots:
    void golden_data()
    {
        QTest::addColumn<QString>("caseName");
        std::vector<std::string> names;
        for (const auto& item : fs::directory_iterator(compareData() / "outputs" / "compare"))
            if (item.is_directory())
                names.push_back(item.path().filename().string());
        std::sort(names.begin(), names.end());
        QVERIFY(names.size() >= 13);
        for (const auto& name : names)
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }

    void golden()
    {
        QFETCH(QString, caseName);
        const fs::path caseDir = compareData() / "outputs" / "compare" / caseName.toStdString();
        QTemporaryDir tmp;
        const fs::path out = tmp.path().toStdString();
        const compare::JobOutcome job = runCase(caseDir, out);
        int compared = 0;
        for (const auto& item : fs::directory_iterator(caseDir)) {
            const std::string name = item.path().filename().string();
            const std::string prefix = stripTimestamp(name);
            if (item.path().extension() == ".csv") {
                const fs::path ours = findOutput(out, prefix + "_", ".csv");
                QVERIFY2(!ours.empty(), ("no output for " + name).c_str());
                const std::string problems = compareCsv(readText(ours), readText(item.path()));
                QVERIFY2(problems.empty(), (name + ": " + problems).c_str());
                ++compared;
            } else if (name.ends_with(".json.gz")) {
                const fs::path ours = findOutput(out, prefix + "_", ".json");
                QVERIFY2(!ours.empty(), ("no output for " + name).c_str());
                QVERIFY2(readText(ours) == gunzip(item.path()), (name + " differs").c_str());
                ++compared;
            } else if (name.rfind("diff_analyze_", 0) == 0) {
                QVERIFY2(!job.diffAnalyzeFile.empty(), "no diff_analyze file written");
                QVERIFY2(readText(job.diffAnalyzeFile) == readText(item.path()), "diff_analyze differs");
                ++compared;
            }
        }
        QVERIFY(compared > 0);
        // Cases whose reference wrote no diff_analyze file ("Cannot find any diff node") must not get one either.
        if (findOutput(caseDir, "diff_analyze_", ".json").empty())
            QVERIFY(job.diffAnalyzeFile.empty());
    }

    // The counts the fixture README states for problem vs bench, step 0.
    void statisticsVerdictCounts()
    {
        QTemporaryDir tmp;
        const compare::JobOutcome job = runCase(compareData() / "outputs" / "compare" / "statistics_problem_vs_bench_step0", tmp.path().toStdString());
        QCOMPARE(job.pairs.size(), std::size_t(1));
        QCOMPARE(job.pairs[0].rows, std::size_t(573));
        QCOMPARE(job.pairs[0].pass, std::size_t(567));
        QCOMPARE(job.pairs[0].warning, std::size_t(5));
        QCOMPARE(job.pairs[0].error, std::size_t(1));
        QCOMPARE(job.pairs[0].failed.front().npuName, std::string("Functional.gelu.1.forward.input.approximate"));
    }
};

QTEST_APPLESS_MAIN(TestCompareGolden)
#include "tst_compare_golden.moc"
