// SPDX-License-Identifier: Apache-2.0
#include "comparerows.h"

#include "graph/visdb/vis_db_reader.h"

#include <QLocale>
#include <QStringList>

#include <algorithm>

namespace msprobe::studio {

namespace {

QString fromUtf8(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

class ComparedRows final : public CompareRows {
public:
    explicit ComparedRows(std::shared_ptr<const msprobe::compare::CompareTable> table)
        : m_table(std::move(table))
        , m_columns(m_table->columns())
    {
    }
    int rowCount() const override { return static_cast<int>(m_table->rows.size()); }
    int columnCount() const override { return static_cast<int>(m_columns.size()); }
    QString header(int column) const override { return fromUtf8(msprobe::compare::columnTitle(m_columns[static_cast<std::size_t>(column)])); }
    QString text(int row, int column) const override
    {
        msprobe::compare::Cell cell;
        m_table->cell(static_cast<std::size_t>(row), m_columns[static_cast<std::size_t>(column)], cell);
        switch (cell.kind) {
        case msprobe::compare::Cell::Kind::Str:
        case msprobe::compare::Cell::Kind::List: return fromUtf8(cell.text);
        case msprobe::compare::Cell::Kind::Int: return QString::number(cell.i);
        case msprobe::compare::Cell::Kind::Float: return QString::number(cell.f, 'g', QLocale::FloatingPointShortest);
        case msprobe::compare::Cell::Kind::Bool: return cell.b ? QStringLiteral("True") : QStringLiteral("False");
        case msprobe::compare::Cell::Kind::Missing: return QString();
        }
        return QString();
    }
    RowResult result(int row) const override
    {
        switch (m_table->rows[static_cast<std::size_t>(row)].level) {
        case msprobe::compare::ResultLevel::Pass: return RowResult::Pass;
        case msprobe::compare::ResultLevel::Warning: return RowResult::Warning;
        case msprobe::compare::ResultLevel::Error: return RowResult::Error;
        }
        return RowResult::None;
    }
    QString npuName(int row) const override
    {
        msprobe::compare::Cell cell;
        m_table->cell(static_cast<std::size_t>(row), msprobe::compare::Column::NpuName, cell);
        return fromUtf8(cell.text);
    }
    const msprobe::compare::CompareTable* table() const override { return m_table.get(); }

private:
    std::shared_ptr<const msprobe::compare::CompareTable> m_table;
    std::vector<msprobe::compare::Column> m_columns;
};

class CsvRows final : public CompareRows {
public:
    explicit CsvRows(msprobe::support::CsvTable csv)
        : m_csv(std::move(csv))
        , m_result(m_csv.column("Result"))
        , m_name(std::max(0, m_csv.column("NPU Name")))
    {
    }
    int rowCount() const override { return static_cast<int>(m_csv.rows.size()); }
    int columnCount() const override { return static_cast<int>(m_csv.header.size()); }
    QString header(int column) const override { return fromUtf8(m_csv.header[static_cast<std::size_t>(column)]); }
    QString text(int row, int column) const override
    {
        return fromUtf8(m_csv.rows[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)]);
    }
    RowResult result(int row) const override { return m_result < 0 ? RowResult::None : rowResultOf(text(row, m_result)); }
    QString npuName(int row) const override { return text(row, m_name); }

private:
    msprobe::support::CsvTable m_csv;
    int m_result, m_name;
};

class CombinedRows final : public CompareRows {
public:
    explicit CombinedRows(std::vector<CompareRowsPart> parts)
        : m_parts(std::move(parts))
    {
        const CompareRows& first = *m_parts.front().rows;
        for (int c = 0; c < first.columnCount(); ++c)
            m_headers << first.header(c);
        for (const auto& part : m_parts) {
            m_starts.push_back(m_total);
            m_total += part.rows->rowCount();
            std::vector<int> map;
            for (const QString& title : m_headers)
                map.push_back(part.rows->column(title));
            m_columnMaps.push_back(std::move(map));
        }
    }
    int rowCount() const override { return m_total; }
    int columnCount() const override { return static_cast<int>(m_headers.size()) + 2; }
    QString header(int column) const override
    {
        return column == 0 ? QStringLiteral("Step") : column == 1 ? QStringLiteral("Rank") : m_headers[column - 2];
    }
    QString text(int row, int column) const override
    {
        const auto [part, local] = locate(row);
        if (column < 2)
            return QString::number(column == 0 ? m_parts[part].step : m_parts[part].rank);
        const int mapped = m_columnMaps[part][static_cast<std::size_t>(column - 2)];
        return mapped < 0 ? QString() : m_parts[part].rows->text(local, mapped);
    }
    RowResult result(int row) const override
    {
        const auto [part, local] = locate(row);
        return m_parts[part].rows->result(local);
    }
    QString npuName(int row) const override
    {
        const auto [part, local] = locate(row);
        return m_parts[part].rows->npuName(local);
    }
    std::pair<int, int> origin(int row) const override
    {
        const auto [part, local] = locate(row);
        return { m_parts[part].step, m_parts[part].rank };
    }

private:
    std::pair<std::size_t, int> locate(int row) const
    {
        const auto it = std::upper_bound(m_starts.begin(), m_starts.end(), row);
        const std::size_t part = static_cast<std::size_t>(it - m_starts.begin()) - 1;
        return { part, row - m_starts[part] };
    }

    std::vector<CompareRowsPart> m_parts;
    QStringList m_headers;
    std::vector<int> m_starts;
    std::vector<std::vector<int>> m_columnMaps;
    int m_total = 0;
};

} // namespace

std::shared_ptr<const CompareRows> combinedCompareRows(std::vector<CompareRowsPart> parts)
{
    std::erase_if(parts, [](const CompareRowsPart& p) { return !p.rows; });
    if (parts.empty())
        return nullptr;
    std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return std::pair(a.step, a.rank) < std::pair(b.step, b.rank); });
    return std::make_shared<CombinedRows>(std::move(parts));
}

int CompareRows::column(const QString& title) const
{
    for (int c = 0; c < columnCount(); ++c)
        if (header(c) == title)
            return c;
    return -1;
}

std::shared_ptr<const CompareRows> compareRowsOf(std::shared_ptr<const msprobe::compare::CompareTable> table)
{
    return std::make_shared<ComparedRows>(std::move(table));
}

std::shared_ptr<const CompareRows> compareRowsOf(msprobe::support::CsvTable csv) { return std::make_shared<CsvRows>(std::move(csv)); }

RowResult rowResultOf(const QString& resultCell)
{
    const QString level = resultCell.trimmed().toLower();
    if (level == QLatin1String("pass"))
        return RowResult::Pass;
    if (level == QLatin1String("warning"))
        return RowResult::Warning;
    if (level == QLatin1String("error"))
        return RowResult::Error;
    return RowResult::None;
}

QString nodeOwningItem(const msprobe::graph::VisGraph& graph, const QString& itemName)
{
    std::string name = itemName.toStdString();
    while (!name.empty()) {
        if (graph.find(name) != msprobe::graph::kNoVisNode)
            return QString::fromStdString(name);
        const auto dot = name.rfind('.');
        if (dot == std::string::npos)
            break;
        name.resize(dot);
    }
    return QString();
}

} // namespace msprobe::studio
