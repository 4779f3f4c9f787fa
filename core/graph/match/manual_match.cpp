// SPDX-License-Identifier: Apache-2.0
#include "graph/match/manual_match.h"

#include "graph/match/cross_runtime_match.h"
#include "graph/match/graph_compare.h"
#include "graph/match/graph_match.h"
#include "graph/graph_run.h"
#include "support/sqlite_util.h"
#include "graph/visdb/stored_items.h"
#include "graph/visdb/vis_db_writer.h"
#include "support/error.h"

#include <sqlite3.h>

#include <algorithm>
#include <unordered_map>

namespace msprobe::graph {

namespace {

bool samePrecision(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

std::vector<std::string> pathOf(const VisGraph& graph, std::uint32_t node)
{
    std::vector<std::string> path;
    for (std::uint32_t at = node; at != kNoVisNode && path.size() <= graph.nodes.size(); at = graph.nodes[at].parent)
        path.push_back(graph.nodes[at].name);
    std::reverse(path.begin(), path.end());
    return path;
}

std::string nodeTypeName(int type)
{
    switch (type) {
    case 0: return "module";
    case 1: return "API";
    case 8: return "multi collection";
    case 9: return "API collection";
    default: return "type " + std::to_string(type);
    }
}

// BEGIN IMMEDIATE ... COMMIT, rolled back unless committed.
class WriteTransaction {
public:
    explicit WriteTransaction(support::SqliteDb& db)
        : m_db(db)
    {
        m_db.exec("BEGIN IMMEDIATE");
    }
    ~WriteTransaction()
    {
        if (!m_done)
            sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    }
    void commit()
    {
        m_db.exec("COMMIT");
        m_done = true;
    }

private:
    support::SqliteDb& m_db;
    bool m_done = false;
};

} // namespace

bool MatchRow::operator==(const MatchRow& other) const
{
    return dataSource == other.dataSource && name == other.name && link == other.link
        && samePrecision(precision, other.precision) && modified == other.modified && inputData == other.inputData
        && outputData == other.outputData;
}

// The pairing while an operation is planned: partners changed so far over the loaded links, in the order the
// nodes were touched. Follows graph_match's matchPair / unmatchNode so a replay of the mapping file agrees.
class ManualMatcher::Draft {
public:
    Draft(const VisGraph& npu, const VisGraph& bench)
        : m_npu(npu)
        , m_bench(bench)
    {
    }

    std::uint32_t npuPartner(std::uint32_t n) const { return partner(m_npuPartner, m_npu, m_bench, n); }
    std::uint32_t benchPartner(std::uint32_t b) const { return partner(m_benchPartner, m_bench, m_npu, b); }

    void unmatchNode(std::uint32_t n)
    {
        const std::uint32_t b = npuPartner(n);
        if (b != kNoVisNode && benchPartner(b) == n)
            setBench(b, kNoVisNode);
        setNpu(n, kNoVisNode);
    }

    std::string matchPair(std::uint32_t n, std::uint32_t b)
    {
        if (m_npu.nodes[n].type != m_bench.nodes[b].type)
            return "the node types differ: " + m_npu.nodes[n].name + " is a " + nodeTypeName(m_npu.nodes[n].type) + ", "
                + m_bench.nodes[b].name + " a " + nodeTypeName(m_bench.nodes[b].type);
        if (npuPartner(n) != kNoVisNode)
            unmatchNode(n);
        const std::uint32_t previous = benchPartner(b);
        if (previous != kNoVisNode && npuPartner(previous) == b)
            unmatchNode(previous);
        setNpu(n, b);
        setBench(b, n);
        return {};
    }

    // The still unmatched children of a pair, paired by descendant key in order; recurses into new pairs.
    void matchDescendants(std::uint32_t n, std::uint32_t b)
    {
        auto freeChildren = [this](const VisGraph& graph, std::uint32_t parent, bool npu) {
            std::vector<KeyedChild> out;
            for (auto child : graph.nodes[parent].children)
                if ((npu ? npuPartner(child) : benchPartner(child)) == kNoVisNode)
                    out.emplace_back(child, descendantKey(graph.nodes[child].name, graph.nodes[child].type));
            return out;
        };
        for (const auto& [child, partner] : pairByDescendantKey(freeChildren(m_npu, n, true), freeChildren(m_bench, b, false)))
            if (matchPair(child, partner).empty())
                matchDescendants(child, partner);
    }

    void unmatchDescendants(std::uint32_t n)
    {
        for (auto child : m_npu.nodes[n].children) {
            if (npuPartner(child) != kNoVisNode)
                unmatchNode(child);
            unmatchDescendants(child);
        }
    }

    const std::vector<std::uint32_t>& touchedNpu() const { return m_touchedNpu; }
    const std::vector<std::uint32_t>& touchedBench() const { return m_touchedBench; }

private:
    using Overrides = std::unordered_map<std::uint32_t, std::uint32_t>;

    static std::uint32_t partner(const Overrides& overrides, const VisGraph& graph, const VisGraph& other, std::uint32_t node)
    {
        if (auto it = overrides.find(node); it != overrides.end())
            return it->second;
        const auto& link = graph.nodes[node].link;
        return link.empty() ? kNoVisNode : other.find(link.back());
    }
    static void set(Overrides& overrides, std::vector<std::uint32_t>& touched, std::uint32_t node, std::uint32_t partner)
    {
        if (overrides.insert_or_assign(node, partner).second)
            touched.push_back(node);
    }
    void setNpu(std::uint32_t n, std::uint32_t b) { set(m_npuPartner, m_touchedNpu, n, b); }
    void setBench(std::uint32_t b, std::uint32_t n) { set(m_benchPartner, m_touchedBench, b, n); }

    const VisGraph& m_npu;
    const VisGraph& m_bench;
    Overrides m_npuPartner, m_benchPartner;
    std::vector<std::uint32_t> m_touchedNpu, m_touchedBench;
};

ManualMatcher::ManualMatcher(std::filesystem::path database, int step, int rank)
    : m_database(std::move(database))
    , m_step(step)
    , m_rank(rank)
{
    const VisDb db(m_database);
    m_config = db.config();
    if (!m_config.isCompare())
        throw support::Error(m_database.string(), {}, "nodes can be matched by hand only in a compare vis.db (this one is a build graph)");
    m_mode = compareModeOfTask(m_config.task, m_database.string());
    m_npu = db.load(step, rank, "NPU", true);
    m_bench = db.load(step, rank, "Bench", true);
    if (m_npu.nodes.empty() || m_bench.nodes.empty())
        throw support::Error(m_database.string(), "step " + std::to_string(step) + ", rank " + std::to_string(rank),
            "no NPU and bench graph for this step and rank");
}

ManualMatcher::~ManualMatcher() = default;

MatchRow ManualMatcher::row(const std::string& dataSource, const std::string& name) const
{
    const VisGraph& graph = dataSource == "NPU" ? m_npu : m_bench;
    const std::uint32_t index = graph.find(name);
    if (index == kNoVisNode)
        throw support::Error(m_database.string(), dataSource + " node '" + name + "'", "no such node in step " + std::to_string(m_step)
                + ", rank " + std::to_string(m_rank));
    const VisNode& node = graph.nodes[index];
    return { dataSource, node.name, node.link, node.precision, node.modified, node.inputData, node.outputData };
}

MatchRow ManualMatcher::npuRow(std::uint32_t n, std::uint32_t partner) const
{
    const VisNode& node = m_npu.nodes[n];
    MatchRow out { "NPU", node.name, {}, NAN, true, {}, {} };
    const std::string where = m_database.string() + ", NPU node " + node.name;
    const StoredItems items(node.inputData, node.outputData, where);
    if (partner == kNoVisNode) {
        out.inputData = items.render(false, m_mode, nullptr);
        out.outputData = items.render(true, m_mode, nullptr);
        return out;
    }
    const VisNode& other = m_bench.nodes[partner];
    out.link = pathOf(m_bench, partner);
    const StoredItems benchItems(other.inputData, other.outputData, m_database.string() + ", bench node " + other.name);
    std::vector<CompareItem> npuCompare = items.compareItems(), benchCompare = benchItems.compareItems();
    compare::NodePairKeys crossRuntime; // an Aten.* node matched to a Python API node: items pair by aten argument names
    keyCrossRuntimeNodePair(node.name, npuCompare, other.name, benchCompare, crossRuntime);
    const ItemsCompare rows = compareItems(npuCompare, benchCompare, m_mode,
        [&](const CompareItem& a, const CompareItem* b) { return compareTensorFiles(node.dumpDataDir, a, other.dumpDataDir, b); });
    if (rows.compared)
        out.precision = precisionIndexOf(node.name, rows.level, m_mode);
    out.inputData = items.render(false, m_mode, rows.compared ? &rows.cells : nullptr);
    out.outputData = items.render(true, m_mode, rows.compared ? &rows.cells : nullptr);
    return out;
}

MatchEdit ManualMatcher::finish(const Draft& draft) const
{
    MatchEdit edit;
    std::unordered_map<std::uint32_t, double> newPrecision;
    for (auto n : draft.touchedNpu()) {
        edit.before.push_back(row("NPU", m_npu.nodes[n].name));
        edit.after.push_back(npuRow(n, draft.npuPartner(n)));
        newPrecision[n] = edit.after.back().precision;
        edit.npuNodes.push_back(m_npu.nodes[n].name);
    }
    // API collections under the root take the worst precision of their APIs, as after a graph compare.
    const std::uint32_t root = m_npu.root();
    if (root != kNoVisNode)
        for (auto collection : m_npu.nodes[root].children) {
            const VisNode& node = m_npu.nodes[collection];
            if (node.type != 9)
                continue;
            double worst = 0;
            bool changed = false;
            for (auto api : node.children) {
                auto it = newPrecision.find(api);
                changed |= it != newPrecision.end();
                const double p = it != newPrecision.end() ? it->second : m_npu.nodes[api].precision;
                if (!std::isnan(p))
                    worst = std::max(worst, p);
            }
            if (!changed && !newPrecision.contains(collection))
                continue;
            auto at = std::find(edit.npuNodes.begin(), edit.npuNodes.end(), node.name);
            if (at != edit.npuNodes.end()) {
                edit.after[static_cast<std::size_t>(at - edit.npuNodes.begin())].precision = worst;
                continue;
            }
            if (samePrecision(worst, node.precision))
                continue;
            MatchRow updated = row("NPU", node.name);
            edit.before.push_back(updated);
            updated.precision = worst;
            edit.after.push_back(std::move(updated));
            edit.npuNodes.push_back(node.name);
        }
    for (auto b : draft.touchedBench()) {
        MatchRow before = row("Bench", m_bench.nodes[b].name);
        MatchRow after = before;
        const std::uint32_t partner = draft.benchPartner(b);
        after.link = partner == kNoVisNode ? std::vector<std::string> {} : pathOf(m_npu, partner);
        after.modified = true;
        edit.before.push_back(std::move(before));
        edit.after.push_back(std::move(after));
        edit.benchNodes.push_back(m_bench.nodes[b].name);
    }
    return edit;
}

MatchEdit ManualMatcher::planMatch(const std::string& npuNode, const std::string& benchNode, bool descendants) const
{
    const std::uint32_t n = m_npu.find(npuNode), b = m_bench.find(benchNode);
    if (n == kNoVisNode)
        throw support::Error(m_database.string(), "NPU node '" + npuNode + "'", "no such node");
    if (b == kNoVisNode)
        throw support::Error(m_database.string(), "bench node '" + benchNode + "'", "no such node");
    Draft draft(m_npu, m_bench);
    if (auto error = draft.matchPair(n, b); !error.empty())
        throw support::Error(m_database.string(), npuNode + " -> " + benchNode, error);
    if (descendants)
        draft.matchDescendants(n, b);
    const std::uint32_t on = m_npu.find(oppositeDirectionId(npuNode)), ob = m_bench.find(oppositeDirectionId(benchNode));
    if (on != kNoVisNode && ob != kNoVisNode && on != n && ob != b && draft.matchPair(on, ob).empty() && descendants)
        draft.matchDescendants(on, ob);
    return finish(draft);
}

MatchEdit ManualMatcher::planUnmatch(const std::string& npuNode, bool descendants) const
{
    const std::uint32_t n = m_npu.find(npuNode);
    if (n == kNoVisNode)
        throw support::Error(m_database.string(), "NPU node '" + npuNode + "'", "no such node");
    Draft draft(m_npu, m_bench);
    if (draft.npuPartner(n) == kNoVisNode)
        throw support::Error(m_database.string(), "NPU node '" + npuNode + "'", "the node is not matched");
    draft.unmatchNode(n);
    if (descendants)
        draft.unmatchDescendants(n);
    return finish(draft);
}

MappingFileReport ManualMatcher::planMappingFile(const std::filesystem::path& file) const
{
    MappingFileReport report;
    const std::vector<ManualPair> pairs = readMappingFile(file);
    Draft draft(m_npu, m_bench);
    for (const auto& pair : pairs) {
        ++report.total;
        const std::uint32_t n = m_npu.find(pair.npu);
        const std::uint32_t b = pair.bench ? m_bench.find(*pair.bench) : kNoVisNode;
        std::string problem;
        if (n == kNoVisNode)
            problem = "no NPU node '" + pair.npu + "'";
        else if (pair.bench && b == kNoVisNode)
            problem = "no bench node '" + *pair.bench + "'";
        else if (!pair.bench) {
            draft.unmatchNode(n);
            if (pair.descendants)
                draft.unmatchDescendants(n);
        } else if (problem = draft.matchPair(n, b); problem.empty() && pair.descendants)
            draft.matchDescendants(n, b);
        if (problem.empty()) {
            ++report.success;
            continue;
        }
        ++report.failed;
        report.problems.push_back(pair.npu + ": " + problem);
    }
    report.edit = finish(draft);
    return report;
}

void ManualMatcher::apply(const std::vector<MatchRow>& rows)
{
    {
        support::SqliteDb db(m_database, false);
        WriteTransaction transaction(db);
        support::SqliteStatement update(db, "UPDATE tb_nodes SET matched_node_link = ?, input_data = ?, output_data = ?, precision_index = ?, "
                                   "modified = ? WHERE step = ? AND rank = ? AND data_source = ? AND node_name = ?");
        for (const auto& row : rows) {
            std::vector<std::string_view> ids(row.link.begin(), row.link.end());
            std::string link;
            appendJsonIdList(link, ids);
            update.bindText(1, link);
            update.bindText(2, row.inputData);
            update.bindText(3, row.outputData);
            if (std::isnan(row.precision))
                update.bindNull(4);
            else
                update.bindDouble(4, row.precision);
            update.bindInt(5, row.modified ? 1 : 0);
            update.bindInt(6, m_step);
            update.bindInt(7, m_rank);
            update.bindText(8, row.dataSource);
            update.bindText(9, row.name);
            update.run();
            if (sqlite3_changes(db.handle()) != 1)
                throw support::Error(m_database.string(), row.dataSource + " node '" + row.name + "'", "the row to update is missing");
        }
        transaction.commit();
    }
    for (const auto& row : rows) {
        VisGraph& graph = row.dataSource == "NPU" ? m_npu : m_bench;
        const std::uint32_t index = graph.find(row.name);
        if (index == kNoVisNode)
            continue;
        VisNode& node = graph.nodes[index];
        node.link = row.link;
        node.precision = row.precision;
        node.modified = row.modified;
        node.inputData = row.inputData;
        node.outputData = row.outputData;
    }
    writeMapping(mappingFile());
}

MatchEdit ManualMatcher::match(const std::string& npuNode, const std::string& benchNode, bool descendants)
{
    MatchEdit edit = planMatch(npuNode, benchNode, descendants);
    apply(edit.after);
    return edit;
}

MatchEdit ManualMatcher::unmatch(const std::string& npuNode, bool descendants)
{
    MatchEdit edit = planUnmatch(npuNode, descendants);
    apply(edit.after);
    return edit;
}

std::filesystem::path ManualMatcher::mappingFile() const { return visConfigPath(m_database, m_step, m_rank); }

void ManualMatcher::writeMapping(const std::filesystem::path& file) const { writeMappingFile(file, manualPairsOf(m_npu)); }

} // namespace msprobe::graph
