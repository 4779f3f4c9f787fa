// SPDX-License-Identifier: Apache-2.0
#include "diagnose/anomaly_check.h"

#include "dump/dump_tree.h"

#include "diagnose/anomaly_rank.h"

#include "support/python_text.h"
#include "compare/py_value.h"
#include "dump/construct_stack.h"
#include "dump/dump_json_reader.h"
#include "support/error.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_set>

namespace fs = std::filesystem;

namespace msprobe::diagnose {

namespace {

using detail::Comm;
using detail::Op;
using detail::RankSummary;

class OverflowAnalyzer {
public:
    explicit OverflowAnalyzer(std::vector<RankSummary>& ranks)
        : m_ranks(ranks)
    {
    }

    std::optional<std::vector<Op>> run()
    {
        for (auto& rank : m_ranks)
            if (rank.beforeComm)
                m_found.push_back(*rank.beforeComm);
        if (!m_found.empty())
            return m_found;
        for (auto& rank : m_ranks) {
            if (rank.invalid)
                std::rethrow_exception(rank.invalid);
            m_comm.ranks[rank.rank] = std::move(rank.comms);
        }
        connect();
        prune();
        search();
        if (!m_found.empty())
            return m_found;
        for (auto& rank : m_ranks)
            if (!rank.after.empty())
                m_found.push_back(rank.after.front());
        if (!m_found.empty())
            return m_found;
        return std::nullopt;
    }

private:
    static bool peerOf(const detail::Peers& peers, int rank)
    {
        return std::binary_search(peers.ranks->begin(), peers.ranks->end(), rank); // interned from a std::set: sorted
    }

    void connect()
    {
        std::vector<int> order;
        for (auto& [rank, _] : m_comm.ranks)
            order.push_back(rank);
        FirstFitFinder<Comm> finder;
        for (std::size_t i = 0; i + 1 < order.size(); ++i) {
            const int rank = order[i];
            finder.nextRank();
            for (Comm* cur : m_comm.live(rank)) {
                const detail::Peers& info = cur->data.peers;
                const std::string key = info.api + '/' + static_cast<char>('0' + static_cast<int>(info.kind));
                for (int other : info.ranks->empty() ? order : *info.ranks) {
                    if (other <= rank || !m_comm.ranks.count(other)) // ranks up to this one were searched already
                        continue;
                    auto& candidates = m_comm.candidates(other, key,
                        [&](const Comm& search) { return search.api == info.api && search.kind == info.kind; });
                    Comm* search = finder.take(candidates, [&](const Comm& candidate) {
                        const detail::Peers& back = candidate.data.peers;
                        return (back.ranks->empty() && !isDirected(candidate.api)) || peerOf(back, rank);
                    });
                    if (!search)
                        continue;
                    if (search->kind == CommKind::Dst) {
                        cur->addDst(search);
                    } else if (search->kind == CommKind::Src) {
                        search->setLayer(cur->layer);
                        search->addDst(cur);
                    } else {
                        cur->addLink(search);
                    }
                }
            }
        }
    }

    static bool isDirected(std::string_view api)
    {
        static const std::set<std::string_view> directed = { "send", "recv", "isend", "irecv", "broadcast", "scatter", "gather",
            "send_object_list", "recv_object_list" };
        return directed.count(api) > 0;
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

    std::vector<RankSummary>& m_ranks;
    std::vector<Op> m_found;
    CommGraph<Op> m_comm;
};

// The raw JSON of every field of one entry of dump.json.
std::map<std::string, std::string> entryFields(const fs::path& dumpJson, std::string_view entryName)
{
    std::map<std::string, std::string> fields;
    simdjson::padded_string json;
    if (simdjson::padded_string::load(dumpJson.string()).get(json))
        throw support::Error(dumpJson.string(), {}, "cannot read the file");
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
        throw support::Error(dumpJson.string(), "entry '" + std::string(entryName) + "'", std::string("invalid JSON: ") + e.what());
    }
    return fields;
}

// What the report shows of a rank besides its dump: read again for the ranks with a finding only.
struct RankFiles {
    fs::path dir;
    dump::ConstructInfo construct;
    dump::StackInfo stack;
};

// construct_info: the op, its parent, the parent's parent... listed root first; a loop ends at the first repeat.
std::vector<const std::string*> parentChain(const dump::ConstructInfo& construct, const std::string& name)
{
    std::vector<const std::string*> chain { &name };
    std::unordered_set<std::string_view> seen { name };
    for (const auto* node = construct.find(name); node && node->parent && !node->parent->empty() && seen.insert(*node->parent).second;
         node = construct.find(*node->parent))
        chain.push_back(&*node->parent);
    std::reverse(chain.begin(), chain.end());
    return chain;
}

std::string nodeInfo(const Op& op, const RankFiles& rank)
{
    const std::string& name = op.name;
    const auto fields = entryFields(rank.dir / "dump.json", name);
    auto fieldJson = [&](const char* key, const char* fallback) {
        std::string out;
        auto hit = fields.find(key);
        support::appendPythonJson(out, hit == fields.end() ? std::string_view(fallback) : std::string_view(hit->second), 2, 4);
        return out;
    };
    std::string out = "{\n      \"op_name\": ";
    support::appendJsonString(out, name);
    out += ",\n      \"data_info\": {\n";
    if (name.find("forward") != std::string::npos) {
        out += "        \"input_args\": " + fieldJson("input_args", "[]") + ",\n";
        out += "        \"input_kwargs\": " + fieldJson("input_kwargs", "{}") + ",\n";
    } else {
        out += "        \"input\": " + fieldJson("input", "[]") + ",\n";
    }
    out += "        \"output\": " + fieldJson("output", "{}") + "\n      },\n      \"construct_info\": [";
    const auto chain = parentChain(rank.construct, name);
    for (std::size_t i = 0; i < chain.size(); ++i) {
        out += "\n        ";
        support::appendJsonString(out, *chain[i]);
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
            support::appendJsonString(out, (*frames)[i]);
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
        throw support::Error(stepDir.string(), {}, "is not a step directory");
    // rank and rank{N} by number (leading zeros allowed); a proc{PID} alone in the step is rank 0.
    const dump::DumpFolders folders = dump::listDumpFolders(stepDir, dump::DumpFolderNames::Written);
    std::map<int, fs::path> rankDirs;
    for (const auto& rank : folders.ranks)
        rankDirs[rank.number] = rank.path;
    if (folders.entries() == 1 && folders.procs.size() == 1)
        rankDirs[0] = folders.procs.front().path;
    if (rankDirs.empty())
        throw support::Error(stepDir.string(), {}, "no rank{N} (or single proc{PID}) directory to check");
    // One rank at a time: its dump is reduced to a summary and dropped; construct.json and stack.json are
    // checked now and read again below only for the ranks the report names.
    std::vector<RankSummary> ranks;
    detail::PeerPool peers;
    dump::DumpJsonReader reader;
    bool anyBeforeComm = false;
    for (const auto& [rank, dir] : rankDirs) {
        const dump::DumpFile dump = reader.read(dir / "dump.json");
        dump::readConstructJson(dir / "construct.json");
        dump::readStackJson(dir / "stack.json");
        if (ranks.empty() && (!dump.frameworkPresent || dump.framework != "pytorch"))
            throw support::Error(dump.path, {}, "overflow check is only available for PyTorch dumps (framework \"pytorch\")");
        ranks.push_back(detail::summarizeRank(dump, rank, !anyBeforeComm, peers));
        ranks.back().dir = dir;
        anyBeforeComm = anyBeforeComm || ranks.back().beforeComm;
    }
    OverflowAnalyzer analyzer(ranks);
    const auto found = analyzer.run();
    if (!found)
        return {};
    std::vector<std::pair<RankFiles, std::vector<const Op*>>> byRank;
    for (const Op& op : *found) {
        auto it = std::find_if(byRank.begin(), byRank.end(), [&](const auto& p) { return p.second.front()->rank == op.rank; });
        if (it == byRank.end()) {
            const fs::path dir = rankDirs.at(op.rank);
            byRank.push_back({ RankFiles { dir, dump::readConstructJson(dir / "construct.json"), dump::readStackJson(dir / "stack.json") }, {} });
            it = byRank.end() - 1;
        }
        it->second.push_back(&op);
    }
    std::string out = "{";
    for (std::size_t i = 0; i < byRank.size(); ++i) {
        out += "\n  \"rank_" + std::to_string(byRank[i].second.front()->rank) + "\": [";
        for (std::size_t k = 0; k < byRank[i].second.size(); ++k) {
            out += "\n    " + nodeInfo(*byRank[i].second[k], byRank[i].first);
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

} // namespace msprobe::diagnose
