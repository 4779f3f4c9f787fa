// SPDX-License-Identifier: Apache-2.0
// Hand-made dump pieces for tst_first_divergence (raw JSON kept out of the moc'd file).
#pragma once

#include "dump/construct_stack.h"
#include "dump/dump_json_reader.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace first_divergence_inputs {

// A float32 tensor leaf with its statistics (and a CRC-32 when md5 is given).
inline std::string tensor(const char* max, const char* min, const char* mean, const char* norm, const char* md5 = nullptr)
{
    std::string out = std::string(R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 4], "Max": )") + max + R"(, "Min": )"
        + min + R"(, "Mean": )" + mean + R"(, "Norm": )" + norm + R"(, "requires_grad": false)";
    if (md5)
        out += std::string(R"(, "md5": ")") + md5 + "\"";
    return out + "}";
}

// A non-tensor leaf: {"type": type, "value": value} (value is JSON text).
inline std::string value(const char* type, const std::string& json)
{
    return std::string(R"({"type": ")") + type + R"(", "value": )" + json + "}";
}

inline std::string join(const std::vector<std::string>& parts)
{
    std::string out;
    for (const auto& p : parts)
        out += (out.empty() ? "" : ", ") + p;
    return out;
}

using Kwargs = std::vector<std::pair<std::string, std::string>>;

inline std::string entry(const std::string& name, const std::vector<std::string>& args, const Kwargs& kwargs,
    const std::vector<std::string>& outputs)
{
    std::string kw;
    for (const auto& [key, leaf] : kwargs)
        kw += (kw.empty() ? "\"" : ", \"") + key + "\": " + leaf;
    return "\"" + name + R"(": {"input_args": [)" + join(args) + R"(], "input_kwargs": {)" + kw + R"(}, "output": [)" + join(outputs)
        + "]}";
}

inline msprobe::dump::DumpFile dumpOf(const std::vector<std::string>& entries, const char* level = "L1")
{
    msprobe::dump::DumpJsonReader reader;
    return reader.parse(std::string(R"({"task": "statistics", "level": ")") + level + R"(", "framework": "pytorch", "dump_data_dir": null, "data": {)"
            + join(entries) + "}}",
        "dump.json");
}

// construct.json from (child, parent) pairs; an empty parent is a root.
inline msprobe::dump::ConstructInfo construct(const std::vector<std::pair<std::string, std::string>>& links)
{
    msprobe::dump::ConstructInfo info;
    for (const auto& [child, parent] : links) {
        info.indexOf[child] = info.nodes.size();
        info.nodes.push_back({ child, parent.empty() ? std::nullopt : std::optional<std::string>(parent), std::nullopt });
    }
    return info;
}

// A fixture dump.json with only the entries whose name does (keepModules) or does not start with "Module.": an L0
// or an L1 dump of the same run.
inline msprobe::dump::DumpFile levelOnly(const std::string& path, bool keepModules)
{
    std::ifstream in(path);
    nlohmann::ordered_json root = nlohmann::ordered_json::parse(in);
    nlohmann::ordered_json kept = nlohmann::ordered_json::object();
    for (const auto& [name, body] : root["data"].items())
        if (name.starts_with("Module.") == keepModules)
            kept[name] = body;
    root["data"] = kept;
    root["level"] = keepModules ? "L0" : "L1";
    msprobe::dump::DumpJsonReader reader;
    return reader.parse(root.dump(), path);
}

} // namespace first_divergence_inputs
