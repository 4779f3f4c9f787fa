// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#ifdef MSPROBE_HAVE_CAPTURE
#include "capture/debugger.h"
#include "support/error.h"
#include "support/json_file.h"

#include <torch/csrc/jit/serialization/import.h>
#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/script.h>
#endif

#include <cstdio>
#include <cstdlib>

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

#ifdef MSPROBE_HAVE_CAPTURE
namespace {

std::vector<c10::IValue> loadInputs(const std::string& path, const c10::Device& device)
{
    const std::string bytes = readWholeFile(path);
    c10::IValue value;
    try {
        value = torch::jit::pickle_load(std::vector<char>(bytes.begin(), bytes.end()));
    } catch (const std::exception& error) {
        throw Error(path, "", std::string("cannot read inputs (expected torch.save of a tensor, tuple or list): ")
                + error.what());
    }
    std::vector<c10::IValue> args;
    if (value.isTuple()) {
        for (const auto& item : value.toTupleRef().elements())
            args.push_back(item);
    } else if (value.isList()) {
        for (const auto& item : value.toListRef())
            args.push_back(item);
    } else if (value.isTensor()) {
        args.push_back(value);
    } else {
        throw Error(path, "", "inputs must be a tensor, a tuple or a list, not " + value.tagKind());
    }
    for (auto& arg : args)
        if (arg.isTensor())
            arg = arg.toTensor().to(device);
    return args;
}

void collectFloat(const c10::IValue& v, std::vector<at::Tensor>& out)
{
    if (v.isTensor() && v.toTensor().is_floating_point() && v.toTensor().requires_grad())
        out.push_back(v.toTensor());
    else if (v.isTuple())
        for (const auto& item : v.toTupleRef().elements())
            collectFloat(item, out);
    else if (v.isList())
        for (const auto& item : v.toListRef())
            collectFloat(item, out);
}

} // namespace
#endif

int runDump(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs(kDumpHelp, stdout);
        return kExitOk;
    }
    std::string model, input, config, device = "cpu", dumpPath;
    long steps = 1;
    bool backward = false;
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
    c10::Device dev(c10::DeviceType::CPU);
    try {
        dev = c10::Device(device);
    } catch (const std::exception&) {
        throw UsageError { "invalid --device '" + device + "'" };
    }
    torch::jit::Module module;
    try {
        module = torch::jit::load(model, dev);
    } catch (const std::exception& error) {
        throw Error(model, "", std::string("cannot load TorchScript model: ") + error.what());
    }
    const auto inputs = loadInputs(input, dev);
    PrecisionDebugger debugger(config, dumpPath.empty() ? std::nullopt : std::optional<std::string>(dumpPath));
    for (long step = 0; step < steps; ++step) {
        debugger.start(module);
        c10::IValue out = module.forward(inputs);
        if (backward) {
            std::vector<at::Tensor> outs;
            collectFloat(out, outs);
            if (outs.empty())
                throw Error(model, "", "--backward: the model returned no floating-point tensor that requires grad");
            at::Tensor total = outs[0].sum();
            for (std::size_t k = 1; k < outs.size(); ++k)
                total = total + outs[k].sum();
            total.backward();
        }
        debugger.stop();
        const auto dir = debugger.currentDumpDir();
        debugger.step();
        if (!dir.empty())
            std::printf("step %ld: %s\n", step, dir.string().c_str());
    }
    debugger.flush();
    return kExitOk;
#endif
}

} // namespace msprobe::cli
