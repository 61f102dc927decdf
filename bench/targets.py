"""Targets: how a row's target is judged, and the table of every target of
a run (`bench/run all`). One rule for every suite (DESIGN.md, "The
benchmark contract"):

- A row's `target` maps a ratio key ("pario/posix") to the least ratio of
  medians that meets it. A target of exactly 1.0 ("as fast as GA", "as
  fast as the peer") is met from 0.97 on: within 3 %, two implementations
  bound by the same disk or memory tie, and a tie is not a loss.
- A key without a slash, "IMPL UNIT" ("pario ms"), is an upper bound on
  IMPL's median value in that unit (lower is better: a setup time).
- A row is met when every one of its targets is.

The targets themselves live with each suite, next to the cases they judge
(bench/driver.py's bench_* functions), and travel in each row of the JSON;
this module never holds a list of its own."""

TIE = 0.03  # a target of exactly 1.0 is met within this fraction


def threshold(bound):
    """The least ratio that meets a target of `bound` (a minimum)."""
    return round(bound * (1 - TIE), 9) if bound == 1.0 else bound


def check(key, bound, ratios, values=None):
    """One target of a row: (measured, met), measured None when the row
    lacks what the target compares (then it is not met)."""
    if "/" in key:
        measured = ratios.get(key)
        return measured, measured is not None and measured >= threshold(bound)
    impl = key.rsplit(" ", 1)[0]
    measured = (values or {}).get(impl)
    return measured, measured is not None and measured <= bound


def met(ratios, target, values=None):
    """Whether a row meets all its targets; None when it has none."""
    if not target:
        return None
    return all(check(k, v, ratios, values)[1] for k, v in target.items())


def describe(key, bound):
    """A target as the tables print it: ">= 0.9", ">= 1.0 (0.97)", "<= 1000.0"."""
    if "/" not in key:
        return f"<= {bound}"
    t = threshold(bound)
    return f">= {bound}" + (f" ({t:g})" if t != bound else "")


def checks(result):
    """Every target of a result, in row order: dicts with the suite, case,
    key, measured value, target and met (None: not measured, the row's
    subject did not run). A row's `also_required` ({what: bool}, e.g. hf's
    energy agreeing with PySCF's) must hold too: where it does not, every
    target of the row is missed, and `note` says why."""
    out = []
    for row in result.get("rows", []):
        failed = [what for what, ok in (row.get("also_required") or {}).items() if not ok]
        for key, bound in (row.get("target") or {}).items():
            measured, ok = check(key, bound, row.get("ratios", {}), row.get("values", {}))
            note = ""
            if measured is None:
                ok, note = None, "not measured"
            elif failed:
                ok, note = False, "also required: " + "; ".join(failed)
            out.append({"suite": result.get("benchmark", "?"), "case": row["case"], "key": key,
                        "measured": measured, "target": bound, "met": ok, "note": note})
    return out


def table(results):
    """Lines of the table of every target in `results` (one result per
    suite, in the order run), ending with the line that counts the misses."""
    rows = [c for r in results for c in checks(r)]
    if not rows:
        return ["no case with a target was measured"]
    case_w = min(76, max(len("case"), max(len(c["case"]) for c in rows)))
    key_w = max(len("ratio"), max(len(c["key"]) for c in rows))
    suite_w = max(len("suite"), max(len(c["suite"]) for c in rows))
    head = f"{'suite':<{suite_w}}  {'case':<{case_w}}  {'ratio':<{key_w}}  {'measured':>9}  {'target':<15}  result"
    lines = [head, "-" * len(head)]
    verdict = {True: "met", False: "MISSED", None: "-"}
    for c in rows:
        case = c["case"] if len(c["case"]) <= case_w else c["case"][:case_w - 1] + "~"
        measured = "-" if c["measured"] is None else f"{c['measured']:.3f}"
        note = f"  ({c['note']})" if c["note"] else ""
        lines.append(f"{c['suite']:<{suite_w}}  {case:<{case_w}}  {c['key']:<{key_w}}  {measured:>9}  "
                     f"{describe(c['key'], c['target']):<15}  {verdict[c['met']]}{note}")
    judged = [c for c in rows if c["met"] is not None]
    missed = [c for c in judged if not c["met"]]
    cases = {(c["suite"], c["case"]) for c in judged}
    missed_cases = {(c["suite"], c["case"]) for c in missed}
    unmeasured = len(rows) - len(judged)
    lines.append(f"{len(missed)} of {len(judged)} targets missed, in {len(missed_cases)} of {len(cases)} cases"
                 + (f"; {unmeasured} not measured" if unmeasured else "")
                 + f" (a target of exactly 1.0 is met from {threshold(1.0):g})")
    return lines
