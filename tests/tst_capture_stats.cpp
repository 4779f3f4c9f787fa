// SPDX-License-Identifier: Apache-2.0
// The statistics the capture writes are torch's own: Max/Min/Mean/Norm of float32, bfloat16 and float16
// tensors equal, bit for bit, what torch.max/min/mean/norm return for the same tensor (computed here by
// libtorch, the kernels Python's torch runs), for many shapes, values, sizes and strided views; float64 and
// integer tensors get Max/Min only. dump.json writes each value with the digits of Python's repr.
// libtorch headers before Qt's: Qt's "slots" macro breaks them.
#ifndef Q_MOC_RUN // moc needs nothing of libtorch, and parsing it cost moc 8 CPU-seconds per test
#include "capture/aten_order_stats.h"
#include "capture/debugger.h"
#include "capture/tensor_stats.h"

#include <torch/torch.h>
#endif

#include "support/python_text.h"
#include "tst_capture_util.h"

#include <QTemporaryDir>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

struct Case {
    std::string label;
    torch::Tensor tensor;
};

// Values of many magnitudes and signs: sums of them depend on the order of the additions. Each base tensor is
// converted to the dtype before views are taken, so the views stay strided. float16 overflows above 65504: its
// cases are scaled into range.
std::vector<Case> floatCases(torch::ScalarType type)
{
    torch::manual_seed(23);
    std::vector<Case> cases;
    const auto conv = [type](const torch::Tensor& t) {
        return type == torch::kHalf ? (t / (t.abs().max() + 1) * 8).to(type) : t.to(type);
    };
    const auto add = [&](std::string label, torch::Tensor t) { cases.push_back({ std::move(label), std::move(t) }); };
    for (std::int64_t n : { 1, 2, 7, 31, 32, 33, 255, 1031, 3000, 32768, 65537, 1 << 20, (1 << 22) + 5 }) {
        add("randn " + std::to_string(n), conv(torch::randn({ n })));
        add("offset " + std::to_string(n), conv(torch::randn({ n }) * 1000 + 3.3));
    }
    add("distinct arange*0.1", conv(torch::arange(0, 100003, torch::kFloat) * 0.1f));
    add("wide exponents", conv(torch::randn({ 50000 }) * torch::exp(torch::randn({ 50000 }) * 6)));
    add("matrix 64x65", conv(torch::randn({ 64, 65 })));
    add("4-d 8x3x33x17", conv(torch::randn({ 8, 3, 33, 17 })));
    const auto grid = conv(torch::randn({ 257, 129 }));
    add("transposed", grid.t());
    add("strided slice", grid.slice(1, 0, 129, 3));
    add("row slice", grid.slice(0, 5, 200));
    add("permuted", conv(torch::randn({ 9, 17, 33 })).permute({ 2, 0, 1 }));
    add("expanded", conv(torch::randn({ 1, 300 })).expand({ 40, 300 }));
    add("large transposed", conv(torch::randn({ 1500, 1300 })).t());
    return cases;
}

std::string stat(const dump::StatValue& v)
{
    switch (v.kind) {
    case dump::StatKind::Float: return support::pythonFloatRepr(v.f);
    case dump::StatKind::Int: return std::to_string(v.i);
    case dump::StatKind::Null: return "null";
    case dump::StatKind::Bool: return v.b ? "true" : "false";
    case dump::StatKind::Missing: return "missing";
    }
    return "?";
}

// "" when the four statistics are torch's (the reference's get_stat_info: torch.max, torch.min, and for
// float16/bfloat16/float32 torch.mean and torch.norm, which is torch.linalg.vector_norm(t, 2)).
std::string differsFromTorch(const capture::TensorStats& s, const torch::Tensor& t)
{
    std::string out;
    const auto expect = [&](const char* what, const dump::StatValue& got, const std::string& want) {
        if (stat(got) != want)
            out += std::string(what) + " " + stat(got) + " vs torch " + want + "; ";
    };
    const bool integral = at::isIntegralType(t.scalar_type(), false);
    const auto scalar = [&](const torch::Tensor& r) {
        return integral ? std::to_string(r.item<std::int64_t>()) : support::pythonFloatRepr(r.item<double>());
    };
    expect("Max", s.max, scalar(t.max()));
    expect("Min", s.min, scalar(t.min()));
    const bool lowFloat = t.scalar_type() == torch::kFloat || t.scalar_type() == torch::kHalf
        || t.scalar_type() == torch::kBFloat16;
    expect("Mean", s.mean, lowFloat ? support::pythonFloatRepr(torch::mean(t).item<double>()) : "null");
    expect("Norm", s.norm, lowFloat ? support::pythonFloatRepr(torch::linalg::vector_norm(t, 2, {}, false, {}).item<double>()) : "null");
    if (lowFloat && support::pythonFloatRepr(t.norm().item<double>()) != support::pythonFloatRepr(torch::linalg::vector_norm(t, 2, {}, false, {}).item<double>()))
        out += "Tensor::norm and linalg.vector_norm disagree; ";
    return out;
}

// Sizes of 1 to 4M elements: every size up to 70, and around the vector widths (8, 16 floats), the cascade's
// rows (4 vectors) and level steps (16 rows, then 16 times that) and the thread grain (32768).
std::vector<std::int64_t> fastPathSizes()
{
    std::vector<std::int64_t> sizes;
    for (std::int64_t n = 1; n <= 70; ++n)
        sizes.push_back(n);
    for (std::int64_t base = 128; base <= (std::int64_t(1) << 22); base *= 2)
        for (std::int64_t d : { -9, -1, 0, 1, 7, 8, 9, 17, 33 })
            sizes.push_back(base + d);
    for (std::int64_t n : { 96, 100, 1000, 3000, 12345, 32767, 32769, 99999, 1000003 })
        sizes.push_back(n);
    return sizes;
}

// Distinct values of many magnitudes, with a mean far from zero in half of them.
std::vector<float> distinctValues(std::int64_t n, std::uint32_t seed)
{
    std::mt19937 gen(seed);
    std::normal_distribution<float> normal;
    std::vector<float> v(static_cast<std::size_t>(n));
    for (float& x : v)
        x = normal(gen) * std::exp(normal(gen) * 3.f) + (seed % 2 ? 1.7f : 0.f);
    return v;
}

torch::Tensor floatTensor(std::vector<float> values)
{
    return torch::from_blob(values.data(), { static_cast<std::int64_t>(values.size()) }, torch::kFloat).clone();
}

bool sameBits(float a, float b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// at::set_num_threads for the scope of a test.
struct IntraOpThreads {
    explicit IntraOpThreads(int n) : saved(at::get_num_threads()) { at::set_num_threads(n); }
    ~IntraOpThreads() { at::set_num_threads(saved); }
    int saved;
};

std::string readText(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace

class TestCaptureStats : public QObject {
    Q_OBJECT

private slots:
    void lowFloatTensorsMatchTorchBitForBit_data()
    {
        QTest::addColumn<int>("dtype");
        QTest::newRow("float32") << static_cast<int>(torch::kFloat);
        QTest::newRow("bfloat16") << static_cast<int>(torch::kBFloat16);
        QTest::newRow("float16") << static_cast<int>(torch::kHalf);
    }

    void lowFloatTensorsMatchTorchBitForBit()
    {
        QFETCH(int, dtype);
        const auto type = static_cast<torch::ScalarType>(dtype);
        int sumsInOtherOrderDiffer = 0;
        for (const auto& [label, view] : floatCases(type)) {
            QCOMPARE(view.scalar_type(), type);
            const auto stats = capture::computeTensorStats(view);
            QVERIFY2(differsFromTorch(stats, view).empty(), (label + ": " + differsFromTorch(stats, view)).c_str());
            // The block-wise sums of the fused pass are a different order: they would not do.
            const auto blockwise = capture::toDumpStats(capture::computeRawStats(view), type, view.dim(),
                capture::StatPrecision::Low);
            if (stat(blockwise.mean) != stat(stats.mean) || stat(blockwise.norm) != stat(stats.norm))
                ++sumsInOtherOrderDiffer;
        }
        QVERIFY2(sumsInOtherOrderDiffer > 0, "no case tells torch's reduction order from another");
    }

    void stridedViewsKeepTheirOwnOrder()
    {
        // A non-contiguous tensor is reduced as it lies, as torch.mean(view) does, not as its contiguous copy.
        torch::manual_seed(5);
        const auto grid = torch::randn({ 2000, 999 }) * 100;
        for (const auto& view : { grid.t(), grid.slice(1, 1, 999, 2), grid.permute({ 1, 0 }).slice(0, 0, 500) }) {
            const auto stats = capture::computeTensorStats(view);
            QCOMPARE(differsFromTorch(stats, view), std::string());
        }
    }

    void float64AndIntegersGetMaxMinOnly()
    {
        torch::manual_seed(7);
        const auto d = torch::randn({ 5000 }, torch::kDouble) * 1e6;
        for (const auto& t : { d, d.t(), torch::randint(-1000000, 1000000, { 70001 }, torch::kLong),
                 torch::randint(-100000, 100000, { 4097 }, torch::kInt), torch::randint(-128, 127, { 999 }, torch::kChar),
                 torch::randint(0, 255, { 1000 }, torch::kByte), torch::randint(-300, 300, { 33, 7 }, torch::kShort).t() }) {
            const auto stats = capture::computeTensorStats(t);
            QCOMPARE(differsFromTorch(stats, t), std::string());
        }
        // A 0-d tensor of any dtype: its value four times.
        const auto scalar = capture::computeTensorStats(torch::tensor(2.7182817f));
        QCOMPARE(stat(scalar.mean), support::pythonFloatRepr(static_cast<double>(2.7182817f)));
        QCOMPARE(stat(scalar.norm), stat(scalar.max));
        // precision "high": Max/Min only, as the reference.
        const auto high = capture::computeTensorStats(torch::randn({ 100 }), capture::StatPrecision::High);
        QCOMPARE(stat(high.mean), std::string("null"));
        QCOMPARE(stat(high.norm), std::string("null"));
    }

    void nanAndInfinityPropagateAsInTorch()
    {
        auto t = torch::randn({ 3000 });
        t[17] = std::numeric_limits<float>::infinity();
        QCOMPARE(differsFromTorch(capture::computeTensorStats(t), t), std::string());
        t[18] = -std::numeric_limits<float>::infinity();
        QCOMPARE(differsFromTorch(capture::computeTensorStats(t), t), std::string()); // mean NaN, norm inf
        t[2000] = std::nanf("");
        const auto stats = capture::computeTensorStats(t);
        QVERIFY(std::isnan(stats.max.f) && std::isnan(stats.min.f) && std::isnan(stats.mean.f) && std::isnan(stats.norm.f));
    }

    void onePassSumsAreAtensBitForBit()
    {
        // One thread: ATen reduces every size serially, so all of them take the one-pass path.
        IntraOpThreads one(1);
        const auto variant = capture::atenOrderVariant();
        QVERIFY2(variant.has_value(), "the self-check found no variant reproducing this libtorch's sum and norm");
        std::vector<capture::AtenOrderVariant> others = capture::atenOrderCandidates();
        std::erase(others, *variant);
        QCOMPARE(others.size() + 1, capture::atenOrderCandidates().size());
        std::vector<bool> otherDiffers(others.size(), false);
        std::uint32_t seed = 100;
        std::vector<std::int64_t> sizes = fastPathSizes();
        for (int draw = 0; draw < 30; ++draw) // small sizes many times: a draw often rounds two rules alike
            for (std::int64_t n = 1; n <= 40; ++n)
                sizes.push_back(n);
        for (const std::int64_t n : sizes) {
            const auto t = floatTensor(distinctValues(n, seed++));
            const std::string label = "n=" + std::to_string(n);
            QVERIFY2(capture::atenOrderCovers(t), label.c_str());
            const auto fast = capture::atenOrderStats(t);
            QVERIFY2(fast.has_value(), label.c_str());
            const float sum = torch::sum(t).item<float>();
            const float norm = torch::linalg::vector_norm(t, 2, {}, false, {}).item<float>();
            QVERIFY2(sameBits(fast->sum, sum), (label + ": sum " + std::to_string(fast->sum) + " vs " + std::to_string(sum)).c_str());
            QVERIFY2(sameBits(std::sqrt(fast->sumSquares), norm), (label + ": norm").c_str());
            QVERIFY2(sameBits(fast->max, t.max().item<float>()) && sameBits(fast->min, t.min().item<float>()), label.c_str());
            const std::string differs = differsFromTorch(capture::computeTensorStats(t), t);
            QVERIFY2(differs.empty(), (label + ": " + differs).c_str());
            // The portable loop gives the same bits as the AVX2 one.
            const auto portable = capture::atenOrderStatsWith(t.data_ptr<float>(), n, *variant, false);
            QVERIFY2(sameBits(portable.sum, fast->sum) && sameBits(portable.sumSquares, fast->sumSquares)
                    && sameBits(portable.max, fast->max) && sameBits(portable.min, fast->min),
                (label + ": portable loop").c_str());
            for (std::size_t k = 0; k < others.size(); ++k) {
                const auto other = capture::atenOrderStatsWith(t.data_ptr<float>(), n, others[k]);
                otherDiffers[k] = otherDiffers[k] || !sameBits(other.sum, sum) || !sameBits(std::sqrt(other.sumSquares), norm);
            }
        }
        // The sizes and values tell every other vector width and multiply-add choice from ATen's.
        for (std::size_t k = 0; k < others.size(); ++k)
            QVERIFY2(otherDiffers[k], ("variant lanes " + std::to_string(others[k].lanes) + " fma " + std::to_string(others[k].fmaLanes)
                + "/" + std::to_string(others[k].fmaTail) + "/" + std::to_string(others[k].tailGroup)
                + " is never told from the chosen one").c_str());
    }

    void onePassSpecialValuesAreAtens()
    {
        IntraOpThreads one(1);
        constexpr float inf = std::numeric_limits<float>::infinity();
        constexpr float nan = std::numeric_limits<float>::quiet_NaN();
        constexpr float denormal = std::numeric_limits<float>::denorm_min();
        std::vector<std::pair<std::string, std::vector<float>>> cases;
        for (std::int64_t n : { 1, 5, 8, 9, 40, 129, 513, 8200, 70001 }) {
            const std::string size = " n=" + std::to_string(n);
            auto v = distinctValues(n, static_cast<std::uint32_t>(n));
            auto withInf = v;
            withInf[static_cast<std::size_t>(n / 2)] = inf;
            cases.push_back({ "+inf" + size, withInf });
            withInf[static_cast<std::size_t>(n - 1)] = -inf;
            cases.push_back({ "+inf and -inf" + size, withInf });
            auto withNaN = v;
            withNaN[static_cast<std::size_t>(n / 3)] = nan;
            cases.push_back({ "NaN" + size, withNaN });
            std::vector<float> tiny(static_cast<std::size_t>(n));
            for (std::size_t k = 0; k < tiny.size(); ++k)
                tiny[k] = (k % 3 == 0 ? -1.f : 1.f) * denormal * static_cast<float>(k % 1000 + 1) + (k % 7 == 0 ? 1e-38f : 0.f);
            cases.push_back({ "denormals" + size, tiny });
            std::vector<float> zeros(static_cast<std::size_t>(n), -0.f);
            cases.push_back({ "all -0" + size, zeros });
            for (std::size_t k = 0; k < zeros.size(); k += 2)
                zeros[k] = 0.f;
            cases.push_back({ "+0 and -0" + size, zeros });
            auto relu = v;
            for (std::size_t k = 0; k < relu.size(); ++k)
                relu[k] = relu[k] < 0 ? (k % 2 ? -0.f : 0.f) : relu[k];
            cases.push_back({ "relu-like with -0" + size, relu });
            auto negative = v;
            for (std::size_t k = 0; k < negative.size(); ++k)
                negative[k] = k % 5 == 1 ? -0.f : -std::abs(negative[k]);
            cases.push_back({ "negative with -0" + size, negative });
        }
        for (const auto& [label, values] : cases) {
            const auto t = floatTensor(values);
            QVERIFY2(capture::atenOrderStats(t).has_value(), label.c_str());
            const auto stats = capture::computeTensorStats(t);
            if (label.rfind("NaN", 0) == 0) {
                QVERIFY2(std::isnan(stats.max.f) && std::isnan(stats.min.f) && std::isnan(stats.mean.f) && std::isnan(stats.norm.f),
                    label.c_str());
                continue;
            }
            const std::string differs = differsFromTorch(stats, t);
            QVERIFY2(differs.empty(), (label + ": " + differs).c_str());
            // Signs of zeros and NaN/inf spellings as Python's repr shows them.
            QCOMPARE(stat(stats.max), support::pythonFloatRepr(t.max().item<double>()));
            QCOMPARE(stat(stats.min), support::pythonFloatRepr(t.min().item<double>()));
        }
    }

    void atenKeepsWhatOnePassDoesNotCover()
    {
        torch::manual_seed(3);
        const auto grid = torch::randn({ 300, 200 });
        const std::vector<std::pair<std::string, torch::Tensor>> uncovered = { { "strided slice", grid.slice(1, 0, 200, 2) },
            { "expanded", grid.slice(0, 0, 1).expand({ 40, 200 }) }, { "float64", grid.to(torch::kDouble) },
            { "bfloat16", grid.to(torch::kBFloat16) }, { "float16", grid.to(torch::kHalf) },
            { "int32", grid.to(torch::kInt) }, { "0-d", torch::tensor(1.5f) }, { "empty", torch::empty({ 0 }) },
            { "more than 2^24 elements", torch::ones({ capture::kAtenOrderMaxNumel + 1 }) } };
        for (const auto& [label, t] : uncovered) {
            QVERIFY2(!capture::atenOrderCovers(t), label.c_str());
            QVERIFY2(!capture::atenOrderStats(t).has_value(), label.c_str());
        }
        QVERIFY(capture::atenOrderCovers(grid.slice(0, 10, 20))); // rows of a contiguous tensor are contiguous
        // Transposes and permutations of dense tensors are read in memory order, as ATen reduces them: the pass
        // must give torch's bits for them (lowFloatTensorsMatchTorchBitForBit has more shapes).
        const auto cube = torch::randn({ 9, 17, 33 }) * 30 + 2;
        for (const auto& dense : { grid.t(), cube.permute({ 2, 0, 1 }), cube.transpose(0, 1), grid.t().unsqueeze(1) }) {
            QVERIFY(!dense.is_contiguous());
            QVERIFY(capture::atenOrderCovers(dense));
            QCOMPARE(differsFromTorch(capture::computeTensorStats(dense), dense), std::string());
        }
        // Tensors ATen splits across threads: above the grain size with more than one intra-op thread.
        const auto big = torch::randn({ capture::kAtenGrainSize + 1 }) * 50 + 3;
        const auto small = big.slice(0, 0, capture::kAtenGrainSize - 1);
        {
            IntraOpThreads two(2);
            QVERIFY(!capture::atenOrderCovers(big));
            QVERIFY(capture::atenOrderCovers(small));
            const auto large = torch::randn({ 1 << 20 }) * 1000 + 7;
            QCOMPARE(differsFromTorch(capture::computeTensorStats(large), large), std::string());
        }
        {
            IntraOpThreads one(1);
            QVERIFY(capture::atenOrderCovers(big));
        }
    }

    void dumpJsonWritesTorchsValuesWithPythonsDigits()
    {
        // The issue's own example: a float32 norm widened to double, as Python's json writes it.
        QCOMPARE(support::pythonFloatRepr(static_cast<double>(3.2232229709625244f)), std::string("3.2232229709625244"));

        QTemporaryDir tmp;
        const auto cfg = captureConfig(tmp.path().toStdString(), "statistics", "L1");
        torch::manual_seed(11);
        const std::vector<torch::Tensor> inputs = { torch::randn({ 300, 257 }), torch::randn({ 1 << 18 }) * 77 + 5,
            torch::randn({ 64, 96 }).to(torch::kBFloat16), (torch::randn({ 5000 }) * 3).to(torch::kHalf),
            torch::randn({ 700, 300 }).t() };
        {
            PrecisionDebugger debugger(cfg);
            debugger.start();
            for (const auto& x : inputs)
                (void)torch::neg(x);
            debugger.stop();
            debugger.step();
        }
        const fs::path file = rankDir(tmp.path().toStdString()) / "dump.json";
        const dump::DumpFile dump = dump::readDumpJson(file);
        const std::string text = readText(file);
        for (std::size_t k = 0; k < inputs.size(); ++k) {
            const std::string entry = "Aten.neg." + std::to_string(k) + ".forward";
            const auto node = nodeAt(dump, entry, { "input_args", "0" });
            QVERIFY2(node >= 0, entry.c_str());
            const auto row = dump.nodes[static_cast<std::size_t>(node)].payload;
            const auto& x = inputs[k];
            const std::string mean = support::pythonFloatRepr(torch::mean(x).item<double>());
            const std::string norm = support::pythonFloatRepr(torch::linalg::vector_norm(x, 2, {}, false, {}).item<double>());
            QCOMPARE(support::pythonFloatRepr(dump.tensors.mean[row].asDouble()), mean);
            QCOMPARE(support::pythonFloatRepr(dump.tensors.norm[row].asDouble()), norm);
            QCOMPARE(support::pythonFloatRepr(dump.tensors.max[row].asDouble()), support::pythonFloatRepr(x.max().item<double>()));
            QCOMPARE(support::pythonFloatRepr(dump.tensors.min[row].asDouble()), support::pythonFloatRepr(x.min().item<double>()));
            // The text itself: "Mean": <repr>, the digits json.dumps(float(t)) gives.
            for (const std::string& digits : { mean, norm }) {
                const std::string key = (digits == mean ? "\"Mean\": " : "\"Norm\": ") + digits;
                const auto at = text.find(key);
                QVERIFY2(at != std::string::npos, (entry + ": no " + key).c_str());
                const char next = text[at + key.size()];
                QVERIFY2(!std::isdigit(static_cast<unsigned char>(next)), (entry + ": " + key + " has more digits").c_str());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCaptureStats)
#include "tst_capture_stats.moc"
