"""bench/run dataset end to end on a tiny PDS time series (case 2 only):
3000 nodes, 2 state segments, 2 ranks, one repetition. Runs the driver as
a user would (bench/driver.py dataset --quick --out ...), so pds_bench's
six implementations write, read and check their files, and the driver builds
the rows, the JSON and the plot; then checks what the JSON says.
Usage: check_dataset_run.py BUILD_DIR (a build with bench/pds_bench)."""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main(build):
    with tempfile.TemporaryDirectory(prefix="dataset-run-", dir=build) as tmp:
        out = Path(tmp) / "dataset.json"
        env = dict(os.environ, PARIO_BUILD_DIR=build, PARIO_SCRATCH=tmp, PARIO_BENCH_DATASET_CASES="pds",
                   PARIO_BENCH_DATASET_NODES="3000", PARIO_BENCH_DATASET_SEGMENTS="2",
                   PARIO_BENCH_DATASET_RANKS="2", MPLBACKEND="Agg")
        run = subprocess.run([sys.executable, str(ROOT / "bench" / "driver.py"), "dataset", "--quick",
                              "--out", str(out)], env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
        result = json.loads(out.read_text())
        assert out.with_suffix(".png").stat().st_size > 0
    rows = {row["case"]: row for row in result["rows"]}
    assert sorted(rows) == ["PDS 3k nodes read cold, P=2", "PDS 3k nodes read warm, P=2",
                            "PDS 3k nodes write flushed, P=2", "PDS 3k nodes write page cache, P=2",
                            "PDS metadata per segment, P=2"], sorted(rows)
    impls = {"pario", "pario-write", "pario-fsync", "h5-ranked", "gather", "pwrite"}
    for op in ("write flushed", "write page cache", "read warm", "read cold"):
        row = rows[f"PDS 3k nodes {op}, P=2"]
        assert set(row["values"]) == impls, row
        assert all(v > 0 for v in row["values"].values()), row
        assert set(row["ratios"]) == {"pario/pario-write", "pario/pario-fsync", "pario/h5-ranked", "pario/gather",
                                      "pario/pwrite"}, row
        assert row["target"] and row["met"] in (True, False), row
        assert all(len(m) == 2 and min(m) > 0 for m in row["peak_mib_per_rank"].values()), row
        assert row["setup_seconds"]["pario"] > 0 and row["cpu_seconds"]["pario"] >= 0, row
    meta = rows["PDS metadata per segment, P=2"]
    assert set(meta["values"]) == {"pario@seg1", "pario@seg2"} and "pario@seg1/pario@seg2" in meta["ratios"], meta
    assert set(meta["segment_ms"]) == impls, meta
    assert result["cases"] == ["pds"] and result["load_average"]["samples"] == 1
    print("bench/run dataset (tiny PDS case): rows, JSON and plot as expected")


if __name__ == "__main__":
    main(sys.argv[1])
