// SPDX-License-Identifier: Apache-2.0
#include "reportexport.h"

#include "support/atomic_file.h"
#include "compare/compare_job.h"
#include "compare/csv_writer.h"
#include "compare/html_report.h"
#include "compare/xlsx_writer.h"
#include "support/error.h"

#include <QObject>

namespace msprobe::studio::reportexport {

namespace {

std::filesystem::path nativePath(const QString& file) { return std::filesystem::path(file.toStdString()); }

void writeHtml(const StudioSession& session, const QString& file)
{
    std::vector<msprobe::compare::ComparedTable> tables;
    for (const auto& [key, rows] : session.compareResults()) {
        if (!rows->table())
            continue;
        msprobe::compare::ComparedTable compared;
        // The pair as the session resolved it from the dumps (its dump.json paths): the report then reads the NPU
        // side's construct.json for the innermost-entry rule, as `msprobe compare` does, and names the pair alike.
        if (const msprobe::compare::PairOutcome* verdict = session.verdict(key.first, key.second)) {
            compared.pair = verdict->pair;
        } else {
            compared.pair.label = "rank" + std::to_string(key.second);
            compared.pair.step = "step" + std::to_string(key.first);
        }
        compared.table = rows->table();
        tables.push_back(std::move(compared));
    }
    msprobe::compare::JobOptions options;
    options.html = true;
    msprobe::support::AtomicFile out(nativePath(file));
    out.write(msprobe::compare::renderHtmlReport(msprobe::compare::outcomeOfTables(tables, options)));
    out.commit();
}

} // namespace

bool canExport(const StudioSession& session)
{
    for (const auto& [key, rows] : session.compareResults())
        if (rows->table())
            return true;
    return false;
}

QString exportComparison(const StudioSession& session, int step, int rank, Format format, const QString& file)
{
    try {
        if (format == Format::Html) {
            if (!canExport(session))
                return QObject::tr("There is no comparison to export.");
            writeHtml(session, file);
            return QString();
        }
        const auto rows = session.compareRows(step, rank);
        const msprobe::compare::CompareTable* table = rows ? rows->table() : nullptr;
        if (!table)
            return QObject::tr("There is no comparison for step %1, rank %2 to export.").arg(step).arg(rank);
        if (format == Format::Xlsx) {
            msprobe::compare::writeXlsx(*table, nativePath(file));
        } else {
            msprobe::support::AtomicFile out(nativePath(file));
            msprobe::compare::streamCsv(*table, 0, table->rows.size(), 1, [&out](std::string_view block) { out.write(block); });
            out.commit();
        }
        return QString();
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
}

} // namespace msprobe::studio::reportexport
