// SPDX-License-Identifier: Apache-2.0
// msprobe_dump module, memory half: runs a TorchScript model under msprobe::MemoryRecorder (see
// memory_capture_api.h). The recorder starts before the model is loaded, so that its weights are captured blocks.
#include "dump_module/memory_capture_api.h"

#include "capture/memory/memory_recorder.h"
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

// First line of a libtorch message (no C++ backtrace), or the Python-level line of a TorchScript error.
std::string oneLine(const std::exception& error)
{
    const auto* torchError = dynamic_cast<const c10::Error*>(&error);
    std::string text = torchError ? torchError->what_without_backtrace() : error.what();
    if (text.find("TorchScript interpreter") != std::string::npos) {
        while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
            text.pop_back();
        return text.substr(text.rfind('\n') + 1);
    }
    return text.substr(0, text.find('\n'));
}

std::vector<c10::IValue> loadInputs(const std::string& path)
{
    const std::string bytes = support::readWholeFile(path);
    c10::IValue value;
    try {
        value = torch::jit::pickle_load(std::vector<char>(bytes.begin(), bytes.end()));
    } catch (const std::exception& error) {
        throw support::Error(path, "", "cannot read inputs (expected torch.save of a tensor, tuple or list): " + oneLine(error));
    }
    if (value.isTuple())
        return value.toTupleRef().elements().vec();
    if (value.isList())
        return value.toListRef().vec();
    if (value.isTensor())
        return { value };
    throw support::Error(path, "", "inputs must be a tensor, a tuple or a list, not " + value.tagKind());
}

at::Tensor lossOf(const c10::IValue& out)
{
    if (out.isTensor() && out.toTensor().is_floating_point() && out.toTensor().requires_grad())
        return out.toTensor().sum();
    std::vector<c10::IValue> items;
    if (out.isTuple())
        items = out.toTupleRef().elements().vec();
    else if (out.isList())
        items = out.toListRef().vec();
    at::Tensor total;
    for (const auto& item : items)
        if (auto part = lossOf(item); part.defined())
            total = total.defined() ? total + part : part;
    return total;
}

int run(const MsprobeMemoryCaptureRequest& r)
{
    MemoryCaptureOptions options;
    options.outputDir = r.outputDir;
    options.access = r.access != 0;
    options.database = r.database != 0;
    if (const std::string watch = r.watch; !watch.empty()) {
        const auto comma = watch.find(',');
        if (comma == std::string::npos || comma == 0 || comma + 1 == watch.size()
            || watch.find(',', comma + 1) != std::string::npos)
            throw UsageFailure("--watch needs two op names, OP_A,OP_B, not '" + watch + "'");
        options.watch = { watch.substr(0, comma), watch.substr(comma + 1) };
    }
    const auto inputs = loadInputs(r.input);
    MemoryRecorder memory(options);
    memory.start();
    torch::jit::Module module;
    try {
        module = torch::jit::load(r.model);
    } catch (const std::exception& error) {
        throw support::Error(r.model, "", "cannot load TorchScript model: " + oneLine(error));
    }
    memory.start(module); // module scopes from here on
    for (long step = 1; step <= r.steps; ++step) {
        {
            const c10::IValue out = module.forward(inputs);
            if (r.backward) {
                const at::Tensor loss = lossOf(out);
                if (!loss.defined())
                    throw support::Error(r.model, "", "--backward: the model returned no floating-point tensor that requires grad");
                loss.backward();
            }
        }
        memory.step();
        std::printf("step %ld: %llu events\n", step, static_cast<unsigned long long>(memory.eventCount()));
    }
    memory.stop();
    std::printf("memory dump: %s\n", memory.csvPath().c_str());
    if (!memory.watchCsvPath().empty())
        std::printf("watch checksums: %s\n", memory.watchCsvPath().c_str());
    return 0;
}

void copyMessage(const std::string& text, char* error, std::size_t errorSize)
{
    if (errorSize == 0)
        return;
    std::strncpy(error, text.c_str(), errorSize - 1);
    error[errorSize - 1] = '\0';
}

} // namespace

extern "C" __attribute__((visibility("default"))) int msprobe_memory_capture_run(
    const MsprobeMemoryCaptureRequest* request, char* error, std::size_t errorSize)
{
    try {
        return run(*request);
    } catch (const UsageFailure& failure) {
        copyMessage(failure.what(), error, errorSize);
        return 2;
    } catch (const msprobe::support::Error& failure) {
        copyMessage(failure.what(), error, errorSize);
        return 1;
    } catch (const std::exception& failure) { // a libtorch failure while running the model
        copyMessage("running the model failed: " + oneLine(failure), error, errorSize);
        return 1;
    }
}
