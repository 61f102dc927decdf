"""The newcomer's scenario in Python: write and read back a private file,
fill a global array, store it as a disk array, read it back into another
global array and compare. Run: mpiexec -n 2 python scenario.py [dir]"""
import os
import sys

import numpy as np

import pario

directory = sys.argv[1] if len(sys.argv) > 1 else "/tmp"
pario.init()
me = pario.rank()

# 1. A private file: this rank's own scratch.
x = me + np.arange(1000) / 8.0
path = os.path.join(directory, f"scenario_py.{me}")
with pario.File(path, "w+") as f:
    f.write(0, x)
    ok = np.array_equal(f.read(0, np.empty(1000)), x)
pario.File.remove(path)

# 2. A global array, each rank filling its own patch (zero-copy view).
n, m = 60, 40
store = os.path.join(directory, "scenario_py.zarr")
with pario.GlobalArray((n, m), name="scenario") as a, pario.GlobalArray((n, m), name="back") as b:
    rows, cols = a.distribution()
    mine = a.local()
    mine[...] = np.add.outer(np.arange(rows.start, rows.stop) * 1000.0, np.arange(cols.start, cols.stop))
    a.sync()
    # 3. Store it as a disk array; 4. read it back into another array.
    try:
        pario.DiskArray.remove(store)  # a leftover from an earlier run
    except pario.Error:
        pass
    with pario.DiskArray(store, (n, m), np.float64) as d:
        d.write(a)
    with pario.DiskArray(store, mode="r") as d:
        d.read(b)
    ok = ok and np.array_equal(a[:, :], b[:, :]) and b[n - 1, m - 1] == (n - 1) * 1000.0 + m - 1
pario.DiskArray.remove(store)
pario.finalize()
if me == 0:
    print("scenario (Python):", "ok" if ok else "MISMATCH")
sys.exit(0 if ok else 1)
