// SPDX-License-Identifier: Apache-2.0
#include "trend/monitor_v2.h"

#include "support/error.h"
#include "trend/monitor_import.h"

#include <algorithm>
#include <map>
#include <regex>

namespace msprobe::trend {

namespace {

// The metric of a (slug, scope) pair, or nullopt.
std::optional<std::string> metricOf(const std::string& slug, const std::string& scope)
{
    static const std::map<std::pair<std::string, std::string>, std::string> metrics = {
        { { "module", "forward" }, "actv" },
        { { "module", "backward" }, "actv_grad" },
        { { "weight_grad", "unreduced" }, "grad_unreduced" },
        { { "weight_grad", "reduced" }, "grad_reduced" },
        { { "optimizer", "exp_avg" }, "exp_avg" },
        { { "optimizer", "exp_avg_sq" }, "exp_avg_sq" },
        { { "param", "param_origin" }, "param_origin" },
        { { "param", "param_updated" }, "param_updated" },
    };
    if (slug == "cc")
        return "other";
    const auto it = metrics.find({ slug, scope });
    return it == metrics.end() ? std::nullopt : std::optional<std::string>(it->second);
}

} // namespace

std::optional<std::int64_t> monitorV2Rank(const std::string& dirName)
{
    static const std::regex pattern(R"(^rank_(\d{1,5})$)");
    std::smatch match;
    if (!std::regex_match(dirName, match, pattern))
        return std::nullopt;
    return std::stoll(match[1]);
}

std::optional<MonitorV2FileName> parseMonitorV2FileName(const std::string& fileName)
{
    static const std::regex pattern(R"(^(module|weight_grad|optimizer|param|cc)_step(\d{1,15})-(\d{1,15})\.csv$)");
    std::smatch match;
    if (!std::regex_match(fileName, match, pattern))
        return std::nullopt;
    return MonitorV2FileName { match[1], std::stoll(match[2]) };
}

std::vector<std::pair<std::size_t, support::CsvTable>> splitMonitorV2(
    const support::CsvTable& table, const std::string& slug, const std::filesystem::path& file)
{
    for (const char* required : { "vpp_stage", "step", "module_name", "scope" })
        if (table.column(required) < 0)
            throw support::Error(file.string(), "header", std::string("missing the column \"") + required + "\" of the monitor v2 layout");
    const auto scopeCol = static_cast<std::size_t>(table.column("scope"));
    // v1 header: the same columns without scope, module_name renamed name.
    std::vector<std::string> header;
    std::vector<std::size_t> keep;
    for (std::size_t c = 0; c < table.header.size(); ++c) {
        if (c == scopeCol)
            continue;
        header.push_back(table.header[c] == "module_name" ? "name" : table.header[c]);
        keep.push_back(c);
    }
    const auto& metrics = monitorMetrics();
    std::map<std::size_t, support::CsvTable> byMetric;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const auto& row = table.rows[r];
        const auto metric = metricOf(slug, row[scopeCol]);
        if (!metric)
            throw support::Error(file.string(), "line " + std::to_string(table.lines[r]),
                "scope \"" + row[scopeCol] + "\" is not one of the scopes of " + slug + " files");
        const auto index = static_cast<std::size_t>(std::find(metrics.begin(), metrics.end(), *metric) - metrics.begin());
        support::CsvTable& out = byMetric[index];
        if (out.header.empty())
            out.header = header;
        std::vector<std::string> cells;
        cells.reserve(keep.size());
        for (const auto c : keep)
            cells.push_back(row[c]);
        out.rows.push_back(std::move(cells));
        out.lines.push_back(table.lines[r]);
    }
    return { std::make_move_iterator(byMetric.begin()), std::make_move_iterator(byMetric.end()) };
}

} // namespace msprobe::trend
