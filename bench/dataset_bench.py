"""bench/run dataset (issue 26): MFDn's wave-function file (case 1) and a
PDS time series on an unstructured mesh (case 2).

Case 1: 15 vectors of doubles (about 0.5 GiB and 2 GiB in all; --quick:
36 MB), each rank holding a contiguous slice of each, written and read by
pario's wave-function file (pario/wavefunction.h, its default transfer and
the two others) and by the peers: the seed's baseline (rank 0 gathers and
pwrites raw binary; reads: rank 0 preads and scatters), parallel HDF5
directly (independent and collective hyperslab writes into the same layout)
and MPI_File_write_at at computed offsets (the limit for one shared file),
at P = 1, 2, 4. One MPI job per implementation, rank count and repetition
(bench/dataset/wavefunction_bench.c), the implementations' order turning
with the repetition; each job writes into the page cache, writes flushed
(fdatasync included), reads warm, evicts the file (posix_fadvise) and
reads cold, verifying every value of every write and read.

Case 2: a PDS time series (bench/dataset/pds_bench.c): an unstructured
mesh of 2 million nodes (--quick: 100 000) with shuffled, sparse global ids
spread over the ranks; a topology segment (the ids) and 10 state segments
of three variables (a scalar and a 3-vector of doubles, an int32), 736 MB
in all (--quick: 37 MB). pario writes global-ordered sections through
decompositions of the collective layer (by key, and by index from the
positions the key sort gives), with the sync policy "none" (nothing
written out before close, as the peers), as pario-write with "write" (a
segment's end writes HDF5's metadata out without an fsync) and as
pario-fsync with its default "fsync"; the peers: parallel HDF5 directly, each rank
its own rank-ordered hyperslab (independent, the PDS layout), the seed's
baseline (rank 0 gathers, puts the values in id order, pwrites raw binary)
and pwrite at computed offsets (every rank its rank-ordered pieces: the
limit for one shared file). One MPI job per rank count and repetition runs
all six, their order turning with the repetition; each writes into the
page cache and reads the series back warm, then writes flushed and reads
it back cold (evicted with posix_fadvise), every write and read checked;
a read gives each rank the values of its own nodes (pario through the same
decompositions; the limit: pread of its own pieces); a metadata probe (the
same series on 16 nodes per rank) times each segment.

Settings: PARIO_BENCH_DATASET_CASES (mfdn, pds; default both),
PARIO_BENCH_DATASET_RANKS (default 1,2,4). Case 1:
PARIO_BENCH_DATASET_SIZES (GiB, comma-separated; default 0.5,2; quick
0.035), PARIO_BENCH_DATASET_REPS (default 3, quick 1; at 2 GiB one
repetition unless set). Case 2: PARIO_BENCH_DATASET_NODES (default
2000000, quick 100000), PARIO_BENCH_DATASET_SEGMENTS (state segments,
default 10), PARIO_BENCH_DATASET_PDS_REPS (default 3, quick 1)."""
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

VECTORS = 15
IMPLS = ["pario", "gather", "h5-independent", "h5-collective", "mpiio", "pario-collective", "pario-aggregators"]
PEERS = ["gather", "h5-independent", "h5-collective", "mpiio", "pario-collective", "pario-aggregators"]
OPS = ["write flushed", "write page cache", "read warm", "read cold"]
BUFFER_MIB = 16  # PARIO_AGGREGATOR_BUFFER's default: the collective buffer

PDS_IMPLS = ["pario", "pario-write", "pario-fsync", "h5-ranked", "gather", "pwrite"]
PDS_PEERS = ["pario-write", "pario-fsync", "h5-ranked", "gather", "pwrite"]
PDS_OPS = ["write flushed", "write page cache", "read warm", "read cold"]
# "Metadata time per segment constant as segments grow": segment 1's time
# over the last segment's at least this. Not 1.0: one segment's fixed cost
# is a few milliseconds of collectives and an fsync, and the load of this
# shared machine moves such a time by more than 3 % from one segment to
# the next; a cost growing with the number of segments shows as a steady
# rise well beyond this.
METADATA_TARGET = 0.8


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


def memory_rule(rows, samples, d, reference):
    """Each row's side-by-side ratios, and issue 26's "peak memory per rank
    <= its own data + the collective buffer" as pario's peak against the
    reference's (an implementation holding only the rank's own data) +
    16 MiB, per rank: where it fails, the row is missed."""
    for row in rows:
        row["paired"] = d.paired_ratios(samples[row["case"]], row["ratios"])
        mem = row["peak_mib_per_rank"]
        if "pario" in mem and reference in mem:
            ok = all(a <= b + BUFFER_MIB for a, b in zip(mem["pario"], mem[reference]))
            row["also_required"] = {f"pario peak MiB per rank <= {reference}'s + {BUFFER_MIB}": ok}
            if row["met"] is not None:
                row["met"] = row["met"] and ok
        row["unit"] = "MB/s"


def run_mfdn(args, d, rank_counts, launcher, env, workdir, loads):
    """Case 1: its rows, summary and description (parts of the result)."""
    quick = args.quick
    sizes = [float(s) for s in os.environ.get("PARIO_BENCH_DATASET_SIZES", "0.035" if quick else "0.5,2").split(",")]
    reps_env = os.environ.get("PARIO_BENCH_DATASET_REPS")
    exe = d.binary("wavefunction_bench")
    samples, seconds, memory = {}, {}, {}
    plan = []
    for gib in sizes:
        reps = int(reps_env) if reps_env else (1 if quick or gib > 1 else 3)
        dim = int(gib * 2**30 / (8 * VECTORS))
        plan.append((gib, dim, reps))
    total = sum(reps * len(rank_counts) * len(IMPLS) for _, _, reps in plan)
    done = 0
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
    return mfdn_result(samples, seconds, memory, plan, d)


def mfdn_result(samples, seconds, memory, plan, d):
    """Case 1's part of the result from samples {case: {impl: [MB/s]}} and,
    by the same keys, seconds and peak MiB per rank (memory); plan: (GiB,
    elements, repetitions) per size; d: the driver module."""
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
    memory_rule(rows, samples, d, "mpiio")
    summary = ["MFDn: seconds (median), cost = P x seconds, and peak MiB per rank (getrusage, the job's whole life):"]
    for row in rows:
        summary.append(f"  {row['case']}: " + "; ".join(
            f"{impl} {row['seconds'][impl]:.3f} s / {row['cost_rank_seconds'][impl]:.3f} rank-s / "
            f"{'/'.join(f'{m:.0f}' for m in row['peak_mib_per_rank'][impl])} MiB" for impl in row["seconds"]))
    return {"rows": rows, "summary": summary,
            "page_cache_note": "MFDn: write page cache: the dirty pages of earlier jobs synced first, the time "
                               "ends at close (no sync); write flushed: create to close plus fdatasync of the "
                               "file by rank 0; read warm: right after the flushed write; read cold: after every "
                               "rank's posix_fadvise(DONTNEED) of the clean file",
            "workload": f"MFDn wave-function file: {VECTORS} float64 vectors of "
                        + ", ".join(f"{dim} ({gib:g} GiB)" for gib, dim, _ in plan)
                        + " elements, each rank a contiguous slice (pario_dataset_even_split)",
            "repetitions": max(reps for _, _, reps in plan),
            "repetitions_per_size": {f"{gib:g} GiB": reps for gib, _, reps in plan},
            "method": "MFDn: bench/dataset/wavefunction_bench.c, one MPI job per implementation, rank count and "
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
                      "every read too. MB/s = data bytes / seconds."}


def pds_targets(op):
    """Issue 26's targets for the PDS time series, medians at every P:
    flushed >= 0.95x the pwrite limit; in the page cache >= 1.2x the best
    peer (so 1.2x each of them; pwrite is the limit, not a peer). Reads,
    stated like the writes: cold (from disk) >= 0.95x the limit (each rank
    preads its own pieces); warm >= 1.2x the best peer."""
    if op in ("write flushed", "read cold"):
        return {"pario/pwrite": 0.95}
    return {"pario/h5-ranked": 1.2, "pario/gather": 1.2}


def run_pds(args, d, rank_counts, launcher, env, workdir, loads):
    """Case 2: runs bench/dataset/pds_bench.c, one job per rank count and
    repetition, and builds its part of the result (pds_result)."""
    quick = args.quick
    nodes = int(os.environ.get("PARIO_BENCH_DATASET_NODES", "100000" if quick else "2000000"))
    segments = int(os.environ.get("PARIO_BENCH_DATASET_SEGMENTS", "10"))
    reps = int(os.environ.get("PARIO_BENCH_DATASET_PDS_REPS", "1" if quick else "3"))
    exe = d.binary("pds_bench")
    records = []
    total, done = reps * len(rank_counts), 0
    for rep in range(reps):
        for p in rank_counts:
            order = PDS_IMPLS[rep % len(PDS_IMPLS):] + PDS_IMPLS[:rep % len(PDS_IMPLS)]
            os.sync()  # earlier jobs' dirty pages are not this job's to write
            loads.append(os.getloadavg()[0])
            cmd = launcher + ["-n", str(p), exe, "--impls", ",".join(order), "--dir", str(workdir),
                              "--nodes", str(nodes), "--segments", str(segments)]
            records += d.run_json_lines(cmd, env)
            for f in workdir.iterdir():
                f.unlink()
            done += 1
            d.progress(done, total, f"PDS rep {rep + 1}/{reps} P={p}")
    return pds_result(records, d, nodes, segments, reps)


def nodes_label(nodes):
    for div, unit in ((1e6, "M"), (1e3, "k")):
        if nodes >= div:
            return f"{nodes / div:g}{unit}"
    return str(nodes)


def median_per_rank(runs):
    """Per-rank medians of a list of per-rank lists (one per repetition)."""
    return [round(statistics.median(run[r] for run in runs), 1) for r in range(len(runs[0]))]


def pds_result(records, d, nodes, segments, reps):
    """Case 2's rows, summary and description from pds_bench's JSON lines
    (pure: tests/bench feeds it made-up lines). A write row per op and P
    (MB/s, ratios of pario to each peer, issue 26's targets, and pario's
    peak memory per rank against pwrite's + the collective buffer); a
    metadata row per P (ms at segment 1 and at the last segment, from the
    probe; the ratio segment 1 / last must stay near 1)."""
    label = nodes_label(nodes)
    samples, seconds, memory, base, setup, cpu, probe = {}, {}, {}, {}, {}, {}, {}
    for r in records:
        impl, p = r["impl"], r["ranks"]
        if r["op"] == "metadata probe":
            ms = probe.setdefault(p, {}).setdefault(impl, {"first": [], "last": [], "nodes": r["nodes"]})
            ms["first"].append(r["segment_ms"][1])
            ms["last"].append(r["segment_ms"][-1])
            continue
        case = f"PDS {label} nodes {r['op']}, P={p}"
        samples.setdefault(case, {}).setdefault(impl, []).append(r["bytes"] / r["seconds"] / 1e6)
        seconds.setdefault(case, {}).setdefault(impl, []).append(r["seconds"])
        memory.setdefault(case, {}).setdefault(impl, []).append(r["peak_mib"])
        base.setdefault(case, {}).setdefault(impl, []).append(r["base_mib"])
        setup.setdefault(case, {}).setdefault(impl, []).append(r["setup_seconds"])
        if "cpu_seconds" in r:
            cpu.setdefault(case, {}).setdefault(impl, []).append(r["cpu_seconds"])

    def case_p(case):
        return int(case.rsplit("P=", 1)[1])

    def case_op(case):
        return next(op for op in PDS_OPS if f" {op}," in case)

    def extra(case):
        p = case_p(case)
        med = {impl: statistics.median(v) for impl, v in seconds[case].items()}
        return {"page_cache": "cold" if case_op(case) in ("write flushed", "read cold") else "warm",
                "seconds": {impl: round(s, 4) for impl, s in med.items()},
                "cost_rank_seconds": {impl: round(p * s, 4) for impl, s in med.items()},
                "setup_seconds": {impl: round(statistics.median(v), 4) for impl, v in setup[case].items()},
                "peak_mib_per_rank": {impl: median_per_rank(ms) for impl, ms in memory[case].items()},
                "data_mib_per_rank": {impl: median_per_rank(ms) for impl, ms in base[case].items()},
                # CPU seconds (user + system) of the timed write, summed over
                # the ranks: the work itself, which the load does not inflate
                "cpu_seconds": {impl: round(statistics.median(sum(run) for run in runs), 3)
                                for impl, runs in cpu.get(case, {}).items()}}

    rows = d.ratio_rows(samples, "pario", PDS_PEERS, lambda case: pds_targets(case_op(case)), extra)
    memory_rule(rows, samples, d, "pwrite")
    first, last = "pario@seg1", f"pario@seg{segments}"
    key = f"{first}/{last}"
    for p in sorted(probe):
        by_impl = probe[p]
        row = {"case": f"PDS metadata per segment, P={p}", "unit": "ms", "subject": first, "page_cache": "warm",
               "probe_nodes": {impl: v["nodes"] for impl, v in by_impl.items()},
               "segment_ms": {impl: {"1": round(statistics.median(v["first"]), 3),
                                     str(segments): round(statistics.median(v["last"]), 3)}
                              for impl, v in by_impl.items()}}
        if "pario" in by_impl:
            pm = row["segment_ms"]["pario"]
            row["values"] = {first: pm["1"], last: pm[str(segments)]}
            row["samples"] = {first: [round(x, 3) for x in by_impl["pario"]["first"]],
                              last: [round(x, 3) for x in by_impl["pario"]["last"]]}
            row["ratios"] = {key: round(pm["1"] / pm[str(segments)], 3)} if pm[str(segments)] > 0 else {}
            row["target"] = {key: METADATA_TARGET}
            row["met"] = d.target_rules.met(row["ratios"], row["target"])
            row["paired"] = d.paired_ratios(row["samples"], row["ratios"])
        else:
            row.update(values={}, samples={}, ratios={}, target={}, met=None)
        rows.append(row)

    summary = ["PDS: seconds (median), cost = P x seconds, peak MiB per rank over the timed write or read "
               "(VmHWM after a reset; its data of every segment included, and a read's buffers), the "
               "decomposition or gather map setup (untimed) and the CPU seconds of the write or read over all "
               "ranks (user + system):"]
    for row in rows:
        if "seconds" in row:
            summary.append(f"  {row['case']}: " + "; ".join(
                f"{impl} {row['seconds'][impl]:.3f} s / {row['cost_rank_seconds'][impl]:.3f} rank-s / "
                f"{'/'.join(f'{m:.0f}' for m in row['peak_mib_per_rank'][impl])} MiB (data "
                f"{'/'.join(f'{m:.0f}' for m in row['data_mib_per_rank'][impl])}), setup "
                f"{row['setup_seconds'][impl]:.3f} s"
                + (f", CPU {row['cpu_seconds'][impl]:.3f} s" if impl in row["cpu_seconds"] else "")
                for impl in row["seconds"]))
        else:
            summary.append(f"  {row['case']} (ms at segment 1 / {segments}): " + "; ".join(
                f"{impl} {v['1']:.1f} / {v[str(segments)]:.1f}" for impl, v in row["segment_ms"].items()))
    data_mb = (8 * nodes + segments * 36 * nodes) / 1e6
    return {"rows": rows, "summary": summary,
            "page_cache_note": "PDS: write page cache: every dirty page synced first (untimed), the time ends "
                               "at close; write flushed: the same plus fdatasync of the file by rank 0 once "
                               "every rank closed it (pario-fsync also fsyncs the file at each segment's end: "
                               "H5Fflush, i.e. MPI_File_sync, in both; pario-write writes HDF5's metadata out "
                               "there without an fsync; pario writes nothing out before close); read warm: right after the page-cache write and its check; "
                               "read cold: after the flushed write, the file evicted (posix_fadvise DONTNEED)",
            "workload": f"PDS time series: {nodes} nodes with shuffled sparse ids (3 k + 1), a topology segment "
                        f"(node_id int64) and {segments} state segments of pressure (float64), velocity "
                        f"(3 x float64) and material (int32): {data_mb:.1f} MB",
            "repetitions": reps,
            "method": "PDS: bench/dataset/pds_bench.c, one MPI job per rank count and repetition running all six "
                      "implementations, their order turning with the repetition; per implementation a metadata "
                      "probe (the series on 16 nodes per rank, each segment timed between barriers), then the "
                      "untimed setup (pario: pario_decomp_create_keys of the ids and create_indices of the "
                      "positions it returns; gather: rank 0 gathers the ids and sorts them), then a write into "
                      "the page cache and a flushed write, each timed between barriers from create to close "
                      "(+ fdatasync) and checked after (pario and gather: each rank reads its even split of the "
                      "global order back and compares it with the ids that belong there; h5-ranked and pwrite: "
                      "each rank its own piece). pario: pario_dataset_create, 4 variables registered, "
                      "segment_append + pario_dataset_write_decomp per section, close. h5-ranked: parallel "
                      "HDF5's C API, a group per segment with 3 attributes, a dataset per section allocated "
                      "early with its per-rank counts, each rank one independent hyperslab write. gather: "
                      "MPI_Gatherv of each section to rank 0, put in id order, pwrite of a raw file. pwrite: "
                      "every rank pwrites its rank-ordered pieces into one raw file. Reads (open to close, every "
                      "rank its own nodes' values in its own order, compared after): pario "
                      "pario_dataset_read_decomp through the write's decompositions; h5-ranked its own "
                      "hyperslabs; gather: rank 0 preads each section, reorders it and MPI_Scatterv; pwrite: "
                      "pread of its own pieces (the limit). MB/s = data bytes / seconds."}


def run(args, d):
    """d: the driver module (its helpers: binary, mpiexec, run_json_lines,
    ratio_rows, paired_ratios, progress, page_cache_fields, fs_type,
    target_rules)."""
    cases = [c.strip() for c in os.environ.get("PARIO_BENCH_DATASET_CASES", "mfdn,pds").split(",") if c.strip()]
    if not cases or set(cases) - {"mfdn", "pds"}:
        sys.exit(f"bench/run dataset: PARIO_BENCH_DATASET_CASES={','.join(cases)}: a comma list of mfdn, pds")
    rank_counts = ([args.ranks] if args.ranks else
                   [int(p) for p in os.environ.get("PARIO_BENCH_DATASET_RANKS", "1,2,4").split(",")])
    scratch = Path(os.environ.get("PARIO_SCRATCH", "/tmp").split(":")[0])
    launcher, env = d.mpiexec()
    launcher = launcher + ["--bind-to", "none"]
    workdir = Path(tempfile.mkdtemp(prefix="pario-bench-dataset-", dir=scratch))
    loads, parts = [], []
    try:
        if "mfdn" in cases:
            parts.append(run_mfdn(args, d, rank_counts, launcher, env, workdir, loads))
        if "pds" in cases:
            parts.append(run_pds(args, d, rank_counts, launcher, env, workdir, loads))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return result(args.quick, cases, parts, loads, launcher[0], d.fs_type(scratch), d)


def result(quick, cases, parts, loads, mpi, file_system, d):
    """The dataset result from its cases' parts (run_mfdn's, run_pds's);
    loads: the load average at each job's start."""
    rows = [row for part in parts for row in part["rows"]]
    summary = [f"load average at each job's start: median {statistics.median(loads):.1f}, "
               f"min {min(loads):.1f}, max {max(loads):.1f} (other engineers build on this machine)"]
    out = {"benchmark": "dataset", "quick": quick, "cases": cases,
           "summary": summary + [line for part in parts for line in part["summary"]],
           **d.page_cache_fields(rows, " ".join(part["page_cache_note"] for part in parts)),
           "file_system": file_system,
           "load_average": {"median": round(statistics.median(loads), 2), "min": round(min(loads), 2),
                            "max": round(max(loads), 2), "samples": len(loads)},
           "workload": "; ".join(part["workload"] for part in parts),
           "repetitions": max(part["repetitions"] for part in parts),
           "mpi": mpi, "statistic": "median",
           "method": " ".join(part["method"] for part in parts),
           "not_measured": "PDS time series: pario's rank-ordered sections (case 2 writes global-ordered ones)",
           "rows": rows}
    for part in parts:
        if "repetitions_per_size" in part:
            out["repetitions_per_size"] = part["repetitions_per_size"]
    return out
