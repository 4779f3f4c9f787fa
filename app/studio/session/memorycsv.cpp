// SPDX-License-Identifier: Apache-2.0
#include "memorycsv.h"

namespace msprobe::studio {

namespace mem = msprobe::memory;

namespace {

std::string cell(std::string_view text)
{
    if (text.find_first_of(",\"\n") == std::string_view::npos)
        return std::string(text);
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace

std::string timelineCsv(const MemoryDocument& document, std::optional<std::pair<std::int64_t, std::int64_t>> range)
{
    std::string out = "allocation_id,ptr,size_bytes,pool,device,owner,operator,alloc_offset_ns,free_offset_ns,alive_at_end,step,reason\n";
    const auto& timeline = document.timeline;
    for (const auto& item : timeline.blocks) {
        if (range && (item.startNs > range->second || item.endNs < range->first))
            continue;
        const auto& block = document.model.blocks[item.block];
        const bool alive = (item.marks & kMarkAliveAtEnd) != 0;
        out += std::to_string(block.allocationId) + ',' + mem::hexPtr(block.ptr) + ',' + std::to_string(item.size) + ','
            + cell(document.trace.text(block.pool)) + ',' + cell(mem::deviceName(block.device)) + ',' + cell(document.trace.text(block.owner))
            + ',' + cell(mem::opName(document.trace, document.model, block.allocOp)) + ',' + std::to_string(item.startNs - timeline.beginNs)
            + ',' + (alive ? std::string() : std::to_string(item.endNs - timeline.beginNs)) + ',' + (alive ? "yes" : "no") + ','
            + std::to_string(block.allocStep) + ',' + cell(document.markReason(item)) + '\n';
    }
    return out;
}

std::string comparisonCsv(const MemoryComparison& comparison, const MemoryDocument& a, const MemoryDocument& b)
{
    std::string out = "side,size_bytes,operator,owner,allocation_id,alloc_offset_ns,reason\n";
    for (const auto& differing : comparison.blocks) {
        const MemoryDocument& document = differing.inB ? b : a;
        const auto& item = document.timeline.blocks[differing.block];
        out += std::string(differing.inB ? "B only" : "A only") + ',' + std::to_string(differing.size) + ',' + cell(differing.op) + ','
            + cell(differing.owner) + ',' + std::to_string(document.model.blocks[item.block].allocationId) + ','
            + std::to_string(item.startNs - document.timeline.beginNs) + ',' + cell(document.markReason(item)) + '\n';
    }
    return out;
}

} // namespace msprobe::studio
