// SPDX-License-Identifier: Apache-2.0
// Trains the tiny transformer for a few steps with Adam, dumped by msprobe::PrecisionDebugger and watched by
// msprobe::TrainerMonitor. Run it twice, once with --fault (tanh GELU in block 1), and compare the dumps with
// `msprobe compare` to find the faulty layer. --fault-attention-scale scales block 1's attention scores by 1.25
// instead: two monitor runs, one with it, show `msprobe trend_compare` finding that attention first.
//
//   msprobe_example_train --config dump_config.json --dump-path bench_dump --monitor-dir monitor
//   msprobe_example_train --config dump_config.json --dump-path problem_dump --fault
//
// To compare with a Python run of the same model by the Python msprobe (either tool comparing), dump with
// examples/dump_config_cross_runtime.json (task tensor, .pt files, which is all the Python tool reads) and
// --rank 0, so that the dump lands in step0/rank0 as a distributed Python run's does (-da needs rank folders):
//
//   msprobe_example_train --config examples/dump_config_cross_runtime.json --dump-path cpp_dump --rank 0
#include "tiny_transformer.h"

#include "capture/debugger.h"
#include "capture/memory/memory_recorder.h"
#include "capture/monitor.h"
#include "capture/seed.h"

#include <cstdio>
#include <cstring>
#include <cstdint>
#include <optional>
#include <string>

namespace {

void usage()
{
    std::puts("usage: msprobe_example_train [--steps N] [--config CONFIG.json] [--dump-path DIR]\n"
              "                             [--monitor-dir DIR] [--monitor-config CONFIG.json] [--fault]\n"
              "                             [--fault-attention-scale] [--memory DIR] [--rank N]");
}

} // namespace

int main(int argc, char** argv)
{
    int steps = 3;
    std::string config, dumpPath, monitorDir, monitorConfig, memoryDir;
    bool fault = false, attentionScaleFault = false;
    std::optional<std::int64_t> rank;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                usage();
                std::exit(2);
            }
            return argv[++i];
        };
        if (arg == "--steps")
            steps = std::stoi(next());
        else if (arg == "--config")
            config = next();
        else if (arg == "--dump-path")
            dumpPath = next();
        else if (arg == "--monitor-dir")
            monitorDir = next();
        else if (arg == "--monitor-config")
            monitorConfig = next();
        else if (arg == "--memory")
            memoryDir = next();
        else if (arg == "--fault")
            fault = true;
        else if (arg == "--rank")
            rank = std::stoll(next());
        else if (arg == "--fault-attention-scale")
            attentionScaleFault = true;
        else {
            usage();
            return arg == "-h" || arg == "--help" ? 0 : 2;
        }
    }
    try {
        at::set_num_threads(1);
        msprobe::seed_all(1234, true, false);
        tiny::Options options;
        if (fault)
            options.tanhGeluBlock = 1;
        if (attentionScaleFault)
            options.attentionScaleBlock = 1;
        tiny::TinyTransformer model(options);
        torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));

        std::optional<msprobe::PrecisionDebugger> debugger;
        if (!config.empty())
            debugger.emplace(config, dumpPath.empty() ? std::nullopt : std::optional<std::string>(dumpPath));
        // rank{N} instead of proc{PID} (the RANK environment variable does the same).
        if (debugger && rank)
            debugger->setRank(*rank);
        std::optional<msprobe::TrainerMonitor> monitor;
        if (!monitorDir.empty()) {
            if (monitorConfig.empty()) {
                msprobe::TrainerMonitor::Options monitorOptions;
                monitorOptions.outputDir = monitorDir;
                monitor.emplace(monitorOptions);
            } else
                monitor.emplace(monitorConfig, monitorDir);
            monitor->start(*model, optimizer);
        }
        // --memory DIR: every allocation/free as an msMemScope dump CSV under DIR (msprobe::MemoryRecorder).
        std::optional<msprobe::MemoryRecorder> memory;
        if (!memoryDir.empty()) {
            memory.emplace(msprobe::MemoryCaptureOptions { .outputDir = memoryDir });
            memory->start(*model, optimizer);
        }
        for (int step = 0; step < steps; ++step) {
            auto [input, target] = tiny::makeBatch(options, step);
            if (debugger)
                debugger->start(*model);
            optimizer.zero_grad();
            auto logits = model->forward(input);
            auto loss = torch::nn::functional::cross_entropy(logits.view({ -1, options.vocab }), target.view({ -1 }));
            loss.backward();
            {
                // construct.json puts the optimizer's ops under an "optimizer" root, as the reference does.
                std::optional<msprobe::OptimizerStepScope> optimizerScope;
                if (debugger)
                    optimizerScope.emplace(*debugger);
                std::optional<msprobe::MemoryOptimizerScope> memoryOptimizerPhase;
                if (memory)
                    memoryOptimizerPhase.emplace();
                if (monitor)
                    monitor->optimizerStep();
                else
                    optimizer.step();
            }
            if (debugger) {
                debugger->stop();
                debugger->step();
            }
            if (memory)
                memory->step();
            std::printf("step %d loss %.8f\n", step, loss.item<double>());
        }
        if (memory) {
            memory->stop();
            std::printf("memory: %s\n", memory->csvPath().c_str());
        }
        if (monitor)
            std::printf("monitor: %s\n", monitor->outputDir().c_str());
    } catch (const std::exception& error) {
        std::fprintf(stderr, "msprobe_example_train: %s\n", error.what());
        return 1;
    }
    return 0;
}
