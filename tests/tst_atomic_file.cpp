// SPDX-License-Identifier: Apache-2.0
// AtomicFile: nothing under the final name before commit, the temporary removed without it, and the direct-write
// mode (O_DIRECT blocks with a padded, truncated tail) giving exactly the bytes written, on a disk folder and on
// tmpfs (where O_DIRECT is refused and buffered writes take over).
#include "test_util.h"

#include "compare/atomic_file.h"

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
std::string writeThrough(AtomicFile& file)
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
                AtomicFile file(target);
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
                AtomicFile file(target);
                file.useDirectWrites();
                file.write("partial");
            }
            QVERIFY(!fs::exists(target));
            for (const auto& item : fs::directory_iterator(folder))
                QVERIFY2(item.path().filename().string().find("atomic_direct_test") == std::string::npos, item.path().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"
