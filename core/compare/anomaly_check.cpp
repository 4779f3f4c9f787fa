// SPDX-License-Identifier: Apache-2.0
#include "compare/anomaly_check.h"

#include "compare/comm_graph.h"

#include "compare/json_reformat.h"
#include "compare/py_value.h"
#include "dump/construct_stack.h"
#include "dump/dump_json_reader.h"
#include "support/error.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace fs = std::filesystem;

namespace msprobe {

namespace {

constexpr std::string_view kKeywords[] = { "send", "recv", "broadcast", "all_reduce", "reduce", "all_gather", "gather", "isend",
    "irecv", "scatter", "reduce_scatter", "_reduce_scatter_base", "_all_gather_base", "all_to_all_single", "all_to_all",
    "all_gather_into_tensor", "reduce_scatter_tensor", "send_object_list", "recv_object_list" };

bool isCommunication(std::string_view name)
{
    if (!name.starts_with("Distributed."))
        return false;
    return std::any_of(std::begin(kKeywords), std::end(kKeywords), [&](std::string_view k) { return name.find(k) != std::string_view::npos; });
}

bool isIgnored(std::string_view name)
{
    return name.find("Torch.empty") != std::string_view::npos || name.find("Torch.fill") != std::string_view::npos;
}

struct Rank {
    int rank = 0;
    fs::path dir;
    DumpFile dump;
    ConstructInfo construct;
    StackInfo stack;
};

std::int64_t field(const DumpFile& dump, std::size_t entry, std::string_view key)
{
    const std::uint32_t body = dump.entries[entry].body;
    return dump.nodes[body].kind == NodeKind::Dict ? dump.childByKey(body, key) : -1;
}

// check_item_anomaly: a top-level element (list) or value (dict) whose Max or Min is NaN/inf.
bool itemsAnomalous(const DumpFile& dump, std::int64_t node)
{
    if (node < 0)
        return false;
    const auto n = static_cast<std::uint32_t>(node);
    if (dump.nodes[n].kind != NodeKind::List && dump.nodes[n].kind != NodeKind::Dict)
        return false;
    for (std::uint32_t child : dump.children(n)) {
        const ValueNode& v = dump.nodes[child];
        if (v.kind == NodeKind::Tensor && (dump.tensors.max[v.payload].isNonFinite() || dump.tensors.min[v.payload].isNonFinite()))
            return true;
    }
    return false;
}

struct Op {
    const Rank* rank = nullptr;
    std::size_t entry = 0;
    int layer = 0, subLayer = 0;
    std::string_view name() const { return rank->dump.entryName(entry); }
    bool inputAnomalous() const
    {
        const DumpFile& d = rank->dump;
        return itemsAnomalous(d, field(d, entry, "input")) || itemsAnomalous(d, field(d, entry, "input_args"))
            || itemsAnomalous(d, field(d, entry, "input_kwargs"));
    }
    bool commInputAnomalous() const
    {
        const DumpFile& d = rank->dump;
        return itemsAnomalous(d, field(d, entry, "input_args")) || itemsAnomalous(d, field(d, entry, "input_kwargs"));
    }
    bool outputAnomalous() const { return itemsAnomalous(rank->dump, field(rank->dump, entry, "output")); }
    bool isAnomaly() const { return !isIgnored(name()) && !inputAnomalous() && outputAnomalous(); }
};


// The int value of a scalar leaf, if it is one.
std::optional<long long> intValue(const DumpFile& dump, std::int64_t node)
{
    if (node < 0)
        return std::nullopt;
    const ValueNode& v = dump.nodes[static_cast<std::size_t>(node)];
    if (v.kind != NodeKind::Scalar || dump.scalars.valueKind[v.payload] != ScalarValueKind::Int)
        return std::nullopt;
    return dump.scalars.number[v.payload].i;
}

bool truthyDict(const DumpFile& dump, std::int64_t node)
{
    return node >= 0 && dump.nodes[static_cast<std::size_t>(node)].kind != NodeKind::Null;
}

using Comm = CommNode<Op>;

const std::map<std::string_view, std::string_view> kP2P = { { "send", "recv" }, { "recv", "send" }, { "isend", "irecv" },
    { "irecv", "isend" }, { "send_object_list", "recv_object_list" }, { "recv_object_list", "send_object_list" } };
const std::map<std::string_view, CommKind> kDirected = { { "send", CommKind::Dst }, { "recv", CommKind::Src }, { "isend", CommKind::Dst },
    { "irecv", CommKind::Src }, { "broadcast", CommKind::Src }, { "scatter", CommKind::Src }, { "gather", CommKind::Dst },
    { "send_object_list", CommKind::Dst }, { "recv_object_list", CommKind::Src } };

CommKind opposite(CommKind k) { return k == CommKind::Src ? CommKind::Dst : k == CommKind::Dst ? CommKind::Src : CommKind::Link; }

CommKind resolveKind(const Comm& c)
{
    const DumpFile& d = c.data.rank->dump;
    const std::int64_t kwargs = field(d, c.data.entry, "input_kwargs");
    auto kwarg = [&](std::string_view key) { return kwargs >= 0 ? d.childByKey(static_cast<std::uint32_t>(kwargs), key) : -1; };
    for (std::string_view key : { "src", "src_group" })
        if (truthyDict(d, kwarg(key)))
            return intValue(d, kwarg(key)) == c.data.rank->rank ? CommKind::Src : CommKind::Dst;
    for (std::string_view key : { "dst", "dst_group" })
        if (truthyDict(d, kwarg(key)))
            return intValue(d, kwarg(key)) == c.data.rank->rank ? CommKind::Dst : CommKind::Src;
    auto directed = kDirected.find(c.api);
    if (directed != kDirected.end()) {
        const std::int64_t args = field(d, c.data.entry, "input_args");
        if (args >= 0)
            for (std::uint32_t child : d.children(static_cast<std::uint32_t>(args))) {
                const ValueNode& v = d.nodes[child];
                if (v.kind == NodeKind::Scalar && d.text(d.scalars.type[v.payload]) == "int")
                    return intValue(d, child) == c.data.rank->rank ? directed->second : opposite(directed->second);
            }
    }
    return CommKind::Link;
}

struct ConnInfo {
    std::vector<int> ranks;
    std::string api;
    CommKind kind;
};

ConnInfo connectedInfo(const Comm& c)
{
    ConnInfo info;
    auto p2p = kP2P.find(c.api);
    info.api = std::string(p2p == kP2P.end() ? std::string_view(c.api) : p2p->second);
    info.kind = opposite(c.kind);
    const DumpFile& d = c.data.rank->dump;
    const std::int64_t kwargs = field(d, c.data.entry, "input_kwargs");
    auto kwarg = [&](std::string_view key) { return kwargs >= 0 ? d.childByKey(static_cast<std::uint32_t>(kwargs), key) : -1; };
    std::set<int> ranks;
    for (const auto& keys : { std::pair<std::string_view, std::string_view> { "dst", "dst_group" }, { "src", "src_group" } })
        for (std::string_view key : { keys.first, keys.second })
            if (kwarg(key) >= 0) {
                if (auto v = intValue(d, kwarg(key)))
                    ranks.insert(static_cast<int>(*v));
                break;
            }
    if (ranks.empty()) {
        const std::int64_t args = field(d, c.data.entry, "input_args");
        if (args >= 0)
            for (std::uint32_t child : d.children(static_cast<std::uint32_t>(args))) {
                const ValueNode& v = d.nodes[child];
                if (v.kind == NodeKind::Scalar && d.text(d.scalars.type[v.payload]) == "int")
                    if (auto value = intValue(d, child))
                        ranks.insert(static_cast<int>(*value));
            }
    }
    const std::int64_t group = kwarg("group");
    if (group >= 0) {
        const ValueNode& v = d.nodes[static_cast<std::size_t>(group)];
        if (v.kind == NodeKind::Scalar)
            for (const auto& extra : d.extrasOf(d.scalars.extras[v.payload]))
                if (d.text(extra.key) == "group_ranks") {
                    std::string_view text = d.text(extra.text);
                    std::size_t pos = 0;
                    while (pos < text.size()) {
                        while (pos < text.size() && !(text[pos] >= '0' && text[pos] <= '9'))
                            ++pos;
                        int value = 0;
                        auto r = std::from_chars(text.data() + pos, text.data() + text.size(), value);
                        if (r.ec != std::errc())
                            break;
                        ranks.insert(value);
                        pos = static_cast<std::size_t>(r.ptr - text.data());
                    }
                }
    }
    info.ranks.assign(ranks.begin(), ranks.end());
    return info;
}

class OverflowAnalyzer {
public:
    explicit OverflowAnalyzer(std::vector<std::unique_ptr<Rank>>& ranks)
        : m_ranks(ranks)
    {
    }

    std::optional<std::vector<Op>> run()
    {
        for (auto& rank : m_ranks) {
            const DumpFile& d = rank->dump;
            for (std::size_t e = 0; e < d.entries.size(); ++e) {
                Op op { rank.get(), e };
                if (isCommunication(op.name())) {
                    m_firstComm[rank->rank] = e;
                    break;
                }
                if (op.isAnomaly()) {
                    m_found.push_back(op);
                    break;
                }
            }
        }
        if (!m_found.empty())
            return m_found;
        for (auto& rank : m_ranks)
            m_comm.ranks[rank->rank] = commNodes(*rank);
        connect();
        prune();
        search();
        if (!m_found.empty())
            return m_found;
        for (auto& [rank, ops] : m_after)
            if (!ops.empty())
                m_found.push_back(ops.front());
        if (!m_found.empty())
            return m_found;
        return std::nullopt;
    }

private:
    std::vector<std::unique_ptr<Comm>> commNodes(const Rank& rank)
    {
        std::vector<std::unique_ptr<Comm>> nodes;
        auto first = m_firstComm.find(rank.rank);
        if (first == m_firstComm.end())
            return nodes;
        std::vector<Op> compute;
        int subLayer = 0;
        for (std::size_t e = first->second; e < rank.dump.entries.size(); ++e) {
            Op op { &rank, e, 0, subLayer };
            const std::string_view name = op.name();
            if (isCommunication(name)) {
                auto node = std::make_unique<Comm>();
                node->id = std::to_string(rank.rank) + "." + std::string(name);
                node->data = op;
                std::vector<std::string_view> parts;
                for (std::size_t start = 0;;) {
                    const std::size_t dot = name.find('.', start);
                    parts.push_back(name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
                    if (dot == std::string_view::npos)
                        break;
                    start = dot + 1;
                }
                if (parts.size() < 4)
                    throw Error(rank.dump.path, "entry '" + std::string(name) + "'", "invalid communication op name");
                node->api = std::string(parts[1]);
                node->callCount = std::string(parts[2]);
                node->computeOps = std::move(compute);
                compute.clear();
                node->kind = resolveKind(*node);
                if (!nodes.empty())
                    nodes.back()->addNext(node.get());
                nodes.push_back(std::move(node));
                subLayer = 0;
            } else if (!isIgnored(name)) {
                if (op.isAnomaly())
                    compute.push_back(op);
                ++subLayer;
            }
        }
        if (!compute.empty())
            m_after.emplace_back(rank.rank, compute);
        return nodes;
    }

    void connect()
    {
        std::vector<int> order;
        for (auto& [rank, _] : m_comm.ranks)
            order.push_back(rank);
        std::set<int> searched;
        for (std::size_t i = 0; i + 1 < order.size(); ++i) {
            searched.insert(order[i]);
            std::set<std::string> seen;
            for (Comm* cur : m_comm.live(order[i])) {
                ConnInfo info = connectedInfo(*cur);
                if (info.ranks.empty())
                    info.ranks = order;
                for (int other : info.ranks) {
                    if (searched.count(other) || !m_comm.ranks.count(other))
                        continue;
                    for (Comm* search : m_comm.live(other)) {
                        if (search->api != info.api || seen.count(search->id) || search->kind != info.kind)
                            continue;
                        const ConnInfo back = connectedInfo(*search);
                        if ((back.ranks.empty() && !kDirected.count(search->api))
                            || std::find(back.ranks.begin(), back.ranks.end(), cur->data.rank->rank) != back.ranks.end()) {
                            seen.insert(search->id);
                            if (search->kind == CommKind::Dst) {
                                cur->addDst(search);
                            } else if (search->kind == CommKind::Src) {
                                search->setLayer(cur->layer);
                                search->addDst(cur);
                            } else {
                                cur->addLink(search);
                            }
                            break;
                        }
                    }
                }
            }
        }
    }

    void prune()
    {
        m_comm.prune([](const Comm& n) { return n.data.commInputAnomalous() || n.data.outputAnomalous() || !n.computeOps.empty(); });
    }

    void search()
    {
        auto queues = m_comm.layerQueues();
        std::set<std::string> seen;
        while (CommGraph<Op>::anyLeft(queues)) {
            const auto groups = m_comm.nextGroups(queues, seen, GroupStart::FirstOrGrouped);
            for (const auto& group : groups) {
                seen.insert(group.begin(), group.end());
                for (const auto& id : group) {
                    Comm* n = m_comm.byId(id);
                    if (n && n->kind != CommKind::Dst && n->data.commInputAnomalous())
                        for (Op op : n->computeOps) {
                            op.layer = n->layer;
                            m_found.push_back(op);
                        }
                }
                for (const auto& id : group) {
                    Comm* n = m_comm.byId(id);
                    if (n && n->data.isAnomaly()) {
                        Op op = n->data;
                        op.layer = n->layer;
                        m_found.push_back(op);
                    }
                }
            }
            if (!m_found.empty()) {
                auto best = std::min_element(m_found.begin(), m_found.end(), [](const Op& a, const Op& b) {
                    return std::pair(a.layer, a.subLayer) < std::pair(b.layer, b.subLayer);
                });
                m_found = { *best };
                return;
            }
        }
    }

    std::vector<std::unique_ptr<Rank>>& m_ranks;
    std::vector<Op> m_found;
    std::map<int, std::size_t> m_firstComm;
    CommGraph<Op> m_comm;
    std::vector<std::pair<int, std::vector<Op>>> m_after;
};

// The raw JSON of every field of one entry of dump.json.
std::map<std::string, std::string> entryFields(const fs::path& dumpJson, std::string_view entryName)
{
    std::map<std::string, std::string> fields;
    simdjson::padded_string json;
    if (simdjson::padded_string::load(dumpJson.string()).get(json))
        throw Error(dumpJson.string(), {}, "cannot read the file");
    simdjson::ondemand::parser parser;
    try {
        auto doc = parser.iterate(json);
        simdjson::ondemand::object data = doc["data"].get_object();
        for (auto entry : data) {
            if (entry.unescaped_key().value() != entryName)
                continue;
            simdjson::ondemand::object body = entry.value().get_object();
            for (auto f : body) {
                const std::string key(f.unescaped_key().value());
                simdjson::ondemand::value v = f.value();
                simdjson::ondemand::json_type type = v.type();
                if (type == simdjson::ondemand::json_type::array) {
                    simdjson::ondemand::array array = v.get_array();
                    fields[key] = std::string(array.raw_json().value());
                } else if (type == simdjson::ondemand::json_type::object) {
                    simdjson::ondemand::object object = v.get_object();
                    fields[key] = std::string(object.raw_json().value());
                } else
                    fields[key] = std::string(v.raw_json_token());
            }
            break;
        }
    } catch (const simdjson::simdjson_error& e) {
        throw Error(dumpJson.string(), "entry '" + std::string(entryName) + "'", std::string("invalid JSON: ") + e.what());
    }
    return fields;
}

std::string nodeInfo(const Op& op)
{
    const Rank& rank = *op.rank;
    const std::string name(op.name());
    const auto fields = entryFields(rank.dir / "dump.json", name);
    auto fieldJson = [&](const char* key, const char* fallback) {
        std::string out;
        auto hit = fields.find(key);
        appendPythonJson(out, hit == fields.end() ? std::string_view(fallback) : std::string_view(hit->second), 2, 4);
        return out;
    };
    std::string out = "{\n      \"op_name\": ";
    appendJsonString(out, name);
    out += ",\n      \"data_info\": {\n";
    if (name.find("forward") != std::string::npos) {
        out += "        \"input_args\": " + fieldJson("input_args", "[]") + ",\n";
        out += "        \"input_kwargs\": " + fieldJson("input_kwargs", "{}") + ",\n";
    } else {
        out += "        \"input\": " + fieldJson("input", "[]") + ",\n";
    }
    out += "        \"output\": " + fieldJson("output", "{}") + "\n      },\n      \"construct_info\": [";
    std::vector<std::string> chain { name };
    std::set<std::string> seen { name };
    for (const auto* node = rank.construct.find(name); node && node->parent && !node->parent->empty() && !seen.count(*node->parent);
         node = rank.construct.find(chain.front())) {
        chain.insert(chain.begin(), *node->parent);
        seen.insert(*node->parent);
    }
    for (std::size_t i = 0; i < chain.size(); ++i) {
        out += "\n        ";
        appendJsonString(out, chain[i]);
        if (i + 1 < chain.size())
            out += ',';
    }
    out += "\n      ],\n      \"stack_info\": ";
    const std::vector<std::string>* frames = rank.stack.legacyFormat ? nullptr : rank.stack.framesOf(name);
    if (!frames) {
        out += "{}";
    } else if (frames->empty()) {
        out += "[]";
    } else {
        out += '[';
        for (std::size_t i = 0; i < frames->size(); ++i) {
            out += "\n        ";
            appendJsonString(out, (*frames)[i]);
            if (i + 1 < frames->size())
                out += ',';
        }
        out += "\n      ]";
    }
    out += "\n    }";
    return out;
}

} // namespace

std::string analyzeOverflow(const fs::path& stepDir)
{
    std::error_code ec;
    if (!fs::is_directory(stepDir, ec))
        throw Error(stepDir.string(), {}, "is not a step directory");
    std::vector<std::string> names;
    for (const auto& item : fs::directory_iterator(stepDir, ec))
        names.push_back(item.path().filename().string());
    std::map<int, fs::path> rankDirs;
    for (const auto& name : names) {
        int rank = 0;
        if (names.size() == 1 && name.rfind("proc", 0) == 0) {
            rank = 0;
        } else if (name.rfind("rank", 0) != 0) {
            continue;
        } else {
            const std::string digits = name.substr(4);
            if (!digits.empty() && !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
                continue;
            rank = digits.empty() ? 0 : std::stoi(digits);
        }
        rankDirs[rank] = stepDir / name;
    }
    if (rankDirs.empty())
        throw Error(stepDir.string(), {}, "no rank{N} (or single proc{PID}) directory to check");
    std::vector<std::unique_ptr<Rank>> ranks;
    DumpJsonReader reader;
    for (const auto& [rank, dir] : rankDirs) {
        auto r = std::make_unique<Rank>();
        r->rank = rank;
        r->dir = dir;
        r->dump = reader.read(dir / "dump.json");
        r->construct = readConstructJson(dir / "construct.json");
        r->stack = readStackJson(dir / "stack.json");
        if (ranks.empty() && (!r->dump.frameworkPresent || r->dump.framework != "pytorch"))
            throw Error(r->dump.path, {}, "overflow check is only available for PyTorch dumps (framework \"pytorch\")");
        ranks.push_back(std::move(r));
    }
    OverflowAnalyzer analyzer(ranks);
    const auto found = analyzer.run();
    if (!found)
        return {};
    std::vector<std::pair<int, std::vector<const Op*>>> byRank;
    for (const Op& op : *found) {
        auto it = std::find_if(byRank.begin(), byRank.end(), [&](const auto& p) { return p.first == op.rank->rank; });
        if (it == byRank.end()) {
            byRank.push_back({ op.rank->rank, {} });
            it = byRank.end() - 1;
        }
        it->second.push_back(&op);
    }
    std::string out = "{";
    for (std::size_t i = 0; i < byRank.size(); ++i) {
        out += "\n  \"rank_" + std::to_string(byRank[i].first) + "\": [";
        for (std::size_t k = 0; k < byRank[i].second.size(); ++k) {
            out += "\n    " + nodeInfo(*byRank[i].second[k]);
            if (k + 1 < byRank[i].second.size())
                out += ',';
        }
        out += "\n  ]";
        if (i + 1 < byRank.size())
            out += ',';
    }
    out += "\n}";
    return out;
}

} // namespace msprobe
