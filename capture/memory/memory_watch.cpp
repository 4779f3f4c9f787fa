// SPDX-License-Identifier: Apache-2.0
#include "capture/memory/memory_watch.h"

#include "capture/memory/memory_recorder.h"
#include "support/error.h"

#include <array>
#include <cinttypes>
#include <cstring>

namespace msprobe::capture::memory {

namespace {

std::array<std::uint64_t, 256> makeCrcTable()
{
    std::array<std::uint64_t, 256> table {};
    for (std::uint64_t i = 0; i < 256; ++i) {
        std::uint64_t crc = i;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 1) ? (crc >> 1) ^ 0x42F0E1EBA9EA3693ULL : crc >> 1;
        table[i] = crc;
    }
    return table;
}

} // namespace

std::uint64_t memscopeCrc64(const void* data, std::size_t size)
{
    static const auto table = makeCrcTable();
    const auto* bytes = static_cast<const unsigned char*>(data);
    std::uint64_t crc = ~0ULL;
    for (std::size_t i = 0; i < size; ++i)
        crc = table[(crc ^ bytes[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

std::string crc64Hex(std::uint64_t crc)
{
    char text[20];
    std::snprintf(text, sizeof text, "%016" PRIx64, crc);
    return text;
}

namespace {

// "aten::add" matches torch._ops.aten.add.<any overload>, aten::add.<any>, and the exact display name.
bool sameOp(const std::string& given, const std::string& display)
{
    if (given == display)
        return true;
    std::string prefix = given;
    if (const auto sep = given.find("::"); sep != std::string::npos)
        prefix = "torch._ops." + given.substr(0, sep) + "." + given.substr(sep + 2);
    if (display.rfind(prefix + ".", 0) == 0 && display.find('.', prefix.size() + 1) == std::string::npos)
        return true;
    return display.rfind(given + ".", 0) == 0 && display.find('.', given.size() + 1) == std::string::npos;
}

std::uint64_t tensorCrc(const at::Tensor& t)
{
    if (!t.defined() || !t.has_storage() || !t.storage().data())
        return memscopeCrc64(nullptr, 0);
    if (t.is_contiguous())
        return memscopeCrc64(t.data_ptr(), static_cast<std::size_t>(t.numel()) * t.itemsize());
    return memscopeCrc64(t.storage().data(), t.storage().nbytes());
}

void dump(Session& s, WatchState& w, std::uint32_t opName, const char* when)
{
    const std::string op = strings().get(opName);
    const std::int64_t call = w.calls[opName];
    const std::string prefix = (s.compat ? "0_" : "cpu_") + std::to_string(currentTid()) + "/" + op + "_"
        + std::to_string(call) + "-" + w.watchedName + "_";
    for (std::size_t i = 0; i < w.tensors.size(); ++i) {
        const std::string row = prefix + std::to_string(i) + "_" + when + "," + crc64Hex(tensorCrc(w.tensors[i])) + "\n";
        std::fwrite(row.data(), 1, row.size(), w.file);
    }
}

} // namespace

std::unique_ptr<WatchState> openWatch(const std::string& startOp, const std::string& endOp,
    const std::filesystem::path& file)
{
    auto w = std::make_unique<WatchState>();
    w->startOp = startOp;
    w->endOp = endOp;
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    w->file = std::fopen(file.c_str(), "wb");
    if (!w->file)
        throw support::Error(file.string(), "", std::string("cannot create watch checksum file: ") + std::strerror(errno));
    std::fprintf(w->file, "%s\n", kWatchCsvHeader);
    return w;
}

void closeWatch(WatchState& w)
{
    std::lock_guard lock(w.mutex);
    if (w.file) {
        std::fclose(w.file);
        w.file = nullptr;
    }
    w.tensors.clear();
}

void watchOpStart(Session& s, std::uint32_t opName)
{
    WatchState& w = *s.watch;
    std::lock_guard lock(w.mutex);
    ++w.calls[opName];
    if (w.watching && w.file)
        dump(s, w, opName, "before");
}

void watchOpEnd(Session& s, std::uint32_t opName, const std::vector<c10::IValue>& outputs)
{
    WatchState& w = *s.watch;
    std::lock_guard lock(w.mutex);
    if (w.done || !w.file)
        return;
    const std::string op = strings().get(opName);
    if (!w.watching && sameOp(w.startOp, op)) {
        for (const auto& v : outputs)
            if (v.isTensor())
                w.tensors.push_back(v.toTensor());
        w.watchedName = op;
        w.watching = !w.tensors.empty();
    }
    if (!w.watching)
        return;
    dump(s, w, opName, "after");
    if (sameOp(w.endOp, op)) {
        w.watching = false;
        w.done = true;
        w.tensors.clear();
        std::fflush(w.file);
    }
}

} // namespace msprobe::capture::memory
