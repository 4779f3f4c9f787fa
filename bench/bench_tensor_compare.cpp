// SPDX-License-Identifier: Apache-2.0
// Tensor-mode compare on a synthetic pair of tensor dumps (issue: 10k tensors of 64k float32 elements per side):
// writes both dumps (dump.json + dump_tensor_data/*.pt through libtorch, as the capture library writes them),
// then times `cat` of every .pt file and the whole compare (read both dumps, read and compare every tensor pair,
// CSV written) in the same run, and prints MB/s for both and their ratio.
//   bench_tensor_compare [--tensors N] [--elements M] [--dir DIR] [--keep]
#include "bench_support.h"

#include "capture/tensor_io.h"
#include "compare/compare_inputs.h"
#include "compare/compare_job.h"

#include <torch/torch.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using namespace msprobe;
using namespace msprobe::bench;

namespace {

void writeBytes(const fs::path& file, const std::string& bytes)
{
    std::ofstream out(file, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out)
        throw std::runtime_error("cannot write " + file.string());
}

std::string statsJson(const at::Tensor& t)
{
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, "\"Max\": %.9g, \"Min\": %.9g, \"Mean\": %.9g, \"Norm\": %.9g", t.max().item<double>(),
        t.min().item<double>(), t.mean().item<double>(), t.norm().item<double>());
    return buffer;
}

// One side: N entries "Functional.linear.{i}.forward", each with one output tensor file. The bench side differs by
// a small relative perturbation so every metric has work to do.
std::uint64_t writeSide(const fs::path& dir, int tensors, std::int64_t elements, bool perturb)
{
    fs::create_directories(dir / "dump_tensor_data");
    std::string json = "{\"task\": \"tensor\", \"level\": \"L1\", \"framework\": \"pytorch\", \"dump_data_dir\": \""
        + (dir / "dump_tensor_data").string() + "\", \"data\": {";
    std::uint64_t bytes = 0;
    torch::manual_seed(7);
    for (int i = 0; i < tensors; ++i) {
        at::Tensor t = torch::randn({ 256, elements / 256 });
        if (perturb)
            t = t * (1 + 1e-4 * torch::randn_like(t));
        const std::string name = "Functional.linear." + std::to_string(i) + ".forward";
        const std::string file = name + ".output.0.pt";
        const std::string pt = capture::encodePt(t);
        writeBytes(dir / "dump_tensor_data" / file, pt);
        bytes += pt.size();
        json += (i ? ", \"" : "\"") + name + "\": {\"input_args\": [], \"input_kwargs\": {}, \"output\": [{\"type\": \"torch.Tensor\", "
            "\"dtype\": \"torch.float32\", \"shape\": [256, " + std::to_string(elements / 256) + "], " + statsJson(t)
            + ", \"requires_grad\": false, \"data_name\": \"" + file + "\"}]}";
    }
    writeBytes(dir / "dump.json", json + "}}");
    return bytes;
}

} // namespace

int main(int argc, char** argv)
{
    int tensors = 10000;
    std::int64_t elements = 65536;
    fs::path root = fs::temp_directory_path() / "msprobe_bench_tensor";
    bool keep = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--tensors" && i + 1 < argc)
            tensors = std::stoi(argv[++i]);
        else if (arg == "--elements" && i + 1 < argc)
            elements = std::stoll(argv[++i]);
        else if (arg == "--dir" && i + 1 < argc)
            root = argv[++i];
        else if (arg == "--keep")
            keep = true;
        else {
            std::fprintf(stderr, "usage: bench_tensor_compare [--tensors N] [--elements M (a multiple of 256)] [--dir DIR] [--keep]\n");
            return 2;
        }
    }
    if (tensors < 1 || elements < 256 || elements % 256) {
        std::fprintf(stderr, "bench_tensor_compare: --tensors must be >= 1 and --elements a multiple of 256\n");
        return 2;
    }
    at::set_num_threads(1);
    fs::remove_all(root);
    WallTimer gen;
    const std::uint64_t bytes = writeSide(root / "problem", tensors, elements, false) + writeSide(root / "bench", tensors, elements, true);
    std::printf("tensor dumps: 2 x %d tensors of %lld float32 elements, %s of .pt files, written in %.1f s\n", tensors,
        static_cast<long long>(elements), formatBytes(bytes).c_str(), gen.seconds());

    // Both reads start from the page cache (the files were just written): the bound is what a warm read costs.
    WallTimer catTimer;
    const std::string cat = "find " + root.string() + " -name '*.pt' -print0 | xargs -0 cat > /dev/null";
    if (std::system(cat.c_str()) != 0)
        std::printf("  cat failed\n");
    const double catSeconds = catTimer.seconds();

    CpuTimer cpu;
    WallTimer timer;
    compare::JobOptions options;
    options.progress = false;
    options.outputRoot = root / "out";
    const auto pairs = compare::resolveComparePairs(root / "problem" / "dump.json", root / "bench" / "dump.json", root / "out", false);
    const compare::JobOutcome job = compare::runCompareJob(pairs, options, nullptr);
    const double seconds = timer.seconds();
    std::uint64_t rows = 0;
    for (const auto& p : job.pairs)
        rows += p.rows;
    std::printf("compare (tensor mode): %.2f s wall, %.2f s CPU, %llu rows, %s of tensor files; cat of the same files %.2f s (%s); "
                "compare / cat = %.2f\n",
        seconds, cpu.seconds(), static_cast<unsigned long long>(rows), formatMBps(bytes, seconds).c_str(), catSeconds,
        formatMBps(bytes, catSeconds).c_str(), catSeconds > 0 ? seconds / catSeconds : 0.0);
    if (!keep)
        fs::remove_all(root);
    return rows == static_cast<std::uint64_t>(tensors) ? 0 : 1;
}
