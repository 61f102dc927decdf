"""bench/run dataset (issue 26), case 1: MFDn's wave-function file.

15 vectors of doubles (about 0.5 GiB and 2 GiB in all; --quick: 36 MB),
each rank holding a contiguous slice of each, written and read by pario's
wave-function file (pario/wavefunction.h, its default transfer and the two
others) and by the peers: the seed's baseline (rank 0 gathers and pwrites
raw binary; reads: rank 0 preads and scatters), parallel HDF5 directly
(independent and collective hyperslab writes into the same layout) and
MPI_File_write_at at computed offsets (the limit for one shared file), at
P = 1, 2, 4. One MPI job per implementation, rank count and repetition
(bench/dataset/wavefunction_bench.c), the implementations' order turning
with the repetition; each job writes into the page cache, writes flushed
(fdatasync included), reads warm, evicts the file (posix_fadvise) and
reads cold, verifying every value of every write and read.

Sizes: PARIO_BENCH_DATASET_SIZES (GiB, comma-separated; default 0.5,2;
quick 0.035), PARIO_BENCH_DATASET_RANKS (default 1,2,4),
PARIO_BENCH_DATASET_REPS (default 3, quick 1; at 2 GiB one repetition
unless set).

Case 2 of the issue (a PDS time series on an unstructured mesh) is not
here yet."""
import os
import shutil
import statistics
import tempfile
from pathlib import Path

VECTORS = 15
IMPLS = ["pario", "gather", "h5-independent", "h5-collective", "mpiio", "pario-collective", "pario-aggregators"]
PEERS = ["gather", "h5-independent", "h5-collective", "mpiio", "pario-collective", "pario-aggregators"]
OPS = ["write flushed", "write page cache", "read warm", "read cold"]
BUFFER_MIB = 16  # PARIO_AGGREGATOR_BUFFER's default: the collective buffer


def targets(op, p):
    """Issue 26's targets for the MFDn file, medians at every P."""
    t = {}
    if op == "write flushed":
        t = {"pario/mpiio": 0.95, "pario/h5-independent": 1.0}
    if op.startswith("write"):
        # the default transfer (independent) is the fastest measured
        t.update({"pario/pario-collective": 1.0, "pario/pario-aggregators": 1.0})
    if p == 4:
        t.update({"write page cache": {"pario/gather": 1.5}, "read warm": {"pario/gather": 4.0},
                  "read cold": {"pario/gather": 2.5}}.get(op, {}))
    return t


def run(args, d):
    """d: the driver module (its helpers: binary, mpiexec, run_json_lines,
    ratio_rows, paired_ratios, progress, page_cache_fields, fs_type)."""
    quick = args.quick
    sizes = [float(s) for s in os.environ.get("PARIO_BENCH_DATASET_SIZES", "0.035" if quick else "0.5,2").split(",")]
    rank_counts = ([args.ranks] if args.ranks else
                   [int(p) for p in os.environ.get("PARIO_BENCH_DATASET_RANKS", "1,2,4").split(",")])
    reps_env = os.environ.get("PARIO_BENCH_DATASET_REPS")
    scratch = Path(os.environ.get("PARIO_SCRATCH", "/tmp").split(":")[0])
    launcher, env = d.mpiexec()
    launcher = launcher + ["--bind-to", "none"]
    exe = d.binary("wavefunction_bench")
    workdir = Path(tempfile.mkdtemp(prefix="pario-bench-dataset-", dir=scratch))
    samples, seconds, memory, loads = {}, {}, {}, []
    plan = []
    for gib in sizes:
        reps = int(reps_env) if reps_env else (1 if quick or gib > 1 else 3)
        dim = int(gib * 2**30 / (8 * VECTORS))
        plan.append((gib, dim, reps))
    total = sum(reps * len(rank_counts) * len(IMPLS) for _, _, reps in plan)
    done = 0
    try:
        for gib, dim, reps in plan:
            label = f"{gib:g} GiB" if gib >= 0.1 else f"{dim * 8 * VECTORS / 1e6:.0f} MB"
            for rep in range(reps):
                for p in rank_counts:
                    order = IMPLS[rep % len(IMPLS):] + IMPLS[:rep % len(IMPLS)]
                    for impl in order:
                        os.sync()  # earlier jobs' dirty pages are not this job's to write
                        loads.append(os.getloadavg()[0])
                        cmd = launcher + ["-n", str(p), exe, "--impl", impl, "--dir", str(workdir),
                                          "--dim", str(dim), "--vectors", str(VECTORS)]
                        for r in d.run_json_lines(cmd, env):
                            case = f"MFDn {label} {r['op']}, P={p}"
                            mbps = r["bytes"] / r["seconds"] / 1e6
                            samples.setdefault(case, {}).setdefault(impl, []).append(mbps)
                            seconds.setdefault(case, {}).setdefault(impl, []).append(r["seconds"])
                            memory.setdefault(case, {}).setdefault(impl, []).append(r["peak_mib"])
                        for f in workdir.iterdir():
                            f.unlink()
                        done += 1
                        d.progress(done, total, f"{label} rep {rep + 1}/{reps} P={p} {impl}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return result(quick, samples, seconds, memory, loads, plan, launcher[0], d.fs_type(scratch), d)


def result(quick, samples, seconds, memory, loads, plan, mpi, file_system, d):
    """The dataset result from samples {case: {impl: [MB/s]}} and, by the
    same keys, seconds and peak MiB per rank (memory); loads: the load
    average at each job's start; plan: (GiB, elements, repetitions) per
    size; d: the driver module."""
    def case_p(case):
        return int(case.rsplit("P=", 1)[1])

    def case_op(case):
        return next(op for op in OPS if f" {op}," in case)

    def extra(case):
        p = case_p(case)
        med = {impl: statistics.median(v) for impl, v in seconds[case].items()}
        per_rank = {impl: [round(statistics.median(m[r] for m in ms), 1) for r in range(len(ms[0]))]
                    for impl, ms in memory[case].items()}
        return {"page_cache": "cold" if case_op(case) in ("write flushed", "read cold") else "warm",
                "seconds": {impl: round(s, 4) for impl, s in med.items()},
                "cost_rank_seconds": {impl: round(p * s, 4) for impl, s in med.items()},
                "peak_mib_per_rank": per_rank}

    rows = d.ratio_rows(samples, "pario", PEERS, lambda case: targets(case_op(case), case_p(case)), extra)
    for row in rows:
        row["paired"] = d.paired_ratios(samples[row["case"]], row["ratios"])
        mem = row["peak_mib_per_rank"]
        if "pario" in mem and "mpiio" in mem:
            # peak memory per rank <= its own data + the collective buffer: pario's
            # peak against MPI-IO's (which holds only the rank's own data) + 16 MiB
            ok = all(a <= b + BUFFER_MIB for a, b in zip(mem["pario"], mem["mpiio"]))
            row["also_required"] = {f"pario peak MiB per rank <= mpiio's + {BUFFER_MIB}": ok}
            if row["met"] is not None:
                row["met"] = row["met"] and ok
        row["unit"] = "MB/s"
    summary = [f"load average at each job's start: median {statistics.median(loads):.1f}, "
               f"min {min(loads):.1f}, max {max(loads):.1f} (other engineers build on this machine)",
               "seconds (median), cost = P x seconds, and peak MiB per rank (getrusage, the job's whole life):"]
    for row in rows:
        summary.append(f"  {row['case']}: " + "; ".join(
            f"{impl} {row['seconds'][impl]:.3f} s / {row['cost_rank_seconds'][impl]:.3f} rank-s / "
            f"{'/'.join(f'{m:.0f}' for m in row['peak_mib_per_rank'][impl])} MiB" for impl in row["seconds"]))
    return {"benchmark": "dataset", "quick": quick, "summary": summary,
            **d.page_cache_fields(rows, "write page cache: the dirty pages of earlier jobs synced first, the time "
                                        "ends at close (no sync); write flushed: create to close plus fdatasync of "
                                        "the file by rank 0; read warm: right after the flushed write; read cold: "
                                        "after every rank's posix_fadvise(DONTNEED) of the clean file"),
            "file_system": file_system,
            "load_average": {"median": round(statistics.median(loads), 2), "min": round(min(loads), 2),
                             "max": round(max(loads), 2), "samples": len(loads)},
            "workload": f"MFDn wave-function file: {VECTORS} float64 vectors of "
                        + ", ".join(f"{dim} ({gib:g} GiB)" for gib, dim, _ in plan)
                        + " elements, each rank a contiguous slice (pario_dataset_even_split)",
            "repetitions": max(reps for _, _, reps in plan),
            "repetitions_per_size": {f"{gib:g} GiB": reps for gib, _, reps in plan},
            "mpi": mpi, "statistic": "median",
            "method": "bench/dataset/wavefunction_bench.c, one MPI job per implementation, rank count and "
                      "repetition, the implementations' order turning with the repetition; an untimed warm-up "
                      "(one vector written and read) first; times are between barriers, over all ranks. pario: "
                      "pario_wavefunction_create + one pario_wavefunction_write per vector + close (read: open + "
                      "reads + close), default transfer (independent); pario-collective / pario-aggregators: the "
                      "same with PARIO_WF_TRANSFER_COLLECTIVE / _AGGREGATORS. gather: MPI_Gatherv of each vector "
                      "to rank 0, which pwrites it (reads: pread and MPI_Scatterv). h5-independent / "
                      "h5-collective: parallel HDF5's C API, a group of 15 float64 datasets allocated early, one "
                      "hyperslab per rank and vector, H5FD_MPIO_INDEPENDENT / _COLLECTIVE, collective metadata. "
                      "mpiio: MPI_File_write_at / read_at at computed offsets in one raw file. Every write is "
                      "verified value by value (page-cache write: an untimed read; flushed write: the warm read), "
                      "every read too. MB/s = data bytes / seconds.",
            "not_measured": "case 2 of issue 26 (PDS time series on an unstructured mesh) is not implemented yet",
            "rows": rows}
