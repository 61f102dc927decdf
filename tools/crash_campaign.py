#!/usr/bin/env python3
"""Kills a dataset writer (SIGKILL, as kill -9) at random moments, many
times over, and checks after every kill what the restart finds: the
evidence behind the crash-safety promise of pario/dataset.h, in numbers.

    tools/crash_campaign.py [--mode one|step|two] [--ranks 2] [--kills 50]
                            [--max-delay 3.0] [--seed 1] [--dir /tmp]
                            [--build build/release] [--mpiexec "mpiexec;FLAGS"]

One dataset grows over the whole campaign. Each round starts a writer
(mpiexec -n RANKS, this file with --worker) that opens the dataset
read-write (or creates it), checks everything it lists, then appends state
segments without end, and kills the job after a random delay: while it
writes, or (one round in five) at any moment, during the open's recovery
too. Each segment has a rank-ordered scalar and 3-vector section of a
size drawn per segment (1 to 60,000 items a rank) and a segment info of
8 bytes to 16 MB (past HDF5's 2 MiB metadata cache, so its group can
reach the file before the segment ends); every fifth segment also
rewrites a dataset info (the entry file changed mid-run).

A segment counts as ended once the append of the next one returned (that
append writes it out, with its pario_ended mark and the sync policy's
fsync): the worker then logs it (rank 0, fsynced). What must hold after
every kill, and is checked by the next round's open:
  - the dataset opens (read-write);
  - every segment it lists reads back bit for bit: its time index and
    value, both sections and the info;
  - the listed segments are 0, 1, ... with none missing, and include
    every segment logged as ended;
  - the dataset info is one the writer wrote;
  - the next time index can be appended again (the round goes on).
A failure stops the campaign and keeps a copy of the files. The summary
line counts the rounds, the segments written, those cut short by the kill
(appended, never ended, then not listed) and the damaged restarts (0 is
the promise).
"""
import argparse
import importlib.util
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODES = {"one": ("one_file", 0), "step": ("file_per_step", 0), "two": ("steps_per_file", 2)}
INFO_BYTES = [8, 8, 800, 80_000, 400_000, 3_000_000, 16_000_000]


# ------------------------------------------------------------ the worker --

def plan(t):
    """What segment t holds, the same on every rank and every run."""
    import numpy as np
    rng = np.random.default_rng(t)
    items = int(rng.integers(1, 60_000))
    info_words = max(1, int(rng.choice(INFO_BYTES)) // 8)
    return items, info_words


def expected(t, size):
    import numpy as np
    items, info_words = plan(t)
    total = items * size
    temp = t * 1e7 + np.arange(total, dtype=np.float64)
    j = np.arange(total, dtype=np.int64)[:, None] * 3 + np.arange(3)[None, :]
    vel = ((t * 7 + j) % (2 ** 31)).astype(np.int32)
    blob = np.arange(info_words, dtype=np.int64) + t
    return items, temp, vel, blob


def check(ds, comm, ended_log):
    """Everything the dataset lists, against what the writer wrote."""
    import numpy as np
    size = comm.Get_size()
    logged = comm.bcast(last_logged(ended_log) if comm.Get_rank() == 0 else None, root=0)
    segments = ds.segments
    problems = []
    if len(segments) < logged + 1:
        problems.append(f"{len(segments)} segments listed, but segment {logged} had ended")
    names = list(ds.variables)
    if segments and names[:2] != ["temp", "vel"]:  # before a segment, a kill may come between the two
        problems.append(f"variables {names}")
    for s in segments:
        t = s.index
        if s.kind != "state" or s.time_index != t or s.time_value != t * 0.5:
            problems.append(f"segment {t}: {s!r}")
            continue
        items, temp, vel, blob = expected(t, size)
        got_temp = ds.read(s, "temp")
        start, count = ds.even_split(items * size)
        if not np.array_equal(got_temp, temp[start:start + count]):
            problems.append(f"segment {t}: temp differs")
        got_vel = ds.read(s, "vel")
        if not np.array_equal(got_vel, vel[start:start + count]):
            problems.append(f"segment {t}: vel differs")
        info = s.infos["blob"]
        if not np.array_equal(info, blob):
            problems.append(f"segment {t}: info blob of {info.size} words differs (want {blob.size})")
    if "count" in ds.infos:
        c = ds.infos["count"]
        if c.size != 1 or c[0] % 5 != 0 or c[0] > len(segments):
            problems.append(f"dataset info count {c} for {len(segments)} segments")
    return len(segments), logged, problems


def log(path, t, durable):
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    os.write(fd, f"{t}\n".encode())
    if durable:
        os.fsync(fd)
    os.close(fd)


def last_logged(path):
    """The last number of a log, -1 when there is none."""
    try:
        with open(path) as f:
            lines = [line for line in f.read().split("\n") if line]
    except FileNotFoundError:
        return -1
    return int(lines[-1]) if lines else -1


def worker(args):
    import numpy as np
    import pario
    from mpi4py import MPI  # after pario: it points mpi4py at pario's MPI
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    path = args.worker
    ended_log = path + ".ended"
    file_mode, steps = MODES[args.mode]
    ds = None
    if os.path.exists(path):
        try:
            ds = pario.Dataset.open(path, comm, "r+")
        except pario.Error as e:
            # Killed after create, before anything was written out: the
            # entry file may not open, and there was no segment to lose
            # (pario/dataset.h): remove it and create again. Not so once a
            # segment has ended.
            if last_logged(ended_log) >= 0 or not isinstance(e, pario.Corrupt):
                if rank == 0:
                    print(f"DAMAGED the open failed: {e}", flush=True)
                comm.Abort(3)
            if rank == 0:
                for f in Path(path).parent.iterdir():
                    if f.name.startswith(Path(path).stem + ".") and f.suffix == ".h5":
                        f.unlink()
                os.unlink(path)
            comm.Barrier()
    if ds is not None:
        listed, logged, problems = check(ds, comm, ended_log)
        problems = sum(comm.allgather(problems), [])
        if problems:
            if rank == 0:
                print("DAMAGED " + "; ".join(sorted(set(problems))[:8]), flush=True)
            comm.Abort(3)
    else:
        ds = pario.Dataset.create(path, comm, file_mode=file_mode, steps_per_file=steps)
        listed, logged = 0, -1
    for name, shape, dtype in (("temp", (), np.float64), ("vel", (3,), np.int32)):
        if name not in ds.variables:  # a new dataset, or one killed between its registrations
            ds.register(name, shape, dtype)
    if rank == 0:
        print(f"READY {listed} {logged}", flush=True)
    if args.check_only:
        ds.close()
        return
    t = listed
    while True:
        seg = ds.append_segment("state", t, t * 0.5)
        if rank == 0:  # logs, not stdout: the launcher's forwarding loses the last lines at a kill
            log(path + ".appended", t, durable=False)
            if t > 0:  # the append wrote segment t-1 out: it has ended
                log(ended_log, t - 1, durable=True)
        items, temp, vel, blob = expected(t, size)
        ds.write_ranked(seg, "temp", temp[rank * items:(rank + 1) * items])
        seg.infos["blob"] = blob
        ds.write_ranked(seg, "vel", vel[rank * items:(rank + 1) * items])
        if t % 5 == 0:
            ds.infos["count"] = np.array([t], np.int64)
        t += 1


# ------------------------------------------------------------ the driver --

def run_round(cmd, env, kill_after, wait_ready, timeout=120):
    """Starts the writer and kills its whole process group; returns
    (ready line or None, lines printed, whether it exited on its own,
    its exit status)."""
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         start_new_session=True)
    lines, ready = [], None
    start = time.monotonic()
    if wait_ready:
        for line in p.stdout:
            lines.append(line.rstrip())
            if line.startswith("READY") or line.startswith("DAMAGED"):
                ready = line.rstrip()
                break
            if time.monotonic() - start > timeout:
                break
    deadline = time.monotonic() + kill_after
    while time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.01)
    exited = p.poll() is not None
    # The whole session: Open MPI puts each rank in a process group of its
    # own, so killing mpiexec's group would leave the ranks writing.
    subprocess.run(["pkill", "-KILL", "-s", str(p.pid)], check=False)
    rest, _ = p.communicate()
    lines += rest.splitlines()
    if ready is None:
        ready = next((l for l in lines if l.startswith("READY") or l.startswith("DAMAGED")), None)
    return ready, lines, exited, p.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--check-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--mode", choices=sorted(MODES), default="one")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--max-delay", type=float, default=3.0, help="seconds after the open's check (at most)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dir", default=os.environ.get("PARIO_SCRATCH", "/tmp").split(":")[0])
    ap.add_argument("--build", help="a build directory whose Python package to use (default: PYTHONPATH's, "
                                    "else build/release's)")
    ap.add_argument("--mpiexec", default="mpiexec;--oversubscribe;--bind-to;none",
                    help="the launcher and its flags, ';'-separated (as CMake's lists)")
    args = ap.parse_args()
    if args.worker:
        return worker(args)

    rng = random.Random(args.seed)
    work = Path(args.dir) / f"pario-crash-{args.mode}-{os.getpid()}"
    work.mkdir(mode=0o700)
    path = work / "ds.h5"
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_mpi_yield_when_idle="1")
    if args.build or not env.get("PYTHONPATH"):
        pydir = Path(args.build or ROOT / "build" / "release") / "bindings" / "python"
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(pydir), env.get("PYTHONPATH")]))
    # The workers need mpi4py and NumPy: this interpreter's, else the
    # project's virtual environment's (scripts/setup.sh makes it).
    venv = ROOT / ".venv" / "bin" / "python"
    python = sys.executable if importlib.util.find_spec("mpi4py") or not venv.exists() else str(venv)
    cmd = [a for a in args.mpiexec.split(";") if a] + ["-n", str(args.ranks), python, __file__,
                                                       "--worker", str(path), "--mode", args.mode]
    cut = ended = anywhere = 0
    appended = 0  # segments the previous rounds appended (time indices 0..appended-1)
    began = time.monotonic()
    for k in range(args.kills):
        any_moment = rng.random() < 0.2  # the kill may land in the open's recovery
        anywhere += any_moment
        delay = rng.uniform(0, args.max_delay + (2.0 if any_moment else 0.0))
        ready, lines, exited, rc = run_round(cmd, env, delay, wait_ready=not any_moment)
        if ready and ready.startswith("DAMAGED") or (exited and rc not in (0, -9)):
            keep = work.with_name(work.name + "-failed")
            shutil.copytree(work, keep)
            print(f"round {k + 1}: the restart found damage (files kept in {keep}):\n  " + "\n  ".join(lines[-20:]))
            return 1
        if ready:  # appended but not listed: cut short by the last kill
            cut += max(0, appended - int(ready.split()[1]))
        ended = last_logged(str(path) + ".ended") + 1
        appended = last_logged(str(path) + ".appended") + 1
        sys.stderr.write(f"\r{k + 1}/{args.kills} kills, {ended} segments ended")
        sys.stderr.flush()
    ready, lines, exited, rc = run_round(cmd + ["--check-only"], env, 120, wait_ready=True)
    if not ready or not ready.startswith("READY") or rc != 0:
        print("\nthe final check failed:\n  " + "\n  ".join(lines[-20:]))
        return 1
    listed = int(ready.split()[1])
    cut += max(0, appended - listed)
    files = sum(1 for _ in work.iterdir())
    print(f"\ncrash campaign, mode {args.mode}, {args.ranks} ranks: {args.kills} kills ({anywhere} at any moment), "
          f"{ended} segments ended and all read back, {cut} cut short by a kill (appended, never ended, not "
          f"listed after), {listed} listed at the end, 0 damaged restarts; "
          f"{files} files, {time.monotonic() - began:.0f} s")
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
