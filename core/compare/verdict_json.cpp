// SPDX-License-Identifier: Apache-2.0
#include "compare/verdict_json.h"

#include <nlohmann/json.hpp>

namespace msprobe::compare {

namespace {

nlohmann::ordered_json pointJson(const std::optional<DivergencePoint>& p)
{
    if (!p)
        return nullptr;
    return { { "entry", p->entry }, { "row", p->row + 2 }, { "reason", p->reason }, { "rule", std::string(toString(p->rule)) } };
}

} // namespace

std::string renderVerdictJson(const JobOutcome& job)
{
    nlohmann::ordered_json root;
    root["tool"] = "msprobe compare";
    root["verdict"] = std::string(toString(job.worst));
    std::size_t rows = 0, pass = 0, warning = 0, error = 0;
    auto pairs = nlohmann::ordered_json::array();
    for (const auto& p : job.pairs) {
        rows += p.rows;
        pass += p.pass;
        warning += p.warning;
        error += p.error;
        nlohmann::ordered_json item;
        item["step"] = p.pair.step;
        item["rank"] = p.pair.label;
        item["npu"] = p.pair.npuJson.string();
        item["bench"] = p.pair.benchJson.string();
        item["mode"] = p.mode;
        item["verdict"] = p.error ? "error" : p.warning ? "warning" : "pass";
        item["rows"] = p.rows;
        item["pass"] = p.pass;
        item["warning"] = p.warning;
        item["error"] = p.error;
        item["unpaired"] = p.unpaired;
        item["unreadable_tensor_files"] = p.unreadableFiles;
        auto unreadable = nlohmann::ordered_json::array();
        for (const auto& problem : p.unreadableExamples)
            unreadable.push_back({ { "file", problem.file }, { "reason", problem.reason } });
        item["unreadable_examples"] = unreadable;
        item["warnings"] = pairWarnings(p);
        if (p.crossRuntime.active) {
            const CrossRuntimeReport& c = p.crossRuntime;
            item["cross_runtime"] = { { "target_runtime", c.npuIsAten ? "aten" : "python" }, { "scoped_by_module", c.scoped },
                { "paired_rows", c.pairedRows }, { "unpaired_rows", c.unpairedRows }, { "ignored_argument_rows", c.ignoredRows },
                { "unpaired_target_entries", c.unpairedNpuEntries }, { "unpaired_golden_entries", c.unpairedBenchEntries } };
        } else if (!p.crossRuntime.note.empty()) {
            item["cross_runtime"] = { { "note", p.crossRuntime.note } };
        }
        item["first_divergence"] = pointJson(p.firstDivergence);
        item["first_nan_inf"] = pointJson(p.firstNanInf);
        auto failed = nlohmann::ordered_json::array();
        for (const auto& f : p.failed)
            failed.push_back({ { "npu_name", f.npuName }, { "result", f.result }, { "err_message", f.message } });
        item["failed_rows"] = failed;
        auto outputs = nlohmann::ordered_json::array();
        for (const auto& o : p.outputs)
            outputs.push_back(o.string());
        item["outputs"] = outputs;
        if (!p.note.empty())
            item["note"] = p.note;
        pairs.push_back(item);
    }
    root["counts"] = { { "rows", rows }, { "pass", pass }, { "warning", warning }, { "error", error },
        { "unpaired", job.unpaired }, { "unreadable_tensor_files", job.unreadableFiles } };
    root["too_many_unpaired"] = tooManyUnpaired(job.unpaired, job.rows);
    root["pairs"] = pairs;
    if (!job.diffAnalyzeFile.empty())
        root["diff_analyze"] = job.diffAnalyzeFile.string();
    return root.dump(2) + "\n";
}

} // namespace msprobe::compare
