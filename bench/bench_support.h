// SPDX-License-Identifier: Apache-2.0
// Header-only helpers shared by the benchmark programs: timers, peak RSS, throughput formatting,
// and running a measurement in a forked child so that its memory peak is its own.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <optional>
#include <string>
#include <type_traits>

namespace msprobe::bench {

class WallTimer {
public:
    WallTimer() : m_start(std::chrono::steady_clock::now()) { }
    void restart() { m_start = std::chrono::steady_clock::now(); }
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count(); }

private:
    std::chrono::steady_clock::time_point m_start;
};

// CPU time of the whole process (all threads, user + system).
class CpuTimer {
public:
    CpuTimer() : m_start(now()) { }
    void restart() { m_start = now(); }
    double seconds() const { return now() - m_start; }

    static double now()
    {
        timespec ts {};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    }

private:
    double m_start;
};

// Peak resident set size from getrusage (ru_maxrss is in KiB on Linux).
inline std::uint64_t peakRssBytes()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024u;
}

// A "Name:   1234 kB" line of /proc/self/status, in bytes; 0 when unavailable.
inline std::uint64_t procStatusBytes(const char* field)
{
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::size_t length = std::strlen(field);
    while (std::getline(in, line)) {
        if (line.compare(0, length, field) == 0 && line.size() > length && line[length] == ':')
            return std::strtoull(line.c_str() + length + 1, nullptr, 10) * 1024u;
    }
    return 0;
}

inline std::uint64_t currentRssBytes() { return procStatusBytes("VmRSS"); }
// VmHWM: the peak RSS, which resetPeakRss() can bring back down (unlike ru_maxrss).
inline std::uint64_t vmHwmBytes() { return procStatusBytes("VmHWM"); }

// Resets VmHWM to the current RSS (Linux >= 4.0); false when not permitted.
inline bool resetPeakRss()
{
    std::ofstream out("/proc/self/clear_refs");
    out << "5";
    out.flush();
    return static_cast<bool>(out);
}

inline double toMB(std::uint64_t bytes) { return static_cast<double>(bytes) / 1e6; }
inline double megabytesPerSecond(std::uint64_t bytes, double seconds) { return seconds > 0 ? toMB(bytes) / seconds : 0.0; }

inline std::string formatMBps(std::uint64_t bytes, double seconds)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.0f MB/s", megabytesPerSecond(bytes, seconds));
    return text;
}

inline std::string formatBytes(std::uint64_t bytes)
{
    char text[32];
    if (bytes >= 1000000000u)
        std::snprintf(text, sizeof text, "%.2f GB", static_cast<double>(bytes) / 1e9);
    else if (bytes >= 1000000u)
        std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
    else
        std::snprintf(text, sizeof text, "%.1f kB", static_cast<double>(bytes) / 1e3);
    return text;
}

// Runs fn() in a forked child and returns its trivially copyable result through a pipe;
// nullopt when the child crashed or exited without a result. The child starts with the
// parent's pages mapped, so call resetPeakRss() inside fn before measuring a peak.
template<typename Fn>
auto runInChild(Fn&& fn) -> std::optional<std::invoke_result_t<Fn&>>
{
    using Result = std::invoke_result_t<Fn&>;
    static_assert(std::is_trivially_copyable_v<Result>);
    int fds[2];
    if (pipe(fds) != 0)
        return std::nullopt;
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return std::nullopt;
    }
    if (pid == 0) {
        close(fds[0]);
        Result result = fn();
        const auto* bytes = reinterpret_cast<const char*>(&result);
        std::size_t done = 0;
        while (done < sizeof result) {
            const ssize_t n = write(fds[1], bytes + done, sizeof result - done);
            if (n <= 0)
                _exit(2);
            done += static_cast<std::size_t>(n);
        }
        std::fflush(nullptr);
        _exit(0);
    }
    close(fds[1]);
    Result result {};
    auto* bytes = reinterpret_cast<char*>(&result);
    std::size_t done = 0;
    while (done < sizeof result) {
        const ssize_t n = read(fds[0], bytes + done, sizeof result - done);
        if (n <= 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (done != sizeof result || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return std::nullopt;
    return result;
}

} // namespace msprobe::bench
