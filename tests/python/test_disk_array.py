"""Disk arrays from Python, and the Zarr v3 format both ways: the zarr
package reads what pario wrote, and pario reads what zarr wrote."""
import numpy as np
import pytest

import pario


def store(name):
    return pario.scratch_path(name, per_rank=False)


def test_write_then_zarr_reads_it_and_sections_merge():
    import zarr
    path = store("py_disk.zarr")
    g = pario.Group()
    if g.rank == 0:
        import shutil
        shutil.rmtree(path, ignore_errors=True)
    g.barrier()
    full = np.arange(45 * 31, dtype=np.float64).reshape(45, 31)
    with pario.GlobalArray((45, 31), name="py_disk_src") as a:
        if g.rank == 0:
            a[:, :] = full
        a.sync()
        with pario.DiskArray(path, (45, 31), np.float64, chunks=(10, 7)) as d:
            d.write(a)
            d.write(a, (slice(0, 5), slice(0, 5)), at=(40, 26))  # a ragged corner
            d.attrs["units"] = "bohr"
            with pytest.raises(pario.InvalidArgument, match="pario"):
                d.attrs["pario"] = "mine"
        expect = full.copy()
        expect[40:45, 26:31] = full[0:5, 0:5]
        g.barrier()
        if g.rank == 0:
            z = zarr.open_array(path, mode="r")
            assert z.shape == (45, 31) and z.chunks == (10, 7) and z.dtype == np.float64
            assert np.array_equal(z[:], expect)
            assert z.attrs["units"] == "bohr"
        with pario.DiskArray(path, mode="r") as d, pario.GlobalArray((45, 31), name="py_disk_dst") as b:
            assert (d.shape, d.chunks, d.dtype) == ((45, 31), (10, 7), np.dtype(np.float64))
            assert d.attrs["units"] == "bohr" and "charge" not in d.attrs and d.attrs.get("charge") is None
            with pytest.raises(KeyError):
                d.attrs["charge"]
            with pytest.raises(pario.StateError, match="read-only"):
                d.attrs["units"] = "angstrom"
            d.read(b)
            assert np.array_equal(b[:, :], expect)
    pario.DiskArray.remove(path)


def test_pario_reads_what_zarr_wrote():
    import zarr
    path = store("py_from_zarr.zarr")
    g = pario.Group()
    data = (np.arange(7 * 11 * 13, dtype=np.int32).reshape(7, 11, 13) * 3) - 50
    if g.rank == 0:
        import shutil
        shutil.rmtree(path, ignore_errors=True)
        z = zarr.create_array(path, shape=data.shape, chunks=(3, 4, 5), dtype=np.int32,
                              compressors=None, fill_value=0)
        z[:] = data
        z[0, 0, 0] = 0  # a chunk of zeros may be left unwritten: it must read as 0
        z.attrs["step"] = 7  # not a string: pario gives its JSON text
    g.barrier()
    data[0, 0, 0] = 0
    with pario.DiskArray(path, mode="r") as d, pario.GlobalArray(data.shape, np.int32, name="py_z") as a:
        assert d.chunks == (3, 4, 5) and d.attrs["step"] == "7"
        d.read(a)
        assert np.array_equal(a[...], data)
    pario.DiskArray.remove(path)


# Every element type pario added beyond double, float, int32, int64 and
# complex128, each with its extremes: pario writes, zarr reads; zarr
# writes, pario reads; through global arrays and local sections.
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.uint32, np.uint64, np.complex64])
def test_every_new_dtype_both_ways(dtype):
    import zarr
    dtype = np.dtype(dtype)
    name = dtype.name
    mine, theirs = store(f"py_dtype_{name}.zarr"), store(f"py_dtype_zarr_{name}.zarr")
    g = pario.Group()
    shape = (13, 9)
    if dtype.kind == "c":
        data = (np.arange(13 * 9) - 50 + 1j * (np.arange(13 * 9) * 0.5 - 3)).astype(dtype).reshape(shape)
        data[0, 0] = complex(np.finfo(np.float32).max, -np.finfo(np.float32).tiny)
    else:
        info = np.iinfo(dtype)
        data = (np.arange(13 * 9, dtype=np.int64) * 37 % 101).astype(dtype).reshape(shape)
        data[0, 0], data[12, 8] = info.min, info.max
    if g.rank == 0:
        import shutil
        shutil.rmtree(mine, ignore_errors=True)
        shutil.rmtree(theirs, ignore_errors=True)
        z = zarr.create_array(theirs, shape=shape, chunks=(4, 4), dtype=dtype, compressors=None, fill_value=0)
        z[:] = data[::-1]
    g.barrier()
    with pario.GlobalArray(shape, dtype, name=f"py_{name}") as a:
        assert a.dtype == dtype
        if g.rank == 0:
            a[:, :] = data
        a.sync()
        assert np.array_equal(a[:, :], data)
        with pario.DiskArray(mine, shape, dtype, chunks=(5, 4)) as d:
            assert d.dtype == dtype
            d.write(a)
        g.barrier()
        if g.rank == 0:
            z = zarr.open_array(mine, mode="r")
            assert z.dtype == dtype, (z.dtype, dtype)
            assert np.array_equal(z[:], data)
        with pario.DiskArray(theirs, mode="r") as d:
            assert d.dtype == dtype and d.shape == shape
            assert np.array_equal(d[2:7, :], data[::-1][2:7, :])
            d.read(a)
        assert np.array_equal(a[:, :], data[::-1])
    g.barrier()
    pario.DiskArray.remove(mine)
    pario.DiskArray.remove(theirs)


def test_zstd_both_ways(tmp_path):
    """zarr's default codecs (bytes, then zstd) read by pario, with a
    nonaligned section merged into them; and a store pario compresses
    (PARIO_DISK_ARRAY_CODEC, read at start-up, so written by a fresh
    process) read by zarr, its chunk files smaller than the raw bytes."""
    import os
    import zarr
    from conftest import run_fresh
    path = store("py_zstd.zarr")
    g = pario.Group()
    data = np.arange(40 * 30, dtype=np.float64).reshape(40, 30) % 7
    if g.rank == 0:
        import shutil
        shutil.rmtree(path, ignore_errors=True)
        z = zarr.create_array(path, shape=data.shape, chunks=(8, 10), dtype=np.float64)  # default: zstd
        assert any(type(c).__name__ == "ZstdCodec" for c in z.compressors)
        z[:] = data
    g.barrier()
    with pario.DiskArray(path, mode="r+") as d, pario.GlobalArray((40, 30), name="py_zstd") as a:
        d.read(a)
        assert np.array_equal(a[:, :], data)
        a.sync()  # every rank has read a before any rank changes it
        a[0:3, 0:4] = -1.0
        d.write(a, (slice(0, 3), slice(0, 4)), at=(5, 7))  # merged into compressed chunks
    expect = data.copy()
    expect[5:8, 7:11] = -1.0
    g.barrier()
    if g.rank == 0:
        assert np.array_equal(zarr.open_array(path, mode="r")[:], expect)
        script = tmp_path / "zstd.py"
        script.write_text(
            "import sys, numpy as np, pario\n"
            "pario.init()\n"
            "with pario.GlobalArray((64, 64)) as a, pario.DiskArray(sys.argv[1], (64, 64), np.float64,\n"
            "                                                      chunks=(32, 32)) as d:\n"
            "    a[:, :] = np.arange(64 * 64).reshape(64, 64) % 5\n"
            "    d.write(a)\n"
            "pario.finalize()\n")
        mine = str(tmp_path / "pario_zstd.zarr")
        out = run_fresh(script, [mine], PARIO_DISK_ARRAY_CODEC="zstd:9")
        assert out.returncode == 0, out.stderr
        z = zarr.open_array(mine, mode="r")
        assert [type(c).__name__ for c in z.compressors] == ["ZstdCodec"] and z.compressors[0].level == 9
        assert np.array_equal(z[:], np.arange(64 * 64).reshape(64, 64) % 5)
        chunk = os.path.join(mine, "c", "1", "1")
        assert 0 < os.path.getsize(chunk) < 32 * 32 * 8 // 4
    g.barrier()
    pario.DiskArray.remove(path)


def test_shards_zarr_packed():
    """zarr-python's shards (inner chunks packed in its own order, empty
    ones left out, optionally zstd) read by pario; pario writes into them
    by rewriting each shard whole (one rank per shard): a chunk the shard
    held, one it left out, and a nonaligned section merged into chunks,
    across two shards. zarr reads back every change, and its shard index
    checksums match."""
    import zarr
    g = pario.Group()
    data = np.arange(24 * 30, dtype=np.float64).reshape(24, 30) + 1
    data[0:4, 0:5] = 0  # an empty chunk: zarr leaves it out of its shard
    paths = {c: store(f"py_zarr_shards_{c}.zarr") for c in ("raw", "zstd")}
    if g.rank == 0:
        import shutil
        for codec, path in paths.items():
            shutil.rmtree(path, ignore_errors=True)
            z = zarr.create_array(path, shape=data.shape, chunks=(4, 5), shards=(8, 15), dtype=np.float64,
                                  compressors=None if codec == "raw" else "auto", fill_value=0)
            z[:] = data
    g.barrier()
    for codec, path in paths.items():
        with pario.DiskArray(path, mode="r+") as d, pario.GlobalArray(data.shape, name="py_zs") as a:
            assert d.chunks == (4, 5)
            d.read(a)
            assert np.array_equal(a[:, :], data), codec
            a.sync()  # every rank has read a before any rank changes it
            a[:, :] = -data
            d.write(a, (slice(8, 12), slice(5, 10)), at=(8, 5))  # a chunk the shard holds
            a[0:4, 0:5] = 7.0
            d.write(a, (slice(0, 4), slice(0, 5)), at=(0, 0))  # the chunk the shard left out
            d.write(a, (slice(13, 19), slice(12, 19)), at=(13, 12))  # partial chunks of two shards
            # Two in flight into other chunks of one shard: the second
            # waits for the first's rewrite, so neither is lost.
            first = d.iwrite(a, (slice(16, 20), slice(0, 5)), at=(16, 0))
            second = d.iwrite(a, (slice(20, 24), slice(5, 10)), at=(20, 5))
            first.wait()
            second.wait()
        g.barrier()
        if g.rank == 0:
            expect = data.copy()
            expect[8:12, 5:10] = -data[8:12, 5:10]
            expect[0:4, 0:5] = 7.0
            expect[13:19, 12:19] = -data[13:19, 12:19]
            expect[16:20, 0:5] = -data[16:20, 0:5]
            expect[20:24, 5:10] = -data[20:24, 5:10]
            assert np.array_equal(zarr.open_array(path, mode="r")[:], expect), codec
    g.barrier()
    for path in paths.values():
        pario.DiskArray.remove(path)


def test_shards_pario_wrote(tmp_path):
    """pario's own shards (PARIO_DISK_ARRAY_SHARD, read at start-up, so
    written by a fresh process): zarr reads them and checks their index
    checksum; slots never written are holes that read as 0."""
    import os
    import zarr
    from conftest import run_fresh
    g = pario.Group()
    if g.rank == 0:
        script = tmp_path / "shards.py"
        script.write_text(
            "import sys, numpy as np, pario\n"
            "pario.init()\n"
            "with pario.GlobalArray((50, 40)) as a, pario.DiskArray(sys.argv[1], (50, 40), np.float64,\n"
            "                                                      chunks=(4, 8)) as d:\n"
            "    a[:, :] = np.arange(50 * 40).reshape(50, 40)\n"
            "    d.write(a, (slice(0, 30), slice(0, 40)), at=(0, 0))\n"
            "pario.finalize()\n")
        mine = str(tmp_path / "pario_shards.zarr")
        out = run_fresh(script, [mine], PARIO_DISK_ARRAY_SHARD="2K")  # room for 8 chunks of 4 x 8; a row of 5 fills it
        assert out.returncode == 0, out.stderr
        z = zarr.open_array(mine, mode="r")
        assert z.chunks == (4, 8) and z.shards == (4, 40)
        expect = np.arange(50 * 40, dtype=np.float64).reshape(50, 40)
        expect[30:] = 0
        assert np.array_equal(z[:], expect)
        shard = os.path.join(mine, "c", "0", "0")
        assert os.path.getsize(shard) == 5 * 256 + 5 * 16 + 4  # fixed slots, then the index and its CRC
        assert not os.path.exists(os.path.join(mine, "c", "8", "0"))  # rows 32-35: never written
        with open(shard, "r+b") as f:  # damage the index: zarr and pario both refuse it
            f.seek(-3, os.SEEK_END)
            f.write(b"\xff")
        with pytest.raises(Exception):
            zarr.open_array(mine, mode="r")[0:4, 0:8]
        reader = tmp_path / "read.py"
        reader.write_text(
            "import sys, pario\n"
            "with pario.GlobalArray((50, 40)) as a, pario.DiskArray(sys.argv[1], mode='r') as d:\n"
            "    try:\n"
            "        d.read(a)\n"
            "    except pario.Corrupt as e:\n"
            "        print('corrupt:', e)\n"
            "pario.finalize()\n")
        out = run_fresh(reader, [mine])
        assert out.returncode == 0, out.stderr
        assert "c/0/0" in out.stdout and "checksum does not match" in out.stdout
    g.barrier()


def test_unsupported_layout_is_named():
    import zarr
    path = store("py_gzip.zarr")
    g = pario.Group()
    if g.rank == 0:
        import shutil
        shutil.rmtree(path, ignore_errors=True)
        zarr.create_array(path, shape=(10,), chunks=(5,), dtype=np.float64, compressors=zarr.codecs.GzipCodec())
    g.barrier()
    with pytest.raises(pario.Unsupported) as e:
        pario.DiskArray(path, mode="r")
    assert "codecs" in str(e.value)
    g.barrier()
    if g.rank == 0:
        import shutil
        shutil.rmtree(path, ignore_errors=True)


@pytest.mark.parametrize("text, error, words", [
    ("{not json", pario.Corrupt, "not valid JSON"),
    ('{"zarr_format": 3, "node_type": "array", "data_type": "float64"}', pario.Corrupt, "missing or malformed"),
    ('{"zarr_format": 2}', pario.Unsupported, "zarr_format is not 3"),
    ('{"zarr_format": 3, "node_type": "array", "shape": [4, 4], "data_type": "float64", '
     '"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}}, '
     '"codecs": [{"name": "bytes"}]}', pario.Corrupt, "differ in rank"),
    ('{"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "float16", '
     '"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}}, '
     '"codecs": [{"name": "bytes"}]}', pario.Unsupported, "data_type float16"),
])
def test_bad_metadata_is_a_clear_error(text, error, words):
    path = store("py_bad_meta.zarr")
    g = pario.Group()
    if g.rank == 0:
        import os
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "zarr.json"), "w") as f:
            f.write(text)
    g.barrier()
    with pytest.raises(error) as e:
        pario.DiskArray(path, mode="r")
    assert words in str(e.value)
    pario.DiskArray.remove(path)


def test_transfers_in_flight_and_transposed():
    import zarr
    path = store("py_disk_async.zarr")
    g = pario.Group()
    if g.rank == 0:
        import shutil
        shutil.rmtree(path, ignore_errors=True)
    g.barrier()
    full = np.arange(24 * 17, dtype=np.float64).reshape(24, 17)
    with pario.GlobalArray((24, 17), name="py_async_src") as a, \
            pario.GlobalArray((17, 24), name="py_async_dst") as t, \
            pario.DiskArray(path, (17, 24), np.float64, chunks=(5, 8)) as d:
        if g.rank == 0:
            a[:, :] = full
        a.sync()
        # Transposed, in two requests in flight; the source changes at once.
        first = d.iwrite(a, (slice(0, 12), slice(None)), axes=(1, 0))
        second = d.iwrite(a, (slice(12, 24), slice(None)), axes=(1, 0))
        a.fill(-1.0)
        while not first.test():
            pass
        pario.wait_all([first, second])
        g.barrier()
        if g.rank == 0:
            assert np.array_equal(zarr.open_array(path, mode="r")[:], full.T)
        r = d.iread(t)
        r.wait()
        assert np.array_equal(t[:, :], full.T)
        d.read(a, axes=(1, 0))  # and back, transposed again
        assert np.array_equal(a[:, :], full)
        with pytest.raises(pario.InvalidArgument, match="permutation"):
            d.iwrite(a, axes=(0, 0))
    pario.DiskArray.remove(path)
