// SPDX-License-Identifier: Apache-2.0
// Analysis results written back into the dump they came from (spec §2.5 offline mode, §3 --write-back): one
// key:value added to the Attr of chosen rows, the CSV row addressed by its line, the .db row by (ID, Process Id).
// Everything else is kept byte for byte (CSV) or row for row (.db). The new file is built under a temporary name
// and renamed over the old one, so an error leaves the dump as it was.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace msprobe::memory {

struct AttrUpdate {
    std::uint32_t line = 0; // CSV: the line the row starts on (MemEvent::line)
    std::uint64_t id = 0; // the row's ID (checked against the CSV row; the .db key with pid)
    std::int32_t pid = -1;
    std::string key, value;
    // true: the value is a comma list merged into an existing one (new items appended, none removed — msMemScope's
    // rule for inefficient_type); false: the value replaces an existing one.
    bool mergeList = false;
};

// Throws msprobe::Error naming the file (and line or row) when a row is not where the update says (the dump
// changed since it was read) or the file cannot be rewritten; the dump is then untouched.
void writeBackAttrs(const std::filesystem::path& file, std::vector<AttrUpdate> updates);

// The Attr cell text (CSV-unquoted, "{k:v,...}" or empty) with `update` applied, §1.7 split rules.
std::string updatedAttr(std::string_view attr, const AttrUpdate& update);

} // namespace msprobe::memory
