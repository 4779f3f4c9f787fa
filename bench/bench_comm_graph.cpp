// SPDX-License-Identifier: Apache-2.0
// The cross-rank communication graph of overflow_check: each rank runs `rounds` rounds of a compute op, an
// all_reduce over every rank and a ring send/recv; from the middle round on the all_reduce outputs are Inf on
// every rank (they all stay in the graph) and one compute op of the last rank is the anomaly to find. Prints the
// time per rank count and a hash of the report, so two builds can be compared for the same verdict.
// Usage: bench_comm_graph [rounds (32)] [rank counts (1,8,64,256)] [work dir]
#include "bench_support.h"

#include "diagnose/anomaly_check.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace msprobe;

namespace {

std::string tensor(const char* max)
{
    return std::string(R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "Max": )") + max
        + R"(, "Min": 0.0, "Mean": 0.5, "Norm": 1.0, "requires_grad": false})";
}

std::string intArg(int value) { return R"({"type": "int", "value": )" + std::to_string(value) + "}"; }

void writeRank(const fs::path& dir, int rank, int ranks, int rounds)
{
    std::string worldGroup = "[";
    for (int r = 0; r < ranks; ++r)
        worldGroup += (r ? ", " : "") + std::to_string(r);
    worldGroup += "]";
    std::string dump = R"({"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {)";
    bool first = true;
    auto entry = [&](const std::string& name, const std::string& body) {
        dump += (first ? "\"" : ", \"") + name + "\": " + body;
        first = false;
    };
    for (int k = 0; k < rounds; ++k) {
        const bool late = k >= rounds / 2;
        const bool anomaly = late && rank == ranks - 1 && k == rounds - 1;
        entry("Torch.add." + std::to_string(k) + ".forward",
            "{\"input_args\": [" + tensor("1.0") + "], \"input_kwargs\": {}, \"output\": [" + tensor(anomaly ? "NaN" : "1.0") + "]}");
        entry("Distributed.all_reduce." + std::to_string(k) + ".forward",
            "{\"input_args\": [" + tensor("1.0") + "], \"input_kwargs\": {\"group\": {\"type\": \"torch.ProcessGroup\", \"group_ranks\": "
                + worldGroup + ", \"group_id\": 1}}, \"output\": [" + tensor(late ? "Infinity" : "2.0") + "]}");
        if (ranks > 1) {
            entry("Distributed.send." + std::to_string(k) + ".forward",
                "{\"input_args\": [" + tensor("1.0") + "], \"input_kwargs\": {\"dst\": " + intArg((rank + 1) % ranks) + "}, \"output\": [null]}");
            entry("Distributed.recv." + std::to_string(k) + ".forward",
                "{\"input_args\": [" + tensor("1.0") + "], \"input_kwargs\": {\"src\": " + intArg((rank + ranks - 1) % ranks)
                    + "}, \"output\": [null]}");
        }
    }
    fs::create_directories(dir);
    std::ofstream(dir / "dump.json", std::ios::binary) << dump << "}}";
}

struct Run {
    bool ok = false;
    double seconds = 0, cpuSeconds = 0;
    std::uint64_t reportHash = 0;
    std::size_t reportBytes = 0;
};

std::uint64_t fnv1a(const std::string& text)
{
    std::uint64_t hash = 1469598103934665603ull;
    for (unsigned char c : text)
        hash = (hash ^ c) * 1099511628211ull;
    return hash;
}

std::vector<int> rankCounts(const char* text)
{
    std::vector<int> counts;
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');)
        counts.push_back(std::stoi(item));
    return counts;
}

} // namespace

int main(int argc, char** argv)
{
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 32;
    const std::vector<int> counts = rankCounts(argc > 2 ? argv[2] : "1,8,64,256");
    const fs::path work = argc > 3 ? fs::path(argv[3]) : fs::temp_directory_path() / "msprobe_bench_comm_graph";
    std::printf("overflow_check through the communication graph: %d rounds of all_reduce (all ranks) + ring send/recv\n", rounds);
    // A peer reference is one rank named by one communication op (an all_reduce over R ranks names R): the input
    // grows as ranks x peers, and so may the cost, by a constant per reference.
    std::printf("%8s %10s %12s %10s %10s %14s %10s %18s\n", "ranks", "comm ops", "peer refs", "wall s", "CPU s", "CPU ns/ref", "report B",
        "report hash");
    for (int ranks : counts) {
        const fs::path step = work / ("ranks" + std::to_string(ranks));
        fs::remove_all(step);
        for (int r = 0; r < ranks; ++r)
            writeRank(step / ("rank" + std::to_string(r)), r, ranks, rounds);
        const auto result = bench::runInChild([&] {
            Run run;
            bench::WallTimer timer;
            bench::CpuTimer cpu;
            const std::string report = diagnose::analyzeOverflow(step);
            run.seconds = timer.seconds();
            run.cpuSeconds = cpu.seconds();
            run.reportBytes = report.size();
            run.reportHash = fnv1a(report);
            run.ok = true;
            return run;
        });
        const Run run = result.value_or(Run {});
        const long commOps = static_cast<long>(ranks) * rounds * (ranks > 1 ? 3 : 1);
        const long peerRefs = static_cast<long>(ranks) * rounds * (ranks > 1 ? ranks + 2 : 1);
        std::printf("%8d %10ld %12ld %10.3f %10.3f %14.0f %10zu %18llx%s\n", ranks, commOps, peerRefs, run.seconds, run.cpuSeconds,
            run.cpuSeconds * 1e9 / static_cast<double>(peerRefs), run.reportBytes, static_cast<unsigned long long>(run.reportHash),
            run.ok ? "" : "  (failed)");
        std::fflush(stdout);
        fs::remove_all(step);
    }
    fs::remove_all(work);
    return 0;
}
