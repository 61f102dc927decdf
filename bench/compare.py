"""bench/compare OLD NEW [--force]: how every ratio moved between two runs
of one machine. OLD and NEW are two result files (bench/results/.../NAME.json)
or two directories of them (files paired by name). Results from two
machines are refused unless --force: the same commit meets a target on one
CPU and misses it on another, so such a change says nothing about pario."""
import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import machine  # noqa: E402
import targets  # noqa: E402


def pair(old, new):
    """The ratios of two results matched by case and ratio key, in NEW's row
    order then OLD's leftovers: dicts with case, key, old, new (None where
    one run lacks it), the target NEW states (else OLD's), and met in each
    run (None without a target)."""
    def index(result):
        out = {}
        for row in result.get("rows", []):
            for key, value in row.get("ratios", {}).items():
                out[(row["case"], key)] = (value, row)
            for key in row.get("target") or {}:  # an upper bound has no ratio of its own
                if "/" not in key:
                    impl = key.rsplit(" ", 1)[0]
                    out.setdefault((row["case"], key), (row.get("values", {}).get(impl), row))
        return out

    a, b = index(old), index(new)
    out = []
    for k in list(b) + [k for k in a if k not in b]:
        (ov, orow), (nv, nrow) = a.get(k, (None, None)), b.get(k, (None, None))
        bound = ((nrow or {}).get("target") or {}).get(k[1], ((orow or {}).get("target") or {}).get(k[1]))

        def met_in(row):
            if bound is None or row is None:
                return None
            return targets.check(k[1], bound, row.get("ratios", {}), row.get("values", {}))[1]
        out.append({"case": k[0], "key": k[1], "old": ov, "new": nv, "target": bound,
                    "old_met": met_in(orow), "new_met": met_in(nrow)})
    return out


def change(old, new):
    """NEW over OLD minus one, or None."""
    if old is None or new is None or old == 0:
        return None
    return new / old - 1


def same_machine(old, new):
    """None if two results may be compared, else why not."""
    a, b = machine.name_of(old), machine.name_of(new)
    if a is None or b is None:
        unnamed = [w for w, n in (("OLD", a), ("NEW", b)) if n is None]
        verb = "names" if len(unnamed) == 1 else "name"
        return (f"{' and '.join(unnamed)} {verb} no machine (a result from before the machine object): "
                "pass --force if both come from one machine")
    if a != b:
        return f"OLD was measured on {a} and NEW on {b}: ratios are compared only within one machine"
    return None


def lines(old, new, title):
    rows = pair(old, new)
    name = new.get("benchmark", "?")
    kind = {True: "quick", False: "full", None: "?"}
    out = [f"{title if title == name else f'{title} ({name})'}: commit {old.get('commit', '?')} -> "
           f"{new.get('commit', '?')}"
           + ("" if old.get("quick") == new.get("quick") else
              f" (OLD {kind[old.get('quick')]}, NEW {kind[new.get('quick')]})")]
    if not rows:
        return out + ["  no ratios"]
    case_w = min(60, max(len(r["case"]) for r in rows))
    key_w = max(5, max(len(r["key"]) for r in rows))
    head = f"  {'case':<{case_w}}  {'ratio':<{key_w}}  {'old':>8}  {'new':>8}  {'change':>8}  {'target':<14}  met"
    out += [head, "  " + "-" * (len(head) - 2)]
    verdict = {None: "-", True: "met", False: "MISSED"}
    for r in rows:
        case = r["case"] if len(r["case"]) <= case_w else r["case"][:case_w - 1] + "~"
        c = change(r["old"], r["new"])
        fmt = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
        tgt = "" if r["target"] is None else targets.describe(r["key"], r["target"])
        met = "" if r["target"] is None else f"{verdict[r['old_met']]} -> {verdict[r['new_met']]}"
        out.append(f"  {case:<{case_w}}  {r['key']:<{key_w}}  {fmt(r['old']):>8}  {fmt(r['new']):>8}  "
                   f"{'-' if c is None else f'{100 * c:+.1f}%':>8}  {tgt:<14}  {met}")
    both = [change(r["old"], r["new"]) for r in rows]
    both = [c for c in both if c is not None]
    gained = sum(1 for r in rows if r["old_met"] is False and r["new_met"] is True)
    lost = sum(1 for r in rows if r["old_met"] is True and r["new_met"] is False)
    only = sum(1 for r in rows if r["old"] is None or r["new"] is None)
    out.append(f"  {len(both)} ratios in both: {sum(c > 0.05 for c in both)} up more than 5 %, "
               f"{sum(c < -0.05 for c in both)} down more than 5 %; targets newly met {gained}, newly missed "
               f"{lost}; {only} in one run only")
    return out


def load(path):
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        sys.exit(f"bench/compare: {path}: {e}")


def pairs(old, new):
    """[(title, OLD path, NEW path)] for two files or two directories, and
    the names found in one directory only."""
    old, new = Path(old), Path(new)
    if old.is_dir() != new.is_dir():
        sys.exit("bench/compare: give two result files or two directories")
    if not old.is_dir():
        return [(new.stem, old, new)], []
    a = {p.name: p for p in old.glob("*.json")}
    b = {p.name: p for p in new.glob("*.json")}
    both = sorted(set(a) & set(b))
    return [(Path(n).stem, a[n], b[n]) for n in both], sorted(set(a) ^ set(b))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="bench/compare", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="OLD.json or a directory of results")
    parser.add_argument("new", help="NEW.json or a directory of results")
    parser.add_argument("--force", action="store_true", help="compare results of different or unnamed machines")
    args = parser.parse_args(argv)
    todo, lonely = pairs(args.old, args.new)
    if not todo:
        sys.exit(f"bench/compare: no result names in both {args.old} and {args.new}")
    loaded = [(title, load(a), load(b)) for title, a, b in todo]
    for title, old, new in loaded:
        if old.get("benchmark") != new.get("benchmark"):
            sys.exit(f"bench/compare: {title}: OLD is '{old.get('benchmark')}' and NEW '{new.get('benchmark')}'")
        why = same_machine(old, new)
        if why and not args.force:
            sys.exit(f"bench/compare: {title}: {why} (--force to compare anyway)")
        if why:
            print(f"warning: {title}: {why}")
    for i, (title, old, new) in enumerate(loaded):
        if i:
            print()
        print("\n".join(lines(old, new, title)))
    if lonely:
        print(f"\nin one directory only: {', '.join(lonely)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
