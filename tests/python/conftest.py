# Every rank runs the same tests; only rank 0 reports verbosely.
import sys

import pario

pario.init()


def pytest_runtest_logreport(report):
    """A test that fails on one rank leaves the others waiting in a
    collective until the test's timeout, with nothing said. Under mpiexec,
    the first failure is printed and ends the whole job instead."""
    if report.failed and pario.size() > 1:
        sys.stderr.write(f"rank {pario.rank()}: {report.nodeid} failed ({report.when}):\n{report.longreprtext}\n")
        sys.stderr.flush()
        pario.abort(1)


def run_fresh(script, args, **env):
    """Runs a Python script as a singleton pario job of its own (without the
    launcher's environment), with extra environment variables: for settings
    pario reads once at start-up. Returns the CompletedProcess."""
    import os
    import subprocess
    import sys
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_", "PMI_", "HYDRA_"))}
    clean.update(env, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return subprocess.run([sys.executable, str(script), *map(str, args)], env=clean, capture_output=True,
                          text=True, timeout=120)


def run_with_stats(tmp_path, body, args, **env):
    """Runs body (Python after `import json, sys, numpy as np, pario` and
    pario.init(); it prints JSON on its last line) as a fresh singleton job
    with statistics on (PARIO_STATS=1, read at start-up) and extra
    environment variables. Returns what that JSON line holds."""
    import json
    script = tmp_path / "with_stats.py"
    script.write_text("import json, sys, numpy as np, pario\npario.init()\n" + body + "pario.finalize()\n")
    out = run_fresh(script, args, PARIO_STATS="1", **env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def sub_communicator(g, n):
    """An mpi4py communicator of ranks 0..n-1 of the world (None on the
    others; every rank calls it)."""
    from mpi4py import MPI
    comm = MPI.COMM_WORLD.Split(0 if g.rank < n else MPI.UNDEFINED, g.rank)
    return comm if g.rank < n else None


def on_fewer_ranks(g, counts, run):
    """For each n in counts (once each, smallest first): run(comm) on ranks
    0..n-1 with their own mpi4py communicator, the others waiting."""
    for n in sorted(set(counts)):
        comm = sub_communicator(g, n)
        if comm is not None:
            run(comm)
            comm.Free()
        g.barrier()


def fault_at(g, mine, at):
    """The exception this rank expects from a collective when rank `at` is
    at fault: `mine` there (and on a single rank), RemoteError elsewhere."""
    return mine if g.rank == at or g.size == 1 else pario.RemoteError


def plain_hdf5(g, path):
    """Rank 0 writes an HDF5 file that is no pario file (h5py), then every
    rank of g goes on; returns path."""
    if g.rank == 0:
        import h5py
        import numpy as np
        with h5py.File(path, "w") as f:
            f["x"] = np.arange(3)
    g.barrier()
    return path
