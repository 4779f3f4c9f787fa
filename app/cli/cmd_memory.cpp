// SPDX-License-Identifier: Apache-2.0
// msprobe memory: analyses of msMemScope memory dumps (and our captures in that layout). The subverb table and
// `summary`; the analyses are in cmd_memory_leaks.cpp and cmd_memory_analyses.cpp.
#include "cmd_memory.h"
#include "cmd_memory_capture.h"

#include "memory/memscope_reader.h"
#include "support/atomic_file.h"
#include "support/error.h"

#include <cstdio>
#include <map>

namespace msprobe::cli {

namespace memory {

using namespace msprobe::memory;

const std::vector<Subverb>& memorySubverbs()
{
    static const std::vector<Subverb> list = {
        { "capture", "run a TorchScript model headless and record its memory events (msMemScope dump CSV)", &runMemoryCapture },
        { "summary", "rows, blocks, peak and steps of a dump", &runSummary },
        { "leaks", "blocks never freed, per-step leaks and fluctuation (§2.1), or leaks between marks A, B, C (§2.2)", &runLeaks },
        { "compare", "why one run or step needs more memory than another: ops aligned, memory per op (§2.3)", &runCompareMemory },
        { "decompose", "who owns the live memory at a moment: by owner and weight/gradient/optimizer/activation (§2.4)", &runDecompose },
        { "inefficient", "blocks allocated too early, freed too late or idle (§2.5)", &runInefficient },
        { "oom", "what was live at each out-of-memory failure: by category, owner and operator (OOM_DETAIL rows)", &runOom },
        { "watch", "where a watched block changed: the op that overwrote it, from a watch checksum CSV (§2.6)", &runWatch },
    };
    return list;
}

LoadedDump loadDump(const std::string& path)
{
    LoadedDump dump { readMemScope(path), {} };
    dump.model = buildModel(dump.trace);
    return dump;
}

void emit(const std::string& text, const std::string& output, const char* what)
{
    if (output.empty()) {
        std::fputs(text.c_str(), stdout);
        return;
    }
    support::AtomicFile file(output);
    file.write(text);
    file.commit();
    std::printf("%s written: %s\n", what, output.c_str());
}

std::string jsonText(const nlohmann::ordered_json& json) { return json.dump(2) + "\n"; }

std::uint64_t unsignedOption(const std::string& option, const std::string& value)
{
    unsigned long long number = 0;
    std::size_t used = 0;
    try {
        number = std::stoull(value, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (value.empty() || used != value.size() || value[0] == '-' || value[0] == '+')
        throw UsageError { option + " must be a whole number >= 0, not \"" + value + "\"" };
    return number;
}

bool failOnOption(const std::string& value, std::string_view accepted)
{
    if (value != accepted)
        throw UsageError { "--fail-on takes \"" + std::string(accepted) + "\" here, not \"" + value + "\"" };
    return true;
}

int runSummary(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs("usage: msprobe memory summary DUMP [--json]\n\n"
                   "Rows per event, blocks (alive at the end, unmatched frees and accesses), the peak of live bytes,\n"
                   "op instances and steps of a msMemScope dump (.csv or .db).\n",
            stdout);
        return kExitOk;
    }
    std::string input;
    bool json = false;
    ArgScanner scan(args);
    while (!scan.done()) {
        if (scan.isFlag({ "--json" }))
            json = true;
        else if (scan.peek().starts_with("-"))
            throw UsageError { "unknown option " + scan.peek() };
        else if (input.empty())
            input = scan.next();
        else
            throw UsageError { "one dump only, got also " + scan.peek() };
    }
    if (input.empty())
        throw UsageError { "name the dump to summarise" };
    const auto dump = loadDump(input);
    const auto& trace = dump.trace;
    std::map<std::string, std::size_t> rows;
    for (const auto& e : trace.events)
        ++rows[std::string(eventKindName(e.kind)) + " " + std::string(trace.text(e.subType))];
    std::size_t alive = 0;
    std::int64_t aliveBytes = 0, live = 0, peak = 0;
    for (const auto& b : dump.model.blocks)
        if (b.aliveAtEnd()) {
            ++alive;
            aliveBytes += b.size;
        }
    for (std::uint32_t i = 0; i < trace.events.size(); ++i) {
        const auto block = dump.model.blockOf[i];
        if (block == kNone || trace.text(dump.model.blocks[block].pool) == "HAL")
            continue;
        const auto& e = trace.events[i];
        live += e.kind == EventKind::Malloc ? e.size : (e.kind == EventKind::Free && !e.shadow() ? -e.size : 0);
        peak = std::max(peak, live);
    }
    nlohmann::ordered_json out;
    out["file"] = input;
    out["rows"] = trace.rowsRead;
    out["rows_by_event"] = rows;
    out["blocks"] = dump.model.blocks.size();
    out["alive_at_end"] = alive;
    out["alive_at_end_bytes"] = aliveBytes;
    out["peak_live_bytes"] = peak;
    out["ops"] = dump.model.ops.size();
    out["steps"] = dump.model.stepCount;
    out["unmatched_frees"] = dump.model.unmatchedFrees.size();
    out["unmatched_accesses"] = dump.model.unmatchedAccesses.size();
    if (json) {
        emit(jsonText(out), {}, "");
        return kExitOk;
    }
    std::string text = input + ": " + std::to_string(trace.rowsRead) + " rows\n";
    for (const auto& [kind, count] : rows)
        text += "  " + kind + ": " + std::to_string(count) + "\n";
    text += std::to_string(dump.model.blocks.size()) + " blocks, " + std::to_string(alive) + " alive at the end ("
        + humanBytes(static_cast<unsigned long long>(aliveBytes)) + "); peak live (pools, not HAL) "
        + humanBytes(static_cast<unsigned long long>(peak)) + "\n";
    text += std::to_string(dump.model.ops.size()) + " op instances, " + std::to_string(dump.model.stepCount) + " step(s)\n";
    if (!dump.model.unmatchedFrees.empty() || !dump.model.unmatchedAccesses.empty())
        text += std::to_string(dump.model.unmatchedFrees.size()) + " unmatched free(s), "
            + std::to_string(dump.model.unmatchedAccesses.size()) + " unmatched access(es)\n";
    emit(text, {}, "");
    return kExitOk;
}

} // namespace memory

int runMemory(const std::vector<std::string>& args)
{
    const auto& table = memory::memorySubverbs();
    auto usage = [&](std::FILE* out) {
        std::fputs("usage: msprobe memory SUBVERB [options] (msprobe memory SUBVERB -h for its options)\n\n"
                   "Memory analyses of msMemScope dumps (memscope_dump_*.csv or .db) and of our captures in that layout.\n\n"
                   "subverbs:\n",
            out);
        for (const auto& sub : table)
            std::fprintf(out, "  %-12.*s %.*s\n", static_cast<int>(sub.name.size()), sub.name.data(),
                static_cast<int>(sub.summary.size()), sub.summary.data());
        std::fputs("\nExit status: 0 done, 1 bad input, I/O error or a --fail-on finding, 2 bad command line.\n", out);
    };
    if (args.empty()) {
        usage(stderr);
        return kExitUsage;
    }
    if (args[0] == "-h" || args[0] == "--help") {
        usage(stdout);
        return kExitOk;
    }
    for (const auto& sub : table)
        if (sub.name == args[0])
            return sub.run(std::vector<std::string>(args.begin() + 1, args.end()));
    throw UsageError { "unknown subverb \"" + args[0] + "\"" };
}

} // namespace msprobe::cli
