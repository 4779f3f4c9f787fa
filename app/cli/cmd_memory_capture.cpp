// SPDX-License-Identifier: Apache-2.0
#include "cmd_memory_capture.h"

#include "cli.h"
#include "dump_module/memory_capture_api.h"
#include "support/error.h"
#include "support/module_loader.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace msprobe::cli {

namespace {

const char* kMemoryCaptureHelp
    = "usage: msprobe memory capture [-h] --model MODEL.pt --input INPUTS.pt -o DIR [--steps N]\n"
      "                              [--access] [--watch OP_A,OP_B] [--backward] [--format csv|db]\n\n"
      "Load a TorchScript model (torch.jit.save) headless, run it on the inputs and record every ATen CPU\n"
      "allocation and free, the outermost operators and the steps as an msMemScope dump:\n"
      "DIR/msmemscope_{pid}_{time}_ascend/device_0/dump/memscope_dump_{time}.csv.\n\n"
      "options:\n"
      "  --model PATH        TorchScript archive (loaded under capture: its weights are tagged \"weight\")\n"
      "  --input PATH        torch.save of a tensor, or of a tuple/list of positional inputs\n"
      "  -o, --output DIR    output root folder\n"
      "  --steps N           run N steps (default 1); each ends with a SYSTEM STEP row\n"
      "  --access            also write ACCESS rows (READ/WRITE of every outermost op's tensors)\n"
      "  --watch OP_A,OP_B   CRC-64 of OP_A's outputs before/after every op until OP_B ends\n"
      "                      (op names like aten::add or torch._ops.aten.add.Tensor)\n"
      "  --backward          also run backward from the sum of the floating-point outputs\n"
      "  --format csv|db     the dump as CSV (default) or as msMemScope's SQLite variant memscope_dump_{time}.db\n"
      "  -h, --help          show this help\n";

} // namespace

int runMemoryCapture(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs(kMemoryCaptureHelp, stdout);
        return kExitOk;
    }
    std::string model, input, output, watch;
    long steps = 1;
    bool access = false, backward = false, database = false;
    ArgScanner scan(args);
    while (!scan.done()) {
        if (auto v = scan.value({ "--model", "-m" }))
            model = *v;
        else if (auto i = scan.value({ "--input", "-i" }))
            input = *i;
        else if (auto o = scan.value({ "--output", "-o" }))
            output = *o;
        else if (auto s = scan.value({ "--steps" })) {
            char* end = nullptr;
            steps = std::strtol(s->c_str(), &end, 10);
            if (!end || *end || steps < 1)
                throw UsageError { "--steps needs a positive integer, not '" + *s + "'" };
        } else if (auto f = scan.value({ "--format", "--data-format" })) {
            if (*f != "csv" && *f != "db")
                throw UsageError { "--format is csv or db, not '" + *f + "'" };
            database = *f == "db";
        } else if (auto w = scan.value({ "--watch" }))
            watch = *w;
        else if (scan.isFlag({ "--access" }))
            access = true;
        else if (scan.isFlag({ "--backward" }))
            backward = true;
        else
            throw UsageError { "unexpected argument '" + scan.peek() + "'" };
    }
    if (model.empty() || input.empty() || output.empty())
        throw UsageError { "--model, --input and -o are required" };
#ifndef MSPROBE_HAVE_CAPTURE
    std::fprintf(stderr, "msprobe memory capture: this msprobe was built without the libtorch capture library\n");
    return kExitFailure;
#else
    // libtorch is loaded only now, with the module: every other verb starts without it.
    const support::LoadedModule found = support::loadModule({ "libmsprobe_dump.so", "MSPROBE_DUMP_MODULE", MSPROBE_DUMP_MODULE_INSTALL_DIR,
        MSPROBE_DUMP_MODULE_BUILD_PATH, kMsprobeMemoryCaptureEntry });
    if (!found.entry)
        throw support::Error(found.failure);
    using Entry = int (*)(const MsprobeMemoryCaptureRequest*, char*, std::size_t);
    const MsprobeMemoryCaptureRequest request { model.c_str(), input.c_str(), output.c_str(), watch.c_str(), steps,
        access ? 1 : 0, backward ? 1 : 0, database ? 1 : 0 };
    char error[4096] = {};
    const int rc = reinterpret_cast<Entry>(found.entry)(&request, error, sizeof error);
    if (rc == kExitUsage)
        throw UsageError { error };
    if (rc != kExitOk) {
        std::string message(error);
        throw support::Error(message.substr(0, message.find('\n')));
    }
    return kExitOk;
#endif
}

} // namespace msprobe::cli
