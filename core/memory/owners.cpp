// SPDX-License-Identifier: Apache-2.0
#include "memory/owners.h"

#include "support/error.h"

#include <algorithm>

namespace msprobe::memory {

void OwnerLabels::pushRange(OwnerLevel level, const std::string& label)
{
    const auto k = static_cast<std::size_t>(level);
    if (k < m_ranges.size())
        m_ranges[k].push_back(label);
}

void OwnerLabels::popRange(OwnerLevel level)
{
    const auto k = static_cast<std::size_t>(level);
    if (k < m_ranges.size() && !m_ranges[k].empty())
        m_ranges[k].pop_back();
}

void OwnerLabels::pushUser(const std::string& label)
{
    if (m_user.size() >= 3)
        ++m_droppedUser;
    else
        m_user.push_back(label);
}

void OwnerLabels::popUser()
{
    if (m_droppedUser)
        --m_droppedUser;
    else if (!m_user.empty())
        m_user.pop_back();
}

std::array<std::string, 8> OwnerLabels::levelsAt(const std::string& framework) const
{
    std::array<std::string, 8> levels;
    for (std::size_t k = 0; k < m_ranges.size(); ++k)
        if (!m_ranges[k].empty())
            levels[k] = m_ranges[k].back();
    if (levels[0].empty())
        levels[0] = framework;
    for (std::size_t k = 0; k < m_user.size(); ++k)
        levels[5 + k] = m_user[k];
    return levels;
}

std::string OwnerLabels::join(const std::array<std::string, 8>& levels)
{
    std::string out;
    for (const auto& level : levels)
        if (!level.empty())
            out += (out.empty() ? "" : "@") + level;
    return out;
}

std::string ownerCategory(std::string_view owner)
{
    std::vector<std::string_view> labels;
    std::size_t start = 0;
    while (start <= owner.size()) {
        const auto at = owner.find('@', start);
        labels.push_back(owner.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos)
            break;
        start = at + 1;
    }
    auto has = [&](std::initializer_list<std::string_view> names) {
        return std::any_of(labels.begin(), labels.end(),
            [&](std::string_view l) { return std::find(names.begin(), names.end(), l) != names.end(); });
    };
    if (has({ "optimizer_state" }))
        return "optimizer_state";
    if (has({ "gradient" }))
        return "gradient";
    if (has({ "weight", "weights", "sharded_weight" }))
        return "weight";
    if (has({ "activation" }))
        return "activation";
    return "other";
}

Decomposition decompose(const MemTrace& trace, const MemModel& model, const DecomposeOptions& options)
{
    const auto& events = trace.events;
    if (events.empty())
        throw support::Error(trace.file, {}, "has no rows to decompose");
    // Pass 1: the moment. Live bytes are replayed in event order (only real frees end a block).
    auto counts = [&](const Block& b) { return options.includeHal || trace.text(b.pool) != "HAL"; };
    std::uint32_t moment = static_cast<std::uint32_t>(events.size() - 1);
    if (options.at == DecomposeOptions::At::Peak) {
        std::int64_t live = 0, peak = -1;
        for (std::uint32_t i = 0; i < events.size(); ++i) {
            const auto b = model.blockOf[i];
            if (b == kNone || !counts(model.blocks[b]))
                continue;
            if (events[i].kind == EventKind::Malloc)
                live += model.blocks[b].size;
            else if (events[i].kind == EventKind::Free && !events[i].shadow())
                live -= model.blocks[b].size;
            if (live > peak) {
                peak = live;
                moment = i;
            }
        }
    } else if (options.at == DecomposeOptions::At::Time) {
        moment = kNone;
        for (std::uint32_t i = 0; i < events.size(); ++i)
            if (events[i].tsNs <= options.timeNs && (moment == kNone || events[i].tsNs >= events[moment].tsNs))
                moment = i;
        if (moment == kNone)
            throw support::Error(trace.file, {}, "no row at or before time " + std::to_string(options.timeNs) + " ns");
    } else if (options.at == DecomposeOptions::At::StepEnd) {
        moment = kNone;
        for (const auto& b : model.boundaries)
            if (!b.start && b.step == options.step)
                moment = b.event;
        if (moment == kNone)
            throw support::Error(trace.file, {},
                "step " + std::to_string(options.step) + " does not end in this dump (" + std::to_string(model.stepCount)
                    + " step(s) marked)");
    }
    Decomposition out;
    out.eventIndex = moment;
    out.timeNs = events[moment].tsNs;
    std::map<std::pair<std::string, std::string_view>, OwnerShare> shares; // by owner, then category
    for (std::uint32_t i = 0; i <= moment; ++i) {
        const auto& e = events[i];
        if ((e.kind == EventKind::Malloc || e.kind == EventKind::Free) && e.total != kAbsent && trace.text(e.subType) != "HAL")
            out.reservedBytes = e.total;
    }
    for (const auto& block : model.blocks) {
        if (!counts(block) || block.mallocEvent > moment)
            continue;
        if (block.freeEvent != kNone && !block.shadowFree && block.freeEvent <= moment)
            continue;
        const std::string owner(trace.text(block.owner));
        const auto category = categoryName(block.category);
        auto& share = shares[{ owner, category }];
        share.owner = owner;
        share.category = category;
        ++share.blocks;
        share.bytes += block.size;
        out.liveBytes += block.size;
        ++out.liveBlocks;
        out.categories[share.category] += block.size;
    }
    for (auto& [owner, share] : shares)
        out.owners.push_back(std::move(share));
    std::stable_sort(out.owners.begin(), out.owners.end(), [](const OwnerShare& a, const OwnerShare& b) { return a.bytes > b.bytes; });
    return out;
}

} // namespace msprobe::memory
