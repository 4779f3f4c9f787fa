// SPDX-License-Identifier: Apache-2.0
// The Megatron parallel configuration of what the studio has open (world size, layers, TP, PP, VPP, order,
// standalone embedding stage) and the layout core/parallel derives from it. It comes from the parallel-merge
// flags the graphs were built with, from the dumps (group_ranks of the first reduce_scatter/all_reduce), from
// the user, or from what was remembered for the same input; source() says which.
#pragma once

#include "comparerows.h"
#include "sessiontypes.h"

#include "parallel/parallel_layout.h"

#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <optional>

class StudioSession;

namespace msprobe::studio {

// What the dumps or the graph flags tell about the configuration; fields left empty are unknown.
struct ParallelHints {
    std::optional<long long> worldSize, numLayers, tensorParallel, pipelineParallel, virtualStages;
    std::optional<std::string> order;
    std::vector<int> tpGroup; // the group_ranks found in the dumps
    QStringList sources; // one line per field group: where it was read
};

// From the parallel-merge flags of a load (the problem side): rank_size, tp, pp, vpp, order.
ParallelHints hintsFromMergeFlags(const std::vector<msprobe::graph::ParallelParams>& params);
// group_ranks of the first reduce_scatter/all_reduce: in a dump.json (read up to the first such entry) or in a
// graph node's stored input data. Empty when none is found.
std::vector<int> groupRanksInDumpJson(const std::filesystem::path& dumpJson);
std::vector<int> groupRanksInText(const std::string& text);
// Distinct transformer layers ("layers.N" per model chunk) in one graph's node names.
int layerCountInGraph(const msprobe::graph::VisGraph& graph);
// Everything a session can tell: merge flags, then group_ranks (dump.json of each rank of the first step, or the
// vis.db graphs), the rank count and the layers of the graphs.
ParallelHints hintsFromSession(const StudioSession& session);

// A configuration from hints, filling what they leave open with `fallback` (vpp as a count of virtual stages is
// turned into layers per virtual stage when the layer count allows it).
msprobe::parallel::ParallelConfig configFromHints(const ParallelHints& hints, const msprobe::parallel::ParallelConfig& fallback);

// The order under which `group` is a TP group: `config`'s own when it is, else the first of the Megatron
// orders of tp, dp and pp that makes it one; nullopt when none does (or the configuration is invalid).
std::optional<std::string> orderWithTpGroup(const msprobe::parallel::ParallelConfig& config, const std::vector<int>& group);

// The worst compare Result of each rank of `step` over the session's compare tables (ranks without a table are
// absent).
std::map<int, RowResult> worstResultPerRank(const StudioSession& session, int step);

// The key configurations are remembered under: the opened input(s).
QString rememberKey(const LoadRequest& request);

} // namespace msprobe::studio

class ParallelSetup : public QObject {
    Q_OBJECT
public:
    enum class Source { None, MergeFlags, Dumps, Remembered, User, CommandLine };
    Q_ENUM(Source)

    // Follows `session` (when given): on every finished load the configuration remembered for the input is
    // restored, else the one read from the dumps.
    explicit ParallelSetup(StudioSession* session = nullptr, QObject* parent = nullptr);

    // Derives the layout; on an invalid configuration keeps the old one and returns the core's message.
    QString setConfig(const msprobe::parallel::ParallelConfig& config, Source source, const QString& detail = {});
    void clear();

    bool hasLayout() const { return m_layout != nullptr; }
    std::shared_ptr<const msprobe::parallel::ParallelLayout> layout() const { return m_layout; }
    const msprobe::parallel::ParallelConfig& config() const { return m_config; }
    Source source() const { return m_source; }
    // Where the configuration came from, in words ("read from the dumps: tp 2 from group_ranks of …").
    QString sourceText() const;
    // What the dumps gave when no layout could be derived from them (e.g. the layer count is missing).
    const msprobe::studio::ParallelHints& lastHints() const { return m_hints; }

    // Reads the session again (what a finished load does).
    void readFromSession();
    // Remembered per opened input in QSettings.
    void remember(const QString& key) const;
    bool restore(const QString& key);

signals:
    void changed();

private:
    StudioSession* m_session;
    msprobe::parallel::ParallelConfig m_config;
    std::shared_ptr<const msprobe::parallel::ParallelLayout> m_layout;
    Source m_source = Source::None;
    QString m_detail;
    msprobe::studio::ParallelHints m_hints;
};
