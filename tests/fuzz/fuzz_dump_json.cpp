// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for DumpJsonReader::parse. Any input must give a model or a msprobe::Error;
// anything else (another exception, a crash, a hang, a sanitizer report) is a bug. Each input is
// also read in small chunks, which must give exactly the model or the error of a whole read, with
// progress that never goes back nor past the total.
#include "dump/dump_json_reader.h"
#include "dump_equal.h"
#include "support/error.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

namespace msprobe::dump::detail {
std::size_t setDumpJsonChunkBytesForTesting(std::size_t bytes);
}

namespace {

struct Outcome {
    bool ok = false;
    msprobe::dump::DumpFile dump;
    std::string error;
};

Outcome parseWith(msprobe::dump::DumpJsonReader& reader, std::string_view text, std::size_t chunkBytes,
                  const msprobe::dump::ReadOptions& options = {})
{
    msprobe::dump::detail::setDumpJsonChunkBytesForTesting(chunkBytes);
    Outcome outcome;
    try {
        outcome.dump = reader.parse(text, "fuzz.json", options);
        outcome.ok = true;
    } catch (const msprobe::support::Error& error) {
        outcome.error = error.what();
    }
    return outcome;
}

[[noreturn]] void fail(const std::string& why)
{
    std::fprintf(stderr, "fuzz_dump_json: %s\n", why.c_str());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static msprobe::dump::DumpJsonReader whole, chunked; // reused, as an application does
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    const Outcome reference = parseWith(whole, text, std::numeric_limits<std::size_t>::max());

    std::uint64_t last = 0;
    msprobe::dump::ReadOptions options;
    options.progress = [&](std::uint64_t done, std::uint64_t total) {
        if (done < last || done > total || total != size)
            fail("progress " + std::to_string(done) + "/" + std::to_string(total) + " after " + std::to_string(last));
        last = done;
    };
    const std::size_t chunkBytes = 16 + (size * 7919u) % 241; // several cuts in any seed file
    const Outcome pieces = parseWith(chunked, text, chunkBytes, options);

    if (reference.ok != pieces.ok || reference.error != pieces.error)
        fail("chunked read differs: [" + reference.error + "] vs [" + pieces.error + "]");
    if (reference.ok) {
        const std::string difference = msprobe::fuzz::dumpDifference(reference.dump, pieces.dump);
        if (!difference.empty())
            fail("chunked read gives a different model: " + difference);
        if (last != size)
            fail("progress did not reach the total");
    }
    return 0;
}
