// SPDX-License-Identifier: Apache-2.0
#include "diagnose/anomaly_rank.h"

#include "support/error.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace msprobe::diagnose::detail {

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

std::int64_t field(const dump::DumpFile& dump, std::size_t entry, std::string_view key)
{
    const std::uint32_t body = dump.entries[entry].body;
    return dump.nodes[body].kind == dump::NodeKind::Dict ? dump.childByKey(body, key) : -1;
}

// check_item_anomaly: a top-level element (list) or value (dict) whose Max or Min is NaN/inf.
bool itemsAnomalous(const dump::DumpFile& dump, std::int64_t node)
{
    if (node < 0)
        return false;
    const auto n = static_cast<std::uint32_t>(node);
    if (dump.nodes[n].kind != dump::NodeKind::List && dump.nodes[n].kind != dump::NodeKind::Dict)
        return false;
    for (std::uint32_t child : dump.children(n)) {
        const dump::ValueNode& v = dump.nodes[child];
        if (v.kind == dump::NodeKind::Tensor && (dump.tensors.max[v.payload].isNonFinite() || dump.tensors.min[v.payload].isNonFinite()))
            return true;
    }
    return false;
}

// The int value of a scalar leaf, if it is one.
std::optional<long long> intValue(const dump::DumpFile& dump, std::int64_t node)
{
    if (node < 0)
        return std::nullopt;
    const dump::ValueNode& v = dump.nodes[static_cast<std::size_t>(node)];
    if (v.kind != dump::NodeKind::Scalar || dump.scalars.valueKind[v.payload] != dump::ScalarValueKind::Int)
        return std::nullopt;
    return dump.scalars.number[v.payload].i;
}

bool truthyDict(const dump::DumpFile& dump, std::int64_t node)
{
    return node >= 0 && dump.nodes[static_cast<std::size_t>(node)].kind != dump::NodeKind::Null;
}

const std::map<std::string_view, std::string_view> kP2P = { { "send", "recv" }, { "recv", "send" }, { "isend", "irecv" },
    { "irecv", "isend" }, { "send_object_list", "recv_object_list" }, { "recv_object_list", "send_object_list" } };
const std::map<std::string_view, CommKind> kDirected = { { "send", CommKind::Dst }, { "recv", CommKind::Src }, { "isend", CommKind::Dst },
    { "irecv", CommKind::Src }, { "broadcast", CommKind::Src }, { "scatter", CommKind::Src }, { "gather", CommKind::Dst },
    { "send_object_list", CommKind::Dst }, { "recv_object_list", CommKind::Src } };

CommKind opposite(CommKind k) { return k == CommKind::Src ? CommKind::Dst : k == CommKind::Dst ? CommKind::Src : CommKind::Link; }

// What one rank's dump says of one entry, for the kind and peers of a communication op.
struct EntryView {
    const dump::DumpFile& dump;
    std::size_t entry;
    int rank;

    std::int64_t kwarg(std::string_view key) const
    {
        const std::int64_t kwargs = field(dump, entry, "input_kwargs");
        return kwargs >= 0 ? dump.childByKey(static_cast<std::uint32_t>(kwargs), key) : -1;
    }
    // The int scalars of input_args, in order.
    std::vector<std::uint32_t> intArgs() const
    {
        std::vector<std::uint32_t> out;
        const std::int64_t args = field(dump, entry, "input_args");
        if (args >= 0)
            for (std::uint32_t child : dump.children(static_cast<std::uint32_t>(args))) {
                const dump::ValueNode& v = dump.nodes[child];
                if (v.kind == dump::NodeKind::Scalar && dump.text(dump.scalars.type[v.payload]) == "int")
                    out.push_back(child);
            }
        return out;
    }
};

CommKind resolveKind(const EntryView& e, std::string_view api)
{
    for (std::string_view key : { "src", "src_group" })
        if (truthyDict(e.dump, e.kwarg(key)))
            return intValue(e.dump, e.kwarg(key)) == e.rank ? CommKind::Src : CommKind::Dst;
    for (std::string_view key : { "dst", "dst_group" })
        if (truthyDict(e.dump, e.kwarg(key)))
            return intValue(e.dump, e.kwarg(key)) == e.rank ? CommKind::Dst : CommKind::Src;
    auto directed = kDirected.find(api);
    if (directed != kDirected.end()) {
        const auto ints = e.intArgs();
        if (!ints.empty())
            return intValue(e.dump, ints.front()) == e.rank ? directed->second : opposite(directed->second);
    }
    return CommKind::Link;
}

void addGroupRanks(std::string_view text, std::set<int>& ranks)
{
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

Peers connectedInfo(const EntryView& e, std::string_view api, CommKind kind, PeerPool& pool)
{
    Peers info;
    auto p2p = kP2P.find(api);
    info.api = std::string(p2p == kP2P.end() ? api : p2p->second);
    info.kind = opposite(kind);
    std::set<int> ranks;
    for (const auto& keys : { std::pair<std::string_view, std::string_view> { "dst", "dst_group" }, { "src", "src_group" } })
        for (std::string_view key : { keys.first, keys.second })
            if (e.kwarg(key) >= 0) {
                if (auto v = intValue(e.dump, e.kwarg(key)))
                    ranks.insert(static_cast<int>(*v));
                break;
            }
    if (ranks.empty())
        for (std::uint32_t child : e.intArgs())
            if (auto value = intValue(e.dump, child))
                ranks.insert(static_cast<int>(*value));
    const std::int64_t group = e.kwarg("group");
    if (group >= 0) {
        const dump::ValueNode& v = e.dump.nodes[static_cast<std::size_t>(group)];
        if (v.kind == dump::NodeKind::Scalar)
            for (const auto& extra : e.dump.extrasOf(e.dump.scalars.extras[v.payload]))
                if (e.dump.text(extra.key) == "group_ranks")
                    addGroupRanks(e.dump.text(extra.text), ranks);
    }
    info.ranks = pool.intern(std::vector<int>(ranks.begin(), ranks.end()));
    return info;
}

Op opOf(const dump::DumpFile& dump, std::size_t entry, int rank, int subLayer)
{
    Op op;
    op.rank = rank;
    op.name = std::string(dump.entryName(entry));
    op.subLayer = subLayer;
    op.commInputBad = itemsAnomalous(dump, field(dump, entry, "input_args")) || itemsAnomalous(dump, field(dump, entry, "input_kwargs"));
    op.outputBad = itemsAnomalous(dump, field(dump, entry, "output"));
    const bool inputBad = op.commInputBad || itemsAnomalous(dump, field(dump, entry, "input"));
    op.anomaly = !isIgnored(op.name) && !inputBad && op.outputBad;
    return op;
}

// Only the verdict, without copying the name: most ops are neither communication ops nor anomalies.
bool isAnomaly(const dump::DumpFile& dump, std::size_t entry)
{
    if (isIgnored(dump.entryName(entry)) || !itemsAnomalous(dump, field(dump, entry, "output")))
        return false;
    return !itemsAnomalous(dump, field(dump, entry, "input")) && !itemsAnomalous(dump, field(dump, entry, "input_args"))
        && !itemsAnomalous(dump, field(dump, entry, "input_kwargs"));
}

std::unique_ptr<Comm> commOf(const dump::DumpFile& dump, std::size_t entry, int rank, int subLayer, PeerPool& pool)
{
    const std::string_view name = dump.entryName(entry);
    auto node = std::make_unique<Comm>();
    node->id = std::to_string(rank) + "." + std::string(name);
    node->data = opOf(dump, entry, rank, subLayer);
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const std::size_t dot = name.find('.', start);
        parts.push_back(name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        if (dot == std::string_view::npos)
            break;
        start = dot + 1;
    }
    if (parts.size() < 4)
        throw support::Error(dump.path, "entry '" + std::string(name) + "'", "invalid communication op name");
    node->api = std::string(parts[1]);
    node->callCount = std::string(parts[2]);
    const EntryView view { dump, entry, rank };
    node->kind = resolveKind(view, node->api);
    node->data.peers = connectedInfo(view, node->api, node->kind, pool);
    return node;
}

} // namespace

RankSummary summarizeRank(const dump::DumpFile& dump, int rank, bool withComms, PeerPool& pool)
{
    RankSummary summary;
    summary.rank = rank;
    std::size_t first = dump.entries.size();
    for (std::size_t e = 0; e < dump.entries.size(); ++e) {
        if (isCommunication(dump.entryName(e))) {
            first = e;
            break;
        }
        if (isAnomaly(dump, e)) {
            summary.beforeComm = opOf(dump, e, rank, 0);
            return summary;
        }
    }
    if (!withComms)
        return summary;
    std::vector<Op> compute;
    int subLayer = 0;
    try {
        for (std::size_t e = first; e < dump.entries.size(); ++e) {
            const std::string_view name = dump.entryName(e);
            if (isCommunication(name)) {
                auto node = commOf(dump, e, rank, subLayer, pool);
                node->computeOps = std::move(compute);
                compute.clear();
                if (!summary.comms.empty())
                    summary.comms.back()->addNext(node.get());
                summary.comms.push_back(std::move(node));
                subLayer = 0;
            } else if (!isIgnored(name)) {
                if (isAnomaly(dump, e))
                    compute.push_back(opOf(dump, e, rank, subLayer));
                ++subLayer;
            }
        }
    } catch (const support::Error&) {
        summary.invalid = std::current_exception();
        summary.comms.clear();
        return summary;
    }
    summary.after = std::move(compute);
    return summary;
}

} // namespace msprobe::diagnose::detail
