// SPDX-License-Identifier: Apache-2.0
// bench_parse: DumpJsonReader against nlohmann_json (DOM parse + walk) on large synthetic dumps.
// Every measurement runs in its own forked child so that peaks of memory do not mix.
#include "bench_support.h"
#include "dump_generator.h"

#include "dump/dump_json_reader.h"
#include "support/error.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <fcntl.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace msprobe::bench;

struct Measurement {
    bool ok = false;
    char error[160] = {};
    double coldSeconds = 0, coldCpu = 0;
    double warmBest = 0; // best of the warm runs, 0 when none
    double loadBest = 0; // ours: padded_string::load alone
    double parseBest = 0; // ours: parse() of text already in memory
    double rawWalkBest = 0; // bare simdjson On-Demand: index and touch every value of text in memory, no model
    double warmCpuBest = 0;
    std::uint64_t baselineRss = 0, peakRss = 0;
    std::uint64_t entries = 0, leaves = 0;
};

void setError(Measurement& m, const char* what)
{
    std::snprintf(m.error, sizeof m.error, "%s", what);
}

// Resets the peak so that the child's own work is what VmHWM reports.
void startPeak(Measurement& m)
{
    resetPeakRss();
    m.baselineRss = currentRssBytes();
}

void endPeak(Measurement& m)
{
    m.peakRss = vmHwmBytes();
    if (m.peakRss == 0)
        m.peakRss = peakRssBytes();
}

// The floor for any On-Demand reader: stage 1 plus reading every key, string and number once.
struct RawWalk {
    double sum = 0;
    std::size_t bytes = 0;
    void visit(simdjson::ondemand::value value)
    {
        switch (value.type()) {
        case simdjson::ondemand::json_type::object:
            for (auto field : value.get_object()) {
                bytes += std::string_view(field.unescaped_key()).size();
                visit(field.value());
            }
            break;
        case simdjson::ondemand::json_type::array:
            for (auto element : value.get_array())
                visit(element.value());
            break;
        case simdjson::ondemand::json_type::number: {
            double number = 0;
            if (!value.get_double().get(number))
                sum += number;
            break;
        }
        case simdjson::ondemand::json_type::string: bytes += std::string_view(value.get_string()).size(); break;
        case simdjson::ondemand::json_type::boolean: sum += bool(value.get_bool()); break;
        case simdjson::ondemand::json_type::null: break;
        }
    }
};

double rawWalk(const fs::path& file, int runs)
{
    simdjson::ondemand::parser parser;
    const simdjson::padded_string text = simdjson::padded_string::load(file.string()).value();
    double best = 0;
    for (int run = 0; run < runs; ++run) {
        WallTimer timer;
        simdjson::ondemand::document document = parser.iterate(text);
        RawWalk walk;
        walk.visit(document.get_value());
        const double seconds = timer.seconds();
        best = run == 0 ? seconds : std::min(best, seconds);
    }
    return best;
}

Measurement measureOurs(const fs::path& file, int runs)
{
    Measurement m;
    try {
        startPeak(m);
        {
            WallTimer wall;
            CpuTimer cpu;
            msprobe::dump::DumpJsonReader reader;
            const msprobe::dump::DumpFile dump = reader.read(file);
            m.coldSeconds = wall.seconds();
            m.coldCpu = cpu.seconds();
            endPeak(m);
            m.entries = dump.entries.size();
            m.leaves = dump.tensors.size() + dump.scalars.size();
            for (int run = 0; run < runs; ++run) {
                WallTimer timer;
                CpuTimer cpuTimer;
                const msprobe::dump::DumpFile again = reader.read(file);
                const double seconds = timer.seconds(), cpuSeconds = cpuTimer.seconds();
                m.warmBest = run == 0 ? seconds : std::min(m.warmBest, seconds);
                m.warmCpuBest = run == 0 ? cpuSeconds : std::min(m.warmCpuBest, cpuSeconds);
            }
            // Where the warm time goes: loading the file vs parsing text already in memory.
            for (int run = 0; run < runs; ++run) {
                WallTimer timer;
                auto text = simdjson::padded_string::load(file.string());
                const double load = timer.seconds();
                const std::string_view view(text.value_unsafe().data(), text.value_unsafe().size());
                timer.restart();
                const msprobe::dump::DumpFile parsed = reader.parse(view, file.string());
                const double parse = timer.seconds();
                m.loadBest = run == 0 ? load : std::min(m.loadBest, load);
                m.parseBest = run == 0 ? parse : std::min(m.parseBest, parse);
            }
        }
        m.rawWalkBest = rawWalk(file, runs);
        m.ok = true;
    } catch (const std::exception& error) {
        setError(m, error.what());
    }
    return m;
}

struct Walk {
    std::uint64_t values = 0, leaves = 0;
    double sum = 0;
    void visit(const nlohmann::json& j)
    {
        ++values;
        if (j.is_object()) {
            if (j.contains("type"))
                ++leaves;
            for (const auto& [key, value] : j.items())
                visit(value);
        } else if (j.is_array()) {
            for (const auto& value : j)
                visit(value);
        } else if (j.is_number()) {
            sum += j.get<double>();
        }
    }
};

Measurement measureNlohmann(const fs::path& file, int runs)
{
    Measurement m;
    try {
        startPeak(m);
        for (int run = 0; run < runs; ++run) {
            WallTimer wall;
            CpuTimer cpu;
            std::ifstream in(file, std::ios::binary);
            std::ostringstream buffer;
            buffer << in.rdbuf();
            std::string text = std::move(buffer).str();
            nlohmann::json document = nlohmann::json::parse(text);
            text = std::string();
            Walk walk;
            walk.visit(document.at("data"));
            const double seconds = wall.seconds();
            if (run == 0) {
                m.coldSeconds = seconds;
                m.coldCpu = cpu.seconds();
                endPeak(m);
                m.entries = document.at("data").size();
                m.leaves = walk.leaves;
            } else {
                m.warmBest = m.warmBest == 0 ? seconds : std::min(m.warmBest, seconds);
            }
        }
        m.ok = true;
    } catch (const std::exception& error) {
        setError(m, error.what());
    }
    return m;
}

fs::path generateFile(const fs::path& dir, int megabytes)
{
    const fs::path file = dir / ("dump_" + std::to_string(megabytes) + "MB.json");
    GeneratorOptions options;
    options.targetBytes = static_cast<std::uint64_t>(megabytes) * 1000000u;
    options.layers = 32;
    options.seed = 42;
    if (fs::exists(file) && fs::file_size(file) >= options.targetBytes && fs::file_size(file) < options.targetBytes + 100000)
        return file; // made by an earlier run with the same options
    fs::create_directories(dir);
    std::FILE* out = std::fopen(file.c_str(), "wb");
    if (!out)
        throw std::runtime_error("cannot create " + file.string());
    WallTimer timer;
    const GeneratedStats stats = generateDump(options, [out](std::string_view text) { std::fwrite(text.data(), 1, text.size(), out); });
    std::fflush(out);
    fsync(fileno(out));
    std::fclose(out);
    std::printf("generated %s: %s, %llu entries, %llu tensors in %.2f s\n", file.c_str(), formatBytes(stats.bytes).c_str(),
        static_cast<unsigned long long>(stats.entries), static_cast<unsigned long long>(stats.tensors), timer.seconds());
    return file;
}

// Drops the file's pages from the page cache (only this file), for a disk-cold first read.
void dropFromPageCache(const fs::path& file)
{
    const int fd = open(file.c_str(), O_RDONLY);
    if (fd >= 0) {
        fdatasync(fd);
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        close(fd);
    }
}

struct Row {
    std::string file;
    std::uint64_t size = 0;
    const char* parser = "";
    Measurement m;
};

void printRow(const Row& row)
{
    const Measurement& m = row.m;
    if (!m.ok) {
        std::printf("%-14s %9s  %-22s  failed: %s\n", row.file.c_str(), formatBytes(row.size).c_str(), row.parser, m.error);
        return;
    }
    const std::uint64_t parseRss = m.peakRss > m.baselineRss ? m.peakRss - m.baselineRss : 0;
    char warm[32] = "-";
    if (m.warmBest > 0)
        std::snprintf(warm, sizeof warm, "%8.3f %6.0f", m.warmBest, megabytesPerSecond(row.size, m.warmBest));
    std::printf("%-14s %9s  %-22s %7.3f %6.0f  %15s  %9s %9s  %5.2fx\n", row.file.c_str(), formatBytes(row.size).c_str(), row.parser,
        m.coldSeconds, megabytesPerSecond(row.size, m.coldSeconds), warm, formatBytes(m.peakRss).c_str(),
        formatBytes(parseRss).c_str(), static_cast<double>(parseRss) / static_cast<double>(row.size));
}

void usage()
{
    std::puts("usage: bench_parse [--sizes 50,500] [--file dump.json]... [--dir DIR] [--runs N] [--nlohmann-runs N]\n"
              "                   [--no-nlohmann] [--drop-cache] [--keep]\n"
              "Generates the dumps (no NaN, so that nlohmann can parse them) unless --file is given.");
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<int> sizes { 50, 500 };
    std::vector<fs::path> files;
    fs::path dir = fs::temp_directory_path() / "msprobe_bench_parse";
    int runs = 5, nlohmannRuns = 1;
    bool nlohmann = true, dropCache = false, keep = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--sizes" && hasValue) {
            sizes.clear();
            std::stringstream list(argv[++i]);
            for (std::string item; std::getline(list, item, ',');)
                sizes.push_back(std::stoi(item));
        } else if (arg == "--file" && hasValue) {
            files.emplace_back(argv[++i]);
        } else if (arg == "--dir" && hasValue) {
            dir = argv[++i];
        } else if (arg == "--runs" && hasValue) {
            runs = std::max(1, std::stoi(argv[++i]));
        } else if (arg == "--nlohmann-runs" && hasValue) {
            nlohmannRuns = std::max(1, std::stoi(argv[++i]));
        } else if (arg == "--no-nlohmann") {
            nlohmann = false;
        } else if (arg == "--drop-cache") {
            dropCache = true;
        } else if (arg == "--keep") {
            keep = true;
        } else {
            usage();
            return arg == "-h" || arg == "--help" ? 0 : 2;
        }
    }
    const bool generated = files.empty();
    try {
        if (generated)
            for (int megabytes : sizes)
                files.push_back(generateFile(dir, megabytes));
    } catch (const std::exception& error) {
        std::fprintf(stderr, "bench_parse: %s\n", error.what());
        return 1;
    }

    std::vector<Row> rows;
    std::printf("\n%-14s %9s  %-22s %7s %6s  %8s %6s  %9s %9s  %6s\n", "file", "size", "parser", "cold s", "MB/s", "warm s", "MB/s",
        "peak RSS", "parse RSS", "RSS/sz");
    for (const fs::path& file : files) {
        const std::uint64_t size = fs::file_size(file);
        const std::string name = file.filename().string();
        if (dropCache)
            dropFromPageCache(file);
        Row ours { name, size, "DumpJsonReader", runInChild([&] { return measureOurs(file, runs); }).value_or(Measurement {}) };
        if (!ours.m.ok && !ours.m.error[0])
            setError(ours.m, "the child process died");
        printRow(ours);
        rows.push_back(ours);
        if (ours.m.ok)
            std::printf("%-14s %9s    warm CPU %.3f s = %.0f MB/s; file load alone %.3f s = %.0f MB/s; parse() of text in memory %.3f s = %.0f MB/s\n"
                        "%-14s %9s    bare simdjson walk of text in memory (no model) %.3f s = %.0f MB/s; %llu entries, %llu leaves\n",
                "", "", ours.m.warmCpuBest, megabytesPerSecond(size, ours.m.warmCpuBest), ours.m.loadBest,
                megabytesPerSecond(size, ours.m.loadBest), ours.m.parseBest, megabytesPerSecond(size, ours.m.parseBest), "", "",
                ours.m.rawWalkBest, megabytesPerSecond(size, ours.m.rawWalkBest), static_cast<unsigned long long>(ours.m.entries),
                static_cast<unsigned long long>(ours.m.leaves));
        if (!nlohmann)
            continue;
        if (dropCache)
            dropFromPageCache(file);
        Row other { name, size, "nlohmann DOM + walk", runInChild([&] { return measureNlohmann(file, nlohmannRuns); }).value_or(Measurement {}) };
        if (!other.m.ok && !other.m.error[0])
            setError(other.m, "the child process died (out of memory?)");
        printRow(other);
        rows.push_back(other);
        if (ours.m.ok && other.m.ok) {
            const auto delta = [](const Measurement& m) { return static_cast<double>(m.peakRss - std::min(m.peakRss, m.baselineRss)); };
            std::printf("%-14s %9s    ours/nlohmann: cold speed %.1fx, parse RSS %.2fx (peak RSS %.2fx)\n", "", "",
                other.m.coldSeconds / ours.m.coldSeconds, delta(ours.m) / std::max(1.0, delta(other.m)),
                static_cast<double>(ours.m.peakRss) / static_cast<double>(other.m.peakRss));
        }
    }

    std::puts("\ncold: first read in a fresh process (a new reader; the file in the page cache unless --drop-cache);"
              "\nwarm: best re-read with the same reader; peak RSS: VmHWM of the measuring child; parse RSS: peak minus"
              "\nthe RSS before reading (program and libraries); RSS/sz: parse RSS / file size.");
    bool failed = false;
    for (const Row& row : rows) {
        failed |= !row.m.ok && std::strcmp(row.parser, "DumpJsonReader") == 0;
        if (std::strcmp(row.parser, "DumpJsonReader") != 0 || !row.m.ok)
            continue;
        const double warm = megabytesPerSecond(row.size, row.m.warmBest);
        const double ratio = static_cast<double>(row.m.peakRss - std::min(row.m.peakRss, row.m.baselineRss)) / static_cast<double>(row.size);
        std::printf("target %-14s warm %4.0f MB/s (>= 800): %s; parse RSS %.2fx the file (<= 1.5x): %s\n", row.file.c_str(), warm,
            warm >= 800 ? "met" : "MISSED", ratio, ratio <= 1.5 ? "met" : "MISSED");
    }
    if (generated && !keep)
        for (const fs::path& file : files)
            fs::remove(file);
    return failed ? 1 : 0;
}
