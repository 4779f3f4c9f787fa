// SPDX-License-Identifier: Apache-2.0
// Memory timeline benchmark (issue targets: 10 M events open in < 3 s; a redraw at any zoom level < 16 ms).
// Writes a msMemScope CSV of `events` rows — every block's MALLOC and FREE inside an operator, the live set
// growing and shrinking over each step (SYSTEM/STEP every 20 000 rows), every 1000th block kept to the end —
// opens it as the studio does (read, model, analyses, timeline layout; the time of each stage), then paints the
// timeline at 1366x640 at zoom levels from the whole capture down to a millionth of it, centred on the peak
// (median of 7 paints each, with how many blocks were drawn exactly and how many aggregated per pixel), in both
// layouts (the sliding one with a digest of its picture, to compare painters by).
// Times are wall clock and CPU time (the machine may be shared: CPU time is what load does not inflate).
// Usage: bench_studio_memory [events (10000000)] [work dir] [whole-capture picture.png (keeps the dump)]
//        A dump kept by an earlier run with the same number of events is opened again rather than rewritten.
//        (QT_QPA_PLATFORM=offscreen without a display)
#include "bench_support.h"

#include "memory/memorytimelineview.h"
#include "memorydocument.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

void writeDump(const fs::path& file, std::uint64_t events)
{
    std::ofstream out(file, std::ios::binary);
    out << "ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)\n";
    std::uint64_t id = 1, block = 1, step = 1;
    std::int64_t ts = 1764753084425691000;
    char line[320];
    std::string chunk;
    auto row = [&](const char* event, const char* type, const char* name, std::uint64_t ptr, const char* attr) {
        char ptrText[24] = "N/A";
        if (ptr)
            std::snprintf(ptrText, sizeof ptrText, "0x%016llx", static_cast<unsigned long long>(ptr));
        std::snprintf(line, sizeof line, "%llu,%s,%s,%s,%lld,4242,4242,0,%s,%s,,\n", static_cast<unsigned long long>(id++), event, type, name,
            static_cast<long long>(ts), ptrText, attr);
        ts += 40 + static_cast<std::int64_t>(id % 13);
        chunk += line;
        if (chunk.size() > (1u << 22)) {
            out << chunk;
            chunk.clear();
        }
    };
    struct Live {
        std::uint64_t block, ptr;
        std::int64_t size;
    };
    std::deque<Live> live;
    char attr[200], op[64];
    while (id <= events) {
        if (id % 20000 < 4) {
            const std::string number = std::to_string(step++);
            row("SYSTEM", "STEP", number.c_str(), 0, "");
            continue;
        }
        // The live set swells to ~4000 blocks and back within each step.
        const std::uint64_t phase = id % 20000;
        const std::size_t target = 16 + (phase < 10000 ? phase : 20000 - phase) * 4000 / 10000;
        std::snprintf(op, sizeof op, "torch._ops.aten.op%llu.default", static_cast<unsigned long long>(block % 256));
        row("OP_LAUNCH", "ATEN_START", op, 0, "");
        const std::uint64_t ptr = 0x12c041400000ull + block * 0x4000;
        const std::int64_t size = 512 + static_cast<std::int64_t>((block * 2654435761ull) % 262144);
        std::snprintf(attr, sizeof attr, "\"{allocation_id:%llu,addr:0x%016llx,size:%lld}\"", static_cast<unsigned long long>(block),
            static_cast<unsigned long long>(ptr), static_cast<long long>(size));
        row("MALLOC", "PTA", "N/A", ptr, attr);
        if (block % 1000 != 0)
            live.push_back({ block, ptr, size });
        ++block;
        while (live.size() > target && id <= events) {
            const Live gone = live.front();
            live.pop_front();
            std::snprintf(attr, sizeof attr, "\"{allocation_id:%llu,addr:0x%016llx,size:%lld}\"", static_cast<unsigned long long>(gone.block),
                static_cast<unsigned long long>(gone.ptr), static_cast<long long>(gone.size));
            row("FREE", "PTA", "N/A", gone.ptr, attr);
        }
        row("OP_LAUNCH", "ATEN_END", op, 0, "");
    }
    out << chunk;
}

struct PaintTime {
    double wallMs, cpuMs; // medians of 7 paints
};

// Each paint pans by a thousandth of the shown span, so that every one draws the blocks again (the view keeps
// the last frame's blocks while only the cursor moves).
PaintTime paintMs(MemoryTimelineView& view, QImage& image)
{
    std::vector<double> wall, cpu;
    const double begin = view.timeBegin(), end = view.timeEnd(), nudge = (end - begin) / 1000;
    for (int i = 0; i < 7; ++i) {
        view.setTimeRange(begin + i * nudge, end + i * nudge);
        image.fill(Qt::white);
        QPainter painter(&image);
        msprobe::bench::WallTimer timer;
        msprobe::bench::CpuTimer cpuTimer;
        view.render(&painter);
        wall.push_back(timer.seconds() * 1e3);
        cpu.push_back(cpuTimer.seconds() * 1e3);
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return { wall[wall.size() / 2], cpu[cpu.size() / 2] };
}

// A digest of the last frame's pixels, so that a faster painter can be checked to give the same picture.
std::uint64_t pictureDigest(const QImage& image)
{
    std::uint64_t digest = 1469598103934665603ull;
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            digest = (digest ^ line[x]) * 1099511628211ull;
    }
    return digest;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const std::uint64_t events = argc > 1 ? std::stoull(argv[1]) : 10000000ull;
    const fs::path dir = argc > 2 ? fs::path(argv[2]) : fs::temp_directory_path() / "bench_studio_memory";
    fs::create_directories(dir);
    const fs::path file = dir / "memscope_dump_bench.csv";

    const fs::path countFile = dir / "memscope_dump_bench.events";
    msprobe::bench::WallTimer timer;
    bool reused = false;
    if (std::ifstream kept(countFile); kept && fs::exists(file)) {
        std::uint64_t keptEvents = 0;
        reused = (kept >> keptEvents) && keptEvents == events;
    }
    if (reused) {
        std::printf("reusing the kept dump of %llu events, %.1f MB\n", static_cast<unsigned long long>(events), fs::file_size(file) / 1e6);
    } else {
        fs::remove(countFile);
        writeDump(file, events);
        std::printf("generated %llu events, %.1f MB in %.2f s\n", static_cast<unsigned long long>(events), fs::file_size(file) / 1e6, timer.seconds());
    }

    // Wall and CPU time (all threads) per stage: the CPU time is what a loaded shared machine does not inflate.
    timer.restart();
    msprobe::bench::CpuTimer cpu;
    double last = 0, lastCpu = 0;
    std::string lastStage = "start";
    auto document = msprobe::studio::loadMemoryDocument(file, nullptr, [&](int, const std::string& stage) {
        const double now = timer.seconds(), nowCpu = cpu.seconds();
        if (lastStage != "start")
            std::printf("  %-34s %7.3f s wall, %7.3f s cpu\n", lastStage.c_str(), now - last, nowCpu - lastCpu);
        last = now;
        lastCpu = nowCpu;
        lastStage = stage;
    });
    const double openSeconds = timer.seconds(), openCpu = cpu.seconds();
    std::printf("open (read, model, analyses, layout, level of detail): %.3f s wall, %.3f s cpu for %zu blocks  [target < 3 s at 10 M events]\n",
        openSeconds, openCpu, document->timeline.blocks.size());

    const auto marked = std::count_if(document->timeline.blocks.begin(), document->timeline.blocks.end(),
        [](const msprobe::studio::TimelineBlock& block) { return block.marks != 0; });
    std::printf("%zu live-bytes points, %lld marked blocks (leak, alive at the end or inefficient), %zu level-of-detail leaves\n",
        document->timeline.live.size(), static_cast<long long>(marked), document->timeline.lod.leafCount());
    // A digest of the layout (every block's place and marks, the live-bytes curve, the lanes), so that a faster
    // layout can be checked to give the same picture as the one before it.
    std::uint64_t digest = 1469598103934665603ull;
    auto mix = [&digest](std::int64_t value) { digest = (digest ^ static_cast<std::uint64_t>(value)) * 1099511628211ull; };
    for (const auto& block : document->timeline.blocks)
        for (std::int64_t value : { block.startNs, block.endNs, block.offset, block.size, std::int64_t(block.block), std::int64_t(block.marks) })
            mix(value);
    for (const auto& point : document->timeline.live)
        mix(point.tsNs), mix(point.liveBytes);
    for (const auto* lane : { &document->timeline.steps, &document->timeline.ops, &document->timeline.marks })
        for (const auto& span : *lane)
            mix(span.startNs), mix(span.endNs), mix(static_cast<std::int64_t>(std::hash<std::string>()(span.label)));
    for (const auto& level : document->timeline.lod.levels)
        for (const auto& bucket : level)
            for (std::int64_t value : { bucket.liveMax, bucket.top, bucket.bottom, bucket.plainTop, bucket.plainBottom, bucket.allocatedBytes,
                     std::int64_t(bucket.allocations), std::int64_t(bucket.marks) })
                mix(value);
    std::printf("layout digest %016llx (stack top %lld bytes, peak %lld live bytes)\n", static_cast<unsigned long long>(digest),
        static_cast<long long>(document->timeline.stackTop), static_cast<long long>(document->timeline.peak.liveBytes));

    // The parts of the analysis stage again, each alone on this thread (CPU time), to see which one bounds it.
    {
        msprobe::bench::CpuTimer partCpu;
        const auto stepLeaks = msprobe::memory::findStepLeaks(document->trace, document->model);
        const double leaksCpu = partCpu.seconds();
        partCpu.restart();
        const auto inefficient = msprobe::memory::findInefficientBlocks(document->trace, document->model);
        const double inefficientCpu = partCpu.seconds();
        partCpu.restart();
        const auto timeline = msprobe::studio::buildTimeline(*document);
        std::printf("alone: step leaks %.3f s cpu (%zu), inefficient blocks %.3f s cpu (%zu), layout with marks and level of detail %.3f s cpu\n",
            leaksCpu, stepLeaks.leaks.size(), inefficientCpu, inefficient.blocks.size(), partCpu.seconds());
    }

    MemoryTimelineView view;
    view.resize(1366, 640);
    view.setDocument(document);
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    const double whole = static_cast<double>(document->timeline.endNs - document->timeline.beginNs);
    const double peak = static_cast<double>(document->timeline.peak.tsNs - document->timeline.beginNs);
    double worst = 0, worstCpu = 0;
    for (double zoom : { 1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6 }) {
        const double span = whole / zoom;
        const double begin = std::clamp(peak - span / 2, 0.0, std::max(0.0, whole - span));
        view.setTimeRange(begin, begin + span);
        const auto columns = view.columns();
        const PaintTime time = paintMs(view, image);
        worst = std::max(worst, time.wallMs);
        worstCpu = std::max(worstCpu, time.cpuMs);
        std::printf("redraw at zoom %8.0fx (%12.0f ns shown): %7.2f ms wall, %6.2f ms cpu  (%s: %zu blocks drawn one by one, %zu merged into columns)\n",
            zoom, span, time.wallMs, time.cpuMs, columns.aggregated ? "level of detail" : "exact", columns.exactBlocks, columns.aggregatedBlocks);
    }
    std::printf("worst redraw: %.2f ms wall, %.2f ms cpu  [target < 16 ms]\n", worst, worstCpu);
    // The sliding layout (memory_viz's: blocks slide down when one below is freed) at the same zoom levels.
    view.setLayout(MemoryTimelineView::Layout::Sliding);
    double worstSliding = 0, worstSlidingCpu = 0;
    for (double zoom : { 1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6 }) {
        const double span = whole / zoom;
        const double begin = std::clamp(peak - span / 2, 0.0, std::max(0.0, whole - span));
        view.setTimeRange(begin, begin + span);
        const PaintTime time = paintMs(view, image);
        worstSliding = std::max(worstSliding, time.wallMs);
        worstSlidingCpu = std::max(worstSlidingCpu, time.cpuMs);
        std::printf("sliding redraw at zoom %8.0fx: %7.2f ms wall, %6.2f ms cpu  (picture digest %016llx)\n", zoom, time.wallMs, time.cpuMs,
            static_cast<unsigned long long>(pictureDigest(image)));
    }
    std::printf("worst sliding redraw: %.2f ms wall, %.2f ms cpu  [target < 16 ms]\n", worstSliding, worstSlidingCpu);
    view.setLayout(MemoryTimelineView::Layout::Packed);
    if (argc > 3) { // a picture of the whole capture to look at; the dump is kept for the studio
        view.showWholeCapture();
        view.grab().save(QString::fromLocal8Bit(argv[3]));
        std::ofstream(countFile) << events << "\n";
        std::printf("kept %s\n", file.string().c_str());
        return 0;
    }
    if (!reused)
        fs::remove(file);
    return 0;
}
