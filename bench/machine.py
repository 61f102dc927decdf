"""Where a benchmark result was measured: the machine's facts, collected once
per `bench/run` from the standard library, /proc, lscpu, the MPI launcher,
the build's CMake cache and git, and the short stable name that files the
result under bench/results/<name>/ (DESIGN.md, "The benchmark contract").

A ratio means something only next to the machine it was measured on: the
same commit meets a target on one CPU and misses it on another (issue 30).
So every JSON carries a `machine` object, results of one machine share a
directory, and bench/compare refuses to set two machines side by side.

The pure parts (machine_name, mount_of, mpi_library, ninja_flags) take text and return
values, so tests/bench checks them without this machine."""
import datetime
import math
import os
import platform
import re
import shutil
import subprocess
from pathlib import Path

# Words in /proc/cpuinfo's model name that say nothing about the CPU.
_CPU_NOISE = re.compile(r"\((R|TM|tm|r)\)|\bCPU\b|\bProcessor\b|\b\d+-Core\b|@.*$|\bwith .*$")


def memory_size(mem_kib):
    """The memory size a machine is known by, in GiB, from MemTotal: the
    kernel keeps some memory for itself (more or less from boot to boot),
    so MemTotal sits under the installed size. Rounded up to the next step
    of 1/16 of its power of two (whole GiB up to 32 GiB): 23.5 -> 24,
    62.7 -> 64, 503 -> 512."""
    gib = mem_kib / 1048576
    step = max(1, 2 ** math.floor(math.log2(max(gib, 1))) // 16)
    return int(math.ceil(gib / step - 1e-9) * step)


def machine_name(cpu_model, cores, mem_kib):
    """The default name of a machine: its CPU model, core count and memory
    size ("AMD EPYC", 2, 24684096 kB -> "amd-epyc-2c-24g"). Stable across
    reboots, kernels and builds; PARIO_BENCH_MACHINE overrides it."""
    model = _CPU_NOISE.sub(" ", cpu_model or "unknown cpu")
    slug = re.sub(r"[^a-z0-9]+", "-", model.lower()).strip("-") or "unknown-cpu"
    name = f"{slug}-{cores}c"
    if mem_kib:
        name += f"-{memory_size(mem_kib)}g"
    return name


def valid_name(name):
    """A machine name is one path component: letters, digits, '.', '_', '-'."""
    return bool(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name or ""))


def _unescape(field):
    """mountinfo escapes space, tab, newline and backslash as octal."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def mount_of(path, mountinfo_text):
    """The mount a path lies on, from the text of /proc/self/mountinfo:
    {"mount_point", "type", "source", "options"} (mount options, then the
    file system's own), the longest mount point that contains the path."""
    path = os.path.normpath(str(path))
    best = None
    for line in mountinfo_text.splitlines():
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 6 or len(tail) < 2:
            continue
        point = _unescape(fields[4])
        inside = path == point or path.startswith(point.rstrip("/") + "/")
        if inside and (best is None or len(point) >= len(best["mount_point"])):
            options = fields[5] + ("," + tail[2] if len(tail) > 2 else "")
            best = {"mount_point": point, "type": tail[0], "source": _unescape(tail[1]), "options": options}
    return best


def mpi_library(version_text):
    """(library, version) from an MPI launcher's --version output:
    "mpiexec (OpenRTE) 4.1.4" -> ("Open MPI", "4.1.4"); MPICH's Hydra
    prints "Version: 4.0.2" among its build details."""
    m = re.search(r"\((?:OpenRTE|Open MPI|Open RTE)\)\s+(\S+)", version_text)
    if m:
        return "Open MPI", m.group(1)
    m = re.search(r"HYDRA build details:.*?Version:\s+(\S+)", version_text, re.S)
    if m:
        return "MPICH", m.group(1)
    m = re.search(r"Intel\(R\) MPI Library.*?Version\s+(\S+)", version_text)
    if m:
        return "Intel MPI", m.group(1)
    first = version_text.strip().splitlines()[0] if version_text.strip() else ""
    return (first or "unknown"), None


def _run(cmd, **kw):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30, **kw)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.stdout + out.stderr


def _read(path):
    try:
        return Path(path).read_text(errors="replace")
    except OSError:
        return ""


def _cpu():
    """(model, cores, facts from lscpu)."""
    model = ""
    for line in _read("/proc/cpuinfo").splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    lscpu = {}
    for line in _run(["lscpu"]).splitlines():
        key, sep, value = line.partition(":")
        if sep:
            lscpu[key.strip()] = value.strip()
    model = model or lscpu.get("Model name", "") or platform.processor()
    keep = ("Vendor ID", "CPU family", "Model", "Stepping", "Thread(s) per core", "Core(s) per socket",
            "Socket(s)", "NUMA node(s)", "Hypervisor vendor", "L1d cache", "L2 cache", "L3 cache", "Flags")
    facts = {k: lscpu[k] for k in keep if k in lscpu}
    if "Flags" in facts:  # the vector units, not all ~100 flags
        facts["Flags"] = " ".join(f for f in facts["Flags"].split()
                                  if f.startswith(("avx", "sse4", "fma", "erms", "fsrm")))
    return model, os.cpu_count(), facts


def _mem_kib():
    m = re.search(r"^MemTotal:\s+(\d+) kB", _read("/proc/meminfo"), re.M)
    return int(m.group(1)) if m else None


def _cmake_cache(build):
    cache = {}
    for line in _read(Path(build) / "CMakeCache.txt").splitlines():
        m = re.match(r"([A-Za-z0-9_]+):[A-Z]+=(.*)$", line)
        if m:
            cache[m.group(1)] = m.group(2)
    return cache


def ninja_flags(build_ninja_text, object_prefix):
    """The FLAGS line of the first object under `object_prefix` in a
    build.ninja ("src/CMakeFiles/pario_file.dir/"): what the compiler was
    really given, the project's own options included. None if absent."""
    inside = False
    for line in build_ninja_text.splitlines():
        if line.startswith("build "):
            inside = line[6:].startswith(object_prefix) and ".o:" in line
        elif inside and line.startswith("  FLAGS = "):
            return line[len("  FLAGS = "):].strip()
    return None


def _shown(build):
    """The build directory as a result records it: relative to the checkout
    when inside it, so a committed result names no machine's paths."""
    root = Path(__file__).resolve().parent.parent
    try:
        return str(Path(build).resolve().relative_to(root))
    except ValueError:
        return str(build)


def _compilers(build):
    """The compilers and flags the benchmarks were built with, from the
    build directory's CMake cache (flags of its build type appended) and,
    as given to the compiler, from build.ninja."""
    cache = _cmake_cache(build)
    if not cache:
        return {"build_dir": _shown(build), "note": "no CMakeCache.txt: not built"}
    build_type = cache.get("CMAKE_BUILD_TYPE", "")
    out = {"build_dir": _shown(build), "build_type": build_type}
    ninja = _read(Path(build) / "build.ninja")
    for what, prefix in (("library_flags", "src/CMakeFiles/pario_file.dir/"),
                         ("benchmark_flags", "bench/CMakeFiles/sf_bench.dir/")):
        flags = ninja_flags(ninja, prefix)
        if flags:
            out[what] = flags
    for lang in ("CXX", "C", "Fortran"):
        exe = cache.get(f"CMAKE_{lang}_COMPILER")
        if not exe:
            continue
        flags = " ".join(f for f in (cache.get(f"CMAKE_{lang}_FLAGS", ""),
                                     cache.get(f"CMAKE_{lang}_FLAGS_{build_type.upper()}", "")) if f)
        version = _run([exe, "--version"]).strip().splitlines()
        out[lang] = {"compiler": exe, "version": version[0] if version else "unknown", "flags": flags}
    return out


def _git(*args):
    return _run(["git", "-C", str(Path(__file__).resolve().parent.parent), *args]).strip()


def facts(build, scratch, launcher):
    """The `machine` object of a result: everything above, collected now."""
    model, cores, cpu = _cpu()
    mem = _mem_kib()
    override = os.environ.get("PARIO_BENCH_MACHINE", "").strip()
    if override and not valid_name(override):
        raise SystemExit(f"bench/run: PARIO_BENCH_MACHINE={override!r} is not a plain name "
                         "(letters, digits, '.', '_', '-')")
    name = override or machine_name(model, cores, mem)
    mpi, mpi_version = mpi_library(_run([launcher, "--version"])) if launcher else ("none found", None)
    scratch = Path(scratch).resolve()
    fs = mount_of(scratch, _read("/proc/self/mountinfo")) or {}
    stat_type = _run(["stat", "-f", "-c", "%T", str(scratch)]).strip()
    commit = _git("rev-parse", "--short=12", "HEAD") or "unknown"
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    return {
        "name": name,
        "name_from": "PARIO_BENCH_MACHINE" if override else "CPU model, cores, memory",
        "hostname": platform.node(),
        "cpu": model, "cores": cores, "cpu_details": cpu,
        "memory_gib": round(mem / 1048576, 1) if mem else None,
        "mpi": {"library": mpi, "version": mpi_version, "launcher": launcher},
        "compilers": _compilers(build),
        "kernel": f"{platform.system()} {platform.release()} {platform.version()}",
        "os": _read("/etc/os-release").partition('PRETTY_NAME="')[2].partition('"')[0] or platform.platform(),
        "python": platform.python_version(),
        "scratch": {"path": str(scratch), "stat_type": stat_type, **fs},
        "commit": commit + ("-dirty" if dirty else ""),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_at_start": [round(x, 2) for x in os.getloadavg()],
    }


def name_of(result):
    """The machine name a result was filed under, or None for a result from
    before the machine object (its "machine" was a free-form string)."""
    m = result.get("machine")
    return m.get("name") if isinstance(m, dict) else None


def which_mpiexec():
    """The Open MPI launcher bench/run uses (see driver.mpiexec)."""
    return shutil.which("mpiexec.openmpi") or shutil.which("mpiexec")
