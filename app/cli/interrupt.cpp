// SPDX-License-Identifier: Apache-2.0
#include "interrupt.h"

#include "support/atomic_file.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <exception>
#include <vector>

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

// Removes the empty folders below dir, then dir if it is empty (rmdir leaves a folder that is not).
void removeEmptyFolders(const std::filesystem::path& dir)
{
    std::error_code ec;
    std::vector<std::filesystem::path> children;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (entry.is_directory(ec) && !entry.is_symlink(ec))
            children.push_back(entry.path());
    for (const auto& child : children)
        removeEmptyFolders(child);
    std::filesystem::remove(dir, ec);
}

} // namespace

InterruptGuard::InterruptGuard(std::string command, const std::filesystem::path& outputFolder)
    : m_command(std::move(command))
{
    std::error_code ec;
    if (!outputFolder.empty()) {
        std::filesystem::path at = std::filesystem::absolute(outputFolder, ec).lexically_normal();
        if (!at.has_filename()) // "out/"
            at = at.parent_path();
        // Not even a dangling link there: a link is never taken for a folder of ours.
        while (!ec && at.has_relative_path()
            && std::filesystem::symlink_status(at, ec).type() == std::filesystem::file_type::not_found) {
            m_createdRoot = at;
            ec.clear();
            at = at.parent_path();
        }
    }
    sigemptyset(&m_signals);
    sigaddset(&m_signals, SIGINT);
    sigaddset(&m_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &m_signals, &m_previousMask);
    m_watcher = std::thread([this] { watch(); });
}

InterruptGuard::~InterruptGuard()
{
    if (std::uncaught_exceptions() > 0) // the run failed: outputs it committed stay, folders it left empty go
        removeEmptyCreatedFolders();
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
        const auto kept = support::abandonPendingOutputs();
        removeEmptyCreatedFolders();
        std::fprintf(stderr, "\nmsprobe %s: interrupted (%s); unfinished files were removed; %s\n", m_command.c_str(),
            signal == SIGINT ? "SIGINT" : "SIGTERM", describe(kept).c_str());
        std::fflush(stderr);
        _exit(130);
    }
}

void InterruptGuard::removeEmptyCreatedFolders() const
{
    if (!m_createdRoot.empty())
        removeEmptyFolders(m_createdRoot);
}

std::string describeKeptOutputs() { return describe(support::committedOutputs()); }

} // namespace msprobe::cli
