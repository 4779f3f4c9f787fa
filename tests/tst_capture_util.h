// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the capture test suites (kept out of the moc-processed .cpp files).
#pragma once

#include "test_util.h"

#include "capture/config.h"
#include "dump/dump_json_reader.h"
#include "dump/dump_tree.h"

#include <filesystem>
#include <string>

namespace msprobe::test {

inline capture::DumpConfig captureConfig(const std::string& dumpPath, const std::string& task, const std::string& level,
    const std::string& section = "", const std::string& top = "")
{
    std::string json = "{\"task\": \"" + task + "\", \"dump_path\": \"" + dumpPath + "\", \"level\": \"" + level + "\"";
    if (!top.empty())
        json += ", " + top;
    if (!section.empty())
        json += ", \"" + task + "\": {" + section + "}";
    json += "}";
    return capture::parseDumpConfig(json, "config.json");
}

// The only rank/proc directory of step{N}.
inline std::filesystem::path rankDir(const std::filesystem::path& dumpPath, int step = 0)
{
    return onlySubdir(dumpPath / ("step" + std::to_string(step)));
}

inline std::string entryNames(const dump::DumpFile& dump)
{
    std::string out;
    for (std::size_t i = 0; i < dump.entries.size(); ++i)
        out += std::string(dump.entryName(i)) + "\n";
    return out;
}

inline std::int64_t findEntry(const dump::DumpFile& dump, std::string_view name)
{
    for (std::size_t i = 0; i < dump.entries.size(); ++i)
        if (dump.entryName(i) == name)
            return static_cast<std::int64_t>(i);
    return -1;
}

// Node at a key/index path below an entry body, e.g. {"output", "0"}; -1 when absent.
inline std::int64_t nodeAt(const dump::DumpFile& dump, std::string_view entry, std::initializer_list<std::string_view> path)
{
    const auto e = findEntry(dump, entry);
    if (e < 0)
        return -1;
    std::uint32_t node = dump.entries[static_cast<std::size_t>(e)].body;
    for (auto step : path) {
        if (dump.nodes[node].kind == dump::NodeKind::Dict) {
            const auto child = dump.childByKey(node, step);
            if (child < 0)
                return -1;
            node = static_cast<std::uint32_t>(child);
        } else if (dump.nodes[node].kind == dump::NodeKind::List) {
            const auto children = dump.children(node);
            const auto index = std::stoul(std::string(step));
            if (index >= children.size())
                return -1;
            node = children[index];
        } else {
            return -1;
        }
    }
    return node;
}

inline const char* kBadLevelConfig = "{\"task\": \"statistics\", \"level\": \"L9\", \"dump_path\": \"/tmp/x\"}";
inline const char* kBadModeConfig
    = "{\"task\": \"statistics\", \"level\": \"L1\", \"statistics\": {\"data_mode\": [\"all\", \"input\"]}}";
inline const char* kBadSummaryConfig
    = "{\"task\": \"tensor\", \"level\": \"L1\", \"tensor\": {\"summary_mode\": \"sha1\"}}";
inline const char* kBadScopeConfig
    = "{\"task\": \"statistics\", \"level\": \"L1\", \"statistics\": {\"scope\": [\"Module.a.A.forward.0\", \"Module.b.B.forward.0\"]}}";
inline const char* kBadFormatConfig
    = "{\"task\": \"tensor\", \"level\": \"L1\", \"tensor\": {\"file_format\": \"bin\"}}";
inline const char* kRequestIdConfig
    = "{\"task\": \"statistics\", \"level\": \"L1\", \"statistics\": {\"request_id\": \"r1\"}}";
inline const char* kBenchPathConfig = "{\"task\": \"tensor\", \"level\": \"L1\", \"tensor\": {\"bench_path\": \"/b\"}}";
inline const char* kBadSliceConfig
    = "{\"task\": \"statistics\", \"level\": \"L1\", \"statistics\": {\"slice\": [{\"dim\": -1}]}}";
inline const char* kBadRiskConfig = "{\"task\": \"statistics\", \"level\": \"L1\", \"risk_level\": \"LOW\"}";
inline const char* kXorSliceConfig = "{\"task\": \"statistics\", \"level\": \"L1\", \"risk_level\": \"CORE\","
                                     " \"statistics\": {\"summary_mode\": \"xor\", \"slice\": [{\"dim\": 1, \"begin\": 2,"
                                     " \"end\": 4, \"size\": 8}, {\"begin\": -1}]}}";
inline const char* kRangesConfig
    = "{\"task\": \"statistics\", \"level\": \"mix\", \"rank\": [0, \"4-6\"], \"step\": [\"2\", 1, 1],"
      " \"statistics\": {\"data_mode\": [\"forward\"], \"list\": [\"relu\"], \"summary_mode\": \"md5\"}}";

} // namespace msprobe::test
