// SPDX-License-Identifier: Apache-2.0
// The .pt reader's archive part: the records of a torch.save zip archive (data.pkl, byteorder, data/N) read through
// dump/pt_zip.h, each refused before it is read when the archive says it is larger than what it may hold.
#include "dump/pt_zip.h"
#include "dump/tensor_file_pt.h"
#include "support/error.h"

#include <fstream>
#include <optional>
#include <string>

namespace msprobe::dump {

namespace {

// Far above the few hundred bytes torch.save writes for one tensor's pickle.
constexpr std::size_t kMaxPickleBytes = std::size_t(1) << 20;

// Refuses a record that would inflate to more than limit bytes, before it is read (a zip bomb: a few MB of
// file that getRecord would inflate whole into gigabytes).
void checkRecordSize(
    const PtZipArchive& archive, const std::string& record, std::uint64_t limit, const std::string& file, const std::string& what)
{
    const std::optional<std::uint64_t> size = archive.recordSize(record);
    if (size && *size > limit)
        throw support::Error(file, record,
            "the record inflates to " + std::to_string(*size) + " bytes, more than the " + std::to_string(limit) + " bytes "
                + what + ": refused without reading it");
}

bool archiveIsBigEndian(const PtZipArchive& archive, const std::string& file)
{
    // Written by torch >= 2.1; older archives are little-endian.
    if (!archive.hasRecord("byteorder"))
        return false;
    checkRecordSize(archive, "byteorder", 16, file, "allowed for a byte order");
    const PtZipArchive::Record record = archive.getRecord("byteorder");
    const std::string_view order(static_cast<const char*>(record.data), record.size);
    if (order == "little")
        return false;
    if (order == "big")
        return true;
    throw support::Error(file, "byteorder", "unknown byte order '" + std::string(order.substr(0, 16)) + "'");
}

// torch.save before torch 1.6 (or with _use_new_zipfile_serialization=False) wrote a bare pickle stream
// starting with the protocol-2 magic number 0x1950a86a20f9469cfc6c.
bool isLegacyTorchSave(const std::string& name)
{
    std::ifstream in(name, std::ios::binary);
    char head[4] = {};
    in.read(head, sizeof head);
    return in.gcount() == sizeof head && std::string_view(head, sizeof head) == "\x80\x02\x8a\x0a";
}

TensorData readArchive(const std::string& name)
{
    if (isLegacyTorchSave(name))
        throw support::Error(name, "", "the legacy (pre-1.6, non-zip) torch.save format is not supported");
    PtZipArchive archive(name);
    if (!archive.hasRecord("data.pkl"))
        throw support::Error(name, "", "no data.pkl record: not an archive written by torch.save");
    checkRecordSize(archive, "data.pkl", kMaxPickleBytes, name, "allowed for the pickle of one tensor");
    const PtZipArchive::Record pickle = archive.getRecord("data.pkl");
    const std::size_t pickleSize = pickle.size;
    if (pickleSize > kMaxPickleBytes)
        throw support::Error(name, "data.pkl", "pickle of " + std::to_string(pickleSize) + " bytes is too large for one tensor");
    const detail::PickledTensor tensor
        = detail::unpickleTensor(static_cast<const unsigned char*>(pickle.data), pickleSize, name);
    const bool bigEndian = archiveIsBigEndian(archive, name);

    const detail::PickledStorage& storage = *tensor.storage;
    const std::string record = "data/" + storage.key;
    std::int64_t declaredBytes = 0;
    if (__builtin_mul_overflow(
            storage.numel, static_cast<std::int64_t>(elementSize(storage.elementType)), &declaredBytes))
        throw support::Error(name, record, "storage size " + std::to_string(storage.numel) + " is too large");
    PtZipArchive::Record data;
    if (declaredBytes > 0) {
        if (!archive.hasRecord(record))
            throw support::Error(name, record, "storage record is missing");
        checkRecordSize(archive, record, static_cast<std::uint64_t>(declaredBytes), name,
            "its pickle describes (" + std::to_string(storage.numel) + " elements of "
                + std::string(torchDtypeName(storage.elementType)) + ")");
        data = archive.getRecord(record);
    }
    const std::size_t dataSize = data.size;
    if (static_cast<std::uint64_t>(declaredBytes) > dataSize)
        throw support::Error(name, record,
            "truncated storage: " + std::to_string(storage.numel) + " elements of "
                + std::string(torchDtypeName(storage.elementType)) + " need " + std::to_string(declaredBytes)
                + " bytes, the record has " + std::to_string(dataSize));
    return detail::decodeStrided(tensor.layout, static_cast<const unsigned char*>(data.data),
        static_cast<std::size_t>(declaredBytes), bigEndian, name, record);
}

} // namespace

namespace detail {

TensorData readPtFile(const std::filesystem::path& file)
{
    const std::string name = file.string();
    try {
        return readArchive(name);
    } catch (const support::Error&) {
        throw;
    } catch (const PtZipFailure& e) {
        throw support::Error(name, "", std::string("cannot read as a torch.save archive: ") + e.what());
    }
}

} // namespace detail

} // namespace msprobe::dump
