// SPDX-License-Identifier: Apache-2.0
// Ctrl-C and SIGTERM for the commands that write output files (compare, graph_visualize, data2db).
#pragma once

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <string>
#include <thread>

namespace msprobe::cli {

// While alive, SIGINT and SIGTERM go to one watcher thread instead of interrupting the work. On either signal
// the watcher refuses every later commit, removes every unfinished output (the temporary files of AtomicFile
// and the registered ones), prints on stderr exactly which finished outputs this run wrote and keeps, and
// ends the process with status 130. Create it on the main thread before any worker thread starts (threads
// inherit the blocked signals).
class InterruptGuard {
public:
    explicit InterruptGuard(std::string command);
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

private:
    void watch();
    std::string m_command;
    sigset_t m_signals {}, m_previousMask {};
    std::atomic<bool> m_stop { false };
    std::thread m_watcher;
};

// "N finished file(s) written and kept: a, b" or "no output file was written", for the messages of a run that
// ends early (interrupted, or one of its inputs failed).
std::string describeKeptOutputs();

} // namespace msprobe::cli
