// SPDX-License-Identifier: Apache-2.0
#include "trend/dump_import.h"

#include "support/thread_pool.h"
#include "dump/construct_stack.h"
#include "dump/dump_json_reader.h"
#include "dump/dump_tree.h"
#include "support/error.h"
#include "trend/construct_names_reader.h"
#include "trend/dump_rank_rows.h"
#include "trend/trend_db.h"
#include "trend/trend_tags.h"

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

namespace msprobe::trend {

namespace fs = std::filesystem;

namespace {

struct RankJob {
    std::size_t stepIndex = 0; // position in the ascending step list
    std::int64_t step = 0; // the S of step{S}
    std::int64_t rank = 0;
    fs::path dumpJson;
    fs::path constructJson;
    bool repeatsKeys = false; // another step folder has the same number ("step1", "step01"): rows may repeat keys
};

// Database target ids by (name, call index), found by the hash the reading thread kept with each target: a
// flat table probed once per target instead of a hash map's node chains (most of them cache misses).
class KnownTargets {
public:
    std::size_t size() const { return m_keys.size(); }

    std::int64_t idOf(const RankRows& rows, std::size_t t, TrendDbWriter& db)
    {
        if (2 * (m_keys.size() + 1) > m_slots.size())
            grow();
        const std::uint64_t hash = rows.targetHashes[t];
        const auto& key = rows.targets[t];
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
            Slot& at = m_slots[slot];
            if (at.key == 0) {
                m_keys.push_back(key);
                at = { hash, static_cast<std::uint32_t>(m_keys.size()), db.addNewTarget(key.first, 0, key.second) };
                return at.id;
            }
            if (at.hash == hash && m_keys[at.key - 1] == key)
                return at.id;
        }
    }

private:
    struct Slot {
        std::uint64_t hash = 0;
        std::uint32_t key = 0; // 1 + index into m_keys; 0: free
        std::int64_t id = 0;
    };

    void grow()
    {
        std::vector<Slot> slots(std::max<std::size_t>(64, m_slots.size() * 2));
        const std::size_t mask = slots.size() - 1;
        for (const Slot& at : m_slots)
            if (at.key) {
                std::size_t slot = at.hash & mask;
                while (slots[slot].key)
                    slot = (slot + 1) & mask;
                slots[slot] = at;
            }
        m_slots = std::move(slots);
    }

    std::vector<Slot> m_slots;
    std::vector<std::pair<std::string, std::int64_t>> m_keys;
};

struct RankResult {
    RankRows rows;
    std::uint64_t bytes = 0;
    std::exception_ptr failure;
    bool done = false;
};

std::vector<RankJob> listJobs(const fs::path& dataDir, DumpImportSummary& summary)
{
    const dump::DumpTree tree = dump::discoverDumpTree(dataDir);
    if (tree.kind != dump::DumpRootKind::DumpPath)
        throw support::Error(dataDir.string(), {},
            "not a dump folder of step{N} directories (data2db imports a whole dump: step{S}/rank{R}/dump.json)");
    std::vector<RankJob> jobs;
    std::size_t stepIndex = 0;
    for (const auto& step : tree.steps) {
        if (!step.step)
            continue;
        // rank{R} keep their number; proc{P} follow the highest rank number of the step, by process id.
        std::int64_t maxRank = -1;
        for (const auto& rank : step.ranks)
            if (rank.rank)
                maxRank = std::max<std::int64_t>(maxRank, *rank.rank);
        std::vector<RankJob> stepJobs;
        for (const auto& rank : step.ranks) {
            std::int64_t number = 0;
            if (rank.rank)
                number = *rank.rank;
            else if (rank.isProc)
                number = ++maxRank;
            else {
                summary.warnings.push_back(rank.dir.string() + ": no rank number in the directory name, skipped");
                continue;
            }
            if (rank.dumpJson.empty() || rank.isDebug) {
                summary.warnings.push_back(rank.dir.string() + ": no dump.json, skipped");
                continue;
            }
            stepJobs.push_back({ stepIndex, *step.step, number, rank.dumpJson, rank.constructJson() });
        }
        std::stable_sort(stepJobs.begin(), stepJobs.end(), [](const RankJob& a, const RankJob& b) { return a.rank < b.rank; });
        jobs.insert(jobs.end(), stepJobs.begin(), stepJobs.end());
        ++stepIndex;
    }
    if (jobs.empty())
        throw support::Error(dataDir.string(), {}, "no step{S}/rank{R}/dump.json below this folder");
    std::set<std::pair<std::int64_t, std::int64_t>> seen;
    for (auto& job : jobs)
        job.repeatsKeys = !seen.emplace(job.step, job.rank).second;
    return jobs;
}

RankResult readRank(const RankJob& job, const ImportOptions& options)
{
    thread_local dump::DumpJsonReader reader;
    RankResult result;
    const dump::DumpFile dump = reader.read(job.dumpJson);
    if (dump.level == "L1")
        throw support::Error(job.dumpJson.string(), "\"level\": \"L1\"",
            "an L1 dump holds API calls only, without the module tree of construct.json that numbers micro steps "
            "and gives targets their layer and module tags; dump with level L0 or mix to import it");
    result.bytes = dump.fileSize;
    if (options.microStep) {
        thread_local ConstructNamesReader constructReader;
        const ConstructNames& construct = constructReader.read(job.constructJson);
        result.rows = extractRankRows(dump, &construct, &constructReader.index(), options.mapping, &constructReader.microSteps());
    } else
        result.rows = extractRankRows(dump, nullptr, nullptr, options.mapping);
    sortRankRows(result.rows);
    return result;
}

// One rank's rows as SQLite reads them into trend_data: in `order`, with the database's target and metric ids.
class RankRowSource final : public TrendRowSource {
public:
    // stepOffset: the rank's first global step (micro steps on), or -1 to use the step folder's number.
    RankRowSource(const RankJob& job, const RankRows& rows, const std::vector<std::uint32_t>& order,
        const std::vector<std::int64_t>& targetIds, const std::vector<std::int64_t>& metricIds, std::int64_t stepOffset)
        : m_job(job), m_rows(rows), m_order(order), m_targetIds(targetIds), m_metricIds(metricIds), m_stepOffset(stepOffset)
    {
    }
    std::size_t rowCount() const override { return m_order.size(); }
    Row row(std::size_t k) const override
    {
        const DumpTrendRow& row = m_rows.rows[m_order[k]];
        return { m_job.rank, m_stepOffset >= 0 ? m_stepOffset + row.microStep : m_job.step, m_targetIds[row.target],
            m_metricIds[static_cast<std::size_t>(row.metric)], row.values };
    }

private:
    const RankJob& m_job;
    const RankRows& m_rows;
    const std::vector<std::uint32_t>& m_order;
    const std::vector<std::int64_t>& m_targetIds;
    const std::vector<std::int64_t>& m_metricIds;
    std::int64_t m_stepOffset;
};

// Writes ranks into the database in job order while up to `window` later ones are read on the pool.
class RankPipeline {
public:
    RankPipeline(const std::vector<RankJob>& jobs, const ImportOptions& options)
        : m_jobs(jobs), m_options(options), m_results(jobs.size()), m_pool(std::max<std::size_t>(options.threads, 1))
    {
        m_window = 2 * m_pool.size();
        while (m_submitted < std::min(m_window, m_jobs.size()))
            submitNext();
    }
    ~RankPipeline() { m_pool.wait(); }

    // The result of job `index` (in order), once read; the slot is released by the caller's move.
    RankResult take(std::size_t index)
    {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [&] { return m_results[index].done; });
        RankResult result = std::move(m_results[index]);
        m_results[index] = {};
        lock.unlock();
        if (m_submitted < m_jobs.size())
            submitNext();
        if (result.failure)
            std::rethrow_exception(result.failure);
        return result;
    }

    // Frees a written rank's rows on the pool: tens of thousands of strings, whose free() would otherwise cost
    // the writer, the import's bottleneck, about 5% of its time.
    void dispose(RankResult&& result)
    {
        auto owned = std::make_shared<RankResult>(std::move(result));
        m_pool.submit([owned]() mutable { owned.reset(); });
    }

private:
    void submitNext()
    {
        const std::size_t index = m_submitted++;
        m_pool.submit([this, index] {
            RankResult result;
            try {
                result = readRank(m_jobs[index], m_options);
            } catch (...) {
                result.failure = std::current_exception();
            }
            std::lock_guard lock(m_mutex);
            m_results[index] = std::move(result);
            m_results[index].done = true;
            m_ready.notify_all();
        });
    }

    const std::vector<RankJob>& m_jobs;
    const ImportOptions& m_options;
    std::vector<RankResult> m_results;
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::size_t m_submitted = 0, m_window = 2;
    support::ThreadPool m_pool; // last: its workers stop before the members they use go
};

} // namespace

bool hasDumpSteps(const fs::path& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return false;
    try {
        return !dump::listDumpFolders(dir, dump::DumpFolderNames::Written).steps.empty();
    } catch (const support::Error&) {
        return false; // not listable here: the import names the folder and the cause
    }
}

DumpImportSummary importDumpData(const fs::path& dataDir, const fs::path& dbFile, const ImportOptions& options)
{
    if (!fs::is_directory(dataDir))
        throw support::Error(dataDir.string(), {}, "not a directory");
    DumpImportSummary summary;
    const std::vector<RankJob> jobs = listJobs(dataDir, summary);
    for (const auto& job : jobs)
        summary.maxRank = std::max(summary.maxRank, job.rank);
    try {
        TrendDbWriter db(dbFile, dumpStatColumns());
        std::vector<std::int64_t> metricIds;
        for (const auto& metric : dumpMetricNames())
            metricIds.push_back(db.metricId(metric));
        // Target ids by (name, call index) (hashed: most ranks repeat the same targets), and which (target,
        // metric) pairs have their tags, a bit per metric by target id.
        KnownTargets knownTargets;
        std::vector<std::uint8_t> tagged;
        std::int64_t offset = 0, stepMicroSteps = 0;
        std::int64_t minStep = jobs.front().step, maxStep = jobs.front().step;
        RankPipeline pipeline(jobs, options);
        std::vector<std::int64_t> targetIds; // by index into the rank's targets
        std::optional<RankResult> previous; // the rank written last, whose targets targetIds holds
        std::vector<std::uint32_t> order;
        std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;
        std::vector<TrendTag> targetTags;
        for (std::size_t j = 0; j < jobs.size(); ++j) {
            const RankJob& job = jobs[j];
            RankResult result = pipeline.take(j);
            const RankRows& rows = result.rows;
            // Ranks of one model usually name the same targets in the same order: comparing the lists in order
            // costs less than a hashed look-up per target (most of them cache misses).
            if (!previous || previous->rows.targetHashes != rows.targetHashes || previous->rows.targets != rows.targets) {
                targetIds.clear();
                for (std::size_t t = 0; t < rows.targets.size(); ++t)
                    targetIds.push_back(knownTargets.idOf(rows, t, db));
            }
            // In primary-key order, SQLite appends to the end of trend_data instead of searching it. The reader
            // sorted the rows by its own target numbering and dropped repeated keys (the first is kept, as in the
            // reference); that is also the order of the database's ids unless this rank met known targets in
            // another order than earlier ranks, and only then are they sorted again here.
            // Keys packed as micro step << 42 | target id << 2 | metric: one integer compare per pair.
            if (rows.microSteps >= (std::int64_t(1) << 22) || knownTargets.size() >= (std::size_t(1) << 40))
                throw support::Error(job.dumpJson.string(), {}, "more micro steps or targets than the trend import handles");
            auto packedKey = [&](std::uint32_t k) {
                const auto& row = rows.rows[k];
                return (static_cast<std::uint64_t>(row.microStep) << 42)
                    | (static_cast<std::uint64_t>(targetIds[row.target]) << 2) | static_cast<std::uint64_t>(row.metric);
            };
            order.resize(rows.rows.size());
            bool ordered = true;
            for (std::uint32_t k = 0; k < order.size(); ++k) {
                order[k] = k;
                ordered = ordered && (k == 0 || packedKey(k - 1) < packedKey(k));
            }
            if (!ordered) {
                keyed.clear();
                for (std::uint32_t k = 0; k < order.size(); ++k)
                    keyed.emplace_back(packedKey(k), k);
                std::sort(keyed.begin(), keyed.end()); // keys are distinct: the reader dropped repeated ones
                for (std::size_t k = 0; k < keyed.size(); ++k)
                    order[k] = keyed[k].second;
            }
            // A target's metrics are adjacent in key order: its tags are worked out once for all of them.
            std::int64_t tagsOf = 0;
            for (const std::uint32_t k : order) {
                const auto& row = rows.rows[k];
                const std::int64_t target = targetIds[row.target];
                const auto metricIndex = static_cast<std::size_t>(row.metric);
                if (static_cast<std::size_t>(target) >= tagged.size())
                    tagged.resize(static_cast<std::size_t>(target) * 2 + 1, 0);
                auto& bits = tagged[static_cast<std::size_t>(target)];
                if (!(bits & (1u << metricIndex))) {
                    bits = static_cast<std::uint8_t>(bits | (1u << metricIndex));
                    if (tagsOf != target) {
                        targetTags = dumpTags(rows.targets[row.target].first);
                        tagsOf = target;
                    }
                    db.tagTarget(target, metricIds[metricIndex], targetTags);
                }
            }
            const RankRowSource source(job, rows, order, targetIds, metricIds, options.microStep ? offset : -1);
            db.addRows(source, job.repeatsKeys);
            summary.rows += rows.rows.size() + rows.repeatedRows;
            summary.droppedEntries += rows.droppedEntries;
            summary.bytes += result.bytes;
            ++summary.files;
            minStep = std::min(minStep, job.step);
            maxStep = std::max(maxStep, job.step);
            stepMicroSteps = std::max(stepMicroSteps, rows.microSteps);
            if (j + 1 == jobs.size() || jobs[j + 1].stepIndex != job.stepIndex) {
                offset += stepMicroSteps;
                stepMicroSteps = 0;
            }
            if (previous)
                pipeline.dispose(std::move(*previous));
            previous = std::move(result); // kept for the next rank's comparison of targets
            if (options.progress)
                options.progress(j + 1, jobs.size());
        }
        summary.minStep = options.microStep ? 0 : minStep;
        summary.maxStep = options.microStep ? offset - 1 : maxStep;
        std::vector<std::pair<std::string, std::string>> metricColumns;
        for (const auto& metric : dumpMetricNames())
            metricColumns.emplace_back(metric, "norm,max,min,mean");
        db.writeGlobalStats(
            { { "max_rank", summary.maxRank }, { "min_step", summary.minStep }, { "max_step", summary.maxStep } },
            metricColumns);
        db.finish();
    } catch (const support::Error& error) {
        rethrowImportFailure(dbFile, error);
    }
    return summary;
}

} // namespace msprobe::trend
