// SPDX-License-Identifier: Apache-2.0
// Field-by-field comparison of two DumpFile models (for differential fuzzing of the reader).
#pragma once

#include "dump/dump_model.h"

#include <cstring>
#include <string>

namespace msprobe::fuzz {

inline bool sameStats(const dump::StatColumn& a, const dump::StatColumn& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const dump::StatValue x = a[i], y = b[i];
        if (x.kind != y.kind || std::memcmp(&x.f, &y.f, sizeof x.f) != 0)
            return false;
    }
    return true;
}

// Empty when equal, else the first field that differs.
inline std::string dumpDifference(const dump::DumpFile& a, const dump::DumpFile& b)
{
    if (a.path != b.path || a.task != b.task || a.level != b.level || a.framework != b.framework
        || a.frameworkPresent != b.frameworkPresent || a.dumpDataDir != b.dumpDataDir || a.fileSize != b.fileSize)
        return "top-level fields";
    if (a.strings.size() != b.strings.size())
        return "string pool size";
    for (support::StringId id = 0; id < a.strings.size(); ++id)
        if (a.strings.view(id) != b.strings.view(id))
            return "string " + std::to_string(id);
    if (a.entries.size() != b.entries.size())
        return "entry count";
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        const dump::Entry &x = a.entries[i], &y = b.entries[i];
        if (x.name != y.name || x.body != y.body || x.parsed.kind != y.parsed.kind || x.parsed.direction != y.parsed.direction
            || x.parsed.callIndex != y.parsed.callIndex || x.parsed.prefix != y.parsed.prefix || x.parsed.api != y.parsed.api
            || x.parsed.modulePath != y.parsed.modulePath || x.parsed.moduleClass != y.parsed.moduleClass)
            return "entry " + std::to_string(i);
    }
    if (a.nodes.size() != b.nodes.size())
        return "node count";
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        const dump::ValueNode &x = a.nodes[i], &y = b.nodes[i];
        if (x.kind != y.kind || x.key != y.key || x.subtreeSize != y.subtreeSize || x.payload != y.payload)
            return "node " + std::to_string(i);
    }
    const dump::TensorTable &t = a.tensors, &u = b.tensors;
    if (t.type != u.type || t.dtype != u.dtype || t.shapeBegin != u.shapeBegin || t.shapeRank != u.shapeRank
        || t.shapePool != u.shapePool || t.requiresGrad != u.requiresGrad || t.dataName != u.dataName || t.md5 != u.md5)
        return "tensor columns";
    if (!sameStats(t.max, u.max) || !sameStats(t.min, u.min) || !sameStats(t.mean, u.mean) || !sameStats(t.norm, u.norm))
        return "tensor statistics";
    if (t.extras.size() != u.extras.size())
        return "tensor extras";
    for (std::size_t i = 0; i < t.extras.size(); ++i)
        if (t.extras[i].begin != u.extras[i].begin || t.extras[i].count != u.extras[i].count)
            return "tensor extras " + std::to_string(i);
    const dump::ScalarTable &s = a.scalars, &r = b.scalars;
    if (s.type != r.type || s.valueKind != r.valueKind || s.text != r.text || !sameStats(s.number, r.number))
        return "scalar columns";
    if (s.extras.size() != r.extras.size())
        return "scalar extras";
    for (std::size_t i = 0; i < s.extras.size(); ++i)
        if (s.extras[i].begin != r.extras[i].begin || s.extras[i].count != r.extras[i].count)
            return "scalar extras " + std::to_string(i);
    if (a.extras.size() != b.extras.size())
        return "extras count";
    for (std::size_t i = 0; i < a.extras.size(); ++i)
        if (a.extras[i].key != b.extras[i].key || a.extras[i].text != b.extras[i].text)
            return "extra " + std::to_string(i);
    return {};
}

} // namespace msprobe::fuzz
