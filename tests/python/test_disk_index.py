"""DiskArray the way zarr and h5py users expect: NumPy indexing on one rank
(d[i0:i1, :] reads, d[...] = x writes), sync(), write_pieces(), and the
modes "r", "r+", "w", "w-"/"x", "a". Run at 1, 2 and 4 ranks."""
import numpy as np
import pytest

import pario


def store(name):
    return pario.scratch_path(name, per_rank=False)


def rows_of(rank, size, n):
    """This rank's block of rows: whole chunks of 3 rows."""
    per = n // size
    return slice(rank * per, (rank + 1) * per)


def test_blocks_by_rank_then_everyone_reads_all():
    import zarr
    g = pario.Group()
    path = store("py_index_blocks.zarr")
    n, m = 24, 10
    full = np.arange(n * m, dtype=np.float64).reshape(n, m) / 4
    with pario.DiskArray(path, (n, m), np.float64, chunks=(3, 5), mode="w") as d:
        mine = rows_of(g.rank, g.size, n)
        d[mine, :7] = full[mine, :7]      # covers chunks in part ...
        d[mine, 7:] = full[mine, 7:]      # ... merged with this one
        d.sync()
        assert np.array_equal(d[:], full)
        assert np.array_equal(d[2:19, 3:9], full[2:19, 3:9])  # unaligned, across ranks' blocks
        assert d[-1, -1] == full[-1, -1] and d[5].shape == (m,) and d[..., 4].shape == (n,)
        assert np.array_equal(d[-4:, ...], full[-4:])
        assert d[3:3, :].shape == (0, m)
        d.sync()  # every rank has read before rank 0 writes
        if g.rank == 0:
            d[n - 2, 4:6] = -1.0  # a partial chunk of another rank's block; a scalar broadcast
        d.sync()
        full[n - 2, 4:6] = -1.0
        assert np.array_equal(d[:], full)
    g.barrier()
    if g.rank == 0:
        assert np.array_equal(zarr.open_array(path, mode="r")[:], full)
    g.barrier()
    pario.DiskArray.remove(path)


def test_write_pieces_and_the_rule():
    g = pario.Group()
    path = store("py_index_pieces.zarr")
    n, m = 12, 8
    with pario.DiskArray(path, (n, m), np.int32, chunks=(3, 4), mode="w") as d:
        mine = rows_of(g.rank, g.size, n)
        piece = np.full((mine.stop - mine.start, m), g.rank + 1, np.int32)
        d.write_pieces((mine, slice(None)), piece)
        expect = np.repeat(np.arange(1, g.size + 1, dtype=np.int32), n // g.size)[:, None] * np.ones(m, np.int32)
        assert np.array_equal(d[:], expect)
        d.sync()
        d.write_pieces(None if g.rank else (slice(0, 1), 0), 9)  # only rank 0 writes
        assert d[0, 0] == 9 and d[0, 1] == expect[0, 1]
        # One rank's bad piece fails the call everywhere.
        bad = (slice(0, 2), slice(0, 2)) if g.rank == 0 else None
        with pytest.raises(pario.InvalidArgument if g.rank == 0 else pario.RemoteError):
            d.write_pieces(bad, np.zeros((3, 3), np.int32))
        if g.size > 1:  # two ranks in one chunk between syncs: the sync says so
            d[0, g.rank % m] = 5
            with pytest.raises(pario.InvalidArgument, match="both wrote chunk c/0/0"):
                d.sync()
    pario.DiskArray.remove(path)


def test_modes():
    g = pario.Group()
    path = store("py_index_modes.zarr")
    with pario.DiskArray(path, (6, 4), np.float64, mode="w") as d:
        if g.rank == 0:
            d[1, 1] = 3.5
        d.sync()
    with pytest.raises(FileExistsError):
        pario.DiskArray(path, (6, 4), np.float64, mode="w-")
    with pytest.raises(pario.Exists):
        pario.DiskArray(path, (6, 4), np.float64, mode="x")
    with pytest.raises(pario.Exists):
        pario.DiskArray(path, (6, 4))  # creating refuses an existing store, as before
    with pario.DiskArray(path, (6, 4), np.float64, mode="a") as d:  # matches: opened, data kept
        assert d[1, 1] == 3.5 and d.mode == "a"
    with pytest.raises(pario.Exists, match="exists with shape"):
        pario.DiskArray(path, (6, 5), np.float64, mode="a")
    with pario.DiskArray(path, mode="a") as d:
        assert d.shape == (6, 4)
    with pario.DiskArray(path, mode="r") as d:
        assert d[1, 1] == 3.5
        with pytest.raises(pario.StateError, match="read-only"):
            d[0, 0] = 1.0
    with pytest.raises(pario.InvalidArgument, match="not shape"):
        pario.DiskArray(path, (6, 5), np.float64, mode="r")
    with pario.DiskArray(path, (6, 4), np.float64, mode="w") as d:  # replaced: the old data is gone
        assert d[1, 1] == 0
    with pytest.raises(pario.InvalidArgument, match="mode 'q'"):
        pario.DiskArray(path, mode="q")
    with pytest.raises(pario.InvalidArgument, match="needs a shape"):
        pario.DiskArray(path, mode="w")
    pario.DiskArray.remove(path)
    with pario.DiskArray(path, (3,), np.int64, mode="a") as d:  # "a" on nothing creates
        assert d.shape == (3,) and d.dtype == np.int64
    g.barrier()
    other = store("py_index_not_a_store")
    if g.rank == 0:
        import os
        os.makedirs(other, exist_ok=True)
    g.barrier()
    with pytest.raises(pario.Exists, match="not a disk array"):
        pario.DiskArray(other, (3,), np.int64, mode="w")
    g.barrier()
    if g.rank == 0:
        import os
        assert os.path.isdir(other)
        os.rmdir(other)
    pario.DiskArray.remove(path)


def test_bad_keys_and_values():
    g = pario.Group()
    path = store("py_index_bad.zarr")
    with pario.DiskArray(path, (6, 4), np.float64, mode="w") as d:
        with pytest.raises(pario.OutOfRange):
            d[6, 0]
        with pytest.raises(IndexError):
            d[0, -5] = 1.0
        with pytest.raises(pario.InvalidArgument, match="unit steps"):
            d[::2]
        with pytest.raises(pario.InvalidArgument, match="3 indices"):
            d[0, 0, 0]
        with pytest.raises(pario.InvalidArgument, match="no arrays"):
            d[[0, 1]]
        with pytest.raises(pario.InvalidArgument, match=r"shape \(3,\) for a section of shape \(2, 4\)"):
            d[0:2, :] = np.ones(3)
        with pytest.raises(pario.InvalidArgument, match="complex128"):
            d[0, 0] = 1j
        with pytest.raises(ValueError):
            d[0:2] = np.ones((2, 4), np.complex128)
        d[0:2] = np.ones((2, 4), np.int32)  # same kind of number: cast, as NumPy does
        assert np.array_equal(d[0:2], np.ones((2, 4)))
    pario.DiskArray.remove(path)


def test_zarr_packed_shards_written_by_rank():
    """zarr-python's packed shards: each rank writes whole shards of its own
    (rewritten whole), zarr reads every rank's block back."""
    import zarr
    g = pario.Group()
    path = store("py_index_zarr_shards.zarr")
    n, m = 16, 6
    if g.rank == 0:
        import shutil
        shutil.rmtree(path, ignore_errors=True)
        zarr.create_array(path, shape=(n, m), chunks=(2, 3), shards=(4, 6), dtype=np.float64, fill_value=0)
    g.barrier()
    data = np.arange(n * m, dtype=np.float64).reshape(n, m) - 7
    with pario.DiskArray(path, mode="r+") as d:
        mine = rows_of(g.rank, g.size, n)
        d[mine.start:mine.start + 1, :] = data[mine.start:mine.start + 1]  # chunks in part
        d[mine.start + 1:mine.stop] = data[mine.start + 1:mine.stop]
        d.sync()
        assert np.array_equal(d[...], data)
    g.barrier()
    if g.rank == 0:
        assert np.array_equal(zarr.open_array(path, mode="r")[:], data)
    g.barrier()
    pario.DiskArray.remove(path)
