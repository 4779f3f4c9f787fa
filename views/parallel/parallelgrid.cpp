// SPDX-License-Identifier: Apache-2.0
#include "parallelgrid.h"

#include "parallel/parallel_plot.h"
#include "parallel/plot_colors.h"

#include <QCoreApplication>

#include <algorithm>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ParallelGrid", text);
}

// "0-3" for consecutive ranks, else "0, 8, 16" (shortened after 16 entries).
QString rankText(const std::vector<int>& ranks)
{
    if (ranks.empty())
        return {};
    const auto [low, high] = std::minmax_element(ranks.begin(), ranks.end());
    if (static_cast<std::size_t>(*high - *low + 1) == ranks.size() && ranks.size() > 2)
        return QStringLiteral("%1-%2").arg(*low).arg(*high);
    QStringList parts;
    for (std::size_t i = 0; i < ranks.size() && i < 16; ++i)
        parts << QString::number(ranks[i]);
    if (ranks.size() > 16)
        parts << QStringLiteral("… (%1)").arg(ranks.size());
    return parts.join(QStringLiteral(", "));
}

} // namespace

ParallelGrid::ParallelGrid(std::shared_ptr<const msprobe::parallel::ParallelLayout> layout, int maxDetailedRows)
    : m_layout(std::move(layout))
{
    if (!m_layout)
        return;
    const auto& l = *m_layout;
    const int limit = maxDetailedRows < 0 ? msprobe::parallel::kMaxDetailedRows : maxDetailedRows;
    const int world = l.sizes.worldSize;
    m_copyOfRank.assign(static_cast<std::size_t>(world), -1);
    for (std::size_t k = 0; k < l.copies.size(); ++k)
        for (int rank : l.copies[k])
            m_copyOfRank[static_cast<std::size_t>(rank)] = static_cast<int>(k);
    m_rowOfRank.assign(static_cast<std::size_t>(world), -1);
    m_summarised = static_cast<int>(l.rows.size()) > limit && l.copyCount() > 1;
    if (!m_summarised) {
        for (std::size_t t = 0; t < l.rows.size(); ++t) {
            m_rowLabels.push_back(QString::fromStdString(l.rows[t].label));
            m_rowCopy.push_back(l.rows[t].copy);
            m_rowStage.push_back(l.rows[t].pipelineStage);
            m_rowRanks.push_back(l.tpGroups[t]);
            for (int rank : l.tpGroups[t])
                m_rowOfRank[static_cast<std::size_t>(rank)] = static_cast<int>(t);
        }
        return;
    }
    const int stages = l.sizes.pipelineParallel;
    m_rowRanks.resize(static_cast<std::size_t>(stages));
    for (const auto& group : l.ppGroups)
        for (std::size_t s = 0; s < group.size(); ++s) {
            m_rowRanks[s].push_back(group[s]);
            m_rowOfRank[static_cast<std::size_t>(group[s])] = static_cast<int>(s);
        }
    for (auto& ranks : m_rowRanks)
        std::sort(ranks.begin(), ranks.end());
    for (int s = 0; s < stages; ++s) {
        m_rowLabels.push_back(tr("PP stage %1: %2 TP groups").arg(s).arg(l.copyCount()));
        m_rowCopy.push_back(-1);
        m_rowStage.push_back(s);
    }
}

QString ParallelGrid::title() const { return m_layout ? QString::fromStdString(m_layout->title) : QString(); }

QString ParallelGrid::columnLabel(int column) const { return QStringLiteral("Stage %1").arg(column); }

QString ParallelGrid::cellText(int row, int column) const
{
    const auto& chunks = m_layout->stageChunks[static_cast<std::size_t>(rowPipelineStage(row))];
    return QString::fromStdString(chunks[static_cast<std::size_t>(column)].text());
}

int ParallelGrid::rowOfRank(int rank) const
{
    return rank >= 0 && static_cast<std::size_t>(rank) < m_rowOfRank.size() ? m_rowOfRank[static_cast<std::size_t>(rank)] : -1;
}

int ParallelGrid::copyOfRank(int rank) const
{
    return rank >= 0 && static_cast<std::size_t>(rank) < m_copyOfRank.size() ? m_copyOfRank[static_cast<std::size_t>(rank)] : -1;
}

QString ParallelGrid::tooltip(int row, int column) const
{
    const auto& chunk = m_layout->stageChunks[static_cast<std::size_t>(rowPipelineStage(row))][static_cast<std::size_t>(column)];
    QStringList holds;
    if (chunk.embedding)
        holds << tr("embedding");
    if (chunk.firstLayer > 0)
        holds << tr("layers %1–%2").arg(chunk.firstLayer).arg(chunk.lastLayer);
    if (chunk.outputLayer)
        holds << tr("output layer");
    const QString layers = holds.isEmpty() ? tr("nothing (an empty chunk)") : holds.join(QStringLiteral(", "));
    const std::vector<int>& ranks = rowRanks(row);
    QStringList lines;
    if (m_summarised) {
        lines << tr("Ranks %1 (%2 TP groups)").arg(rankText(ranks)).arg(copyCount());
        lines << tr("PP stage %1, every DP copy (1–%2)").arg(rowPipelineStage(row)).arg(copyCount());
    } else {
        lines << tr("Ranks %1 (TP group %2)").arg(rankText(ranks)).arg(row);
        lines << tr("PP stage %1, DP copy %2 of %3").arg(rowPipelineStage(row)).arg(rowCopy(row) + 1).arg(copyCount());
    }
    lines << tr("Virtual stage %1: %2").arg(column).arg(layers);
    return lines.join(QLatin1Char('\n'));
}

QColor ParallelGrid::copyColor(int copy, int copyCount)
{
    const auto rgb = msprobe::parallel::copyColor(copy, copyCount);
    return QColor::fromRgbF(static_cast<float>(rgb.r), static_cast<float>(rgb.g), static_cast<float>(rgb.b));
}
