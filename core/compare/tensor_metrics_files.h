// SPDX-License-Identifier: Apache-2.0
// The one loading path of tensor files for compare rows, shared by compare (exact and consistent tables) and
// graph_visualize: a data_name is resolved inside its dump_tensor_data folder (resolveDataFile) and read as .pt or
// .npy (readTensorFile). Whatever goes wrong is a TensorFileProblem naming the file: never thrown, never a pass.
#pragma once

#include "compare/tensor_metrics.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace msprobe::compare {

// Reads one resolved tensor file (empty: dump::readTensorFile); a counting reader is how tests see each read.
using TensorFileReader = std::function<dump::TensorData(const std::filesystem::path& file)>;

// One side's tensor, or nullopt with the problem appended to problems.
std::optional<dump::TensorData> loadRowTensor(const std::filesystem::path& dataDir, std::string_view dataName,
    std::vector<TensorFileProblem>& problems, const TensorFileReader& read = {});

// Both sides read (every problem listed) and compared. With a problem the six cells are "unsupported", message
// is the reference's "Dump file: ... not found or read failed." and fileProblems says which file and why. One
// file named as both sides (a self-compare) is read once.
TensorMetrics compareTensorFilePair(const std::filesystem::path& npuDir, std::string_view npuName,
    const std::filesystem::path& benchDir, std::string_view benchName, const TensorFileReader& read = {});

// The Err_message entry of a problem: "error: tensor file <file> is missing or unreadable: <reason>".
std::string tensorFileProblemMessage(const TensorFileProblem& problem);

// An Err_message cell: the rule messages' JSON list (errMessageText) followed by the problems' entries.
std::string errMessageWithProblems(std::uint16_t messages, const std::vector<TensorFileProblem>& problems);

// The distinct problem files of a run, gathered from several threads: how many, and the first few.
class TensorFileProblemLog {
public:
    static constexpr std::size_t kExamples = 3;

    void add(const std::vector<TensorFileProblem>& problems);
    std::size_t count() const;
    std::vector<TensorFileProblem> examples() const;
    // "N tensor files missing or unreadable (first: <file>: <reason>; ...)", or empty when there are none.
    std::string summary() const;

private:
    mutable std::mutex m_mutex;
    std::unordered_set<std::string> m_files;
    std::vector<TensorFileProblem> m_examples;
};

// "N tensor file(s) missing or unreadable": the count line of the summaries.
std::string tensorFileProblemCount(std::size_t count);

} // namespace msprobe::compare
