// SPDX-License-Identifier: Apache-2.0
#include "graph/merge/merged_json_writer.h"

#include "support/atomic_file.h"
#include "compare/items.h"
#include "support/python_text.h"
#include "support/error.h"

#include <map>

namespace msprobe::graph {

namespace fs = std::filesystem;

namespace {


class EntryWriter {
public:
    EntryWriter(support::PrettyJson& out, const dump::DumpFile& dump, std::string_view nodeId)
        : m_out(out)
        , m_dump(dump)
        , m_prefix(std::string(nodeId) + ".")
    {
    }

    // dropMd5: a direct item of input_args / input_kwargs / output (the reference removes the md5 there).
    void value(std::uint32_t node, bool dropMd5 = false)
    {
        const dump::ValueNode& v = m_dump.nodes[node];
        switch (v.kind) {
        case dump::NodeKind::Null: m_out.null(); return;
        case dump::NodeKind::List:
            m_out.beginArray();
            for (const std::uint32_t child : m_dump.children(node)) {
                m_out.element();
                value(child, dropMd5);
            }
            m_out.endArray();
            return;
        case dump::NodeKind::Dict:
            m_out.beginObject();
            for (const std::uint32_t child : m_dump.children(node)) {
                m_out.key(m_dump.text(m_dump.nodes[child].key));
                value(child, dropMd5);
            }
            m_out.endObject();
            return;
        case dump::NodeKind::Tensor: tensor(v.payload, dropMd5); return;
        case dump::NodeKind::Scalar: scalar(v.payload); return;
        case dump::NodeKind::Raw: scalarValue(v.payload); return;
        }
    }

    // The entry body, its top-level input_args / input_kwargs / output items without md5.
    void body(std::uint32_t node, const std::vector<std::string>* mergeInfo)
    {
        if (m_dump.nodes[node].kind != dump::NodeKind::Dict) {
            value(node);
            return;
        }
        m_out.beginObject();
        for (const std::uint32_t child : m_dump.children(node)) {
            const std::string_view key = m_dump.text(m_dump.nodes[child].key);
            m_out.key(key);
            const bool topLevelItems = key == "input_args" || key == "input_kwargs" || key == "output";
            if (topLevelItems && (m_dump.nodes[child].kind == dump::NodeKind::List || m_dump.nodes[child].kind == dump::NodeKind::Dict)) {
                const bool list = m_dump.nodes[child].kind == dump::NodeKind::List;
                list ? m_out.beginArray() : m_out.beginObject();
                for (const std::uint32_t item : m_dump.children(child)) {
                    if (list)
                        m_out.element();
                    else
                        m_out.key(m_dump.text(m_dump.nodes[item].key));
                    value(item, true);
                }
                list ? m_out.endArray() : m_out.endObject();
            } else {
                value(child);
            }
        }
        if (mergeInfo) {
            m_out.key("parallel_merge_info");
            m_out.beginArray();
            for (const std::string& line : *mergeInfo) {
                m_out.element();
                m_out.string(line);
            }
            m_out.endArray();
        }
        m_out.endObject();
    }

private:
    void stat(const dump::StatValue& s)
    {
        switch (s.kind) {
        case dump::StatKind::Int: m_out.number(s.i); return;
        case dump::StatKind::Float: m_out.number(s.f); return;
        case dump::StatKind::Bool: m_out.boolean(s.b); return;
        case dump::StatKind::Null:
        case dump::StatKind::Missing: m_out.null(); return;
        }
    }

    // A key the reader kept as text: class_type bare, everything else as Python repr().
    void extra(const dump::LeafExtra& e)
    {
        m_out.key(m_dump.text(e.key));
        if (m_dump.text(e.key) == "class_type")
            m_out.string(m_dump.text(e.text));
        else
            m_out.pythonLiteral(m_dump.text(e.text));
    }

    static bool isStatKey(std::string_view key)
    {
        return key == "Max" || key == "Min" || key == "Mean" || key == "Norm";
    }

    void tensorFields(std::uint32_t row, bool dropMd5, std::span<const dump::LeafExtra> extras)
    {
        const dump::TensorTable& t = m_dump.tensors;
        if (t.type[row] != support::kNoString) {
            m_out.key("type");
            m_out.string(m_dump.text(t.type[row]));
        }
        if (t.dtype[row] != support::kNoString) {
            m_out.key("dtype");
            m_out.string(m_dump.text(t.dtype[row]));
        }
        m_out.key("shape");
        m_out.beginArray();
        for (const std::int64_t dim : t.shape(row)) {
            m_out.element();
            m_out.number(dim);
        }
        m_out.endArray();
        const dump::StatValue stats[4] = { t.max[row], t.min[row], t.mean[row], t.norm[row] };
        for (int k = 0; k < 4; ++k) {
            if (stats[k].kind != dump::StatKind::Missing) {
                m_out.key(dump::kStatKeys[k]);
                stat(stats[k]);
                continue;
            }
            for (const dump::LeafExtra& e : extras) // a statistic written as a string ("inf")
                if (m_dump.text(e.key) == dump::kStatKeys[k])
                    extra(e);
        }
        if (t.requiresGrad[row] >= 0) {
            m_out.key("requires_grad");
            m_out.boolean(t.requiresGrad[row] == 1);
        }
        // A node renamed by the merge has no data_name (the reference rebuilds its entry from the items).
        if (t.dataName[row] != support::kNoString && m_dump.text(t.dataName[row]).starts_with(m_prefix)) {
            m_out.key("data_name");
            m_out.string(m_dump.text(t.dataName[row]));
        }
        if (t.md5[row] != support::kNoString && !dropMd5) {
            m_out.key("md5");
            m_out.string(m_dump.text(t.md5[row]));
        }
    }

    void tensor(std::uint32_t row, bool dropMd5)
    {
        const auto extras = m_dump.extrasOf(m_dump.tensors.extras[row]);
        bool p2p = false;
        for (const dump::LeafExtra& e : extras)
            p2p = p2p || (m_dump.text(e.key) == "class_type" && m_dump.text(e.text) == "torch.distributed.P2POp");
        m_out.beginObject();
        if (p2p) {
            for (const dump::LeafExtra& e : extras)
                if (!isStatKey(m_dump.text(e.key)))
                    extra(e);
            m_out.key("tensor");
            m_out.beginObject();
            tensorFields(row, dropMd5, extras);
            m_out.endObject();
        } else {
            tensorFields(row, dropMd5, extras);
            for (const dump::LeafExtra& e : extras)
                if (!isStatKey(m_dump.text(e.key)))
                    extra(e);
        }
        m_out.endObject();
    }

    void scalarValue(std::uint32_t row)
    {
        const dump::ScalarTable& s = m_dump.scalars;
        const dump::StatValue number = s.number[row];
        switch (s.valueKind[row]) {
        case dump::ScalarValueKind::Missing:
        case dump::ScalarValueKind::Null: m_out.null(); return;
        case dump::ScalarValueKind::Bool:
        case dump::ScalarValueKind::Int:
        case dump::ScalarValueKind::Float: stat(number); return;
        case dump::ScalarValueKind::String: m_out.string(m_dump.text(s.text[row])); return;
        case dump::ScalarValueKind::Composite: m_out.pythonLiteral(m_dump.text(s.text[row])); return;
        }
    }

    void scalar(std::uint32_t row)
    {
        const dump::ScalarTable& s = m_dump.scalars;
        m_out.beginObject();
        if (s.type[row] != support::kNoString) {
            m_out.key("type");
            m_out.string(m_dump.text(s.type[row]));
        }
        if (s.valueKind[row] != dump::ScalarValueKind::Missing) {
            m_out.key("value");
            scalarValue(row);
        }
        for (const dump::LeafExtra& e : m_dump.extrasOf(s.extras[row]))
            extra(e);
        m_out.endObject();
    }

    support::PrettyJson& m_out;
    const dump::DumpFile& m_dump;
    std::string m_prefix;
};

void writeFile(const fs::path& file, const std::string& text)
{
    support::AtomicFile out(file);
    out.write(text);
    out.commit();
}

} // namespace

std::string mergedConstructJson(const Graph& graph)
{
    support::PrettyJson out;
    out.beginObject();
    for (const std::uint32_t n : graph.postOrder()) {
        const GraphNode& node = graph.node(n);
        if (node.parent == kNoNode)
            continue;
        out.key(node.id);
        out.string(graph.node(node.parent).id);
    }
    out.endObject();
    return out.text();
}

std::string mergedDumpJson(const Graph& graph)
{
    support::PrettyJson out;
    out.beginObject();
    const dump::DumpFile* dump = graph.dump.get();
    out.key("task");
    out.string(dump ? dump->task : graph.task);
    out.key("level");
    out.string(dump ? dump->level : std::string());
    out.key("framework");
    out.string(graph.framework);
    out.key("dump_data_dir");
    if (graph.hasDumpDataDir)
        out.string(graph.dumpDataDir);
    else
        out.null();
    out.key("is_merged");
    out.boolean(true);
    out.key("data");
    out.beginObject();
    if (dump && graph.items) {
        for (const std::uint32_t n : graph.postOrder()) {
            const GraphNode& node = graph.node(n);
            if (n == Graph::root() || node.entry == kNoNode)
                continue;
            const compare::EntryInfo& info = graph.items->entries()[node.entry];
            if (info.itemCount == 0)
                continue;
            auto merge = graph.parallelMergeInfo.find(n);
            out.key(node.id);
            EntryWriter(out, *dump, node.id)
                .body(dump->entries[info.dumpEntry].body, merge == graph.parallelMergeInfo.end() ? nullptr : &merge->second);
        }
    }
    out.endObject();
    out.endObject();
    return out.text();
}

std::string mergedStackJson(const Graph& graph)
{
    std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> groups; // frames, ids
    std::map<std::vector<std::string>, std::size_t> groupOf;
    for (const std::uint32_t n : graph.postOrder()) {
        const GraphNode& node = graph.node(n);
        std::vector<std::string> frames = graph.stackFrames(node);
        if (frames.empty())
            continue;
        auto [it, added] = groupOf.emplace(frames, groups.size());
        if (added)
            groups.emplace_back(std::move(frames), std::vector<std::string> {});
        groups[it->second].second.emplace_back(node.id);
    }
    support::PrettyJson out;
    out.beginObject();
    for (std::size_t g = 0; g < groups.size(); ++g) {
        out.key(std::to_string(g));
        out.beginArray();
        for (const auto* list : { &groups[g].second, &groups[g].first }) {
            out.element();
            out.beginArray();
            for (const std::string& text : *list) {
                out.element();
                out.string(text);
            }
            out.endArray();
        }
        out.endArray();
    }
    out.endObject();
    return out.text();
}

fs::path writeMergedGraphJson(const Graph& graph, const fs::path& output, int step, int rank)
{
    const fs::path dir = output / ("step" + std::to_string(step)) / ("rank" + std::to_string(rank));
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        throw support::Error(dir.string(), {}, "cannot create the folder: " + ec.message());
    writeFile(dir / "construct.json", mergedConstructJson(graph));
    writeFile(dir / "dump.json", mergedDumpJson(graph));
    writeFile(dir / "stack.json", mergedStackJson(graph));
    return dir;
}

} // namespace msprobe::graph
