// SPDX-License-Identifier: Apache-2.0
// Large dump.json texts are read in pieces cut at entry boundaries. Whatever the piece size, a read
// must give exactly the model, the error and the (monotone) progress of a whole read.
#include "test_util.h"
#include "fuzz/dump_equal.h"

#include "dump/dump_json_reader.h"
#include "support/error.h"
#include "support/string_pool.h"

#include <limits>

namespace msprobe::dump::detail {
std::size_t setDumpJsonChunkBytesForTesting(std::size_t bytes);
}

using namespace msprobe;
using namespace msprobe::test;

namespace {

constexpr std::size_t kWhole = std::numeric_limits<std::size_t>::max();

struct Outcome {
    dump::DumpFile dump;
    std::string error;
    std::uint64_t lastProgress = 0;
    bool monotone = true;
};

// Reads from the file (readFile) or parses the text, with the given piece size.
Outcome readWith(std::size_t pieceBytes, const std::filesystem::path& file, const std::string& text, bool readFile)
{
    const std::size_t previous = dump::detail::setDumpJsonChunkBytesForTesting(pieceBytes);
    Outcome outcome;
    dump::ReadOptions options;
    options.progress = [&outcome](std::uint64_t done, std::uint64_t) {
        outcome.monotone = outcome.monotone && done >= outcome.lastProgress;
        outcome.lastProgress = done;
    };
    try {
        dump::DumpJsonReader reader;
        outcome.dump = readFile ? reader.read(file, options) : reader.parse(text, file.string(), options);
    } catch (const support::Error& error) {
        outcome.error = error.what();
    }
    dump::detail::setDumpJsonChunkBytesForTesting(previous);
    return outcome;
}

std::string readText(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

void compare(const Outcome& whole, const Outcome& pieces, const char* what)
{
    QCOMPARE(pieces.error, whole.error);
    QVERIFY2(pieces.monotone, what);
    if (whole.error.empty()) {
        QCOMPARE(pieces.lastProgress, whole.lastProgress);
        const std::string difference = fuzz::dumpDifference(whole.dump, pieces.dump);
        QVERIFY2(difference.empty(), (std::string(what) + ": " + difference).c_str());
    }
}

} // namespace

class TestDumpReaderChunks : public QObject {
    Q_OBJECT

private slots:
    void realDumps_data()
    {
        QTest::addColumn<QString>("file");
        for (const auto& item : std::filesystem::recursive_directory_iterator(refDumps()))
            if (item.path().filename() == "dump.json")
                QTest::newRow(item.path().lexically_relative(refDumps()).string().c_str()) << q(item.path().string());
    }

    void realDumps()
    {
        QFETCH(QString, file);
        const std::filesystem::path path = file.toStdString();
        const std::string text = readText(path);
        const Outcome whole = readWith(kWhole, path, text, true);
        QVERIFY2(whole.error.empty(), whole.error.c_str());
        QCOMPARE(whole.lastProgress, static_cast<std::uint64_t>(text.size()));
        for (std::size_t pieceBytes : { 64, 1000, 20000 }) {
            compare(whole, readWith(pieceBytes, path, text, true), "read()");
            compare(whole, readWith(pieceBytes, path, text, false), "parse()");
        }
    }

    // A cut file fails with the error of a whole read, wherever the cut falls against the pieces.
    void cutsFailAsAWholeRead()
    {
        const auto file = onlySubdir(refDumps() / "bench_mix_statistics" / "step0") / "dump.json";
        const std::string full = readText(file);
        for (std::size_t length = 1; length < full.size(); length += 4999) {
            const std::string cut = full.substr(0, length);
            const Outcome whole = readWith(kWhole, "cut.json", cut, false);
            QVERIFY(!whole.error.empty());
            compare(whole, readWith(300, "cut.json", cut, false), "cut");
        }
    }

    // A file on disk cut after an entry, read in pieces: the error names the file and its last byte.
    void truncatedFileReadInPieces()
    {
        const auto file = onlySubdir(refDumps() / "bench_mix_statistics" / "step0") / "dump.json";
        const std::string full = readText(file);
        const std::size_t entryEnd = full.find("\n  },", full.size() / 2);
        QVERIFY(entryEnd != std::string::npos);
        const std::size_t length = entryEnd + 5;
        QTemporaryDir dir;
        const std::filesystem::path cutFile = std::filesystem::path(dir.path().toStdString()) / "dump.json";
        writeFile(cutFile, full.substr(0, length));
        for (std::size_t pieceBytes : { 1000, 20000 }) {
            const Outcome pieces = readWith(pieceBytes, cutFile, {}, true);
            QVERIFY2(pieces.error.starts_with(cutFile.string() + ": byte " + std::to_string(length) + " (line "), pieces.error.c_str());
            QVERIFY2(pieces.error.ends_with(": the file ends early: the top-level object is never closed (truncated file?)"),
                pieces.error.c_str());
        }
    }

    // Layouts where the cut heuristics find no boundary, or a boundary outside "data", must fall
    // back to a whole read.
    void unusualLayouts()
    {
        const auto file = onlySubdir(refDumps() / "bench_mix_statistics" / "step1") / "dump.json";
        const std::string full = readText(file);
        const std::string dataKey = "\n \"data\": {";
        const auto at = full.find(dataKey);
        QVERIFY(at != std::string::npos);
        const std::string otherObjectFirst = full.substr(0, at)
            + "\n \"meta\": {\n  \"a\": {\n   \"x\": 1\n  },\n  \"b\": {}\n },\n \"data\": {\n  \"fake.0.forward\": {},"
            + full.substr(at + dataKey.size());
        const std::string compact = [&full] { // one line: nothing to cut at
            std::string text = full;
            std::erase(text, '\n');
            return text;
        }();
        const std::string trailingKey = full.substr(0, full.rfind('}')) + ",\n \"task\": \"tensor\"\n}";
        for (const std::string* text : { &otherObjectFirst, &compact, &trailingKey }) {
            const Outcome whole = readWith(kWhole, "layout.json", *text, false);
            QVERIFY2(whole.error.empty(), whole.error.c_str());
            for (std::size_t pieceBytes : { 64, 5000 })
                compare(whole, readWith(pieceBytes, "layout.json", *text, false), "layout");
        }
    }

    // Appending a piece re-interns its strings with the hashes the piece's pool kept: the same ids and texts
    // as interning the texts, for a real dump's strings, repeats, the empty string and a large string.
    void poolInternedByKnownHash()
    {
        const auto file = onlySubdir(refDumps() / "bench_mix_statistics" / "step0") / "dump.json";
        const dump::DumpFile read = readWith(kWhole, file, {}, true).dump;
        QVERIFY(read.strings.size() > 100);
        support::StringPool piece;
        for (support::StringId id = 0; id < read.strings.size(); ++id)
            piece.intern(read.strings.view(id));
        piece.intern("");
        piece.intern(std::string(300000, 'x') + "large");
        support::StringPool byHash, byText;
        byHash.intern("Tensor.add.0.forward"); // already present in the file's pool: found, not added
        byText.intern("Tensor.add.0.forward");
        for (int pass = 0; pass < 2; ++pass) {
            for (support::StringId id = 0; id < piece.size(); ++id) {
                const std::string_view text = piece.view(id);
                QCOMPARE(piece.hashAt(id), support::StringPool::hashOf(text));
                byHash.prefetchHash(piece.hashAt(id));
                const support::StringId viaHash = byHash.intern(text, piece.hashAt(id));
                QCOMPARE(viaHash, byText.intern(text));
                QCOMPARE(byHash.view(viaHash), text);
            }
        }
        QCOMPARE(byHash.size(), byText.size());
        QCOMPARE(byHash.bytesStored(), byText.bytesStored());
    }
};

QTEST_APPLESS_MAIN(TestDumpReaderChunks)
#include "tst_dump_reader_chunks.moc"
