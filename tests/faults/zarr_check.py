"""zarr-python reads what pario wrote before the disk was full: the rows of
the manifest hold their values, and the store opens without pario.
    zarr_check.py STORE MANIFEST"""
import sys

import numpy as np
import zarr

store, manifest = sys.argv[1], sys.argv[2]
rows = int(open(manifest).read())
z = zarr.open_array(store, mode="r")
assert z.shape == (512, 1024), z.shape
i, j = np.meshgrid(np.arange(rows, dtype=np.uint64), np.arange(1024, dtype=np.uint64), indexing="ij")
want = ((i * 1024 + j) * np.uint64(2654435761) % np.uint64(2**32)).astype(np.float64) / 7.0  # disk_full_test.c
assert np.array_equal(z[:rows, :], want), "rows written before the disk was full differ"
z[:, :]  # every chunk, written or not, decodes
print(f"zarr_check: {rows} rows as written, the whole store readable")
