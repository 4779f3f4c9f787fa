// SPDX-License-Identifier: Apache-2.0
// Hand-made statistics dumps for tst_compare_divergence (raw JSON pieces kept out of the moc'd file).
#pragma once

#include "dump/dump_json_reader.h"

#include <string>

namespace divergence_inputs {

inline std::string tensor(const char* max, const char* min, const char* mean, const char* norm)
{
    return std::string(R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "Max": )") + max + R"(, "Min": )" + min
        + R"(, "Mean": )" + mean + R"(, "Norm": )" + norm + R"(, "requires_grad": false})";
}

inline std::string entry(const std::string& name, const std::string& input, const std::string& output)
{
    return "\"" + name + R"(": {"input_args": [)" + input + R"(], "output": [)" + output + "]}";
}

inline msprobe::dump::DumpFile parseDump(const std::string& entries)
{
    msprobe::dump::DumpJsonReader reader;
    return reader.parse(R"({"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {)" + entries + "}}",
        "dump.json");
}

inline const std::string kSame = tensor("2.0", "-2.0", "0.5", "3.0");

} // namespace divergence_inputs
