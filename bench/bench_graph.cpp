// SPDX-License-Identifier: Apache-2.0
// Graph benchmark: build + compare + vis.db write of the anchor workload (a 100k-entry dump pair from the
// compare bench's generator, about 240k nodes in all) and of a synthetic transformer/MoE model of about
// 240k nodes per side, and Graphviz layouts of a 500- and a 1,000-node group.
#include "bench_support.h"

#include "compare/compare_engine.h"
#include "graph/model/graph_builder.h"
#include "graph/match/graph_compare.h"
#include "graph/match/graph_match.h"
#include "graph/model/graph_passes.h"
#include "graph/pair_writer.h"
#include "graph/layout/graph_layout.h"
#include "graph/visdb/vis_db_writer.h"
#include "dump_generator.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <random>
#include <string>

namespace fs = std::filesystem;
using namespace msprobe;
namespace layout = msprobe::graph::layout;

namespace {

// Writes construct.json, dump.json and stack.json of one side. `bias` perturbs the statistics of one
// expert so that the compare has something to find.
class ModelWriter {
public:
    ModelWriter(int layers, int experts, bool problem)
        : m_layers(layers)
        , m_experts(experts)
        , m_problem(problem)
    {
    }

    void write(const fs::path& dir)
    {
        fs::create_directories(dir);
        m_dump = "{\"task\": \"statistics\", \"level\": \"mix\", \"framework\": \"pytorch\", \"dump_data_dir\": null, \"data\": {\n";
        m_construct = "{\n";
        const std::string root = "Module.model.Model.forward.0";
        module(root, "", 2.0);
        for (int l = 0; l < m_layers; ++l)
            layer(l, root);
        std::string head = "Module.model.head.Linear.forward.0";
        module(head, root, 1.0);
        api("Functional.linear." + std::to_string(m_apiCount["linear"]++) + ".forward", head, 1.0);
        // backward: mirror every forward module in reverse order
        for (auto it = m_forwardModules.rbegin(); it != m_forwardModules.rend(); ++it) {
            std::string name = it->first;
            name.replace(name.rfind(".forward."), 9, ".backward.");
            std::string parent = it->second;
            if (!parent.empty())
                parent.replace(parent.rfind(".forward."), 9, ".backward.");
            entry(name, parent, 0.5, true);
        }
        m_dump.resize(m_dump.size() - 2);
        m_dump += "\n}}\n";
        m_construct.resize(m_construct.size() - 2);
        m_construct += "\n}\n";
        std::ofstream(dir / "dump.json") << m_dump;
        std::ofstream(dir / "construct.json") << m_construct;
        std::ofstream(dir / "stack.json") << "{\"0\": [[\"" << root << "\"], [\"File train.py, line 10, in forward, \\n out = model(x)\"]]}\n";
    }

    std::size_t nodes() const { return m_nodes; }

private:
    void tensor(std::string& out, double scale)
    {
        char buf[320];
        std::snprintf(buf, sizeof buf,
            "{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [4, 128, 256], \"Max\": %.6f, \"Min\": %.6f, "
            "\"Mean\": %.6f, \"Norm\": %.6f, \"requires_grad\": true}",
            3.1 * scale, -2.9 * scale, 0.01 * scale, 45.3 * scale);
        out += buf;
    }

    void entry(const std::string& name, const std::string& parent, double scale, bool backward)
    {
        m_construct += "\"" + name + "\": " + (parent.empty() ? std::string("null") : "\"" + parent + "\"") + ",\n";
        m_dump += "\"" + name + "\": {" + (backward ? "\"input\": [" : "\"input_args\": [");
        tensor(m_dump, scale);
        m_dump += backward ? "], \"output\": [" : "], \"input_kwargs\": {}, \"output\": [";
        tensor(m_dump, scale * (m_outputBias ? m_outputBias : 1.01));
        m_dump += "]},\n";
        ++m_nodes;
    }

    void module(const std::string& name, const std::string& parent, double scale)
    {
        entry(name, parent, scale, false);
        m_outputBias = 0;
        m_forwardModules.emplace_back(name, parent);
    }

    void api(const std::string& name, const std::string& parent, double scale)
    {
        entry(name, parent, scale, false);
        std::string backward = name.substr(0, name.rfind(".forward")) + ".backward";
        m_backwardApis.emplace_back(backward, parent);
        std::string bparent = parent;
        bparent.replace(bparent.rfind(".forward."), 9, ".backward.");
        m_pendingBackward.emplace_back(backward, bparent);
    }

    std::string linear(const std::string& path, const std::string& parent, double scale)
    {
        const std::string name = "Module." + path + ".Linear.forward.0";
        module(name, parent, scale);
        api("Functional.linear." + std::to_string(m_apiCount["linear"]++) + ".forward", name, scale);
        return name;
    }

    void layer(int l, const std::string& root)
    {
        const std::string p = "model.layers." + std::to_string(l);
        const std::string block = "Module." + p + ".Block.forward.0";
        module(block, root, 1.0);
        const std::string ln1 = "Module." + p + ".ln1.LayerNorm.forward.0";
        module(ln1, block, 1.0);
        api("Functional.layer_norm." + std::to_string(m_apiCount["ln"]++) + ".forward", ln1, 1.0);
        const std::string attn = "Module." + p + ".attn.Attention.forward.0";
        module(attn, block, 1.0);
        for (const char* proj : { "q_proj", "k_proj", "v_proj" })
            linear(p + ".attn." + proj, attn, 1.0);
        api("Torch.matmul." + std::to_string(m_apiCount["mm"]++) + ".forward", attn, 1.0);
        api("Functional.softmax." + std::to_string(m_apiCount["sm"]++) + ".forward", attn, 1.0);
        api("Torch.matmul." + std::to_string(m_apiCount["mm"]++) + ".forward", attn, 1.0);
        linear(p + ".attn.o_proj", attn, 1.0);
        const std::string ln2 = "Module." + p + ".ln2.LayerNorm.forward.0";
        module(ln2, block, 1.0);
        api("Functional.layer_norm." + std::to_string(m_apiCount["ln"]++) + ".forward", ln2, 1.0);
        const std::string moe = "Module." + p + ".moe.MoE.forward.0";
        module(moe, block, 1.0);
        linear(p + ".moe.router", moe, 1.0);
        for (int e = 0; e < m_experts; ++e) {
            const std::string ep = p + ".moe.experts." + std::to_string(e);
            const std::string expert = "Module." + ep + ".Expert.forward.0";
            const double scale = 1.0;
            if (m_problem && l == m_layers / 2 && e == 3)
                m_outputBias = 1.8; // only this expert's output drifts
            entry(expert, moe, scale, false);
            m_outputBias = 0;
            m_forwardModules.emplace_back(expert, moe);
            linear(ep + ".fc1", expert, scale);
            api("Functional.gelu." + std::to_string(m_apiCount["gelu"]++) + ".forward", expert, scale);
            linear(ep + ".fc2", expert, scale);
        }
        api("Torch.sum." + std::to_string(m_apiCount["sum"]++) + ".forward", moe, 1.0);
        // API backwards go after the layer's forward, before the module backwards (order is irrelevant here).
        for (const auto& [name, parent] : m_pendingBackward)
            entry(name, parent, 0.5, true);
        m_pendingBackward.clear();
    }

    int m_layers, m_experts;
    bool m_problem;
    std::string m_dump, m_construct;
    std::vector<std::pair<std::string, std::string>> m_forwardModules, m_backwardApis, m_pendingBackward;
    std::map<std::string, int> m_apiCount;
    std::size_t m_nodes = 0;
    double m_outputBias = 0;
};

layout::LayoutRequest chainWithBranches(std::size_t n)
{
    layout::LayoutRequest request;
    std::mt19937 rng(7);
    for (std::size_t i = 0; i < n; ++i)
        request.nodes.push_back({ 80.0 + double(rng() % 80), 22 });
    for (std::size_t i = 1; i < n; ++i) {
        request.edges.push_back({ std::uint32_t(i - 1), std::uint32_t(i) });
        if (i % 7 == 0 && i >= 5)
            request.edges.push_back({ std::uint32_t(i - 5), std::uint32_t(i) }); // residual
    }
    return request;
}

// As graph_visualize does: each side read and built on its own thread, then match + compare, then the
// vis.db. Prints the phases with wall and CPU time.
void buildCompareWrite(const fs::path& dir, const char* label)
{
    bench::WallTimer timer;
    bench::CpuTimer cpu, phaseCpu;
    auto buildSide = [](const fs::path& side) { return graph::buildGraph(side); };
    auto benchFuture = std::async(std::launch::async, buildSide, dir / "bench");
    graph::Graph npu = buildSide(dir / "npu");
    graph::Graph benchGraph = benchFuture.get();
    benchGraph.dataSource = "Bench";
    const double build = timer.seconds();
    const double buildCpu = phaseCpu.seconds();
    phaseCpu.restart();
    timer.restart();
    graph::matchGraphs(npu, benchGraph, {});
    const double match = timer.seconds();
    const int microSteps = graph::pageByMicroStep(npu, &benchGraph);
    {
        // As graph_visualize: the bench rows are written while the NPU side is compared.
        graph::VisDbWriter writer(dir / "compare_bench.vis.db");
        graph::RenderOptions render;
        graph::GraphCompareOptions options;
        graph::compareAndWritePair(writer, npu, benchGraph, options, 0, 0, render);
        const double rows = timer.seconds();
        graph::VisConfig config;
        config.compare = true;
        config.microSteps = microSteps;
        writer.writeConfig(config);
        writer.finish(false, false);
        std::printf("  match %.2f s, compare + rows %.2f s, indexes + file %.2f s\n", match, rows - match, timer.seconds() - rows);
    }
    const double write = timer.seconds();
    const double writeCpu = phaseCpu.seconds();
    std::size_t bad = 0;
    for (const auto& node : npu.nodes)
        bad += node.hasPrecision() && node.precision > 0;
    const std::size_t rows = npu.size() + benchGraph.size();
    const double total = build + write;
    std::printf("[%s] nodes: %zu (NPU) + %zu (bench) = %zu rows; nodes graded > 0: %zu\n", label, npu.size(), benchGraph.size(), rows, bad);
    std::printf("  read + build both graphs (2 threads): %.2f s wall, %.2f s CPU\n", build, buildCpu);
    std::printf("  match, compare, vis.db write: %.2f s wall, %.2f s CPU (%s, %.0f rows/s)\n", write, writeCpu,
        bench::formatBytes(fs::file_size(dir / "compare_bench.vis.db")).c_str(), rows / write);
    std::printf("  build+compare+write:  %.2f s wall (target 3.5 s), %.2f s CPU, %.0f rows/s; peak RSS so far %s\n", total,
        cpu.seconds(), rows / total, bench::formatBytes(bench::peakRssBytes()).c_str());
}

} // namespace

int main(int argc, char** argv)
{
    // bench_graph [--anchor ENTRIES] [--model LAYERS EXPERTS] [--keep DIR]
    // Default: the anchor (a 100k-entry pair from the compare bench's generator, as the reference's anchor
    // measurement) and then the 560 x 32 MoE model (about 240k nodes per side). 0 skips either.
    std::uint64_t anchorEntries = 100000;
    int layers = 560, experts = 32;
    fs::path keep;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--keep" && i + 1 < argc)
            keep = argv[++i];
        else if (arg == "--anchor" && i + 1 < argc)
            anchorEntries = std::stoull(argv[++i]);
        else if (arg == "--model" && i + 2 < argc) {
            layers = std::stoi(argv[++i]);
            experts = std::stoi(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: bench_graph [--anchor ENTRIES] [--model LAYERS EXPERTS] [--keep DIR]\n");
            return 2;
        }
    }
    const fs::path root = keep.empty() ? fs::temp_directory_path() / ("bench_graph_" + std::to_string(::getpid())) : keep;
    bench::WallTimer timer;
    if (anchorEntries > 0) {
        const fs::path dir = root / "anchor";
        bench::GeneratorOptions problem;
        problem.targetEntries = anchorEntries;
        problem.layers = 32;
        problem.seed = 7;
        problem.perturb = 1e-4;
        problem.divergeAt = static_cast<std::int64_t>(anchorEntries / 2);
        const auto stats = bench::writeDumpFolder(dir / "npu", problem);
        bench::writeDumpFolder(dir / "bench", bench::withoutFaults(problem));
        std::printf("anchor: generated 2 x %llu entries (%s dump.json each) in %.2f s\n",
            static_cast<unsigned long long>(stats.entries), bench::formatBytes(stats.bytes).c_str(), timer.seconds());
        buildCompareWrite(dir, "anchor");
        if (keep.empty())
            fs::remove_all(dir);
    }
    if (layers > 0 && experts > 0) {
        const fs::path dir = root / "moe";
        timer.restart();
        ModelWriter npuWriter(layers, experts, true), benchWriter(layers, experts, false);
        npuWriter.write(dir / "npu");
        benchWriter.write(dir / "bench");
        std::printf("MoE model: generated %zu dump entries per side in %.2f s\n", npuWriter.nodes(), timer.seconds());
        buildCompareWrite(dir, "MoE per side");
        if (keep.empty())
            fs::remove_all(dir);
    }

    for (std::size_t n : { 500u, 1000u }) {
        const auto request = chainWithBranches(n);
        layout::LayoutResult result;
        timer.restart();
        result = layout::layoutGroup(request);
        const double seconds = timer.seconds();
        std::printf("layout %zu-node group: %.3f s (engine %s, %.0f x %.0f pt)%s\n", n, seconds,
            result.engine == layout::Engine::Dot ? "dot" : result.engine == layout::Engine::DotTuned ? "dot tuned" : "fallback",
            result.width, result.height, n == 500 ? " (target 0.3 s)" : "");
    }
    if (keep.empty())
        fs::remove_all(root);
    return 0;
}
