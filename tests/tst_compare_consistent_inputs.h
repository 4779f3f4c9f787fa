// SPDX-License-Identifier: Apache-2.0
// Dump builders for tst_compare_consistent (kept out of the Q_OBJECT file: moc misreads raw strings with braces).
#pragma once

#include "compare/compare_engine.h"
#include "compare/csv_writer.h"
#include "dump/dump_json_reader.h"

#include <string>
#include <vector>

namespace msprobe::test {


inline std::string tensor(const char* dtype, const char* shape, const char* max, const char* min, const char* mean, const char* norm,
    const char* extra = "")
{
    return std::string(R"({"type": "torch.Tensor", "dtype": ")") + dtype + R"(", "shape": )" + shape + R"(, "Max": )" + max
        + R"(, "Min": )" + min + R"(, "Mean": )" + mean + R"(, "Norm": )" + norm + R"(, "requires_grad": true)" + extra + "}";
}

inline std::string entry(const std::string& name, const std::string& input, const std::string& output)
{
    return "\"" + name + R"(": {"input_args": [)" + input + R"(], "input_kwargs": {}, "output": [)" + output + "]}";
}

inline dump::DumpFile parseDump(const std::string& entries, const char* task = "statistics")
{
    dump::DumpJsonReader reader;
    return reader.parse(std::string(R"({"task": ")") + task
            + R"(", "level": "L0", "framework": "pytorch", "dump_data_dir": null, "data": {)" + entries + "}}",
        "dump.json");
}

inline std::string cellText(const compare::CompareTable& table, std::size_t row, compare::Column column)
{
    compare::Cell cell;
    table.cell(row, column, cell);
    std::string out;
    compare::appendCsvField(out, cell);
    return out;
}

inline const std::string kTrain = "Module._fsdp_wrapped_module.model.";
inline const std::string kLayer0 = kTrain + "layers.0._fsdp_wrapped_module.";
inline const std::string kInfer = "Module.model.";

// Training: embedding, q/k/v (same input), down_proj, the model's backward (parse stops), a q_proj backward
// (skipped), a second embedding forward (parse resumes).
inline std::string fsdpTraining()
{
    const std::string x = tensor("torch.float32", "[2, 4, 8]", "1.5", "-1.5", "0.25", "4.0");
    return entry(kTrain + "embed_tokens.Embedding.forward.0", tensor("torch.int64", "[2, 4]", "9", "0", "4.5", "20.0"), x) + ", "
        + entry(kLayer0 + "self_attn.q_proj.Linear.forward.0", x, tensor("torch.float32", "[2, 4, 8]", "2.0", "-2.0", "0.5", "6.0")) + ", "
        + entry(kLayer0 + "self_attn.k_proj.Linear.forward.0", x, tensor("torch.float32", "[2, 4, 2]", "3.0", "-1.0", "0.125", "2.0")) + ", "
        + entry(kLayer0 + "self_attn.v_proj.Linear.forward.0", x, tensor("torch.float32", "[2, 4, 2]", "1.0", "-4.0", "-0.5", "3.0")) + ", "
        + entry(kLayer0 + "mlp.down_proj.Linear.forward.0", x, tensor("torch.float32", "[2, 4, 8]", "5.0", "-5.0", "0.0", "10.0")) + ", "
        + entry(kTrain + "Qwen2Model.backward.0", x, x) + ", "
        + entry(kLayer0 + "self_attn.q_proj.Linear.backward.0", x, x) + ", "
        + entry(kTrain + "embed_tokens.Embedding.forward.1", tensor("torch.int64", "[2, 4]", "7", "1", "3.5", "15.0"), x);
}

inline std::string fsdpInference()
{
    const std::string x = tensor("torch.float32", "[2, 4, 8]", "1.5", "-1.5", "0.25", "4.0");
    const std::string l0 = kInfer + "layers.0.";
    return entry(kInfer + "embed_tokens.VocabParallelEmbedding.forward.0", tensor("torch.int64", "[2, 4]", "9", "0", "4.5", "20.0"), x) + ", "
        + entry(l0 + "self_attn.qkv_proj.QKVParallelLinear.forward.0", x, tensor("torch.float32", "[2, 4, 12]", "3.0", "-4.0", "0.1", "7.0")) + ", "
        + entry(l0 + "mlp.down_proj.RowParallelLinear.forward.0", x, tensor("torch.float32", "[2, 4, 8]", "5.0", "-5.0", "0.0", "5.0")) + ", "
        + entry(l0 + "mlp.gate_up_proj.MergedColumnParallelLinear.forward.0", x, tensor("torch.float32", "[2, 4, 16]", "1.0", "-1.0", "0.0", "1.0"));
}

std::unique_ptr<compare::CompareTable> compareConsistent(const std::string& train, const std::string& infer, const char* backend,
    const char* task = "statistics", bool xlsx = false)
{
    compare::CompareOptions options;
    options.consistentBackend = backend;
    options.xlsxLayout = xlsx;
    return compare::compareDumps(parseDump(train, task), parseDump(infer, task), {}, false, options);
}


// A tensor-task dump.json whose module entries each have one input and one weight parameter with data files.
inline std::string tensorDumpJson(const std::vector<std::string>& modules)
{
    const std::string leaf = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.0, "Min": 0.0, "Mean": 0.5, "Norm": 1.0, "requires_grad": true, "data_name": ")";
    std::string out = R"({"task": "tensor", "level": "L0", "framework": "pytorch", "dump_data_dir": "x", "data": {)";
    for (std::size_t i = 0; i < modules.size(); ++i) {
        const std::string& name = modules[i];
        out += (i ? ", \"" : "\"") + name + R"(": {"input_args": [)" + leaf + name + R"(.input.0.pt"}], "input_kwargs": {}, "parameters": {"weight": )"
            + leaf + name + R"(.parameters.weight.pt"}}, "output": []})";
    }
    return out + "}}";
}

} // namespace msprobe::test
