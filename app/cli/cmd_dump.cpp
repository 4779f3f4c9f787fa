// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "dump_module/dump_module_api.h"
#include "support/error.h"
#include "support/module_loader.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace msprobe::cli {

namespace {

const char* kDumpHelp = "usage: msprobe dump [-h] --model MODEL.pt --input INPUTS.pt --config CONFIG.json\n"
                        "                    [--steps N] [--device DEVICE] [--dump_path DIR] [--backward]\n\n"
                        "Load a TorchScript model (torch.jit.save) headless, run it on the inputs and write an\n"
                        "msprobe dump (dump.json, construct.json, stack.json, dump_tensor_data/) as the config says:\n"
                        "level L1 dumps aten ops, L0 the model's submodules, mix both.\n\n"
                        "options:\n"
                        "  --model PATH        TorchScript archive\n"
                        "  --input PATH        torch.save of a tensor, or of a tuple/list of positional inputs\n"
                        "  --config PATH       msprobe config.json\n"
                        "  --steps N           run and dump N steps (default 1)\n"
                        "  --device DEVICE     device for model and inputs (default cpu)\n"
                        "  --dump_path DIR     overrides the config's dump_path\n"
                        "  --backward          also run backward from the sum of the floating-point outputs\n"
                        "  -h, --help          show this help\n";

} // namespace

int runDump(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs(kDumpHelp, stdout);
        return kExitOk;
    }
    std::string model, input, config, device = "cpu", dumpPath;
    long steps = 1;
    [[maybe_unused]] bool backward = false; // read only where the capture library is built
    ArgScanner scan(args);
    while (!scan.done()) {
        if (auto v = scan.value({ "--model", "-m" }))
            model = *v;
        else if (auto i = scan.value({ "--input", "-i" }))
            input = *i;
        else if (auto c = scan.value({ "--config", "-c" }))
            config = *c;
        else if (auto s = scan.value({ "--steps" })) {
            char* end = nullptr;
            steps = std::strtol(s->c_str(), &end, 10);
            if (!end || *end || steps < 1)
                throw UsageError { "--steps needs a positive integer, not '" + *s + "'" };
        } else if (auto d = scan.value({ "--device" }))
            device = *d;
        else if (auto p = scan.value({ "--dump_path", "--dump-path" }))
            dumpPath = *p;
        else if (scan.isFlag({ "--backward" }))
            backward = true;
        else
            throw UsageError { "unexpected argument '" + scan.peek() + "'" };
    }
    if (model.empty() || input.empty() || config.empty())
        throw UsageError { "--model, --input and --config are required" };
#ifndef MSPROBE_HAVE_CAPTURE
    std::fprintf(stderr, "msprobe dump: this msprobe was built without the libtorch capture library\n");
    return kExitFailure;
#else
    // libtorch is loaded only now, with the module: every other verb starts without it.
    const support::LoadedModule found = support::loadModule({ "libmsprobe_dump.so", "MSPROBE_DUMP_MODULE", MSPROBE_DUMP_MODULE_INSTALL_DIR,
        MSPROBE_DUMP_MODULE_BUILD_PATH, kMsprobeDumpEntry });
    if (!found.entry)
        throw support::Error(found.failure);
    using Entry = int (*)(const MsprobeDumpRequest*, char*, std::size_t);
    const MsprobeDumpRequest request { model.c_str(), input.c_str(), config.c_str(), device.c_str(), dumpPath.c_str(),
        steps, backward ? 1 : 0 };
    char error[4096] = {};
    const int rc = reinterpret_cast<Entry>(found.entry)(&request, error, sizeof error);
    if (rc == kExitUsage)
        throw UsageError { error };
    if (rc != kExitOk) {
        std::string message(error);
        message = message.substr(0, message.find('\n')); // one line, whatever the module said
        throw support::Error(message);
    }
    return kExitOk;
#endif
}

} // namespace msprobe::cli
