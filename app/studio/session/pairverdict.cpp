// SPDX-License-Identifier: Apache-2.0
#include "pairverdict.h"

#include "compare/compare_inputs.h"
#include "compare/verdict_json.h"

#include <QCoreApplication>

namespace msprobe::studio {

namespace {

QString q(const std::string& text) { return QString::fromStdString(text); }

} // namespace

int numberAfter(const std::string& text, const std::string& prefix)
{
    if (text.size() <= prefix.size() || text.compare(0, prefix.size(), prefix) != 0)
        return 0;
    try {
        return std::stoi(text.substr(prefix.size()));
    } catch (...) {
        return 0;
    }
}

Verdicts summarizeComparisons(const std::filesystem::path& problem, const std::filesystem::path& bench,
    const std::map<Key, std::shared_ptr<const CompareRows>>& results)
{
    Verdicts verdicts;
    const msprobe::compare::JobOptions options; // the CLI's defaults: its tolerance, no -da
    for (const auto& pair : msprobe::compare::resolveComparePairs(problem, bench, {}, false)) {
        const Key key { numberAfter(pair.step, "step"), numberAfter(pair.label, "rank") };
        const auto found = results.find(key);
        if (found == results.end() || !found->second || !found->second->table())
            continue;
        msprobe::compare::PairOutcome outcome;
        outcome.pair = pair;
        msprobe::compare::summarizePair(*found->second->table(), outcome, options);
        verdicts.emplace(key, std::move(outcome));
    }
    return verdicts;
}

QString verdictText(const msprobe::compare::PairOutcome& outcome)
{
    QStringList parts;
    if (outcome.firstDivergence)
        parts << QCoreApplication::translate("StudioVerdict", "First divergence: %1 — why: %2").arg(q(outcome.firstDivergence->entry), q(outcome.firstDivergence->reason));
    else
        parts << QCoreApplication::translate("StudioVerdict", "No divergence: every entry stays within tolerance");
    if (outcome.firstNanInf)
        parts << QCoreApplication::translate("StudioVerdict", "NaN/Inf first at %1").arg(q(outcome.firstNanInf->entry));
    if (outcome.unpaired > 0)
        parts << (outcome.unpaired == 1 ? QCoreApplication::translate("StudioVerdict", "1 row unpaired")
                                        : QCoreApplication::translate("StudioVerdict", "%1 rows unpaired").arg(outcome.unpaired));
    return parts.join(QStringLiteral("; "));
}

std::string verdictJson(const Verdicts& verdicts, std::optional<Key> only)
{
    msprobe::compare::JobOutcome job;
    for (const auto& [key, outcome] : verdicts) {
        if (only && key != *only)
            continue;
        job.pairs.push_back(outcome);
        job.rows += outcome.rows;
        job.unpaired += outcome.unpaired;
        job.unreadableFiles += outcome.unreadableFiles;
        if (outcome.error)
            job.worst = msprobe::compare::ResultLevel::Error;
        else if (outcome.warning && job.worst == msprobe::compare::ResultLevel::Pass)
            job.worst = msprobe::compare::ResultLevel::Warning;
    }
    return msprobe::compare::renderVerdictJson(job);
}

} // namespace msprobe::studio
