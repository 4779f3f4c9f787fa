#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Loads a torch.save zip archive the way torch.load does (zip records, data.pkl unpickled with the storage
persistent ids, torch._utils._rebuild_tensor_v2), with stand-ins for torch's classes, and prints the tensor as
JSON: {"dtype", "shape", "stride", "offset", "values"}. Python torch is not needed; any global other than the ones
torch.load resolves for a plain tensor is refused."""
import collections
import io
import json
import pickle
import struct
import sys
import zipfile

FORMATS = {
    "FloatStorage": ("<f", 4, "float32"), "DoubleStorage": ("<d", 8, "float64"), "HalfStorage": ("<e", 2, "float16"),
    "BFloat16Storage": (None, 2, "bfloat16"), "LongStorage": ("<q", 8, "int64"), "IntStorage": ("<i", 4, "int32"),
    "ShortStorage": ("<h", 2, "int16"), "CharStorage": ("<b", 1, "int8"), "ByteStorage": ("<B", 1, "uint8"),
    "BoolStorage": ("<?", 1, "bool"),
}


def load(path):
    archive = zipfile.ZipFile(path)
    names = archive.namelist()
    prefix = names[0].split("/")[0]
    for required in ("data.pkl", "version"):
        if f"{prefix}/{required}" not in names:
            raise SystemExit(f"{path}: no {prefix}/{required} record")

    def rebuild(storage, offset, size, stride, requires_grad, hooks, *rest):
        return {"storage": storage, "offset": offset, "size": list(size), "stride": list(stride)}

    class StandIn(pickle.Unpickler):
        def find_class(self, module, name):
            if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
                return rebuild
            if module == "torch" and name in FORMATS:
                return ("storage type", name)
            if (module, name) == ("collections", "OrderedDict"):
                return collections.OrderedDict
            raise pickle.UnpicklingError(f"{path}: unexpected global {module}.{name}")

        def persistent_load(self, pid):
            tag, storage_type, key, location, numel = pid
            if tag != "storage":
                raise pickle.UnpicklingError(f"{path}: persistent id {tag!r}")
            return {"type": storage_type[1], "bytes": archive.read(f"{prefix}/data/{key}"), "numel": numel}

    tensor = StandIn(io.BytesIO(archive.read(f"{prefix}/data.pkl"))).load()
    storage = tensor["storage"]
    fmt, width, dtype = FORMATS[storage["type"]]
    data = storage["bytes"]
    if len(data) != storage["numel"] * width:
        raise SystemExit(f"{path}: storage holds {len(data)} bytes for {storage['numel']} elements")

    def element(i):
        chunk = data[i * width:(i + 1) * width]
        if fmt is None:  # bfloat16: the high half of a float32
            return struct.unpack("<f", b"\x00\x00" + chunk)[0]
        return struct.unpack(fmt, chunk)[0]

    values = []
    size, stride = tensor["size"], tensor["stride"]
    count = 1
    for s in size:
        count *= s
    for linear in range(count):
        index, rest = tensor["offset"], linear
        for dim in reversed(range(len(size))):
            index += (rest % size[dim]) * stride[dim]
            rest //= size[dim]
        v = element(index)
        values.append(float(v) if not isinstance(v, bool) else (1.0 if v else 0.0))
    return {"dtype": dtype, "shape": size, "stride": stride, "offset": tensor["offset"], "values": values}


if __name__ == "__main__":
    print(json.dumps(load(sys.argv[1])))
