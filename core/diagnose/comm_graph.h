// SPDX-License-Identifier: Apache-2.0
#pragma once

// The communication graph the reference builds across ranks to order its findings (overflow_check's anomaly
// search and -da's first-diff search): one node per communication op per rank, chained in call order, linked to
// its peers on other ranks, then walked layer by layer in groups of connected nodes. Data is what each search
// keeps of an op; it must have an int `layer`.

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace msprobe::diagnose {

enum class CommKind { Src, Dst, Link };

// Edges are plain pointer lists: a collective over R ranks links every pair of its R nodes, so the graph holds
// R^2/2 edges per call and each costs O(1) to add. A removed node is only marked (its neighbours skip it); it
// stays allocated while the graph lives.
template <class Data>
struct CommNode {
    std::string id; // "{rank}.{op name}"
    Data data;
    std::string api, callCount;
    CommKind kind = CommKind::Link;
    int layer = 0;
    CommNode* pre = nullptr;
    std::vector<CommNode*> links, dsts, srcs, nexts;
    std::vector<Data> computeOps; // the ops between the previous communication op and this one
    bool connected = false;
    bool removed = false;
    unsigned takenIn = 0; // the FirstFitFinder round that linked it last

    void setLayer(int value)
    {
        layer = value;
        data.layer = value;
    }
    void addNext(CommNode* n)
    {
        nexts.push_back(n);
        n->pre = this;
        n->setLayer(layer + 1);
    }
    void addLink(CommNode* n)
    {
        links.push_back(n);
        n->links.push_back(this);
        n->setLayer(layer);
        connected = n->connected = true;
    }
    void addDst(CommNode* n)
    {
        dsts.push_back(n);
        n->srcs.push_back(this);
        n->setLayer(layer);
        connected = n->connected = true;
    }
    void remove()
    {
        removed = true;
        for (CommNode* n : nexts)
            if (n->pre == this)
                n->pre = nullptr;
    }
};

// Live nodes of one rank that may answer one kind of peer request, in call order, with the search's cursor.
template <class Node>
struct CandidateList {
    std::vector<Node*> nodes;
    std::size_t cursor = 0;
    unsigned generation = 0; // the FirstFitFinder round the cursor belongs to
};

// The reference links each communication op of a rank to the first op of every peer rank that fits and that no
// earlier op of the same rank took, scanning the peer's ops from the start for every op (cubic in the number of
// ranks for collectives over all ranks). This finds the same ops walking each candidate list once per rank: a
// cursor per list that only moves forward, since what it passed is taken or does not fit this rank, and stays so.
// `fits` may depend on the candidate and the current rank only. Cost: O(1) amortised per (op, peer rank).
template <class Node>
class FirstFitFinder {
public:
    void nextRank() { ++m_generation; }
    template <class Fits>
    Node* take(CandidateList<Node>& list, Fits fits)
    {
        if (list.generation != m_generation) {
            list.generation = m_generation;
            list.cursor = 0;
        }
        std::size_t& at = list.cursor;
        while (at < list.nodes.size() && (list.nodes[at]->takenIn == m_generation || !fits(*list.nodes[at])))
            ++at;
        if (at == list.nodes.size())
            return nullptr;
        Node* node = list.nodes[at++];
        node->takenIn = m_generation;
        return node;
    }

private:
    unsigned m_generation = 0;
};

// Which node of a round starts a group: the reference's two searches differ here.
enum class GroupStart {
    FirstOrGrouped, // overflow_check: the round's first node, or one already in a group
    FirstOrUngrouped, // first-diff: the round's first node, or one not yet in a group
};

template <class Data>
class CommGraph {
public:
    using Node = CommNode<Data>;
    std::map<int, std::vector<std::unique_ptr<Node>>> ranks; // removed nodes are null

    std::vector<Node*> live(int rank)
    {
        std::vector<Node*> out;
        for (auto& n : ranks[rank])
            if (n)
                out.push_back(n.get());
        return out;
    }

    // The live nodes of `rank` that `select` keeps, in call order, computed once per key (until prune()).
    template <class Select>
    CandidateList<Node>& candidates(int rank, const std::string& key, Select select)
    {
        auto& lists = m_candidates[rank];
        auto it = lists.find(key);
        if (it == lists.end()) {
            CandidateList<Node> list;
            for (auto& n : ranks[rank])
                if (n && select(*n))
                    list.nodes.push_back(n.get());
            it = lists.emplace(key, std::move(list)).first;
        }
        return it->second;
    }

    // Removes (and unlinks) the nodes the predicate drops.
    template <class Keep>
    void prune(Keep keep)
    {
        m_candidates.clear();
        for (auto& [rank, nodes] : ranks)
            for (auto& n : nodes)
                if (n && !keep(*n)) {
                    n->remove();
                    m_removed.push_back(std::move(n));
                }
        m_byId.clear();
    }

    Node* byId(const std::string& id)
    {
        if (m_byId.empty())
            for (auto& [rank, nodes] : ranks)
                for (auto& n : nodes)
                    if (n)
                        m_byId.emplace(n->id, n.get());
        const auto it = m_byId.find(id);
        return it == m_byId.end() ? nullptr : it->second;
    }

    using Queue = std::deque<Node*>;
    // Each rank's live nodes ordered by layer (stable), the queues a walk consumes.
    std::vector<Queue> layerQueues()
    {
        std::vector<Queue> queues;
        for (auto& [rank, _] : ranks) {
            auto nodes = live(rank);
            std::stable_sort(nodes.begin(), nodes.end(), [](Node* a, Node* b) { return a->layer < b->layer; });
            queues.emplace_back(nodes.begin(), nodes.end());
        }
        return queues;
    }

    // One round of the walk: the next unseen node of every queue, grouped with everything connected to it.
    std::vector<std::set<std::string>> nextGroups(std::vector<Queue>& queues, const std::set<std::string>& seen, GroupStart rule)
    {
        std::vector<std::set<std::string>> groups;
        std::unordered_map<std::string, std::size_t> groupOf; // id -> its group in this round
        for (auto& queue : queues) {
            Node* node = nullptr;
            while (!queue.empty()) {
                Node* next = queue.front();
                queue.pop_front();
                if (!seen.count(next->id)) {
                    node = next;
                    break;
                }
            }
            if (!node)
                continue;
            const auto grouped = groupOf.find(node->id);
            if (!(groups.empty() || (rule == GroupStart::FirstOrGrouped) == (grouped != groupOf.end())))
                continue;
            if (grouped != groupOf.end()) { // a group is a connected component: this node's is the same one
                std::set<std::string> ids = groups[grouped->second];
                groups.push_back(std::move(ids));
                continue;
            }
            std::set<std::string> ids = connectedIds(node);
            for (const auto& id : ids)
                groupOf.emplace(id, groups.size());
            groups.push_back(std::move(ids));
        }
        return groups;
    }

    static bool anyLeft(const std::vector<Queue>& queues)
    {
        return std::any_of(queues.begin(), queues.end(), [](const auto& q) { return !q.empty(); });
    }

private:
    std::vector<std::unique_ptr<Node>> m_removed; // kept allocated: live nodes still point at them
    std::unordered_map<std::string, Node*> m_byId;
    std::unordered_map<int, std::unordered_map<std::string, CandidateList<Node>>> m_candidates;

    // The node and everything linked to it through links, srcs and dsts (the reference's group): its
    // relatives, then theirs, until none is new.
    std::set<std::string> connectedIds(Node* node)
    {
        std::set<std::string> ids;
        std::unordered_set<Node*> visited { node };
        std::vector<Node*> pending { node };
        while (!pending.empty()) {
            Node* n = pending.back();
            pending.pop_back();
            ids.insert(n->id);
            for (const auto* list : { &n->links, &n->srcs, &n->dsts })
                for (Node* rel : *list)
                    if (!rel->removed && visited.insert(rel).second)
                        pending.push_back(rel);
        }
        return ids;
    }
};

} // namespace msprobe::diagnose
