// SPDX-License-Identifier: Apache-2.0
// Inline dump.json texts for tst_dump_reader (kept out of the moc-parsed file: moc mis-reads quotes inside raw strings).
#pragma once

#include <string>
#include <vector>

inline const char* kNonFiniteEntries = R"("Torch.div.0.forward": {"input_args": [], "input_kwargs": {}, "output": [
            {"type": "torch.Tensor", "dtype": "torch.float16", "shape": [4], "Max": Infinity, "Min": -Infinity, "Mean": NaN, "Norm": NaN, "requires_grad": false},
            {"type": "float", "value": NaN}, {"type": "float", "value": -Infinity}]})";

inline const char* kLeafFormEntries = R"(
            "Tensor.__getitem__.0.forward": {"input_args": [
                {"type": "slice", "value": [0, null, 2]},
                {"type": "ellipsis", "value": "..."},
                {"type": "torch.Size", "value": [2, 3]},
                {},
                [{"type": "int", "value": 1}, [null, {"type": "bool", "value": true}]],
                {"type": "torch.memory_format", "format": "channels_last"},
                {"type": "torch.Tensor", "dtype": "torch.bool", "shape": [3], "Max": true, "Min": false, "Mean": null, "Norm": null, "requires_grad": false},
                {"type": "torch.distributed.tensor.DTensor", "dtype": "torch.bfloat16", "shape": [], "Max": 1.5, "Min": 1.5, "Mean": 1.5, "Norm": 1.5, "requires_grad": true,
                 "device_mesh": [[0, 1]], "placements": [{"Shard": {"dim": 0}}]},
                {"type": "str", "value": "it's"},
                {"type": "numpy.ndarray", "dtype": "float32", "shape": [0], "Max": null, "Min": null, "Mean": null, "Norm": null}
              ],
              "input_kwargs": {"dtype": {"type": "torch.dtype", "value": "torch.float32"},
                               "group": {"type": "torch.ProcessGroup", "group_ranks": [0, 1], "group_id": "1a2b"},
                               "type": {"type": "str", "value": "x"},
                               "inner": {"a": {"type": "int", "value": 9007199254740993}}},
              "output": [[{"type": "torch.Tensor", "dtype": "torch.int64", "shape": [2], "Max": 7, "Min": -3, "Mean": null, "Norm": null, "requires_grad": false, "md5": "0000abcd"}]],
              "is_recompute": false},
            "Distributed.batch_isend_irecv.0.forward": {"input_args": [[{"class_type": "torch.distributed.P2POp", "tensor":
                {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.0, "Min": 0.5, "Mean": 0.75, "Norm": 1.118, "requires_grad": false},
                "op": "isend", "peer": 1, "tag": 0, "group_id": "9f"}]], "input_kwargs": {}, "output": []},
            "Module.fc.Linear.parameters_grad": {"weight": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 2], "Max": 1, "Min": 0, "Mean": 0.5, "Norm": 1.0, "requires_grad": false}]},
            "Module.layer1.0.conv1.Conv2d.backward.3": {"input": [null], "output": [{"requires_grad": false, "type": "torch.Tensor", "dtype": "torch.float32", "shape": [1], "Max": 2e-05, "Min": 2e-05, "Mean": 2e-05, "Norm": 2e-05}]}
        )";

inline const char* kDuplicateDump = R"({"task": "tensor", "level": "L1", "data": {
            "Torch.relu.0.forward": {"output": [{"type": "int", "value": 1}]},
            "Torch.relu.1.forward": {},
            "Torch.relu.0.forward": {"output": [{"type": "int", "value": 2}]}}, "extra_top": [1, 2]})";

inline std::string wrapEntries(const std::string& entries)
{
    return R"({"task": "statistics", "level": "mix", "framework": "pytorch", "dump_data_dir": null, "data": {)" + entries + "}}";
}

struct BadDumpCase {
    const char* name;
    std::string text;
    const char* expected;
};

inline std::vector<BadDumpCase> badDumpCases()
{
    return {
        { "empty", std::string(), "empty" },
        { "not an object", "[1, 2]", "top level is not a JSON object" },
        { "no data", R"({"task": "statistics"})", "\"data\" is missing" },
        { "no task", R"({"data": {}})", "\"task\" is missing" },
        { "data not object", R"({"task": "statistics", "data": [1]})", "\"data\" must be a JSON object" },
        { "entry is a number", R"({"task": "statistics", "data": {"Torch.a.0.forward": 5}})", "entry 'Torch.a.0.forward'" },
        { "shape string", R"({"task": "statistics", "data": {"Torch.a.0.forward": {"output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": "2,3"}]}}})", "\"shape\" must be a list of integers" },
        { "negative dim", R"({"task": "statistics", "data": {"Torch.a.0.forward": {"output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [-1]}]}}})", "non-negative" },
        { "absurd shape", R"({"task": "statistics", "data": {"Torch.a.0.forward": {"output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4000000000, 4000000000, 4000000000]}]}}})", "more than 2^63" },
        { "requires_grad string", R"({"task": "statistics", "data": {"Torch.a.0.forward": {"output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [], "requires_grad": "yes"}]}}})", "\"requires_grad\" must be true or false" },
        { "bad stat", R"({"task": "statistics", "data": {"Torch.a.0.forward": {"output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [], "Max": [1]}]}}})", "\"Max\" must be a number" },
        { "bad token", R"({"task": "statistics", "data": {"Torch.a.0.forward": {"output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [], "Max": nan}]}}})", "\"Max\" is not a number" },
        { "truncated", R"({"task": "statistics", "data": {"Torch.a.0.forward": {"output": [{"type": "torch.Tensor", "dtype": "torch.flo)", "never closed" },
        { "trailing", R"({"task": "statistics", "data": {}} {"x": 1})", "unexpected content" },
        { "deep", R"({"task": "statistics", "data": {"Torch.a.0.forward": {"output": )"
                                     + std::string(1000, '[') + std::string(1000, ']') + "}}}", "nested deeper than 400" },
    };
}

// `count` entries whose second output is an object that names its "type" last, after a nested tensor:
// the reader reads that tensor as a child, then meets "type" and must drop its rows again.
// Entry i: output[0] is a tensor of shape [i % 7 + 1, 2] and Max i; output[1] an int leaf of value i
// whose "inner" object is kept as an extra.
inline std::string lateTypeEntries(int count)
{
    std::string text;
    for (int i = 0; i < count; ++i) {
        const std::string n = std::to_string(i);
        if (i > 0)
            text += ",\n";
        text += R"("Torch.late.)" + n + R"(.forward": {"output": [)"
            + R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [)" + std::to_string(i % 7 + 1)
            + R"(, 2], "Max": )" + n + R"(, "Min": 0, "Mean": null, "Norm": null},)"
            + R"( {"inner": {"type": "torch.Tensor", "dtype": "torch.int8", "shape": [9, 9, 9], "Max": 1, "Min": 0, "Mean": null, "Norm": null},)"
            + R"( "type": "int", "value": )" + n + "}]}";
    }
    return text;
}

inline const char* kLateTypeInnerRepr
    = "{'type': 'torch.Tensor', 'dtype': 'torch.int8', 'shape': [9, 9, 9], 'Max': 1, 'Min': 0, 'Mean': None, 'Norm': None}";
