// SPDX-License-Identifier: Apache-2.0
// msprobe::TrainerMonitor: the training-state monitor (msprobe monitor v1, CSV format) for libtorch programs.
// Every collected step writes {metric}_{step}-{step}.csv files into
// {output_dir}/{MonDD_HH-MM-SS}-rank{R}-{hash}/, readable by `msprobe data2db`:
//   actv / actv_grad        per-module input/output activations and their gradients (name "{module}.input")
//   grad_unreduced / grad_reduced   parameter gradients (no data parallelism: both the same values)
//   param_origin / param_updated    parameters before / after the optimizer step
//   exp_avg / exp_avg_sq    Adam/AdamW moments (from the step where the optimizer has state)
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace torch::nn {
class Module;
}
namespace torch::optim {
class Optimizer;
}

namespace msprobe {

class TrainerMonitor {
public:
    struct Options {
        std::filesystem::path outputDir = "./monitor_output";
        std::int64_t rank = 0;
        std::vector<std::string> ops = { "min", "max", "norm", "zeros", "nans", "mean" };
        int ndigits = 12;
        std::int64_t startStep = 0;
        std::int64_t stepInterval = 1;
        std::int64_t collectTimes = 100000000;
        bool activations = true; // xy_distribution
        bool forwardOnly = false, backwardOnly = false;
        bool gradients = true; // wg_distribution
        bool parameters = true; // param_distribution
        bool moments = true; // mv_distribution
        std::vector<std::string> targets; // module path prefixes; empty = all modules
    };

    explicit TrainerMonitor(Options options);
    // Reads a monitor config.json (targets, start_step, step_interval, collect_times, xy_distribution,
    // forward_only, backward_only, wg_distribution, param_distribution, mv_distribution, ops, ndigits,
    // format "csv"); errors name the file and the key.
    TrainerMonitor(const std::filesystem::path& configPath, const std::filesystem::path& outputDir);
    ~TrainerMonitor();
    TrainerMonitor(const TrainerMonitor&) = delete;
    TrainerMonitor& operator=(const TrainerMonitor&) = delete;

    // Starts observing the model's modules (MSPROBE_MODULE_SCOPE and parameter owners) and the optimizer.
    void start(torch::nn::Module& model, torch::optim::Optimizer& optimizer);
    // Replaces optimizer.step(): records gradients, parameters and moments around it and writes the step's files.
    void optimizerStep();
    // The two halves of optimizerStep() for loops that call optimizer.step() themselves.
    void beforeOptimizerStep();
    void afterOptimizerStep();
    void stop();

    const std::filesystem::path& outputDir() const;
    std::int64_t step() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace msprobe
