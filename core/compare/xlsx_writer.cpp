// SPDX-License-Identifier: Apache-2.0
#include "compare/xlsx_writer.h"

#include "support/atomic_file.h"
#include "compare/legacy_result.h"
#include "support/error.h"

#include <xlsxwriter.h>

#include <cmath>

namespace msprobe::compare {

namespace {

constexpr std::size_t kMaxSheetRows = 1048500;
constexpr std::size_t kMaxCellText = 32767;

struct WorkbookCloser {
    lxw_workbook* workbook = nullptr;
    ~WorkbookCloser()
    {
        if (workbook)
            workbook_close(workbook);
    }
};

void check(lxw_error error, const std::filesystem::path& path)
{
    if (error != LXW_NO_ERROR)
        throw support::Error(path.string(), {}, std::string("xlsx write failed: ") + lxw_strerror(error));
}

} // namespace

std::filesystem::path writeXlsx(const CompareTable& table, const std::filesystem::path& path, const std::atomic<bool>* cancel,
    support::AtomicFile::OnClash onClash)
{
    support::AtomicFile output(path, onClash);
    const std::string temp = output.temporaryPath().string() + ".xlsx";
    support::registerTemporaryFile(temp); // libxlsxwriter writes it by path: removed on an interruption too
    struct TempRemover {
        std::string file;
        ~TempRemover()
        {
            std::remove(file.c_str());
            support::unregisterTemporaryFile(file);
        }
    } remover { temp };

    lxw_workbook_options options {};
    options.constant_memory = LXW_TRUE;
    options.use_zip64 = LXW_TRUE;
    WorkbookCloser closer;
    closer.workbook = workbook_new_opt(temp.c_str(), &options);
    if (!closer.workbook)
        throw support::Error(path.string(), {}, "cannot create the xlsx file");
    lxw_workbook* workbook = closer.workbook;

    lxw_format* headerFormat = workbook_add_format(workbook);
    format_set_bold(headerFormat);
    lxw_format* red = workbook_add_format(workbook);
    lxw_format* yellow = workbook_add_format(workbook);
    if (table.options.legacyResult) {
        format_set_bg_color(red, 0xFF0000);
        format_set_bg_color(yellow, 0xFFFF00);
    } else {
        format_set_bg_color(red, 0xFFC7CE);
        format_set_bg_color(yellow, 0xFFEB9C);
    }
    format_set_pattern(red, LXW_PATTERN_SOLID);
    format_set_pattern(yellow, LXW_PATTERN_SOLID);

    HighlightResult highlight;
    if (table.options.legacyResult && table.mode != CompareMode::Md5 && table.rows.size() <= kMaxSheetRows)
        highlight = legacyHighlight(table);

    const auto columns = table.columns();
    const auto header = table.header();
    const std::size_t rows = table.rows.size();
    const std::size_t sheets = rows < kMaxSheetRows ? 1 : (rows + kMaxSheetRows - 1) / kMaxSheetRows;
    const std::size_t sliceSize = sheets == 1 ? rows : (rows + sheets - 1) / sheets;
    Cell cell;
    std::string text;
    for (std::size_t s = 0; s < sheets; ++s) {
        const std::string sheetName = sheets == 1 ? "Sheet1" : "part_" + std::to_string(s);
        lxw_worksheet* sheet = workbook_add_worksheet(workbook, sheetName.c_str());
        for (std::size_t c = 0; c < header.size(); ++c)
            check(worksheet_write_string(sheet, 0, static_cast<lxw_col_t>(c), header[c].c_str(), headerFormat), path);
        const std::size_t begin = s * sliceSize, end = std::min(rows, begin + sliceSize);
        for (std::size_t r = begin; r < end; ++r) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                throw support::Error("cancelled");
            const auto excelRow = static_cast<lxw_row_t>(r - begin + 1);
            lxw_format* format = nullptr;
            if (!highlight.rows.empty()) {
                format = highlight.rows[r] == Highlight::Red ? red : highlight.rows[r] == Highlight::Yellow ? yellow : nullptr;
            } else if (!table.options.legacyResult && !table.options.firstDiffAnalyze) {
                format = table.rows[r].level == ResultLevel::Error ? red : table.rows[r].level == ResultLevel::Warning ? yellow : nullptr;
            }
            for (std::size_t c = 0; c < columns.size(); ++c) {
                const auto col = static_cast<lxw_col_t>(c);
                table.cell(r, columns[c], cell);
                if (columns[c] == Column::ErrMessage && !highlight.rows.empty() && !highlight.messages[r].empty()) {
                    cell.kind = Cell::Kind::Str;
                    if (!cell.text.empty())
                        cell.text += '\n';
                    cell.text += highlight.messages[r];
                }
                lxw_error error = LXW_NO_ERROR;
                switch (cell.kind) {
                case Cell::Kind::Int: error = worksheet_write_number(sheet, excelRow, col, static_cast<double>(cell.i), format); break;
                case Cell::Kind::Float:
                    if (std::isfinite(cell.f)) {
                        error = worksheet_write_number(sheet, excelRow, col, cell.f, format);
                    } else {
                        text = std::isnan(cell.f) ? "nan" : (cell.f > 0 ? "inf" : "-inf");
                        error = worksheet_write_string(sheet, excelRow, col, text.c_str(), format);
                    }
                    break;
                case Cell::Kind::Bool: error = worksheet_write_boolean(sheet, excelRow, col, cell.b, format); break;
                case Cell::Kind::Missing: error = worksheet_write_blank(sheet, excelRow, col, format); break;
                case Cell::Kind::Str:
                case Cell::Kind::List:
                    if (cell.text.size() > kMaxCellText)
                        cell.text.resize(kMaxCellText);
                    error = cell.text.empty() ? worksheet_write_blank(sheet, excelRow, col, format)
                                              : worksheet_write_string(sheet, excelRow, col, cell.text.c_str(), format);
                    break;
                }
                check(error, path);
            }
        }
        worksheet_freeze_panes(sheet, 1, 0);
        if (!columns.empty())
            worksheet_autofilter(sheet, 0, 0, static_cast<lxw_row_t>(end - begin), static_cast<lxw_col_t>(columns.size() - 1));
    }
    const lxw_error closed = workbook_close(workbook);
    closer.workbook = nullptr;
    check(closed, path);
    std::error_code ec;
    std::filesystem::rename(temp, output.temporaryPath(), ec);
    if (ec)
        throw support::Error(path.string(), {}, "cannot move the xlsx file into place: " + ec.message());
    output.commit();
    return output.finalPath();
}

} // namespace msprobe::compare
