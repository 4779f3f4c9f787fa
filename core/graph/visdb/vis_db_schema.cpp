// SPDX-License-Identifier: Apache-2.0
#include "graph/visdb/vis_db_schema.h"

#include "compare/py_value.h"

#include <utility>
#include <vector>

namespace msprobe::graph {

namespace {

using Pairs = std::vector<std::pair<std::string_view, std::string_view>>;

// The reference's ToolTip texts (kept in Chinese: the plugin shows them as they are).
constexpr std::string_view kTipMaxDiff = "NPU与标杆API统计信息比对，最大值的差值";
constexpr std::string_view kTipMinDiff = "NPU与标杆API统计信息比对，最小值的差值";
constexpr std::string_view kTipMeanDiff = "NPU与标杆API统计信息比对，平均值的差值";
constexpr std::string_view kTipNormDiff = "NPU与标杆API统计信息比对，2范数（平方根）的差值";
constexpr std::string_view kTipMd5 = "数据MD5信息，用于比较两个数据信息是否完全一致";
constexpr std::string_view kTipOneThousandth
    = "Tensor中的元素逐个与对应的标杆数据对比，相对误差小于千分之一的比例占总元素个数的比例，比例越接近1越好";
constexpr std::string_view kTipFiveThousandths
    = "Tensor中的元素逐个与对应的标杆数据对比，相对误差小于千分之五的比例占总元素个数的比例，比例越接近1越好";
constexpr std::string_view kTipCosine = "通过计算两个向量的余弦值来判断其相似度，数值越接近于1说明计算出的两个张量越相似，实际可接受阈值为大于0.99。"
                                        "在计算中可能会存在nan，主要由于可能会出现其中一个向量为0";
constexpr std::string_view kTipMaxAbsErr = "当最大绝对误差越接近0表示其计算的误差越小，实际可接受阈值为小于0.001";
constexpr std::string_view kTipMaxRelativeErr = "当最大相对误差越接近0表示其计算的误差越小。"
                                                "当dump数据中存在0或Nan时，比对结果中最大相对误差则出现inf或Nan的情况，属于正常现象";

constexpr std::string_view kSummaryDescription = "此节点所有输入输出的统计量误差, 颜色越深代表调试侧与标杆侧的偏差越大";
constexpr std::string_view kTensorDescription = "此节点所有输入输出的 tensor 误差, 颜色越深代表调试侧与标杆侧的偏差越大";
constexpr std::string_view kMd5DifferentDescription = "与标杆相比, 此节点任意输入输出的md5值不同";
constexpr std::string_view kMd5SameDescription = "与标杆相比, 此节点所有输入输出的md5值相同";
constexpr std::string_view kNotMatchedDescription = "比对过程中节点未匹配上";

std::string stringMap(const Pairs& pairs)
{
    std::string out = "{";
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (i)
            out += ", ";
        support::appendJsonString(out, pairs[i].first);
        out += ": ";
        support::appendJsonString(out, pairs[i].second);
    }
    out += '}';
    return out;
}

void colour(std::string& out, std::string_view hex, std::string_view range, std::string_view description, std::string_view level)
{
    if (out.size() > 1)
        out += ", ";
    support::appendJsonString(out, hex);
    out += ": {\"value\": ";
    out += range;
    out += ", \"description\": ";
    support::appendJsonString(out, description);
    out += ", \"accuracy_level\": ";
    support::appendJsonString(out, level);
    out += '}';
}

} // namespace

std::string_view taskName(compare::CompareMode mode)
{
    switch (mode) {
    case compare::CompareMode::Md5: return "md5";
    case compare::CompareMode::Tensor: return "all";
    case compare::CompareMode::Statistics: break;
    }
    return "summary";
}

std::string toolTipJson(compare::CompareMode mode)
{
    switch (mode) {
    case compare::CompareMode::Md5: return stringMap({ { "md5", kTipMd5 } });
    case compare::CompareMode::Tensor:
        return stringMap({ { "One Thousandth Err Ratio", kTipOneThousandth }, { "Five Thousandths Err Ratio", kTipFiveThousandths },
            { "Cosine", kTipCosine }, { "MaxAbsErr", kTipMaxAbsErr }, { "MaxRelativeErr", kTipMaxRelativeErr } });
    case compare::CompareMode::Statistics: break;
    }
    return stringMap({ { "Max diff", kTipMaxDiff }, { "Min diff", kTipMinDiff }, { "Mean diff", kTipMeanDiff },
        { "L2norm diff", kTipNormDiff } });
}

std::string nodeColorsJson(compare::CompareMode mode)
{
    const std::string_view pass = mode == compare::CompareMode::Md5 ? kMd5SameDescription
        : mode == compare::CompareMode::Tensor                    ? kTensorDescription
                                                         : kSummaryDescription;
    const std::string_view bad = mode == compare::CompareMode::Md5 ? kMd5DifferentDescription : pass;
    std::string out = "{";
    colour(out, "#FFFCF3", "[0, 0.3]", pass, "pass");
    colour(out, "#FFDC7F", "[0.3, 0.6]", bad, "warning");
    colour(out, "#FF704D", "[0.6, 1]", bad, "error");
    colour(out, "#C7C7C7", "[]", kNotMatchedDescription, "unmatched node");
    out += '}';
    return out;
}

} // namespace msprobe::graph
