// SPDX-License-Identifier: Apache-2.0
#pragma once

// overflow_check reads one rank at a time: each rank's dump is reduced to what the cross-rank search needs
// (its first anomaly before any communication, its communication ops with their verdicts and peers, the
// anomalous compute ops between them), and the dump is dropped before the next rank is read.

#include "diagnose/comm_graph.h"
#include "dump/dump_model.h"

#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace msprobe::diagnose::detail {

// connected_info of a communication op: the peer api, the peer's kind and the peer ranks (interned).
struct Peers {
    const std::vector<int>* ranks = nullptr;
    std::string api;
    CommKind kind = CommKind::Link;
};

// One op as the search keeps it, with its verdicts computed from the dump.
struct Op {
    int rank = 0;
    std::string name;
    int layer = 0, subLayer = 0;
    bool commInputBad = false; // input_args or input_kwargs has a NaN/Inf Max or Min
    bool outputBad = false; // output has one
    bool anomaly = false; // not ignored, finite inputs (input, input_args, input_kwargs), non-finite output
    Peers peers; // communication ops only

    bool commInputAnomalous() const { return commInputBad; }
    bool outputAnomalous() const { return outputBad; }
    bool isAnomaly() const { return anomaly; }
};

using Comm = CommNode<Op>;

// Equal peer-rank lists are stored once: every communication op of every rank of a group names the same ones.
class PeerPool {
public:
    const std::vector<int>* intern(std::vector<int> ranks) { return &*m_sets.insert(std::move(ranks)).first; }

private:
    std::set<std::vector<int>> m_sets;
};

struct RankSummary {
    int rank = 0;
    std::filesystem::path dir;
    std::optional<Op> beforeComm; // the first anomaly before the rank's first communication op
    std::vector<std::unique_ptr<Comm>> comms; // from the first communication op on, chained in call order
    std::vector<Op> after; // the anomalous compute ops after the last communication op
    std::exception_ptr invalid; // a malformed communication op name, raised only if the search needs the comms
};

// withComms false: only beforeComm is filled (a rank already has an anomaly before communication, so the
// cross-rank search will not run).
RankSummary summarizeRank(const dump::DumpFile& dump, int rank, bool withComms, PeerPool& pool);

} // namespace msprobe::diagnose::detail
