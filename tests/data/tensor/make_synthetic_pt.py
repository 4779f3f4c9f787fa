#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the synthetic .pt files of tst_tensor_file (synthetic_*.pt, bad_*.pt) into this folder.

There is no torch here, so the archives are built the way torch.save builds them: a zip (stored entries)
of <name>/data.pkl, <name>/byteorder, <name>/data/<key>, <name>/version, where data.pkl is a protocol-2
pickle of torch._utils._rebuild_tensor_v2 with the storage as a persistent id. The pickle is produced by
Python's own pickler with stand-in torch modules, so its opcodes match genuine torch.save output.
Element values are hand-picked; the test asserts the same hand-computed values.

Run with: python3 make_synthetic_pt.py   (stdlib only, deterministic output)
"""
import collections
import os
import pickle
import struct
import sys
import types
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))

torch = types.ModuleType("torch")
torch_utils = types.ModuleType("torch._utils")
torch._utils = torch_utils
sys.modules["torch"] = torch
sys.modules["torch._utils"] = torch_utils
for storage_name in ("BoolStorage", "ByteStorage", "CharStorage", "ShortStorage", "IntStorage", "LongStorage",
                     "HalfStorage", "BFloat16Storage", "FloatStorage", "DoubleStorage", "ComplexFloatStorage"):
    setattr(torch, storage_name, type(storage_name, (), {"__module__": "torch"}))


def _stand_in(module, name):
    def function(*args):
        raise RuntimeError("stand-in only")
    function.__module__ = module.__name__
    function.__name__ = function.__qualname__ = name
    setattr(module, name, function)


_stand_in(torch_utils, "_rebuild_tensor_v2")
_stand_in(torch_utils, "_rebuild_parameter")


class Storage:
    def __init__(self, storage_class, numel, location="cpu", key="0"):
        self.storage_class = getattr(torch, storage_class)
        self.numel = numel
        self.location = location
        self.key = key


class Tensor:
    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)

    def __reduce_ex__(self, protocol):
        return (torch_utils._rebuild_tensor_v2,
                (self.storage, self.offset, self.size, self.stride, False, collections.OrderedDict()))


class Parameter:
    def __init__(self, tensor):
        self.tensor = tensor

    def __reduce_ex__(self, protocol):
        return (torch_utils._rebuild_parameter, (self.tensor, True, collections.OrderedDict()))


class TorchPickler(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, Storage):
            return ("storage", obj.storage_class, obj.key, obj.location, obj.numel)
        return None


def tensor_pickle(obj):
    import io
    buffer = io.BytesIO()
    TorchPickler(buffer, protocol=2).dump(obj)
    return buffer.getvalue()


def write_archive(file_name, pickle_bytes, records, byteorder=b"little", deflated=()):
    archive = file_name[:-3]
    path = os.path.join(HERE, file_name)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        def add(name, data):
            info = zipfile.ZipInfo(archive + "/" + name, date_time=(1980, 1, 1, 0, 0, 0))
            if name in deflated:  # torch.save never compresses; a zip bomb does
                info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
        add("data.pkl", pickle_bytes)
        if byteorder is not None:
            add("byteorder", byteorder)
        for key, data in records.items():
            add("data/" + key, data)
        add("version", b"3\n")


def pack(fmt, values):
    return struct.pack(fmt % len(values), *values)


def contiguous(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return strides


def simple(file_name, storage_class, fmt, values, shape, location="cpu", byteorder=b"little"):
    storage = Storage(storage_class, len(values), location)
    write_archive(file_name, tensor_pickle(Tensor(storage, 0, shape, contiguous(shape))),
                  {"0": pack(fmt, values)}, byteorder)


def main():
    arange12 = pack("<%df", list(range(12)))
    # x = arange(12).view(3, 4)[:, 1:3]: the whole storage is saved with offset 1, strides (4, 1).
    write_archive("synthetic_view_slice.pt",
                  tensor_pickle(Tensor(Storage("FloatStorage", 12), 1, (3, 2), (4, 1))), {"0": arange12})
    # arange(6).view(2, 3).t(): size (3, 2), strides (1, 3).
    write_archive("synthetic_view_transposed.pt",
                  tensor_pickle(Tensor(Storage("LongStorage", 6), 0, (3, 2), (1, 3))),
                  {"0": pack("<%dq", list(range(6)))})
    # 0-dim view of element 3 of a 5-element float64 storage.
    write_archive("synthetic_scalar_offset.pt",
                  tensor_pickle(Tensor(Storage("DoubleStorage", 5), 3, (), ())),
                  {"0": pack("<%dd", [0.0, 1.0, 2.0, 3.0, 4.0])})
    # float16 bit patterns: 0.5, -2, 65504 (max), 2**-24 (smallest subnormal), inf, -0.0; saved on an NPU.
    simple("synthetic_npu_float16.pt", "HalfStorage", "<%dH", [0x3800, 0xC000, 0x7BFF, 0x0001, 0x7C00, 0x8000],
           (2, 3), location="npu:0")
    # bfloat16 bit patterns: 1, -3.5, 2**-133 (smallest subnormal), max, 0.10009765625; saved on a GPU.
    simple("synthetic_cuda_bfloat16.pt", "BFloat16Storage", "<%dH", [0x3F80, 0xC060, 0x0001, 0x7F7F, 0x3DCD],
           (5,), location="cuda:0")
    simple("synthetic_bool.pt", "BoolStorage", "<%dB", [1, 0, 1, 1], (2, 2))
    simple("synthetic_int8.pt", "CharStorage", "<%db", [-128, 127, 0], (3,))
    # Written on a big-endian machine (torch >= 2.1 records the byte order).
    simple("synthetic_bigendian_int32.pt", "IntStorage", ">%di", [1, -2, 2147483647, -2147483648], (4,),
           byteorder=b"big")
    # No byteorder record (torch < 2.1): little-endian.
    simple("synthetic_no_byteorder_int16.pt", "ShortStorage", "<%dh", [-32768, 300], (2,), byteorder=None)
    storage = Storage("DoubleStorage", 2)
    write_archive("synthetic_parameter.pt", tensor_pickle(Parameter(Tensor(storage, 0, (2,), (1,)))),
                  {"0": pack("<%dd", [0.25, 1e300])})
    # Empty tensor: no storage record is needed.
    write_archive("synthetic_empty.pt", tensor_pickle(Tensor(Storage("FloatStorage", 0), 0, (0, 3), (3, 1))), {})

    # Hostile or broken archives; each must give an error, never a crash.
    write_archive("bad_stack_underflow.pt", b"\x80\x02\x85.", {})
    write_archive("bad_reduce_empty.pt", b"\x80\x02R.", {})
    write_archive("bad_memo_get.pt", b"\x80\x02j\xff\xff\xff\xff.", {})
    write_archive("bad_deep_nesting.pt", b"\x80\x02N" + b"\x85" * 1000 + b".", {})
    write_archive("bad_no_stop.pt", b"\x80\x02N", {})
    write_archive("bad_os_system.pt", b"\x80\x02cos\nsystem\nX\x04\x00\x00\x00true\x85R.", {})
    write_archive("bad_not_a_tensor.pt", pickle.dumps({"a": 1}, protocol=2), {})
    write_archive("bad_storage_short.pt",
                  tensor_pickle(Tensor(Storage("FloatStorage", 1000), 0, (1000,), (1,))), {"0": arange12})
    write_archive("bad_view_out_of_bounds.pt",
                  tensor_pickle(Tensor(Storage("FloatStorage", 12), 0, (4, 4), (4, 1))), {"0": arange12})
    write_archive("bad_negative_stride.pt",
                  tensor_pickle(Tensor(Storage("FloatStorage", 12), 11, (12,), (-1,))), {"0": arange12})
    write_archive("bad_huge_broadcast.pt",
                  tensor_pickle(Tensor(Storage("FloatStorage", 1), 0, (1 << 40, 1 << 20), (0, 0))),
                  {"0": arange12[:4]})
    write_archive("bad_missing_record.pt",
                  tensor_pickle(Tensor(Storage("FloatStorage", 12, key="7"), 0, (12,), (1,))), {"0": arange12})
    write_archive("bad_complex_storage.pt",
                  tensor_pickle(Tensor(Storage("ComplexFloatStorage", 1), 0, (1,), (1,))), {"0": arange12[:8]})
    write_archive("bad_byteorder.pt", tensor_pickle(Tensor(Storage("FloatStorage", 12), 0, (12,), (1,))),
                  {"0": arange12}, byteorder=b"middle")
    # Zip bombs: a record that inflates far beyond what the pickle describes (32 MiB of storage for 12 floats; a
    # 2 MiB pickle), a few kB on disk.
    write_archive("bad_zip_bomb_storage.pt", tensor_pickle(Tensor(Storage("FloatStorage", 12), 0, (12,), (1,))),
                  {"0": arange12 + bytes(32 << 20)}, deflated=("data/0",))
    write_archive("bad_zip_bomb_pickle.pt",
                  tensor_pickle(Tensor(Storage("FloatStorage", 12), 0, (12,), (1,))) + bytes(2 << 20),
                  {"0": arange12}, deflated=("data.pkl",))


if __name__ == "__main__":
    main()
