// SPDX-License-Identifier: Apache-2.0
// The reference's DiffAnalyzer (-da's diff_analyze_{ns}.json): the first diff node before, during or after
// communication, found by walking every rank's checks along the communication graph (spec 2.14).
#include "diagnose/first_diff.h"

#include "diagnose/comm_graph.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

namespace msprobe::diagnose {

namespace {



constexpr std::string_view kCommunicationKeywords[] = { "send", "recv", "broadcast", "all_reduce", "reduce", "all_gather",
    "gather", "isend", "irecv", "scatter", "reduce_scatter", "_reduce_scatter_base", "_all_gather_base",
    "all_to_all_single", "all_to_all", "all_gather_into_tensor", "reduce_scatter_tensor", "send_object_list",
    "recv_object_list" };

bool isCommunicationOp(std::string_view name)
{
    if (!(name.starts_with("Distributed.") || name.starts_with("MintDistributed.") || name.starts_with("Primitive.")))
        return false;
    for (auto keyword : kCommunicationKeywords)
        if (name.find(keyword) != std::string_view::npos)
            return true;
    return false;
}

bool isIgnoreOp(std::string_view name)
{
    return name.find("Torch.empty") != std::string_view::npos || name.find("Torch.fill") != std::string_view::npos
        || name.find("Tensor.__setitem__") != std::string_view::npos;
}

// The metrics the analyzer keeps of one row, already rendered as JSON values in column order.
struct RowMetrics {
    std::vector<std::pair<std::string, std::string>> fields; // title -> JSON text
};

struct DataNode {
    std::string opName;
    int rank = 0;
    bool isDiff = false;
    int layer = 0;
    int subLayer = 0;
    std::vector<std::pair<std::string, RowMetrics>> inputs, outputs; // by NPU name, last write wins
    bool hasStack = false;
    std::string stackJson; // JSON of the frames, or "null"
    // For communication analysis: the raw NPU max / md5 text and P2P peer of each input.
    struct InputFacts {
        std::string name;
        std::string value; // str() of NPU MD5 or NPU max
        bool hasMd5 = false;
        std::string peer; // "None" or the peer
    };
    std::vector<InputFacts> inputFacts;
};

void setMetrics(std::vector<std::pair<std::string, RowMetrics>>& list, const std::string& name, RowMetrics metrics)
{
    for (auto& [key, value] : list)
        if (key == name) {
            value = std::move(metrics);
            return;
        }
    list.emplace_back(name, std::move(metrics));
}

std::string jsonOf(const compare::Cell& cell)
{
    std::string out;
    appendJsonCell(out, cell, 2, 5);
    return out;
}

DataNode makeDataNode(const compare::CompareTable& table, const ApiCheck& check, int rank, int subLayer)
{
    DataNode node;
    node.opName = check.name;
    node.rank = rank;
    node.isDiff = !check.isSame;
    node.subLayer = subLayer;
    node.stackJson = "null";
    const bool md5 = table.mode == compare::CompareMode::Md5;
    compare::Cell cell;
    for (std::size_t r = check.rowBegin; r < check.rowEnd; ++r) {
        table.cell(r, compare::Column::NpuName, cell);
        const std::string name = cell.text;
        RowMetrics metrics;
        DataNode::InputFacts facts;
        facts.name = name;
        if (!md5) {
            for (compare::Column c : { compare::Column::NpuMax, compare::Column::NpuMin, compare::Column::NpuMean, compare::Column::NpuNorm }) {
                table.cell(r, c, cell);
                metrics.fields.emplace_back(std::string(compare::columnTitle(c)), jsonOf(cell));
                if (c == compare::Column::NpuMax)
                    facts.value = cell.kind == compare::Cell::Kind::Str ? cell.text : jsonOf(cell);
            }
        } else {
            table.cell(r, compare::Column::NpuMd5, cell);
            metrics.fields.emplace_back("NPU MD5", jsonOf(cell));
            facts.value = cell.text;
            facts.hasMd5 = true;
        }
        table.cell(r, compare::Column::NpuP2PPeer, cell);
        metrics.fields.emplace_back("NPU P2POp peer", jsonOf(cell));
        facts.peer = cell.kind == compare::Cell::Kind::Str ? cell.text : jsonOf(cell);
        if (table.stackMode && !node.hasStack) {
            table.cell(r, compare::Column::Stack, cell);
            if (!(cell.kind == compare::Cell::Kind::Str && cell.text == compare::kNA)) {
                node.hasStack = true;
                node.stackJson.clear();
                appendJsonCell(node.stackJson, cell, 2, 3);
            }
        } else if (!table.stackMode && !node.hasStack) {
            node.hasStack = false; // the column is absent: stack stays None
        }
        const compare::ItemState state = table.npuItem(table.rows[r]).state;
        if (state == compare::ItemState::Input) {
            setMetrics(node.inputs, name, std::move(metrics));
            node.inputFacts.push_back(std::move(facts));
        } else if (state == compare::ItemState::Output) {
            setMetrics(node.outputs, name, std::move(metrics));
        }
    }
    return node;
}

std::string nodeInfoJson(const DataNode& node)
{
    // Indent 2; a node sits at depth 2 inside {"rank_N": [ ... ]}.
    std::string out = "{";
    appendJsonNewline(out, 2, 3);
    out += "\"op_name\": ";
    support::appendJsonString(out, node.opName);
    out += ',';
    appendJsonNewline(out, 2, 3);
    out += "\"data_info\": {";
    auto writeSide = [&](const char* title, const std::vector<std::pair<std::string, RowMetrics>>& side, bool last) {
        appendJsonNewline(out, 2, 4);
        out += '"';
        out += title;
        out += "\": ";
        if (side.empty()) {
            out += "{}";
        } else {
            out += '{';
            for (std::size_t i = 0; i < side.size(); ++i) {
                appendJsonNewline(out, 2, 5);
                support::appendJsonString(out, side[i].first);
                out += ": {";
                const auto& fields = side[i].second.fields;
                for (std::size_t f = 0; f < fields.size(); ++f) {
                    appendJsonNewline(out, 2, 6);
                    support::appendJsonString(out, fields[f].first);
                    out += ": ";
                    out += fields[f].second;
                    if (f + 1 < fields.size())
                        out += ',';
                }
                appendJsonNewline(out, 2, 5);
                out += '}';
                if (i + 1 < side.size())
                    out += ',';
            }
            appendJsonNewline(out, 2, 4);
            out += '}';
        }
        if (!last)
            out += ',';
    };
    writeSide("input", node.inputs, false);
    writeSide("output", node.outputs, true);
    appendJsonNewline(out, 2, 3);
    out += "},";
    appendJsonNewline(out, 2, 3);
    out += "\"stack_info\": ";
    out += node.stackJson;
    appendJsonNewline(out, 2, 2);
    out += '}';
    return out;
}

// ---- communication analysis (spec 2.14 step b) ----

using DataComm = CommNode<DataNode>;

const std::map<std::string_view, std::string_view> kP2PMapping = { { "send", "recv" }, { "recv", "send" },
    { "isend", "irecv" }, { "irecv", "isend" }, { "send_object_list", "recv_object_list" },
    { "recv_object_list", "send_object_list" } };
const std::set<std::string_view> kDirectedApi = { "send", "recv", "isend", "irecv", "broadcast", "scatter", "gather",
    "send_object_list", "recv_object_list" };

CommKind resolveType(const DataNode& data, int rank)
{
    for (auto [prefix, type] : { std::pair<std::string_view, CommKind> { "src", CommKind::Src }, { "dst", CommKind::Dst } }) {
        for (const auto& in : data.inputFacts) {
            if (in.name.find(prefix) != std::string::npos || in.name.find(std::string(prefix) + "_GROUP") != std::string::npos) {
                // The reference compares the cell (a string) with the int rank, which never holds.
                const bool equal = false;
                (void)rank;
                return equal ? type : (type == CommKind::Src ? CommKind::Dst : CommKind::Src);
            }
        }
    }
    return CommKind::Link;
}

struct ConnInfo {
    std::vector<int> ranks;
    std::string api;
    CommKind kind;
};

bool parseInt(std::string_view text, long long& out)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    auto r = std::from_chars(text.data() + (text.starts_with('+') ? 1 : 0), text.data() + text.size(), out);
    return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

ConnInfo findConnected(const DataComm& node)
{
    ConnInfo info;
    auto mapped = kP2PMapping.find(node.api);
    info.api = "Distributed." + std::string(mapped == kP2PMapping.end() ? std::string_view(node.api) : mapped->second);
    info.kind = node.kind == CommKind::Src ? CommKind::Dst : node.kind == CommKind::Dst ? CommKind::Src : CommKind::Link;
    std::set<int> ranks;
    for (const auto& in : node.data.inputFacts) {
        const bool peerKey = in.name.find("dst") != std::string::npos || in.name.find("src") != std::string::npos;
        if (peerKey) {
            long long value = 0;
            if (parseInt(in.value, value) && value)
                ranks.insert(static_cast<int>(value));
        } else if (in.name.size() >= 6 && in.name.ends_with(".group")) {
            if (in.value.size() >= 2 && in.value.front() == '[' && in.value.back() == ']') {
                std::string_view body(in.value);
                body = body.substr(1, body.size() - 2);
                std::size_t start = 0;
                while (start <= body.size()) {
                    const std::size_t comma = body.find(',', start);
                    long long value = 0;
                    if (parseInt(body.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start), value))
                        ranks.insert(static_cast<int>(value));
                    if (comma == std::string_view::npos)
                        break;
                    start = comma + 1;
                }
            }
        } else if (in.peer != "None") {
            long long value = 0;
            if (parseInt(in.peer, value))
                ranks.insert(static_cast<int>(value));
        }
    }
    info.ranks.assign(ranks.begin(), ranks.end());
    return info;
}

class Analyzer {
public:
    explicit Analyzer(const std::vector<RankChecks>& ranks)
        : m_ranks(ranks)
    {
    }

    std::string run()
    {
        preAnalyze();
        if (m_diffNodes.empty())
            analyze();
        if (m_diffNodes.empty())
            for (auto& [rank, nodes] : m_afterCommDiffs)
                if (!nodes.empty())
                    m_diffNodes.push_back(nodes.front());
        if (m_diffNodes.empty())
            return {};
        std::vector<std::pair<int, std::vector<const DataNode*>>> byRank;
        for (const DataNode& node : m_diffNodes) {
            auto it = std::find_if(byRank.begin(), byRank.end(), [&](const auto& p) { return p.first == node.rank; });
            if (it == byRank.end()) {
                byRank.push_back({ node.rank, {} });
                it = byRank.end() - 1;
            }
            it->second.push_back(&node);
        }
        std::string out = "{";
        for (std::size_t i = 0; i < byRank.size(); ++i) {
            appendJsonNewline(out, 2, 1);
            out += "\"rank_" + std::to_string(byRank[i].first) + "\": [";
            for (std::size_t k = 0; k < byRank[i].second.size(); ++k) {
                appendJsonNewline(out, 2, 2);
                out += nodeInfoJson(*byRank[i].second[k]);
                if (k + 1 < byRank[i].second.size())
                    out += ',';
            }
            appendJsonNewline(out, 2, 1);
            out += ']';
            if (i + 1 < byRank.size())
                out += ',';
        }
        out += "\n}";
        return out;
    }

private:
    void preAnalyze()
    {
        for (const RankChecks& rank : m_ranks) {
            for (const ApiCheck& check : rank.checks) {
                if (isIgnoreOp(check.name))
                    continue;
                if (isCommunicationOp(check.name)) {
                    m_firstComm[rank.rank] = check.name;
                    break;
                }
                if (!check.isSame) {
                    m_diffNodes.push_back(makeDataNode(*rank.table, check, rank.rank, 0));
                    break;
                }
            }
        }
    }

    void analyze()
    {
        for (const RankChecks& rank : m_ranks)
            m_comm.ranks[rank.rank] = commNodes(rank);
        connect();
        prune();
        searchFirstDiff();
    }

    std::vector<std::unique_ptr<DataComm>> commNodes(const RankChecks& rank)
    {
        std::vector<std::unique_ptr<DataComm>> nodes;
        auto first = m_firstComm.find(rank.rank);
        if (first == m_firstComm.end())
            return nodes;
        bool started = false;
        std::vector<DataNode> computeOps;
        int subLayer = 0;
        for (const ApiCheck& check : rank.checks) {
            if (!started && check.name != first->second)
                continue;
            started = true;
            if (isCommunicationOp(check.name)) {
                auto node = std::make_unique<DataComm>();
                node->id = std::to_string(rank.rank) + "." + check.name;
                node->data = makeDataNode(*rank.table, check, rank.rank, subLayer);
                const auto parts = support::pythonSplit(check.name, '.');
                node->api = parts.size() > 1 ? std::string(parts[1]) : std::string();
                node->callCount = parts.size() > 2 ? std::string(parts[2]) : std::string();
                node->computeOps = std::move(computeOps);
                node->kind = resolveType(node->data, rank.rank);
                computeOps.clear();
                if (!nodes.empty())
                    nodes.back()->addNext(node.get());
                nodes.push_back(std::move(node));
                subLayer = 0;
            } else if (!isIgnoreOp(check.name)) {
                if (!check.isSame)
                    computeOps.push_back(makeDataNode(*rank.table, check, rank.rank, subLayer));
                ++subLayer;
            }
        }
        if (!computeOps.empty())
            m_afterCommDiffs.emplace_back(rank.rank, computeOps);
        return nodes;
    }

    void connect()
    {
        std::vector<int> rankOrder;
        for (const auto& [rank, _] : m_comm.ranks)
            rankOrder.push_back(rank);
        // What each op says of its peers, parsed once (the search asks it of every candidate).
        std::unordered_map<const DataComm*, ConnInfo> infos;
        for (const auto& [rank, nodes] : m_comm.ranks)
            for (const auto& node : nodes)
                if (node)
                    infos.emplace(node.get(), findConnected(*node));
        FirstFitFinder<DataComm> finder;
        for (std::size_t ri = 0; ri + 1 < rankOrder.size(); ++ri) {
            const int rank = rankOrder[ri];
            finder.nextRank();
            DataComm* last = nullptr;
            for (DataComm* cur : m_comm.live(rank)) {
                if (last && last->layer >= cur->layer)
                    cur->layer = last->layer + 1;
                const ConnInfo& info = infos.at(cur);
                last = cur;
                for (int other : info.ranks.empty() ? rankOrder : info.ranks) {
                    if (other <= rank || !m_comm.ranks.count(other)) // ranks up to this one were searched already
                        continue;
                    // The reference matches the peer's op name by prefix ("Distributed.reduce" also takes
                    // reduce_scatter ops).
                    const std::string prefix = std::to_string(other) + "." + info.api;
                    auto& candidates = m_comm.candidates(other, prefix + '/' + static_cast<char>('0' + static_cast<int>(info.kind)),
                        [&](const DataComm& search) { return search.id.starts_with(prefix) && search.kind == info.kind; });
                    DataComm* search = finder.take(candidates, [&](const DataComm& candidate) {
                        const ConnInfo& back = infos.at(&candidate);
                        const bool undirected = back.ranks.empty() && !kDirectedApi.count(candidate.api);
                        return undirected || std::binary_search(back.ranks.begin(), back.ranks.end(), cur->data.rank);
                    });
                    if (!search)
                        continue;
                    if (search->kind == CommKind::Dst) {
                        cur->addDst(search);
                    } else if (search->kind == CommKind::Src) {
                        search->layer = cur->layer;
                        search->addDst(cur);
                    } else {
                        cur->addLink(search);
                    }
                }
            }
        }
    }

    void prune()
    {
        m_comm.prune([](const DataComm& n) { return n.data.isDiff || !n.computeOps.empty(); });
    }

    void searchFirstDiff()
    {
        auto queues = m_comm.layerQueues();
        std::set<std::string> seenIds;
        while (CommGraph<DataNode>::anyLeft(queues)) {
            const auto groups = m_comm.nextGroups(queues, seenIds, GroupStart::FirstOrUngrouped);
            for (const auto& group : groups) {
                seenIds.insert(group.begin(), group.end());
                for (const auto& id : group) {
                    DataComm* node = m_comm.byId(id);
                    if (!node)
                        continue;
                    for (DataNode op : node->computeOps) {
                        op.layer = node->layer;
                        m_diffNodes.push_back(std::move(op));
                    }
                }
                for (const auto& id : group) {
                    DataComm* node = m_comm.byId(id);
                    if (node && node->data.isDiff) {
                        DataNode data = node->data;
                        data.layer = node->layer;
                        m_diffNodes.push_back(std::move(data));
                    }
                }
            }
            if (!m_diffNodes.empty()) {
                std::pair<int, int> best { INT32_MAX, INT32_MAX };
                for (const auto& n : m_diffNodes)
                    best = std::min(best, std::pair<int, int> { n.layer, n.subLayer });
                std::vector<DataNode> kept;
                for (auto& n : m_diffNodes)
                    if (std::pair<int, int> { n.layer, n.subLayer } == best)
                        kept.push_back(std::move(n));
                m_diffNodes = std::move(kept);
                return;
            }
        }
    }

    const std::vector<RankChecks>& m_ranks;
    std::vector<DataNode> m_diffNodes;
    std::map<int, std::string> m_firstComm;
    CommGraph<DataNode> m_comm;
    std::vector<std::pair<int, std::vector<DataNode>>> m_afterCommDiffs;
};

} // namespace

std::string analyzeFirstDiff(const std::vector<RankChecks>& ranks)
{
    Analyzer analyzer(ranks);
    return analyzer.run();
}

} // namespace msprobe::diagnose
