// SPDX-License-Identifier: Apache-2.0
// Reads tests/data/parallel/megatron_plot_cases.txt, the reference's output for ParallelConfig cases: the config,
// then either its error or the file name, derived sizes, groups, representatives, rows, title and figure size.
#pragma once

#include "test_util.h"

#include "parallel/parallel_layout.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <regex>
#include <utility>

namespace msprobe::test {

struct GoldenRow {
    std::string label;
    std::vector<std::tuple<int, int, std::string>> cells; // (column, copy 0-based, text)
};

struct GoldenCase {
    std::map<std::string, std::string> config; // key -> value text (quotes removed)
    std::optional<std::string> error; // "ValueError ..." / "MsprobeException ..."
    std::string file, derived, title;
    std::vector<std::vector<int>> tpGroups, ppGroups, dpGroups, copies;
    std::map<std::pair<int, int>, int> representatives; // (copy, tp group) -> rank
    std::vector<GoldenRow> rows;
    std::pair<double, double> figsize;
};

// A Python literal of lists, tuples, ints and '...' strings as JSON.
inline nlohmann::json pythonLiteral(std::string text)
{
    for (char& c : text) {
        if (c == '(')
            c = '[';
        else if (c == ')')
            c = ']';
        else if (c == '\'')
            c = '"';
    }
    return nlohmann::json::parse(text);
}

inline std::vector<GoldenCase> readGoldenCases(const std::filesystem::path& file)
{
    std::ifstream in(file);
    std::vector<GoldenCase> cases;
    std::string line;
    const std::regex entry(R"('(\w+)': ('[^']*'|[^,}]+))");
    const std::regex representative(R"(\((\d+), (\d+)\): (\d+))");
    const std::regex row(R"(^  row \d+ (.*?) (\[\(.*\)\])$)");
    auto after = [&line](std::string_view prefix) { return line.substr(prefix.size()); };
    while (std::getline(in, line)) {
        if (line.rfind("CONFIG ", 0) == 0) {
            GoldenCase golden;
            const std::size_t errorAt = line.find(" ERROR: ");
            const std::string dict = line.substr(7, errorAt == std::string::npos ? std::string::npos : errorAt - 7);
            for (std::sregex_iterator it(dict.begin(), dict.end(), entry), end; it != end; ++it) {
                std::string value = (*it)[2];
                if (value.front() == '\'')
                    value = value.substr(1, value.size() - 2);
                golden.config[(*it)[1]] = value;
            }
            if (errorAt != std::string::npos)
                golden.error = line.substr(errorAt + 8);
            cases.push_back(std::move(golden));
            continue;
        }
        if (cases.empty())
            continue;
        GoldenCase& golden = cases.back();
        std::smatch match;
        if (line.rfind(" file: ", 0) == 0)
            golden.file = after(" file: ");
        else if (line.rfind(" derived: ", 0) == 0)
            golden.derived = after(" derived: ");
        else if (line.rfind(" tp groups: ", 0) == 0)
            golden.tpGroups = pythonLiteral(after(" tp groups: ")).get<std::vector<std::vector<int>>>();
        else if (line.rfind(" pp groups: ", 0) == 0)
            golden.ppGroups = pythonLiteral(after(" pp groups: ")).get<std::vector<std::vector<int>>>();
        else if (line.rfind(" dp groups: ", 0) == 0)
            golden.dpGroups = pythonLiteral(after(" dp groups: ")).get<std::vector<std::vector<int>>>();
        else if (line.rfind(" dp_groups(transposed): ", 0) == 0)
            golden.copies = pythonLiteral(after(" dp_groups(transposed): ")).get<std::vector<std::vector<int>>>();
        else if (line.rfind(" representatives: ", 0) == 0) {
            for (std::sregex_iterator it(line.begin(), line.end(), representative), end; it != end; ++it)
                golden.representatives[{ std::stoi((*it)[1]), std::stoi((*it)[2]) }] = std::stoi((*it)[3]);
        } else if (std::regex_match(line, match, row)) {
            GoldenRow parsed { match[1], {} };
            for (const auto& cell : pythonLiteral(match[2]))
                parsed.cells.emplace_back(cell[0].get<int>(), cell[1].get<int>(), cell[2].get<std::string>());
            golden.rows.push_back(std::move(parsed));
        } else if (line.rfind(" title: ", 0) == 0)
            golden.title = after(" title: ");
        else if (line.rfind(" figsize: ", 0) == 0) {
            const auto size = pythonLiteral(after(" figsize: "));
            golden.figsize = { size[0].get<double>(), size[1].get<double>() };
        }
    }
    return cases;
}

// A row of the picture as a test expects it.
struct ExpectedRow {
    std::string label;
    int copy; // 1-based, as the legend names it
    std::vector<std::string> cells;
};

inline parallel::ParallelConfig makeConfig(long long worldSize, long long numLayers, long long tp = 1, long long pp = 1,
    std::optional<long long> perVirtualStage = std::nullopt, std::string order = "tp-cp-ep-dp-pp", bool standalone = false)
{
    parallel::ParallelConfig config;
    config.worldSize = worldSize;
    config.numLayers = numLayers;
    config.tensorParallelSize = tp;
    config.pipelineParallelSize = pp;
    config.layersPerVirtualStage = perVirtualStage;
    config.order = std::move(order);
    config.standaloneEmbeddingStage = standalone;
    return config;
}

// The configuration of a golden case, as the reference's ParallelConfig read it.
inline parallel::ParallelConfig configOf(const GoldenCase& golden)
{
    parallel::ParallelConfig config;
    for (const auto& [key, value] : golden.config) {
        if (key == "world_size")
            config.worldSize = std::stoll(value);
        else if (key == "num_layers")
            config.numLayers = std::stoll(value);
        else if (key == "tensor_parallel_size")
            config.tensorParallelSize = std::stoll(value);
        else if (key == "pipeline_parallel_size")
            config.pipelineParallelSize = std::stoll(value);
        else if (key == "num_layers_per_virtual_pipeline_stage")
            config.layersPerVirtualStage = std::stoll(value);
        else if (key == "order")
            config.order = value;
        else if (key == "standalone_embedding_stage")
            config.standaloneEmbeddingStage = value == "True";
        else
            qFatal("unknown key %s in the golden cases", key.c_str());
    }
    return config;
}

} // namespace msprobe::test
