// SPDX-License-Identifier: Apache-2.0
// The dump.json reader is strict where Python's json.load is: the JSON number grammar (plus NaN and
// Infinity), a repeated key replaces the earlier value, numbers where the genuine tool writes them
// ("md5" of 0-d tensors in xor mode); and bad bytes (invalid UTF-8, raw control characters, NUL-filled
// files, mismatched brackets) get a message naming the file and the place, with no raw byte echoed.
#include "test_util.h"
#include "fuzz/dump_equal.h"

#include "dump/dump_json_reader.h"
#include "support/error.h"

#include <sys/resource.h>

#include <bit>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <limits>

namespace msprobe::dump::detail {
std::size_t setDumpJsonChunkBytesForTesting(std::size_t bytes);
}

using namespace msprobe;
using namespace msprobe::test;

namespace {

constexpr std::size_t kWhole = std::numeric_limits<std::size_t>::max();

// Parses `text` whole or in pieces of `pieceBytes`; the error text, or empty.
std::string parseError(const std::string& text, dump::DumpFile* out = nullptr, std::size_t pieceBytes = kWhole)
{
    const std::size_t previous = dump::detail::setDumpJsonChunkBytesForTesting(pieceBytes);
    std::string message;
    try {
        dump::DumpJsonReader reader;
        dump::DumpFile dump = reader.parse(text, "inline.json");
        if (out)
            *out = std::move(dump);
    } catch (const support::Error& error) {
        message = error.what();
    }
    dump::detail::setDumpJsonChunkBytesForTesting(previous);
    return message;
}

// One entry "Torch.a.0.forward" whose output is a tensor with Max = `max`, laid out as json.dump(indent=1)
// writes it, so that the reader can also cut it into pieces.
std::string tensorDump(const std::string& max, const std::string& extra = {})
{
    return "{\n \"task\": \"statistics\",\n \"level\": \"L1\",\n \"data\": {\n  \"Torch.a.0.forward\": {\n   \"output\": [{\"type\": "
           "\"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [2], \"Max\": "
        + max + ", \"Min\": 0.5, \"Mean\": null, \"Norm\": null" + extra + "}]\n  },\n  \"Torch.b.0.forward\": {\n   \"output\": []\n  }\n }\n}";
}

bool printableAscii(const std::string& text)
{
    return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

std::uint64_t peakRssKiB()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<std::uint64_t>(usage.ru_maxrss);
}

} // namespace

class TestDumpReaderStrict : public QObject {
    Q_OBJECT

private slots:
    void badNumbers_data()
    {
        QTest::addColumn<QString>("token");
        for (const char* token : { "0x10", "0X1F", "1.5.3", "1e", "0b101", "1_000", "16.4abc", "012", "+1", ".5", "1.", "-", "--1",
                 "1e+", "00", "-012", "1.5e3.2", "0x", "NaNx", "Infinityy", "-NaN", "1E5f" })
            QTest::newRow(token) << QString::fromUtf8(token);
    }

    // Anything but the JSON number grammar (and Python's NaN/Infinity/-Infinity) is an error naming the
    // file, the byte offset of the token, its line and column and the entry, read whole or in pieces.
    void badNumbers()
    {
        QFETCH(QString, token);
        const std::string text = tensorDump(token.toStdString());
        const std::size_t at = text.find(token.toStdString(), text.find("\"Max\""));
        const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
        const std::string place = "inline.json: byte " + std::to_string(at) + " (line " + std::to_string(line) + ", column ";
        for (std::size_t pieces : { kWhole, std::size_t(40) }) {
            const std::string message = parseError(text, nullptr, pieces);
            QVERIFY2(message.starts_with(place), message.c_str());
            QVERIFY2(message.find("entry 'Torch.a.0.forward'") != std::string::npos, message.c_str());
            QVERIFY2(message.find("\"Max\"") != std::string::npos, message.c_str());
        }
        // The same token as a scalar's value, an extra key's value, or nested in a list.
        for (const std::string& elsewhere : { ", \"value2\": [1, " + token.toStdString() + "]" }) {
            const std::string message = parseError(tensorDump("1.0", elsewhere));
            QVERIFY2(message.find("entry 'Torch.a.0.forward'") != std::string::npos, message.c_str());
        }
        const std::string scalar = "{\"task\": \"t\", \"data\": {\"Torch.a.0.forward\": {\"output\": [{\"type\": \"int\", \"value\": "
            + token.toStdString() + "}]}}}";
        const std::string message = parseError(scalar);
        QVERIFY2(message.starts_with("inline.json: byte "), message.c_str());
    }

    void goodNumbers()
    {
        struct Good {
            const char* token;
            double value;
        };
        for (const Good& good : { Good { "-0", 0.0 }, Good { "1E+5", 1e5 }, Good { "1e-3", 1e-3 }, Good { "0.5", 0.5 },
                 Good { "-1.5e10", -1.5e10 }, Good { "0", 0.0 }, Good { "120", 120.0 }, Good { "1.25E2", 125.0 },
                 Good { "123456789012345678901234", 123456789012345678901234.0 } }) {
            dump::DumpFile dump;
            for (std::size_t pieces : { kWhole, std::size_t(40) }) {
                const std::string message = parseError(tensorDump(good.token), &dump, pieces);
                QVERIFY2(message.empty(), (std::string(good.token) + ": " + message).c_str());
                QCOMPARE(dump.tensors.max[0].asDouble(), good.value);
            }
        }
        dump::DumpFile dump;
        QVERIFY(parseError(tensorDump("-Infinity"), &dump).empty());
        QCOMPARE(dump.tensors.max[0].asDouble(), -std::numeric_limits<double>::infinity());
    }

    // Every statistic is the correctly rounded double (glibc's strtod) with simdjson's kind (integer tokens within
    // int64 are Int), on the shapes Python writes (repr, exponents, long integers) and on the edges: more than 19
    // significant digits (simdjson 3.0's get_number() gives 0 for "1.00000000000000000001"), leading zeros,
    // subnormals and underflow.
    void plainNumbersExact()
    {
        std::vector<std::string> tokens = { "5.822201728820801", "-1.2284929653105792e-05", "9007199254740993.0", "9007199254740992.5",
            "1e22", "1e23", "1.7976931348623157e308", "2.2250738585072014e-308", "5e-324", "4.9406564584124654e-324",
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "99999999999999999999", "1234567890123456789",
            "0.1", "0.30000000000000004", "123456789.12345678", "1.00000000000000000001", "0.000000000000000000001234",
            "18446744073709551615", "7.0e+00", "-0.0", "1E-22", "12345678e-22", "1234567890123456789e-30", "-0.00015519910084549338",
            "0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
            "0." + std::string(400, '0') + "1", "1e-400", "2.5e-330", "0e-500" };
        std::uint64_t state = 88172645463325252ull;
        for (int i = 0; i < 3000; ++i) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            double value;
            std::uint64_t bits = state & ~(std::uint64_t(0x7FF) << 52);
            bits |= std::uint64_t(1023 + static_cast<int>(state >> 58) - 40) << 52; // exponents around 2^-40 .. 2^23
            std::memcpy(&value, &bits, sizeof value);
            char text[64];
            const auto shortest = std::to_chars(text, text + sizeof text, value); // Python's repr: shortest round trip
            tokens.emplace_back(text, shortest.ptr);
            std::snprintf(text, sizeof text, "%.17g", static_cast<double>(static_cast<float>(value)));
            tokens.emplace_back(text);
            std::snprintf(text, sizeof text, "%lld", static_cast<long long>(state >> (state % 64)) * ((state & 1) ? -1 : 1));
            tokens.emplace_back(text);
        }
        std::string tensors;
        for (const std::string& token : tokens)
            tensors += (tensors.empty() ? "" : ",\n    ") + std::string("{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [], \"Max\": ")
                + token + ", \"Min\": " + token + " , \"Mean\": null, \"Norm\": null}";
        const std::string text = "{\n \"task\": \"statistics\",\n \"data\": {\n  \"Torch.a.0.forward\": {\n   \"output\": [" + tensors + "]\n  }\n }\n}";
        for (std::size_t pieces : { kWhole, std::size_t(4096) }) {
            dump::DumpFile dump;
            const std::string message = parseError(text, &dump, pieces);
            QVERIFY2(message.empty(), message.c_str());
            QCOMPARE(dump.tensors.size(), tokens.size());
            for (std::size_t i = 0; i < tokens.size(); ++i) {
                const std::string& token = tokens[i];
                const bool integer = token.find_first_of(".eE") == std::string::npos;
                errno = 0;
                const long long asInteger = integer ? std::strtoll(token.c_str(), nullptr, 10) : 0;
                const bool int64 = integer && errno == 0;
                for (const dump::StatValue& read : { dump.tensors.max[i], dump.tensors.min[i] }) {
                    QVERIFY2(read.kind == (int64 ? dump::StatKind::Int : dump::StatKind::Float), token.c_str());
                    if (int64)
                        QVERIFY2(read.i == asInteger, token.c_str());
                    else
                        QVERIFY2(std::bit_cast<std::uint64_t>(read.f) == std::bit_cast<std::uint64_t>(std::strtod(token.c_str(), nullptr)),
                            token.c_str());
                }
            }
        }
    }

    // A second top-level "data" replaces the first, as json.load does; read whole or in pieces.
    void duplicateDataReplaces()
    {
        const std::string text = "{\n \"task\": \"statistics\",\n \"data\": {\n  \"Torch.a.0.forward\": {\n   \"output\": []\n  },\n"
                                 "  \"Torch.b.0.forward\": {}\n },\n \"data\": {\n  \"Torch.c.0.forward\": {\n   \"output\": [{\"type\": "
                                 "\"int\", \"value\": 3}]\n  },\n  \"Torch.d.0.forward\": {}\n }\n}";
        for (std::size_t pieces : { kWhole, std::size_t(30) }) {
            dump::DumpFile dump;
            const std::string message = parseError(text, &dump, pieces);
            QVERIFY2(message.empty(), message.c_str());
            QCOMPARE(dump.entries.size(), std::size_t(2));
            QCOMPARE(dump.entryName(0), std::string_view("Torch.c.0.forward"));
            QCOMPARE(dump.entryName(1), std::string_view("Torch.d.0.forward"));
            QCOMPARE(dump.scalars.size(), std::size_t(1));
        }
    }

    // Inside an entry a repeated key keeps its first position and its last value, as a Python dict does.
    void duplicateKeysInsideEntries()
    {
        const std::string text = R"({"task": "t", "data": {"Torch.a.0.forward": {"input_args": [], "output": [{"type": "int", "value": 1}],
            "input_kwargs": {"k": {"type": "int", "value": 5}, "k": {"type": "int", "value": 6}},
            "output": [{"type": "int", "value": 2}, {"type": "torch.ProcessGroup", "group_id": "a", "group_id": "b", "opts": {"x": 1, "y": 2, "x": [3]}}],
            "grad": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [], "Max": NaN, "Min": 1, "Mean": 1, "Norm": 1}],
            "grad": []}}})";
        dump::DumpFile dump;
        const std::string message = parseError(text, &dump);
        QVERIFY2(message.empty(), message.c_str());
        const std::uint32_t body = dump.entries[0].body;
        const auto children = dump.children(body);
        QCOMPARE(children.size(), std::size_t(4));
        QCOMPARE(dump::countEntries(dump).tensors, std::size_t(0)); // the replaced "grad" held the only tensor
        QCOMPARE(dump::countEntries(dump).tensorsWithNanOrInf, std::size_t(0));
        QCOMPARE(dump.text(dump.nodes[children[0]].key), std::string_view("input_args"));
        QCOMPARE(dump.text(dump.nodes[children[1]].key), std::string_view("output"));
        QCOMPARE(dump.text(dump.nodes[children[2]].key), std::string_view("input_kwargs"));
        const auto output = dump.children(children[1]);
        QCOMPARE(output.size(), std::size_t(2));
        QCOMPARE(dump.text(dump.scalars.text[dump.nodes[output[0]].payload]), std::string_view("2"));
        const auto extras = dump.extrasOf(dump.scalars.extras[dump.nodes[output[1]].payload]);
        QCOMPARE(extras.size(), std::size_t(2));
        QCOMPARE(dump.text(extras[0].text), std::string_view("'b'"));
        QCOMPARE(dump.text(extras[1].text), std::string_view("{'x': [3], 'y': 2}"));
        const auto kwargs = dump.children(children[2]);
        QCOMPARE(kwargs.size(), std::size_t(1));
        QCOMPARE(dump.text(dump.scalars.text[dump.nodes[kwargs[0]].payload]), std::string_view("6"));
    }

    // xor summaries: a number as "md5" (0-d tensors), kept as the text Python's str() gives.
    void md5AsNumber()
    {
        struct Case {
            const char* json;
            const char* text;
        };
        for (const Case& c : { Case { "3735928559", "3735928559" }, Case { "-17", "-17" }, Case { "2.5", "2.5" }, Case { "1e20", "1e+20" },
                 Case { "\"00ab\"", "00ab" } }) {
            dump::DumpFile dump;
            for (std::size_t pieces : { kWhole, std::size_t(40) }) {
                const std::string message = parseError(tensorDump("1.0", std::string(", \"md5\": ") + c.json), &dump, pieces);
                QVERIFY2(message.empty(), message.c_str());
                QCOMPARE(dump.text(dump.tensors.md5[0]), std::string_view(c.text));
            }
        }
        QVERIFY(parseError(tensorDump("1.0", ", \"md5\": [1]")).find("\"md5\" must be a string or a number") != std::string::npos);
    }

    // A UTF-8 byte order mark is accepted; offsets in messages still count it.
    void byteOrderMark()
    {
        const std::string text = "\xEF\xBB\xBF" + tensorDump("1.0");
        for (std::size_t pieces : { kWhole, std::size_t(40) }) {
            dump::DumpFile dump;
            const std::string message = parseError(text, &dump, pieces);
            QVERIFY2(message.empty(), message.c_str());
            QCOMPARE(dump.entries.size(), std::size_t(2));
        }
        QTemporaryDir dir;
        const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "dump.json";
        writeFile(file, text);
        const std::size_t previous = dump::detail::setDumpJsonChunkBytesForTesting(40);
        QCOMPARE(dump::readDumpJson(file).entries.size(), std::size_t(2));
        dump::detail::setDumpJsonChunkBytesForTesting(previous);
        const std::string bad = "\xEF\xBB\xBF" + tensorDump("0x1");
        const std::string message = parseError(bad);
        QVERIFY2(message.starts_with("inline.json: byte " + std::to_string(bad.find("0x1")) + " "), message.c_str());
    }

    void badBytes_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("offset");
        QTest::addColumn<QString>("expected");
        const std::string good = tensorDump("1.0");
        const std::size_t dtype = good.find("torch.float32") + 6;
        auto row = [&](const char* name, std::string text, std::size_t offset, const char* expected) {
            QTest::newRow(name) << QByteArray(text.data(), static_cast<qsizetype>(text.size())) << int(offset) << QString::fromUtf8(expected);
        };
        std::string invalid = good;
        invalid[dtype] = '\xff';
        row("invalid UTF-8", invalid, dtype, "invalid UTF-8 (byte 0xff)");
        std::string truncatedSequence = good;
        truncatedSequence.replace(dtype, 2, "\xC3(");
        row("cut UTF-8 sequence", truncatedSequence, dtype, "invalid UTF-8 (byte 0xc3)");
        std::string control = good;
        control[dtype] = '\x1b';
        row("raw escape in a string", control, dtype, "a raw control character (0x1b) in a string");
        std::string nul = good;
        nul[dtype] = '\0';
        row("NUL in a string", nul, dtype, "a NUL byte");
        const std::size_t close = good.find("}]");
        std::string mismatch = good;
        mismatch[close + 1] = '}';
        row("[ closed by }", mismatch, close + 1, "'[' closed by '}'");
        std::string mismatch2 = good;
        mismatch2.replace(good.find("[2]"), 3, "[2}");
        row("[ closed by } in shape", mismatch2, good.find("[2]") + 2, "'[' closed by '}'");
        row("NUL-filled", std::string(4096, '\0'), 0, "a NUL byte");
        row("NUL-filled after a start", good.substr(0, 60) + std::string(4096, '\0'), 60, "a NUL byte");
    }

    // Each names the file and the byte, whole or in pieces, and never echoes the raw byte.
    void badBytes()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, offset);
        QFETCH(QString, expected);
        for (std::size_t pieces : { kWhole, std::size_t(40) }) {
            const std::string message = parseError(text.toStdString(), nullptr, pieces);
            QVERIFY2(message.starts_with("inline.json: byte " + std::to_string(offset) + " (line "), message.c_str());
            QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
            QVERIFY2(printableAscii(message), message.c_str());
        }
    }

    // Entry names in messages are escaped: a name carrying a terminal escape sequence is printed as text.
    void entryNamesAreEscaped()
    {
        const std::string text = "{\"task\": \"t\", \"data\": {\"Torch.\\u001b[31m\xC3\xA9.0.forward\": 5}}";
        const std::string message = parseError(text);
        QVERIFY2(message.find("entry 'Torch.\\x1b[31m\xC3\xA9.0.forward'") != std::string::npos, message.c_str());
        QVERIFY(message.find('\x1b') == std::string::npos);
    }

    // A NUL byte inside a piece of a file read in pieces (entries end around it, so the piece is cut and parsed
    // rather than widened) is named at its byte, as a whole read names it.
    void nulInsideACutPieceOfAFile()
    {
        std::string text = "{\n \"task\": \"statistics\",\n \"data\": {\n";
        for (int i = 0; i < 40; ++i)
            text += "  \"Torch.e." + std::to_string(i) + ".forward\": {\n   \"output\": []\n  },\n";
        text += "  \"Torch.z.0.forward\": {}\n }\n}\n";
        const std::size_t at = text.find("Torch.e.25") + 3;
        text[at] = '\0';
        QTemporaryDir dir;
        const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "dump.json";
        writeFile(file, text);
        for (std::size_t pieceBytes : { std::size_t(96), kWhole }) {
            const std::size_t previous = dump::detail::setDumpJsonChunkBytesForTesting(pieceBytes);
            std::string message;
            try {
                dump::readDumpJson(file);
            } catch (const support::Error& error) {
                message = error.what();
            }
            dump::detail::setDumpJsonChunkBytesForTesting(previous);
            QVERIFY2(message.starts_with(file.string() + ": byte " + std::to_string(at) + " (line 79, column 7)"), message.c_str());
            QVERIFY2(message.find("a NUL byte") != std::string::npos, message.c_str());
        }
    }

    // A large file of NUL bytes (a preallocated file never written) is refused without reading it into memory.
    void nulFilledFileIsRefusedCheaply()
    {
        QTemporaryDir dir;
        const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "dump.json";
        constexpr std::uint64_t kSize = std::uint64_t(768) << 20;
        for (const std::string& head : { std::string(), std::string("{\n \"task\": \"statistics\",\n \"data\": {\n  \"a\": {") }) {
            writeFile(file, head);
            std::filesystem::resize_file(file, kSize); // sparse: cheap to make
            const std::uint64_t before = peakRssKiB();
            try {
                dump::readDumpJson(file);
                QFAIL("no error");
            } catch (const support::Error& error) {
                const std::string message = error.what();
                QVERIFY2(message.starts_with(file.string() + ": byte " + std::to_string(head.size()) + " (line "), message.c_str());
                QVERIFY2(message.find("a NUL byte") != std::string::npos, message.c_str());
            }
            const std::uint64_t grown = peakRssKiB() - before;
            QVERIFY2(grown < 128 * 1024, std::to_string(grown).c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestDumpReaderStrict)
#include "tst_dump_reader_strict.moc"
