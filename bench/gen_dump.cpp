// SPDX-License-Identifier: Apache-2.0
// gen_dump: writes synthetic msprobe dump folders (dump.json, construct.json, stack.json) of any size.
#include "bench_support.h"
#include "dump_generator.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace {

using msprobe::bench::GeneratorOptions;

void usage(std::FILE* out)
{
    std::fputs(
        "usage: gen_dump -o DIR [options]\n"
        "Writes DIR/step{S}/rank{R}/{dump,construct,stack}.json shaped like a msprobe \"mix\" dump of one\n"
        "training step of a LLaMA-style model (forward in post-order, backward, parameters_grad).\n"
        "\n"
        "  --size MB           stop once dump.json reaches MB megabytes (10^6 bytes)\n"
        "  --entries N         stop after N entries\n"
        "                      (neither: --micro-batches passes, then the optimizer step)\n"
        "  --micro-batches N   forward+backward passes without a target (default 1)\n"
        "  --layers N          decoder layers (default 4)\n"
        "  --seed N            (default 1)\n"
        "  --ranks N           rank0..rank{N-1}, with tensor-parallel all_reduce entries when N > 1\n"
        "  --steps N           step0..step{N-1} (default 1)\n"
        "  --md5               summary_mode md5: an \"md5\" key on every tensor\n"
        "  --repeat-values     a parameter's statistics repeat exactly at each use (the old generator;\n"
        "                      default: every floating statistic distinct, as in real training)\n"
        "  --pair              DIR/bench/... and DIR/problem/...: same structure, faults on problem only\n"
        "  --perturb REL       relative noise on every float statistic (default 1e-4 with --pair)\n"
        "  --diverge-at N      from entry N on, statistics are off by --divergence (default 0.05)\n"
        "  --divergence REL\n"
        "  --nan-rate P        chance per tensor of NaN/Infinity statistics (sprinkled)\n"
        "  --nan-at N          the outputs of entry N turn NaN/Inf and spread downstream and to backward\n"
        "  --flat              write the files straight into DIR (DIR/bench, DIR/problem with --pair)\n"
        "  --quiet\n",
        out);
}

struct Cli {
    GeneratorOptions options;
    std::filesystem::path out;
    int steps = 1, ranks = 1;
    bool pair = false, flat = false, quiet = false, perturbSet = false;
};

bool parse(int argc, char** argv, Cli& cli)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            usage(stdout);
            std::exit(0);
        }
        auto flag = [&](std::string_view name) { return arg == name; };
        if (flag("--pair")) { cli.pair = true; continue; }
        if (flag("--md5")) { cli.options.md5 = true; continue; }
        if (flag("--repeat-values")) { cli.options.repeatValues = true; continue; }
        if (flag("--flat")) { cli.flat = true; continue; }
        if (flag("--quiet")) { cli.quiet = true; continue; }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "gen_dump: %s needs a value (or is unknown)\n", argv[i]);
            return false;
        }
        const char* value = argv[++i];
        char* end = nullptr;
        const double number = std::strtod(value, &end);
        if (arg != "-o" && (end == value || *end != '\0')) {
            std::fprintf(stderr, "gen_dump: %s: not a number: %s\n", argv[i - 1], value);
            return false;
        }
        auto count = [number] { return static_cast<std::int64_t>(number); };
        if (arg == "-o" || arg == "--out") cli.out = value;
        else if (flag("--size")) cli.options.targetBytes = static_cast<std::uint64_t>(number * 1e6);
        else if (flag("--entries")) cli.options.targetEntries = static_cast<std::uint64_t>(count());
        else if (flag("--micro-batches")) cli.options.microBatches = static_cast<int>(count());
        else if (flag("--layers")) cli.options.layers = static_cast<int>(count());
        else if (flag("--seed")) cli.options.seed = static_cast<std::uint64_t>(count());
        else if (flag("--ranks")) cli.ranks = static_cast<int>(count());
        else if (flag("--steps")) cli.steps = static_cast<int>(count());
        else if (flag("--perturb")) { cli.options.perturb = number; cli.perturbSet = true; }
        else if (flag("--diverge-at")) cli.options.divergeAt = count();
        else if (flag("--divergence")) cli.options.divergence = number;
        else if (flag("--nan-rate")) cli.options.nanRate = number;
        else if (flag("--nan-at")) cli.options.nanAt = count();
        else {
            std::fprintf(stderr, "gen_dump: unknown option %s\n", argv[i - 1]);
            return false;
        }
    }
    if (cli.out.empty()) {
        usage(stderr);
        return false;
    }
    if (cli.ranks < 1 || cli.steps < 1 || cli.options.layers < 0) {
        std::fprintf(stderr, "gen_dump: --ranks and --steps must be >= 1, --layers >= 0\n");
        return false;
    }
    if (cli.pair && !cli.perturbSet)
        cli.options.perturb = 1e-4;
    cli.options.worldSize = cli.ranks;
    return true;
}

msprobe::bench::GeneratedStats writeOne(const Cli& cli, const std::filesystem::path& dir, const GeneratorOptions& options)
{
    msprobe::bench::WallTimer timer;
    const auto stats = msprobe::bench::writeDumpFolder(dir, options);
    const double seconds = timer.seconds();
    if (!cli.quiet)
        std::printf("%s: %s, %llu entries, %llu tensors (%llu NaN/Inf), %.2f s, %s\n", (dir / "dump.json").c_str(),
            msprobe::bench::formatBytes(stats.bytes).c_str(), static_cast<unsigned long long>(stats.entries),
            static_cast<unsigned long long>(stats.tensors), static_cast<unsigned long long>(stats.nonFiniteTensors), seconds,
            msprobe::bench::formatMBps(stats.bytes, seconds).c_str());
    return stats;
}

} // namespace

int main(int argc, char** argv)
{
    Cli cli;
    if (!parse(argc, argv, cli))
        return 2;
    // Pair sides must have the same entries; NaN tokens change the size, so the problem side
    // stops at the entry count the bench side reached.
    std::vector<std::uint64_t> benchEntries;
    try {
        for (int side = 0; side < (cli.pair ? 2 : 1); ++side) {
            std::filesystem::path root = cli.out;
            GeneratorOptions sideOptions = cli.options;
            if (cli.pair) {
                root /= side == 0 ? "bench" : "problem";
                if (side == 0)
                    sideOptions = msprobe::bench::withoutFaults(sideOptions);
            }
            for (int step = 0; step < cli.steps; ++step) {
                for (int rank = 0; rank < cli.ranks; ++rank) {
                    GeneratorOptions options = sideOptions;
                    options.seed = sideOptions.seed + static_cast<std::uint64_t>(step) * 7919u;
                    options.rank = rank;
                    const bool single = cli.flat && cli.steps == 1 && cli.ranks == 1;
                    const auto dir = single ? root : root / ("step" + std::to_string(step)) / ("rank" + std::to_string(rank));
                    const std::size_t index = static_cast<std::size_t>(step * cli.ranks + rank);
                    if (side == 1 && (options.targetBytes || options.targetEntries)) {
                        options.targetBytes = 0;
                        options.targetEntries = benchEntries.at(index);
                    }
                    const auto stats = writeOne(cli, dir, options);
                    if (side == 0)
                        benchEntries.push_back(stats.entries);
                }
            }
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "gen_dump: %s\n", error.what());
        return 1;
    }
    return 0;
}
