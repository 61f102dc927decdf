"""kill -9 while writing: a 2-rank job writes a disk array 32 rows at a
time (and keeps a Files-in-Memory file in node-shared RAM); once it has
written some rows, one rank (or the whole job: every rank and mpiexec) is
killed with SIGKILL. Then a new pario job finds every row written before
intact, no file left under a temporary name and, once its own start-up has
cleared what dead jobs left, no segment of the killed ranks in /dev/shm;
and zarr-python reads the rows too (zarr_check.py).

    kill_test.py MPIEXEC DIR one|job      (the harness; CTest runs it)
    kill_test.py --writer DIR             (each rank of the killed job)
    kill_test.py --check DIR ROWS PIDS    (the new job, one rank)
"""
import os
import re
import signal
import subprocess
import sys
import threading

import numpy as np

ROWS, COLS, STEP = 512, 1024, 32


def values(r0, r1):
    i, j = np.meshgrid(np.arange(r0, r1, dtype=np.uint64), np.arange(COLS, dtype=np.uint64), indexing="ij")
    return ((i * COLS + j) * np.uint64(2654435761) % np.uint64(2**32)).astype(np.float64) / 7.0


def writer(dir_):
    import pario
    g = pario.Group()
    print(f"pid {g.rank} {os.getpid()}", flush=True)
    ram = pario.File(os.path.join(dir_, f"fim_kill.{g.rank}"), "w+")  # in RAM: PARIO_FIM=fim_kill*
    with pario.GlobalArray((ROWS, COLS), np.float64, name="kill_src") as a:
        if g.rank == 0:
            a[:, :] = values(0, ROWS)
        a.sync()
        with pario.DiskArray(os.path.join(dir_, "store"), (ROWS, COLS), np.float64, chunks=(16, COLS)) as d:
            step = 0
            while True:  # past the end, the same rows again: what was written stays right
                r0 = (step * STEP) % ROWS
                d.write(a, (slice(r0, r0 + STEP), slice(0, COLS)), at=(r0, 0))
                ram.write(step * 4096, bytes(4096))
                step += 1
                if g.rank == 0:
                    print(f"written {min(step * STEP, ROWS)}", flush=True)


def check(dir_, rows, pids):
    import pario
    pario.init()  # removes the node-shared segments dead jobs left
    store = os.path.join(dir_, "store")
    with pario.DiskArray(store, mode="r") as d, pario.GlobalArray((ROWS, COLS), np.float64, name="kill_dst") as b:
        d.read(b)
        b.sync()
        assert np.array_equal(b[0:rows, :], values(0, rows)), "rows written before the kill differ"
    temporaries = [os.path.join(root, f) for root, _, files in os.walk(dir_) for f in files if ".new." in f]
    assert not temporaries, f"files left under temporary names: {temporaries}"
    prefix = f"pario.{os.getuid()}."
    left = [n for n in os.listdir("/dev/shm") if n.startswith(prefix) and n[len(prefix):].split(".")[0] in pids]
    assert not left, f"segments of the killed ranks left in /dev/shm: {left}"
    with open(os.path.join(dir_, "manifest"), "w") as m:
        m.write(f"{rows}\n")
    print(f"kill_check: {rows} rows intact, no temporary names, no segments of ranks {' '.join(pids)}")


def harness(mpiexec, dir_, what):
    import shutil
    shutil.rmtree(dir_, ignore_errors=True)
    os.makedirs(dir_)
    env = dict(os.environ, PARIO_FIM="fim_kill*")
    job = subprocess.Popen(mpiexec + ["-n", "2", sys.executable, __file__, "--writer", dir_],
                           stdout=subprocess.PIPE, text=True, env=env, start_new_session=True)
    pids, rows, going = {}, [0], threading.Event()

    def read():  # to the end, so that mpiexec never writes into a closed pipe
        for line in job.stdout:  # MPICH's mpiexec may join two ranks' lines into one
            for rank, pid in re.findall(r"pid (\d+) (\d+)", line):
                pids[int(rank)] = pid
            for written in re.findall(r"written (\d+)", line):
                if not going.is_set():
                    rows[0] = max(rows[0], int(written))
            if len(pids) == 2 and rows[0] >= 6 * STEP:
                going.set()
        going.set()  # the job ended before: the assertion below says so

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    going.wait(timeout=60)
    rows = rows[0]
    assert len(pids) == 2 and rows >= 6 * STEP, f"the writer did not get going (pids {pids}, rows {rows})"
    if what == "one":
        os.kill(int(pids[1]), signal.SIGKILL)
    else:
        for pid in pids.values():
            os.kill(int(pid), signal.SIGKILL)
        os.killpg(job.pid, signal.SIGKILL)
    try:
        # mpiexec ends the job when one rank dies, but not always at once
        # (once in four runs here it still ran a minute later): then the
        # rest is killed too, as in the "job" case.
        job.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(job.pid, signal.SIGKILL)
        job.wait()
    reader.join(timeout=10)
    # rows: what rank 0 reported complete before the kill
    subprocess.run([sys.executable, __file__, "--check", dir_, str(rows)] + list(pids.values()), check=True)
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([sys.executable, os.path.join(here, "zarr_check.py"), os.path.join(dir_, "store"),
                    os.path.join(dir_, "manifest")], check=True)


if __name__ == "__main__":
    if sys.argv[1] == "--writer":
        writer(sys.argv[2])
    elif sys.argv[1] == "--check":
        check(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
    else:
        harness([word for word in sys.argv[1].split(";") if word], sys.argv[2], sys.argv[3])
