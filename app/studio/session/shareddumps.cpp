// SPDX-License-Identifier: Apache-2.0
#include "shareddumps.h"

#include "dump/dump_json_reader.h"

namespace fs = std::filesystem;

std::shared_ptr<SharedDumps::Slot> SharedDumps::slotOf(const fs::path& file)
{
    std::error_code ec;
    fs::path key = fs::weakly_canonical(file, ec);
    if (ec)
        key = file.lexically_normal();
    const std::lock_guard lock(m_mutex);
    auto& slot = m_slots[key.string()];
    if (!slot)
        slot = std::make_shared<Slot>();
    return slot;
}

msprobe::DumpFile SharedDumps::read(const fs::path& file)
{
    ++m_parses;
    return msprobe::readDumpJson(file);
}

std::shared_ptr<const msprobe::DumpFile> SharedDumps::borrow(const fs::path& file)
{
    const auto slot = slotOf(file);
    const std::lock_guard lock(slot->mutex);
    if (!slot->dump)
        slot->dump = std::make_shared<msprobe::DumpFile>(read(file));
    return slot->dump;
}

msprobe::DumpFile SharedDumps::take(const fs::path& file)
{
    const auto slot = slotOf(file);
    const std::lock_guard lock(slot->mutex);
    // use_count 1: only the cache holds it (the graphs built from it are gone), so it can move out whole. The
    // parsed entry names view into the dump's own string pool, which a move keeps and a copy would not.
    if (slot->dump && slot->dump.use_count() == 1) {
        msprobe::DumpFile dump = std::move(*slot->dump);
        slot->dump.reset();
        return dump;
    }
    return read(file);
}
