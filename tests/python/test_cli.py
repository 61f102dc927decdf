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
    for cmd in ("bench", "stats", "info", "clean"):
        assert run(cmd, "--help").returncode == 0
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
