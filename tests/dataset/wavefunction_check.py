"""After dataset_wavefunction_test write: h5py (the serial wheel, no pario)
reads the wave-function file through the documented layout only and finds
the basis, every vector's values and the observables the test wrote.
    wavefunction_check.py FILE.h5"""
import math
import sys

import h5py
import numpy as np

DIM, VECTORS = 1003, 5
with h5py.File(sys.argv[1], "r") as f:
    assert f.attrs["pario_format"] == "pario wavefunction", f.attrs["pario_format"]
    assert int(f.attrs["pario_format_version"]) == 1
    b = f["basis"].attrs
    assert (int(b["dimension"]), int(b["protons"]), int(b["neutrons"]), int(b["nmax"]), int(b["parity"]),
            int(b["two_mj"])) == (DIM, 3, 3, 4, 1, 0), dict(b)
    assert float(b["hbar_omega"]) == 20.0
    assert "Z = 3 protons" in b["description"] and "N_max = 4" in b["description"], b["description"]
    vec = f["vectors"]
    assert int(vec.attrs["count"]) == VECTORS
    assert sorted(vec.keys()) == [f"{k:05d}" for k in range(VECTORS)], list(vec.keys())
    i = np.arange(DIM)
    for k in range(VECTORS):
        v = vec[f"{k:05d}"]
        assert v.dtype == np.dtype("<f8") and v.shape == (DIM,), (v.dtype, v.shape)
        assert np.array_equal(v[...], 1000.0 * k + 0.5 * i + 0.25), k
        assert int(v.attrs["pario_written"]) == 1
        e, j, t = (float(v.attrs[a]) for a in ("energy", "J", "T"))
        if k % 2 == 0:
            assert (e, j, t) == (-31.5 + k, 1.0 if k % 4 == 0 else 3.0, 0.0), (k, e, j, t)
        else:
            assert math.isnan(e) and math.isnan(j) and math.isnan(t), (k, e, j, t)
print("wavefunction_check: h5py read", sys.argv[1])
