// SPDX-License-Identifier: Apache-2.0
// msprobe memory compare / decompose / inefficient / watch.
#include "cmd_memory.h"

#include "memory/compare.h"
#include "memory/inefficient.h"
#include "memory/owners.h"
#include "memory/watch.h"
#include "memory/write_back.h"
#include "support/error.h"

#include <algorithm>
#include <cstdio>

namespace msprobe::cli::memory {

namespace {

using namespace msprobe::memory;

std::string optionalText(const std::optional<std::int64_t>& value) { return value ? std::to_string(*value) : "N/A"; }

} // namespace

int runCompareMemory(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs("usage: msprobe memory compare BASE COMPARE [--level op|kernel] [--mode compat|net] [--json] [-o OUT]\n"
                   "       msprobe memory compare DUMP --steps A,B [--level op|kernel] [--mode compat|net] [--json] [-o OUT]\n\n"
                   "Aligns the op sequences (ATEN_END/ATB_END rows; KERNEL_LAUNCH rows at kernel level) of two dumps, or of\n"
                   "steps A and B of one dump, with the Myers diff on names, per device, and gives per aligned op the memory\n"
                   "it caused on each side and their difference (N/A where the op is on one side only).\n"
                   "  compat: msmemscope --compare — the size of the first pool row (PTA/MINDSPORE/TORCH_CPU) at or after\n"
                   "          the op's end; the text and -o output are its memory_compare CSV\n"
                   "  net:    bytes allocated minus freed by the op instance (nested ops included), with its peak; the\n"
                   "          text lists the ops by difference, largest growth first (why B needs more than A)\n",
            stdout);
        return kExitOk;
    }
    std::string levelText = "op", modeText = "compat", stepsText;
    const auto common = scanOptions(args, [&](ArgScanner& scan) {
        if (auto l = scan.value({ "--level" }))
            levelText = *l;
        else if (auto m = scan.value({ "--mode" }))
            modeText = *m;
        else if (auto s = scan.value({ "--steps" }))
            stepsText = *s;
        else
            return false;
        return true;
    });
    if (levelText != "op" && levelText != "kernel")
        throw UsageError { "--level is op or kernel, not \"" + levelText + "\"" };
    if (modeText != "compat" && modeText != "net")
        throw UsageError { "--mode is compat or net, not \"" + modeText + "\"" };
    const auto level = levelText == "op" ? CompareLevel::Op : CompareLevel::Kernel;
    const auto mode = modeText == "net" ? CompareMode::Net : CompareMode::Compat;
    std::uint32_t stepA = 0, stepB = 0;
    if (!stepsText.empty()) {
        const auto comma = stepsText.find(',');
        if (comma == std::string::npos)
            throw UsageError { "--steps takes two steps, A,B" };
        stepA = static_cast<std::uint32_t>(unsignedOption("--steps", stepsText.substr(0, comma)));
        stepB = static_cast<std::uint32_t>(unsignedOption("--steps", stepsText.substr(comma + 1)));
        if (!stepA || !stepB)
            throw UsageError { "steps count from 1" };
        if (common.inputs.size() != 1)
            throw UsageError { "--steps compares two steps of one dump: name one dump" };
    } else if (common.inputs.size() != 2)
        throw UsageError { "name two dumps (BASE COMPARE), or one dump with --steps A,B" };
    const auto base = loadDump(common.inputs[0]);
    LoadedDump other;
    const LoadedDump* second = &base;
    if (common.inputs.size() == 2) {
        other = loadDump(common.inputs[1]);
        second = &other;
    }
    const auto result = compareMemory({ &base.trace, &base.model, stepA }, { &second->trace, &second->model, stepB }, level, mode);
    if (common.json) {
        nlohmann::ordered_json out;
        out["base"] = common.inputs[0] + (stepA ? " step " + std::to_string(stepA) : "");
        out["compare"] = common.inputs.back() + (stepB ? " step " + std::to_string(stepB) : "");
        out["level"] = levelText;
        out["mode"] = modeText;
        out["framework"] = result.framework;
        out["rows"] = nlohmann::ordered_json::array();
        std::int64_t total = 0;
        for (const auto& row : result.rows) {
            nlohmann::ordered_json item = { { "event", row.event }, { "name", row.name }, { "device", deviceName(row.device) },
                { "base", row.base ? nlohmann::ordered_json(*row.base) : nlohmann::ordered_json(nullptr) },
                { "compare", row.compare ? nlohmann::ordered_json(*row.compare) : nlohmann::ordered_json(nullptr) },
                { "diff", row.diff } };
            if (mode == CompareMode::Net) {
                item["base_peak"] = row.basePeak;
                item["compare_peak"] = row.comparePeak;
            }
            total += row.diff;
            out["rows"].push_back(item);
        }
        out["total_diff"] = total;
        emit(jsonText(out), common.output, "Memory compare");
        return kExitOk;
    }
    if (mode == CompareMode::Compat) {
        emit(compareCsv(result), common.output, "Memory compare");
        return kExitOk;
    }
    std::vector<const CompareRow*> order;
    std::int64_t total = 0;
    for (const auto& row : result.rows) {
        order.push_back(&row);
        total += row.diff;
    }
    std::stable_sort(order.begin(), order.end(), [](const CompareRow* a, const CompareRow* b) { return a->diff > b->diff; });
    std::string text = fmt("Net memory per op, %s vs %s: %zu aligned row(s), total difference %lld bytes.\n",
        (common.inputs[0] + (stepA ? " step " + std::to_string(stepA) : "")).c_str(),
        (common.inputs.back() + (stepB ? " step " + std::to_string(stepB) : "")).c_str(), result.rows.size(),
        static_cast<long long>(total));
    text += fmt("%14s  %14s  %14s  %-6s  %s\n", "diff", "base", "compare", "device", "op");
    for (const auto* row : order)
        if (row->diff != 0)
            text += fmt("%14lld  %14s  %14s  %-6s  %s\n", static_cast<long long>(row->diff), optionalText(row->base).c_str(),
                optionalText(row->compare).c_str(), deviceName(row->device).c_str(), row->name.c_str());
    emit(text, common.output, "Memory compare");
    return kExitOk;
}

int runDecompose(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs("usage: msprobe memory decompose DUMP [--at peak|end|step:N|TIME_NS] [--include-hal] [--json] [-o OUT]\n"
                   "                               [--write-back]\n\n"
                   "The live blocks at a moment (default: the peak of live pool bytes; end; the end of step N; the last\n"
                   "row at or before a timestamp in ns), grouped by category and by owner (the owner: attr of their\n"
                   "MALLOC, §2.4). Categories, first rule that applies:\n"
                   "  weight, gradient, optimizer_state  the owner labels say so\n"
                   "  optimizer_state  allocated in the optimizer phase and alive across a step boundary\n"
                   "  activation       owner label activation, or allocated in forward and freed in backward\n"
                   "  input            allocated outside every op before the first op of its step\n"
                   "  temporary        freed in its step, inside the same outermost op or within one phase\n"
                   "  unknown          the rest\n"
                   "HAL blocks back the pools and are left out unless --include-hal.\n"
                   "  --write-back  adds category:NAME to the Attr of every block's MALLOC row in DUMP itself (atomically)\n",
            stdout);
        return kExitOk;
    }
    DecomposeOptions options;
    std::string at = "peak";
    bool writeBack = false;
    const auto common = scanOptions(args, [&](ArgScanner& scan) {
        if (scan.isFlag({ "--write-back" }))
            writeBack = true;
        else if (auto a = scan.value({ "--at" }))
            at = *a;
        else if (scan.isFlag({ "--include-hal" }))
            options.includeHal = true;
        else
            return false;
        return true;
    });
    if (at == "peak")
        options.at = DecomposeOptions::At::Peak;
    else if (at == "end")
        options.at = DecomposeOptions::At::End;
    else if (at.starts_with("step:")) {
        options.at = DecomposeOptions::At::StepEnd;
        options.step = static_cast<std::uint32_t>(unsignedOption("--at step:", at.substr(5)));
    } else {
        options.at = DecomposeOptions::At::Time;
        options.timeNs = static_cast<std::int64_t>(unsignedOption("--at (peak, end, step:N or a time in ns)", at));
    }
    if (common.inputs.size() != 1)
        throw UsageError { "name one dump" };
    const auto dump = loadDump(common.inputs[0]);
    const auto result = decompose(dump.trace, dump.model, options);
    if (writeBack) {
        std::vector<AttrUpdate> updates;
        for (const auto& block : dump.model.blocks) {
            const auto& malloc = dump.trace.events[block.mallocEvent];
            updates.push_back({ malloc.line, malloc.id, malloc.pid, "category", std::string(categoryName(block.category)), false });
        }
        writeBackAttrs(common.inputs[0], updates);
        std::fprintf(stderr, "category written to %zu MALLOC row(s) of %s\n", updates.size(), common.inputs[0].c_str());
    }
    if (common.json) {
        nlohmann::ordered_json out;
        out["file"] = common.inputs[0];
        out["at"] = at;
        out["time_ns"] = result.timeNs;
        out["line"] = dump.trace.events[result.eventIndex].line;
        out["live_bytes"] = result.liveBytes;
        out["live_blocks"] = result.liveBlocks;
        out["reserved_bytes"] = result.reservedBytes >= 0 ? nlohmann::ordered_json(result.reservedBytes) : nlohmann::ordered_json(nullptr);
        out["categories"] = result.categories;
        out["owners"] = nlohmann::ordered_json::array();
        for (const auto& share : result.owners)
            out["owners"].push_back({ { "owner", share.owner }, { "category", share.category }, { "blocks", share.blocks }, { "bytes", share.bytes } });
        emit(jsonText(out), common.output, "Decomposition");
        return kExitOk;
    }
    std::string text = fmt("Live memory at %s (line %u, %lld ns): %lld bytes in %zu block(s)", at.c_str(),
        dump.trace.events[result.eventIndex].line, static_cast<long long>(result.timeNs), static_cast<long long>(result.liveBytes),
        result.liveBlocks);
    text += result.reservedBytes >= 0 ? fmt(", pool reserved %lld bytes\n", static_cast<long long>(result.reservedBytes)) : std::string(".\n");
    auto percent = [&](std::int64_t bytes) { return result.liveBytes ? 100.0 * static_cast<double>(bytes) / static_cast<double>(result.liveBytes) : 0.0; };
    text += "\nby category:\n";
    for (const auto& [category, bytes] : result.categories)
        text += fmt("  %-16s %14lld bytes  %6.2f%%\n", category.c_str(), static_cast<long long>(bytes), percent(bytes));
    text += "\nby owner:\n";
    for (const auto& share : result.owners)
        text += fmt("  %-40s %-16s %6zu block(s) %14lld bytes  %6.2f%%\n", share.owner.empty() ? "(untagged)" : share.owner.c_str(),
            share.category.c_str(), share.blocks, static_cast<long long>(share.bytes), percent(share.bytes));
    emit(text, common.output, "Decomposition");
    return kExitOk;
}

int runInefficient(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs("usage: msprobe memory inefficient DUMP [--mem-size BYTES] [--types LIST] [--idle-threshold APIS]\n"
                   "                                 [--json] [-o OUT] [--fail-on inefficient] [--write-back]\n\n"
                   "msMemScope's inefficient-memory rules (needs OP_LAUNCH and ACCESS rows; PTA, ATB and TORCH_CPU blocks):\n"
                   "  early_allocation    another block was freed between this block's allocation and its first use\n"
                   "  late_deallocation   another block was allocated between this block's last use and its free\n"
                   "  temporary_idleness  two consecutive uses more than --idle-threshold APIs apart (default 3000)\n"
                   "An API is an op (START..END) or a memory row outside any op. Each block comes with its waste: bytes\n"
                   "times the ns (and APIs) it sat allocated without use.\n"
                   "  --write-back  adds inefficient_type:LIST to the Attr of each flagged block's MALLOC row in DUMP itself\n"
                   "                (as msMemScope's offline check does: types already there are kept, new ones appended);\n"
                   "                the file is rewritten under a temporary name and renamed, so an error leaves it as it was\n",
            stdout);
        return kExitOk;
    }
    InefficientOptions options;
    bool failOn = false, writeBack = false;
    const auto common = scanOptions(args, [&](ArgScanner& scan) {
        if (scan.isFlag({ "--write-back" }))
            writeBack = true;
        else if (auto m = scan.value({ "--mem-size" }))
            options.memSize = static_cast<std::int64_t>(unsignedOption("--mem-size", *m));
        else if (auto t = scan.value({ "--types" })) {
            try {
                options.types = parseInefficientTypes(*t);
            } catch (const support::Error& error) {
                throw UsageError { "--types: " + std::string(error.what()) };
            }
        } else if (auto i = scan.value({ "--idle-threshold" })) {
            options.idleThreshold = unsignedOption("--idle-threshold", *i);
            if (!options.idleThreshold)
                throw UsageError { "--idle-threshold must be a positive number of APIs" };
        } else if (auto f = scan.value({ "--fail-on" }))
            failOn = failOnOption(*f, "inefficient");
        else
            return false;
        return true;
    });
    if (common.inputs.size() != 1)
        throw UsageError { "name one dump" };
    const auto dump = loadDump(common.inputs[0]);
    const auto report = findInefficientBlocks(dump.trace, dump.model, options);
    const auto& trace = dump.trace;
    if (writeBack) {
        std::vector<AttrUpdate> updates;
        for (const auto& item : report.blocks) {
            const auto& malloc = trace.events[dump.model.blocks[item.block].mallocEvent];
            updates.push_back({ malloc.line, malloc.id, malloc.pid, "inefficient_type", inefficientTypeNames(item.types), true });
        }
        writeBackAttrs(common.inputs[0], updates);
        std::fprintf(stderr, "inefficient_type written to %zu MALLOC row(s) of %s\n", updates.size(), common.inputs[0].c_str());
    }
    if (common.json) {
        nlohmann::ordered_json out;
        out["file"] = common.inputs[0];
        out["apis"] = report.apis;
        out["blocks"] = nlohmann::ordered_json::array();
        for (const auto& item : report.blocks) {
            const Block& b = dump.model.blocks[item.block];
            out["blocks"].push_back({ { "allocation_id", b.allocationId }, { "pool", std::string(trace.text(b.pool)) },
                { "addr", hexPtr(b.ptr) }, { "size", b.size }, { "line", trace.events[b.mallocEvent].line },
                { "inefficient_type", inefficientTypeNames(item.types) }, { "alloc_op", opName(trace, dump.model, b.allocOp) },
                { "early_byte_ns", item.earlyByteNs }, { "late_byte_ns", item.lateByteNs }, { "idle_byte_ns", item.idleByteNs },
                { "early_byte_apis", item.earlyByteApis }, { "late_byte_apis", item.lateByteApis }, { "idle_byte_apis", item.idleByteApis } });
        }
        emit(jsonText(out), common.output, "Inefficient blocks");
    } else {
        std::string text = fmt("%zu inefficient block(s) over %llu APIs.\n", report.blocks.size(),
            static_cast<unsigned long long>(report.apis));
        if (!report.blocks.empty())
            text += fmt("%-14s %-8s %-20s %12s  %-40s %14s  %s\n", "allocation_id", "pool", "addr", "bytes", "inefficient_type",
                "waste(B*ms)", "allocated in");
        for (const auto& item : report.blocks) {
            const Block& b = dump.model.blocks[item.block];
            const double waste = (item.earlyByteNs + item.lateByteNs + item.idleByteNs) / 1e6;
            text += fmt("%-14llu %-8s %-20s %12lld  %-40s %14.1f  %s\n", static_cast<unsigned long long>(b.allocationId),
                std::string(trace.text(b.pool)).c_str(), hexPtr(b.ptr).c_str(), static_cast<long long>(b.size),
                inefficientTypeNames(item.types).c_str(), waste, opName(trace, dump.model, b.allocOp).c_str());
        }
        emit(text, common.output, "Inefficient blocks");
    }
    return failOn && !report.blocks.empty() ? kExitFailure : kExitOk;
}

int runWatch(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs("usage: msprobe memory watch CHECKSUM_CSV [--json] [-o OUT] [--fail-on change]\n\n"
                   "Reads a watch_dump_data_check_sum_*.csv (Tensor info,Check data sum) and lists, per watched tensor,\n"
                   "every change of its checksum between two consecutive dumps: inside an op (before -> after of one\n"
                   "call: that op wrote it) or between ops. The first change names the op that overwrote the block.\n",
            stdout);
        return kExitOk;
    }
    bool failOn = false;
    const auto common = scanOptions(args, [&](ArgScanner& scan) {
        if (auto f = scan.value({ "--fail-on" })) {
            failOn = failOnOption(*f, "change");
            return true;
        }
        return false;
    });
    if (common.inputs.size() != 1)
        throw UsageError { "name one checksum CSV" };
    const auto report = readWatchChecksums(common.inputs[0]);
    if (common.json) {
        nlohmann::ordered_json out;
        out["file"] = common.inputs[0];
        out["dumps"] = report.dumps.size();
        out["changes"] = nlohmann::ordered_json::array();
        for (const auto& change : report.changes) {
            const auto& from = report.dumps[change.from];
            const auto& to = report.dumps[change.to];
            out["changes"].push_back({ { "tensor", change.tensor }, { "inside_op", change.insideOp }, { "op", to.op },
                { "call", to.call }, { "from", from.tensorInfo }, { "to", to.tensorInfo }, { "from_checksum", from.checksum },
                { "to_checksum", to.checksum }, { "line", to.line } });
        }
        emit(jsonText(out), common.output, "Watch report");
    } else {
        std::string text = fmt("%zu dump(s), %zu checksum change(s).\n", report.dumps.size(), report.changes.size());
        for (const auto& change : report.changes) {
            const auto& from = report.dumps[change.from];
            const auto& to = report.dumps[change.to];
            if (change.insideOp)
                text += fmt("line %zu: %s changed inside %s (call %llu): %s -> %s\n", to.line, change.tensor.c_str(), to.op.c_str(),
                    static_cast<unsigned long long>(to.call), from.checksum.c_str(), to.checksum.c_str());
            else
                text += fmt("line %zu: %s changed between %s %s (call %llu) and %s %s (call %llu): %s -> %s\n", to.line,
                    change.tensor.c_str(), from.after ? "after" : "before", from.op.c_str(),
                    static_cast<unsigned long long>(from.call), to.after ? "after" : "before", to.op.c_str(),
                    static_cast<unsigned long long>(to.call), from.checksum.c_str(), to.checksum.c_str());
        }
        emit(text, common.output, "Watch report");
    }
    return failOn && !report.changes.empty() ? kExitFailure : kExitOk;
}

} // namespace msprobe::cli::memory
