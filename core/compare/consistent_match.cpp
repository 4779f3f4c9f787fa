// SPDX-License-Identifier: Apache-2.0
#include "compare/consistent_match.h"
#include "support/ascii_text.h"

#include "support/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <regex>
#include <tuple>
#include <unordered_map>

namespace msprobe::compare {

namespace {

constexpr double kNoPosition = std::numeric_limits<double>::quiet_NaN();

std::string_view afterLastDot(std::string_view s)
{
    const std::size_t dot = s.rfind('.');
    return dot == std::string_view::npos ? s : s.substr(dot + 1);
}

// The join key of one item (spec 2.11).
struct JoinKey {
    std::string callDirection, suffix;
    long long layer = -1;
    std::string module;
    auto tie() const { return std::tie(callDirection, suffix, layer, module); }
    bool operator<(const JoinKey& o) const { return tie() < o.tie(); }
    bool operator==(const JoinKey& o) const { return tie() == o.tie(); }
};

// The training side's forward counters are renumbered by order of appearance of the op (update_forward_call).
std::string renumberedCallDirection(const EntryInfo& entry)
{
    std::string_view cd = entry.callDirection;
    if (entry.kind != CallKind::Forward)
        return std::string(cd);
    const std::size_t dot = cd.rfind('.');
    if (dot == std::string_view::npos)
        return std::string(cd);
    std::string head(cd.substr(0, dot)), tail(cd.substr(dot + 1));
    const bool headDigits = support::isDigits(head), tailDigits = support::isDigits(tail);
    if (!headDigits && !tailDigits)
        return std::string(cd);
    if (headDigits)
        head = std::to_string(entry.forwardOrder);
    if (tailDigits)
        tail = std::to_string(entry.forwardOrder);
    return head + "." + tail;
}

std::string regexReplaceFirst(const std::string& text, const std::regex& pattern)
{
    return std::regex_replace(text, pattern, "", std::regex_constants::format_first_only);
}

// module_class -> (module, module_len) as get_op_module_and_class splits it.
struct ModuleSplit {
    std::string module;
    std::size_t moduleLen = 1;
};

ModuleSplit splitModuleClass(const std::string& moduleClass)
{
    ModuleSplit out;
    const std::size_t dot = moduleClass.rfind('.');
    if (dot != std::string::npos)
        out.module = moduleClass.substr(0, dot);
    out.moduleLen = static_cast<std::size_t>(std::count(out.module.begin(), out.module.end(), '.')) + 1;
    return out;
}

const std::map<std::string, std::string, std::less<>>& moduleMap(bool fsdp)
{
    static const std::map<std::string, std::string, std::less<>> fsdpMap = { { "q_proj", "qkv_proj" },
        { "k_proj", "qkv_proj" }, { "v_proj", "qkv_proj" }, { "gate_proj", "gate_up_proj" },
        { "up_proj", "gate_up_proj" } };
    static const std::map<std::string, std::string, std::less<>> megatronMap = { { "word_embeddings", "embed_tokens" },
        { "self_attention", "self_attn" }, { "linear_qkv", "qkv_proj" }, { "q_layernorm", "q_norm" },
        { "k_layernorm", "k_norm" }, { "core_attention", "attn" }, { "linear_proj", "o_proj" }, { "router", "gate" },
        { "linear_fc1", "gate_up_proj" }, { "linear_fc2", "down_proj" } };
    return fsdp ? fsdpMap : megatronMap;
}

// The module_mapping column of every item of one side (get_op_module_and_class + process_module_mapping).
std::vector<std::string> moduleMappings(const ItemTable& table, bool training, bool fsdp)
{
    static const std::regex layersPrefix(R"(^.*layers\.\d+\.)");
    static const std::regex fsdpSplit(R"(_fsdp_wrapped_module.)");
    static const std::regex moduleModule(R"(^.*module.module\.)");
    static const std::regex inferModel(R"(^Module.model\.)");

    std::vector<ModuleSplit> perEntry(table.entries().size());
    for (std::size_t e = 0; e < perEntry.size(); ++e) {
        const std::string op(table.entries()[e].opNoNumber);
        std::string moduleClass;
        if (training) {
            // Series.str.split(pattern).str[-1]: the text after the last match of the (regex) pattern.
            const std::regex& pattern = fsdp ? fsdpSplit : layersPrefix;
            moduleClass = op;
            for (std::sregex_iterator it(op.begin(), op.end(), pattern), end; it != end; ++it)
                moduleClass = op.substr(static_cast<std::size_t>(it->position() + it->length()));
            moduleClass = regexReplaceFirst(moduleClass, moduleModule);
        } else {
            moduleClass = regexReplaceFirst(regexReplaceFirst(op, layersPrefix), inferModel);
        }
        perEntry[e] = splitModuleClass(moduleClass);
    }

    std::vector<std::string> out(table.items().size());
    if (!training && fsdp) {
        for (std::size_t i = 0; i < out.size(); ++i) {
            const std::string& module = perEntry[table.items()[i].entry].module;
            out[i] = std::string(module.find('.') == std::string::npos ? std::string_view(module) : afterLastDot(module));
        }
        return out;
    }
    // Rows with more than one module segment drop their first segment and map the rest; when no row has more than
    // one, the reference returns before mapping anything.
    const bool anyLong = std::any_of(table.items().begin(), table.items().end(),
        [&](const Item& item) { return perEntry[item.entry].moduleLen > 1; });
    const auto& map = moduleMap(fsdp);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const ModuleSplit& split = perEntry[table.items()[i].entry];
        if (!anyLong) {
            out[i] = split.module;
            continue;
        }
        std::string last = split.module;
        if (split.moduleLen > 1)
            last = split.module.substr(split.module.find('.') + 1);
        const auto mapped = map.find(last);
        out[i] = mapped == map.end() ? last : mapped->second;
    }
    return out;
}

std::vector<JoinKey> joinKeys(const ItemTable& table, bool training, bool fsdp)
{
    std::vector<std::string> modules = moduleMappings(table, training, fsdp);
    std::vector<JoinKey> keys(table.items().size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const Item& item = table.items()[i];
        const EntryInfo& entry = table.entries()[item.entry];
        keys[i].callDirection = training ? renumberedCallDirection(entry) : std::string(entry.callDirection);
        keys[i].suffix = std::string(table.suffix(item));
        keys[i].layer = consistentLayer(entry.opNoNumber);
        keys[i].module = std::move(modules[i]);
    }
    return keys;
}

// Python repr of one summary element as str(list) writes it; a float NaN is held as "Nan" in PyVal.
void appendSummaryRepr(std::string& out, const PyVal& v)
{
    if (v.kind == PyKind::Str) {
        if (v.s == kNanText) {
            out += "nan";
            return;
        }
        out += '\'';
        out += v.s;
        out += '\'';
        return;
    }
    appendPyText(out, v);
}

std::string summaryText(const ItemTable& table, const Item& item)
{
    PyVal stats[4];
    table.stats(item, stats);
    std::string out = "[";
    for (int k = 0; k < 4; ++k) {
        if (k)
            out += ", ";
        appendSummaryRepr(out, stats[k]);
    }
    out += ']';
    return out;
}

std::string_view strip(std::string_view s, std::string_view chars)
{
    while (!s.empty() && chars.find(s.front()) != std::string_view::npos)
        s.remove_prefix(1);
    while (!s.empty() && chars.find(s.back()) != std::string_view::npos)
        s.remove_suffix(1);
    return s;
}

// An element after summary_list_str_to_list: a float, or the text with its quotes stripped.
struct SummaryElement {
    bool isFloat = false;
    double f = 0;
    std::string s;
};

std::vector<SummaryElement> parseSummaryList(std::string_view text)
{
    if (support::asciiLower(text) == "nan")
        return std::vector<SummaryElement>(4, SummaryElement { false, 0, std::string(kNanText) });
    std::vector<SummaryElement> out;
    std::string_view body = strip(strip(text, " \t\n\r"), "[]");
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = body.find(',', start);
        const std::string_view part = strip(body.substr(start, comma == std::string_view::npos ? body.npos : comma - start), " \t\n\r");
        SummaryElement e;
        if (parsePythonFloat(part, e.f))
            e.isFloat = true;
        else
            e.s = std::string(strip(strip(part, "\""), "'"));
        out.push_back(std::move(e));
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return out;
}

void appendElementText(std::string& out, const SummaryElement& e)
{
    if (e.isFloat)
        support::appendPythonFloatRepr(out, e.f);
    else
        out += e.s;
}

OwnedPy toCell(const SummaryElement& e)
{
    OwnedPy cell;
    if (e.isFloat && !std::isnan(e.f)) {
        cell.kind = PyKind::Float;
        cell.f = e.f;
    } else {
        cell.s = e.isFloat || support::asciiLower(e.s) == "nan" ? std::string(kNanText) : e.s;
    }
    return cell;
}

// set_summary(parse_statistic_str(text)): one item's list, or several joined with ';' (max of Max, min of Min,
// the Means and Norms joined).
void summaryCells(const std::string& text, OwnedPy out[4])
{
    std::vector<SummaryElement> values;
    if (text.find(';') == std::string::npos) {
        values = parseSummaryList(text);
    } else {
        std::vector<std::vector<SummaryElement>> parts;
        std::size_t start = 0;
        bool anyNan = false;
        while (true) {
            const std::size_t semi = text.find(';', start);
            parts.push_back(parseSummaryList(std::string_view(text).substr(start, semi == std::string::npos ? std::string::npos : semi - start)));
            if (support::asciiLower(std::string_view(text).substr(start, semi == std::string::npos ? std::string::npos : semi - start)) == "nan")
                anyNan = true;
            if (semi == std::string::npos)
                break;
            start = semi + 1;
        }
        std::size_t columns = parts.front().size();
        for (const auto& p : parts)
            columns = std::min(columns, p.size());
        if (anyNan || columns != 4) {
            values.assign(4, SummaryElement { false, 0, std::string(kNanText) });
        } else {
            // Python max()/min() over the floats keep the first value unless a later one compares greater/less.
            auto extreme = [&](std::size_t k, bool isMax) {
                std::optional<double> best;
                for (const auto& p : parts)
                    if (p[k].isFloat && (!best || (isMax ? p[k].f > *best : p[k].f < *best)))
                        best = p[k].f;
                return best ? SummaryElement { true, *best, {} } : SummaryElement { false, 0, std::string(kNoneText) };
            };
            auto joined = [&](std::size_t k) {
                SummaryElement e;
                for (std::size_t i = 0; i < parts.size(); ++i) {
                    if (i)
                        e.s += ';';
                    appendElementText(e.s, parts[i][k]);
                }
                return e;
            };
            values = { extreme(0, true), extreme(1, false), joined(2), joined(3) };
        }
    }
    for (int k = 0; k < 4; ++k)
        out[k] = k < static_cast<int>(values.size()) ? toCell(values[static_cast<std::size_t>(k)]) : OwnedPy { PyKind::Str, 0, std::string(kNA) };
}

void fillSide(ConsistentSide& side, const ItemTable& table, const std::vector<std::uint32_t>& items, bool xlsx)
{
    side.items = items;
    if (items.empty()) {
        side.name = side.dtype = side.shape = side.dataName = side.requiresGrad = side.md5 = side.apiOriginName = std::string(kNA);
        for (auto& s : side.stats)
            s = OwnedPy { PyKind::Str, 0, std::string(kNA) };
        return;
    }
    const std::string_view nameJoin = xlsx ? ";\n" : ";  ";
    std::string summary;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Item& item = table.items()[items[i]];
        if (i) {
            side.name += nameJoin;
            side.dtype += ';';
            side.shape += ';';
            side.dataName += ';';
            summary += ';';
        }
        side.name += table.name(item);
        side.dtype += table.dtype(item);
        side.shape += table.shape(item);
        side.dataName += table.dataName(item);
        summary += summaryText(table, item);
    }
    const Item& first = table.items()[items.front()];
    side.requiresGrad = std::string(table.requiresGrad(first));
    side.md5 = table.fields(first).md5;
    side.apiOriginName = std::string(table.entryName(first));
    summaryCells(summary, side.stats);
}

// dual_monotonic_sort: an order in which both position columns (ignoring missing ones) increase.
std::vector<std::size_t> dualMonotonicOrder(const std::vector<double>& pos1, const std::vector<double>& pos2)
{
    const std::size_t n = pos1.size();
    auto sortedBy = [n](const std::vector<double>& pos) {
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            if (std::isnan(pos[a]) || std::isnan(pos[b]))
                return !std::isnan(pos[a]) && std::isnan(pos[b]);
            return pos[a] < pos[b];
        });
        return order;
    };
    const std::vector<std::size_t> order1 = sortedBy(pos1), order2 = sortedBy(pos2);
    std::vector<bool> used(n, false);
    std::vector<std::size_t> result;
    result.reserve(n);
    std::size_t i = 0, j = 0;
    while (result.size() < n) {
        while (i < n && used[order1[i]])
            ++i;
        while (j < n && used[order2[j]])
            ++j;
        const std::optional<std::size_t> min1 = i < n ? std::optional(order1[i]) : std::nullopt;
        const std::optional<std::size_t> min2 = j < n ? std::optional(order2[j]) : std::nullopt;
        std::optional<std::size_t> picked;
        for (const auto& k : { min1, min2 }) {
            if (!k || used[*k])
                continue;
            const bool ok1 = std::isnan(pos1[*k]) || (min1 && *k == *min1);
            const bool ok2 = std::isnan(pos2[*k]) || (min2 && *k == *min2);
            if (ok1 && ok2) {
                picked = k;
                break;
            }
        }
        if (!picked)
            throw support::Error("--consistent_check: the training and inference dumps cannot both stay in dump order (an item "
                        "matched across the order of the other side); check that the two dumps come from the same model");
        used[*picked] = true;
        result.push_back(*picked);
    }
    return result;
}

} // namespace

long long consistentLayer(std::string_view opNoNumber)
{
    static constexpr std::string_view marker = "layers.";
    for (std::size_t at = opNoNumber.find(marker); at != std::string_view::npos; at = opNoNumber.find(marker, at + 1)) {
        std::size_t end = at + marker.size();
        while (end < opNoNumber.size() && opNoNumber[end] >= '0' && opNoNumber[end] <= '9')
            ++end;
        if (end == at + marker.size())
            continue;
        long long value = 0;
        for (std::size_t k = at + marker.size(); k < end; ++k)
            value = value * 10 + (opNoNumber[k] - '0');
        return value;
    }
    return -1;
}

std::string squeezeShapeText(std::string_view shape)
{
    std::string out = "[";
    bool first = true;
    std::string_view body = strip(shape, "[]");
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = body.find(',', start);
        const std::string_view part = strip(body.substr(start, comma == std::string_view::npos ? body.npos : comma - start), " ");
        if (part != "1") {
            if (!first)
                out += ',';
            out += part;
            first = false;
        }
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return out + "]";
}

std::vector<ConsistentRow> matchConsistent(const ItemTable& npu, const ItemTable& bench, const CompareOptions& options)
{
    const bool fsdp = options.consistentBackend == "fsdp";
    if (!fsdp && options.consistentBackend != "megatron")
        throw support::Error("--consistent_check: unknown --backend '" + options.consistentBackend + "' (fsdp or megatron)");
    const std::vector<JoinKey> npuKeys = joinKeys(npu, true, fsdp);
    const std::vector<JoinKey> benchKeys = joinKeys(bench, false, fsdp);

    // The outer join, in the order pandas gives it: keys sorted, left rows then their right partners.
    struct Pair {
        std::int64_t npu = -1, bench = -1;
    };
    std::map<JoinKey, std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>> byKey;
    for (std::uint32_t i = 0; i < npuKeys.size(); ++i)
        byKey[npuKeys[i]].first.push_back(i);
    for (std::uint32_t j = 0; j < benchKeys.size(); ++j)
        byKey[benchKeys[j]].second.push_back(j);
    std::vector<Pair> pairs;
    for (const auto& [key, sides] : byKey) {
        const auto& [left, right] = sides;
        if (left.empty())
            for (std::uint32_t b : right)
                pairs.push_back({ -1, b });
        else if (right.empty())
            for (std::uint32_t n : left)
                pairs.push_back({ n, -1 });
        else
            for (std::uint32_t n : left)
                for (std::uint32_t b : right)
                    pairs.push_back({ n, b });
    }

    // Aggregation: FSDP merges the training items that share one inference item, Megatron the inference items that
    // share one training item; rows without a partner on the grouping side stay single.
    struct Group {
        std::vector<std::uint32_t> npu, bench;
    };
    std::vector<Group> groups, singles;
    std::unordered_map<std::string, std::size_t> groupOf;
    for (const Pair& p : pairs) {
        const bool grouped = fsdp ? p.bench >= 0 : p.npu >= 0;
        if (!grouped) {
            Group g;
            (fsdp ? g.npu : g.bench).push_back(static_cast<std::uint32_t>(fsdp ? p.npu : p.bench));
            singles.push_back(std::move(g));
            continue;
        }
        const std::string groupName = fsdp ? bench.name(bench.items()[static_cast<std::size_t>(p.bench)])
                                           : npu.name(npu.items()[static_cast<std::size_t>(p.npu)]);
        auto [it, inserted] = groupOf.emplace(groupName, groups.size());
        if (inserted) {
            Group g;
            if (fsdp)
                g.bench.push_back(static_cast<std::uint32_t>(p.bench));
            else
                g.npu.push_back(static_cast<std::uint32_t>(p.npu));
            groups.push_back(std::move(g));
        }
        Group& g = groups[it->second];
        if (fsdp && p.npu >= 0)
            g.npu.push_back(static_cast<std::uint32_t>(p.npu));
        if (!fsdp && p.bench >= 0)
            g.bench.push_back(static_cast<std::uint32_t>(p.bench));
    }
    groups.insert(groups.end(), std::make_move_iterator(singles.begin()), std::make_move_iterator(singles.end()));

    // Positions: of the (first) name of each side in its dump; a name seen twice keeps its last position.
    auto positions = [](const ItemTable& table) {
        std::unordered_map<std::string, double> pos;
        for (std::size_t i = 0; i < table.items().size(); ++i)
            pos[table.name(table.items()[i])] = static_cast<double>(i);
        return pos;
    };
    const auto npuPos = positions(npu), benchPos = positions(bench);
    std::vector<ConsistentRow> rows(groups.size());
    std::vector<double> pos1(groups.size()), pos2(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) {
        fillSide(rows[g].npu, npu, groups[g].npu, options.xlsxLayout);
        fillSide(rows[g].bench, bench, groups[g].bench, options.xlsxLayout);
        auto lookup = [](const auto& pos, const ItemTable& table, const std::vector<std::uint32_t>& items) {
            if (items.empty())
                return kNoPosition;
            const auto it = pos.find(table.name(table.items()[items.front()]));
            return it == pos.end() ? kNoPosition : it->second;
        };
        pos1[g] = lookup(npuPos, npu, groups[g].npu);
        pos2[g] = lookup(benchPos, bench, groups[g].bench);
        if (!groups[g].npu.empty() && npu.items()[groups[g].npu.front()].firstOfEntry)
            rows[g].stackItem = groups[g].npu.front();
    }
    const std::vector<std::size_t> order = dualMonotonicOrder(pos1, pos2);
    std::vector<ConsistentRow> ordered;
    ordered.reserve(rows.size());
    for (std::size_t k : order)
        ordered.push_back(std::move(rows[k]));

    // fill_state_api_origin_name: rows without a training item borrow the training entry name seen with their
    // inference entry elsewhere (the last one seen), else keep the inference entry name.
    std::unordered_map<std::string, std::string> borrowed;
    for (const ConsistentRow& row : ordered)
        if (row.npu.present() && row.bench.present())
            borrowed[row.bench.apiOriginName] = row.npu.apiOriginName;
    for (ConsistentRow& row : ordered) {
        if (row.npu.present()) {
            row.apiOriginName = row.npu.apiOriginName;
            continue;
        }
        const auto it = borrowed.find(row.bench.apiOriginName);
        row.apiOriginName = it == borrowed.end() ? row.bench.apiOriginName : it->second;
    }
    return ordered;
}

} // namespace msprobe::compare
