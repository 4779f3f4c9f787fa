// SPDX-License-Identifier: Apache-2.0
#include "memorystacks.h"

#include "memorydbstacks.h"

#include "memory/torch_snapshot.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <limits>

namespace msprobe::studio {

namespace {

// One RFC 4180 record from `in` (quoted cells hold commas, doubled quotes and line breaks); false at the end.
bool readRecord(std::istream& in, std::vector<std::string>& cells)
{
    cells.assign(1, std::string());
    bool quoted = false, any = false;
    for (int ch; (ch = in.get()) != EOF;) {
        any = true;
        const char c = static_cast<char>(ch);
        if (quoted) {
            if (c != '"')
                cells.back() += c;
            else if (in.peek() == '"')
                cells.back() += static_cast<char>(in.get());
            else
                quoted = false;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            cells.emplace_back();
        } else if (c == '\n') {
            return true;
        } else if (c != '\r') {
            cells.back() += c;
        }
    }
    return any;
}

bool hasFrame(const std::string& cell) { return !cell.empty() && cell != "NA" && cell != "N/A"; }

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

} // namespace

std::shared_ptr<const CallStackIndex> CallStackIndex::build(const std::filesystem::path& file, const std::atomic<bool>* cancel)
{
    if (DatabaseStackRows::isDatabase(file)) {
        auto rows = DatabaseStackRows::build(file, cancel);
        if (!rows)
            return nullptr;
        auto index = std::make_shared<CallStackIndex>();
        index->m_file = file;
        index->m_database = std::move(rows);
        return index;
    }
    std::ifstream in(file, std::ios::binary);
    std::vector<std::string> cells;
    if (!in || !readRecord(in, cells))
        return nullptr;
    auto index = std::make_shared<CallStackIndex>();
    index->m_file = file;
    bool python = false, c = false;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const std::string title = lower(cells[i]);
        if (title == "call stack(python)")
            index->m_pythonColumn = i, python = true;
        else if (title == "call stack(c)")
            index->m_cColumn = i, c = true;
    }
    if (!python || !c)
        return nullptr;
    // Stacks are on or off for a whole capture: the first thousand rows tell.
    bool stacks = false;
    for (int row = 0; row < 1000 && !stacks && readRecord(in, cells); ++row)
        stacks = (cells.size() > index->m_pythonColumn && hasFrame(cells[index->m_pythonColumn]))
            || (cells.size() > index->m_cColumn && hasFrame(cells[index->m_cColumn]));
    if (!stacks)
        return nullptr;
    in.clear();
    in.seekg(0);
    std::vector<char> buffer(1 << 20);
    std::uint64_t offset = 0, line = 1;
    index->m_offsets.push_back(0);
    while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
        if (cancel && cancel->load())
            return nullptr;
        const auto count = static_cast<std::size_t>(in.gcount());
        for (const char *p = buffer.data(), *end = p + count; (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))); ++p) {
            ++line;
            if ((line - 1) % kStride == 0)
                index->m_offsets.push_back(offset + static_cast<std::uint64_t>(p - buffer.data()) + 1);
        }
        offset += count;
    }
    return index;
}

std::shared_ptr<const CallStackIndex> CallStackIndex::fromSnapshot(std::vector<std::uint32_t> stackOfLine,
    const std::vector<msprobe::memory::SnapshotStack>& stacks)
{
    auto index = std::make_shared<CallStackIndex>();
    index->m_snapshot = true;
    index->m_snapshotStackOf = std::move(stackOfLine);
    index->m_snapshotStacks.reserve(stacks.size());
    for (const auto& stack : stacks)
        index->m_snapshotStacks.push_back({ stack.python, stack.c });
    return index;
}

CallStacks CallStackIndex::stacksAt(std::uint64_t line) const
{
    if (m_snapshot) {
        if (line == 0 || line > m_snapshotStackOf.size() || m_snapshotStackOf[line - 1] >= m_snapshotStacks.size())
            return {};
        return m_snapshotStacks[m_snapshotStackOf[line - 1]];
    }
    if (m_database)
        return m_database->stacksAt(line);
    CallStacks out;
    if (line == 0 || (line - 1) / kStride >= m_offsets.size())
        return out;
    std::ifstream in(m_file, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(m_offsets[(line - 1) / kStride]));
    for (std::uint64_t skip = (line - 1) % kStride; skip > 0 && in; --skip)
        in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    std::vector<std::string> cells;
    if (!in || !readRecord(in, cells))
        return out;
    if (cells.size() > m_pythonColumn && hasFrame(cells[m_pythonColumn]))
        out.python = cells[m_pythonColumn];
    if (cells.size() > m_cColumn && hasFrame(cells[m_cColumn]))
        out.c = cells[m_cColumn];
    return out;
}

std::string frameModule(std::string_view frame)
{
    while (!frame.empty() && std::isspace(static_cast<unsigned char>(frame.front())))
        frame.remove_prefix(1);
    const auto paren = frame.find('(');
    if (paren == std::string_view::npos || paren == 0)
        return {};
    const std::string_view path = frame.substr(0, paren);
    const auto slash = path.find_last_of("/\\");
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string formatStack(std::string_view cell, std::size_t maxFrames)
{
    std::vector<std::string_view> frames;
    while (!cell.empty()) {
        const auto end = cell.find('\n');
        std::string_view frame = cell.substr(0, end);
        while (!frame.empty() && (frame.back() == '\r' || std::isspace(static_cast<unsigned char>(frame.back()))))
            frame.remove_suffix(1);
        while (!frame.empty() && std::isspace(static_cast<unsigned char>(frame.front())))
            frame.remove_prefix(1);
        if (!frame.empty() && frame != "NA")
            frames.push_back(frame);
        cell = end == std::string_view::npos ? std::string_view() : cell.substr(end + 1);
    }
    std::string out;
    std::size_t shown = 0;
    for (std::size_t i = 0; i < frames.size() && shown < maxFrames;) {
        std::size_t repeats = 1;
        while (i + repeats < frames.size() && frames[i + repeats] == frames[i])
            ++repeats;
        out += (out.empty() ? "" : "\n") + std::string("  ") + std::string(frames[i]);
        if (repeats > 1)
            out += "\n  <repeats " + std::to_string(repeats - 1) + " times>";
        i += repeats;
        ++shown;
        if (shown == maxFrames && i < frames.size())
            out += "\n  … " + std::to_string(frames.size() - i) + " more";
    }
    return out;
}

} // namespace msprobe::studio
