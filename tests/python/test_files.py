"""Private and shared files from Python, at any number of ranks."""
import os
import stat

import numpy as np
import pytest

import pario


def scratch(name):
    return pario.scratch_path(name)  # "<dir>/<name>.<rank>"


def test_file_round_trip_with_numpy_and_bytes():
    path = scratch("py_file")
    data = np.arange(1000, dtype=np.float64)
    with pario.File(path, "w+") as f:
        f.write(0, data)
        f.write(8000, b"tail")
        assert f.length() == 8004 and len(f) == 8004
        back = f.read(0, np.empty(1000))
        assert np.array_equal(back, data)
        assert f.read(8000, 4) == b"tail"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    pario.File.remove(path)
    assert not os.path.exists(path)


def test_holes_read_as_zeros_and_past_end_is_out_of_range():
    path = scratch("py_holes")
    with pario.File(path, "w+") as f:
        f.write(4096, b"x")
        assert f.read(0, 16) == bytes(16)
        with pytest.raises(pario.OutOfRange) as e:
            f.read(4000, 200)
        assert "past end of file" in str(e.value) and e.value.code == 5
    pario.File.remove(path)


def test_async_requests_and_wait_all():
    path = scratch("py_async")
    blocks = [np.full(4096, i, np.uint8) for i in range(16)]
    with pario.File(path, "w+") as f:
        pario.wait_all([f.iwrite(i * 4096, b) for i, b in enumerate(blocks)])
        outs = [np.empty(4096, np.uint8) for _ in blocks]
        reqs = [f.iread(i * 4096, o) for i, o in enumerate(outs)]
        reqs[0].wait()
        pario.wait_all(reqs)
        assert all(np.array_equal(o, b) for o, b in zip(outs, blocks))
    pario.File.remove(path)


def test_errors_are_typed():
    with pytest.raises(pario.NotFound):
        pario.File(scratch("py_missing"), "r")
    with pytest.raises(pario.InvalidArgument):
        pario.File(scratch("py_badmode"), "rw")
    f = pario.File(scratch("py_closed"), "w+")
    f.close()
    f.close()  # idempotent
    with pytest.raises(pario.StateError):
        f.write(0, b"x")
    pario.File.remove(scratch("py_closed"))


def test_shared_file_round_robin_then_cross_read():
    me, n = pario.rank(), pario.size()
    path = pario.scratch_path("py_shared", per_rank=False)
    with pario.SharedFile(path, request_size=1000) as sf:
        for k in range(4):
            block = k * n + me
            sf.write(block * 1000, np.full(1000, block % 251, np.uint8))
        pario.Group().barrier()
        other = (me + 1) % n
        for k in range(4):
            block = k * n + other
            assert np.all(sf.read(block * 1000, np.empty(1000, np.uint8)) == block % 251)
        assert sf.length() == 4 * n * 1000
    assert not os.path.exists(path)  # leaving the block destroyed it


def test_stats_as_a_dict(tmp_path):
    """pario.stats() gives the counters as a dict. Statistics are switched
    on at start-up (PARIO_STATS=1), so this runs a fresh process."""
    from conftest import run_with_stats
    if pario.Group().rank != 0:
        return
    (record,) = run_with_stats(
        tmp_path,
        "path = sys.argv[1]\n"
        "with pario.File(path, 'w+') as f:\n"
        "    for i in range(3):\n"
        "        f.write(i * 4096, np.zeros(512))\n"
        "    f.read(0, np.empty(512))\n"
        "s = pario.stats()\n"
        "print(json.dumps([x for x in s['files'] if x['path'] == path]))\n",
        [tmp_path / "counted.dat"])
    assert record["write"]["calls"] == 3 and record["write"]["bytes"] == 3 * 4096
    assert record["read"]["calls"] == 1 and record["read"]["bytes"] == 4096
