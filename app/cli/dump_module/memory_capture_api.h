// SPDX-License-Identifier: Apache-2.0
// The C interface of `msprobe memory capture` in the msprobe_dump module (libtorch is loaded only with it).
#pragma once

#include <cstddef>

extern "C" {

struct MsprobeMemoryCaptureRequest {
    const char* model;
    const char* input;
    const char* outputDir;
    const char* watch; // "OP_A,OP_B" or ""
    long steps;
    int access;
    int backward;
    int database; // the .db variant instead of the CSV
};

// Returns 0 on success, 1 on a failure (message in error), 2 on a usage error (message in error).
// Progress lines go to stdout.
int msprobe_memory_capture_run(const MsprobeMemoryCaptureRequest* request, char* error, std::size_t errorSize);
}

inline constexpr const char* kMsprobeMemoryCaptureEntry = "msprobe_memory_capture_run";
