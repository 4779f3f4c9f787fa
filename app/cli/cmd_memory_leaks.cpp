// SPDX-License-Identifier: Apache-2.0
// msprobe memory leaks: §2.1 (per-step leaks, fluctuation, HAL), §2.2 (--mark: between marks A, B, C) and the
// blocks alive at the end of the capture.
#include "cmd_memory.h"

#include "memory/leaks.h"

#include <algorithm>
#include <cstdio>

namespace msprobe::cli::memory {

namespace {

using namespace msprobe::memory;

const char* kLeaksHelp
    = "usage: msprobe memory leaks DUMP [--json] [-o OUT] [--pool P[,P...]] [--top N] [--fail-on leak]\n"
      "       msprobe memory leaks DUMP --mark MSG [--start-index N] [--pool P[,P...]] [--json] [--fail-on leak]\n\n"
      "Without --mark, the online leak analysis of msMemScope replayed on the dump (steps from SYSTEM/STEP rows or\n"
      "mstx \"step start\" ranges): a pool block allocated in step k >= 2 and still alive at the end of step k+1 is a\n"
      "leak, reported once with its allocation step; the gap table gives per pool the steps with the smallest and\n"
      "largest MinAlloc/MaxAlloc ratio; HAL blocks never freed are listed; then the blocks alive at the end of the\n"
      "capture (never freed, or freed only by a synthetic shadow:true row), largest first.\n"
      "With --mark, check_leaks: marks A, B, C are the MSTX Mark rows named MSG number N, N+1, N+2 (ID order, per\n"
      "device); memory allocated between A and B and not freed before C is a leak.\n\n"
      "options:\n"
      "  --pool P[,P...]   pools (Event Type of MALLOC rows) to check; default PTA,ATB,MINDSPORE,TORCH_CPU without\n"
      "                    --mark, every pool with it (msMemScope itself checks HAL only there)\n"
      "  --mark MSG        the mstx mark message; --start-index N the occurrence that is A (default 0)\n"
      "  --top N           blocks alive at the end listed in the text (default 20; all in --json)\n"
      "  --json            JSON instead of text\n"
      "  -o, --output FILE write the report to FILE\n"
      "  --fail-on leak    exit 1 when a step leak, HAL leak or mark leak is found\n";

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto comma = text.find(',', start);
        const auto item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty())
            throw UsageError { "empty item in the list \"" + text + "\"" };
        items.push_back(item);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return items;
}

nlohmann::ordered_json aliveJson(const LoadedDump& dump, const Block& b)
{
    const auto& trace = dump.trace;
    nlohmann::ordered_json item;
    item["allocation_id"] = b.allocationId;
    item["pool"] = std::string(trace.text(b.pool));
    item["device"] = deviceName(b.device);
    item["pid"] = b.pid;
    item["addr"] = hexPtr(b.ptr);
    item["size"] = b.size;
    item["alloc_op"] = opName(trace, dump.model, b.allocOp);
    item["alloc_step"] = b.allocStep;
    item["owner"] = std::string(trace.text(b.owner));
    item["line"] = trace.events[b.mallocEvent].line;
    item["shadow_free"] = b.shadowFree;
    return item;
}

int runMarkLeaks(const LoadedDump& dump, const std::string& input, const std::string& mark, std::size_t startIndex,
    const std::vector<std::string>& pools, bool json, const std::string& output, bool failOn)
{
    const auto devices = checkLeaksBetweenMarks(dump.trace, mark, startIndex, pools);
    std::size_t leaks = 0;
    for (const auto& d : devices)
        leaks += d.leaks.size();
    if (json) {
        nlohmann::ordered_json out;
        out["file"] = input;
        out["mark"] = mark;
        out["start_index"] = startIndex;
        out["devices"] = nlohmann::ordered_json::array();
        for (const auto& d : devices) {
            nlohmann::ordered_json item;
            item["device"] = deviceName(d.device);
            item["status"] = d.status == MarkLeakDevice::Status::Checked ? "checked"
                : d.status == MarkLeakDevice::Status::FewerThanThreeMarks ? "fewer_than_3_marks"
                                                                            : "start_index_out_of_range";
            item["marks"] = d.marks;
            item["ids"] = { d.idA, d.idB, d.idC };
            item["leaks"] = nlohmann::ordered_json::array();
            for (const auto& leak : d.leaks)
                item["leaks"].push_back({ { "pool", leak.pool }, { "addr", hexPtr(leak.ptr) }, { "size", leak.size }, { "id", leak.id } });
            out["devices"].push_back(item);
        }
        emit(jsonText(out), output, "Leak report");
    } else {
        std::string text = devices.empty() ? "No rows with a device id in " + input + ".\n" : formatMarkLeaks(devices);
        emit(text, output, "Leak report");
    }
    return failOn && leaks ? kExitFailure : kExitOk;
}

} // namespace

int runLeaks(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs(kLeaksHelp, stdout);
        return kExitOk;
    }
    std::string input, output, mark;
    std::vector<std::string> pools;
    std::size_t startIndex = 0, top = 20;
    bool json = false, failOn = false, markGiven = false;
    ArgScanner scan(args);
    while (!scan.done()) {
        if (auto v = scan.value({ "--pool" }))
            pools = splitList(*v);
        else if (auto m = scan.value({ "--mark" })) {
            mark = *m;
            markGiven = true;
        } else if (auto s = scan.value({ "--start-index" }))
            startIndex = unsignedOption("--start-index", *s);
        else if (auto t = scan.value({ "--top" }))
            top = unsignedOption("--top", *t);
        else if (auto o = scan.value({ "-o", "--output" }))
            output = *o;
        else if (auto f = scan.value({ "--fail-on" }))
            failOn = failOnOption(*f, "leak");
        else if (scan.isFlag({ "--json" }))
            json = true;
        else if (scan.peek().starts_with("-"))
            throw UsageError { "unknown option " + scan.peek() };
        else if (input.empty())
            input = scan.next();
        else
            throw UsageError { "one dump only, got also " + scan.peek() };
    }
    if (input.empty())
        throw UsageError { "name the dump to check" };
    if (markGiven && mark.find_first_not_of(" \t") == std::string::npos)
        throw UsageError { "--mark needs a non-blank message" };
    const auto dump = loadDump(input);
    if (markGiven)
        return runMarkLeaks(dump, input, mark, startIndex, pools, json, output, failOn);

    const auto report = findStepLeaks(dump.trace, dump.model, pools);
    std::vector<const Block*> alive;
    for (const auto& b : dump.model.blocks)
        if (b.aliveAtEnd())
            alive.push_back(&b);
    std::stable_sort(alive.begin(), alive.end(), [](const Block* a, const Block* b) { return a->size > b->size; });
    std::int64_t aliveBytes = 0;
    for (const auto* b : alive)
        aliveBytes += b->size;
    const bool found = !report.leaks.empty() || !report.halLeaks.empty();
    if (json) {
        nlohmann::ordered_json out;
        out["file"] = input;
        out["steps_source"] = report.steps == StepSource::None ? "none" : report.steps == StepSource::Mstx ? "mstx" : "system_step";
        out["steps"] = report.stepCount;
        out["step_leaks"] = nlohmann::ordered_json::array();
        for (const auto& leak : report.leaks)
            out["step_leaks"].push_back({ { "device", deviceName(leak.device) }, { "pool", leak.pool }, { "addr", hexPtr(leak.ptr) },
                { "size", leak.size }, { "step", leak.step }, { "kernel", leak.kernelIndex },
                { "allocation_id", leak.allocationId }, { "line", leak.line } });
        out["gaps"] = nlohmann::ordered_json::array();
        for (const auto& gap : report.gaps) {
            nlohmann::ordered_json g;
            g["device"] = deviceName(gap.device);
            g["pool"] = gap.pool;
            for (const auto& [key, row] : { std::pair { "min_gap", &gap.minGap }, std::pair { "max_gap", &gap.maxGap } })
                g[key] = { { "ratio", row->ratio }, { "min_alloc_bytes", row->stepMin }, { "step", row->step } };
            g["steps"] = nlohmann::ordered_json::array();
            for (const auto& s : gap.steps)
                g["steps"].push_back({ { "step", s.step }, { "min_used", s.minUsed }, { "max_used", s.maxUsed },
                    { "used_at_start", s.usedAtStart }, { "used_at_end", s.usedAtEnd } });
            out["gaps"].push_back(g);
        }
        out["hal_leaks"] = nlohmann::ordered_json::array();
        for (const auto& leak : report.halLeaks)
            out["hal_leaks"].push_back({ { "pid", leak.pid }, { "device", deviceName(leak.device) }, { "addr", hexPtr(leak.ptr) },
                { "size", leak.size }, { "id", leak.id } });
        out["alive_at_end_bytes"] = aliveBytes;
        out["alive_at_end"] = nlohmann::ordered_json::array();
        for (const auto* b : alive)
            out["alive_at_end"].push_back(aliveJson(dump, *b));
        out["warnings"] = report.warnings;
        emit(jsonText(out), output, "Leak report");
    } else {
        std::string text = formatStepLeaks(report);
        text += std::to_string(alive.size()) + " block(s) alive at the end of the capture ("
            + humanBytes(static_cast<unsigned long long>(aliveBytes)) + ")" + (alive.empty() ? ".\n" : ":\n");
        char line[512];
        for (std::size_t k = 0; k < alive.size() && k < top; ++k) {
            const Block& b = *alive[k];
            std::snprintf(line, sizeof line, "  %-10s %12lld bytes at %s  allocation_id %llu, line %u, step %u%s%s%s\n",
                std::string(dump.trace.text(b.pool)).c_str(), static_cast<long long>(b.size), hexPtr(b.ptr).c_str(),
                static_cast<unsigned long long>(b.allocationId), dump.trace.events[b.mallocEvent].line, b.allocStep,
                b.allocOp == kNone ? "" : ", in ", opName(dump.trace, dump.model, b.allocOp).c_str(),
                b.shadowFree ? " (shadow free only)" : "");
            text += line;
        }
        if (alive.size() > top)
            text += "  ... and " + std::to_string(alive.size() - top) + " more\n";
        for (const auto& w : report.warnings)
            text += "warning: " + w + "\n";
        emit(text, output, "Leak report");
    }
    return failOn && found ? kExitFailure : kExitOk;
}

} // namespace msprobe::cli::memory
