// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace msprobe {

// Wall time of named phases on stderr when MSPROBE_PHASE_TIMES is set (profiling aid for bench/ and users
// who want to know where a long compare or graph build spends its time).
class PhaseTimes {
public:
    PhaseTimes() : m_enabled(std::getenv("MSPROBE_PHASE_TIMES") != nullptr), m_last(Clock::now()) { }

    void mark(const char* phase)
    {
        if (!m_enabled)
            return;
        const auto now = Clock::now();
        std::fprintf(stderr, "phase %-12s %7.3f s\n", phase, std::chrono::duration<double>(now - m_last).count());
        m_last = now;
    }

private:
    using Clock = std::chrono::steady_clock;
    bool m_enabled;
    Clock::time_point m_last;
};

} // namespace msprobe
