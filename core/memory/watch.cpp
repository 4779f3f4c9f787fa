// SPDX-License-Identifier: Apache-2.0
#include "memory/watch.h"

#include "memory/csv_stream.h"
#include "support/error.h"

#include <array>
#include <cstdio>
#include <map>
#include <regex>

namespace msprobe::memory {

namespace {

constexpr std::uint64_t kPolynomial = 0x42F0E1EBA9EA3693ull;

std::array<std::uint64_t, 256> makeTable()
{
    std::array<std::uint64_t, 256> table {};
    for (std::uint64_t n = 0; n < 256; ++n) {
        std::uint64_t crc = n;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 1) ? (crc >> 1) ^ kPolynomial : crc >> 1;
        table[n] = crc;
    }
    return table;
}

std::string trimmed(std::string text)
{
    while (!text.empty() && (text.back() == ' ' || text.back() == '\r'))
        text.pop_back();
    while (!text.empty() && text.front() == ' ')
        text.erase(text.begin());
    return text;
}

} // namespace

std::uint64_t watchChecksum(const void* data, std::size_t size)
{
    static const auto table = makeTable();
    const auto* bytes = static_cast<const unsigned char*>(data);
    std::uint64_t crc = ~0ull;
    for (std::size_t i = 0; i < size; ++i)
        crc = table[(crc ^ bytes[i]) & 0xff] ^ (crc >> 8);
    return crc ^ ~0ull;
}

std::string watchChecksumText(std::uint64_t crc)
{
    char text[20];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(crc));
    return text;
}

WatchReport readWatchChecksums(const std::filesystem::path& file)
{
    CsvStream csv(file);
    const std::string name = file.string();
    std::vector<std::string> cells;
    if (!csv.next(cells))
        throw support::Error(name, {}, "is empty (a watch checksum file starts with \"Tensor info,Check data sum\")");
    if (cells.size() < 2 || trimmed(cells[0]) != "Tensor info" || trimmed(cells[1]) != "Check data sum")
        throw support::Error(name, "line 1", "the header is not \"Tensor info,Check data sum\"");
    static const std::regex shape(R"(^(?:(.*)/)?(.+)_(\d+)-(.+)_([^_]+)_(before|after)(?:\.bin)?$)");
    WatchReport report;
    while (csv.next(cells)) {
        const auto line = static_cast<std::size_t>(csv.recordLine());
        const std::string place = "line " + std::to_string(line);
        if (cells.size() != 2)
            throw support::Error(name, place, "row has " + std::to_string(cells.size()) + " cells, not 2");
        WatchDump dump;
        dump.line = line;
        dump.tensorInfo = trimmed(cells[0]);
        dump.checksum = trimmed(cells[1]);
        std::smatch match;
        if (!std::regex_match(dump.tensorInfo, match, shape))
            throw support::Error(name, place + ", column 1 (Tensor info)",
                "\"" + dump.tensorInfo.substr(0, 80) + "\" is not {dev}_{tid}/{op}_{call}-{watched}_{index}_{before|after}");
        dump.thread = match[1];
        dump.op = match[2];
        dump.call = std::stoull(match[3].str().substr(0, 18));
        dump.watched = match[4];
        dump.index = match[5];
        dump.after = match[6] == "after";
        if (dump.checksum.size() != 16 || dump.checksum.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
            throw support::Error(name, place + ", column 2 (Check data sum)", "\"" + dump.checksum.substr(0, 40) + "\" is not 16 hex digits");
        report.dumps.push_back(std::move(dump));
    }
    std::map<std::string, std::size_t> last; // tensor -> index of its previous dump
    for (std::size_t k = 0; k < report.dumps.size(); ++k) {
        const auto& dump = report.dumps[k];
        const std::string tensor = dump.thread + "/" + dump.watched + "_" + dump.index;
        auto found = last.find(tensor);
        if (found != last.end()) {
            const auto& previous = report.dumps[found->second];
            if (previous.checksum != dump.checksum) {
                const bool inside = !previous.after && dump.after && previous.op == dump.op && previous.call == dump.call;
                report.changes.push_back({ dump.watched + "_" + dump.index, found->second, k, inside });
            }
        }
        last[tensor] = k;
    }
    return report;
}

} // namespace msprobe::memory
