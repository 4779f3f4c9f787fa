// SPDX-License-Identifier: Apache-2.0
// Ctrl-C and SIGTERM for the commands that write output files (compare, graph_visualize, data2db).
#pragma once

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>

namespace msprobe::cli {

// While alive, SIGINT and SIGTERM go to one watcher thread instead of interrupting the work. On either signal
// the watcher refuses every later commit, removes every unfinished output (the temporary files of AtomicFile
// and the registered ones), prints on stderr exactly which finished outputs this run wrote and keeps, and
// ends the process with status 130. Create it on the main thread before any worker thread starts (threads
// inherit the blocked signals).
//
// `outputFolder` (-o): the part of it that does not exist yet is this run's to create; when the run is
// interrupted or fails (the guard goes away during an exception), the folders it created and left empty are
// removed, so a stopped run into a new folder leaves no empty folder behind. Create the guard before the folder.
class InterruptGuard {
public:
    explicit InterruptGuard(std::string command, const std::filesystem::path& outputFolder = {});
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

private:
    void watch();
    void removeEmptyCreatedFolders() const;
    std::string m_command;
    std::filesystem::path m_createdRoot; // the topmost folder of outputFolder that did not exist; empty if none
    sigset_t m_signals {}, m_previousMask {};
    std::atomic<bool> m_stop { false };
    std::thread m_watcher;
};

// "N finished file(s) written and kept: a, b" or "no output file was written", for the messages of a run that
// ends early (interrupted, or one of its inputs failed).
std::string describeKeptOutputs();

} // namespace msprobe::cli
