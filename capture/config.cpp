// SPDX-License-Identifier: Apache-2.0
#include "capture/config.h"

#include "support/error.h"
#include "support/json_file.h"

#include <algorithm>
#include <regex>
#include <set>

namespace msprobe::capture {

namespace {

using Json = nlohmann::ordered_json;

class Checker {
public:
    Checker(const Json& root, std::string file)
        : m_root(root)
        , m_file(std::move(file))
    {
    }

    [[noreturn]] void fail(const std::string& key, const std::string& message) const
    {
        throw Error(m_file, "key \"" + key + "\"", message);
    }

    std::string choice(const Json& obj, const std::string& key, const std::string& path,
        std::initializer_list<const char*> allowed, const std::string& fallback) const
    {
        auto it = obj.find(key);
        if (it == obj.end() || it->is_null())
            return fallback;
        std::string allowedText;
        for (const char* a : allowed)
            allowedText += std::string(allowedText.empty() ? "" : ", ") + "\"" + a + "\"";
        if (!it->is_string())
            fail(path, "must be a string, one of " + allowedText);
        const std::string value = it->get<std::string>();
        for (const char* a : allowed)
            if (value == a)
                return value;
        fail(path, "invalid value \"" + value + "\"; allowed values: " + allowedText);
    }

    bool boolean(const Json& obj, const std::string& key, const std::string& path, bool fallback) const
    {
        auto it = obj.find(key);
        if (it == obj.end() || it->is_null())
            return fallback;
        if (!it->is_boolean())
            fail(path, "must be true or false");
        return it->get<bool>();
    }

    std::vector<std::string> strings(const Json& obj, const std::string& key, const std::string& path) const
    {
        std::vector<std::string> out;
        auto it = obj.find(key);
        if (it == obj.end() || it->is_null())
            return out;
        if (!it->is_array())
            fail(path, "must be a list of strings");
        for (const auto& item : *it) {
            if (!item.is_string())
                fail(path, "must be a list of strings");
            out.push_back(item.get<std::string>());
        }
        return out;
    }

    // rank/step: ints 0..1e6 or strings "3" / "4-6"; deduplicated and sorted.
    std::vector<std::int64_t> numberList(const std::string& key) const
    {
        std::set<std::int64_t> out;
        auto it = m_root.find(key);
        if (it == m_root.end() || it->is_null())
            return {};
        if (!it->is_array())
            fail(key, "must be a list of integers or \"a-b\" range strings");
        static const std::regex range(R"(^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$)");
        for (const auto& item : *it) {
            std::int64_t lo = 0, hi = 0;
            if (item.is_number_integer()) {
                lo = hi = item.get<std::int64_t>();
            } else if (item.is_string()) {
                std::smatch m;
                const std::string text = item.get<std::string>();
                if (!std::regex_match(text, m, range))
                    fail(key, "invalid element \"" + text + "\"; allowed: integers 0..1000000 or \"a-b\" ranges");
                lo = std::stoll(m[1]);
                hi = m[2].matched ? std::stoll(m[2]) : lo;
                if (hi < lo)
                    fail(key, "invalid range \"" + text + "\": end before start");
            } else {
                fail(key, "invalid element " + item.dump() + "; allowed: integers 0..1000000 or \"a-b\" ranges");
            }
            if (lo < 0 || hi > 1000000)
                fail(key, "element out of range; allowed: integers 0..1000000");
            if (hi - lo > 1000000)
                fail(key, "range too long");
            for (auto v = lo; v <= hi; ++v)
                out.insert(v);
        }
        return { out.begin(), out.end() };
    }

private:
    const Json& m_root;
    std::string m_file;
};

bool isApiName(const std::string& name)
{
    static const std::regex re(R"(^(Distributed|Functional|Torch|Tensor|Mint|MintFunctional|Primitive|Aten|VF|NPU|Jit)\..*\.\d+\.(forward|backward)$)");
    return std::regex_match(name, re);
}

bool isModuleName(const std::string& name)
{
    static const std::regex re(R"(^(Cell|Module)\..*\.(forward|backward)\.\d+$)");
    return std::regex_match(name, re);
}

} // namespace

bool DumpConfig::wantsStep(std::int64_t step) const
{
    return steps.empty() || std::binary_search(steps.begin(), steps.end(), step);
}

bool DumpConfig::wantsRank(std::int64_t rank) const
{
    return ranks.empty() || std::binary_search(ranks.begin(), ranks.end(), rank);
}

bool DumpConfig::pastLastStep(std::int64_t step) const { return !steps.empty() && step > steps.back(); }

DumpConfig parseDumpConfig(const std::string& jsonText, const std::string& displayName)
{
    Json root;
    try {
        root = Json::parse(jsonText);
    } catch (const nlohmann::json::parse_error& error) {
        throw Error(displayName, "", std::string("invalid JSON: ") + error.what());
    }
    if (!root.is_object())
        throw Error(displayName, "", "config must be a JSON object");
    Checker check(root, displayName);
    DumpConfig cfg;
    cfg.file = displayName;

    const std::string task = check.choice(root, "task", "task",
        { "statistics", "tensor", "structure", "acc_check", "nan_check", "diff_check", "overflow_check",
            "exception_dump" },
        "statistics");
    if (task == "statistics")
        cfg.task = Task::Statistics;
    else if (task == "tensor")
        cfg.task = Task::Tensor;
    else if (task == "structure")
        cfg.task = Task::Structure;
    else
        check.fail("task", "task \"" + task + "\" is not supported by the libtorch capture; allowed values: "
            "\"statistics\", \"tensor\", \"structure\"");

    if (auto it = root.find("dump_path"); it != root.end() && !it->is_null()) {
        if (!it->is_string() || it->get<std::string>().empty())
            check.fail("dump_path", "must be a non-empty string (a directory)");
        cfg.dumpPath = it->get<std::string>();
    }
    cfg.ranks = check.numberList("rank");
    cfg.steps = check.numberList("step");
    const std::string level = check.choice(root, "level", "level", { "L0", "L1", "mix", "L2", "debug" }, "L1");
    if (level == "L0")
        cfg.level = Level::L0;
    else if (level == "L1")
        cfg.level = Level::L1;
    else if (level == "mix")
        cfg.level = Level::Mix;
    else
        check.fail("level", "level \"" + level + "\" is not supported by the libtorch capture; allowed values: "
            "\"L0\", \"L1\", \"mix\"");
    cfg.asyncDump = check.boolean(root, "async_dump", "async_dump", false);
    cfg.extraInfo = check.boolean(root, "extra_info", "extra_info", true);
    cfg.precisionHigh = check.choice(root, "precision", "precision", { "low", "high" }, "low") == "high";
    check.choice(root, "risk_level", "risk_level", { "FOCUS", "CORE", "ALL" }, "FOCUS");

    if (cfg.task != Task::Structure) {
        const std::string section = task;
        Json empty = Json::object();
        const Json* sec = &empty;
        if (auto it = root.find(section); it != root.end() && !it->is_null()) {
            if (!it->is_object())
                check.fail(section, "must be an object");
            sec = &*it;
        }
        const std::string p = section + ".";
        cfg.scope = check.strings(*sec, "scope", p + "scope");
        cfg.list = check.strings(*sec, "list", p + "list");
        if (cfg.task == Task::Statistics)
            cfg.tensorList = check.strings(*sec, "tensor_list", p + "tensor_list");
        if (!cfg.scope.empty()) {
            if (cfg.scope.size() != 2)
                check.fail(p + "scope", "must hold exactly 2 names (start, end) or be empty");
            const bool apis = isApiName(cfg.scope[0]) && isApiName(cfg.scope[1]);
            const bool modules = isModuleName(cfg.scope[0]) && isModuleName(cfg.scope[1]);
            if (cfg.level == Level::L1 && !apis)
                check.fail(p + "scope", "level L1 needs two API names such as \"Aten.addmm.0.forward\"");
            if (cfg.level == Level::L0 && !modules)
                check.fail(p + "scope", "level L0 needs two module names such as \"Module.fc.Linear.forward.0\"");
            if (cfg.level == Level::Mix && !apis && !modules)
                check.fail(p + "scope", "needs two API names or two module names, not a mix");
        }
        const auto modes = check.strings(*sec, "data_mode", p + "data_mode");
        if (!modes.empty()) {
            if (modes.size() > 4)
                check.fail(p + "data_mode", "at most 4 elements");
            const bool all = std::find(modes.begin(), modes.end(), "all") != modes.end();
            if (all && modes.size() != 1)
                check.fail(p + "data_mode", "\"all\" must be the only element");
            if (!all) {
                bool fw = false, bw = false, in = false, out = false;
                for (const auto& m : modes) {
                    if (m == "forward")
                        fw = true;
                    else if (m == "backward")
                        bw = true;
                    else if (m == "input")
                        in = true;
                    else if (m == "output")
                        out = true;
                    else
                        check.fail(p + "data_mode", "invalid value \"" + m
                                + "\"; allowed values: \"all\", \"forward\", \"backward\", \"input\", \"output\"");
                }
                if (!fw && !bw)
                    fw = bw = true;
                if (!in && !out)
                    in = out = true;
                cfg.dataMode = { fw, bw, in, out };
            }
        }
        const std::string summary = check.choice(*sec, "summary_mode", p + "summary_mode", { "statistics", "md5" },
            "statistics");
        cfg.summaryMode = summary == "md5" ? SummaryMode::Md5 : SummaryMode::Statistics;
        const std::string format = check.choice(*sec, "file_format", p + "file_format", { "npy", "pt" }, "npy");
        cfg.fileFormat = format == "pt" ? FileFormat::Pt : FileFormat::Npy;
        if (cfg.summaryMode == SummaryMode::Md5 && cfg.asyncDump)
            check.fail(p + "summary_mode", "\"md5\" cannot be combined with async_dump: true");
    }
    return cfg;
}

DumpConfig readDumpConfig(const std::filesystem::path& file)
{
    return parseDumpConfig(readWholeFile(file), file.string());
}

std::string_view toString(Task task)
{
    switch (task) {
    case Task::Statistics: return "statistics";
    case Task::Tensor: return "tensor";
    case Task::Structure: return "structure";
    }
    return "statistics";
}

std::string_view toString(Level level)
{
    switch (level) {
    case Level::L0: return "L0";
    case Level::L1: return "L1";
    case Level::Mix: return "mix";
    }
    return "L1";
}

} // namespace msprobe::capture
