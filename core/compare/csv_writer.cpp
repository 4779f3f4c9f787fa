// SPDX-License-Identifier: Apache-2.0
#include "compare/csv_writer.h"

#include "compare/stats_diff.h"
#include "compare/tensor_metrics_files.h"
#include "support/error.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <thread>
#include <unordered_map>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace msprobe::compare {

namespace {

bool needsQuotes(std::string_view text)
{
    const char* p = text.data();
    const char* end = p + text.size();
#ifdef __SSE2__
    const __m128i comma = _mm_set1_epi8(','), quote = _mm_set1_epi8('"'), cr = _mm_set1_epi8('\r'), lf = _mm_set1_epi8('\n');
    for (; end - p >= 16; p += 16) {
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(chunk, comma), _mm_cmpeq_epi8(chunk, quote)),
            _mm_or_si128(_mm_cmpeq_epi8(chunk, cr), _mm_cmpeq_epi8(chunk, lf)));
        if (_mm_movemask_epi8(hits))
            return true;
    }
#endif
    for (; p < end; ++p)
        if (*p == ',' || *p == '"' || *p == '\r' || *p == '\n')
            return true;
    return false;
}

void appendQuoted(std::string& out, std::string_view text)
{
    if (!needsQuotes(text)) {
        out += text;
        return;
    }
    out += '"';
    for (std::size_t start = 0;;) {
        const std::size_t quote = text.find('"', start);
        if (quote == std::string_view::npos) {
            out += text.substr(start);
            break;
        }
        out += text.substr(start, quote - start + 1);
        out += '"';
        start = quote + 1;
    }
    out += '"';
}

bool isStatDiffColumn(Column c)
{
    return c >= Column::MaxDiff && c <= Column::NormRelativeErr;
}

// Quotes out[start..] in place when it needs it (text appended without a temporary, quoted in the rare case).
void quoteAppended(std::string& out, std::size_t start)
{
    if (!needsQuotes(std::string_view(out).substr(start)))
        return;
    const std::string text = out.substr(start);
    out.resize(start);
    appendQuoted(out, text);
}

bool isStatValueColumn(Column c)
{
    return c >= Column::NpuMax && c <= Column::BenchNorm;
}

// A statistic cell as pandas writes it (the value setPyCell would hold, through appendCsvField).
void appendStatistic(std::string& out, const PyVal& value)
{
    switch (value.kind) {
    case PyKind::Str: appendQuoted(out, value.s); return;
    case PyKind::Int: {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, value.i);
        out.append(buf, r.ptr);
        return;
    }
    case PyKind::Float:
        if (std::isinf(value.f))
            out += value.f > 0 ? " inf" : " -inf";
        else
            support::appendPythonFloatRepr(out, value.f);
        return;
    case PyKind::Bool: out += value.b ? "True" : "False"; return;
    }
}

// Renders rows of one table, reusing per-row and per-table work across cells: the eight statistics (fetched and
// printed once per row; each feeds a value column and a diff), the four statistic diffs (each feeds two columns),
// the Err_message texts and the quoted stack lists (one list is shared by many entries). The exact-match table's
// common columns are appended directly; other tables go through CompareTable::cell.
class RowRenderer {
public:
    RowRenderer(const CompareTable& table, const std::vector<Column>& columns)
        : m_table(table)
        , m_columns(columns)
        , m_direct(!table.consistent() && !table.options.firstDiffAnalyze && !table.options.legacyResult)
    {
    }

    void append(std::string& out, std::size_t r)
    {
        const CompareRow& row = m_table.rows[r];
        m_statsReady = m_diffsReady = false;
        if (m_direct && m_table.stackMode)
            lookAhead(r);
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            if (c)
                out += ',';
            const Column column = m_columns[c];
            if (isStatDiffColumn(column)) {
                computeDiffs(row);
                const int offset = static_cast<int>(column) - static_cast<int>(Column::MaxDiff);
                appendQuoted(out, offset < 4 ? m_diff[offset] : m_rel[offset - 4]);
            } else if (isStatValueColumn(column)) {
                fetchStats(row);
                const int offset = static_cast<int>(column) - static_cast<int>(Column::NpuMax);
                const int side = offset / 4, k = offset % 4;
                if (m_printed[side][k])
                    out += m_statText[side][k];
                else
                    appendStatistic(out, m_stat[side][k]);
            } else if (column == Column::Stack) {
                appendStack(out, r);
            } else if (!m_direct || !appendDirect(out, row, column)) {
                m_table.cell(r, column, m_cell);
                appendCsvField(out, m_cell);
            }
        }
        out += '\n';
    }

private:
    void fetchStats(const CompareRow& row)
    {
        if (m_statsReady)
            return;
        m_table.statistics(row, true, m_stat[0]);
        m_table.statistics(row, false, m_stat[1]);
        for (int side = 0; side < 2; ++side)
            for (int k = 0; k < 4; ++k) {
                const PyVal& v = m_stat[side][k];
                m_printed[side][k] = v.kind == PyKind::Float && !std::isinf(v.f);
                if (!m_printed[side][k])
                    continue;
                std::string& text = m_statText[side][k];
                text.clear();
                support::appendPythonFloatRepr(text, v.f);
                // pandasReparse without printing the value a second time.
                m_reparsed[side][k] = std::isfinite(v.f) && !(v.f == std::trunc(v.f) && std::fabs(v.f) < 9007199254740992.0)
                    ? pandasStrtod(text)
                    : v.f;
            }
        m_statsReady = true;
    }

    void computeDiffs(const CompareRow& row)
    {
        if (m_diffsReady)
            return;
        fetchStats(row);
        for (int k = 0; k < 4; ++k) {
            if (m_direct)
                statisticDiff(m_stat[0][k], m_stat[1][k], m_table.npuIntColumn[k], m_table.benchIntColumn[k],
                    m_reparsed[0][k], m_reparsed[1][k], m_diff[k], m_rel[k]);
            else
                m_table.statisticDiffCells(k, m_stat[0][k], m_stat[1][k], m_diff[k], m_rel[k]);
        }
        m_diffsReady = true;
    }

    // The exact table's plain columns without a Cell; false for the columns left to CompareTable::cell.
    bool appendDirect(std::string& out, const CompareRow& row, Column column)
    {
        const bool npuSide = column == Column::NpuName || column == Column::NpuDtype || column == Column::NpuShape
            || column == Column::NpuRequiresGrad;
        const ItemTable& items = npuSide ? *m_table.npu.items : *m_table.bench.items;
        const Item* item = npuSide ? &m_table.npuItem(row) : m_table.benchItem(row);
        const std::size_t start = out.size();
        switch (column) {
        case Column::NpuName:
        case Column::BenchName:
            if (item)
                items.appendName(out, *item);
            else
                out += kNA;
            break;
        case Column::NpuDtype:
        case Column::BenchDtype: appendQuoted(out, item ? items.dtype(*item) : kNA); return true;
        case Column::NpuShape:
        case Column::BenchShape:
            if (item)
                items.appendShape(out, *item);
            else
                out += kNA;
            break;
        case Column::NpuRequiresGrad:
        case Column::BenchRequiresGrad: appendQuoted(out, item ? items.requiresGrad(*item) : kNA); return true;
        case Column::RequiresGradConsistent: {
            const Item* benchItem = m_table.benchItem(row);
            const std::string_view benchFlag = benchItem ? m_table.bench.items->requiresGrad(*benchItem) : kNA;
            out += m_table.npu.items->requiresGrad(m_table.npuItem(row)) == benchFlag ? "True" : "False";
            return true;
        }
        case Column::Result: out += toString(row.level); return true;
        case Column::ErrMessage: {
            if (m_table.mode == CompareMode::Tensor && !m_table.tensorMetrics[row.metrics].fileProblems.empty()) {
                appendQuoted(out, errMessageWithProblems(row.messages, m_table.tensorMetrics[row.metrics].fileProblems));
                return true;
            }
            auto [it, fresh] = m_errText.try_emplace(row.messages);
            if (fresh)
                appendQuoted(it->second, errMessageText(row.messages));
            out += it->second;
            return true;
        }
        default: return false;
        }
        quoteAppended(out, start);
        return true;
    }

    // The stack look-ups of the rows ahead are started early: hash and prefetch the slot kAhead rows before,
    // prefetch the slot's name kAhead / 2 rows before (a look-up otherwise waits on three cache misses).
    static constexpr std::size_t kAhead = 16, kRing = 32;
    struct PendingLookup {
        std::size_t row = SIZE_MAX;
        std::uint64_t hash = 0;
    };

    void lookAhead(std::size_t r)
    {
        const std::size_t ahead = r + kAhead;
        if (ahead < m_table.rows.size()) {
            const Item& item = m_table.npuItem(m_table.rows[ahead]);
            if (item.firstOfEntry) {
                const std::uint64_t hash = dump::StackInfo::nameHash(m_table.npu.items->entryName(item));
                m_pending[ahead % kRing] = { ahead, hash };
                m_table.stack.prefetchSlot(hash);
            }
        }
        const PendingLookup& mid = m_pending[(r + kAhead / 2) % kRing];
        if (mid.row == r + kAhead / 2)
            m_table.stack.prefetchName(mid.hash);
    }

    void appendStack(std::string& out, std::size_t r)
    {
        const PendingLookup& pending = m_pending[r % kRing];
        const std::vector<std::string>* frames = m_direct && pending.row == r ? m_table.stackFrames(m_table.rows[r], pending.hash)
                                                                              : m_table.stackFrames(m_table.rows[r]);
        if (!frames && m_direct) {
            out += kNA;
            return;
        }
        if (!frames) {
            m_table.cell(r, Column::Stack, m_cell);
            appendCsvField(out, m_cell);
            return;
        }
        auto [it, fresh] = m_stackFields.try_emplace(frames);
        if (fresh) {
            m_table.cell(r, Column::Stack, m_cell);
            appendCsvField(it->second, m_cell);
        }
        out += it->second;
    }

    const CompareTable& m_table;
    const std::vector<Column>& m_columns;
    const bool m_direct;
    Cell m_cell;
    bool m_statsReady = false, m_diffsReady = false;
    PyVal m_stat[2][4];
    bool m_printed[2][4] = {};
    std::string m_statText[2][4];
    double m_reparsed[2][4] = {};
    std::string m_diff[4], m_rel[4];
    std::unordered_map<std::uint16_t, std::string> m_errText;
    PendingLookup m_pending[kRing];
    std::unordered_map<const std::vector<std::string>*, std::string> m_stackFields;
};

} // namespace

void appendCsvField(std::string& out, const Cell& cell)
{
    switch (cell.kind) {
    case Cell::Kind::Str:
    case Cell::Kind::List: appendQuoted(out, cell.text); return;
    case Cell::Kind::Int: {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, cell.i);
        out.append(buf, r.ptr);
        return;
    }
    case Cell::Kind::Float:
        if (std::isinf(cell.f)) {
            out += cell.f > 0 ? " inf" : " -inf";
            return;
        }
        support::appendPythonFloatRepr(out, cell.f);
        return;
    case Cell::Kind::Bool: out += cell.b ? "True" : "False"; return;
    case Cell::Kind::Missing: return;
    }
}

void appendCsvRows(std::string& out, const CompareTable& table, const std::vector<Column>& columns, std::size_t begin, std::size_t end)
{
    RowRenderer renderer(table, columns);
    for (std::size_t r = begin; r < end; ++r)
        renderer.append(out, r);
}

std::string csvHeader(const CompareTable& table)
{
    std::string out;
    bool first = true;
    for (const auto& title : table.header()) {
        if (!first)
            out += ',';
        first = false;
        appendQuoted(out, title);
    }
    out += '\n';
    return out;
}

std::string csvText(const CompareTable& table)
{
    std::string out = csvHeader(table);
    appendCsvRows(out, table, table.columns(), 0, table.rows.size());
    return out;
}

void streamCsv(const CompareTable& table, std::size_t begin, std::size_t end, std::size_t threads,
    const std::function<void(std::string_view)>& sink, const std::atomic<bool>* cancel)
{
    sink(csvHeader(table));
    const auto columns = table.columns();
    constexpr std::size_t kBlockRows = 4096;
    threads = std::max<std::size_t>(threads, 1);
    std::vector<RowRenderer> renderers(threads, RowRenderer(table, columns));
    // Two rounds of blocks: the workers render one round while this thread hands the previous one to the sink.
    std::vector<std::string> rounds[2] = { std::vector<std::string>(threads), std::vector<std::string>(threads) };
    auto renderRound = [&](std::size_t start, std::vector<std::string>& blocks) {
        std::vector<std::thread> workers;
        for (std::size_t t = 0; t < threads; ++t) {
            const std::size_t b = std::min(end, start + t * kBlockRows), e = std::min(end, b + kBlockRows);
            blocks[t].clear();
            if (b < e)
                workers.emplace_back([&, t, b, e] {
                    for (std::size_t r = b; r < e; ++r)
                        renderers[t].append(blocks[t], r);
                });
        }
        return workers;
    };
    auto flush = [&](const std::vector<std::string>& blocks) {
        for (const auto& block : blocks)
            if (!block.empty())
                sink(block);
    };
    const std::size_t step = kBlockRows * threads;
    std::size_t round = 0;
    for (std::size_t start = begin; start < end; start += step, ++round) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            throw support::Error("cancelled");
        auto workers = renderRound(start, rounds[round % 2]);
        std::exception_ptr failure;
        if (start > begin) {
            try {
                flush(rounds[(round + 1) % 2]);
            } catch (...) {
                failure = std::current_exception();
            }
        }
        for (auto& w : workers)
            w.join();
        if (failure)
            std::rethrow_exception(failure);
    }
    if (begin < end)
        flush(rounds[(round + 1) % 2]);
}

} // namespace msprobe::compare
