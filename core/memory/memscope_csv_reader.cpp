// SPDX-License-Identifier: Apache-2.0
// memscope_dump_*.csv read from a memory map, cut into one piece per core. A piece starts after a line break and
// is parsed on the guess that the break is not inside a quoted cell (call stacks span lines); the guess holds when
// the piece before ends exactly where this one starts, otherwise the file is read again in one piece. The file is
// mapped and read once: each piece writes its rows once into chunks of its own (EventChunks), which then move
// into the trace in (Process Id, ID) order; mapped pages are dropped behind the parse so the file does not count
// against the process's memory.
#include "memory/event_chunks.h"
#include "memory/memscope_rows.h"

#include "support/error.h"
#include "support/input_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <exception>
#include <thread>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace msprobe::memory {

namespace {

constexpr std::size_t kReleaseBytes = 32u << 20; // pages behind the parse are dropped in steps of this size
constexpr std::size_t kMinPieceBytes = 8u << 20; // smaller files are read on one thread
constexpr unsigned kMaxPieces = 8;

class MappedFile {
public:
    MappedFile(const std::string& name)
    {
        m_fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
        if (m_fd < 0)
            throw support::Error(name, {}, std::string("cannot be opened: ") + std::strerror(errno));
        struct stat info {};
        if (::fstat(m_fd, &info) != 0)
            throw support::Error(name, {}, std::string("cannot be read: ") + std::strerror(errno));
        m_size = static_cast<std::size_t>(info.st_size);
        if (m_size == 0)
            return;
        void* data = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, m_fd, 0);
        if (data == MAP_FAILED)
            throw support::Error(name, {}, std::string("cannot be mapped: ") + std::strerror(errno));
        m_data = static_cast<const char*>(data);
        ::madvise(data, m_size, MADV_SEQUENTIAL);
    }
    ~MappedFile()
    {
        if (m_data)
            ::munmap(const_cast<char*>(m_data), m_size);
        if (m_fd >= 0)
            ::close(m_fd);
    }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const char* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    // Maps the pages of [from, to) in one call (MADV_POPULATE_READ) instead of one page fault per 4 KiB page,
    // which cost about a tenth of a read's CPU time. Best effort: an older kernel refuses and faults happen.
    void populate(const char* from, const char* to) const
    {
#ifdef MADV_POPULATE_READ
        to = std::min(to, m_data + m_size);
        const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
        const auto begin = reinterpret_cast<std::uintptr_t>(from) / page * page;
        const auto end = reinterpret_cast<std::uintptr_t>(to);
        if (end > begin)
            ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);
#else
        (void)from;
        (void)to;
#endif
    }
    // Drops the whole pages of [from, to) from this process (they stay in the page cache).
    void release(const char* from, const char* to) const
    {
        const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
        auto begin = (reinterpret_cast<std::uintptr_t>(from) + page - 1) / page * page;
        auto end = reinterpret_cast<std::uintptr_t>(to) / page * page;
        if (end > begin)
            ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
    }

private:
    int m_fd = -1;
    const char* m_data = nullptr;
    std::size_t m_size = 0;
};

// The first of `,` `\n` `\r` at or after `p` (`end` if none): the end of an unquoted cell.
const char* cellEnd(const char* p, const char* end)
{
#ifdef __SSE2__
    const __m128i comma = _mm_set1_epi8(','), newline = _mm_set1_epi8('\n'), ret = _mm_set1_epi8('\r');
    for (; end - p >= 16; p += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, comma), _mm_cmpeq_epi8(bytes, newline)), _mm_cmpeq_epi8(bytes, ret));
        if (const int mask = _mm_movemask_epi8(hits))
            return p + __builtin_ctz(static_cast<unsigned>(mask));
    }
#endif
    while (p < end && *p != ',' && *p != '\n' && *p != '\r')
        ++p;
    return p;
}

// One CSV record (RFC 4180 as CsvStream reads it: quoted cells hold commas, doubled quotes and line breaks; a
// quote inside an unquoted cell is kept; \n, \r\n or \r end a record; blank lines are skipped).
class RecordScanner {
public:
    RecordScanner(const std::string& file, const char* end)
        : m_file(file)
        , m_end(end)
    {
    }

    // Parses the record at `p` (after skipping blank lines); false when only blank lines are left before `stop`.
    // `line` is the line at `p` and comes back as the line after the record; recordLine() is where it starts.
    bool next(const char*& p, const char* stop, std::uint64_t& line)
    {
        while (p < m_end && (*p == '\n' || *p == '\r')) {
            line += *p == '\n';
            ++p;
        }
        if (p >= stop || p >= m_end)
            return false;
        m_recordLine = line;
        m_count = 0;
        while (true) {
            const char* cellStart = p;
            if (p < m_end && *p == '"') {
                bool escaped = false;
                const char* q = p + 1;
                while (true) {
                    const char* quote = static_cast<const char*>(std::memchr(q, '"', static_cast<std::size_t>(m_end - q)));
                    if (!quote)
                        throw support::Error(m_file, "line " + std::to_string(m_recordLine),
                            "a quoted cell is not closed before the end of the file");
                    for (const char* n = q; (n = static_cast<const char*>(std::memchr(n, '\n', static_cast<std::size_t>(quote - n)))); ++n)
                        ++line;
                    if (quote + 1 < m_end && quote[1] == '"') {
                        escaped = true;
                        q = quote + 2;
                        continue;
                    }
                    store(std::string_view(cellStart + 1, static_cast<std::size_t>(quote - cellStart - 1)), escaped);
                    p = quote + 1;
                    break;
                }
                if (p < m_end && *p != ',' && *p != '\n' && *p != '\r')
                    throw support::Error(m_file, "line " + std::to_string(line), "text after the closing quote of a cell");
            } else {
                p = cellEnd(p, m_end);
                store(std::string_view(cellStart, static_cast<std::size_t>(p - cellStart)), false);
            }
            if (p >= m_end)
                return true;
            const char c = *p++;
            if (c == ',')
                continue;
            line += c == '\n';
            return true;
        }
    }

    std::size_t count() const { return m_count; }
    std::string_view cell(std::size_t index) const { return m_cells[index]; }
    const std::vector<std::string_view>& cells() const { return m_cells; }
    std::uint64_t recordLine() const { return m_recordLine; }

private:
    // Inline: it runs for every cell of every row, and once the first row has sized m_cells it is one store.
    void store(std::string_view text, bool escaped)
    {
        if (m_count < m_cells.size() && !escaped) [[likely]]
            m_cells[m_count++] = text;
        else
            storeSlow(text, escaped);
    }
    [[gnu::noinline]] void storeSlow(std::string_view text, bool escaped)
    {
        if (m_count >= m_cells.size()) {
            m_cells.resize(m_count + 1);
            m_unescaped.resize(m_count + 1);
        }
        if (escaped) {
            auto& out = m_unescaped[m_count];
            out.clear();
            for (std::size_t i = 0; i < text.size(); ++i) {
                out.push_back(text[i]);
                if (text[i] == '"')
                    ++i; // the second quote of a doubled pair
            }
            text = out;
        }
        m_cells[m_count++] = text;
    }

    const std::string& m_file;
    const char* m_end;
    std::vector<std::string_view> m_cells;
    std::deque<std::string> m_unescaped; // a deque: growing it keeps the cells already stored in place
    std::size_t m_count = 0;
    std::uint64_t m_recordLine = 0;
};

struct Piece {
    const char* begin = nullptr; // first byte (just after a line break, or the first data byte)
    const char* stop = nullptr; // rows starting at or after this belong to the next piece
    std::uint64_t firstLine = 0; // the file's line at `begin` for the first piece; 0 for the others (fixed later)
    // Results.
    const char* end = nullptr; // just after its last row
    std::uint64_t endLine = 0; // the line at `end`, counted as firstLine is
    EventChunks events;
    KeyStats keys;
    std::exception_ptr error;
    support::StringPool strings; // pieces after the first intern here, merged afterwards
};

struct Layout {
    std::array<int, 10> index {};
    std::size_t needed = 0;
    bool standard = false; // the ten columns first, in §1.2 order: rows may take parseRowFast
};

std::uint32_t clampLine(std::uint64_t line) { return static_cast<std::uint32_t>(std::min<std::uint64_t>(line, 0xffffffffu)); }

// The row at `p` read by the general scanner and parseRow (errors name the file and line).
void parseScanned(RecordScanner& scanner, const char*& p, const char* stop, std::uint64_t& line, const std::string& file, const Layout& layout, RecentStrings& recent, MemEvent& event)
{
    scanner.next(p, stop, line);
    const auto recordLine = scanner.recordLine();
    if (scanner.count() < layout.needed)
        throw support::Error(file, "line " + std::to_string(recordLine),
            "row has " + std::to_string(scanner.count()) + " cells, the header names at least "
                + std::to_string(layout.needed) + " (a truncated row?)");
    const auto& i = layout.index;
    const RowCells row { scanner.cell(i[0]), scanner.cell(i[1]), scanner.cell(i[2]), scanner.cell(i[3]),
        scanner.cell(i[4]), scanner.cell(i[5]), scanner.cell(i[6]), scanner.cell(i[7]), scanner.cell(i[8]),
        scanner.cell(i[9]) };
    parseRow(row, clampLine(recordLine), false, recent, file, event);
}

// Parses the rows of `piece` into piece.events, interning into `strings`.
void parsePiece(const MappedFile& map, const std::string& file, const Layout& layout, Piece& piece, support::StringPool& strings)
{
    try {
        RecordScanner scanner(file, map.data() + map.size());
        const char* p = piece.begin;
        const char* released = piece.begin;
        map.populate(p, p + kReleaseBytes);
        std::uint64_t line = piece.firstLine;
        RecentStrings recent(strings);
        const char* const fileEnd = map.data() + map.size();
        while (true) {
            while (p < fileEnd && (*p == '\n' || *p == '\r')) {
                line += *p == '\n';
                ++p;
            }
            if (p >= piece.stop || p >= fileEnd)
                break;
            MemEvent& event = piece.events.append();
            if (layout.standard && parseRowFast(p, fileEnd, recent, event)) [[likely]] {
                event.line = clampLine(line++);
            } else {
                event = MemEvent {};
                parseScanned(scanner, p, piece.stop, line, file, layout, recent, event);
            }
            piece.keys.add(event.pid, event.id);
            if (static_cast<std::size_t>(p - released) > kReleaseBytes) {
                map.release(released, p);
                released = p;
                map.populate(p, p + kReleaseBytes);
            }
        }
        piece.end = p;
        piece.endLine = line;
    } catch (...) {
        piece.error = std::current_exception();
    }
}

unsigned pieceCount(std::size_t bytes)
{
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return static_cast<unsigned>(std::clamp<std::size_t>(bytes / kMinPieceBytes, 1, std::min(cores, kMaxPieces)));
}

} // namespace

MemTrace readMemScopeCsv(const std::filesystem::path& path) { return readMemScopeCsvInPieces(path, 0); }

MemTrace readMemScopeCsvInPieces(const std::filesystem::path& path, unsigned wantedPieces, bool fastRows)
{
    support::checkRegularFile(path);
    MemTrace trace;
    trace.file = path.string();
    const MappedFile map(trace.file);
    const char* const fileEnd = map.data() + map.size();
    const char* p = map.data();
    if (map.size() >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    std::uint64_t line = 1;
    Layout layout;
    {
        RecordScanner header(trace.file, fileEnd);
        if (!p || !header.next(p, fileEnd, line))
            throw support::Error(trace.file, {}, "is empty (a msMemScope dump starts with its header line)");
        std::vector<std::string_view> titles(header.cells().begin(), header.cells().begin() + static_cast<std::ptrdiff_t>(header.count()));
        layout.index = mapHeader(titles, trace.file);
        layout.needed = static_cast<std::size_t>(*std::max_element(layout.index.begin(), layout.index.end()) + 1);
        layout.standard = fastRows;
        for (int k = 0; k < 10; ++k)
            layout.standard = layout.standard && layout.index[static_cast<std::size_t>(k)] == k;
    }
    const char* const dataBegin = p;
    const std::uint64_t dataLine = line;

    // Cut the data into pieces at line breaks.
    const auto dataBytes = static_cast<std::size_t>(fileEnd - dataBegin);
    const unsigned count = wantedPieces ? std::clamp<unsigned>(wantedPieces, 1, static_cast<unsigned>(std::max<std::size_t>(1, dataBytes))) : pieceCount(dataBytes);
    std::vector<Piece> pieces(count);
    for (unsigned k = 0; k < count; ++k) {
        const char* cut = dataBegin + static_cast<std::size_t>(fileEnd - dataBegin) / count * k;
        if (k > 0) {
            const char* lineBreak = static_cast<const char*>(std::memchr(cut, '\n', static_cast<std::size_t>(fileEnd - cut)));
            cut = lineBreak ? lineBreak + 1 : fileEnd;
            cut = std::max(cut, pieces[k - 1].begin);
        }
        pieces[k].begin = cut;
        pieces[k].firstLine = k == 0 ? dataLine : 1; // a later piece counts from its start: fixed once the lines before are known
        if (k > 0)
            pieces[k - 1].stop = cut;
    }
    pieces.back().stop = fileEnd;

    // Each piece parses on its own thread, guessing that it starts at a row; the guesses hold when every piece
    // ended where the next began and none failed (a failing later piece may have started inside a quoted cell,
    // and its lines are counted from its start): otherwise the file is read again in one piece.
    auto runParallel = [&] {
        {
            std::vector<std::thread> threads;
            for (unsigned k = 1; k < count; ++k)
                threads.emplace_back([&, k] { parsePiece(map, trace.file, layout, pieces[k], pieces[k].strings); });
            parsePiece(map, trace.file, layout, pieces[0], trace.strings);
            for (auto& thread : threads)
                thread.join();
        }
        if (pieces[0].error)
            std::rethrow_exception(pieces[0].error); // the first row of the file is where piece 0 starts
        for (unsigned k = 1; k < count; ++k)
            if (pieces[k].error || pieces[k - 1].end != pieces[k].begin)
                return false;
        // The pieces' chunks joined, their strings merged into the trace's pool and their lines made the file's.
        std::vector<EventChunks::PieceFix> fixes(count);
        std::uint64_t line = pieces[0].endLine;
        for (unsigned k = 1; k < count; ++k) {
            const auto& strings = pieces[k].strings;
            fixes[k].remap.resize(strings.size());
            for (std::size_t s = 0; s < strings.size(); ++s)
                fixes[k].remap[s] = trace.strings.intern(strings.view(static_cast<support::StringId>(s)));
            fixes[k].lineBase = line - 1; // its rows counted from 1 at its start, which is the line at the end of k - 1
            line = fixes[k].lineBase + pieces[k].endLine;
            pieces[0].events.splice(std::move(pieces[k].events), k);
            pieces[0].keys.append(pieces[k].keys);
        }
        trace.rowsRead = pieces[0].events.size();
        pieces[0].events.moveInto(trace, pieces[0].keys, fixes);
        return true;
    };

    if (count == 1 || !runParallel()) {
        pieces.clear();
        trace.strings = support::StringPool();
        trace.events.clear();
        Piece whole;
        whole.begin = dataBegin;
        whole.stop = fileEnd;
        whole.firstLine = dataLine;
        parsePiece(map, trace.file, layout, whole, trace.strings);
        if (whole.error)
            std::rethrow_exception(whole.error);
        trace.rowsRead = whole.events.size();
        whole.events.moveInto(trace, whole.keys, { EventChunks::PieceFix {} });
    }
    return trace;
}

} // namespace msprobe::memory
