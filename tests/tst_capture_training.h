// SPDX-License-Identifier: Apache-2.0
// Shared by the capture dump suites: a tiny transformer trained for a few steps (dumped or not), and a dumped
// tensor leaf checked against statistics computed here in double, independently.
#pragma once
// libtorch headers before Qt's: Qt's "slots" macro breaks them.
#ifndef Q_MOC_RUN // moc needs nothing of libtorch
#include "../examples/tiny_transformer.h"
#include "capture/debugger.h"
#include "capture/seed.h"

#include <torch/torch.h>
#endif

#include "dump/dump_tree.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace msprobe::test {

#ifndef Q_MOC_RUN
inline bool close(double a, double b, double rel = 1e-5)
{
    return std::abs(a - b) <= rel * std::max({ 1e-12, std::abs(a), std::abs(b) });
}

inline std::string readText(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// "" when the tensor leaf at node holds the tensor's shape and statistics.
inline std::string checkLeaf(const dump::DumpFile& dump, std::int64_t node, const torch::Tensor& tensor)
{
    if (node < 0)
        return "no such node";
    if (dump.nodes[static_cast<std::size_t>(node)].kind != dump::NodeKind::Tensor)
        return "not a tensor leaf";
    const auto row = dump.nodes[static_cast<std::size_t>(node)].payload;
    const auto& T = dump.tensors;
    const auto shape = T.shape(row);
    if (std::vector<std::int64_t>(shape.begin(), shape.end()) != tensor.sizes().vec())
        return "shape differs";
    const torch::Tensor d = tensor.detach().to(torch::kDouble);
    const double mx = d.max().item<double>(), mn = d.min().item<double>();
    if (T.max[row].asDouble() != mx || T.min[row].asDouble() != mn)
        return "max/min " + std::to_string(T.max[row].asDouble()) + "/" + std::to_string(T.min[row].asDouble()) + " vs "
            + std::to_string(mx) + "/" + std::to_string(mn);
    if (tensor.scalar_type() == torch::kFloat) {
        if (!close(T.mean[row].asDouble(), d.mean().item<double>(), 1e-4)
            && std::abs(T.mean[row].asDouble() - d.mean().item<double>()) > 1e-7)
            return "mean " + std::to_string(T.mean[row].asDouble()) + " vs " + std::to_string(d.mean().item<double>());
        if (!close(T.norm[row].asDouble(), d.norm().item<double>()))
            return "norm " + std::to_string(T.norm[row].asDouble()) + " vs " + std::to_string(d.norm().item<double>());
    }
    return {};
}

inline tiny::Options smallOptions()
{
    tiny::Options o;
    o.vocab = 16;
    o.seq = 8;
    o.batch = 2;
    o.dModel = 16;
    o.heads = 2;
    o.dFF = 32;
    o.layers = 2;
    return o;
}

// Runs `steps` training steps of the tiny transformer, dumped when a config is given; returns the losses.
inline std::vector<float> trainTiny(int steps, const capture::DumpConfig* config, tiny::TinyTransformer* out = nullptr)
{
    msprobe::seed_all(1234, true, false);
    const tiny::Options o = smallOptions();
    tiny::TinyTransformer model(o);
    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-2));
    std::unique_ptr<PrecisionDebugger> debugger;
    if (config)
        debugger = std::make_unique<PrecisionDebugger>(*config);
    std::vector<float> losses;
    for (int s = 0; s < steps; ++s) {
        auto [input, target] = tiny::makeBatch(o, s);
        if (debugger)
            debugger->start(*model);
        losses.push_back(tiny::trainStep(model, optimizer, o, input, target).item<float>());
        if (debugger) {
            debugger->stop();
            debugger->step();
        }
    }
    if (out)
        *out = model;
    return losses;
}

#endif

} // namespace msprobe::test
