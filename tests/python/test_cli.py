"""The pario command-line tool (tools/pario)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import pario

# One rank is enough (and two would race over the shared /dev/shm).
pytestmark = pytest.mark.skipif(pario.rank() != 0, reason="runs on rank 0 only")

TOOL = Path(__file__).resolve().parents[2] / "tools" / "pario"


def run(*args, env=None):
    return subprocess.run([str(TOOL), *args], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)


def test_usage_and_help():
    r = run()
    assert r.returncode == 2 and "usage: pario" in r.stderr
    for cmd in ("bench", "stats", "info", "clean", "exodus"):
        assert run(cmd, "--help").returncode == 0
    for sub in ("workload", "info", "diff", "plot"):
        assert run("exodus", sub, "--help").returncode == 0
    assert run("exodus").returncode == 2
    r = run("bench", "nosuch")
    assert r.returncode != 0 and "unknown benchmark nosuch" in r.stderr
    assert run("frobnicate").returncode == 2


def test_stats_reads_what_the_library_writes(tmp_path):
    script = tmp_path / "write.py"
    script.write_text(
        "import numpy as np, pario\n"
        f"with pario.File('{tmp_path}/data.0', 'w+') as f:\n"
        "    f.write(0, np.zeros(1000))\n"
        "    f.read(0, np.empty(1000))\n"
        "pario.finalize()\n")
    env = dict(os.environ, PARIO_STATS_FILE=str(tmp_path / "stats_%r.json"))
    # A separate process (its own singleton MPI), without mpiexec's variables.
    clean_env = {k: v for k, v in env.items()
                 if not k.startswith(("OMPI_", "PMIX_", "PMI_")) or k.startswith("OMPI_ALLOW")}
    done = subprocess.run([sys.executable, str(script)], env=clean_env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    stats = tmp_path / "stats_0.json"
    assert json.loads(stats.read_text())["files"][0]["write"]["bytes"] == 8000
    r = run("stats", str(stats))
    assert r.returncode == 0, r.stderr
    assert "data.0" in r.stdout and "write" in r.stdout and "7.8 KiB" in r.stdout
    assert run("stats", str(tmp_path / "missing.json")).returncode != 0


def test_info_describes_zarr_and_hdf5(tmp_path):
    import h5py
    h5 = tmp_path / "d.h5"
    with h5py.File(h5, "w") as f:
        f.attrs["writer"] = "test"
        f.create_dataset("energies", data=np.arange(12.0).reshape(3, 4), chunks=(1, 4))
    r = run("info", str(h5))
    assert r.returncode == 0 and "energies: shape (3, 4), float64, chunks (1, 4)" in r.stdout
    store = tmp_path / "a.zarr"
    store.mkdir()
    (store / "zarr.json").write_text(json.dumps({
        "zarr_format": 3, "node_type": "array", "shape": [100, 50], "data_type": "float64",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [10, 50]}},
        "codecs": [{"name": "bytes"}], "attributes": {"writer": "pario"}}))
    r = run("info", str(store))
    assert r.returncode == 0 and "shape (100, 50), float64, chunks (10, 50)" in r.stdout
    assert run("info", str(tmp_path / "nothing")).returncode == 1


def test_info_describes_a_store_pario_wrote(tmp_path):
    script = tmp_path / "store.py"
    script.write_text(
        "import numpy as np, pario\n"
        "with pario.GlobalArray((30, 20), np.int64) as a, "
        f"pario.DiskArray('{tmp_path}/s.zarr', (30, 20), np.int64, chunks=(8, 20)) as d:\n"
        "    a.fill(3)\n"
        "    d.write(a)\n"
        "pario.finalize()\n")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMPI_", "PMIX_", "PMI_")) or k.startswith("OMPI_ALLOW")}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    r = run("info", str(tmp_path / "s.zarr"))
    assert r.returncode == 0, r.stderr
    assert "shape (30, 20), int64, chunks (8, 20) in shards (32, 20), codecs bytes" in r.stdout
    assert "written by pario (shards of fixed-offset chunks, C order, uncompressed)" in r.stdout
    assert "2 files" in r.stdout  # zarr.json and one shard


def test_clean_removes_only_dead_jobs_segments(tmp_path):
    # In a private directory: any pario start on this machine clears dead
    # jobs' segments from /dev/shm itself, and tests run in parallel.
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)  # pid is now dead
    dead = tmp_path / f"pario.{os.getuid()}.{pid}.00000000cafef00d"
    alive = tmp_path / f"pario.{os.getuid()}.{os.getpid()}.00000000cafef00d"
    dead.write_bytes(b"x")
    alive.write_bytes(b"x")
    r = run("clean", "--shm-dir", str(tmp_path))  # not a terminal: lists, asks for --yes
    assert r.returncode == 1 and str(dead) in r.stdout and str(alive) not in r.stdout
    assert dead.exists()
    r = run("clean", "--yes", "--shm-dir", str(tmp_path))
    assert r.returncode == 0 and not dead.exists() and alive.exists()
    assert "nothing to remove" in run("clean", "--shm-dir", str(tmp_path)).stdout


# ---- tools/exodus_cli.py's pure parts (the commands run in exodus_cli_test) ----

sys.path.insert(0, str(TOOL.parent))
import exodus_cli  # noqa: E402


def test_pieces_cover_the_range_in_the_same_rounds_on_every_rank():
    for n, size, chunk in ((0, 3, 4), (10, 3, 4), (100, 4, 7), (5, 8, 1)):
        per_rank = [list(exodus_cli.pieces(n, r, size, chunk)) for r in range(size)]
        assert len({len(p) for p in per_rank}) == 1  # collective reads: same count everywhere
        covered = sorted(i for p in per_rank for lo, hi in p for i in range(lo, hi))
        assert covered == list(range(n))
        assert all(hi - lo <= chunk for p in per_rank for lo, hi in p)


def test_difference_counts_tolerance_nan_and_the_first_index():
    d = exodus_cli.Difference("v")
    a = np.array([1.0, 2.0, np.nan, 4.0])
    d.add(10, a, np.array([1.0, 2.0 * (1 + 1e-9), np.nan, 4.5]), rtol=1e-6, atol=0, exact=False)
    assert (d.count, d.differ, d.first) == (4, 1, (13, 4.0, 4.5))
    assert d.max_abs == 0.5 and abs(d.max_rel - 0.5 / 4.5) < 1e-15
    e = exodus_cli.Difference("v")
    e.add(0, a, np.array([1.0, 2.0 * (1 + 1e-9), np.nan, 4.0]), rtol=1e-6, atol=0, exact=True)
    assert (e.differ, e.first[0]) == (1, 1)  # bit for bit; NaN equals NaN
    z = exodus_cli.Difference("z")
    z.add(0, np.array([0.0, 1.0]), np.array([-0.0, 1.0]), rtol=0, atol=0, exact=True)
    assert z.differ == 1  # -0.0 is not 0.0 bit for bit, though equal
    merged = exodus_cli.Difference("v").merged([d.state(), e.state()])
    assert (merged.count, merged.differ, merged.first[0]) == (8, 2, 1)
    ints = exodus_cli.Difference("ids")
    ints.add(0, np.array([1, 2, 3]), np.array([1, 2, 4]), rtol=1, atol=1, exact=False)
    assert ints.differ == 1 and "max rel" not in ints.line()  # integers: exactly, whatever the tolerance


def test_slice_picks_the_nearest_plane_and_one_plane_of_a_grid():
    z = np.repeat(np.arange(11) / 10, 4)
    dist, plane = exodus_cli.nearest(z, 0.53)
    assert plane == 0.5 and abs(dist - 0.03) < 1e-12
    assert exodus_cli.nearest(np.array([0.4, 0.6]), 0.5)[1] == 0.4  # a tie: the lower
    assert exodus_cli.nearest(np.zeros(0), 0.5)[0] == np.inf
    half = exodus_cli.band(1.0, 11 ** 3)
    assert half < 0.05 and (np.abs(z - 0.5) <= half).sum() == 4  # less than half a spacing: one plane


def test_workload_formulas_match_the_shared_description():
    w = exodus_cli.Workload(3, 2, 4, 2, mixed=True)
    assert (w.cells, w.cells1, w.nodes, w.elements) == (24, 12, 60, 12 + 6 * 12)
    assert w.title == "pario-exodus-workload MIXED 3x2x4 T=2"
    corners = w.corners(np.array([0]))[0]
    assert list(corners) == [0, 1, 5, 4, 12, 13, 17, 16]
    elems, conn = w.upper_elements(np.array([12]))  # the first upper cell: six tetrahedra
    upper = w.corners(np.array([12]))[0]
    assert list(elems) == list(range(12, 18)) and list(conn[0]) == [upper[i] for i in (0, 1, 2, 6)]
    cen = w.centroids(conn[:1])
    x, y, z = w.coords(conn[0])
    assert cen[0][0] == (((x[0] + x[1]) + x[2]) + x[3]) / 4  # left to right, as the workload says
    with pytest.raises(ValueError):
        exodus_cli.Workload(1, 1, 1, 1)
