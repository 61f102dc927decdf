"""Self-describing datasets (pario.Dataset) at 1, 2 and 4 ranks: segments,
variables and infos of every type (kept across a reopen, truncation);
rank-ordered, global-ordered and global-array sections written by every
rank, checked by h5py on rank 0 with no pario in the loop, then read back
by one rank and by half of the ranks (mpi4py communicators): an even split,
writers' pieces, item ranges, another decomposition, a global array of
another shape and dtype (restart on another number of ranks); and errors
raising on every rank together."""
import functools

import numpy as np
import pytest

import pario
from conftest import fault_at, on_fewer_ranks, plain_hdf5

pytestmark = pytest.mark.skipif(not pario.Dataset.supported(), reason="pario built without parallel HDF5")

# Every element type pario has, as NumPy spells it (the infos test stores one of each).
DTYPES = [np.float64, np.float32, np.int32, np.int64, np.complex128, np.int8, np.uint8, np.int16, np.uint16,
          np.uint32, np.uint64, np.complex64]


def shared_path(name):
    return pario.scratch_path(name, per_rank=False)


def piece(rank):
    """Rank r's rank-ordered piece: r + 1 items, except rank 1 writes none."""
    return 0 if rank == 1 else rank + 1


def piece_start(rank):
    return sum(piece(r) for r in range(rank))


def u_values(items):
    """The vector variable u's items (global item numbers) as (n, 3) doubles."""
    items = np.asarray(items, np.float64)
    return np.stack([items, 10 + items, 100 + items * 0.5], axis=-1)


def g_values(items):
    """The global-ordered u_global's items: whole numbers, so that int64 holds them."""
    return 2 * u_values(items)


def tensors(rank):
    """The 2 x 2 float32 tensor variable s: rank r writes r + 1 items."""
    return (np.arange((rank + 1) * 4, dtype=np.float32) + 100 * rank).reshape(rank + 1, 2, 2)


def test_segments_variables_and_infos_persist_and_truncate():
    g = pario.Group()
    path = shared_path("py_pds_meta.h5")
    with pario.Dataset.create(path, g, overwrite=True) as ds:
        topo = ds.append_segment("topology", time_index=0, time_value=0.0)
        s0 = ds.append_segment("state", 0, 0.0)
        s1 = ds.append_segment("state", 1, 0.5)
        s2 = ds.append_segment("state", 2, 1.0)
        assert [(s.index, s.kind, s.time_index, s.time_value) for s in ds.segments] == \
            [(0, "topology", 0, 0.0), (1, "state", 0, 0.0), (2, "state", 1, 0.5), (3, "state", 2, 1.0)]
        with pytest.raises(pario.InvalidArgument, match="time"):
            ds.append_segment("state", 2, 1.5)  # two state segments of one time index
        assert ds.find_segment(0) == topo and ds.find_segment(0, kind="state") == s0
        assert ds.find_segment(time=0.7) == s1 and ds.find_segment(time=0.7, kind="topology") == topo
        with pytest.raises(pario.NotFound):
            ds.find_segment(time=-1.0)
        ids = ds.register("id", dtype=np.int32)
        u = ds.register("u", item_shape=(3,))
        s = ds.register("s", item_shape=(2, 2), dtype=np.float32)
        assert (ids.id, ids.item_shape, ids.dtype) == (0, (), np.int32)
        assert (u.id, u.item_shape, u.dtype, u.words) == (1, (3,), np.float64, 3)
        assert (s.id, s.item_shape, s.dtype, s.words) == (2, (2, 2), np.float32, 4)
        assert ds.register("u", (3,)).id == 1  # the same again: the same variable
        with pytest.raises(pario.Exists):
            ds.register("u", (4,))
        assert list(ds.variables) == ["id", "u", "s"] and ds.variable("s").id == 2
        with pytest.raises(pario.NotFound):
            ds.variable("nothing")

        for i, dt in enumerate(DTYPES):
            ds.infos[f"v{i:02d}"] = np.arange(3, dtype=dt) + 1
        ds.infos["title"] = "Ünïcode run ✓"
        ds.infos["dt"] = 0.25  # a scalar: stored as one value
        u.infos["units"] = "m/s"
        u.infos["range"] = np.array([-1.5, 2.5])
        s2.infos["energy"] = np.array([-7.25])
        s1.infos["step"] = np.int64(40)
        assert len(ds.infos) == len(DTYPES) + 2 and "title" in ds.infos and "nope" not in ds.infos
        with pytest.raises(KeyError):
            ds.infos["nope"]
        ds.truncate(s1)  # s2 and its info go
        assert [x.index for x in ds.segments] == [0, 1, 2]
        ds.append_segment("state", 3, 2.0)  # appended after the truncation point
        assert dict(ds.segment(3).infos) == {}
        ds.write_ranked(3, "s", tensors(g.rank))  # the tensor variable, rank r r + 1 items

    with pario.Dataset.open(path, g) as ds:
        assert [(x.kind, x.time_index, x.time_value) for x in ds.segments] == \
            [("topology", 0, 0.0), ("state", 0, 0.0), ("state", 1, 0.5), ("state", 3, 2.0)]
        assert [(v.name, v.item_shape, v.dtype) for v in ds.variables.values()] == \
            [("id", (), np.int32), ("u", (3,), np.float64), ("s", (2, 2), np.float32)]
        infos = dict(ds.infos)
        for i, dt in enumerate(DTYPES):
            value = infos[f"v{i:02d}"]
            assert value.dtype == dt and np.array_equal(value, np.arange(3, dtype=dt) + 1)
        assert infos["title"] == "Ünïcode run ✓" and np.array_equal(infos["dt"], [0.25])
        assert dict(ds.variables["u"].infos) == {"units": "m/s", "range": pytest.approx(np.array([-1.5, 2.5]))}
        assert ds.segment(2).infos["step"].tolist() == [40]
        for w in range(g.size):
            t = ds.read(3, "s", writer=w)
            assert t.dtype == np.float32 and np.array_equal(t, tensors(w))
        assert ds.section(3, "s").items == g.size * (g.size + 1) // 2
        with pytest.raises(pario.StateError):
            ds.append_segment("state", 4, 3.0)  # opened read-only
    if g.rank == 0:
        import h5py
        with h5py.File(path, "r") as f:
            assert f["/"].attrs["title"] == "Ünïcode run ✓"
            assert f["/variables/u"].attrs["units"] == "m/s"
            assert len(f["/segments"]) == 4
            (last,) = [seg for seg in f["/segments"].values() if seg.attrs["pario_time_index"] == 3]
            assert np.array_equal(last["s"][...], np.concatenate([tensors(r) for r in range(g.size)]))
    g.barrier()


def write_sections(path, g):
    """Segment 0 holds u rank-ordered (piece(rank) items a rank) and
    global-ordered (a (n, 3) blocks decomposition, values from int64), and a
    6 x 5 global array checkpointed into the scalar variable `a`."""
    n_ranked = sum(piece(r) for r in range(g.size))
    n_global = 5 * g.size + 1
    with pario.Dataset.create(path, g, overwrite=True) as ds:
        seg = ds.append_segment("state", 7, 0.125)
        ds.register("u", (3,))
        ug = ds.register("u_global", (3,), np.float64)
        ds.register("a", dtype=np.float64)
        lo = piece_start(g.rank)
        ds.write_ranked(seg, "u", u_values(range(lo, lo + piece(g.rank))))
        lo, hi = n_global * g.rank // g.size, n_global * (g.rank + 1) // g.size
        with pario.Decomposition.blocks((n_global, 3), (lo, 0), (hi - lo, 3), group=g, buffer_size=64) as d:
            ds.write_global(seg, ug, d, g_values(range(lo, hi)).astype(np.int64))
        with pario.GlobalArray((6, 5), np.float64, group=g) as a:
            if g.rank == 0:
                a[:, :] = np.arange(30.0).reshape(6, 5)
            a.sync()
            ds.write_array(0, "a", a)
        ds.variables["u"].infos["writers"] = np.int32(g.size)
    return n_ranked, n_global


def check_with_h5py(path, g, n_ranked, n_global):
    import h5py
    with h5py.File(path, "r") as f:
        assert f.attrs["pario_format"] in (b"pario dataset", "pario dataset")
        (name,) = list(f["segments"])
        seg = f["segments"][name]
        assert seg.attrs["pario_time_index"] == 7 and seg.attrs["pario_time_value"] == 0.125
        u = seg["u"]
        assert u.shape == (n_ranked, 3) and np.array_equal(u[...], u_values(range(n_ranked)))
        assert list(u.attrs["pario_piece_items"]) == [piece(r) for r in range(g.size)]
        assert np.array_equal(seg["u_global"][...], g_values(range(n_global)))
        assert seg["a"].shape == (6, 5) and np.array_equal(seg["a"][...], np.arange(30.0).reshape(6, 5))
        assert f["variables/u"].attrs["writers"].tolist() == [g.size]


def read_back(path, comm, writers, n_ranked, n_global):
    """On the ranks of comm: every way of reading the sections back."""
    g = pario.Group(comm)
    with pario.Dataset.open(path, comm) as ds:
        info = ds.section(0, "u", writer=writers - 1)
        assert info == pario.SectionInfo("rank", writers, n_ranked, max(piece(r) for r in range(writers)),
                                         piece_start(writers - 1), piece(writers - 1), (n_ranked, 3))
        assert ds.section(0, "u_global").layout == "global"
        lo, hi = n_ranked * g.rank // g.size, n_ranked * (g.rank + 1) // g.size
        part = ds.read(0, "u")  # an even split, the first ranks one more
        start, count = ds.even_split(n_ranked)
        q, extra = divmod(n_ranked, g.size)
        assert count == q + (g.rank < extra) and start == g.rank * q + min(g.rank, extra)
        assert part.dtype == np.float64 and np.array_equal(part, u_values(range(start, start + count)))
        for w in range(writers):  # every writer's piece, on every rank
            w_piece = ds.read(0, "u", writer=w, dtype=np.float32)
            assert w_piece.dtype == np.float32 and w_piece.shape == (piece(w), 3)
            assert np.array_equal(w_piece, u_values(range(piece_start(w), piece_start(w) + piece(w))))
        assert np.array_equal(ds.read(0, "u", lo, hi - lo), u_values(range(lo, hi)))
        assert np.array_equal(ds.read(0, "u", start=n_ranked - 1), u_values([n_ranked - 1]))
        # The global-ordered section by item range, and through another decomposition (every
        # rank some words in reverse order, as int64).
        assert np.array_equal(ds.read(0, "u_global", 1, 2), g_values([1, 2]))
        words = np.arange(n_global * 3)[g.rank::g.size][::-1]
        with pario.Decomposition.indices(n_global * 3, words, group=g) as d:
            got = ds.read_global(0, "u_global", d, dtype=np.int64)
            assert got.dtype == np.int64 and np.array_equal(got, g_values(range(n_global)).ravel()[words])
        # Restart on this number of ranks: as a 5 x 6 float32 array.
        with pario.GlobalArray((5, 6), np.float32, group=g) as a:
            ds.read_array(0, "a", a)
            assert np.array_equal(a[:, :], np.arange(30.0, dtype=np.float32).reshape(5, 6))


def test_sections_written_on_all_read_by_h5py_and_on_fewer_ranks():
    g = pario.Group()
    path = shared_path("py_pds_sections.h5")
    n_ranked, n_global = write_sections(path, g)
    g.barrier()
    if g.rank == 0:
        check_with_h5py(path, g, n_ranked, n_global)
    on_fewer_ranks(g, [1, max(1, g.size // 2)], lambda comm: read_back(path, comm, g.size, n_ranked, n_global))


def test_errors_raise_on_every_rank():
    g = pario.Group()
    last = g.size - 1
    path = shared_path("py_pds_errors.h5")

    raises = functools.partial(fault_at, g)  # raises(mine, at): what this rank expects when rank at is at fault
    with pario.Dataset.create(path, g, overwrite=True) as ds:
        seg = ds.append_segment("state", 0, 0.0)
        u = ds.register("u", (3,))
        small = ds.register("small", dtype=np.int8)
        bad = np.zeros((2, 4) if g.rank == 0 else (2, 3))  # rank 0: items of 4 words
        with pytest.raises(raises(pario.InvalidArgument, 0)) as e:
            ds.write_ranked(seg, u, bad)
        if g.rank == 0:
            assert "values of shape (2, 4) for items of shape (3,)" in str(e.value)
        with pytest.raises(raises(pario.InvalidArgument, last)) as e:
            ds.write_ranked(seg, "nothing" if g.rank == last else "u", np.zeros((1, 3)))
        if g.rank == last:
            assert "no variable 'nothing'" in str(e.value)
        values = np.array([300 if g.rank == last else 1], np.int64)  # does not fit an int8 word
        with pytest.raises(raises(pario.OutOfRange, last)):
            ds.write_ranked(seg, small, values)
        with pytest.raises(raises(pario.InvalidArgument, 0)):
            ds.infos["bad"] = np.array([True]) if g.rank == 0 else np.array([1])
        with pytest.raises(raises(pario.InvalidArgument, last)):
            ds.infos["bad"] = [[1], [1, 2]] if g.rank == last else [1]  # ragged: no array
        assert "bad" not in ds.infos
        with pytest.raises(pario.NotFound):
            ds.read(seg, u)  # nothing written: no section
        ds.write_ranked(seg, u, np.ones((1, 3)))  # the failures above left nothing behind
        with pytest.raises(pario.Exists):
            ds.write_ranked(seg, u, np.ones((1, 3)))
        with pytest.raises(raises(pario.OutOfRange, 0)):
            ds.read(seg, u, writer=g.size if g.rank == 0 else 0)
        assert np.array_equal(ds.read(seg, u, writer=0), np.ones((1, 3)))
        with pytest.raises(raises(pario.InvalidArgument, last)) as e:
            ds.read(seg, u, dtype=np.bool_ if g.rank == last else np.float32)
        if g.rank == last:
            assert "dtype bool" in str(e.value)
        with pytest.raises(raises(pario.InvalidArgument, 0)):
            ds.register("t3", item_shape=(2, 2, 2) if g.rank == 0 else (2, 2))
        seg2 = ds.append_segment("state", 1, 1.0)
        ds.write_ranked(seg2, u, np.arange(6.0 * (g.rank + 1)))  # flat: 2 (rank + 1) items
        assert ds.section(seg2, u, writer=last).piece_count == 2 * g.size
        with pario.Decomposition.blocks((g.size, 3), (g.rank, 0), (1, 3), group=g) as d:
            with pytest.raises(raises(pario.InvalidArgument, 0)) as e:
                ds.write_global(ds.append_segment("state", 2, 2.0), u, d, np.ones(4 if g.rank == 0 else 3))
            if g.rank == 0:
                assert "an array of 4 elements for a decomposition holding 3" in str(e.value)
    with pytest.raises(pario.Exists):
        pario.Dataset.create(path, g)
    with pytest.raises(pario.NotFound):
        pario.Dataset.open(shared_path("py_pds_missing.h5"), g)
    with pytest.raises(pario.InvalidArgument, match="mode 'w'"):
        pario.Dataset.open(path, g, mode="w")
    not_pds = plain_hdf5(g, shared_path("py_pds_not.h5"))
    with pytest.raises(pario.Corrupt):
        pario.Dataset.open(not_pds, g)


@pytest.mark.parametrize("file_mode, steps_per_file, files", [
    ("one_file", 0, 1), ("file_per_step", 0, 4), ("steps_per_file", 2, 3)])
def test_file_modes_open_whole_from_the_entry_file(file_mode, steps_per_file, files):
    """Three state segments in each file mode: the entry file opens them
    all, the mode is read back from it, and h5py finds the members' data
    through the documented name pattern. The multi-file modes never
    rewrite the entry file during a step; a cut last member is a step a
    crash cut short (skipped), a cut earlier one damage (Corrupt)."""
    import os

    g = pario.Group()
    path = shared_path(f"py_pds_{file_mode}.h5")
    entry_bytes = []  # the entry file after each step (rank 0): multi-file modes never rewrite it
    with pario.Dataset.create(path, g, overwrite=True, file_mode=file_mode, steps_per_file=steps_per_file) as ds:
        x = ds.register("x")
        for step in range(3):
            ds.write_ranked(ds.append_segment("state", step, float(step)), x, [10.0 * step + g.rank])
            if g.rank == 0:
                with open(path, "rb") as f:
                    entry_bytes.append(f.read())
    if file_mode != "one_file":
        assert all(b == entry_bytes[0] for b in entry_bytes)
    with pario.Dataset.open(path, g) as ds:
        name, per_file, n_files = ds.file_mode
        assert (name, n_files) == (file_mode, files)
        if file_mode == "steps_per_file":
            assert per_file == steps_per_file
        assert [s.time_index for s in ds.segments] == [0, 1, 2]
        for s in ds.segments:
            assert np.array_equal(ds.read(s, "x", writer=g.rank), [10.0 * s.time_index + g.rank])
    g.barrier()
    if g.rank == 0 and file_mode != "one_file":
        import h5py
        with h5py.File(path, "r") as entry:
            pattern = entry.attrs["pario_member_pattern"]
            pattern = pattern.decode() if isinstance(pattern, bytes) else str(pattern)
        members = [os.path.join(os.path.dirname(path), pattern % k) for k in range(files - 1)]
        assert all(os.path.exists(m) for m in members)
        os.truncate(members[-1], os.path.getsize(members[-1]) // 2)  # the last member cut
    g.barrier()
    if file_mode == "one_file":
        return
    # A last member that does not open is a step cut short by a crash
    # (src/dataset/pds.h): read-only, the steps before it read back.
    with pario.Dataset.open(path, g) as ds:
        assert [s.time_index for s in ds.segments] == [0, 1]
        for s in ds.segments:
            assert np.array_equal(ds.read(s, "x", writer=g.rank), [10.0 * s.time_index + g.rank])
    # An earlier member cut is damage: a clear error on every rank.
    g.barrier()
    if g.rank == 0:
        os.truncate(members[0], os.path.getsize(members[0]) // 2)
    g.barrier()
    with pytest.raises(pario.Corrupt if g.rank == 0 or g.size == 1 else (pario.Corrupt, pario.RemoteError)):
        pario.Dataset.open(path, g)


def test_bad_file_mode_or_path_raise_on_every_rank():
    g = pario.Group()
    last = g.size - 1
    with pytest.raises(pario.InvalidArgument if g.rank == last or g.size == 1 else pario.RemoteError):
        pario.Dataset.create(shared_path("py_pds_bad_mode.h5"), g, overwrite=True,
                             file_mode="every_step" if g.rank == last else "one_file")
    with pytest.raises(pario.InvalidArgument if g.rank == 0 or g.size == 1 else pario.RemoteError):
        pario.Dataset.create(None if g.rank == 0 else shared_path("py_pds_bad_path.h5"), g, overwrite=True)


@pytest.mark.parametrize("sync, syncs, write_backs", [("fsync", 4, 0), ("write", 0, 4), ("none", 0, 0), (None, 4, 0)])
def test_sync_policy_counts_and_reads_back(sync, syncs, write_backs):
    """The sync policy a create asks for (None: the environment's, else
    fsync): one registration and three segment appends (each writes out
    its new group with the last segment's end) make 4 file syncs (fsyncs)
    with "fsync", 4 write-backs without an fsync with "write", nothing
    with "none"; the file reads back whole after close either way."""
    g = pario.Group()
    path = shared_path(f"py_pds_sync_{sync}.h5")
    with pario.Dataset.create(path, g, overwrite=True, sync=sync) as ds:
        x = ds.register("x")
        for step in range(3):
            ds.write_ranked(ds.append_segment("state", step, float(step)), x, [10.0 * step + g.rank])
        assert ds.sync == (sync or "fsync", syncs, write_backs)
    with pario.Dataset.open(path, g) as ds:
        assert [s.time_index for s in ds.segments] == [0, 1, 2]
        for s in ds.segments:
            assert np.array_equal(ds.read(s, "x", writer=g.rank), [10.0 * s.time_index + g.rank])


def test_bad_sync_policy_raises_on_every_rank():
    g = pario.Group()
    last = g.size - 1
    with pytest.raises(pario.InvalidArgument if g.rank == last or g.size == 1 else pario.RemoteError) as e:
        pario.Dataset.create(shared_path("py_pds_bad_sync.h5"), g, overwrite=True,
                             sync="sometimes" if g.rank == last else "write")
    if g.rank == last:
        assert "sync 'sometimes'" in str(e.value)


def test_numbers_c_cannot_take_raise_on_every_rank():
    """Numbers the C call cannot take (past int64 or int32, not numbers at
    all) raise on every rank together, InvalidArgument (OutOfRange for a
    range past the section) on the rank at fault: nanobind's conversion, or
    NumPy's allocation of a huge count, raised on that rank alone before
    the collective call (a hang at 2 and 4 ranks; OverflowError,
    TypeError or ValueError at 1). The dataset stays usable."""
    g = pario.Group()
    last = g.size - 1
    huge = 1 << 70
    raises = functools.partial(fault_at, g)
    with pario.Dataset.create(shared_path("py_pds_numbers.h5"), g, overwrite=True) as ds:
        x = ds.register("x")
        with pytest.raises(raises(pario.InvalidArgument, last)) as e:
            ds.append_segment("state", huge if g.rank == last else 0, 0.0)
        if g.rank == last:
            assert "time_index" in str(e.value)
        with pytest.raises(raises(pario.InvalidArgument, 0)):
            ds.append_segment("state", 0, "soon" if g.rank == 0 else 0.0)
        seg = ds.append_segment("state", 0, 0.0)
        assert seg.index == 0  # the failures appended nothing
        ds.write_ranked(seg, x, [float(g.rank)])
        with pytest.raises(raises(pario.InvalidArgument, last)):
            ds.read(huge if g.rank == last else seg, x)
        with pytest.raises(raises(pario.InvalidArgument, 0)):
            ds.read(seg, x, start=huge if g.rank == 0 else 0)
        with pytest.raises(raises(pario.InvalidArgument, last)):
            ds.read(seg, x, writer=(1 << 40) if g.rank == last else 0)
        with pytest.raises(raises(pario.OutOfRange, 0)):
            ds.read(seg, x, start=0, count=(1 << 62) if g.rank == 0 else 1)
        with pytest.raises(raises(pario.InvalidArgument, last)):
            ds.section(seg, huge if g.rank == last else x)
        with pytest.raises(raises(pario.InvalidArgument, 0)):
            ds.section(seg, x, writer=huge if g.rank == 0 else 0)
        with pytest.raises(raises(pario.InvalidArgument, last)):
            ds.register("y", item_shape=(huge,) if g.rank == last else (2,))
        with pytest.raises(raises(pario.InvalidArgument, 0)):
            ds.truncate(huge if g.rank == 0 else 0)
        assert [s.time_index for s in ds.segments] == [0]
        assert list(ds.variables) == ["x"]
        assert np.array_equal(ds.read(seg, x, writer=g.rank), [float(g.rank)])
    with pytest.raises(raises(pario.InvalidArgument, last)):
        pario.Dataset.create(shared_path("py_pds_numbers_modes.h5"), g, overwrite=True, file_mode="steps_per_file",
                             steps_per_file=huge if g.rank == last else 2)


# The collective engine's hints on create and open, for write_array and
# read_array: through one aggregator in 64-byte rounds, or each rank directly.
HINTS = [dict(aggregators=1, buffer_size=64, buffering="always"),
         dict(aggregator_ranks=[pario.size() - 1], buffer_size=4096, align=512, convert="sender",
              buffering="never")]


@pytest.mark.parametrize("hints", HINTS)
def test_hints_checkpoint_reads_back_as_written(hints):
    """A global array checkpointed with hints reads back, restarted as
    float32, with them and with the defaults; opening with a sync policy
    of its own."""
    g = pario.Group()
    path = shared_path("py_pds_hints.h5")
    values = np.arange(60.0).reshape(12, 5) - 7.5
    with pario.Dataset.create(path, g, overwrite=True, **hints) as ds:
        ds.register("a", dtype=np.float64)
        seg = ds.append_segment("state", 0)
        with pario.GlobalArray((12, 5), np.float64, group=g) as a:
            if g.rank == 0:
                a[:, :] = values
            a.sync()
            ds.write_array(seg, "a", a)
    for h in (hints, {}):
        with pario.Dataset.open(path, g, sync="none", **h) as ds:
            assert ds.sync[0] == "none"
            with pario.GlobalArray((60,), np.float32, group=g) as b:
                ds.read_array(0, "a", b)
                assert np.array_equal(b[:], values.ravel().astype(np.float32))


@pytest.mark.parametrize("hints, message", [
    (dict(aggregators=-1), "hints->aggregators is negative"),
    (dict(buffering="sometimes"), "buffering 'sometimes': expected 'auto', 'always', 'never' or None"),
    (dict(buffer_size="big"), "buffer_size 'big': expected an integer or None"),
])
def test_a_refused_hint_fails_create_and_open_on_every_rank(hints, message):
    g = pario.Group()
    path = shared_path("py_pds_hints_refused.h5")
    pario.Dataset.create(path, g, overwrite=True).close()
    for make in (lambda: pario.Dataset.create(path, g, overwrite=True, **hints),
                 lambda: pario.Dataset.open(path, g, **hints)):
        with pytest.raises(pario.InvalidArgument) as e:
            make()
        assert message in str(e.value)
    with pario.Dataset.open(path, g) as ds:  # left as it was
        assert len(ds.segments) == 0


def test_hints_that_differ_between_ranks_fail_on_every_rank():
    """A hint this package refuses on one rank: InvalidArgument there,
    RemoteError elsewhere; values that differ: InvalidArgument naming the
    field everywhere."""
    g = pario.Group()
    if g.size < 2:
        pytest.skip("needs 2 ranks or more")
    last = g.size - 1
    path = shared_path("py_pds_hints_differ.h5")
    with pytest.raises(fault_at(g, pario.InvalidArgument, last)):
        pario.Dataset.create(path, g, overwrite=True, convert="here" if g.rank == last else None)
    with pytest.raises(pario.InvalidArgument) as e:
        pario.Dataset.create(path, g, overwrite=True, buffer_size=64 << (g.rank % 2))
    assert "(buffer_size)" in str(e.value)
