"""MFDn's wave-function file (pario.WaveFunctionFile) at 1, 2 and 4 ranks:
vectors written by every rank's own slice (uneven slices and the even
split) with each transfer, checked by h5py on rank 0 with no pario in the
loop, then read back on one rank and on half of the ranks (mpi4py
communicators) and on all; observables reserved, written after a reopen
and read back; and bad arguments raising on every rank together."""
import functools
import math

import numpy as np
import pytest

import pario
from conftest import fault_at, on_fewer_ranks, plain_hdf5

pytestmark = pytest.mark.skipif(not pario.WaveFunctionFile.supported(), reason="pario built without parallel HDF5")

DIMENSION = 1001
NVECTORS = 3
BASIS = pario.WaveFunctionBasis(dimension=DIMENSION, protons=3, neutrons=3, nmax=4, parity=1, two_mj=0,
                                hbar_omega=20.0)


def shared_path(name):
    return pario.scratch_path(name, per_rank=False)


def uneven(rank, size):
    """Rank r's slice of vector 0: rank 0 the most, the last rank the rest
    (rank 1 none when there are more than two ranks)."""
    counts = [0 if (size > 2 and r == 1) else DIMENSION // (size + 1) for r in range(size)]
    counts[0] += DIMENSION - sum(counts)
    start = sum(counts[:rank])
    return start, counts[rank]


def value(k, i):
    """Element i of vector k."""
    return np.sin(0.01 * (np.asarray(i, np.float64) + 1) * (k + 1)) + k


def write_file(path, g, transfer):
    with pario.WaveFunctionFile.create(path, BASIS, NVECTORS, g, overwrite=True, transfer=transfer) as wf:
        assert wf.basis == BASIS and wf.nvectors == len(wf) == NVECTORS and wf.dimension == DIMENSION
        assert wf.transfer == ("independent" if transfer == "default" else transfer)
        assert all(math.isnan(x) for x in wf.observables(0)[:3]) and not wf.observables(0).written
        start, count = uneven(g.rank, g.size)
        wf.write(0, value(0, np.arange(start, start + count)), start=start)
        start, count = wf.even_split()
        wf.write(1, value(1, np.arange(start, start + count)).astype(np.float32).astype(np.float64))
        wf.write(1, value(1, np.arange(start, start + count)))  # again: replaced
        assert wf.observables(0).written and wf.observables(1).written and not wf.observables(2).written
        # A read in the same run, of another rank's part.
        other = (g.rank + 1) % g.size
        o_start, o_count = uneven(other, g.size)
        assert np.array_equal(wf.read(0, o_start, o_count), value(0, np.arange(o_start, o_start + o_count)))


def check_with_h5py(path):
    import h5py
    with h5py.File(path, "r") as f:
        basis = f["basis"].attrs
        assert int(basis["dimension"]) == DIMENSION and int(basis["protons"]) == 3 and int(basis["parity"]) == 1
        assert float(basis["hbar_omega"]) == 20.0
        assert int(f["vectors"].attrs["count"]) == NVECTORS
        assert sorted(f["vectors"]) == ["00000", "00001", "00002"]
        for k in (0, 1):
            v = f[f"vectors/{k:05d}"]
            assert v.shape == (DIMENSION,) and v.dtype == np.float64
            assert np.array_equal(v[...], value(k, np.arange(DIMENSION)))
            assert int(v.attrs["pario_written"]) == 1 and math.isnan(float(v.attrs["energy"]))
        assert int(f["vectors/00002"].attrs["pario_written"]) == 0


def read_back(path, comm, writers):
    """On comm's ranks: each reads its even split and the whole vector, and
    rank 0 writes the observables, which every rank sees after a reopen."""
    with pario.WaveFunctionFile.open(path, comm, mode="r+") as wf:
        assert wf.basis == BASIS
        for k in (0, 1):
            start, count = wf.even_split()
            assert np.array_equal(wf.read(k), value(k, np.arange(start, start + count)))
            out = np.empty(DIMENSION)
            assert wf.read(k, 0, DIMENSION, out=out) is out
            assert np.array_equal(out, value(k, np.arange(DIMENSION)))
        assert wf.read(0, DIMENSION - 3).size == 3 and wf.read(0, 5, 0).size == 0
        with pytest.raises(pario.NotFound):
            wf.read(2)  # never written
        wf.set_observables(0, energy=-31.5, J=1.0, T=0.0)
        wf.set_observables(1, energy=-29.25 - writers)
    with pario.WaveFunctionFile.open(path, comm) as wf:
        assert tuple(wf.observables(0)) == (-31.5, 1.0, 0.0, True)
        e, j, t, written = wf.observables(1)
        assert e == -29.25 - writers and math.isnan(j) and math.isnan(t) and written
        with pytest.raises(pario.StateError):
            wf.set_observables(0, 1.0, 1.0, 1.0)  # read-only


@pytest.mark.parametrize("transfer", ["default", "collective", "aggregators"])
def test_written_on_all_read_by_h5py_and_on_other_rank_counts(transfer):
    g = pario.Group()
    path = shared_path(f"py_wf_{transfer}.h5")
    write_file(path, g, transfer)
    g.barrier()
    if g.rank == 0:
        check_with_h5py(path)
    g.barrier()
    on_fewer_ranks(g, [1, max(1, g.size // 2), g.size], lambda comm: read_back(path, comm, g.size))


def test_errors_raise_on_every_rank():
    g = pario.Group()
    last = g.size - 1
    path = shared_path("py_wf_errors.h5")

    raises = functools.partial(fault_at, g)  # raises(mine, at): what this rank expects when rank at is at fault
    # A path os.fspath refuses, on one rank: every rank fails, none waits.
    with pytest.raises(raises(pario.InvalidArgument, 0)) as e:
        pario.WaveFunctionFile.create(None if g.rank == 0 else path, BASIS, 2, g, overwrite=True)
    if g.rank == 0:
        assert "path None" in str(e.value)
    with pytest.raises(raises(pario.InvalidArgument, last)) as e:
        pario.WaveFunctionFile.create(path, BASIS, 2, g, overwrite=True,
                                      transfer="fastest" if g.rank == last else "default")
    if g.rank == last:
        assert "transfer 'fastest'" in str(e.value)
    with pytest.raises(pario.InvalidArgument, match="parity"):
        pario.WaveFunctionFile.create(path, dict(vars(BASIS), parity=0), 2, g, overwrite=True)
    with pytest.raises(raises(pario.InvalidArgument, 0)):
        pario.WaveFunctionFile.create(path, "a basis" if g.rank == 0 else BASIS, 2, g, overwrite=True)
    with pytest.raises(pario.InvalidArgument):
        pario.WaveFunctionFile.create(path, BASIS, pario._wavefunction.MAX_VECTORS + 1, g, overwrite=True)
    with pytest.raises(raises(pario.InvalidArgument, 0)):  # hbar_omega beyond a float, on one rank
        pario.WaveFunctionFile.create(path, dict(vars(BASIS), hbar_omega=10**400) if g.rank == 0 else BASIS, 2, g,
                                      overwrite=True)
    with pario.WaveFunctionFile.create(path, BASIS, 2, g, overwrite=True) as wf:
        start, count = wf.even_split()
        mine = value(0, np.arange(start, start + count))
        if g.size > 1:  # slices that do not tile the vector: every rank is told
            with pytest.raises(pario.InvalidArgument, match="slice sizes"):
                wf.write(0, mine[:-1] if g.rank == last else mine)  # one element short
            with pytest.raises(pario.InvalidArgument, match=f"rank {last}"):
                wf.write(0, mine, start=start - 1 if g.rank == last else start)  # overlaps rank last - 1
        with pytest.raises(raises(pario.InvalidArgument, 0)) as e:
            wf.write(0, mine.reshape(1, -1) if g.rank == 0 else mine)
        if g.rank == 0:
            assert "expected a 1-D array" in str(e.value)
        with pytest.raises(raises(pario.InvalidArgument, last)):
            wf.write(0, mine.astype(np.complex128) if g.rank == last else mine)
        with pytest.raises(raises(pario.OutOfRange, last)):
            wf.write(0, mine, start=DIMENSION if g.rank == last else start)
        with pytest.raises(pario.InvalidArgument):
            wf.write(2, mine)  # no vector 2
        with pytest.raises(raises(pario.InvalidArgument, 0)):
            wf.write("first" if g.rank == 0 else 0, mine)
        # A start beyond 64 bits on one rank: refused on every rank (it once
        # raised OverflowError there alone, before the collective call).
        with pytest.raises(raises(pario.InvalidArgument, last)) as e:
            wf.write(0, mine, start=2**70 if g.rank == last else start)
        if g.rank == last:
            assert "start 1180591620717411303424" in str(e.value)
        with pytest.raises(pario.NotFound):
            wf.read(0)  # the failures above wrote nothing whole
        wf.write(0, mine)
        with pytest.raises(raises(pario.OutOfRange, last)):
            wf.read(0, DIMENSION - 1, 2 if g.rank == last else 1)
        with pytest.raises(raises(pario.InvalidArgument, 0)):
            wf.read(0, out=np.empty(count, np.float32) if g.rank == 0 else None)
        with pytest.raises(raises(pario.InvalidArgument, last)):
            wf.read(0, start, -2**64 if g.rank == last else count)
        # No memory for the slice on one rank (2^59 bytes, beyond any address
        # space): MemoryError there and RemoteError elsewhere (it was raised
        # before the collective call, and the others waited in it for ever).
        with pytest.raises(raises(MemoryError, last)):
            wf.read(0, start, 2**56 if g.rank == last else count)
        with pytest.raises(raises(pario.InvalidArgument, last)):
            wf.set_observables(0, energy="low" if g.rank == last else -1.0)
        if g.size > 1:
            with pytest.raises(pario.InvalidArgument, match="differ between ranks"):
                wf.set_observables(0, energy=-1.0 if g.rank == 0 else -2.0)  # values must match
        assert np.array_equal(wf.read(0), mine)
    with pytest.raises(pario.Exists):
        pario.WaveFunctionFile.create(path, BASIS, 2, g)
    with pytest.raises(pario.NotFound):
        pario.WaveFunctionFile.open(shared_path("py_wf_missing.h5"), g)
    with pytest.raises(pario.InvalidArgument, match="mode 'w'"):
        pario.WaveFunctionFile.open(path, g, mode="w")
    with pario.WaveFunctionFile.open(path, g) as wf:
        with pytest.raises(pario.StateError):
            wf.write(0, mine)
    not_wf = plain_hdf5(g, shared_path("py_wf_not.h5"))
    with pytest.raises(pario.Corrupt):
        pario.WaveFunctionFile.open(not_wf, g)
    with pytest.raises(pario.Exists):  # overwrite replaces only a wave-function file
        pario.WaveFunctionFile.create(not_wf, BASIS, 2, g, overwrite=True)


def test_hints_reach_the_aggregators(tmp_path):
    """One aggregator with a 64-byte buffer moves a vector of 1001 doubles
    (8008 bytes) in 126 rounds each way, the defaults in at most one; the
    values read back either way (a fresh one-rank job with statistics on)."""
    from conftest import run_with_stats
    if pario.Group().rank != 0:
        return
    body = (f"basis = pario.WaveFunctionBasis(**{vars(BASIS)!r})\n"
            "rounds = {}\n"
            "for name, hints in (('default', {}), ('hinted', dict(aggregators=1, buffer_size=64, buffering='always'))):\n"
            "    path = sys.argv[1] + name\n"
            "    before = pario.stats()['collective']\n"
            "    with pario.WaveFunctionFile.create(path, basis, 1, overwrite=True, transfer='aggregators', **hints) as wf:\n"
            "        wf.write(0, np.arange(1001.0))\n"
            "    with pario.WaveFunctionFile.open(path, transfer='aggregators', **hints) as wf:\n"
            "        assert np.array_equal(wf.read(0), np.arange(1001.0))\n"
            "    after = pario.stats()['collective']\n"
            "    rounds[name] = [after[k]['rounds'] - before[k]['rounds'] for k in ('write', 'read')]\n"
            "print(json.dumps(rounds))\n")
    rounds = run_with_stats(tmp_path, body, [tmp_path / "wf"])
    assert rounds["hinted"] == [126, 126] and max(rounds["default"]) <= 1


def test_refused_or_differing_hints_fail_on_every_rank():
    """A hint C refuses (create and open), one this package refuses on one
    rank, and hints that differ between ranks (named), with any transfer."""
    g = pario.Group()
    last = g.size - 1
    path = shared_path("py_wf_hints.h5")
    pario.WaveFunctionFile.create(path, BASIS, 1, g, overwrite=True).close()
    with pytest.raises(pario.InvalidArgument, match=r"hints->buffer_size -1 is not in 0\.\."):
        pario.WaveFunctionFile.create(path, BASIS, 1, g, overwrite=True, buffer_size=-1)
    with pytest.raises(pario.InvalidArgument, match="hints->aggregators is negative"):
        pario.WaveFunctionFile.open(path, g, transfer="aggregators", aggregators=-1)
    with pytest.raises(fault_at(g, pario.InvalidArgument, last)) as e:
        pario.WaveFunctionFile.open(path, g, align="wide" if g.rank == last else None)
    if g.rank == last:
        assert "align 'wide': expected an integer or None" in str(e.value)
    if g.size > 1:
        with pytest.raises(pario.InvalidArgument, match=r"\(buffering\)"):
            pario.WaveFunctionFile.open(path, g, buffering="never" if g.rank % 2 else "always")
    with pario.WaveFunctionFile.open(path, g, transfer="aggregators", aggregators=1, buffer_size=64) as wf:
        assert wf.nvectors == 1
