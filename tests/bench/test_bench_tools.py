"""The pure parts of the benchmark tools (bench/machine.py, targets.py,
compare.py, driver.py's output paths): no MPI, no build, no benchmark run.
Also that every committed result carries its machine and sits in its
machine's directory."""
import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import compare  # noqa: E402
import driver  # noqa: E402
import machine  # noqa: E402
import targets  # noqa: E402


# ------------------------------------------------------------- machine --

@pytest.mark.parametrize("cpu, cores, mem_kib, name", [
    ("AMD EPYC", 2, 24684096, "amd-epyc-2c-24g"),                      # MemTotal 23.5 GiB: 24
    ("Intel(R) Xeon(R) Processor", 2, None, "intel-xeon-2c"),          # memory unknown: left out
    ("Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz", 40, 196000000, "intel-xeon-gold-6248-40c-192g"),  # 186.9
    ("AMD Ryzen 9 5950X 16-Core Processor", 32, 65700000, "amd-ryzen-9-5950x-32c-64g"),         # 62.7
    ("Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", 12, 16_000_000, "intel-core-i7-8700-12c-16g"),   # 15.3
    ("", 1, 512 * 1024, "unknown-cpu-1c-1g"),                          # under 1 GiB still names a size
])
def test_machine_name(cpu, cores, mem_kib, name):
    assert machine.machine_name(cpu, cores, mem_kib) == name
    assert machine.valid_name(name)


@pytest.mark.parametrize("installed_gib", [2, 8, 16, 24, 64, 128, 192, 256, 512, 1024])
def test_memory_size_is_the_installed_size(installed_gib):
    # MemTotal is the installed memory less what the kernel keeps (0.5-3 %,
    # changing with the kernel and boot): every such value names one size.
    for kept in (0.005, 0.019, 0.03):
        assert machine.memory_size(installed_gib * 1048576 * (1 - kept)) == installed_gib, kept


def test_machine_name_is_stable():
    assert machine.machine_name("AMD EPYC", 2, 24684096) == machine.machine_name("AMD EPYC", 2, 24500000)
    assert machine.machine_name("AMD EPYC", 2, 24684096) != machine.machine_name("AMD EPYC", 4, 24684096)


@pytest.mark.parametrize("name, ok", [("amd-epyc-2c-24g", True), ("lab.node_3", True), ("", False),
                                      ("../x", False), ("a/b", False), ("-x", False), ("two words", False)])
def test_valid_name(name, ok):
    assert machine.valid_name(name) is ok


MOUNTINFO = """\
22 27 0:21 / /proc rw,relatime - proc proc rw
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard
25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24684096k
40 27 0:50 / /tmp rw,nosuid,nodev shared:5 - tmpfs tmpfs rw,size=1024k
41 27 8:17 / /mnt/my\\040disk rw,noatime - xfs /dev/sdb1 rw,attr2
"""


@pytest.mark.parametrize("path, point, fstype, options", [
    ("/tmp/pario-bench", "/tmp", "tmpfs", "rw,nosuid,nodev,rw,size=1024k"),
    ("/tmp", "/tmp", "tmpfs", "rw,nosuid,nodev,rw,size=1024k"),
    ("/tmpx/a", "/", "ext4", "rw,relatime,rw,discard"),             # a prefix of the name is not a parent
    ("/mnt/my disk/scratch", "/mnt/my disk", "xfs", "rw,noatime,rw,attr2"),
    ("/scratch/run/../x", "/", "ext4", "rw,relatime,rw,discard"),
])
def test_mount_of(path, point, fstype, options):
    m = machine.mount_of(path, MOUNTINFO)
    assert (m["mount_point"], m["type"], m["options"]) == (point, fstype, options)


def test_mount_of_nothing():
    assert machine.mount_of("/x", "") is None


@pytest.mark.parametrize("text, lib", [
    ("mpiexec.openmpi (OpenRTE) 4.1.4\n\nReport bugs to http://www.open-mpi.org/community/help/\n",
     ("Open MPI", "4.1.4")),
    ("HYDRA build details:\n    Version:                                 4.0.2\n    Release Date: x\n",
     ("MPICH", "4.0.2")),
    ("", ("unknown", None)),
    ("some launcher 1.0\n", ("some launcher 1.0", None)),
])
def test_mpi_library(text, lib):
    assert machine.mpi_library(text) == lib


def test_ninja_flags():
    text = ("build src/CMakeFiles/pario_base.dir/base/a.cpp.o: CXX x\n  FLAGS = -O0\n"
            "build src/CMakeFiles/pario_file.dir/file/b.cpp.o: CXX y\n  DEFINES = -DX\n  FLAGS = -O2 -g -fPIC\n")
    assert machine.ninja_flags(text, "src/CMakeFiles/pario_file.dir/") == "-O2 -g -fPIC"
    assert machine.ninja_flags(text, "bench/CMakeFiles/sf_bench.dir/") is None


def test_facts_here(monkeypatch, tmp_path):
    """On this machine: every field the contract names, and the override."""
    monkeypatch.delenv("PARIO_BENCH_MACHINE", raising=False)
    f = machine.facts(tmp_path, tmp_path, None)
    for key in ("name", "cpu", "cores", "memory_gib", "mpi", "compilers", "kernel", "scratch", "commit", "date"):
        assert key in f, key
    assert f["cores"] == os.cpu_count() and machine.valid_name(f["name"])
    assert f["scratch"]["path"] == str(tmp_path.resolve()) and f["scratch"]["type"]
    monkeypatch.setenv("PARIO_BENCH_MACHINE", "lab-node")
    assert machine.facts(tmp_path, tmp_path, None)["name"] == "lab-node"
    monkeypatch.setenv("PARIO_BENCH_MACHINE", "../elsewhere")
    with pytest.raises(SystemExit):
        machine.facts(tmp_path, tmp_path, None)


def test_name_of():
    assert machine.name_of({"machine": {"name": "m"}}) == "m"
    assert machine.name_of({"machine": "vm 2 cores AMD EPYC Linux 6.18"}) is None
    assert machine.name_of({}) is None


def test_default_out():
    facts = {"name": "m1"}
    assert driver.default_out("sf", facts, False) == ROOT / "bench" / "results" / "m1" / "sf.json"
    assert driver.default_out("sf", facts, True) == ROOT / "bench" / "results" / "m1" / "quick" / "sf.json"


# ------------------------------------------------------------- targets --

@pytest.mark.parametrize("ratio, bound, met", [
    (1.0, 1.0, True), (0.97, 1.0, True), (0.9699, 1.0, False),   # exactly 1.0: met within 3 %
    (0.9, 0.9, True), (0.899, 0.9, False), (0.88, 0.9, False),   # any other target: no tolerance
    (1.46, 1.5, False), (0.96, 0.97, False), (5.0, 5.0, True),
])
def test_ratio_target(ratio, bound, met):
    assert targets.check("pario/ga", bound, {"pario/ga": ratio}) == (ratio, met)


def test_upper_bound_target():
    # "IMPL UNIT": at most that value (a setup time in ms).
    assert targets.check("pario ms", 1000.0, {}, {"pario": 999.0}) == (999.0, True)
    assert targets.check("pario ms", 1000.0, {}, {"pario": 1000.5}) == (1000.5, False)
    assert targets.check("pario ms", 1000.0, {}, {}) == (None, False)


def test_met():
    assert targets.met({}, {}) is None
    assert targets.met({"pario/a": 0.98, "pario/b": 0.95}, {"pario/a": 1.0, "pario/b": 0.9}) is True
    assert targets.met({"pario/a": 0.98, "pario/b": 0.85}, {"pario/a": 1.0, "pario/b": 0.9}) is False
    assert targets.met({"pario/a": 0.98}, {"pario/a": 1.0, "pario/b": 0.9}) is False  # a ratio missing


def test_describe():
    assert targets.describe("pario/ga", 1.0) == ">= 1.0 (0.97)"
    assert targets.describe("pario/posix", 0.9) == ">= 0.9"
    assert targets.describe("pario ms", 1000.0) == "<= 1000.0"


def result(name, rows, machine_name="m1", commit="aaa", quick=True):
    return {"benchmark": name, "machine": {"name": machine_name}, "commit": commit, "quick": quick, "rows": rows}


def row(case, ratios, target=None, **extra):
    return {"case": case, "values": extra.pop("values", {}), "ratios": ratios, "target": target or {}, **extra}


def test_table_counts_misses_and_ties():
    rs = [result("eaf", [row("a", {"pario/posix": 0.971}, {"pario/posix": 1.0}),    # tie: met
                         row("b", {"pario/posix": 0.95, "pario/ga": 1.2}, {"pario/posix": 0.97, "pario/ga": 1.0}),
                         row("c", {"pario/posix": 0.5})]),                          # no target: not listed
          result("hf", [row("d", {"pario/pyscf": 3.0}, {"pario/pyscf": 2.0},
                            also_required={"energy within 1e-8": False})]),
          result("collective", [row("e", {"romio/fpp": 0.4}, {"pario/fpp": 0.9}, met=None)])]
    lines = targets.table(rs)
    body = lines[2:-1]
    assert len(body) == 5
    assert [line.split()[0] for line in body] == ["eaf", "eaf", "eaf", "hf", "collective"]
    assert body[0].rstrip().endswith("met") and "MISSED" in body[1] and body[2].rstrip().endswith("met")
    assert "MISSED" in body[3] and "energy within 1e-8" in body[3]
    assert "not measured" in body[4]
    assert lines[-1].startswith("2 of 4 targets missed, in 2 of 3 cases; 1 not measured")


def test_table_empty():
    assert targets.table([result("x", [row("a", {"pario/b": 1.0})])]) == ["no case with a target was measured"]


# ------------------------------------------------------------- compare --

def test_pair_matches_case_and_ratio():
    old = result("sf", [row("w 1", {"pario/fio": 1.0, "pario/ga": 0.9}, {"pario/ga": 1.0}),
                        row("gone", {"pario/fio": 2.0})])
    new = result("sf", [row("new", {"pario/fio": 1.1}),
                        row("w 1", {"pario/ga": 0.99, "pario/posix": 1.0}, {"pario/ga": 1.0})])
    got = {(p["case"], p["key"]): p for p in compare.pair(old, new)}
    assert [(p["case"], p["key"]) for p in compare.pair(old, new)] == [
        ("new", "pario/fio"), ("w 1", "pario/ga"), ("w 1", "pario/posix"), ("w 1", "pario/fio"), ("gone", "pario/fio")]
    g = got[("w 1", "pario/ga")]
    assert (g["old"], g["new"], g["target"], g["old_met"], g["new_met"]) == (0.9, 0.99, 1.0, False, True)
    assert got[("new", "pario/fio")]["old"] is None and got[("gone", "pario/fio")]["new"] is None
    assert got[("w 1", "pario/fio")]["new"] is None and got[("w 1", "pario/fio")]["target"] is None
    assert compare.change(0.9, 0.99) == pytest.approx(0.1)
    assert compare.change(None, 1.0) is None and compare.change(0.0, 1.0) is None


def test_pair_upper_bound():
    old = result("collective", [row("setup", {}, {"pario ms": 1000.0}, values={"pario": 1500.0})])
    new = result("collective", [row("setup", {}, {"pario ms": 1000.0}, values={"pario": 900.0})])
    (p,) = compare.pair(old, new)
    assert (p["old"], p["new"], p["old_met"], p["new_met"]) == (1500.0, 900.0, False, True)


def test_same_machine():
    assert compare.same_machine(result("a", []), result("a", [])) is None
    assert "m1" in compare.same_machine(result("a", []), result("a", [], "m2"))
    legacy = {"benchmark": "a", "machine": "vm 2 cores AMD EPYC", "rows": []}
    assert "OLD names no machine" in compare.same_machine(legacy, result("a", []))


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def test_compare_main(tmp_path, capsys):
    a = write(tmp_path / "old" / "sf.json", result("sf", [row("w", {"pario/ga": 0.9}, {"pario/ga": 1.0})]))
    b = write(tmp_path / "new" / "sf.json",
              result("sf", [row("w", {"pario/ga": 0.99}, {"pario/ga": 1.0})], commit="bbb", quick=False))
    write(tmp_path / "new" / "eaf.json", result("eaf", []))
    assert compare.main([str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "sf: commit aaa -> bbb (OLD quick, NEW full)" in out and "+10.0%" in out and "MISSED -> met" in out and "newly met 1" in out
    assert compare.main([str(tmp_path / "old"), str(tmp_path / "new")]) == 0
    assert "in one directory only: eaf.json" in capsys.readouterr().out
    other = write(tmp_path / "other" / "sf.json", result("sf", [row("w", {"pario/ga": 1.0})], "m2"))
    with pytest.raises(SystemExit) as e:
        compare.main([str(a), str(other)])
    assert "ratios are compared only within one machine" in str(e.value.code)
    assert compare.main([str(a), str(other), "--force"]) == 0
    assert "warning" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        compare.main([str(a), str(tmp_path / "new" / "eaf.json")])  # two different benchmarks


# ----------------------------------------------------- committed results --

def test_committed_results_carry_their_machine():
    found = sorted((ROOT / "bench" / "results").glob("*/*.json"))
    assert found, "no committed results"
    assert not list((ROOT / "bench" / "results").glob("*.json")), "a result outside a machine's directory"
    for path in found:
        r = json.loads(path.read_text())
        assert machine.name_of(r) == path.parent.name, path
        for key in ("cpu", "cores", "kernel", "commit"):
            assert r["machine"].get(key), (path, key)


# ------------------------------------------------------------- dataset --

import dataset_bench  # noqa: E402


def pds_lines(p, impl, cache_s, flushed_s, peak, segment_ms, reps=2, warm_s=None, cold_s=None):
    """pds_bench's JSON lines of one implementation at P = p, `reps` times
    (the later repetitions 10 % slower: medians are taken); the reads'
    when warm_s and cold_s are given."""
    lines = []
    ops = [("write page cache", cache_s), ("write flushed", flushed_s)]
    if warm_s is not None:
        ops += [("read warm", warm_s), ("read cold", cold_s)]
    for rep in range(reps):
        slow = 1 + 0.1 * rep
        for op, s in ops:
            lines.append({"impl": impl, "op": op, "ranks": p, "nodes": 3000, "segments": 10, "seconds": s * slow,
                          "bytes": 1104000, "setup_seconds": 0.25, "peak_mib": [peak] * p, "base_mib": [90.0] * p,
                          "cpu_seconds": [s / 2 * slow] * p})
        lines.append({"impl": impl, "op": "metadata probe", "ranks": p, "nodes": 16 * p, "segment_ms": segment_ms})
    return lines


def test_pds_result():
    flat = [4.0] + [2.0] * 10
    lines = (pds_lines(1, "pario", 0.5, 2.0, 120.0, flat, warm_s=0.2, cold_s=1.0)
             + pds_lines(1, "h5-ranked", 0.7, 2.1, 100.0, flat, warm_s=0.3, cold_s=1.1)
             + pds_lines(1, "gather", 1.0, 4.0, 150.0, [1.0] * 11, warm_s=0.5, cold_s=1.5)
             + pds_lines(1, "pwrite", 0.4, 2.0, 100.0, [0.1] * 11, warm_s=0.1, cold_s=1.0)
             # P = 4: pario within the memory rule, h5-ranked close in the page cache, a metadata cost growing
             + pds_lines(4, "pario", 0.5, 2.2, 110.0, [4.0] + [2.0] * 9 + [4.0])
             + pds_lines(4, "h5-ranked", 0.55, 2.1, 100.0, flat) + pds_lines(4, "gather", 1.0, 4.0, 150.0, flat)
             + pds_lines(4, "pwrite", 0.4, 2.0, 100.0, flat))
    res = dataset_bench.pds_result(lines, driver, 3000, 10, 2)
    rows = {r["case"]: r for r in res["rows"]}
    assert list(rows) == ["PDS 3k nodes write page cache, P=1", "PDS 3k nodes write flushed, P=1",
                          "PDS 3k nodes read warm, P=1", "PDS 3k nodes read cold, P=1",
                          "PDS 3k nodes write page cache, P=4", "PDS 3k nodes write flushed, P=4",
                          "PDS metadata per segment, P=1", "PDS metadata per segment, P=4"]
    cache1, flushed1 = rows["PDS 3k nodes write page cache, P=1"], rows["PDS 3k nodes write flushed, P=1"]
    # medians of 0.5 and 0.55 s: 1104000 B / 0.525 s
    assert cache1["values"]["pario"] == pytest.approx(2.1, abs=0.05)
    assert cache1["ratios"] == {"pario/h5-ranked": 1.4, "pario/gather": 2.0, "pario/pwrite": 0.8}
    assert cache1["target"] == {"pario/h5-ranked": 1.2, "pario/gather": 1.2}
    assert flushed1["target"] == {"pario/pwrite": 0.95} and flushed1["ratios"]["pario/pwrite"] == 1.0
    # fast enough at P = 1, but pario's 120 MiB > pwrite's 100 + 16: missed
    assert cache1["also_required"] == {"pario peak MiB per rank <= pwrite's + 16": False}
    assert cache1["met"] is False and flushed1["met"] is False
    assert cache1["seconds"]["pario"] == pytest.approx(0.525) and cache1["cost_rank_seconds"]["gather"] == 1.05
    assert cache1["setup_seconds"]["pario"] == 0.25 and cache1["data_mib_per_rank"]["pario"] == [90.0]
    assert cache1["page_cache"] == "warm" and flushed1["page_cache"] == "cold"
    assert cache1["cpu_seconds"]["pario"] == 0.263  # the ranks' sum: median of 0.25 and 0.275, rounded
    # reads: targets stated like the writes'; 1.5x h5-ranked and 2.5x gather warm (met but for the
    # memory rule: pario's 120 MiB), 1.0x the pread limit cold
    warm1, cold1 = rows["PDS 3k nodes read warm, P=1"], rows["PDS 3k nodes read cold, P=1"]
    assert warm1["target"] == {"pario/h5-ranked": 1.2, "pario/gather": 1.2} and warm1["page_cache"] == "warm"
    assert warm1["ratios"] == {"pario/h5-ranked": 1.5, "pario/gather": 2.5, "pario/pwrite": 0.5}
    assert cold1["target"] == {"pario/pwrite": 0.95} and cold1["ratios"]["pario/pwrite"] == 1.0
    assert cold1["page_cache"] == "cold" and warm1["met"] is False and cold1["met"] is False
    cache4, flushed4 = rows["PDS 3k nodes write page cache, P=4"], rows["PDS 3k nodes write flushed, P=4"]
    assert cache4["peak_mib_per_rank"]["pario"] == [110.0] * 4
    assert cache4["ratios"]["pario/h5-ranked"] == 1.1 and cache4["met"] is False   # 1.1 < 1.2x the best peer
    assert flushed4["ratios"]["pario/pwrite"] == pytest.approx(0.909, abs=0.001) and flushed4["met"] is False
    meta1, meta4 = rows["PDS metadata per segment, P=1"], rows["PDS metadata per segment, P=4"]
    assert meta1["values"] == {"pario@seg1": 2.0, "pario@seg10": 2.0} and meta1["met"] is True
    assert meta1["segment_ms"]["pwrite"] == {"1": 0.1, "10": 0.1} and meta1["probe_nodes"]["pario"] == 16
    assert meta4["ratios"] == {"pario@seg1/pario@seg10": 0.5} and meta4["met"] is False
    checks = targets.checks({"benchmark": "dataset", "rows": res["rows"]})
    assert [(c["case"], c["met"]) for c in checks if c["key"] == "pario@seg1/pario@seg10"] == [
        ("PDS metadata per segment, P=1", True), ("PDS metadata per segment, P=4", False)]
    # one per target key of the rows the memory rule fails (P = 1: 2 + 1 written, 2 + 1 read)
    assert sum(1 for c in checks if c["met"] is False and c["note"].startswith("also required")) == 6
    assert any("setup 0.250 s, CPU 0.263 s" in line for line in res["summary"])
    assert any("ms at segment 1 / 10" in line and "pario 2.0 / 4.0" in line for line in res["summary"])


def test_pds_result_prints(capsys):
    lines = [line for impl in dataset_bench.PDS_IMPLS for line in pds_lines(2, impl, 0.5, 2.0, 100.0, [1.0] * 11, 1)]
    res = dataset_bench.pds_result(lines, driver, 3000, 10, 1)
    driver.print_table({"benchmark": "dataset", "rows": res["rows"], "repetitions": 1, "commit": "c",
                        "machine": {"name": "m1"}})
    out = capsys.readouterr().out
    assert "PDS metadata per segment, P=2" in out and "pario@seg10 1.00 (>=0.8)" in out


@pytest.mark.parametrize("nodes, label", [(2000000, "2M"), (100000, "100k"), (1500, "1.5k"), (64, "64")])
def test_nodes_label(nodes, label):
    assert dataset_bench.nodes_label(nodes) == label
