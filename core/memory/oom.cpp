// SPDX-License-Identifier: Apache-2.0
#include "memory/oom.h"

#include <algorithm>
#include <map>

namespace msprobe::memory {

namespace {

std::vector<OomShare> sortedShares(std::map<std::string, OomShare>& shares)
{
    std::vector<OomShare> out;
    for (auto& [key, share] : shares)
        out.push_back(std::move(share));
    std::stable_sort(out.begin(), out.end(), [](const OomShare& a, const OomShare& b) { return a.bytes > b.bytes; });
    return out;
}

} // namespace

OomReport findOomIncidents(const MemTrace& trace, const MemModel& model, const OomOptions& options)
{
    OomReport report;
    const auto& events = trace.events;
    for (std::uint32_t i = 0; i < events.size(); ++i) {
        const MemEvent& e = events[i];
        if (e.kind != EventKind::OomDetail)
            continue;
        if (!trace.is(e.subType, "OOM_TRIGGER")) {
            if (!report.incidents.empty() && report.incidents.back().pid == e.pid) {
                OomRecord record;
                record.type = trace.text(e.subType);
                record.pool = trace.text(e.detail);
                record.ptr = e.ptr;
                record.size = e.size;
                record.allocTsNs = e.allocationId;
                record.line = e.line;
                report.incidents.back().records.push_back(std::move(record));
            }
            continue;
        }
        OomIncident incident;
        incident.event = i;
        incident.func = trace.text(e.detail);
        incident.requested = e.size;
        incident.pid = e.pid;
        incident.device = e.device;
        incident.op = opName(trace, model, model.opOf[i]);
        for (std::uint32_t k = i; k-- > 0 && events[k].pid == e.pid;) {
            const auto& before = events[k];
            if ((before.kind == EventKind::Malloc || before.kind == EventKind::Free) && before.total != kAbsent
                && !trace.is(before.subType, "HAL")) {
                incident.reservedBytes = before.total;
                break;
            }
        }
        std::map<std::string, OomShare> categories, owners, ops;
        auto add = [](std::map<std::string, OomShare>& into, const std::string& key, std::int64_t bytes) {
            auto& share = into[key];
            share.key = key;
            ++share.blocks;
            share.bytes += bytes;
        };
        for (std::uint32_t b = 0; b < model.blocks.size(); ++b) {
            const Block& block = model.blocks[b];
            if (block.pid != e.pid || block.mallocEvent > i || (!options.includeHal && trace.is(block.pool, "HAL")))
                continue;
            if (e.device != kDeviceUnknown && block.device != e.device)
                continue;
            if (block.freeEvent != kNone && !block.shadowFree && block.freeEvent < i)
                continue;
            incident.live.push_back(b);
            incident.liveBytes += block.size;
            add(categories, std::string(categoryName(block.category)), block.size);
            add(owners, std::string(trace.text(block.owner)), block.size);
            add(ops, opName(trace, model, block.allocOp), block.size);
        }
        incident.liveBlocks = incident.live.size();
        incident.byCategory = sortedShares(categories);
        incident.byOwner = sortedShares(owners);
        incident.byOp = sortedShares(ops);
        incident.recent = incident.live;
        std::stable_sort(incident.live.begin(), incident.live.end(),
            [&](std::uint32_t a, std::uint32_t b) { return model.blocks[a].size > model.blocks[b].size; });
        std::reverse(incident.recent.begin(), incident.recent.end()); // blocks are in MALLOC order
        if (incident.recent.size() > options.top)
            incident.recent.resize(options.top);
        report.incidents.push_back(std::move(incident));
    }
    return report;
}

} // namespace msprobe::memory
