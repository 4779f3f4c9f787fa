// SPDX-License-Identifier: Apache-2.0
#pragma once

// The communication graph the reference builds across ranks to order its findings (overflow_check's anomaly
// search and -da's first-diff search): one node per communication op per rank, chained in call order, linked to
// its peers on other ranks, then walked layer by layer in groups of connected nodes. Data is what each search
// keeps of an op; it must have an int `layer`.

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace msprobe {

enum class CommKind { Src, Dst, Link };

template <class Data>
struct CommNode {
    std::string id; // "{rank}.{op name}"
    Data data;
    std::string api, callCount;
    CommKind kind = CommKind::Link;
    int layer = 0;
    CommNode* pre = nullptr;
    std::map<std::string, CommNode*> links, dsts, srcs, nexts;
    std::vector<Data> computeOps; // the ops between the previous communication op and this one
    bool connected = false;

    void setLayer(int value)
    {
        layer = value;
        data.layer = value;
    }
    void addNext(CommNode* n)
    {
        nexts[n->id] = n;
        n->pre = this;
        n->setLayer(layer + 1);
    }
    void addLink(CommNode* n)
    {
        links[n->id] = n;
        n->links[id] = this;
        n->setLayer(layer);
        connected = n->connected = true;
    }
    void addDst(CommNode* n)
    {
        dsts[n->id] = n;
        n->srcs[id] = this;
        n->setLayer(layer);
        connected = n->connected = true;
    }
    void remove()
    {
        for (auto& [_, n] : nexts)
            n->pre = nullptr;
        for (auto& [_, n] : dsts)
            n->srcs.erase(id);
        for (auto& [_, n] : srcs)
            n->dsts.erase(id);
        for (auto& [_, n] : links)
            n->links.erase(id);
        if (pre)
            pre->nexts.erase(id);
    }
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

    // Removes (and unlinks) the nodes the predicate drops.
    template <class Keep>
    void prune(Keep keep)
    {
        for (auto& [rank, nodes] : ranks)
            for (auto& n : nodes)
                if (n && !keep(*n)) {
                    n->remove();
                    n.reset();
                }
    }

    Node* byId(const std::string& id)
    {
        const std::size_t dot = id.find('.');
        if (dot == std::string::npos)
            return nullptr;
        const auto it = ranks.find(std::stoi(id.substr(0, dot)));
        if (it == ranks.end())
            return nullptr;
        for (auto& n : it->second)
            if (n && n->id == id)
                return n.get();
        return nullptr;
    }

    // Each rank's live nodes ordered by layer (stable), the queues a walk consumes.
    std::vector<std::vector<Node*>> layerQueues()
    {
        std::vector<std::vector<Node*>> queues;
        for (auto& [rank, _] : ranks) {
            auto nodes = live(rank);
            std::stable_sort(nodes.begin(), nodes.end(), [](Node* a, Node* b) { return a->layer < b->layer; });
            queues.push_back(std::move(nodes));
        }
        return queues;
    }

    // One round of the walk: the next unseen node of every queue, grouped with everything connected to it.
    std::vector<std::set<std::string>> nextGroups(std::vector<std::vector<Node*>>& queues, const std::set<std::string>& seen,
        GroupStart rule)
    {
        std::vector<std::set<std::string>> groups;
        std::set<std::string> inGroups;
        for (auto& queue : queues) {
            Node* node = nullptr;
            while (!queue.empty()) {
                Node* next = queue.front();
                queue.erase(queue.begin());
                if (!seen.count(next->id)) {
                    node = next;
                    break;
                }
            }
            if (!node)
                continue;
            const bool grouped = inGroups.count(node->id) > 0;
            if (!(groups.empty() || (rule == GroupStart::FirstOrGrouped ? grouped : !grouped)))
                continue;
            std::set<std::string> ids = connectedIds(node);
            inGroups.insert(ids.begin(), ids.end());
            groups.push_back(std::move(ids));
        }
        return groups;
    }

    static bool anyLeft(const std::vector<std::vector<Node*>>& queues)
    {
        return std::any_of(queues.begin(), queues.end(), [](const auto& q) { return !q.empty(); });
    }

private:
    std::set<std::string> relatives(Node* n)
    {
        std::set<std::string> ids;
        if (!n)
            return ids;
        ids.insert(n->id);
        for (const auto* list : { &n->links, &n->srcs, &n->dsts })
            for (const auto& [id, _] : *list)
                ids.insert(id);
        return ids;
    }

    // The node's relatives, then theirs, breadth first, as the reference expands a group.
    std::set<std::string> connectedIds(Node* node)
    {
        std::set<std::string> ids = relatives(node);
        std::vector<std::string> pending;
        for (const auto& id : ids)
            for (const auto& rel : relatives(byId(id)))
                if (!ids.count(rel))
                    pending.push_back(rel);
        while (!pending.empty()) {
            const std::string id = pending.front();
            pending.erase(pending.begin());
            ids.insert(id);
            for (const auto& rel : relatives(byId(id)))
                if (!ids.count(rel))
                    pending.push_back(rel);
        }
        return ids;
    }
};

} // namespace msprobe
