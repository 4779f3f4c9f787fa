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
        throw support::Error(m_file, "key \"" + key + "\"", message);
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

// The reference's risk classification of bare API names (pytorch/dump/api_dump/api_risk_level.py). Its
// support_wrap_ops.yaml adds torch_npu/distributed/mindspeed names to CORE, which libtorch ops never carry.
// "chain_matmul" and "linear" are missing on purpose: a missing comma fuses them into one string there.
const std::set<std::string, std::less<>>& coreApis()
{
    static const std::set<std::string, std::less<>> names = { "_fused_adamw_", "_fused_adam_", "matmul", "__matmul__",
        "bmm", "addmm", "addmm_", "addbmm", "addbmm_", "baddbmm", "baddbmm_", "mm", "mv", "addmv", "addmv_", "addr",
        "addr_", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "conv_tbc",
        "convolution", "_convolution", "chain_matmullinear", "bilinear", "linalg.matmul", "linalg.multi_dot",
        "linalg.vecdot", "batch_norm", "instance_norm", "layer_norm", "group_norm", "local_response_norm",
        "_batch_norm_impl_index", "batch_norm_elemt", "batch_norm_stats", "batch_norm_update_stats",
        "batch_norm_gather_stats", "batch_norm_gather_stats_with_counts", "batch_norm_backward_elemt",
        "batch_norm_backward_reduce", "embedding", "embedding_bag", "multi_head_attention_forward",
        "scaled_dot_product_attention" };
    return names;
}

const std::set<std::string, std::less<>>& lowRiskApis()
{
    static const std::set<std::string, std::less<>> names = { "squeeze", "unsqueeze", "reshape", "reshape_as", "view",
        "view_as", "flatten", "unflatten", "expand", "expand_as", "repeat", "repeat_interleave", "tile", "transpose",
        "permute", "moveaxis", "movedim", "swapaxes", "swapdims", "chunk", "unsafe_chunk", "split", "split_with_sizes",
        "unsafe_split", "unsafe_split_with_sizes", "tensor_split", "hsplit", "vsplit", "dsplit", "unbind", "stack", "cat",
        "concat", "concatenate", "hstack", "vstack", "dstack", "column_stack", "row_stack", "align_as", "align_to",
        "atleast_1d", "atleast_2d", "atleast_3d", "ravel", "clamp", "unfold", "type_as", "to", "float", "double", "int",
        "long", "half", "bfloat16", "byte", "char", "bool", "cfloat", "numpy", "empty", "empty_like", "zeros",
        "zeros_like", "ones", "ones_like", "full", "full_like", "arange", "linspace", "logspace", "eye", "identity", "diag",
        "diagflat", "diag_embed", "triu", "tril", "triu_indices", "tril_indices", "clone", "__bool__", "stride" };
    return names;
}

// Keys of the reference's config that the C++ capture cannot honour: rejected, never silently ignored.
void rejectUnsupported(const Checker& check, const Json& obj, const std::string& prefix)
{
    static const std::pair<const char*, const char*> keys[] = {
        { "request_id", "it slices by the token ranges of a serving scheduler (start(scheduled_tokens=...)), which "
                        "a libtorch program does not pass" },
        { "bench_path", "the real-time md5 diff against an earlier dump (tensor task) is not implemented" },
        { "diff_nums", "it belongs to bench_path (real-time md5 diff), which is not implemented" },
        { "dump_enable", "dynamic on/off by re-reading the config at run time is not implemented; use start()/stop()" },
        { "custom_op_namespaces", "every operator namespace except prim:: is captured at L1" },
    };
    for (const auto& [key, why] : keys)
        if (obj.contains(key) && !obj[key].is_null())
            check.fail(prefix + key, std::string("not supported by the C++ capture: ") + why + "; remove the key");
}

std::vector<SliceRule> sliceRules(const Checker& check, const Json& sec, const std::string& path)
{
    std::vector<SliceRule> rules;
    auto it = sec.find("slice");
    if (it == sec.end() || it->is_null())
        return rules;
    if (!it->is_array())
        check.fail(path, "must be a list of objects {\"dim\", \"begin\", \"end\", \"size\"} with integer values");
    for (const auto& item : *it) {
        if (!item.is_object())
            check.fail(path, "must be a list of objects {\"dim\", \"begin\", \"end\", \"size\"} with integer values");
        SliceRule rule;
        for (const auto& [key, value] : item.items()) {
            if (!value.is_number_integer())
                check.fail(path, "field \"" + key + "\" must be an integer");
            const auto number = value.get<std::int64_t>();
            if (key == "dim") {
                if (number < 0)
                    check.fail(path, "field \"dim\" cannot be negative");
                rule.dim = number;
            } else if (key == "begin")
                rule.begin = number;
            else if (key == "end")
                rule.end = number;
            else if (key == "size") {
                if (number < 0)
                    check.fail(path, "field \"size\" cannot be negative");
                rule.size = number;
            } else
                check.fail(path, "unknown field \"" + key + "\"; allowed: \"dim\", \"begin\", \"end\", \"size\"");
        }
        rules.push_back(rule);
    }
    return rules;
}

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

bool DumpConfig::riskAllows(std::string_view name) const
{
    if (riskLevel == RiskLevel::All || !scope.empty() || !list.empty() || level == Level::L0)
        return true;
    // "Aten.view.0.forward" -> "view": drop the prefix and the ".{N}.forward|backward" suffix.
    const auto first = name.find('.');
    if (first == std::string_view::npos)
        return true;
    std::string_view api = name.substr(first + 1);
    for (int k = 0; k < 2; ++k)
        if (const auto dot = api.rfind('.'); dot != std::string_view::npos)
            api = api.substr(0, dot);
    if (riskLevel == RiskLevel::Core)
        return coreApis().count(api) > 0;
    return lowRiskApis().count(api) == 0;
}

DumpConfig parseDumpConfig(const std::string& jsonText, const std::string& displayName)
{
    Json root;
    try {
        root = Json::parse(jsonText);
    } catch (const nlohmann::json::parse_error& error) {
        throw support::Error(displayName, "", std::string("invalid JSON: ") + error.what());
    }
    if (!root.is_object())
        throw support::Error(displayName, "", "config must be a JSON object");
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
    const std::string risk = check.choice(root, "risk_level", "risk_level", { "FOCUS", "CORE", "ALL" }, "FOCUS");
    cfg.riskLevel = risk == "CORE" ? RiskLevel::Core : risk == "ALL" ? RiskLevel::All : RiskLevel::Focus;
    rejectUnsupported(check, root, "");

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
        rejectUnsupported(check, *sec, p);
        cfg.slices = sliceRules(check, *sec, p + "slice");
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
        const std::string summary = check.choice(*sec, "summary_mode", p + "summary_mode",
            { "statistics", "md5", "xor" }, "statistics");
        cfg.summaryMode = summary == "md5" ? SummaryMode::Md5
            : summary == "xor"             ? SummaryMode::Xor
                                           : SummaryMode::Statistics;
        const std::string format = check.choice(*sec, "file_format", p + "file_format", { "npy", "pt" }, "npy");
        cfg.fileFormat = format == "pt" ? FileFormat::Pt : FileFormat::Npy;
        if (cfg.summaryMode == SummaryMode::Md5 && cfg.asyncDump)
            check.fail(p + "summary_mode", "\"md5\" cannot be combined with async_dump: true");
    }
    return cfg;
}

DumpConfig readDumpConfig(const std::filesystem::path& file)
{
    return parseDumpConfig(support::readWholeFile(file), file.string());
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
