// SPDX-License-Identifier: Apache-2.0
// The C interface of the msprobe_dump module: `msprobe dump` runs a TorchScript model under the libtorch capture
// library, which lives in this dlopen()ed module so that every other msprobe verb starts without libtorch.
#pragma once

#include <cstddef>

extern "C" {

struct MsprobeDumpRequest {
    const char* model;
    const char* input;
    const char* config;
    const char* device;
    const char* dumpPath; // "" = the config's dump_path
    long steps;
    int backward;
};

// Returns 0 on success, 1 on a failure (message in error), 2 on a usage error (message in error).
// Progress lines go to stdout.
int msprobe_dump_run(const MsprobeDumpRequest* request, char* error, std::size_t errorSize);
}

inline constexpr const char* kMsprobeDumpEntry = "msprobe_dump_run";
