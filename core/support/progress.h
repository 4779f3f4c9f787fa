// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>

namespace msprobe::support {

// Progress of a multi-pair compare on stderr: a redrawn bar on a terminal, a line every few seconds (and one
// per finished pair) otherwise. Thread-safe; silent when disabled.
class ProgressReporter {
public:
    ProgressReporter(std::size_t totalPairs, bool enabled, bool terminal, std::FILE* out = stderr);
    ~ProgressReporter();

    void pairStarted(const std::string& label);
    void pairFinished(const std::string& label, const std::string& summary);
    // Work inside the current pair (tensor rows).
    void rows(const std::string& label, std::size_t done, std::size_t total);
    void finish();

private:
    void draw(const std::string& status, bool force);

    std::mutex m_mutex;
    std::size_t m_total, m_done = 0;
    bool m_enabled, m_terminal, m_finished = false, m_barShown = false;
    std::FILE* m_out;
    std::chrono::steady_clock::time_point m_start, m_lastLine;
};

} // namespace msprobe::support
