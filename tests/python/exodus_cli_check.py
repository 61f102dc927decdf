"""`pario exodus workload|info|diff|plot` end to end (tools/exodus_cli.py):

    exodus_cli_check.py DIR WRITER CHECKER MPIEXEC [MPI flags...]

WRITER is the C workload writer (tests/exodus/exodus_workload.c, pario's C
API), CHECKER Debian's libexodusii reading a workload file
(exodus_check.c) or "none". The command's files must equal the C writer's
bit for bit at other rank counts, pass libexodusii's check, and diff must
find a changed value and a changed connectivity entry (netCDF4-python
changes them). Exits 77 (skipped) without netCDF4 or matplotlib.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

try:
    import matplotlib.image
    import netCDF4
    import numpy as np
except ImportError as e:
    print(f"exodus_cli_check: skipped: {e} (scripts/setup.sh installs netCDF4 and matplotlib)")
    sys.exit(77)

TOOL = [sys.executable, str(Path(__file__).resolve().parents[2] / "tools" / "pario_cli.py"), "exodus"]
where, writer, checker, mpiexec, flags = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
failures = 0


def run(argv, ranks=None):
    argv = ([mpiexec, "-n", str(ranks), *flags] if ranks else []) + [str(a) for a in argv]
    done = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout + done.stderr


def check(ok, what, output=""):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures += 1
        print(output)


def main():
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    size = ["6", "5", "4", "3"]
    for variant, ranks, c_ranks, split in (("HEX", 2, 3, "contiguous"), ("MIXED", 1, 2, "cyclic")):
        mine, theirs = where / f"{variant}_cli.e", where / f"{variant}_c.e"
        extra = ["--mixed"] if variant == "MIXED" else []
        rc, out = run(TOOL + ["workload", "--nx", 6, "--ny", 5, "--nz", 4, "--steps", 3, *extra, mine], ranks)
        check(rc == 0 and "210 nodes" in out, f"workload {variant} on {ranks} ranks", out)
        rc, out = run([writer, *size, variant, theirs, split], c_ranks)
        check(rc == 0, f"the C writer, {variant} on {c_ranks} ranks", out)
        rc, out = run(TOOL + ["diff", "--exact", mine, theirs], 2)
        check(rc == 0 and "files are the same" in out, f"{variant}: the command's file equals the C API's bit for bit",
              out)
        if checker != "none":
            rc, out = run([checker, mine, *size, variant])
            check(rc == 0, f"{variant}: libexodusii reads the command's file as the workload", out)

    hex_file = where / "HEX_cli.e"
    rc, out = run(TOOL + ["info", hex_file], 2)
    for want in ("title: pario-exodus-workload HEX 6x5x4 T=3", "3-D, 210 nodes, 120 elements, 3 steps (time 0.25 .. 0.75)",
                 "node ids: [2, 420]", "block 20 'upper': HEX8, 60 elements of 8 nodes, ids [122, 240]",
                 "node set 100 'x0': 30 nodes", "side set 200 'z0': 30 sides", "global variables: energy [0.0625, 0.5625]",
                 "temperature [300.25, 360.75]", "element variables: stress"):
        check(rc == 0 and want in out, f"info says {want!r}", out)

    # A value changed by 1e-9 (relative): within the default tolerance, not bit for bit.
    nudged = where / "nudged.e"
    shutil.copy(hex_file, nudged)
    with netCDF4.Dataset(nudged, "r+") as d:
        v = d.variables["vals_nod_var1"]
        v[1, 7] = v[1, 7] * (1 + 1e-9)
    rc, out = run(TOOL + ["diff", hex_file, nudged])
    check(rc == 0, "diff: a 1e-9 change is within the default rtol (1e-6)", out)
    rc, out = run(TOOL + ["diff", "--exact", hex_file, nudged], 2)
    check(rc == 1 and "nodal temperature step 2: 1 of 210 values differ, first at index 7" in out,
          "diff --exact names the changed value (2 ranks)", out)
    rc, out = run(TOOL + ["diff", "--rtol", "1e-10", hex_file, nudged])
    check(rc == 1 and "temperature step 2" in out, "diff --rtol 1e-10 finds it", out)
    # A connectivity entry: integers compare exactly whatever the tolerance.
    rewired = where / "rewired.e"
    shutil.copy(hex_file, rewired)
    with netCDF4.Dataset(rewired, "r+") as d:
        c = d.variables["connect2"]
        c[3, 2] = c[3, 2] + 1
    rc, out = run(TOOL + ["diff", "--rtol", "1", hex_file, rewired])
    check(rc == 1 and "block 20 connectivity: 1 of 480 values differ, first at index 26" in out,
          "diff finds a changed connectivity entry", out)
    rc, out = run(TOOL + ["diff", hex_file, where / "MIXED_cli.e"])
    check(rc == 1 and "num_elem: 120 vs 420" in out and "TETRA4" in out, "diff reports different models", out)
    rc, out = run(TOOL + ["diff", hex_file, where / "missing.e"])
    check(rc == 2 and "missing.e" in out, "diff of a missing file is an error (2)", out)
    cut = where / "cut.e"
    cut.write_bytes(hex_file.read_bytes()[:100])
    rc, out = run(TOOL + ["info", cut])
    check(rc == 1 and "cut.e" in out, "info of a truncated file is an error naming it", out)
    rc, out = run(TOOL + ["workload", "--nx", 2, "--ny", 2, "--nz", 1, "--steps", 1, where / "bad.e"])
    check(rc == 2 and "nz >= 2" in out, "workload refuses nz < 2", out)
    rc, out = run(TOOL + ["workload", "--nx", 2, "--ny", 2, "--nz", 2, "--steps", 1, where / "no" / "such.e"], 2)
    check(rc == 1 and "such.e" in out and "Traceback" not in out, "workload into a missing directory: a message", out)

    # Plots: a plane of a nodal and of an element variable, a global one over time.
    for args, name in ((["--var", "temperature"], "t.png"), (["--var", "stress", "--axis", "x", "--step", "2"], "s.png"),
                       (["--var", "energy"], "e.png")):
        png = where / name
        rc, out = run(TOOL + ["plot", hex_file, *args, "-o", png], 2 if name == "t.png" else None)
        image = matplotlib.image.imread(png) if png.exists() else np.zeros((1, 1, 3))
        colors = np.unique(image[..., :3].reshape(-1, 3), axis=0).shape[0]
        check(rc == 0 and colors > 50, f"plot {' '.join(args)}: a PNG of {colors} colors", out)
    rc, out = run(TOOL + ["plot", hex_file, "--var", "nosuch", "-o", where / "x.png"])
    check(rc == 2 and "no variable 'nosuch'" in out and not (where / "x.png").exists(), "plot of an unknown variable", out)
    rc, out = run(TOOL + ["plot", hex_file, "--var", "temperature", "--step", "4", "-o", where / "x.png"])
    check(rc == 2 and "--step 4 is not in 1..3" in out, "plot of a step the file lacks", out)
    print(f"exodus_cli_check: {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
