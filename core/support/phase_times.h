// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace msprobe::support {

// Wall time of named phases on stderr when MSPROBE_PHASE_TIMES is set (profiling aid for bench/ and users
// who want to know where a long compare or graph build spends its time).
class PhaseTimes {
public:
    PhaseTimes() : m_enabled(std::getenv("MSPROBE_PHASE_TIMES") != nullptr), m_last(Clock::now()), m_lastCpu(processCpu()) { }

    void mark(const char* phase)
    {
        if (!m_enabled)
            return;
        const auto now = Clock::now();
        const double cpu = processCpu();
        std::fprintf(stderr, "phase %-12s %7.3f s wall %7.3f s CPU\n", phase, std::chrono::duration<double>(now - m_last).count(),
            cpu - m_lastCpu);
        m_last = now;
        m_lastCpu = cpu;
    }

private:
    using Clock = std::chrono::steady_clock;
    static double processCpu()
    {
        timespec t {};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
    }
    bool m_enabled;
    Clock::time_point m_last;
    double m_lastCpu;
};

} // namespace msprobe::support
