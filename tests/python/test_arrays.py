"""Global arrays and the counter from Python, at any number of ranks."""
import numpy as np
import pytest

import pario


def test_slicing_put_get_and_acc():
    me, n = pario.rank(), pario.size()
    with pario.GlobalArray((8, 6), np.float64, name="py_a") as a:
        a.zero()
        if me == 0:
            a[:, :] = np.arange(48.0).reshape(8, 6)
        a.sync()
        assert np.array_equal(a[2:4, 1:3], np.arange(48.0).reshape(8, 6)[2:4, 1:3])
        assert a[3, 2] == 20.0 and a[3].shape == (6,)
        a.sync()
        a.acc((slice(0, 8), 0), np.ones(8), alpha=2.0)  # every rank adds 2
        a.sync()
        assert np.array_equal(a[:, 0], np.arange(0.0, 48.0, 6) + 2.0 * n)
        with pytest.raises(pario.OutOfRange):
            a[8, 0]
        with pytest.raises(pario.InvalidArgument):
            a[::2, 0]


def test_local_view_is_zero_copy_and_distribution_covers_array():
    me, n = pario.rank(), pario.size()
    with pario.GlobalArray((10, 4), np.int64, name="py_local") as a:
        a.fill(7)
        mine = a.local()
        section = a.distribution()
        assert mine.shape == tuple(s.stop - s.start for s in section)
        mine[...] = me  # writes the patch in place
        a.sync()
        owners = np.zeros((10, 4), np.int64) - 1
        for r in range(n):
            owners[a.distribution(r)] = r
        assert (owners >= 0).all()
        assert np.array_equal(a[:, :], owners)


def test_counter_hands_out_each_value_once():
    group = pario.Group()
    with pario.Counter(group) as c:
        mine = [c.next() for _ in range(20)]
        everyone = np.zeros(20 * group.size, np.int64)
        with pario.GlobalArray(len(everyone), np.int64, name="py_seen") as seen:
            seen.zero()
            for v in mine:
                seen.acc(slice(v, v + 1), [1])
            seen.sync()
            everyone = seen[:]
        assert (everyone == 1).all()


def test_mpi4py_communicator_makes_a_group():
    from mpi4py import MPI
    comm = MPI.COMM_WORLD.Split(pario.rank() % 2, pario.rank())
    g = pario.Group(comm)
    assert (g.rank, g.size) == (comm.Get_rank(), comm.Get_size())
    with pario.GlobalArray(5, group=comm, name="py_sub") as a:
        a.fill(1.5)
        assert np.array_equal(a[:], np.full(5, 1.5))
    comm.Free()


def test_bad_dtype_is_invalid_argument():
    with pytest.raises(pario.InvalidArgument):
        pario.GlobalArray(4, np.float16)
