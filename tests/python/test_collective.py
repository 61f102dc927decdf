"""Collective I/O (pario.Decomposition) at 1, 2 and 4 ranks: N-d blocks in C
and Fortran order, random global indices, sparse keys, conversion and byte
order on the way (int64 in memory, ">i4" in the file; every unsigned and
complex file dtype), a value that does not fit, overlapping indices and
an index past the space raising on every rank, nonblocking transfers
(test() finishing a read and a write), explicit aggregator ranks, a
file written by every rank read back by half of them with another
decomposition (SharedFile.open, an mpi4py communicator), and the
buffering hint (the same file through the aggregators or not; refused
values; the way taken, seen in the statistics). The file's bytes are
checked with numpy.fromfile on rank 0 after a barrier."""
import time

import numpy as np
import pytest

import pario

# Many rounds (8 doubles a round) and, with several ranks, two aggregators.
SMALL = dict(buffer_size=64, aggregators=min(2, pario.size()))


def shared_path(name):
    return pario.scratch_path(name, per_rank=False)


def value_of(g):
    return np.asarray(g) * 0.5 + 1.0


def on_disk(f, path, dtype, count=-1, offset=0):
    """After a barrier, the file's elements as rank 0 reads them with
    NumPy (None on the other ranks)."""
    f.group.barrier()
    return np.fromfile(path, dtype=dtype, count=count, offset=offset) if f.group.rank == 0 else None


def split(n, rank, size):
    return n * rank // size, n * (rank + 1) // size


@pytest.mark.parametrize("hints", [{}, SMALL])
def test_blocks_c_order_round_trip(hints):
    g = pario.Group()
    dims = (7, 6, 5)
    full = value_of(np.arange(np.prod(dims))).reshape(dims)
    px = 2 if g.size >= 2 else 1
    py = g.size // px
    ix, iy = g.rank % px, g.rank // px
    (j0, j1), (k0, k1) = split(6, ix, px), split(5, iy, py)
    path = shared_path("py_blocks_c.dat")
    with pario.SharedFile(path, g) as f, \
            pario.Decomposition.blocks(dims, (0, j0, k0), (7, j1 - j0, k1 - k0), np.float64, **hints) as d:
        assert d.global_size == full.size and d.local_count == 7 * (j1 - j0) * (k1 - k0)
        assert 1 <= d.aggregators <= g.size and isinstance(d.is_aggregator, bool)
        d.write(f, full[:, j0:j1, k0:k1], offset=16)  # a strided view: copied first
        disk = on_disk(f, path, np.float64, offset=16)
        if g.rank == 0:
            assert np.array_equal(disk, full.ravel())
        back = d.read(f, offset=16)  # one block: its shape, the file's dtype
        assert back.shape == (7, j1 - j0, k1 - k0) and back.dtype == np.float64
        assert np.array_equal(back, full[:, j0:j1, k0:k1])
        as_float = d.read(f, dtype=np.float32, offset=16)
        assert as_float.dtype == np.float32 and np.array_equal(as_float, full[:, j0:j1, k0:k1].astype(np.float32))


def test_blocks_fortran_order_several_blocks():
    """A 9 x 4 array (flat index i + 9 * j), each rank two row ranges of
    every column: two blocks in 2-D starts/counts, stored column-major."""
    g = pario.Group()
    full = np.arange(36, dtype=np.int32).reshape((9, 4), order="F")  # full[i, j] == i + 9 * j
    starts, counts, pieces = [], [], []
    for b in range(2):
        lo, hi = split(9, 2 * g.rank + b, 2 * g.size)
        starts.append((lo, 0))
        counts.append((hi - lo, 4))
        pieces.append(full[lo:hi, :].ravel(order="F"))
    mine = np.concatenate(pieces)
    path = shared_path("py_blocks_f.dat")
    with pario.SharedFile(path, g) as f, \
            pario.Decomposition.blocks((9, 4), np.array(starts), np.array(counts), np.float64, order="F",
                                       **SMALL) as d:
        assert d.local_count == mine.size
        d.write(f, mine)  # int32 in memory, float64 in the file
        disk = on_disk(f, path, np.float64)
        if g.rank == 0:
            assert np.array_equal(disk, np.arange(36.0))
        back = d.read(f, out=np.empty(mine.size, np.int64))
        assert back.dtype == np.int64 and np.array_equal(back, mine)


def test_one_fortran_block_keeps_its_shape():
    """One block in Fortran order: the array's (i, j) is the block's (i, j),
    whatever its memory layout."""
    g = pario.Group()
    full = np.arange(12.0).reshape(3, 4)
    lo, hi = split(4, g.rank, g.size)
    path = shared_path("py_block_f.dat")
    with pario.SharedFile(path, g) as f, \
            pario.Decomposition.blocks((3, 4), (0, lo), (3, hi - lo), order="F") as d:
        d.write(f, full[:, lo:hi])  # C-ordered memory: taken in F order
        disk = on_disk(f, path, np.float64)
        if g.rank == 0:
            assert np.array_equal(disk, full.ravel(order="F"))
        back = d.read(f)
        assert back.flags.f_contiguous and np.array_equal(back, full[:, lo:hi])
        strided = np.zeros((3, 2 * (hi - lo)))[:, ::2]
        assert d.read(f, out=strided) is strided and np.array_equal(strided, full[:, lo:hi])


def test_random_indices_int64_to_big_endian_int32():
    g = pario.Group()
    n = 5000
    perm = np.random.default_rng(7).permutation(n // 2)
    first = 1 if g.size > 1 else 0  # rank 0 holds nothing when there are others
    lo, hi = split(n // 2, g.rank - first, g.size - first) if g.rank >= first else (0, 0)
    idx = 2 * perm[lo:hi]  # even indices only: odd ones stay as they were
    vals = idx.astype(np.int64) * 3 - 7000
    path = shared_path("py_random.dat")
    with pario.SharedFile(path, g) as f:
        if g.rank == 0:
            f.write(0, np.full(n * 4, 0xAB, np.uint8))
        g.barrier()
        with pario.Decomposition.indices(n, idx, ">i4", **SMALL) as d:
            assert d.dtype == np.dtype(">i4") and d.local_count == hi - lo
            d.write(f, vals)
            disk = on_disk(f, path, ">i4")
            if g.rank == 0:
                assert np.array_equal(disk[::2], np.arange(0, n, 2) * 3 - 7000)
                assert (np.ascontiguousarray(disk[1::2]).view(np.uint8) == 0xAB).all()
            back = d.read(f, dtype=np.float64)
            assert back.dtype == np.float64 and np.array_equal(back, vals.astype(np.float64))
        with pario.Decomposition.indices(n, idx, np.int32, byteorder=">") as same:
            assert same.dtype == np.dtype(">i4")
            assert np.array_equal(same.read(f, dtype=np.int64), vals)


def test_sparse_keys():
    g = pario.Group()
    n = 999
    perm = np.random.default_rng(11).permutation(n)
    lo, hi = split(n, g.rank, g.size)
    keys = 1000 + 13 * perm[lo:hi]
    path = shared_path("py_keys.dat")
    with pario.SharedFile(path, g) as f, pario.Decomposition.keys(keys, np.float64, **SMALL) as d:
        assert d.global_size == n and np.array_equal(d.positions, perm[lo:hi])
        d.write(f, value_of(d.positions))
        disk = on_disk(f, path, np.float64)
        if g.rank == 0:
            assert np.array_equal(disk, value_of(np.arange(n)))


def test_a_value_that_does_not_fit_fails_on_every_rank():
    g = pario.Group()
    n = 16
    mine = n // g.size
    path = shared_path("py_refused.dat")
    with pario.SharedFile(path, g) as f:
        if g.rank == 0:
            f.write(0, np.full(n, 0xAB, np.uint8))
        g.barrier()
        with pario.Decomposition.indices(n, np.arange(g.rank * mine, (g.rank + 1) * mine), np.int8) as d:
            vals = np.arange(mine, dtype=np.float64)
            bad = g.rank == g.size - 1
            if bad:
                vals[3] = 300.0
            with pytest.raises(pario.OutOfRange if bad or g.size == 1 else pario.RemoteError) as e:
                d.write(f, vals)
            if bad:
                assert "buf[3]" in e.value.message
            disk = on_disk(f, path, np.uint8)
            if g.rank == 0:
                assert (disk == 0xAB).all()  # nothing written
            # This package's own checks fail every rank too.
            size = mine + 1 if bad else mine
            with pytest.raises(pario.InvalidArgument if bad or g.size == 1 else pario.RemoteError):
                d.write(f, np.zeros(size))
            with pytest.raises(pario.InvalidArgument if bad or g.size == 1 else pario.RemoteError):
                d.write(f, np.zeros(mine, np.float16 if bad else np.float64))
        with pytest.raises(pario.InvalidArgument if g.rank == 0 or g.size == 1 else pario.RemoteError):
            pario.Decomposition.blocks((4, 4), [0, 0], [1, 1] if g.rank else [1], np.float64)
        with pytest.raises(pario.InvalidArgument):
            pario.Decomposition.indices(n, [], ">i4", byteorder="<")


def test_nonblocking():
    g = pario.Group()
    n = 4096
    lo, hi = split(n, g.rank, g.size)
    idx = n - 1 - np.arange(lo, hi)  # reversed
    vals = value_of(idx)
    path = shared_path("py_nonblocking.dat")
    with pario.SharedFile(path, g) as f, pario.Decomposition.indices(n, idx, **SMALL) as d:
        w = d.iwrite(f, vals)
        vals[:] = 0  # copied at the start
        assert isinstance(w, pario.Transfer)
        w.wait()
        g.barrier()
        r = d.iread(f)
        back = r.wait()
        assert np.array_equal(back, value_of(idx))
        out = np.empty(hi - lo, np.float32)
        r = d.iread(f, out=out)
        assert r.wait() is out and np.array_equal(out, value_of(idx).astype(np.float32))
        # test() alone finishes a read: the array is filled before wait().
        out[:] = 0
        r = d.iread(f, out=out)
        deadline = time.monotonic() + 30
        while not r.test() and time.monotonic() < deadline:
            pass
        assert np.array_equal(out, value_of(idx).astype(np.float32))
        assert r.wait() is out


def test_written_on_all_read_on_half_with_another_decomposition():
    from mpi4py import MPI
    g = pario.Group()
    n = 3000
    lo, hi = split(n, g.rank, g.size)
    path = shared_path("py_restart.dat")
    f = pario.SharedFile(path, g)
    with pario.Decomposition.blocks(n, [lo], [hi - lo]) as d:
        d.write(f, value_of(np.arange(lo, hi)))
    f.close()
    readers = max(1, g.size // 2)
    comm = MPI.COMM_WORLD.Split(0 if g.rank < readers else MPI.UNDEFINED, g.rank)
    if g.rank < readers:
        with pario.SharedFile.open(path, comm, "r") as f2:
            idx = np.arange(g.rank, n, readers)  # round robin
            with pario.Decomposition.indices(n, idx, group=f2.group, **SMALL) as r:
                assert np.array_equal(r.read(f2), value_of(idx))
        assert f2._handle == 0  # closed, kept
        comm.Free()
    g.barrier()
    with pytest.raises(pario.NotFound):
        pario.SharedFile.open(shared_path("py_missing.dat"), g)
    with pario.SharedFile.open(path, g, "r+") as f3:  # kept by the with block; remove it now
        f3.keep = False


@pytest.mark.parametrize("convert", [None, "auto", "sender", "aggregator"])
def test_convert_where_asked(convert):
    """int32 in memory, big endian int64 in the file, converted where
    convert says: the same bytes whichever side converts."""
    g = pario.Group()
    n = 1000
    lo, hi = split(n, g.rank, g.size)
    idx = n - 1 - np.arange(lo, hi)
    vals = (idx * 7 - 3000).astype(np.int32)
    path = shared_path("py_convert.dat")
    with pario.SharedFile(path, g) as f:
        for d in (pario.Decomposition.indices(n, idx, ">i8", convert=convert, **SMALL),
                  pario.Decomposition.blocks(n, [n - hi], [hi - lo], ">i8", convert=convert, **SMALL),
                  pario.Decomposition.keys(idx * 5 + 11, ">i8", convert=convert, **SMALL)):
            with d:
                mine = vals if d.shape is None else (np.arange(n - hi, n - lo) * 7 - 3000).astype(np.int32)
                d.write(f, mine)
                disk = on_disk(f, path, ">i8")
                if g.rank == 0:
                    assert np.array_equal(disk, np.arange(n) * 7 - 3000)
                back = d.read(f, dtype=np.int32)
                assert back.dtype == np.int32 and np.array_equal(back, mine)


def test_convert_refused_and_mismatched():
    g = pario.Group()
    idx = np.arange(g.rank * 4, g.rank * 4 + 4)
    # A value this package refuses: InvalidArgument here, on every rank.
    with pytest.raises(pario.InvalidArgument, match="convert 'both'"):
        pario.Decomposition.indices(4 * g.size, idx, np.float64, convert="both")
    with pytest.raises(pario.InvalidArgument, match="convert 2"):
        pario.Decomposition.blocks(4 * g.size, [g.rank * 4], [4], convert=2)
    if g.size == 1:
        return
    # Different choices on different ranks: a collective's hints must agree,
    # and the error names convert alone (not byte_order beside it).
    with pytest.raises(pario.InvalidArgument) as e:
        pario.Decomposition.indices(4 * g.size, idx, np.float64, convert="sender" if g.rank == 0 else "aggregator")
    assert "(convert)" in e.value.message


def test_buffering_refused_and_mismatched():
    """buffering takes "auto", "always", "never" or None; anything else is
    a ValueError (InvalidArgument) naming the argument, on every rank."""
    g = pario.Group()
    idx = np.arange(g.rank * 4, g.rank * 4 + 4)
    for bad in ("sometimes", 3, True):
        with pytest.raises(ValueError, match=rf"buffering {bad!r}: expected 'auto', 'always', 'never' or None"):
            pario.Decomposition.indices(4 * g.size, idx, buffering=bad)
    with pytest.raises(ValueError, match="buffering 'ALWAYS'"):
        pario.Decomposition.blocks(4 * g.size, [g.rank * 4], [4], buffering="ALWAYS")
    with pytest.raises(ValueError, match="buffering 'off'"):
        pario.Decomposition.keys(idx, buffering="off")
    if g.size == 1:
        return
    with pytest.raises(pario.InvalidArgument) as e:
        pario.Decomposition.indices(4 * g.size, idx, buffering="always" if g.rank == 0 else "never")
    assert "(buffering)" in e.value.message


@pytest.mark.parametrize("buffering", ["never", "always", "auto", None])
def test_buffering_gives_the_same_file(buffering):
    """Interleaved indices (each rank every size-th element, in reverse),
    contiguous blocks and keys, in three file dtypes: the same bytes
    through the aggregators or not."""
    g = pario.Group()
    n = 3000
    mine = np.arange(g.rank, n, g.size)[::-1].copy()
    lo, hi = split(n, g.rank, g.size)

    def vals(i):
        return np.asarray(i, np.float64) * 7 - 3

    path = shared_path("py_buffering.dat")
    with pario.SharedFile(path, g) as f:
        for d, idx in ((pario.Decomposition.indices(n, mine, ">f8", buffering=buffering, **SMALL), mine),
                       (pario.Decomposition.blocks(n, [lo], [hi - lo], buffering=buffering, **SMALL),
                        np.arange(lo, hi)),
                       (pario.Decomposition.keys(mine * 3 + 1, np.float32, buffering=buffering), mine)):
            with d:
                d.write(f, vals(idx))
                disk = on_disk(f, path, d.dtype, count=n)
                if g.rank == 0:
                    assert np.array_equal(disk, vals(np.arange(n)))
                assert np.array_equal(d.read(f, dtype=np.float64), vals(idx))


def test_buffering_chosen(tmp_path):
    """Which way a decomposition went: the C API has no query for it, but
    the collective statistics show it (aggregator rounds only through the
    aggregators). Statistics are switched on at start-up (PARIO_STATS=1),
    so this runs a fresh one-rank process."""
    from conftest import run_with_stats
    if pario.Group().rank != 0:
        return
    rounds = run_with_stats(
        tmp_path,
        "rounds = {}\n"
        "with pario.SharedFile(sys.argv[1]) as f:\n"
        "    for name, idx in (('long', np.arange(8192)), ('strided', np.arange(0, 8192, 2))):\n"
        "        for b in ('never', 'always', 'auto'):\n"
        "            before = pario.stats()['collective']\n"
        "            with pario.Decomposition.indices(8192, idx, buffering=b) as d:\n"
        "                d.write(f, np.ones(idx.size))\n"
        "                d.read(f)\n"
        "            after = pario.stats()['collective']\n"
        "            rounds[f'{name} {b}'] = [after[k]['rounds'] - before[k]['rounds'] for k in ('write', 'read')]\n"
        "print(json.dumps(rounds))\n",
        [tmp_path / "buffering.dat"], PARIO_COLLECTIVE_BUFFERING="always")
    assert rounds["long never"] == [0, 0] and rounds["strided never"] == [0, 0]
    assert min(rounds["long always"] + rounds["strided always"]) >= 1
    # auto: direct for one 64 KiB run, through the aggregator for 8-byte runs
    # (the hint overrides PARIO_COLLECTIVE_BUFFERING=always).
    assert rounds["long auto"] == [0, 0] and min(rounds["strided auto"]) >= 1


def values_of(g, dt):
    """Element g's value in dtype dt: the top of an unsigned range, the
    bottom of a signed one, complex with an imaginary part."""
    g = np.asarray(g)
    if dt.kind == "u":
        return np.full(g.shape, np.iinfo(dt).max, dt) - g.astype(dt)
    if dt.kind == "i":
        return np.full(g.shape, np.iinfo(dt).min, dt) + (g % 100).astype(dt)
    return (g * 0.5 - 1j * g).astype(dt)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.uint32, np.uint64, np.complex64,
                                   np.complex128, ">c16", "<u8"])
def test_every_file_dtype_round_trips(dtype):
    """Unsigned, complex and both byte orders in the file: values at the
    top of each unsigned range come back bit for bit, complex with their
    imaginary parts, through the aggregators (many rounds)."""
    g = pario.Group()
    n = 300
    lo, hi = split(n, g.rank, g.size)
    idx = np.arange(lo, hi)[::-1]
    dt = np.dtype(dtype)
    vals = values_of(idx, dt)
    path = shared_path(f"py_dtype_{dt.str}.dat")
    with pario.SharedFile(path, g) as f, pario.Decomposition.indices(n, idx, dt, **SMALL) as d:
        d.write(f, vals)
        disk = on_disk(f, path, dt, count=n)
        if g.rank == 0:
            assert np.array_equal(disk, values_of(np.arange(n), dt))
        back = d.read(f)
        assert back.dtype == dt.newbyteorder("=") and np.array_equal(back, vals)  # native in memory
        if dt.kind == "c":  # into complex64: narrowed, every value within range
            assert np.array_equal(d.read(f, dtype=np.complex64), vals.astype(np.complex64))


def test_overlapping_or_outside_indices_fail_on_every_rank():
    """Two ranks (or one rank twice) writing one index: InvalidArgument
    naming the overlap, the file unchanged; reading it is fine. An index
    past the global size: OutOfRange on its rank, RemoteError elsewhere."""
    g = pario.Group()
    n = 32
    path = shared_path("py_overlap.dat")
    with pario.SharedFile(path, g) as f:
        if g.rank == 0:
            f.write(0, np.full(n * 8, 0xAB, np.uint8))
        g.barrier()
        mine = list(range(g.rank + 1, n, g.size)) + [0]  # every rank holds 0; with one rank, 0 twice
        if g.size == 1:
            mine.append(0)
        with pario.Decomposition.indices(n, mine, np.float64) as d:
            with pytest.raises(pario.InvalidArgument, match="overlap"):
                d.write(f, np.ones(len(mine)))
            disk = on_disk(f, path, np.uint8)
            if g.rank == 0:
                assert (disk == 0xAB).all()
            d.read(f)  # each holder gets a copy
        bad = g.rank == g.size - 1
        with pytest.raises(pario.OutOfRange if bad or g.size == 1 else pario.RemoteError):
            pario.Decomposition.indices(n, [n if bad else 0], np.float64)


def test_iwrite_test_and_hinted_aggregators():
    """aggregator_ranks and align reach the decomposition (the last rank
    aggregates alone); an iwrite finishes under test() before its wait."""
    g = pario.Group()
    n = 4096
    lo, hi = split(n, g.rank, g.size)
    path = shared_path("py_iwrite_test.dat")
    with pario.SharedFile(path, g) as f, \
            pario.Decomposition.indices(n, np.arange(lo, hi), np.float64, aggregator_ranks=[g.size - 1],
                                        buffer_size=1024, align=512) as d:
        assert d.aggregators == 1 and d.is_aggregator == (g.rank == g.size - 1)
        w = d.iwrite(f, value_of(np.arange(lo, hi)))
        deadline = time.monotonic() + 30
        while not w.test() and time.monotonic() < deadline:
            pass
        assert w.test()
        w.wait()
        disk = on_disk(f, path, np.float64)
        if g.rank == 0:
            assert np.array_equal(disk, value_of(np.arange(n)))
    if g.size > 1:
        with pytest.raises(pario.InvalidArgument, match="differ between ranks"):  # every rank sees it
            pario.Decomposition.indices(n, [], np.float64, aggregator_ranks=[1] if g.rank == 0 else [0])
    with pytest.raises(pario.Error, match=f"rank {g.size}"):
        pario.Decomposition.indices(n, [], np.float64, aggregator_ranks=[g.size])  # no such rank


def test_indices_far_apart_fail_on_every_rank_without_hanging():
    """Two indices 2^62 apart: an aggregator's plan would need 2^41 rounds.
    Its failed allocation is its status (NoMemory naming the rounds), and
    every other rank gets an error too, none is left waiting."""
    g = pario.Group()
    n = 1 << 62
    mine = [0] if g.rank == 0 else []
    if g.rank == g.size - 1:
        mine.append(n - 1)
    for buffer_size in (None, 8):  # 2^41 rounds (bad_alloc), 2^62 (past a vector's max_size)
        with pytest.raises(pario.Error) as e:
            pario.Decomposition.indices(n, np.array(mine, np.int64), group=g, buffer_size=buffer_size)
        if g.rank == 0:  # the first aggregator
            assert isinstance(e.value, pario.NoMemory) and "rounds" in str(e.value), e.value
        else:
            assert isinstance(e.value, (pario.NoMemory, pario.RemoteError)), e.value
