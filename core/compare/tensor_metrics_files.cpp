// SPDX-License-Identifier: Apache-2.0
#include "compare/tensor_metrics_files.h"

#include "compare/result_rules.h"
#include "dump/tensor_file.h"
#include "support/error.h"
#include "support/markup_escape.h"

namespace fs = std::filesystem;

namespace msprobe::compare {

namespace {

// The path as text with control characters escaped (data_names come from the dump: never echoed raw).
std::string reasonOf(const support::Error& error)
{
    return error.place().empty() ? error.detail() : error.place() + ": " + error.detail();
}

} // namespace

std::optional<dump::TensorData> loadRowTensor(
    const fs::path& dataDir, std::string_view dataName, std::vector<TensorFileProblem>& problems, const TensorFileReader& read)
{
    fs::path file = dataDir / fs::path(std::string(dataName));
    try {
        file = dump::resolveDataFile(dataDir, dataName);
        return read ? read(file) : dump::readTensorFile(file);
    } catch (const support::Error& error) {
        std::string reason = error.file() == dataDir.string() ? error.detail() : reasonOf(error);
        std::error_code ec;
        if (!fs::exists(dataDir, ec))
            reason += " (the folder " + dataDir.string() + " is missing)";
        problems.push_back({ support::printableText(file.string()), std::move(reason) });
    } catch (const std::exception& error) {
        problems.push_back({ support::printableText(file.string()), error.what() });
    }
    return std::nullopt;
}

TensorMetrics compareTensorFilePair(const fs::path& npuDir, std::string_view npuName, const fs::path& benchDir,
    std::string_view benchName, const TensorFileReader& read)
{
    std::vector<TensorFileProblem> problems;
    const std::optional<dump::TensorData> npu = loadRowTensor(npuDir, npuName, problems, read);
    const bool sameFile = npuName == benchName && npuDir.native() == benchDir.native();
    std::optional<dump::TensorData> benchRead;
    if (!sameFile)
        benchRead = loadRowTensor(benchDir, benchName, problems, read);
    else if (!npu) // the one read failed for both sides: listed twice, as two reads would list it
        problems.push_back(problems.back());
    const std::optional<dump::TensorData>& bench = sameFile ? npu : benchRead;
    if (npu && bench)
        return compareTensors(*npu, *bench);
    TensorMetrics metrics = tensorMetricsError("unsupported", "Dump file: " + problems.front().file + " not found or read failed.");
    metrics.fileProblems = std::move(problems);
    return metrics;
}

std::string tensorFileProblemMessage(const TensorFileProblem& problem)
{
    return "error: tensor file " + problem.file + " is missing or unreadable: " + problem.reason;
}

std::string errMessageWithProblems(std::uint16_t messages, const std::vector<TensorFileProblem>& problems)
{
    std::string text = errMessageText(messages);
    if (problems.empty())
        return text;
    text.pop_back(); // ']'
    for (const TensorFileProblem& problem : problems) {
        if (text.size() > 1)
            text += ", ";
        support::appendJsonString(text, tensorFileProblemMessage(problem));
    }
    return text + ']';
}

void TensorFileProblemLog::add(const std::vector<TensorFileProblem>& problems)
{
    if (problems.empty())
        return;
    std::lock_guard lock(m_mutex);
    for (const TensorFileProblem& problem : problems)
        if (m_files.insert(problem.file).second && m_examples.size() < kExamples)
            m_examples.push_back(problem);
}

std::size_t TensorFileProblemLog::count() const
{
    std::lock_guard lock(m_mutex);
    return m_files.size();
}

std::vector<TensorFileProblem> TensorFileProblemLog::examples() const
{
    std::lock_guard lock(m_mutex);
    return m_examples;
}

std::string TensorFileProblemLog::summary() const
{
    std::lock_guard lock(m_mutex);
    if (m_files.empty())
        return {};
    std::string text = tensorFileProblemCount(m_files.size()) + " (first: ";
    for (std::size_t i = 0; i < m_examples.size(); ++i)
        text += (i ? "; " : "") + m_examples[i].file + ": " + m_examples[i].reason;
    return text + (m_files.size() > m_examples.size() ? "; ...)" : ")");
}

std::string tensorFileProblemCount(std::size_t count)
{
    return std::to_string(count) + (count == 1 ? " tensor file" : " tensor files") + " missing or unreadable";
}

} // namespace msprobe::compare
