"""After dataset_h5_test: h5py (the serial wheel, no pario) reads the file it
kept and finds every value it wrote, with the dtype each element type
should have in HDF5.    h5_check.py FILE.h5"""
import sys

import h5py
import numpy as np

g = np.arange(6 * 10 * 9).reshape(6, 10, 9)
want = {
    "block/double": (g * 0.5 + 1).astype("<f8"),
    "random/int8": ((g * 7) % 256 - 128).astype("i1"),
    "block/complex": (g - 0.5j * g).astype("<c16"),
}
types = {
    "double": "<f8", "float": "<f4", "complex double": "<c16", "complex float": "<c8",
    "int8": "i1", "uint8": "u1", "int16": "<i2", "uint16": "<u2",
    "int32": "<i4", "uint32": "<u4", "int64": "<i8", "uint64": "<u8",
}
i = np.arange(17)
with h5py.File(sys.argv[1], "r") as f:
    for name, values in want.items():
        d = f[name]
        assert d.dtype == values.dtype, (name, d.dtype)
        assert d.shape == values.shape, (name, d.shape)
        assert np.array_equal(d[...], values), f"{name} differs from what was written"
    names = sorted(f["types"].keys())
    assert names == sorted(types), names
    for name, dtype in types.items():
        d = f["types"][name]
        assert d.dtype == np.dtype(dtype), (name, d.dtype)
        if name.startswith("complex"):
            values = (i + 1j * (i + 0.5)).astype(dtype)
        elif name.startswith("int"):
            values = (i - 8).astype(dtype)
        elif name.startswith("uint"):
            values = i.astype(dtype)
        else:
            values = (i + 0.25).astype(dtype)
        assert np.array_equal(d[...], values), f"types/{name}: {d[...]} != {values}"
print(f"h5_check: {sys.argv[1]} holds what was written ({len(want) + len(types)} datasets)")
