// SPDX-License-Identifier: Apache-2.0
// The tensor-mode metrics of one job's pairs of tensor files (.pt/.npy), each pair read and compared once and
// handed to whoever asks for it again: the studio's pair load computes them while graph_visualize compares the
// matched nodes, and its compare tables take them over instead of reading every tensor file a second time. A pair
// is known by its two files (the folder's canonical path and the data_name), so two spellings of one dump folder
// share an entry. Thread-safe: a pair is computed by whichever asks first while another asking for it waits.
// Keep one per job: it holds every pair's metrics (six cells and a message, a few hundred bytes) until destroyed.
#pragma once

#include "compare/tensor_metrics_files.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace msprobe::compare {

class TensorMetricCache {
public:
    // read reads each tensor file the first time a pair needs it (empty: dump::readTensorFile).
    explicit TensorMetricCache(TensorFileReader read = {});

    // compareTensorFilePair of the two files, computed now unless an earlier call computed it. A pair whose files
    // could not be read names them in its problems as the first caller spelled the folders; another spelling is
    // given its own answer, so every caller's text is what compareTensorFilePair would give it.
    TensorMetrics metrics(const std::filesystem::path& npuDir, std::string_view npuName, const std::filesystem::path& benchDir,
        std::string_view benchName);

    // How many tensor files were read here, and how many answers came from a pair computed before.
    std::size_t reads() const { return m_reads.load(); }
    std::size_t reuses() const { return m_reuses.load(); }

private:
    struct Slot {
        std::mutex mutex;
        bool computed = false;
        TensorMetrics metrics;
        std::string npuDir, benchDir; // as the computing caller spelled them
    };
    std::uint32_t folderId(const std::filesystem::path& dir);
    std::shared_ptr<Slot> slotOf(std::string key);
    TensorMetrics compute(const std::filesystem::path& npuDir, std::string_view npuName, const std::filesystem::path& benchDir,
        std::string_view benchName);

    TensorFileReader m_read;
    std::mutex m_mutex;
    std::unordered_map<std::string, std::uint32_t> m_spelledFolders; // a folder as a caller spelled it -> its id
    std::unordered_map<std::string, std::uint32_t> m_canonicalFolders; // a canonical folder path -> its id
    std::unordered_map<std::string, std::shared_ptr<Slot>> m_slots; // by (folder id, data_name) of both sides
    std::atomic<std::size_t> m_reads { 0 }, m_reuses { 0 };
};

} // namespace msprobe::compare
