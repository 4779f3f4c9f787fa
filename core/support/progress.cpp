// SPDX-License-Identifier: Apache-2.0
#include "support/progress.h"

namespace msprobe::support {

ProgressReporter::ProgressReporter(std::size_t totalPairs, bool enabled, bool terminal, std::FILE* out)
    : m_total(totalPairs)
    , m_enabled(enabled)
    , m_terminal(terminal)
    , m_out(out)
    , m_start(std::chrono::steady_clock::now())
    , m_lastLine(m_start)
{
}

ProgressReporter::~ProgressReporter() { finish(); }

void ProgressReporter::draw(const std::string& status, bool force)
{
    if (!m_enabled || m_finished)
        return;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - m_start).count();
    if (m_terminal) {
        constexpr int width = 30;
        const int filled = m_total ? static_cast<int>(width * m_done / m_total) : width;
        std::string bar(static_cast<std::size_t>(filled), '#');
        bar.append(static_cast<std::size_t>(width - filled), '.');
        std::fprintf(m_out, "\r[%s] %zu/%zu pairs %5.1fs %-40.40s", bar.c_str(), m_done, m_total, elapsed, status.c_str());
        std::fflush(m_out);
        m_barShown = true;
        return;
    }
    if (!force && std::chrono::duration<double>(now - m_lastLine).count() < 5.0)
        return;
    m_lastLine = now;
    std::fprintf(m_out, "compare: %zu/%zu pairs done, %.1fs: %s\n", m_done, m_total, elapsed, status.c_str());
    std::fflush(m_out);
}

void ProgressReporter::pairStarted(const std::string& label)
{
    std::lock_guard lock(m_mutex);
    draw("comparing " + (label.empty() ? std::string("dump.json") : label), false);
}

void ProgressReporter::pairFinished(const std::string& label, const std::string& summary)
{
    std::lock_guard lock(m_mutex);
    ++m_done;
    draw((label.empty() ? std::string("dump.json") : label) + ": " + summary, true);
}

void ProgressReporter::rows(const std::string& label, std::size_t done, std::size_t total)
{
    std::lock_guard lock(m_mutex);
    draw((label.empty() ? std::string("tensors") : label) + " " + std::to_string(done) + "/" + std::to_string(total) + " tensor rows", false);
}

void ProgressReporter::finish()
{
    std::lock_guard lock(m_mutex);
    if (m_enabled && m_terminal && m_barShown && !m_finished)
        std::fputc('\n', m_out);
    m_finished = true;
}

} // namespace msprobe::support
