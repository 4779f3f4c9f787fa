// SPDX-License-Identifier: Apache-2.0
#include "memorytimelineslidingraster.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <vector>

namespace msprobe::views::memorytimeline {

namespace {

// The prefix sums of the alive blocks' bytes (a Fenwick tree over allocation order): the offset of the first block
// a column changes in O(log n), whatever the number of blocks under it.
class ByteSums {
public:
    explicit ByteSums(std::size_t n) : m_tree(n + 1, 0) {}
    void add(std::size_t position, std::int64_t bytes)
    {
        for (std::size_t i = position + 1; i < m_tree.size(); i += i & (~i + 1))
            m_tree[i] += bytes;
    }
    std::int64_t below(std::size_t position) const
    {
        std::int64_t sum = 0;
        for (std::size_t i = position; i > 0; i -= i & (~i + 1))
            sum += m_tree[i];
        return sum;
    }

private:
    std::vector<std::int64_t> m_tree;
};

// rises[k]: the fewest bytes whose row is height - 1 - k or above (max when none), so that the row of b bytes is
// height minus the number of rises at most b — the same row as the division and rounding give, with no rounding.
std::vector<std::int64_t> rowRises(int height, double bytesPerRow)
{
    auto rowOf = [&](std::int64_t bytes) {
        return std::clamp(static_cast<int>(std::lround(height - static_cast<double>(bytes) / bytesPerRow)), 0, height);
    };
    constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t kFar = std::int64_t(1) << 62;
    std::vector<std::int64_t> rises(static_cast<std::size_t>(height), kNever);
    std::int64_t from = 0; // rises grow with k
    for (int k = 0; k < height; ++k) {
        const int row = height - 1 - k;
        if (rowOf(from) <= row) {
            rises[k] = from;
            continue;
        }
        // From the estimate, a gallop to a bracket low < rise <= high (rowOf(low) > row >= rowOf(high)), then a bisection.
        const double guess = std::ceil((height - row - 0.5) * bytesPerRow);
        std::int64_t low = from, high = kFar;
        const std::int64_t start = std::isfinite(guess) && guess < static_cast<double>(kFar) ? std::max(from + 1, static_cast<std::int64_t>(guess)) : kFar;
        if (rowOf(start) <= row) {
            high = start;
            for (std::int64_t step = 1; high - step > low; step *= 2) {
                if (rowOf(high - step) > row) {
                    low = high - step;
                    break;
                }
                high -= step;
            }
        } else {
            low = start;
            for (std::int64_t step = 1; low < kFar; step *= 2) {
                const std::int64_t probe = std::min(kFar, low + step);
                if (rowOf(probe) <= row) {
                    high = probe;
                    break;
                }
                low = probe;
            }
            if (rowOf(high) > row)
                break; // no byte count reaches this row (nor any above it)
        }
        while (high - low > 1) {
            const std::int64_t middle = low + (high - low) / 2;
            (rowOf(middle) <= row ? high : low) = middle;
        }
        rises[k] = from = high;
    }
    return rises;
}

} // namespace

void paintSlidingBlocks(QImage& layer, std::span<const SlidingBlock> blocks, std::span<const double> columnEdges, double bytesPerRow, QRgb edge)
{
    const int height = layer.height();
    const int width = std::min(layer.width(), static_cast<int>(columnEdges.size()) - 1);
    if (height <= 0 || width <= 0)
        return;
    uchar* const bits = layer.bits();
    const qsizetype stride = layer.bytesPerLine();
    auto pixel = [&](int x, int y) -> QRgb& { return reinterpret_cast<QRgb*>(bits + static_cast<qsizetype>(y) * stride)[x]; };
    const std::vector<std::int64_t> rises = rowRises(height, bytesPerRow);
    // How many rises b bytes have passed (the row is height minus that).
    auto risesUpTo = [&](std::int64_t bytes) { return static_cast<int>(std::upper_bound(rises.begin(), rises.end(), bytes) - rises.begin()); };

    const std::size_t n = blocks.size();
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    // Per block in allocation order: its bytes while alive in the column, 0 before it joins and once it is freed.
    std::vector<std::int64_t> alive(n, 0);
    std::vector<std::uint8_t> gone(n, 0);
    ByteSums sums(n);
    using Ending = std::pair<double, std::size_t>;
    std::priority_queue<Ending, std::vector<Ending>, std::greater<Ending>> ending;
    std::size_t next = 0, last = kNone; // the next block to join, the last one alive
    std::int64_t total = 0;
    int previousTop = height; // the highest row painted in the column before
    for (int c = 0; c < width; ++c) {
        const double t0 = columnEdges[static_cast<std::size_t>(c)], t1 = columnEdges[static_cast<std::size_t>(c) + 1];
        std::size_t changed = c == 0 ? 0 : kNone; // the lowest block that left or joined
        for (; !ending.empty() && ending.top().first < t0; ending.pop()) { // freed before this column
            const std::size_t p = ending.top().second;
            gone[p] = 1;
            sums.add(p, -alive[p]);
            total -= alive[p];
            alive[p] = 0;
            changed = std::min(changed, p);
        }
        if (next < n && blocks[next].startNs < t1)
            changed = std::min(changed, next);
        for (; next < n && blocks[next].startNs < t1; ++next) {
            if (blocks[next].endNs < t0) { // over before the first column: never shown
                gone[next] = 1;
                continue;
            }
            alive[next] = blocks[next].size;
            sums.add(next, blocks[next].size);
            total += blocks[next].size;
            ending.push({ blocks[next].endNs, next });
            last = next;
        }
        while (last != kNone && gone[last])
            last = last == 0 ? kNone : last - 1;
        if (changed == kNone) { // the same blocks at the same places as the column before
            for (int y = previousTop; y < height; ++y)
                pixel(c, y) = pixel(c - 1, y);
            continue;
        }
        // The blocks under the lowest changed one keep their places, and so do the rows they paint.
        std::int64_t offset = sums.below(changed);
        int passed = risesUpTo(offset), row = height - passed;
        int top = row;
        if (c > 0) {
            for (int y = std::max(row, previousTop); y < height; ++y)
                pixel(c, y) = pixel(c - 1, y);
            top = std::max(row, previousTop);
        }
        // From there up, a block paints the rows its top rises past; a block within one row paints nothing that
        // stays (the next one paints that row again).
        for (std::size_t p = changed; p < next;) {
            const std::int64_t rise = passed < height ? rises[static_cast<std::size_t>(passed)] : std::numeric_limits<std::int64_t>::max();
            while (p < next && offset + alive[p] < rise)
                offset += alive[p++];
            if (p == next)
                break;
            offset += alive[p];
            while (passed < height && rises[static_cast<std::size_t>(passed)] <= offset)
                ++passed;
            const int rowAbove = height - passed;
            for (int y = rowAbove; y < row; ++y)
                pixel(c, y) = blocks[p].colour;
            if (row - rowAbove >= 5)
                pixel(c, rowAbove) = edge;
            top = std::min(top, rowAbove);
            row = rowAbove;
            ++p;
        }
        // The last block alive is painted at least a row tall (nothing over it paints that row again).
        if (last != kNone && row >= 1 && height - risesUpTo(total - alive[last]) == row) {
            pixel(c, row - 1) = blocks[last].colour;
            top = std::min(top, row - 1);
        }
        previousTop = top;
    }
}

} // namespace msprobe::views::memorytimeline
