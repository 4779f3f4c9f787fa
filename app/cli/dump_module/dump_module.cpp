// SPDX-License-Identifier: Apache-2.0
// msprobe_dump module: the libtorch half of `msprobe dump` (see dump_module_api.h).
#include "dump_module/dump_module_api.h"

#include "capture/debugger.h"
#include "support/error.h"
#include "support/json_file.h"

#include <torch/csrc/jit/serialization/import.h>
#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/script.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>

using namespace msprobe;

namespace {

struct UsageFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string trimmed(std::string_view line)
{
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
        line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
        line.remove_suffix(1);
    return std::string(line);
}

// One line for the terminal from a libtorch exception, never its C++ backtrace: the first line of
// what_without_backtrace(), or for a TorchScript interpreter failure the line naming the Python-level error
// (its last line; the lines before it are the TorchScript traceback).
std::string oneLine(const std::exception& error)
{
    const auto* torchError = dynamic_cast<const c10::Error*>(&error);
    const std::string text = torchError ? torchError->what_without_backtrace() : error.what();
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        if (std::string line = trimmed(std::string_view(text).substr(start, end - start)); !line.empty())
            lines.push_back(std::move(line));
        start = end + 1;
    }
    if (lines.empty())
        return "unknown libtorch error";
    if (lines.front().find("TorchScript interpreter") != std::string::npos)
        return lines.back();
    return lines.front();
}

std::vector<c10::IValue> loadInputs(const std::string& path, const c10::Device& device)
{
    const std::string bytes = support::readWholeFile(path);
    c10::IValue value;
    try {
        value = torch::jit::pickle_load(std::vector<char>(bytes.begin(), bytes.end()));
    } catch (const std::exception& error) {
        throw support::Error(path, "", "cannot read inputs (expected torch.save of a tensor, tuple or list): " + oneLine(error));
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
        throw support::Error(path, "", "inputs must be a tensor, a tuple or a list, not " + value.tagKind());
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

namespace {

int run(const std::string& model, const std::string& input, const std::string& config, const std::string& device,
    const std::string& dumpPath, long steps, bool backward)
{
    c10::Device dev(c10::DeviceType::CPU);
    try {
        dev = c10::Device(device);
    } catch (const std::exception&) {
        throw UsageFailure("invalid --device '" + device + "'");
    }
    torch::jit::Module module;
    try {
        module = torch::jit::load(model, dev);
    } catch (const std::exception& error) {
        throw support::Error(model, "", "cannot load TorchScript model: " + oneLine(error));
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
                throw support::Error(model, "", "--backward: the model returned no floating-point tensor that requires grad");
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
    return 0;
}

void copyMessage(const char* text, char* error, std::size_t errorSize)
{
    if (errorSize == 0)
        return;
    std::strncpy(error, text, errorSize - 1);
    error[errorSize - 1] = '\0';
}

} // namespace

extern "C" __attribute__((visibility("default"))) int msprobe_dump_run(
    const MsprobeDumpRequest* request, char* error, std::size_t errorSize)
{
    try {
        return run(request->model, request->input, request->config, request->device, request->dumpPath,
            request->steps, request->backward != 0);
    } catch (const UsageFailure& failure) {
        copyMessage(failure.what(), error, errorSize);
        return 2;
    } catch (const msprobe::support::Error& failure) {
        copyMessage(failure.what(), error, errorSize);
        return 1;
    } catch (const std::exception& failure) { // a libtorch failure while running the model
        copyMessage(("running the model failed: " + oneLine(failure)).c_str(), error, errorSize);
        return 1;
    }
}
