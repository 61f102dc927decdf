"""Bad arguments from Python: exceptions that carry the C message, never a
crash; in collectives, every rank raises (one rank's error reaches the
others as pario.RemoteError)."""
import numpy as np
import pytest

import pario


def test_overflowing_shapes_and_sections_raise():
    g = pario.Group()
    path = pario.scratch_path("py_bad_input.zarr", per_rank=False)
    with pytest.raises(pario.InvalidArgument, match="2\\^63"):
        pario.DiskArray(path, (1 << 62, 1 << 62), np.float64)
    with pytest.raises(pario.InvalidArgument, match="2\\^63"):
        pario.GlobalArray((1 << 31, 1 << 31), np.float64)
    g.barrier()


def test_a_foreign_store_with_nine_dimensions_is_refused():
    g = pario.Group()
    path = pario.scratch_path("py_nine.zarr", per_rank=False)
    if g.rank == 0:
        import json
        import os
        import shutil
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
        with open(os.path.join(path, "zarr.json"), "w") as f:
            json.dump({"zarr_format": 3, "node_type": "array", "shape": [2] * 9, "data_type": "float64",
                       "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1] * 9}},
                       "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
                       "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}, f)
    g.barrier()
    with pytest.raises(pario.Error, match="9 dimensions"):
        pario.DiskArray(path, mode="r")
    g.barrier()


def test_a_bad_argument_on_one_rank_raises_everywhere():
    g = pario.Group()
    # Only the last rank asks for an element type pario does not have.
    last = g.rank == g.size - 1
    dtype = np.float16 if last else np.float64
    with pytest.raises(pario.InvalidArgument if last else pario.RemoteError) as raised:
        pario.GlobalArray((4, 4), dtype)
    assert ("float16" if last else f"rank {g.size - 1} failed") in str(raised.value)
    with pytest.raises(pario.InvalidArgument if last else pario.RemoteError):
        pario.DiskArray(pario.scratch_path("py_bad_dtype.zarr", per_rank=False), (4, 4), dtype)
    if g.size > 1:
        with pytest.raises(pario.InvalidArgument, match="differ between ranks"):
            pario.GlobalArray((4 + g.rank % 2, 4), np.float64)
    g.barrier()
