// SPDX-License-Identifier: Apache-2.0
#include "compare/html_report.h"

#include "compare/tensor_metrics_files.h"
#include "support/markup_escape.h"

namespace msprobe::compare {

namespace {

constexpr std::size_t kMaxHtmlRows = 2000;

const char* kStyle = R"(body{font-family:sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:12px}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top;max-width:40em;overflow-wrap:anywhere}
th{background:#eee;cursor:pointer;position:sticky;top:0}
tr.error td{background:#ffc7ce}tr.warning td{background:#ffeb9c}
.pass{color:#2a7a2a}.warning{color:#9c6500}.error{color:#9c0006}
.note{color:#666}code{background:#f4f4f4;padding:1px 3px})";

// Click a header to sort its table (numbers numerically, text otherwise); click again to reverse.
const char* kScript = R"(document.querySelectorAll('table.sortable th').forEach(function(th){th.addEventListener('click',function(){
var table=th.closest('table'),body=table.tBodies[0],index=Array.prototype.indexOf.call(th.parentNode.children,th);
var asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';var rows=Array.prototype.slice.call(body.rows);
rows.sort(function(a,b){var x=a.cells[index].textContent,y=b.cells[index].textContent,p=parseFloat(x),q=parseFloat(y);
var r=(!isNaN(p)&&!isNaN(q))?p-q:x.localeCompare(y);return asc?r:-r;});rows.forEach(function(r){body.appendChild(r);});});});)";

void cellText(std::string& out, const Cell& cell)
{
    switch (cell.kind) {
    case Cell::Kind::Str:
    case Cell::Kind::List: support::appendMarkupEscaped(out, cell.text); return;
    case Cell::Kind::Int: out += std::to_string(cell.i); return;
    case Cell::Kind::Float: support::appendPythonFloatRepr(out, cell.f); return;
    case Cell::Kind::Bool: out += cell.b ? "True" : "False"; return;
    case Cell::Kind::Missing: return;
    }
}

std::string pairTitle(const PairOutcome& outcome)
{
    std::string title = outcome.pair.step.empty() ? std::string() : outcome.pair.step + "/";
    title += outcome.pair.label.empty() ? outcome.pair.npuJson.filename().string() : outcome.pair.label;
    return title;
}

void point(std::string& out, const char* what, const std::optional<DivergencePoint>& p)
{
    out += "<p><b>";
    out += what;
    out += ":</b> ";
    if (p) {
        out += "<code>";
        support::appendMarkupEscaped(out, p->entry);
        out += "</code> (row " + std::to_string(p->row + 2) + ") &mdash; ";
        support::appendMarkupEscaped(out, p->reason);
    } else {
        out += "<span class=note>none</span>";
    }
    out += "</p>\n";
}

} // namespace


std::string renderHtmlSection(const CompareTable& table, const PairOutcome& outcome)
{
    std::string out = "<h2>";
    support::appendMarkupEscaped(out, pairTitle(outcome));
    out += "</h2>\n<p class=note>";
    support::appendMarkupEscaped(out, outcome.pair.npuJson.string() + "  vs  " + outcome.pair.benchJson.string());
    out += " &mdash; mode " + outcome.mode + ", " + std::to_string(outcome.rows) + " rows</p>\n";
    if (const std::string cross = crossRuntimeText(outcome.crossRuntime); !cross.empty()) {
        out += "<p class=note>";
        support::appendMarkupEscaped(out, cross);
        out += "</p>\n";
    }
    for (const std::string& warning : pairWarnings(outcome)) {
        out += "<p class=warning><b>Warning:</b> ";
        support::appendMarkupEscaped(out, warning);
        out += "</p>\n";
    }
    point(out, "First divergence", outcome.firstDivergence);
    point(out, "NaN/Inf origin", outcome.firstNanInf);

    std::vector<std::size_t> shown;
    for (std::size_t r = 0; r < table.rows.size() && shown.size() < kMaxHtmlRows; ++r)
        if (table.rows[r].level != ResultLevel::Pass)
            shown.push_back(r);
    const std::size_t failing = shown.size();
    for (std::size_t r = 0; r < table.rows.size() && shown.size() < kMaxHtmlRows; ++r)
        if (table.rows[r].level == ResultLevel::Pass)
            shown.push_back(r);
    out += "<p class=note>Showing " + std::to_string(failing) + " non-pass rows first, then passing rows; "
        + std::to_string(shown.size()) + " of " + std::to_string(table.rows.size()) + " rows (the CSV/XLSX has all).</p>\n";
    const auto columns = table.columns();
    out += "<table class=sortable><thead><tr><th>#</th>";
    for (Column c : columns) {
        if (c == Column::Stack)
            continue;
        out += "<th>";
        support::appendMarkupEscaped(out, columnTitle(c));
        out += "</th>";
    }
    out += "</tr></thead><tbody>\n";
    Cell cell;
    for (std::size_t r : shown) {
        const ResultLevel level = table.rows[r].level;
        out += level == ResultLevel::Error ? "<tr class=error>" : level == ResultLevel::Warning ? "<tr class=warning>" : "<tr>";
        out += "<td>" + std::to_string(r + 2) + "</td>";
        for (Column c : columns) {
            if (c == Column::Stack)
                continue;
            table.cell(r, c, cell);
            out += "<td>";
            cellText(out, cell);
            out += "</td>";
        }
        out += "</tr>\n";
    }
    out += "</tbody></table>\n";
    return out;
}

std::string renderHtmlReport(const JobOutcome& job)
{
    std::size_t rows = 0, pass = 0, warning = 0, error = 0;
    for (const auto& p : job.pairs) {
        rows += p.rows;
        pass += p.pass;
        warning += p.warning;
        error += p.error;
    }
    std::string out = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>msprobe compare report</title><style>";
    out += kStyle;
    out += "</style></head><body>\n<h1>msprobe compare report</h1>\n";
    out += "<p>Verdict: <b class=" + std::string(toString(job.worst)) + ">" + std::string(toString(job.worst)) + "</b> &mdash; "
        + std::to_string(rows) + " rows: <span class=pass>" + std::to_string(pass) + " pass</span>, <span class=warning>"
        + std::to_string(warning) + " warning</span>, <span class=error>" + std::to_string(error) + " error</span>; "
        + std::to_string(job.unpaired) + " unpaired (no bench partner); " + tensorFileProblemCount(job.unreadableFiles)
        + "</p>\n";
    if (tooManyUnpaired(job.unpaired, job.rows)) {
        out += "<p class=warning><b>Warning:</b> ";
        support::appendMarkupEscaped(out, unpairedText(job.unpaired, job.rows) + ": more than a tenth of the rows were not compared");
        out += "</p>\n";
    }
    out += "<h2>Per rank</h2>\n<table class=sortable><thead><tr><th>pair</th><th>mode</th><th>rows</th><th>pass</th><th>warning</th>"
           "<th>error</th><th>unpaired</th><th>unreadable tensor files</th><th>first divergence</th><th>NaN/Inf origin</th><th>output</th></tr></thead><tbody>\n";
    for (const auto& p : job.pairs) {
        out += "<tr><td>";
        support::appendMarkupEscaped(out, pairTitle(p));
        out += "</td><td>" + p.mode + "</td><td>" + std::to_string(p.rows) + "</td><td>" + std::to_string(p.pass) + "</td><td>"
            + std::to_string(p.warning) + "</td><td>" + std::to_string(p.error) + "</td><td>" + std::to_string(p.unpaired)
            + "</td><td>" + std::to_string(p.unreadableFiles) + "</td><td>";
        if (p.firstDivergence)
            support::appendMarkupEscaped(out, p.firstDivergence->entry);
        out += "</td><td>";
        if (p.firstNanInf)
            support::appendMarkupEscaped(out, p.firstNanInf->entry);
        out += "</td><td>";
        if (!p.outputs.empty())
            support::appendMarkupEscaped(out, p.outputs.front().filename().string());
        else
            support::appendMarkupEscaped(out, p.note);
        out += "</td></tr>\n";
    }
    out += "</tbody></table>\n<h2>First divergent entries</h2>\n<ul>\n";
    bool any = false;
    for (const auto& p : job.pairs) {
        if (!p.firstDivergence)
            continue;
        any = true;
        out += "<li>";
        support::appendMarkupEscaped(out, pairTitle(p));
        out += ": <code>";
        support::appendMarkupEscaped(out, p.firstDivergence->entry);
        out += "</code> &mdash; ";
        support::appendMarkupEscaped(out, p.firstDivergence->reason);
        out += "</li>\n";
    }
    if (!any)
        out += "<li class=note>none: no non-tensor argument differs and no output leaves tolerance while its inputs stay "
               "within it</li>\n";
    out += "</ul>\n";
    for (const auto& p : job.pairs)
        out += p.htmlSection;
    out += "<script>";
    out += kScript;
    out += "</script>\n</body></html>\n";
    return out;
}

} // namespace msprobe::compare
