// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the mapping files, through the entry points that load them: the first byte picks the
// reader ('0' -dm/-cm flat YAML, '1' -lm layer mapping YAML, '2' --mapping-file JSON), the rest is the file.
// Each gives its mapping or a msprobe::Error.
#include "compare/mapping_yaml.h"
#include "fuzz_file.h"
#include "graph/graph_run.h"
#include "graph/match/layer_mapping.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const int reader = data[0] % 3;
    const auto file = msprobe::fuzz::scratch().write(reader == 2 ? "mapping.json" : "mapping.yaml", data + 1, size - 1);
    msprobe::fuzz::expectResultOrError("fuzz_mapping", [&] {
        if (reader == 0)
            msprobe::compare::readFlatYamlMapping(file);
        else if (reader == 1)
            msprobe::graph::readLayerMappingYaml(file);
        else
            msprobe::graph::readMappingFile(file);
    });
    return 0;
}
