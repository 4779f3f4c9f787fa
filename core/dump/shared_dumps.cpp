// SPDX-License-Identifier: Apache-2.0
#include "dump/shared_dumps.h"

#include "dump/dump_json_reader.h"

namespace msprobe::dump {

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

std::shared_ptr<const DumpFile> SharedDumps::borrow(const fs::path& file)
{
    const auto slot = slotOf(file);
    const std::lock_guard lock(slot->mutex);
    if (!slot->dump) {
        ++m_parses;
        slot->dump = m_parse ? m_parse(file) : std::make_shared<const DumpFile>(readDumpJson(file));
    }
    return slot->dump;
}

} // namespace msprobe::dump
