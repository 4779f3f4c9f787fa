// SPDX-License-Identifier: Apache-2.0
#include "dump/dump_model.h"

#include "support/huge_pages.h"
#include "support/python_text.h"

#include <cstring>

namespace msprobe::dump {

bool StatValue::operator==(const StatValue& other) const
{
    if (kind != other.kind)
        return false;
    switch (kind) {
    case StatKind::Int: return i == other.i;
    case StatKind::Float: return f == other.f || (std::isnan(f) && std::isnan(other.f));
    case StatKind::Bool: return b == other.b;
    default: return true;
    }
}

namespace {

std::uint64_t statBits(const StatValue& value)
{
    std::uint64_t bits = 0;
    if (value.kind == StatKind::Float)
        std::memcpy(&bits, &value.f, sizeof bits);
    else if (value.kind == StatKind::Int)
        bits = static_cast<std::uint64_t>(value.i);
    else if (value.kind == StatKind::Bool)
        bits = value.b ? 1 : 0;
    return bits;
}

} // namespace

void StatColumn::push(const StatValue& value)
{
    m_kind.push_back(value.kind);
    m_bits.push_back(statBits(value));
}

void StatColumn::adviseHugePages() const
{
    support::adviseHugePages(m_kind.data(), m_kind.capacity() * sizeof(StatKind));
    support::adviseHugePages(m_bits.data(), m_bits.capacity() * sizeof(std::uint64_t));
}

void StatColumn::set(std::size_t row, const StatValue& value)
{
    m_kind[row] = value.kind;
    m_bits[row] = statBits(value);
}

StatValue StatColumn::operator[](std::size_t row) const
{
    const std::uint64_t bits = m_bits[row];
    switch (m_kind[row]) {
    case StatKind::Float: {
        double f;
        std::memcpy(&f, &bits, sizeof f);
        return StatValue::ofFloat(f);
    }
    case StatKind::Int: return StatValue::ofInt(static_cast<std::int64_t>(bits));
    case StatKind::Bool: return StatValue::ofBool(bits != 0);
    case StatKind::Null: return StatValue::null();
    case StatKind::Missing: break;
    }
    return {};
}

std::string pythonText(const StatValue& value)
{
    switch (value.kind) {
    case StatKind::Int: return std::to_string(value.i);
    case StatKind::Float: return support::pythonFloatRepr(value.f);
    case StatKind::Bool: return std::string(support::pythonBool(value.b));
    case StatKind::Null:
    case StatKind::Missing: break;
    }
    return "None";
}

std::vector<std::uint32_t> DumpFile::children(std::uint32_t node) const
{
    std::vector<std::uint32_t> result;
    const auto& parent = nodes[node];
    if (parent.kind != NodeKind::List && parent.kind != NodeKind::Dict)
        return result;
    const std::uint32_t end = node + parent.subtreeSize;
    for (std::uint32_t child = node + 1; child < end; child += nodes[child].subtreeSize)
        result.push_back(child);
    return result;
}

std::int64_t DumpFile::childByKey(std::uint32_t node, std::string_view key) const
{
    const auto& parent = nodes[node];
    if (parent.kind != NodeKind::Dict)
        return -1;
    const std::uint32_t end = node + parent.subtreeSize;
    for (std::uint32_t child = node + 1; child < end; child += nodes[child].subtreeSize)
        if (strings.view(nodes[child].key) == key)
            return child;
    return -1;
}

bool tensorHasNanOrInf(const TensorTable& tensors, std::size_t row)
{
    return tensors.max[row].isNonFinite() || tensors.min[row].isNonFinite() || tensors.mean[row].isNonFinite()
        || tensors.norm[row].isNonFinite();
}

DumpCounts countEntries(const DumpFile& dump)
{
    DumpCounts counts;
    counts.entries = dump.entries.size();
    for (const auto& entry : dump.entries) {
        switch (entry.parsed.kind) {
        case EntryKind::Api: ++counts.api; break;
        case EntryKind::Module: ++counts.module; break;
        case EntryKind::ParametersGrad: ++counts.parametersGrad; break;
        case EntryKind::Debug: ++counts.debug; break;
        case EntryKind::Unknown: ++counts.unknown; break;
        }
        if (entry.parsed.direction == Direction::Backward)
            ++counts.backward;
    }
    // Tensors below the entries' bodies: the rows of a value that a repeated key replaced are not counted.
    for (const auto& entry : dump.entries) {
        const std::uint32_t end = entry.body + dump.nodes[entry.body].subtreeSize;
        for (std::uint32_t node = entry.body; node < end; ++node) {
            if (dump.nodes[node].kind != NodeKind::Tensor)
                continue;
            ++counts.tensors;
            if (tensorHasNanOrInf(dump.tensors, dump.nodes[node].payload))
                ++counts.tensorsWithNanOrInf;
        }
    }
    return counts;
}

} // namespace msprobe::dump
