// SPDX-License-Identifier: Apache-2.0
// msprobe memory oom: what was live at each OOM_TRIGGER row of a dump.
#include "cmd_memory.h"

#include "memory/oom.h"

namespace msprobe::cli::memory {

namespace {

using namespace msprobe::memory;

std::string csvCell(const std::string& text)
{
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string out = "\"";
    for (const char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string orNone(const std::string& text, const char* none) { return text.empty() ? none : text; }

nlohmann::ordered_json sharesJson(const std::vector<OomShare>& shares)
{
    auto out = nlohmann::ordered_json::array();
    for (const auto& share : shares)
        out.push_back({ { "key", share.key }, { "blocks", share.blocks }, { "bytes", share.bytes } });
    return out;
}

nlohmann::ordered_json blockJson(const LoadedDump& dump, std::uint32_t index)
{
    const auto& trace = dump.trace;
    const Block& b = dump.model.blocks[index];
    return { { "allocation_id", b.allocationId }, { "pool", std::string(trace.text(b.pool)) }, { "addr", hexPtr(b.ptr) },
        { "size", b.size }, { "owner", std::string(trace.text(b.owner)) }, { "category", std::string(categoryName(b.category)) },
        { "alloc_op", opName(trace, dump.model, b.allocOp) }, { "line", trace.events[b.mallocEvent].line },
        { "alloc_ts_ns", trace.events[b.mallocEvent].tsNs } };
}

std::string blockLine(const LoadedDump& dump, std::uint32_t index)
{
    const auto& trace = dump.trace;
    const Block& b = dump.model.blocks[index];
    return fmt("    %14lld  %-10s %-18s %-10s line %-8u %s  %s\n", static_cast<long long>(b.size), std::string(trace.text(b.pool)).c_str(),
        hexPtr(b.ptr).c_str(), std::string(categoryName(b.category)).c_str(), trace.events[b.mallocEvent].line,
        orNone(opName(trace, dump.model, b.allocOp), "(outside ops)").c_str(), std::string(trace.text(b.owner)).c_str());
}

std::string sharesText(const char* title, const std::vector<OomShare>& shares, std::int64_t total, std::size_t top, const char* none)
{
    std::string text = fmt("  by %s:\n", title);
    for (std::size_t k = 0; k < shares.size() && k < top; ++k)
        text += fmt("    %14lld bytes %6.2f%%  %6zu block(s)  %s\n", static_cast<long long>(shares[k].bytes),
            total ? 100.0 * static_cast<double>(shares[k].bytes) / static_cast<double>(total) : 0.0, shares[k].blocks,
            orNone(shares[k].key, none).c_str());
    if (shares.size() > top)
        text += fmt("    ... %zu more\n", shares.size() - top);
    return text;
}

} // namespace

int runOom(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs("usage: msprobe memory oom DUMP [--top K] [--include-hal] [--json | --csv] [-o OUT] [--fail-on oom]\n\n"
                   "For every OOM_DETAIL/OOM_TRIGGER row (msMemScope --analysis=oom, or our capture's out-of-memory\n"
                   "report): the requested size, the op running, and the blocks live at the failing allocation rebuilt\n"
                   "from the MALLOC/FREE rows, by category, owner and allocating op, the K largest (default 10) and the K\n"
                   "most recent; then the OOM_RECENT_ALLOC / OOM_TOP_ALLOC rows the dump holds for it.\n"
                   "  --csv   one row per live block per OOM (oom,trigger_line,allocation_id,pool,addr,size,category,owner,\n"
                   "          alloc_op,alloc_line,alloc_ts_ns)\n"
                   "HAL blocks back the pools and are left out unless --include-hal.\n",
            stdout);
        return kExitOk;
    }
    OomOptions options;
    bool csv = false, failOn = false;
    const auto common = scanOptions(args, [&](ArgScanner& scan) {
        if (auto t = scan.value({ "--top" })) {
            options.top = static_cast<std::size_t>(unsignedOption("--top", *t));
            if (!options.top)
                throw UsageError { "--top must be at least 1" };
        } else if (scan.isFlag({ "--include-hal" }))
            options.includeHal = true;
        else if (scan.isFlag({ "--csv" }))
            csv = true;
        else if (auto f = scan.value({ "--fail-on" }))
            failOn = failOnOption(*f, "oom");
        else
            return false;
        return true;
    });
    if (common.inputs.size() != 1)
        throw UsageError { "name one dump" };
    if (csv && common.json)
        throw UsageError { "--csv and --json exclude each other" };
    const auto dump = loadDump(common.inputs[0]);
    const auto& trace = dump.trace;
    const auto report = findOomIncidents(trace, dump.model, options);
    const int status = failOn && !report.incidents.empty() ? kExitFailure : kExitOk;
    if (common.json) {
        nlohmann::ordered_json out;
        out["file"] = common.inputs[0];
        out["incidents"] = nlohmann::ordered_json::array();
        for (const auto& incident : report.incidents) {
            const auto& e = trace.events[incident.event];
            nlohmann::ordered_json item = { { "line", e.line }, { "id", e.id }, { "pid", incident.pid },
                { "device", deviceName(incident.device) }, { "ts_ns", e.tsNs }, { "func", incident.func },
                { "requested", incident.requested >= 0 ? nlohmann::ordered_json(incident.requested) : nlohmann::ordered_json(nullptr) },
                { "op", incident.op }, { "live_bytes", incident.liveBytes }, { "live_blocks", incident.liveBlocks },
                { "reserved_bytes", incident.reservedBytes >= 0 ? nlohmann::ordered_json(incident.reservedBytes) : nlohmann::ordered_json(nullptr) },
                { "by_category", sharesJson(incident.byCategory) }, { "by_owner", sharesJson(incident.byOwner) },
                { "by_op", sharesJson(incident.byOp) } };
            item["largest"] = nlohmann::ordered_json::array();
            for (std::size_t k = 0; k < incident.live.size() && k < options.top; ++k)
                item["largest"].push_back(blockJson(dump, incident.live[k]));
            item["recent"] = nlohmann::ordered_json::array();
            for (const auto b : incident.recent)
                item["recent"].push_back(blockJson(dump, b));
            item["records"] = nlohmann::ordered_json::array();
            for (const auto& r : incident.records)
                item["records"].push_back({ { "type", r.type }, { "pool", r.pool }, { "ptr", hexPtr(r.ptr) }, { "size", r.size },
                    { "timestamp", r.allocTsNs }, { "line", r.line } });
            out["incidents"].push_back(std::move(item));
        }
        emit(jsonText(out), common.output, "OOM report");
        return status;
    }
    if (csv) {
        std::string text = "oom,trigger_line,allocation_id,pool,addr,size,category,owner,alloc_op,alloc_line,alloc_ts_ns\n";
        for (std::size_t n = 0; n < report.incidents.size(); ++n) {
            const auto& incident = report.incidents[n];
            for (const auto index : incident.live) {
                const Block& b = dump.model.blocks[index];
                text += std::to_string(n + 1) + "," + std::to_string(trace.events[incident.event].line) + ","
                    + std::to_string(b.allocationId) + "," + csvCell(std::string(trace.text(b.pool))) + "," + hexPtr(b.ptr) + ","
                    + std::to_string(b.size) + "," + std::string(categoryName(b.category)) + "," + csvCell(std::string(trace.text(b.owner)))
                    + "," + csvCell(opName(trace, dump.model, b.allocOp)) + "," + std::to_string(trace.events[b.mallocEvent].line) + ","
                    + std::to_string(trace.events[b.mallocEvent].tsNs) + "\n";
            }
        }
        emit(text, common.output, "OOM report");
        return status;
    }
    std::string text = fmt("%zu out-of-memory report(s) (OOM_TRIGGER rows) in %s.\n", report.incidents.size(), common.inputs[0].c_str());
    for (std::size_t n = 0; n < report.incidents.size(); ++n) {
        const auto& incident = report.incidents[n];
        const auto& e = trace.events[incident.event];
        text += fmt("\nOOM %zu at line %u (ID %llu, process %d, device %s, %lld ns): %s requested %s bytes", n + 1, e.line,
            static_cast<unsigned long long>(e.id), incident.pid, deviceName(incident.device).c_str(), static_cast<long long>(e.tsNs),
            orNone(incident.func, "allocation").c_str(), incident.requested >= 0 ? std::to_string(incident.requested).c_str() : "?");
        text += incident.op.empty() ? std::string(" outside any op\n") : fmt(" in %s\n", incident.op.c_str());
        text += fmt("  live: %lld bytes in %zu block(s)", static_cast<long long>(incident.liveBytes), incident.liveBlocks);
        text += incident.reservedBytes >= 0 ? fmt(", pool reserved %lld bytes\n", static_cast<long long>(incident.reservedBytes)) : std::string("\n");
        text += sharesText("category", incident.byCategory, incident.liveBytes, options.top, "unknown");
        text += sharesText("owner", incident.byOwner, incident.liveBytes, options.top, "(untagged)");
        text += sharesText("allocating op", incident.byOp, incident.liveBytes, options.top, "(outside ops)");
        text += fmt("  largest %zu live block(s) (bytes, pool, addr, category, line, op, owner):\n", std::min(options.top, incident.live.size()));
        for (std::size_t k = 0; k < incident.live.size() && k < options.top; ++k)
            text += blockLine(dump, incident.live[k]);
        text += fmt("  most recent %zu:\n", incident.recent.size());
        for (const auto b : incident.recent)
            text += blockLine(dump, b);
        if (!incident.records.empty()) {
            text += fmt("  the dump's own records (%zu):\n", incident.records.size());
            for (const auto& r : incident.records)
                text += fmt("    line %-8u %-16s %-8s %s %14lld bytes  allocated at %llu ns\n", r.line, r.type.c_str(), r.pool.c_str(),
                    hexPtr(r.ptr).c_str(), static_cast<long long>(r.size), static_cast<unsigned long long>(r.allocTsNs));
        }
    }
    emit(text, common.output, "OOM report");
    return status;
}

} // namespace msprobe::cli::memory
