#!/usr/bin/env python3
"""Runs pario's reliability tests and writes docs/reliability.md: what was
tried, and what held (clean errors, crashes, hangs, data lost, leftovers).

    tools/reliability.py [--build build/release] [--asan build/asan] [--mpich build/mpich]
                         [--fuzz build/fuzz] [--fuzz-seconds 60] [--campaign-kills 30]
                         [--out docs/reliability.md]

Each build directory that exists is used (scripts/build.sh
release|asan|mpich|fuzz make them). Every number in the page comes from this run. A test that
passes has asserted its own conditions (every rank's status, the data read
back, no temporary file, no segment left; a watchdog turns a hang into a
failure), so its row says 0 where it held; a failing test says so and names
what it printed. The explanations below the table are docs/reliability_notes.md."""
import argparse
import datetime
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (ctest regex, what was tried, what "cases" counts, whether it checks leftovers)
SUITES = [
    (r"^capi_collective_matrix_test_np", "one rank fails in each collective (every PARIO_COLLECTIVE call, and "
     "waits on collective requests), then ranks disagree", r"(\d+) rows at", True),
    (r"^capi_bad_input_test_np", "sizes near INT64_MAX, overflowing shapes, foreign zarr.json, bad communicators",
     None, False),
    (r"^capi_disk_array_full", "one file per chunk, a write stopped midway (file-size limit)", None, True),
    (r"^disk_full_", "disk full (small tmpfs): private, shared, Files-in-Memory file, then the disk array",
     r"(\d+) of 512 rows written", True),
    (r"^kill_", "kill -9 of one rank / the whole job while writing a disk array and a RAM file",
     r"kill_check: (\d+) rows intact", True),
    (r"^dataset_bad_input_test_np", "crafted and damaged datasets: links (external, soft, symbolic), a FIFO, "
     "records damaged, files cut short, an entry file that cannot be written", None, False),
    (r"^dataset_faults_test_np", "HDF5 failing on one rank inside a dataset's collective steps (close, unlink, "
     "attribute and data writes)", None, False),
]


def ctest(build, regex):
    """(name, verdict, output) of each test matching regex."""
    run = subprocess.run(["ctest", "--test-dir", build, "-R", regex, "-V", "--timeout", "300"],
                         capture_output=True, text=True)
    found = []
    for m in re.finditer(r"^\s*\d+/\d+ Test +#(\d+): (\S+) \.+\s*(\*\*\*\w+|Passed|Not Run|\*\*\*Skipped)",
                         run.stdout, re.M):
        number, name, verdict = m.groups()
        out = "\n".join(l[len(number) + 2:] for l in run.stdout.splitlines() if l.startswith(number + ": "))
        skipped = "Skipped" in verdict or "skipped" in out
        found.append((name, "skipped" if skipped else "held" if verdict == "Passed" else verdict.strip("*"), out))
    return found


def checks(out):
    passed = sum(int(n) for n in re.findall(r": (\d+) passed", out))
    failed = sum(int(n) for n in re.findall(r"(\d+) failed", out))
    return f"{passed} checks passed, {failed} failed" if passed or failed else "-"


def test_rows(build, mpi):
    rows = []
    for regex, what, cases, leftovers in SUITES:
        for name, verdict, out in ctest(build, regex):
            held = verdict == "held"
            m = re.search(cases, out) if cases else None
            case = m.group(1) + (" rows" if "matrix" in name else " rows kept") if m else "-"
            hang = re.search(r"HANG in case (.+)", out)
            rows.append([f"{what} ({name}, {mpi})", case, checks(out),
                         "0" if held else ("?" if verdict != "skipped" else "-"),
                         "0" if held else (f"1 ({hang.group(1)})" if hang else "?"),
                         "0" if held else "?", ("none" if held else "?") if leftovers else "-", verdict])
    return rows


def fuzz_rows(build, seconds):
    run = subprocess.run([os.path.join(HERE, "scripts", "fuzz.sh"), str(seconds)], capture_output=True, text=True)
    rows = []
    for target in ("zarr_meta_fuzz", "shard_index_fuzz", "netcdf_header_fuzz", "capi_args_fuzz"):
        log = os.path.join(build, f"{target}.log")
        text = open(log).read() if os.path.exists(log) else ""
        units = re.search(r"stat::number_of_executed_units: (\d+)", text)
        bad = bool(re.search(r"ERROR|runtime error|deadly signal", text))
        rows.append([f"libFuzzer {target}, {seconds} s, ASan+UBSan", f"{units.group(1) if units else '?'} inputs",
                     "-", "1" if bad else "0", "0", "-", "-", "FAILED" if bad or run.returncode else "held"])
    return rows


def campaign_rows(build, kills):
    """tools/crash_campaign.py: a dataset writer killed at random moments."""
    rows = []
    for mode in ("one", "step"):
        run = subprocess.run([sys.executable, os.path.join(HERE, "tools", "crash_campaign.py"), "--mode", mode,
                              "--kills", str(kills), "--build", build], capture_output=True, text=True)
        m = re.search(r"(\d+) kills \((\d+) at any moment\), (\d+) segments ended and all read back, (\d+) cut",
                      run.stdout)
        held = run.returncode == 0 and m is not None
        what = (f"kill -9 of a 2-rank dataset writer at random moments, {'one file' if mode == 'one' else 'a file per step'}"
                f" (tools/crash_campaign.py)")
        cases = f"{m.group(1)} kills, {m.group(3)} segments ended, {m.group(4)} cut short" if m else "?"
        # The campaign's own verdict ("round N: the restart found damage",
        # then the open's error) rather than its last progress line.
        text = run.stdout + run.stderr
        damaged, at = re.search(r"DAMAGED (.*)", text), re.search(r"round (\d+): the restart found damage", text)
        why = (f"round {at.group(1) if at else '?'}: {damaged.group(1)}" if damaged
               else (text.strip().splitlines() or ["no output"])[-1])
        rows.append([what, cases, "-", "0" if held else "?", "0" if held else "?", "0" if held else "?", "-",
                     "held" if held else "FAILED: " + why[:200]])
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default=os.path.join(HERE, "build", "release"))
    p.add_argument("--asan", default=os.path.join(HERE, "build", "asan"))
    p.add_argument("--mpich", default=os.path.join(HERE, "build", "mpich"))
    p.add_argument("--fuzz", default=os.path.join(HERE, "build", "fuzz"))
    p.add_argument("--fuzz-seconds", type=int, default=60)
    p.add_argument("--campaign-kills", type=int, default=30, help="kills per file mode (0: no crash campaign)")
    p.add_argument("--out", default=os.path.join(HERE, "docs", "reliability.md"))
    a = p.parse_args()
    rows = []
    for build, mpi in ((a.build, "Open MPI"), (a.asan, "Open MPI, ASan+UBSan"), (a.mpich, "MPICH")):
        if os.path.isdir(build):
            print(f"reliability: tests in {build} ({mpi})", file=sys.stderr)
            rows += test_rows(build, mpi)
    if a.campaign_kills > 0 and os.path.isdir(a.build):
        print(f"reliability: crash campaigns, {a.campaign_kills} kills per file mode", file=sys.stderr)
        rows += campaign_rows(a.build, a.campaign_kills)
    if os.path.isdir(os.path.join(a.fuzz, "tests", "fuzz")):
        print(f"reliability: each fuzz target for {a.fuzz_seconds} s", file=sys.stderr)
        rows += fuzz_rows(a.fuzz, a.fuzz_seconds)
    commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    head = ["what was tried", "cases", "clean errors", "crashes", "hangs", "data lost", "leftovers", "verdict"]
    with open(a.out, "w") as f:
        f.write("# Reliability: what was tried, and what held\n\n")
        f.write(f"Made by `tools/reliability.py` on {datetime.date.today()} at commit {commit} "
                f"({os.cpu_count()} cores); every number is from that run: rerun it to refresh the page.\n\n")
        f.write("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")
        for r in rows:
            f.write("| " + " | ".join(r) + " |\n")
        f.write("\n" + open(os.path.join(HERE, "docs", "reliability_notes.md")).read())
    print(f"reliability: wrote {a.out} ({len(rows)} rows)", file=sys.stderr)
    return 0 if all(r[-1] in ("held", "skipped") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
