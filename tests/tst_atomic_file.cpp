// SPDX-License-Identifier: Apache-2.0
// AtomicFile: nothing under the final name before commit, the temporary removed without it, and the direct-write
// mode (O_DIRECT blocks with a padded, truncated tail) giving exactly the bytes written, on a disk folder and on
// tmpfs (where O_DIRECT is refused and buffered writes take over).
#include "test_util.h"

#include "support/atomic_file.h"
#include "support/error.h"

#include <QTemporaryDir>

#include <fstream>
#include <random>

using namespace msprobe;
namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

// 40 MB + 123 bytes of varied text in uneven pieces (crosses the 16 MB staging blocks and ends unaligned).
std::string writeThrough(support::AtomicFile& file)
{
    std::mt19937 rng(5);
    std::string all;
    while (all.size() < (40u << 20)) {
        std::string piece(1 + rng() % 700000, 'a');
        for (auto& c : piece)
            c = static_cast<char>('a' + rng() % 26);
        file.write(piece);
        all += piece;
    }
    file.write(std::string(123, '\n'));
    return all + std::string(123, '\n');
}

} // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT

private slots:
    void directWritesGiveExactlyTheBytes()
    {
        std::vector<fs::path> folders;
        QTemporaryDir scratch; // the temporary folder (a disk file system here)
        if (scratch.isValid())
            folders.push_back(scratch.path().toStdString());
        if (fs::is_directory("/dev/shm"))
            folders.push_back("/dev/shm");
        QVERIFY(!folders.empty());
        for (const fs::path& folder : folders) {
            const fs::path target = folder / "atomic_direct_test.csv";
            fs::remove(target);
            std::string expected;
            {
                support::AtomicFile file(target);
                file.useDirectWrites();
                expected = writeThrough(file);
                QVERIFY(!fs::exists(target)); // nothing under the final name yet
                file.commit();
            }
            QCOMPARE(fs::file_size(target), expected.size());
            QVERIFY2(readAll(target) == expected, target.c_str());
            fs::remove(target);

            // Without commit the temporary goes away and no final file appears.
            {
                support::AtomicFile file(target);
                file.useDirectWrites();
                file.write("partial");
            }
            QVERIFY(!fs::exists(target));
            for (const auto& item : fs::directory_iterator(folder))
                QVERIFY2(item.path().filename().string().find("atomic_direct_test") == std::string::npos, item.path().c_str());
        }
    }

    // PickFreeName never replaces a file: the name gets _1, _2 before its extension; Replace does replace.
    void freeNamesNeverReplaceAFile()
    {
        QTemporaryDir scratch;
        const fs::path dir = scratch.path().toStdString();
        {
            std::ofstream(dir / "compare_1.vis.db") << "other run";
            std::ofstream(dir / "compare_1_1.vis.db") << "third run";
        }
        support::AtomicFile file(dir / "compare_1.vis.db", support::AtomicFile::OnClash::PickFreeName);
        file.write("mine");
        file.commit();
        QCOMPARE(file.finalPath(), dir / "compare_1_2.vis.db");
        QCOMPARE(readAll(dir / "compare_1.vis.db"), std::string("other run"));
        QCOMPARE(readAll(dir / "compare_1_1.vis.db"), std::string("third run"));
        QCOMPARE(readAll(dir / "compare_1_2.vis.db"), std::string("mine"));
        support::AtomicFile replace(dir / "compare_1.vis.db");
        replace.write("replaced");
        replace.commit();
        QCOMPARE(readAll(dir / "compare_1.vis.db"), std::string("replaced"));
        QCOMPARE(replace.finalPath(), dir / "compare_1.vis.db");
    }

    // The parts of one result commit together under one suffix, even when only one of their names is taken.
    void partsShareOneSuffix()
    {
        QTemporaryDir scratch;
        const fs::path dir = scratch.path().toStdString();
        std::ofstream(dir / "r_part_2.csv") << "other run";
        support::AtomicFile a(dir / "r_part_1.csv", support::AtomicFile::OnClash::PickFreeName), b(dir / "r_part_2.csv", support::AtomicFile::OnClash::PickFreeName);
        a.write("1");
        b.write("2");
        support::AtomicFile* group[] = { &a, &b };
        support::AtomicFile::commitTogether(group);
        QCOMPARE(a.finalPath(), dir / "r_part_1_1.csv");
        QCOMPARE(b.finalPath(), dir / "r_part_2_1.csv");
        QVERIFY(!fs::exists(dir / "r_part_1.csv")); // the first attempt was undone
        QCOMPARE(readAll(dir / "r_part_2.csv"), std::string("other run"));
        QCOMPARE(readAll(dir / "r_part_2_1.csv"), std::string("2"));
    }

    // After an interruption: temporaries (ours and registered ones) are gone, later commits are refused, and the
    // outputs committed before are reported. Runs last: it leaves the process refusing commits.
    void abandonRemovesTemporariesAndRefusesCommits()
    {
        QTemporaryDir scratch;
        const fs::path dir = scratch.path().toStdString();
        support::AtomicFile done(dir / "done.csv");
        done.write("x");
        done.commit();
        support::AtomicFile open(dir / "open.csv");
        open.write("partial");
        std::fflush(open.stream());
        const fs::path registered = dir / ".library_file.tmp";
        std::ofstream(registered) << "y";
        support::registerTemporaryFile(registered);
        QVERIFY(fs::exists(open.temporaryPath()));
        const auto kept = support::abandonPendingOutputs();
        QVERIFY(std::find(kept.begin(), kept.end(), dir / "done.csv") != kept.end());
        QVERIFY(!fs::exists(open.temporaryPath()));
        QVERIFY(!fs::exists(registered));
        QVERIFY_THROWS_EXCEPTION(support::Error, open.commit());
        QVERIFY(!fs::exists(dir / "open.csv"));
        support::unregisterTemporaryFile(registered);
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"
