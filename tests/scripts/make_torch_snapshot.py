#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the small PyTorch memory snapshots of tests/data/torch_snapshot/ with the dict layout of
torch.cuda.memory._snapshot() (what torch.cuda.memory._dump_snapshot pickles and memory_viz reads), without torch.
The values are chosen so that the blocks, live bytes and peak can be worked out by hand (see tst_core_memory_snapshot).
Run from the repository root: python3 tests/scripts/make_torch_snapshot.py"""
import pickle

MiB = 1 << 20
A = 0x7F0000000000  # a segment allocated before recording started
B = 0x7F0000200000  # a segment allocated and freed while recording

def frame(filename, line, name):
    return {"filename": filename, "line": line, "name": name}

FORWARD = [
    frame("??", 0, "CapturedTraceback::gather"),  # left out, as memory_viz does
    frame("/pytorch/c10/cuda/CUDACachingAllocator.cpp", 1234, "c10::cuda::CUDACachingAllocator::malloc"),
    frame("/work/model.py", 42, "forward"),
    frame("/work/train.py", 7, "main"),
]
OPTIMIZER = [frame("/work/optim.py", 99, "step"), frame("/work/train.py", 9, "main")]
OLD = [frame("/work/setup.py", 3, "load_weights")]


def entry(action, addr, size, time_us, stream=0, frames=None, **extra):
    e = {"action": action, "addr": addr, "size": size, "stream": stream, "time_us": time_us, "frames": frames or []}
    e.update(extra)
    return e


snapshot = {
    "segments": [
        {
            "device": 0, "address": A, "total_size": 2 * MiB, "stream": 0, "segment_type": "large",
            "allocated_size": 3 * MiB // 2, "active_size": 3 * MiB // 2, "requested_size": 3 * MiB // 2,
            "frames": OLD,
            "blocks": [
                {"size": MiB, "requested_size": MiB - 16, "state": "active_allocated", "frames": OLD},
                {"size": MiB // 2, "requested_size": MiB // 2, "state": "active_allocated", "frames": OPTIMIZER},
                {"size": MiB // 2, "requested_size": 0, "state": "inactive", "frames": []},
            ],
        }
    ],
    "device_traces": [[
        entry("segment_alloc", B, 2 * MiB, 1000),
        entry("alloc", B, MiB, 1010, frames=FORWARD),
        entry("alloc", B + MiB, MiB // 2, 1020, frames=FORWARD),
        entry("alloc", A + MiB, MiB // 2, 1030, stream=7, frames=OPTIMIZER),
        entry("free_requested", B, MiB, 1040, frames=OPTIMIZER),
        entry("free_completed", B, MiB, 1041, frames=OPTIMIZER),
        entry("free_completed", A + 3 * MiB // 2, MiB // 2, 1050, frames=OPTIMIZER),  # its alloc was not recorded
        entry("free_completed", B + MiB, MiB // 2, 1060),
        entry("oom", 0, 4 * MiB, 1070, device_free=MiB, frames=FORWARD),
        entry("segment_free", B, 2 * MiB, 1080),
        entry("snapshot", 0, 0, 1090),
    ]],
    "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1, "garbage_collection_threshold": 0.0,
                           "expandable_segments": False, "roundup_power2_divisions": [1, 0, 0]},
    "external_annotations": [],
}

out = "tests/data/torch_snapshot/"
for protocol in (2, 4, 5):
    with open(out + "snapshot_p%d.pickle" % protocol, "wb") as f:
        pickle.dump(snapshot, f, protocol=protocol)
data = pickle.dumps(snapshot, protocol=4)
with open(out + "truncated.pickle", "wb") as f:
    f.write(data[: len(data) // 2])
with open(out + "not_a_snapshot.pickle", "wb") as f:
    pickle.dump({"weights": [1.5, 2.5], "step": 3}, f, protocol=4)
with open(out + "wrong_type.pickle", "wb") as f:  # an address that is a string
    pickle.dump({"segments": [], "device_traces": [[{"action": "alloc", "addr": "x"}]]}, f, protocol=2)
with open(out + "values.pickle", "wb") as f:  # integers past 63 bits, a float, bytes, a tuple
    pickle.dump([2**64 - 1, -2, 2**70, 1.5, b"ab", (None, True)], f, protocol=4)
