// SPDX-License-Identifier: Apache-2.0
// Synthetic msprobe dumps of any size, shaped like one "mix"-level training step of a LLaMA-style
// decoder (embedding, N decoder layers, lm_head, cross-entropy, backward, parameter gradients).
// Independent of the core library: benchmarks and fuzzers use it to make their inputs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace msprobe::bench {

struct GeneratorOptions {
    // Stop at the first entry boundary at or past either target (0: no target). Without any
    // target, microBatches forward+backward passes are written, then the optimizer step.
    std::uint64_t targetBytes = 0;
    std::uint64_t targetEntries = 0;
    int microBatches = 1;
    std::uint64_t seed = 1;
    int layers = 4;
    int rank = 0;
    int worldSize = 1; // > 1 adds tensor-parallel Distributed.all_reduce entries
    bool md5 = false; // summary_mode "md5": an "md5" checksum on every tensor leaf
    // Statistics as in real training: every floating value distinct (a parameter seen again in a later
    // micro-batch drifts a little). True: a parameter's statistics repeat exactly each time it is used,
    // as the generator wrote before (about 60% distinct values), which flatters a reader.
    bool repeatValues = false;

    // Faults; they change values only, never the structure, so a faulted dump still pairs
    // entry for entry with the clean one made from the same seed.
    double perturb = 0.0; // relative noise on every floating statistic
    std::int64_t divergeAt = -1; // from this entry index on, floating statistics are off by `divergence`
    double divergence = 0.05;
    double nanRate = 0.0; // chance that a tensor leaf's statistics are NaN/Infinity (not propagated)
    std::int64_t nanAt = -1; // the outputs of this entry turn NaN/Inf and spread through the data flow
};

struct GeneratedStats {
    std::uint64_t bytes = 0; // of dump.json
    std::uint64_t entries = 0;
    std::uint64_t tensors = 0;
    std::uint64_t nonFiniteTensors = 0;
};

using TextSink = std::function<void(std::string_view)>;

// Streams dump.json to `dump`; construct.json and stack.json to their sinks when these are set.
GeneratedStats generateDump(const GeneratorOptions& options, const TextSink& dump, const TextSink& construct = {},
                            const TextSink& stack = {});

// dump.json in memory.
std::string generateDumpJson(const GeneratorOptions& options, GeneratedStats* stats = nullptr);

// Writes dump.json, construct.json and stack.json into dir (created if needed). Throws
// std::runtime_error on I/O errors.
GeneratedStats writeDumpFolder(const std::filesystem::path& dir, const GeneratorOptions& options);

// A clean copy of the options: same structure and values, no faults (the "bench" side of a pair).
GeneratorOptions withoutFaults(GeneratorOptions options);

} // namespace msprobe::bench
