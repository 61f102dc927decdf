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


def _zarr_store(path, compressors):
    """Rank 0 makes a foreign (zarr-python) store of 8 x 8 doubles in 4 x 4
    chunks, every chunk written."""
    import shutil
    import zarr
    shutil.rmtree(path, ignore_errors=True)
    z = zarr.create_array(path, shape=(8, 8), chunks=(4, 4), dtype=np.float64, compressors=compressors,
                          fill_value=0)
    z[:] = np.arange(64, dtype=np.float64).reshape(8, 8) + 1


def test_a_chunk_file_larger_than_its_shape_can_take_is_refused():
    # A zstd chunk is read whole into a buffer of the file's size: a sparse
    # 1 TiB chunk file made that buffer (std::bad_alloc on an I/O thread
    # ended the process) before its size was checked against the chunk's.
    import os
    g = pario.Group()
    path = pario.scratch_path("py_huge_chunk.zarr", per_rank=False)
    if g.rank == 0:
        _zarr_store(path, "auto")
        os.truncate(os.path.join(path, "c", "0", "0"), 1 << 40)
    g.barrier()
    with pario.DiskArray(path, mode="r") as d, pario.GlobalArray((8, 8), np.float64) as a:
        with pytest.raises((pario.Corrupt, pario.RemoteError), match="its shape can take|failed"):
            d.read(a)
        d.read(a, (slice(4, 8), slice(4, 8)), at=(4, 4))  # the others still read
        assert np.array_equal(a[4:8, 4:8], (np.arange(64, dtype=np.float64).reshape(8, 8) + 1)[4:8, 4:8])
    g.barrier()


def test_a_link_inside_a_store_is_not_followed():
    # A store's contents are untrusted: "c" planted as a link to another
    # directory sent pario's chunk writes (and reads) there.
    import os
    import shutil
    g = pario.Group()
    path = pario.scratch_path("py_linked_c.zarr", per_rank=False)
    elsewhere = path + ".elsewhere"
    if g.rank == 0:
        _zarr_store(path, None)
        shutil.rmtree(elsewhere, ignore_errors=True)
        os.rename(os.path.join(path, "c"), elsewhere)
        os.symlink(elsewhere, os.path.join(path, "c"))
    g.barrier()
    before = open(os.path.join(elsewhere, "0", "0"), "rb").read()
    with pario.DiskArray(path, mode="r+") as d, pario.GlobalArray((8, 8), np.float64) as a:
        with pytest.raises((pario.PermissionDenied, pario.RemoteError), match="not a directory|failed"):
            d.read(a)
        a.fill(-1.0)
        with pytest.raises((pario.PermissionDenied, pario.RemoteError), match="not a directory|failed"):
            d.write(a)
    g.barrier()
    assert open(os.path.join(elsewhere, "0", "0"), "rb").read() == before
    g.barrier()
    if g.rank == 0:
        shutil.rmtree(elsewhere, ignore_errors=True)


def test_rewriting_a_shard_reads_only_the_chunks_its_index_names():
    # A packed (zarr-python) shard is rebuilt in memory on a write: it was
    # read whole into a buffer of the file's size, so a shard file made
    # sparse to 1 TiB (its index at the start still valid) ended the
    # process (std::bad_alloc on an I/O thread).
    import os
    import shutil
    import zarr
    from zarr.codecs import BytesCodec, ShardingCodec, ZstdCodec
    g = pario.Group()
    path = pario.scratch_path("py_sparse_shard.zarr", per_rank=False)
    data = np.arange(64, dtype=np.float64).reshape(8, 8) + 1
    shard = os.path.join(path, "c", "0", "0")
    if g.rank == 0:
        shutil.rmtree(path, ignore_errors=True)
        z = zarr.create_array(path, shape=(8, 8), chunks=(8, 8), dtype=np.float64, fill_value=0, compressors=None,
                              serializer=ShardingCodec(chunk_shape=(4, 4), codecs=[BytesCodec(), ZstdCodec()],
                                                       index_location="start"))
        z[:] = data
        os.truncate(shard, 1 << 40)
    g.barrier()
    with pario.DiskArray(path, mode="r+") as d, pario.GlobalArray((8, 8), np.float64) as a:
        a.fill(-1.0)
        d.write(a, (slice(1, 3), slice(1, 3)), at=(1, 1))  # part of one chunk: the shard rebuilt
        d.read(a)
        expect = data.copy()
        expect[1:3, 1:3] = -1.0
        assert np.array_equal(a[:, :], expect)
    g.barrier()
    assert os.path.getsize(shard) < 4096
    g.barrier()
