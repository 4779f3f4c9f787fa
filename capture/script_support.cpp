// SPDX-License-Identifier: Apache-2.0
#include "capture/script_support.h"

#include "capture/recorder.h"

#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/api/module.h>
#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/csrc/jit/runtime/interpreter.h>
#include <torch/library.h>

#include <unordered_set>

namespace msprobe::capture {

namespace {

// module_tap(self, value) -> value: lets the RecordFunction callback see each module's outputs.
void tapKernel(const c10::OperatorHandle&, torch::jit::Stack* stack)
{
    c10::IValue value = std::move(stack->back());
    stack->pop_back();
    stack->pop_back();
    stack->push_back(std::move(value));
}

const c10::Symbol& tapSymbol()
{
    static const c10::Symbol symbol = c10::Symbol::fromQualString("msprobe::module_tap");
    return symbol;
}

void tapGraph(torch::jit::Graph& graph)
{
    torch::jit::Node* ret = graph.return_node();
    for (std::size_t i = 0; i < ret->inputs().size(); ++i) {
        torch::jit::Value* v = ret->inputs()[i];
        if (v->node()->kind() == tapSymbol())
            continue; // already tapped
        torch::jit::Node* tap = graph.create(tapSymbol(), { graph.inputs()[0], v }, 1);
        tap->output()->setType(v->type());
        tap->insertBefore(ret);
        ret->replaceInput(i, tap->output());
    }
}

std::vector<std::string> scriptFrames()
{
    std::vector<std::string> frames;
    const auto stack = torch::jit::currentCallstack();
    for (auto it = stack.begin(); it != stack.end(); ++it) { // innermost first
        const auto& range = it->range;
        if (!range.source())
            continue;
        std::string file = "<TorchScript>";
        std::size_t line = 0;
        std::string text;
        if (auto flc = range.file_line_col()) {
            file = std::get<0>(*flc);
            line = std::get<1>(*flc);
        }
        const auto& source = range.source();
        const std::size_t lineIndex = source->lineno_for_offset(range.start());
        if (line == 0)
            line = lineIndex + 1;
        text = source->get_line(lineIndex).str();
        const auto b = text.find_first_not_of(" \t");
        const auto e = text.find_last_not_of(" \t\r\n");
        text = b == std::string::npos ? std::string() : text.substr(b, e - b + 1);
        frames.push_back("File " + file + ", line " + std::to_string(line) + ", in " + it->filename + ", \n " + text);
    }
    return frames;
}

} // namespace

void registerScriptModel(torch::jit::Module& model)
{
    // Keeps module calls as separate frames and ops on the plain autograd path (per-op backward).
    torch::jit::setGraphExecutorOptimize(false);
    Recorder& recorder = Recorder::instance();
    recorder.setScriptStackProvider(&scriptFrames);
    std::unordered_set<const torch::jit::Graph*> tapped;
    for (const auto& item : model.named_modules()) {
        const torch::jit::Module& m = item.value;
        ModuleInfo info;
        info.path = item.name;
        info.isRoot = item.name.empty();
        const auto& typeName = m.type()->name();
        info.cls = typeName ? typeName->name() : std::string("Module");
        for (const auto& p : m.named_parameters(false))
            info.params.emplace_back(p.name, p.value);
        recorder.registerModule(m._ivalue().get(), std::move(info));
        for (const auto& method : m.get_methods()) {
            if (method.name().rfind("forward", 0) != 0)
                continue;
            auto graph = torch::jit::toGraphFunction(method.function()).graph();
            if (tapped.insert(graph.get()).second)
                tapGraph(*graph);
        }
    }
}

} // namespace msprobe::capture

TORCH_LIBRARY(msprobe, m)
{
    m.def(torch::schema("module_tap(Any self, Any value) -> Any", c10::AliasAnalysisKind::CONSERVATIVE),
        torch::CppFunction::makeFromBoxedFunction<&msprobe::capture::tapKernel>());
}
