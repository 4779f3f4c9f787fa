// SPDX-License-Identifier: Apache-2.0
// Memory capture overhead on the example's training step (tiny transformer, Adam, CPU, one intra-op thread):
// plain step vs the same step under msprobe::MemoryRecorder with alloc/free/op events, with module scopes and
// owner tags (model + optimizer), and with ACCESS rows, in one run; rounds interleave the modes.
//
//   bench_memory_capture [--steps N] [--out DIR] [--check]
// Prints per-mode median step time and the ratio to the plain step; with --check exits 1 when alloc/free/op
// exceeds 1.2x or ACCESS exceeds 2x.
#include "../examples/tiny_transformer.h"
#include "bench_support.h"

#include "capture/memory/memory_recorder.h"
#include "capture/seed.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Mode {
    const char* label;
    bool record;
    bool model; // module scopes + owner tags
    bool access;
    double limit; // ratio checked with --check; 0 = none
};

double threadCpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    int steps = 40;
    bool check = false;
    std::filesystem::path out = std::filesystem::temp_directory_path() / "msprobe_bench_memory";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--steps" && i + 1 < argc)
            steps = std::stoi(argv[++i]);
        else if (arg == "--out" && i + 1 < argc)
            out = argv[++i];
        else if (arg == "--check")
            check = true;
        else {
            std::puts("usage: bench_memory_capture [--steps N] [--out DIR] [--check]");
            return 2;
        }
    }
    at::set_num_threads(1);
    msprobe::seed_all(1234, false, false);
    tiny::Options options;
    tiny::TinyTransformer model(options);
    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-4));
    const auto [input, target] = tiny::makeBatch(options, 0);
    const std::vector<Mode> modes = {
        { "plain", false, false, false, 0 },
        { "alloc/free/op", true, false, false, 1.2 },
        { "alloc/free/op + modules", true, true, false, 0 },
        { "access", true, false, true, 2.0 },
    };
    for (int w = 0; w < 5; ++w)
        tiny::trainStep(model, optimizer, options, input, target);

    // Wall time, and the training thread's own CPU time (far less sensitive to a loaded machine; the writer
    // thread's work is not in it).
    std::vector<std::vector<double>> times(modes.size()), mainCpu(modes.size());
    std::vector<std::uint64_t> events(modes.size());
    const int rounds = std::max(1, steps / 5);
    for (int r = 0; r < rounds; ++r) {
        for (std::size_t m = 0; m < modes.size(); ++m) {
            std::unique_ptr<msprobe::MemoryRecorder> memory;
            if (modes[m].record) {
                memory = std::make_unique<msprobe::MemoryRecorder>(
                    msprobe::MemoryCaptureOptions { .outputDir = out / std::to_string(m), .access = modes[m].access });
                if (modes[m].model)
                    memory->start(*model, optimizer);
                else
                    memory->start();
            }
            for (int s = 0; s < 5; ++s) {
                msprobe::bench::WallTimer timer;
                const double thread0 = threadCpuSeconds();
                tiny::trainStep(model, optimizer, options, input, target);
                if (memory)
                    memory->step();
                times[m].push_back(timer.seconds());
                mainCpu[m].push_back(threadCpuSeconds() - thread0);
            }
            if (memory) {
                memory->stop();
                events[m] += memory->eventCount();
            }
            memory.reset(); // the writer finishes here, outside the timed steps
        }
    }
    std::filesystem::remove_all(out);
    std::printf("memory capture overhead, tiny transformer training step (d_model %lld, seq %lld, batch %lld, "
                "%lld layers, Adam), %d steps per mode, 1 thread\n",
        static_cast<long long>(options.dModel), static_cast<long long>(options.seq),
        static_cast<long long>(options.batch), static_cast<long long>(options.layers), rounds * 5);
    std::printf("%-26s %10s %7s %12s %7s %12s\n", "mode", "wall ms", "ratio", "main CPU ms", "ratio", "events/step");
    const double plain = median(times[0]), plainMain = median(mainCpu[0]);
    bool ok = true;
    for (std::size_t m = 0; m < modes.size(); ++m) {
        const double ratio = median(times[m]) / plain;
        std::printf("%-26s %10.3f %6.2fx %12.3f %6.2fx %12llu\n", modes[m].label, median(times[m]) * 1e3, ratio,
            median(mainCpu[m]) * 1e3, median(mainCpu[m]) / plainMain, static_cast<unsigned long long>(events[m] / static_cast<std::uint64_t>(rounds * 5)));
        if (modes[m].limit > 0 && ratio > modes[m].limit) {
            std::printf("  over the %.1fx target\n", modes[m].limit);
            ok = false;
        }
    }
    return check && !ok ? 1 : 0;
}
