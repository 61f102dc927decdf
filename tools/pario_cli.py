"""pario: the command-line tool.

  pario bench [NAME ...|all] [--quick] [--ranks N]  run benchmarks (bench/run), with a progress bar
  pario stats FILE.json ...                          statistics files as tables
  pario info PATH ...                                describe a Zarr store or an HDF5 file
  pario clean [--yes]                                remove shared memory left by dead jobs
  pario exodus workload|info|diff|plot ...           Exodus II files (tools/exodus_cli.py; mpiexec -n P too)

Every command has --help.
"""
import argparse
import json
import os
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def human(n):
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


# ------------------------------------------------------------------ bench --

def cmd_bench(args):
    sys.path.insert(0, str(ROOT / "bench"))
    import driver  # the benchmark driver: progress bar, table, JSON, PNG
    names = ["all"] if args.names == ["all"] or not args.names else args.names  # all: one table of targets
    unknown = [n for n in names if n not in driver.BENCHMARKS and n != "all"]
    if unknown:
        sys.exit(f"pario bench: unknown benchmark {', '.join(unknown)} (known: {', '.join(driver.BENCHMARKS)})")
    rc = 0
    for name in names:
        argv = [name] + (["--quick"] if args.quick else []) + (["--ranks", str(args.ranks)] if args.ranks else [])
        sys.argv = ["pario bench"] + argv
        rc |= driver.main() or 0
    return rc


# ------------------------------------------------------------------ stats --

def stats_table(data):
    """Lines for one statistics JSON (a rank's, or the sum over ranks)."""
    out = []
    if "rank" in data:
        out.append(f"rank {data['rank']}")
        for k, v in data.get("notes", {}).items():
            out.append(f"  {k}: {v}")
        files = data.get("files", [])
    else:
        out.append(f"summed over {data.get('ranks', '?')} ranks")
        files = data.get("paths", [])
    if files:
        out.append(f"  {'file':<44} {'dir':>5} {'calls':>9} {'bytes':>11} {'s':>8} {'random':>7} {'async':>7}")
    for f in files:
        path = f["path"] if len(f["path"]) <= 44 else "..." + f["path"][-41:]
        for d in ("read", "write"):
            s = f.get(d, {})
            if not s.get("calls"):
                continue
            rnd = f"{100 * s['random_share']:.0f}%" if "random_share" in s else "-"
            out.append(f"  {path:<44} {d:>5} {s['calls']:>9} {human(s['bytes']):>11} {s['seconds']:>8.3f} "
                       f"{rnd:>7} {s.get('async_calls', 0):>7}")
        if f.get("ram_bytes") or f.get("spilled_bytes"):
            out.append(f"  {'':<44} in RAM {human(f['ram_bytes'])}, spilled to disk {human(f['spilled_bytes'])}")
    arrays = data.get("arrays", {})
    if any(a.get("local_calls") or a.get("remote_calls") for a in arrays.values()):
        out.append(f"  {'array op':<10} {'local calls':>12} {'local bytes':>12} {'remote calls':>13} "
                   f"{'remote bytes':>13} {'messages':>9}")
        for op, a in arrays.items():
            out.append(f"  {op:<10} {a['local_calls']:>12} {human(a['local_bytes']):>12} {a['remote_calls']:>13} "
                       f"{human(a['remote_bytes']):>13} {a['messages']:>9}")
    coll = data.get("collective", {})
    if coll.get("write", {}).get("transfers") or coll.get("read", {}).get("transfers"):
        cols = [("write", coll["write"]), ("read", coll["read"])]
        most = coll.get("most", {})  # the sum's busiest rank
        cols += [(f"{d}, most", most[d]) for d in ("write", "read") if d in most]
        out.append(f"  {'collective I/O':<20}" + "".join(f" {name:>13}" for name, _ in cols))
        for key in cols[0][1]:
            cells = []
            for _, c in cols:
                v = c.get(key, 0)
                cells.append(f"{v:.4f}" if key.endswith("_seconds") else
                             human(v) if key.endswith("bytes") or key == "largest_request" else str(v))
            out.append(f"  {key.replace('_', ' '):<20}" + "".join(f" {x:>13}" for x in cells))
    setup = coll.get("setup", {})
    if setup.get("decompositions"):
        out.append(f"  decompositions: {setup['decompositions']} in {setup['seconds']:.4f} s, "
                   f"{human(setup['plan_bytes'])} of plan")
    return out


def cmd_stats(args):
    for path in args.files:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as e:
            sys.exit(f"pario stats: {path}: {e}")
        print(f"{path}:")
        print("\n".join(stats_table(data)))
    return 0


# ------------------------------------------------------------------- info --

def info_zarr(path):
    meta = json.loads((path / "zarr.json").read_text())
    lines = [f"{path}: Zarr v{meta.get('zarr_format', '?')} {meta.get('node_type', '?')}"]
    if meta.get("node_type") == "array":
        chunks = meta.get("chunk_grid", {}).get("configuration", {}).get("chunk_shape")
        codecs = meta.get("codecs", [])
        shards = ""
        if len(codecs) == 1 and codecs[0].get("name") == "sharding_indexed":  # the grid's chunks are shards
            inner = codecs[0].get("configuration", {})
            shards = f" in shards {tuple(chunks or ())}"
            chunks, codecs = inner.get("chunk_shape"), inner.get("codecs", [])
        names = [c.get("name") for c in codecs]
        lines.append(f"  shape {tuple(meta['shape'])}, {meta.get('data_type')}, chunks {tuple(chunks or ())}"
                     f"{shards}, codecs {', '.join(names) or 'none'}")
    else:
        children = sorted(p.name for p in path.iterdir() if (p / "zarr.json").exists())
        lines.append(f"  members: {', '.join(children) or 'none'}")
    attrs = meta.get("attributes", {})
    if isinstance(attrs.get("pario"), dict):
        p = attrs["pario"]
        lines.append(f"  written by {p.get('writer', 'pario')} ({p.get('layout', 'layout not recorded')})")
    for k in ("writer", "created_by"):
        if k in attrs:
            lines.append(f"  {k}: {attrs[k]}")
    files = [f.stat() for f in path.rglob("*") if f.is_file()]
    used = sum(st.st_blocks * 512 for st in files)  # shards are sparse: holes take no space
    lines.append(f"  {len(files)} files, {human(sum(st.st_size for st in files))}, {human(used)} on disk")
    return lines


def info_hdf5(path):
    import h5py  # installed with the project's Python environment
    lines = [f"{path}: HDF5, {human(path.stat().st_size)} on disk"]
    with h5py.File(path, "r") as f:
        for k, v in f.attrs.items():
            lines.append(f"  @{k} = {v}")

        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                lines.append(f"  {name}: shape {obj.shape}, {obj.dtype}, chunks {obj.chunks}")
        f.visititems(visit)
    return lines


def cmd_info(args):
    rc = 0
    for p in map(Path, args.paths):
        if (p / "zarr.json").is_file():
            print("\n".join(info_zarr(p)))
        elif p.is_file() and p.read_bytes()[:8] == b"\x89HDF\r\n\x1a\n":
            print("\n".join(info_hdf5(p)))
        else:
            print(f"pario info: {p}: not a Zarr store (no zarr.json) or an HDF5 file", file=sys.stderr)
            rc = 1
    return rc


# ------------------------------------------------------------------ clean --

def stale_segments(shm_dir):
    """This user's pario segments in shm_dir whose creating process is gone."""
    prefix = f"pario.{os.getuid()}."
    stale = []
    try:
        names = os.listdir(shm_dir)
    except FileNotFoundError:
        return stale
    for name in names:
        if not name.startswith(prefix):
            continue
        try:
            pid = int(name[len(prefix):].split(".")[0])
            os.kill(pid, 0)
        except ProcessLookupError:
            stale.append(Path(shm_dir) / name)
        except (ValueError, PermissionError):
            pass
    return stale


def cmd_clean(args):
    stale = stale_segments(args.shm_dir)
    if not stale:
        print("pario clean: nothing to remove (no shared memory left by dead pario jobs)")
        return 0
    print("pario clean: shared memory left by dead jobs:")
    for p in stale:
        print(f"  {p} ({human(p.stat().st_size)})")
    if not args.yes:
        if not sys.stdin.isatty():
            print("pario clean: run with --yes to remove them")
            return 1
        if input("remove them? [y/N] ").strip().lower() not in ("y", "yes"):
            return 1
    for p in stale:
        p.unlink(missing_ok=True)
    print(f"pario clean: removed {len(stale)}")
    return 0


def main(argv=None):
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    p = argparse.ArgumentParser(prog="pario", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    b = sub.add_parser("bench", help="run benchmarks and write JSON and PNG to bench/results")
    b.add_argument("names", nargs="*", metavar="NAME", help="eaf, sf, ga, fim, ... or all (default)")
    b.add_argument("--quick", action="store_true", help="small sizes, under a minute each")
    b.add_argument("--ranks", type=int, help="MPI ranks for multi-rank benchmarks")
    b.set_defaults(run=cmd_bench)
    s = sub.add_parser("stats", help="show statistics written by PARIO_STATS_FILE")
    s.add_argument("files", nargs="+", metavar="FILE.json")
    s.set_defaults(run=cmd_stats)
    i = sub.add_parser("info", help="describe a disk array (Zarr) or dataset (HDF5) without reading its data")
    i.add_argument("paths", nargs="+", metavar="PATH")
    i.set_defaults(run=cmd_info)
    c = sub.add_parser("clean", help="remove shared-memory segments left by dead pario jobs")
    c.add_argument("--yes", action="store_true", help="do not ask")
    c.add_argument("--shm-dir", default="/dev/shm", help=argparse.SUPPRESS)  # tests: a private directory
    c.set_defaults(run=cmd_clean)
    import exodus_cli  # next to this file
    exodus_cli.add_parser(sub)
    args = p.parse_args(argv)
    if not args.command:
        p.print_usage(sys.stderr)
        return 2
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
