"""After capi_disk_array_tier_test: zarr-python reads the store it kept
(files that were in RAM went to disk at pario_finalize) and finds what the
test wrote.    tier_check.py STORE"""
import sys

import numpy as np
import zarr

z = zarr.open_array(sys.argv[1], mode="r")
assert z.shape == (60, 100), z.shape
i, j = np.meshgrid(np.arange(60), np.arange(100), indexing="ij")
want = (i * 1000 + j).astype(np.float64)
want[20:36, 30:80] = want[13:29, 30:80]  # the shifted section
assert np.array_equal(z[:, :], want), "the store differs from what was written"
print(f"tier_check: {sys.argv[1]} holds what was written")
