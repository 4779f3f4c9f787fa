// SPDX-License-Identifier: Apache-2.0
#include "graph/merge/dump_compose.h"

namespace msprobe::graph {

DumpComposer::DumpComposer(const dump::DumpFile& base)
    : m_file(std::make_shared<dump::DumpFile>())
{
    m_file->path = base.path;
    m_file->task = base.task;
    m_file->level = base.level;
    m_file->framework = base.framework;
    m_file->frameworkPresent = base.frameworkPresent;
    m_file->dumpDataDir = base.dumpDataDir;
}

support::StringId DumpComposer::copyString(const dump::DumpFile& from, support::StringId id)
{
    return id == support::kNoString ? support::kNoString : m_file->strings.intern(from.text(id));
}

dump::ExtrasRange DumpComposer::copyExtras(const dump::DumpFile& from, dump::ExtrasRange range)
{
    if (range.count == 0)
        return {};
    dump::ExtrasRange copied { static_cast<std::uint32_t>(m_file->extras.size()), range.count };
    for (const dump::LeafExtra& extra : from.extrasOf(range))
        m_file->extras.push_back({ copyString(from, extra.key), copyString(from, extra.text) });
    return copied;
}

std::uint32_t DumpComposer::copySubtree(const dump::DumpFile& from, std::uint32_t node)
{
    dump::DumpFile& out = *m_file;
    const auto first = static_cast<std::uint32_t>(out.nodes.size());
    const std::uint32_t end = node + from.nodes[node].subtreeSize;
    for (std::uint32_t n = node; n < end; ++n) {
        dump::ValueNode copy = from.nodes[n];
        copy.key = copyString(from, copy.key);
        if (copy.kind == dump::NodeKind::Tensor) {
            const dump::TensorTable& t = from.tensors;
            dump::TensorTable& ot = out.tensors;
            const std::uint32_t row = copy.payload;
            copy.payload = static_cast<std::uint32_t>(ot.size());
            ot.type.push_back(copyString(from, t.type[row]));
            ot.dtype.push_back(copyString(from, t.dtype[row]));
            ot.shapeBegin.push_back(static_cast<std::uint32_t>(ot.shapePool.size()));
            ot.shapeRank.push_back(t.shapeRank[row]);
            for (auto dim : t.shape(row))
                ot.shapePool.push_back(dim);
            ot.max.push(t.max[row]);
            ot.min.push(t.min[row]);
            ot.mean.push(t.mean[row]);
            ot.norm.push(t.norm[row]);
            ot.requiresGrad.push_back(t.requiresGrad[row]);
            ot.dataName.push_back(copyString(from, t.dataName[row]));
            ot.md5.push_back(copyString(from, t.md5[row]));
            ot.extras.push_back(copyExtras(from, t.extras[row]));
        } else if (copy.kind == dump::NodeKind::Scalar || copy.kind == dump::NodeKind::Raw) {
            const dump::ScalarTable& s = from.scalars;
            dump::ScalarTable& os = out.scalars;
            const std::uint32_t row = copy.payload;
            copy.payload = static_cast<std::uint32_t>(os.size());
            os.type.push_back(copyString(from, s.type[row]));
            os.valueKind.push_back(s.valueKind[row]);
            os.number.push(s.number[row]);
            os.text.push_back(copyString(from, s.text[row]));
            os.extras.push_back(copyExtras(from, s.extras[row]));
        }
        out.nodes.push_back(copy);
    }
    return first;
}

std::uint32_t DumpComposer::addEntry(std::string_view name, const dump::DumpFile* inputs, std::uint32_t inputEntry,
    const dump::DumpFile* outputs, std::uint32_t outputEntry)
{
    dump::DumpFile& out = *m_file;
    dump::Entry entry;
    entry.name = out.strings.intern(name);
    entry.parsed = dump::parseEntryName(out.strings.view(entry.name));
    const bool same = inputs == outputs && inputEntry == outputEntry;
    if (same && inputs) {
        entry.body = copySubtree(*inputs, inputs->entries[inputEntry].body);
    } else {
        // A Dict body made of the input keys of one entry and the "output" key of the other.
        entry.body = static_cast<std::uint32_t>(out.nodes.size());
        dump::ValueNode body;
        body.kind = dump::NodeKind::Dict;
        out.nodes.push_back(body);
        auto take = [&](const dump::DumpFile* from, std::uint32_t fromEntry, bool outputKey) {
            if (!from)
                return;
            const std::uint32_t fromBody = from->entries[fromEntry].body;
            if (from->nodes[fromBody].kind != dump::NodeKind::Dict) {
                if (!outputKey)
                    copySubtree(*from, fromBody);
                return;
            }
            for (std::uint32_t child : from->children(fromBody))
                if ((from->text(from->nodes[child].key) == "output") == outputKey)
                    copySubtree(*from, child);
        };
        take(inputs, inputEntry, false);
        take(outputs, outputEntry, true);
        out.nodes[entry.body].subtreeSize = static_cast<std::uint32_t>(out.nodes.size()) - entry.body;
    }
    out.entries.push_back(entry);
    return static_cast<std::uint32_t>(out.entries.size() - 1);
}

} // namespace msprobe::graph
