// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "cmd_memory_capture.h"

#include <cstdio>

namespace msprobe::cli {

const std::vector<Verb>& verbs()
{
    static const std::vector<Verb> list = {
        { "info", "summarise a dump folder (or compare-readiness of a problem/bench pair)", &runInfo },
        { "dump", "run a TorchScript model headless and write an msprobe dump", &runDump },
        { "graph_visualize", "build or compare model graphs into a .vis.db (hierarchy, precision, overflow)", &runGraphVisualize },
        { "compare", "compare a problem dump with a benchmark dump (statistics, md5 or tensor mode)", &runCompare },
        { "overflow_check", "find the first NaN/Inf-producing node of a step directory", &runOverflowCheck },
        { "data2db", "import a dump folder or training-state monitor CSVs into a trend database (*.trend.db)", &runData2db },
        { "trend_compare", "compare the trends of two runs and name the first step where they part", &runTrendCompare },
        { "memory_capture", "run a TorchScript model headless and record its memory events (msMemScope CSV)", &runMemoryCapture },
        { "parallel_plot", "draw how a Megatron tp/pp/vpp/dp configuration spreads layers over ranks (PNG)", &runParallelPlot },
    };
    return list;
}

bool ArgScanner::isFlag(std::initializer_list<std::string_view> names)
{
    if (done())
        return false;
    for (auto name : names)
        if (m_args[m_pos] == name) {
            ++m_pos;
            return true;
        }
    return false;
}

std::optional<std::string> ArgScanner::value(std::initializer_list<std::string_view> names)
{
    if (done())
        return std::nullopt;
    const std::string& arg = m_args[m_pos];
    for (auto name : names) {
        if (arg == name) {
            if (m_pos + 1 >= m_args.size())
                throw UsageError { "option " + arg + " needs a value" };
            m_pos += 2;
            return m_args[m_pos - 1];
        }
        if (arg.size() > name.size() + 1 && arg.compare(0, name.size(), name) == 0 && arg[name.size()] == '=') {
            ++m_pos;
            return arg.substr(name.size() + 1);
        }
    }
    return std::nullopt;
}

bool wantsHelp(const std::vector<std::string>& args)
{
    for (const auto& arg : args)
        if (arg == "-h" || arg == "--help")
            return true;
    return false;
}

std::string humanBytes(unsigned long long bytes)
{
    const char* units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 4) {
        value /= 1024.0;
        ++unit;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
    return buf;
}

} // namespace msprobe::cli
