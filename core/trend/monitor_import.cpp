// SPDX-License-Identifier: Apache-2.0
#include "trend/monitor_import.h"

#include "support/error.h"
#include "support/csv_text.h"
#include "support/thread_pool.h"
#include "trend/monitor_v2.h"
#include "trend/trend_db.h"
#include "trend/trend_tags.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace msprobe::trend {

namespace fs = std::filesystem;

namespace {

struct MonitorFile {
    fs::path path;
    std::size_t metric = 0; // index into monitorMetrics()
    std::int64_t start = 0;
    std::string v2Slug; // the monitor v2 layout: the slug (its rows are split by scope into metrics); empty for v1
};

struct RankDir {
    std::int64_t rank = 0;
    std::vector<MonitorFile> files;
};

std::optional<std::int64_t> parseInteger(const std::string& text)
{
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty())
        return std::nullopt;
    return value;
}

std::vector<RankDir> findRankDirs(const fs::path& dataDir)
{
    static const std::regex dirPattern(R"(^([\w-]{0,20})-rank(\d{1,5})-)");
    static const std::regex filePattern(R"(^(.+)_(\d+)-(\d+)\.csv$)");
    std::vector<RankDir> ranks;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dataDir, ec)) {
        const std::string name = entry.path().filename().string();
        std::smatch match;
        if (const auto v2Rank = monitorV2Rank(name); v2Rank && entry.is_directory()) {
            RankDir dir;
            dir.rank = *v2Rank;
            for (const auto& file : fs::directory_iterator(entry.path(), ec))
                if (const auto v2 = parseMonitorV2FileName(file.path().filename().string()); v2 && file.is_regular_file())
                    dir.files.push_back({ file.path(), 0, v2->start, v2->slug });
            std::sort(dir.files.begin(), dir.files.end(), [](const MonitorFile& a, const MonitorFile& b) {
                return std::tie(a.start, a.v2Slug, a.path) < std::tie(b.start, b.v2Slug, b.path);
            });
            ranks.push_back(std::move(dir));
            continue;
        }
        if (!entry.is_directory() || !std::regex_search(name, match, dirPattern))
            continue;
        std::tm tm {};
        const std::string stamp = match[1];
        const char* end = strptime(stamp.c_str(), "%b%d_%H-%M-%S", &tm);
        if (!end || *end != '\0')
            throw support::Error(entry.path().string(), "directory name",
                "the part before \"-rank\" must be a time such as Dec03_21-34-40 (%b%d_%H-%M-%S)");
        RankDir dir;
        dir.rank = *parseInteger(match[2]); // at most 5 digits (the pattern)
        for (const auto& file : fs::directory_iterator(entry.path(), ec)) {
            const std::string fileName = file.path().filename().string();
            std::smatch parts;
            if (!file.is_regular_file() || !std::regex_match(fileName, parts, filePattern))
                continue;
            const auto& metrics = monitorMetrics();
            const auto it = std::find(metrics.begin(), metrics.end(), parts[1].str());
            if (it == metrics.end())
                continue;
            const auto start = parseInteger(parts[2]);
            if (!start || !parseInteger(parts[3]))
                throw support::Error(file.path().string(), "file name",
                    "the step range " + parts[2].str() + "-" + parts[3].str() + " is beyond the 64-bit integer range");
            dir.files.push_back({ file.path(), static_cast<std::size_t>(it - metrics.begin()), *start, {} });
        }
        std::sort(dir.files.begin(), dir.files.end(), [](const MonitorFile& a, const MonitorFile& b) {
            return std::tie(a.metric, a.start, a.path) < std::tie(b.metric, b.start, b.path);
        });
        ranks.push_back(std::move(dir));
    }
    if (ec)
        throw support::Error(dataDir.string(), {}, "cannot list the directory: " + ec.message());
    std::sort(ranks.begin(), ranks.end(), [](const RankDir& a, const RankDir& b) { return a.rank < b.rank; });
    return ranks;
}

struct Row {
    std::int64_t vpp = 0, step = 0, micro = 0;
    bool hasMicro = false;
    const std::string* name = nullptr;
    std::vector<const std::string*> cells; // per DB stat column, null = absent
};

struct ParsedFile {
    fs::path path;
    std::int64_t rank = 0;
    std::size_t metric = 0;
    support::CsvTable table;
    std::vector<int> statColumn; // per monitorStatOrder() entry: CSV column or -1
};

constexpr std::size_t kProblemsShown = 5;

// A cell text for a message: quoted, cut at 40 characters, control characters shown as '?'.
std::string quoted(const std::string& text)
{
    std::string out = "\"";
    for (std::size_t i = 0; i < text.size() && i < 40; ++i)
        out += static_cast<unsigned char>(text[i]) < 0x20 ? '?' : text[i];
    return out + (text.size() > 40 ? "...\"" : "\"");
}

std::string skipReason(const support::CsvTable& t, const std::vector<std::string>& cells, const std::optional<std::int64_t>& vpp,
    const std::optional<std::int64_t>& step, const std::optional<std::int64_t>& micro, int microCol)
{
    auto bad = [&](const char* column) {
        const std::string& text = cells[static_cast<std::size_t>(t.column(column))];
        return text.empty() ? std::string(column) + " is empty" : std::string(column) + " " + quoted(text) + " is not an integer";
    };
    if (!step)
        return bad("step");
    if (!vpp)
        return bad("vpp_stage");
    if (microCol >= 0 && !micro)
        return bad("micro_step");
    return "name is empty";
}

bool isNumberOrEmpty(const std::string& text)
{
    return text.find_first_not_of(" \t\r\n\f\v") == std::string::npos || parseTrendNumber(text).has_value();
}

} // namespace

const std::vector<std::string>& monitorMetrics()
{
    static const std::vector<std::string> metrics = { "actv", "actv_grad", "exp_avg", "exp_avg_sq", "grad_unreduced",
        "grad_reduced", "param_origin", "param_updated", "other" };
    return metrics;
}

std::string applyMapping(std::string name, const std::vector<std::pair<std::string, std::string>>& mapping)
{
    for (const auto& [from, to] : mapping) {
        if (from.empty())
            continue;
        std::string out;
        std::size_t pos = 0;
        for (std::size_t hit; (hit = name.find(from, pos)) != std::string::npos; pos = hit + from.size())
            out.append(name, pos, hit - pos).append(to);
        out.append(name, pos, std::string::npos);
        name = std::move(out);
    }
    return name;
}

ImportSummary importMonitorData(const fs::path& dataDir, const fs::path& dbFile, const ImportOptions& options)
{
    if (!fs::is_directory(dataDir))
        throw support::Error(dataDir.string(), {}, "not a directory");
    const auto& statOrder = monitorStatOrder();
    std::vector<ParsedFile> files;
    std::vector<bool> statUsed(statOrder.size(), false);
    std::vector<std::set<std::size_t>> metricStats(monitorMetrics().size());
    ImportSummary summary;
    // The CSVs are read on --process_num threads, then taken in rank and file order.
    const auto rankDirs = findRankDirs(dataDir);
    std::vector<std::pair<const RankDir*, const MonitorFile*>> toRead;
    for (const auto& dir : rankDirs)
        for (const auto& file : dir.files)
            toRead.emplace_back(&dir, &file);
    std::vector<support::CsvTable> tables(toRead.size());
    support::parallelFor(toRead.size(), std::max<std::size_t>(options.threads, 1), [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k)
            tables[k] = support::readCsvFile(toRead[k].second->path);
    });
    // v1 files as they are; a v2 file as one v1-shaped table per metric its scopes map to.
    std::vector<std::tuple<const RankDir*, MonitorFile, support::CsvTable>> inputs;
    for (std::size_t k = 0; k < toRead.size(); ++k) {
        const auto& [dir, file] = toRead[k];
        if (file->v2Slug.empty()) {
            inputs.emplace_back(dir, *file, std::move(tables[k]));
            continue;
        }
        for (auto& [metric, table] : splitMonitorV2(tables[k], file->v2Slug, file->path)) {
            MonitorFile part = *file;
            part.metric = metric;
            inputs.emplace_back(dir, std::move(part), std::move(table));
        }
    }
    std::stable_sort(inputs.begin(), inputs.end(), [](const auto& a, const auto& b) {
        return std::make_tuple(std::get<0>(a)->rank, std::get<1>(a).metric, std::get<1>(a).start)
            < std::make_tuple(std::get<0>(b)->rank, std::get<1>(b).metric, std::get<1>(b).start);
    });
    for (auto& [dir, file, table] : inputs) {
        summary.maxRank = std::max(summary.maxRank, dir->rank);
        {
            ParsedFile parsed { file.path, dir->rank, file.metric, std::move(table), {} };
            for (const char* required : { "vpp_stage", "name", "step" })
                if (parsed.table.column(required) < 0)
                    throw support::Error(file.path.string(), "header", std::string("missing the column \"") + required + "\"");
            for (std::size_t s = 0; s < statOrder.size(); ++s) {
                parsed.statColumn.push_back(parsed.table.column(statOrder[s]));
                if (parsed.statColumn.back() >= 0) {
                    statUsed[s] = true;
                    metricStats[file.metric].insert(s);
                }
            }
            files.push_back(std::move(parsed));
        }
    }
    if (files.empty())
        throw support::Error(dataDir.string(), {},
            "no monitor CSV files: expected {time}-rank{N}-{hash}/{metric}_{start}-{end}.csv (monitor v1) or "
            "rank_{N}/{slug}_step{start}-{end}.csv (monitor v2) inside");
    summary.files = files.size();

    std::vector<std::string> dbStats;
    std::vector<std::size_t> dbStatIndex; // monitorStatOrder() index per DB column
    for (std::size_t s = 0; s < statOrder.size(); ++s)
        if (statUsed[s]) {
            dbStats.push_back(statOrder[s]);
            dbStatIndex.push_back(s);
        }

    // Rows, and the micro-step count of every original step.
    struct FileRows {
        const ParsedFile* file;
        std::vector<Row> rows;
    };
    std::vector<FileRows> all;
    std::map<std::int64_t, std::int64_t> microCount;
    for (const auto& file : files) {
        const support::CsvTable& t = file.table;
        const int vppCol = t.column("vpp_stage"), nameCol = t.column("name"), stepCol = t.column("step");
        const int microCol = t.column("micro_step");
        FileRows out { &file, {} };
        FileProblems problems { file.path, 0, 0, {}, {} };
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            const auto& cells = t.rows[r];
            const std::string line = "line " + std::to_string(t.lines[r]);
            const auto vpp = parseInteger(cells[static_cast<std::size_t>(vppCol)]);
            const auto step = parseInteger(cells[static_cast<std::size_t>(stepCol)]);
            std::optional<std::int64_t> micro = 0;
            if (microCol >= 0)
                micro = parseInteger(cells[static_cast<std::size_t>(microCol)]);
            const std::string& name = cells[static_cast<std::size_t>(nameCol)];
            if (!vpp || !step || !micro || name.empty()) {
                if (problems.skippedRows++ < kProblemsShown)
                    problems.firstSkipped.push_back(line + ": " + skipReason(t, cells, vpp, step, micro, microCol));
                continue;
            }
            // Micro steps are numbered from 0 within a step and summed across steps: a count beyond
            // 2^31 is not a training run, and would overflow the step numbering.
            if (*micro > std::numeric_limits<std::int32_t>::max())
                throw support::Error(file.path.string(), line, "micro_step " + std::to_string(*micro) + " is out of range");
            Row row { *vpp, *step, *micro, microCol >= 0, &name, {} };
            for (std::size_t s : dbStatIndex) {
                const int col = file.statColumn[s];
                row.cells.push_back(col >= 0 ? &cells[static_cast<std::size_t>(col)] : nullptr);
                if (col >= 0 && !isNumberOrEmpty(cells[static_cast<std::size_t>(col)])
                    && problems.nonNumeric++ < kProblemsShown)
                    problems.firstNonNumeric.push_back(
                        line + ": " + statOrder[s] + " " + quoted(cells[static_cast<std::size_t>(col)]));
            }
            auto& count = microCount[*step];
            count = std::max(count, *micro + 1);
            out.rows.push_back(std::move(row));
        }
        if (problems.skippedRows || problems.nonNumeric)
            summary.problems.push_back(std::move(problems));
        all.push_back(std::move(out));
    }
    std::map<std::int64_t, std::int64_t> base;
    std::int64_t total = 0;
    for (const auto& [step, count] : microCount) {
        base[step] = total;
        total += count;
    }

    // A database write failure (a full disk) names the temporary file: say what became of the real one.
    try {
        TrendDbWriter db(dbFile, dbStats);
        std::vector<std::int64_t> metricIds(monitorMetrics().size(), 0);
        for (std::size_t m = 0; m < monitorMetrics().size(); ++m)
            for (const auto& file : files)
                if (file.metric == m) {
                    metricIds[m] = db.metricId(monitorMetrics()[m]);
                    break;
                }
        bool anyStep = false;
        std::int64_t minStep = 0, maxStep = 0;
        std::set<std::pair<std::int64_t, std::int64_t>> tagged; // (target, metric)
        std::size_t filesWritten = 0;
        for (const auto& fileRows : all) {
            if (options.progress)
                options.progress(filesWritten++, all.size());
            const ParsedFile& file = *fileRows.file;
            const std::int64_t metric = metricIds[file.metric];
            for (const auto& row : fileRows.rows) {
                const std::string name = applyMapping(*row.name, options.mapping);
                const std::int64_t step = options.microStep ? base[row.step] + row.micro : row.step;
                const std::int64_t target = db.targetId(name, row.vpp, options.microStep ? 0 : row.micro);
                if (tagged.emplace(target, metric).second)
                    db.tagTarget(target, metric, monitorTags(name));
                std::vector<std::optional<double>> values;
                for (const std::string* cell : row.cells)
                    values.push_back(cell ? clampTrendValue(*cell) : std::nullopt);
                db.addRow(file.rank, step, target, metric, values);
                ++summary.rows;
                if (!options.microStep) {
                    minStep = anyStep ? std::min(minStep, row.step) : row.step;
                    maxStep = anyStep ? std::max(maxStep, row.step) : row.step;
                    anyStep = true;
                }
            }
        }
        if (options.progress)
            options.progress(all.size(), all.size());
        if (options.microStep) {
            minStep = 0;
            maxStep = total - 1;
        }
        summary.minStep = minStep;
        summary.maxStep = maxStep;
        std::vector<std::pair<std::string, std::string>> metricColumns;
        for (std::size_t m = 0; m < monitorMetrics().size(); ++m) {
            if (!metricIds[m])
                continue;
            std::string stats;
            for (std::size_t s : metricStats[m])
                stats += (stats.empty() ? "" : ",") + statOrder[s];
            metricColumns.emplace_back(monitorMetrics()[m], stats);
        }
        db.writeGlobalStats({ { "min_step", minStep }, { "max_step", maxStep }, { "max_rank", summary.maxRank } }, metricColumns);
        db.finish();
    } catch (const support::Error& error) {
        rethrowImportFailure(dbFile, error);
    }
    return summary;
}

bool hasMonitorData(const fs::path& dir)
{
    static const std::regex v1(R"(^([\w-]{0,20})-rank(\d{1,5})-)"), v2(R"(^rank_(\d{1,5})$)");
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_directory(ec) && (std::regex_search(name, v1) || std::regex_match(name, v2)))
            return true;
    }
    return false;
}

} // namespace msprobe::trend
