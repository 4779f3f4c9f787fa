// SPDX-License-Identifier: Apache-2.0
// The C interface of the msprobe_pt_zip module: libtorch's zip container reader (PyTorchStreamReader) behind
// plain functions, so that only the processes that read .pt files load libtorch (dlopen on first use).
#pragma once

#include <cstddef>

extern "C" {

struct MsprobePtZipApi {
    int version; // kMsprobePtZipApiVersion
    // Each function returns 0 on success; on failure, 1 and libtorch's message (without backtrace) in error.
    int (*open)(const char* path, void** archive, char* error, std::size_t errorSize);
    int (*hasRecord)(void* archive, const char* name, int* has, char* error, std::size_t errorSize);
    // *record owns *data (size bytes); release it with freeRecord.
    int (*getRecord)(void* archive, const char* name, void** record, const void** data, std::size_t* size, char* error,
        std::size_t errorSize);
    void (*freeRecord)(void* record);
    void (*close)(void* archive);
};

const MsprobePtZipApi* msprobe_pt_zip_api();
}

inline constexpr int kMsprobePtZipApiVersion = 1;
inline constexpr const char* kMsprobePtZipEntry = "msprobe_pt_zip_api";
