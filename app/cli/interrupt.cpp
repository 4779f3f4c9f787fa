// SPDX-License-Identifier: Apache-2.0
#include "interrupt.h"

#include "support/atomic_file.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>

namespace msprobe::cli {

namespace {

std::string describe(const std::vector<std::filesystem::path>& files)
{
    if (files.empty())
        return "no output file was written";
    std::string text = std::to_string(files.size()) + (files.size() == 1 ? " finished file was" : " finished files were")
        + " written and kept:";
    for (const auto& file : files)
        text += "\n  " + file.string();
    return text;
}

} // namespace

InterruptGuard::InterruptGuard(std::string command)
    : m_command(std::move(command))
{
    sigemptyset(&m_signals);
    sigaddset(&m_signals, SIGINT);
    sigaddset(&m_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &m_signals, &m_previousMask);
    m_watcher = std::thread([this] { watch(); });
}

InterruptGuard::~InterruptGuard()
{
    m_stop = true;
    m_watcher.join();
    pthread_sigmask(SIG_SETMASK, &m_previousMask, nullptr);
}

void InterruptGuard::watch()
{
    const timespec poll { 0, 100 * 1000 * 1000 };
    while (!m_stop.load()) {
        const int signal = sigtimedwait(&m_signals, nullptr, &poll);
        if (signal != SIGINT && signal != SIGTERM)
            continue;
        const auto kept = abandonPendingOutputs();
        std::fprintf(stderr, "\nmsprobe %s: interrupted (%s); unfinished files were removed; %s\n", m_command.c_str(),
            signal == SIGINT ? "SIGINT" : "SIGTERM", describe(kept).c_str());
        std::fflush(stderr);
        _exit(130);
    }
}

std::string describeKeptOutputs() { return describe(committedOutputs()); }

} // namespace msprobe::cli
