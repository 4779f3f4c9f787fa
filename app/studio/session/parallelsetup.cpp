// SPDX-License-Identifier: Apache-2.0
#include "parallelsetup.h"

#include "studiosession.h"

#include "support/error.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>

namespace msprobe::studio {

namespace {

// A dump.json is read only up to the first reduce_scatter/all_reduce group; this bounds a file without one.
constexpr std::size_t kMaxScanBytes = 64u << 20;

QString rankList(const std::vector<int>& ranks)
{
    QStringList parts;
    for (int r : ranks)
        parts << QString::number(r);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

bool isCollective(std::string_view name)
{
    return name.find("reduce_scatter") != std::string_view::npos || name.find("all_reduce") != std::string_view::npos;
}

} // namespace

ParallelHints hintsFromMergeFlags(const std::vector<msprobe::graph::ParallelParams>& params)
{
    ParallelHints hints;
    if (params.empty())
        return hints;
    const auto& p = params.front();
    hints.worldSize = p.rankSize;
    hints.tensorParallel = p.tp;
    hints.pipelineParallel = p.pp;
    hints.virtualStages = p.vpp;
    hints.order = p.order;
    hints.sources << QObject::tr("world_size, tp, pp, vpp and order: the graph's parallel-merge flags "
                                 "(--rank_size %1 --tp %2 --pp %3 --vpp %4 --order %5)")
                         .arg(p.rankSize)
                         .arg(p.tp)
                         .arg(p.pp)
                         .arg(p.vpp)
                         .arg(QString::fromStdString(p.order));
    return hints;
}

std::vector<int> groupRanksInText(const std::string& text)
{
    static const std::regex groupRanks(R"xx("group_ranks"\s*:\s*"?\[([0-9,\s]*)\])xx");
    std::smatch match;
    if (!std::regex_search(text, match, groupRanks))
        return {};
    std::vector<int> ranks;
    const std::string list = match[1];
    static const std::regex number(R"(\d+)");
    for (std::sregex_iterator it(list.begin(), list.end(), number), end; it != end; ++it)
        ranks.push_back(std::stoi(it->str()));
    return ranks;
}

std::vector<int> groupRanksInDumpJson(const std::filesystem::path& dumpJson)
{
    std::ifstream in(dumpJson, std::ios::binary);
    if (!in)
        return {};
    // Entries are keyed "Distributed.all_reduce.0.forward": {...}; the first group_ranks after such a key is its
    // process group's (the entry's input group).
    std::string window;
    std::size_t read = 0;
    std::size_t collectiveAt = std::string::npos;
    char buffer[1 << 16];
    while (read < kMaxScanBytes && in) {
        in.read(buffer, sizeof buffer);
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0)
            break;
        read += got;
        window.append(buffer, got);
        if (collectiveAt == std::string::npos) {
            for (std::string_view key : { "reduce_scatter", "all_reduce" }) {
                const std::size_t at = window.find(key);
                if (at != std::string::npos)
                    collectiveAt = std::min(collectiveAt, at);
            }
            if (collectiveAt == std::string::npos) {
                window.erase(0, window.size() > 64 ? window.size() - 64 : 0); // keep a key split across reads
                continue;
            }
        }
        const std::size_t groupAt = window.find("\"group_ranks\"", collectiveAt);
        if (groupAt == std::string::npos)
            continue;
        const std::size_t close = window.find(']', groupAt);
        if (close == std::string::npos)
            continue;
        return groupRanksInText(window.substr(groupAt, close - groupAt + 1));
    }
    return {};
}

int layerCountInGraph(const msprobe::graph::VisGraph& graph)
{
    // "Module.0.module.language_model.encoder.layers.3.ParallelTransformerLayer.forward.0": chunk 0, layer 3.
    static const std::regex layer(R"(^Module\.(?:(\d+)\.)?.*?\.layers?\.(\d+)\.)");
    std::set<std::pair<std::string, std::string>> seen;
    std::smatch match;
    for (const auto& node : graph.nodes)
        if (node.type == 0 && std::regex_search(node.name, match, layer))
            seen.emplace(match[1].str(), match[2].str());
    return static_cast<int>(seen.size());
}

ParallelHints hintsFromSession(const StudioSession& session)
{
    ParallelHints hints = hintsFromMergeFlags(session.request().parallelMerge);
    const bool merged = !session.request().parallelMerge.empty();
    if (!merged) {
        const auto ranks = session.ranks();
        const auto summary = session.summary();
        if (summary && !summary->ranks.empty()) {
            const std::string firstStep = summary->ranks.front().step;
            long long count = 0;
            for (const auto& rank : summary->ranks)
                count += rank.step == firstStep ? 1 : 0;
            hints.worldSize = count;
            hints.sources << QObject::tr("world_size %1: the rank folders of the dump").arg(count);
        } else if (!ranks.empty()) {
            hints.worldSize = static_cast<long long>(ranks.size());
            hints.sources << QObject::tr("world_size %1: the ranks opened").arg(ranks.size());
        }
        std::vector<int> group;
        QString where;
        if (summary) {
            for (const auto& rank : summary->ranks) {
                group = groupRanksInDumpJson(rank.dumpJson);
                if (!group.empty()) {
                    where = QString::fromStdString(rank.dumpJson);
                    break;
                }
            }
        }
        if (group.empty() && !session.graphs().empty()) {
            const int step = session.graphs().begin()->first.first;
            for (const auto& [key, pair] : session.graphs()) {
                if (key.first != step || !pair.problem)
                    continue;
                for (const auto& node : pair.problem->nodes) {
                    if (!isCollective(node.name))
                        continue;
                    group = groupRanksInText(session.nodeData(key.first, key.second, StudioFocus::Side::Problem, node.name).first);
                    if (!group.empty())
                        where = QObject::tr("%1 (step %2, rank %3 of the graph)").arg(QString::fromStdString(node.name)).arg(key.first).arg(key.second);
                    break;
                }
                if (!group.empty())
                    break;
            }
        }
        if (!group.empty()) {
            hints.tpGroup = group;
            hints.tensorParallel = static_cast<long long>(group.size());
            hints.sources << QObject::tr("tp %1: group_ranks %2 of the first reduce_scatter/all_reduce in %3")
                                 .arg(group.size())
                                 .arg(rankList(group), where);
        }
    }
    int layers = 0;
    for (const auto& [key, pair] : session.graphs())
        if (pair.problem)
            layers = std::max(layers, layerCountInGraph(*pair.problem));
    if (layers > 0) {
        // A merged graph holds the whole model; a rank's own graph the layers of its pipeline stage.
        const long long stages = merged ? 1 : hints.pipelineParallel.value_or(1);
        hints.numLayers = layers * stages;
        hints.sources << (merged ? QObject::tr("num_layers %1: the layers.N modules of the merged graph").arg(layers)
                                 : QObject::tr("num_layers %1: %2 layers.N modules in a rank's graph × pp %3")
                                       .arg(layers * stages)
                                       .arg(layers)
                                       .arg(stages));
    }
    return hints;
}

msprobe::parallel::ParallelConfig configFromHints(const ParallelHints& hints, const msprobe::parallel::ParallelConfig& fallback)
{
    msprobe::parallel::ParallelConfig config = fallback;
    if (hints.worldSize)
        config.worldSize = *hints.worldSize;
    if (hints.numLayers)
        config.numLayers = *hints.numLayers;
    if (hints.tensorParallel)
        config.tensorParallelSize = *hints.tensorParallel;
    if (hints.pipelineParallel)
        config.pipelineParallelSize = *hints.pipelineParallel;
    if (hints.order)
        config.order = *hints.order;
    if (hints.virtualStages) {
        config.layersPerVirtualStage.reset();
        const long long stages = config.pipelineParallelSize - (config.standaloneEmbeddingStage ? 1 : 0);
        const long long vpp = *hints.virtualStages;
        if (vpp > 1 && stages > 0 && config.numLayers % stages == 0 && (config.numLayers / stages) % vpp == 0)
            config.layersPerVirtualStage = config.numLayers / stages / vpp;
    }
    return config;
}

std::optional<std::string> orderWithTpGroup(const msprobe::parallel::ParallelConfig& config, const std::vector<int>& group)
{
    std::vector<int> sorted = group;
    std::sort(sorted.begin(), sorted.end());
    const auto holds = [&](const std::string& order) {
        msprobe::parallel::ParallelConfig candidate = config;
        candidate.order = order;
        try {
            const auto layout = msprobe::parallel::deriveLayout(candidate);
            return std::any_of(layout.tpGroups.begin(), layout.tpGroups.end(), [&](std::vector<int> tp) {
                std::sort(tp.begin(), tp.end());
                return tp == sorted;
            });
        } catch (const msprobe::support::Error&) {
            return false;
        }
    };
    if (holds(config.order))
        return config.order;
    for (const char* order : { "tp-cp-ep-dp-pp", "tp-pp-dp", "dp-tp-pp", "pp-tp-dp", "dp-pp-tp", "pp-dp-tp" })
        if (holds(order))
            return std::string(order);
    return std::nullopt;
}

std::map<int, RowResult> worstResultPerRank(const StudioSession& session, int step)
{
    std::map<int, RowResult> worst;
    for (const auto& [key, rows] : session.compareResults()) {
        if (key.first != step || !rows)
            continue;
        RowResult result = RowResult::None;
        for (int row = 0; row < rows->rowCount() && result != RowResult::Error; ++row)
            result = std::max(result, rows->result(row));
        worst[key.second] = std::max(worst[key.second], result);
    }
    return worst;
}

QString rememberKey(const LoadRequest& request)
{
    QString text = QFileInfo(request.path).absoluteFilePath();
    if (!request.bench.isEmpty())
        text += QLatin1Char('\n') + QFileInfo(request.bench).absoluteFilePath();
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha1).toHex());
}

} // namespace msprobe::studio

ParallelSetup::ParallelSetup(StudioSession* session, QObject* parent)
    : QObject(parent ? parent : session)
    , m_session(session)
{
    if (session)
        connect(session, &StudioSession::loadFinished, this, [this](bool ok) {
            if (ok)
                readFromSession();
        });
}

QString ParallelSetup::setConfig(const msprobe::parallel::ParallelConfig& config, Source source, const QString& detail)
{
    try {
        m_layout = std::make_shared<const msprobe::parallel::ParallelLayout>(msprobe::parallel::deriveLayout(config));
    } catch (const msprobe::support::Error& error) {
        return QString::fromUtf8(error.what());
    }
    m_config = config;
    m_source = source;
    m_detail = detail;
    if (m_session && source == Source::User)
        remember(msprobe::studio::rememberKey(m_session->request()));
    emit changed();
    return {};
}

void ParallelSetup::clear()
{
    m_layout.reset();
    m_config = {};
    m_source = Source::None;
    m_detail.clear();
    emit changed();
}

QString ParallelSetup::sourceText() const
{
    QString text;
    switch (m_source) {
    case Source::None:
        return tr("No configuration: set one with Configure…");
    case Source::MergeFlags:
        text = tr("From the graph's parallel-merge flags.");
        break;
    case Source::Dumps:
        text = tr("Read from the dumps.");
        break;
    case Source::Remembered:
        text = tr("As last set for this input.");
        break;
    case Source::User:
        text = tr("As set in Configure….");
        break;
    case Source::CommandLine:
        text = tr("From the command line.");
        break;
    }
    return m_detail.isEmpty() ? text : text + QLatin1Char(' ') + m_detail;
}

void ParallelSetup::readFromSession()
{
    if (!m_session)
        return;
    m_hints = {};
    if (restore(msprobe::studio::rememberKey(m_session->request())))
        return;
    m_hints = msprobe::studio::hintsFromSession(*m_session);
    const bool merged = !m_session->request().parallelMerge.empty();
    if (!m_hints.worldSize || !m_hints.numLayers) {
        m_layout.reset();
        m_source = Source::None;
        m_detail = m_hints.sources.join(QStringLiteral("; "));
        emit changed();
        return;
    }
    msprobe::parallel::ParallelConfig config = msprobe::studio::configFromHints(m_hints, {});
    if (!merged && !m_hints.tpGroup.empty()) {
        // The dumps' group must be a TP group of the grid drawn; Megatron's default order may not make it one.
        if (const auto order = msprobe::studio::orderWithTpGroup(config, m_hints.tpGroup)) {
            if (*order != config.order)
                m_hints.sources << tr("order %1: the first that makes that group a TP group").arg(QString::fromStdString(*order));
            config.order = *order;
        } else {
            m_hints.sources << tr("no order of tp, dp and pp makes that group a TP group: check the configuration");
        }
    }
    const QString detail = m_hints.sources.join(QStringLiteral("; "));
    if (!setConfig(config, merged ? Source::MergeFlags : Source::Dumps, detail).isEmpty()) {
        m_layout.reset();
        m_source = Source::None;
        m_detail = detail;
        emit changed();
    }
}

void ParallelSetup::remember(const QString& key) const
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("parallel/") + key);
    settings.setValue(QStringLiteral("world_size"), m_config.worldSize);
    settings.setValue(QStringLiteral("num_layers"), m_config.numLayers);
    settings.setValue(QStringLiteral("tp"), m_config.tensorParallelSize);
    settings.setValue(QStringLiteral("pp"), m_config.pipelineParallelSize);
    settings.setValue(QStringLiteral("layers_per_virtual_stage"), m_config.layersPerVirtualStage.value_or(0));
    settings.setValue(QStringLiteral("order"), QString::fromStdString(m_config.order));
    settings.setValue(QStringLiteral("standalone_embedding_stage"), m_config.standaloneEmbeddingStage);
}

bool ParallelSetup::restore(const QString& key)
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("parallel/") + key);
    if (!settings.contains(QStringLiteral("world_size")))
        return false;
    msprobe::parallel::ParallelConfig config;
    config.worldSize = settings.value(QStringLiteral("world_size")).toLongLong();
    config.numLayers = settings.value(QStringLiteral("num_layers")).toLongLong();
    config.tensorParallelSize = settings.value(QStringLiteral("tp"), 1).toLongLong();
    config.pipelineParallelSize = settings.value(QStringLiteral("pp"), 1).toLongLong();
    if (const long long per = settings.value(QStringLiteral("layers_per_virtual_stage")).toLongLong(); per > 0)
        config.layersPerVirtualStage = per;
    config.order = settings.value(QStringLiteral("order"), QStringLiteral("tp-cp-ep-dp-pp")).toString().toStdString();
    config.standaloneEmbeddingStage = settings.value(QStringLiteral("standalone_embedding_stage")).toBool();
    return setConfig(config, Source::Remembered).isEmpty();
}
