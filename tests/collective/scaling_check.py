"""docs/scaling.md checked against what the statistics count.

Runs scaling_run (tests/collective/scaling_run.c) at 4 ranks with 1, 2 and
4 ranks per emulated node (4, 2 and 1 aggregators), takes each transfer's
counts from the differences of the statistics each rank wrote after it,
and compares them with the plan (src/collective/plan.cpp, recomputed here
from the same few numbers) and with the formulas of docs/scaling.md:

- bytes sent = n_r e, less what a rank keeps for itself as an aggregator
  (exact); bytes received by an aggregator = its domain's elements held by
  other ranks (exact; at most D e);
- file requests: one per round and held range (exact), except that an
  aggregator writes its own piece of a round straight from its packed copy
  when that piece alone is one held range, joined with the previous such
  piece where the two continue each other (z-slabs: one request for the
  aggregator's own slab, one per round for the rest of its domain); file
  bytes = the held elements (write); a read: one request per round for its
  held span, except the rounds whose only piece is the aggregator's own,
  read into its packed copy and joined as a write's;
- R = ceil(D / W) when the domain starts on a window bound, at most
  ceil(D / W) + 1 otherwise (exact from the plan);
- messages sent per rank <= ceil(n_r / W) + A_r for slabs, <= A R for
  scattered elements; messages received per aggregator round <= P - 1
  (its own part is copied);
- peak buffer = n_r e, plus 1 or 2 windows and the staging buffer for an
  aggregator (exact), at most n_r e + 3 B; none of them where every round
  of its domain is its own direct piece alone (write) or its only piece
  (read: read straight into its packed copy); a write or read of
  scattered indices (kept by slot) takes the send buffers instead of n_r e
  (exact, as collective/plan.cpp places the messages: at most
  2 min(B, n_r e)), and its aggregator copies its own pieces into or out
  of the window, never moving one straight between the file and a packed
  copy;
- a read moves the same messages and bytes the other way.

Prints a table of what it measured (the one in docs/scaling.md).

    scaling_check.py "MPIEXEC;ARGS..." SCALING_RUN WORKDIR
"""
import json
import math
import os
import shutil
import subprocess
import sys
import time

P = 4
DIMS = (16, 10, 10)
N = DIMS[0] * DIMS[1] * DIMS[2]
E = 8  # doubles
BUFFERS = (1000, 4096, 65536)  # as scaling_run.c
MASK = (1 << 64) - 1


def owner(g):
    """As scaling_run.c: the rank holding index g when scattered, or -1."""
    if g % 7 == 3:
        return -1
    return (((g * 6364136223846793005 + 1442695040888963407) & MASK) >> 33) % P


def held(pattern):
    """Each rank's global indices, sorted."""
    if pattern == "slabs":
        per = DIMS[1] * DIMS[2]
        return [list(range(DIMS[0] * r // P * per, DIMS[0] * (r + 1) // P * per)) for r in range(P)]
    out = [[] for _ in range(P)]
    for g in range(N):
        if owner(g) >= 0:
            out[owner(g)].append(g)
    return out


class Plan:
    """src/collective/plan.cpp's DomainPlan and choose_aggregators (one per node)."""

    def __init__(self, lo, hi, buffer, rpn):
        self.aggs = list(range(0, P, rpn))  # each node's first rank
        self.w = max(1, buffer // E)
        unit = max(1, buffer // E)  # align 0: the buffer
        count = len(self.aggs)
        self.bounds = [lo] * (count + 1)
        self.bounds[count] = hi
        for k in range(1, count):
            b = lo + (hi - lo) * k // count
            b = (b + unit // 2) // unit * unit
            self.bounds[k] = min(max(b, self.bounds[k - 1]), hi)

    def rounds(self, a):
        b, e = self.bounds[a], self.bounds[a + 1]
        return 0 if b >= e else (e - 1) // self.w - b // self.w + 1

    def aggregator_of(self, g):
        a = 0
        while a + 1 < len(self.aggs) and g >= self.bounds[a + 1]:
            a += 1
        return a

    def round_of(self, a, g):
        return g // self.w - self.bounds[a] // self.w

    def round_range(self, a, r):
        b = self.bounds[a]
        return max(b, (b // self.w + r) * self.w), min(self.bounds[a + 1], (b // self.w + r + 1) * self.w)


def runs(sorted_indices):
    """Maximal runs of consecutive indices: (start, length)."""
    out = []
    for g in sorted_indices:
        if out and out[-1][0] + out[-1][1] == g:
            out[-1][1] += 1
        else:
            out.append([g, 1])
    return out


def sender_runs(pattern, gs):
    """The runs a sender describes gs with: runs join only where the global
    and the memory positions both continue (collective/layout.cpp), and
    scaling_run hands scattered indices over in decreasing order."""
    return len(runs(gs)) if pattern == "slabs" else len(gs)


def expect(pattern, buffer, rpn):
    """Per rank, the write's and the read's counts as the plan makes them."""
    mine = held(pattern)
    every = sorted(g for m in mine for g in m)
    plan = Plan(every[0], every[-1] + 1, buffer, rpn)
    holder = {g: r for r in range(P) for g in mine[r]}
    w = [dict(messages_sent=0, bytes_sent=0, messages_received=0, bytes_received=0, rounds=0, file_requests=0,
              file_bytes=0, largest_request=0, peak_buffer_bytes=packed_copy(pattern, mine[r]), agg=-1) for r in range(P)]
    rd = [dict(x) for x in w]
    for r in range(P):
        if from_caller(pattern, mine[r]):
            w[r]["peak_buffer_bytes"] = rd[r]["peak_buffer_bytes"] = send_buffer_bytes(plan, mine[r], r)
    for r in range(P):
        meets = {(plan.aggregator_of(g), plan.round_of(plan.aggregator_of(g), g)) for g in mine[r]}
        for a, _ in meets:
            if plan.aggs[a] != r:
                w[r]["messages_sent"] += 1
        w[r]["bytes_sent"] = sum(E for g in mine[r] if plan.aggs[plan.aggregator_of(g)] != r)
    for a, ar in enumerate(plan.aggs):
        w[ar]["agg"] = rd[ar]["agg"] = a
        nr = plan.rounds(a)
        w[ar]["rounds"] = rd[ar]["rounds"] = nr
        window = staging = 0
        windows_used = {"write": False, "read": False}
        direct_end = None  # where the pending direct write ends in the file
        read_end = None  # where the pending direct read ends in the file
        for rr in range(nr):
            begin, end = plan.round_range(a, rr)
            window = max(window, end - begin)
            inside = [g for g in range(begin, end) if g in holder]
            senders = {}
            for g in inside:
                senders.setdefault(holder[g], []).append(g)
            for s, gs in senders.items():
                if s != ar:
                    w[ar]["messages_received"] += 1
                    w[ar]["bytes_received"] += len(gs) * E
            # A piece of more than one of its sender's runs is staged.
            staging = max(staging, sum(len(gs) for gs in senders.values() if sender_runs(pattern, gs) > 1))
            covered = runs(inside)
            own = senders.get(ar, [])
            own_run = runs(own)[0] if own and sender_runs(pattern, own) == 1 else None  # in place
            direct = own_run if own_run in covered and not from_caller(pattern, mine[ar]) else None
            if direct is None or len(senders) > 1:
                windows_used["write"] = True
            # a read of its own piece alone, straight into its packed copy
            read_direct = (covered and own_run is not None and len(senders) == 1 and covered == [own_run]
                           and not from_caller(pattern, mine[ar]))
            if not read_direct:
                windows_used["read"] = True
            w[ar]["file_bytes"] += len(inside) * E
            for start, length in covered:
                if [start, length] == direct:  # from the packed copy, joined to the pending one
                    if direct_end == start:
                        w[ar]["largest_request"] = max(w[ar]["largest_request"], direct_len + length * E)
                        direct_len += length * E
                    else:
                        w[ar]["file_requests"] += 1
                        direct_len = length * E
                        w[ar]["largest_request"] = max(w[ar]["largest_request"], direct_len)
                    direct_end = start + length
                    continue
                w[ar]["file_requests"] += 1
                w[ar]["largest_request"] = max(w[ar]["largest_request"], length * E)
            if read_direct:  # joined to the previous such read where the two continue each other
                if read_end == own_run[0]:
                    read_len += own_run[1] * E
                else:
                    rd[ar]["file_requests"] += 1
                    read_len = own_run[1] * E
                read_end = own_run[0] + own_run[1]
                rd[ar]["file_bytes"] += own_run[1] * E
                rd[ar]["largest_request"] = max(rd[ar]["largest_request"], read_len)
            elif covered:  # a read takes the held span in one request
                span = (covered[-1][0] + covered[-1][1] - covered[0][0]) * E
                rd[ar]["file_requests"] += 1
                rd[ar]["file_bytes"] += span
                rd[ar]["largest_request"] = max(rd[ar]["largest_request"], span)
        if nr:
            extra = window * E * (2 if nr > 1 else 1) + staging * E
            w[ar]["peak_buffer_bytes"] += extra if windows_used["write"] else 0
            rd[ar]["peak_buffer_bytes"] += extra if windows_used["read"] else 0
    for r in range(P):  # a read is the write the other way
        rd[r]["messages_sent"], rd[r]["bytes_sent"] = w[r]["messages_received"], w[r]["bytes_received"]
        rd[r]["messages_received"], rd[r]["bytes_received"] = w[r]["messages_sent"], w[r]["bytes_sent"]
    return plan, mine, w, rd


def from_caller(pattern, indices):
    """Whether a write goes from (a read into) the caller's buffer through two
    send buffers: scattered indices, two or more (kept one per element, by slot)."""
    return pattern == "scattered" and len(indices) > 1


def send_buffer_bytes(plan, gs, r):
    """The send buffers of such a write (collective/plan.cpp,
    send_buffer_capacity and place_sends): the buffers used, each of the
    most elements a rank sends to others in one round (at least its largest
    message, at most the window)."""
    me = plan.aggs.index(r) if r in plan.aggs else -1
    counts = {}
    for g in gs:
        a = plan.aggregator_of(g)
        if a != me:
            key = (plan.round_of(a, g), a)
            counts[key] = counts.get(key, 0) + 1
    if not counts:
        return 0
    per_round = {}
    for (rr, _), c in counts.items():
        per_round[rr] = per_round.get(rr, 0) + c
    capacity = max(max(counts.values()), min(max(per_round.values()), plan.w))
    buffers, at = 1, 0
    for key in sorted(counts):  # by round, then aggregator
        if at > 0 and at + counts[key] > capacity:
            buffers, at = 2, 0
        at += counts[key]
    return buffers * capacity * E


def packed_copy(pattern, indices):
    """Bytes of a rank's packed copy in a blocking transfer of doubles: none
    when its elements are already in file order (slabs: sent from and
    received into the caller's buffer), else one copy (scattered indices
    are held in decreasing order by scaling_run.c)."""
    return 0 if pattern == "slabs" or len(indices) <= 1 else len(indices) * E


LARGEST = ("largest_request", "peak_buffer_bytes")  # kept as the largest over transfers


def main():
    mpiexec = [a for a in sys.argv[1].split(";") if a]
    program, work = sys.argv[2], sys.argv[3]
    failures = []
    measured = []
    t_start = time.time()

    def check(what, got, want):
        if got != want:
            failures.append(f"{what}: measured {got}, expected {want}")

    for rpn in (1, 2, 4):
        out = os.path.join(work, f"rpn{rpn}")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        env = dict(os.environ, PARIO_RANKS_PER_NODE=str(rpn), PARIO_STATS_FILE=os.path.join(out, "final_%r.json"))
        env.pop("PARIO_STATS", None)
        for var in ("PARIO_AGGREGATORS", "PARIO_AGGREGATOR_RANKS", "PARIO_AGGREGATOR_BUFFER"):
            env.pop(var, None)
        run = subprocess.run(mpiexec + [program, out], env=env, capture_output=True, text=True, timeout=100)
        if run.returncode != 0:
            sys.exit(f"scaling_check: {program} at {rpn} ranks per node failed ({run.returncode}):\n"
                     f"{run.stdout}{run.stderr}")
        before = [dict(write={}, read={}, setup={}) for _ in range(P)]
        peaks = [dict(write={k: 0 for k in LARGEST}, read={k: 0 for k in LARGEST}) for _ in range(P)]
        k = 0
        for pattern in ("slabs", "scattered"):
            for buffer in BUFFERS:
                plan, mine, want_w, want_r = expect(pattern, buffer, rpn)
                for direction, want in (("write", want_w), ("read", want_r)):
                    got = []
                    for r in range(P):
                        with open(os.path.join(out, f"s{k}_{r}.json")) as f:
                            now = json.load(f)["collective"]
                        this = {}
                        for key, v in now[direction].items():
                            this[key] = v if key in LARGEST else v - before[r][direction].get(key, 0)
                        before[r] = {d: dict(now[d]) for d in ("write", "read", "setup")}
                        got.append(this)
                    case = f"{rpn} ranks/node, {pattern}, B={buffer}, {direction}"
                    for r in range(P):
                        check(f"{case}, rank {r}: transfers", got[r]["transfers"], 1)
                        for key in want[r]:
                            if key == "agg":
                                continue
                            if key in LARGEST:  # the largest so far
                                peaks[r][direction][key] = max(peaks[r][direction][key], want[r][key])
                                check(f"{case}, rank {r}: {key}", got[r][key], peaks[r][direction][key])
                            else:
                                check(f"{case}, rank {r}: {key}", got[r][key], want[r][key])
                        if got[r]["exchange_seconds"] < 0 or got[r]["io_seconds"] < 0:
                            failures.append(f"{case}, rank {r}: negative time")
                    # docs/scaling.md's formulas, beside the plan's exact counts.
                    a_count, w_elems = len(plan.aggs), plan.w
                    for r in range(P):
                        n_r = len(mine[r])
                        g = got[r]
                        own = sum(1 for x in mine[r] if plan.aggs[plan.aggregator_of(x)] == r)
                        sent, recv = ("bytes_sent", "bytes_received") if direction == "write" else \
                            ("bytes_received", "bytes_sent")
                        msgs = "messages_sent" if direction == "write" else "messages_received"
                        check(f"{case}, rank {r}: {sent} = (n_r - own) e", g[sent], (n_r - own) * E)
                        a_r = len({plan.aggregator_of(x) for x in mine[r]})
                        bound = math.ceil(n_r / w_elems) + a_r if pattern == "slabs" else \
                            sum(plan.rounds(a) for a in range(a_count))
                        if g[msgs] > bound:
                            failures.append(f"{case}, rank {r}: {g[msgs]} {msgs} > {bound}")
                        a = want[r]["agg"]
                        if a < 0:
                            for key in ("rounds", "file_requests", "file_bytes", recv):
                                check(f"{case}, rank {r} (no aggregator): {key}", g[key], 0)
                            continue
                        d = plan.bounds[a + 1] - plan.bounds[a]
                        nrounds = g["rounds"]
                        starts_on_bound = plan.bounds[a] % w_elems == 0
                        if d and starts_on_bound:
                            check(f"{case}, aggregator {r}: R = ceil(D / W)", nrounds, math.ceil(d / w_elems))
                        elif d and nrounds > math.ceil(d / w_elems) + 1:
                            failures.append(f"{case}, aggregator {r}: R = {nrounds} > ceil(D / W) + 1")
                        if g[recv] > d * E:
                            failures.append(f"{case}, aggregator {r}: {recv} {g[recv]} > D e = {d * E}")
                        in_msgs = "messages_received" if direction == "write" else "messages_sent"
                        if g[in_msgs] > nrounds * (P - 1):
                            failures.append(f"{case}, aggregator {r}: {g[in_msgs]} messages > P - 1 per round")
                        if pattern == "slabs":  # a fully held domain: one request per round
                            # (but the rounds wholly its own, consecutive in its slab, in one)
                            lo_r, hi_r = (mine[r][0], mine[r][-1] + 1) if mine[r] else (0, 0)
                            own_rounds = sum(1 for q in range(nrounds)
                                             if lo_r <= plan.round_range(a, q)[0] and plan.round_range(a, q)[1] <= hi_r)
                            want_requests = nrounds - max(0, own_rounds - 1)
                            check(f"{case}, aggregator {r}: file requests", g["file_requests"], want_requests)
                            check(f"{case}, aggregator {r}: file bytes = D e", g["file_bytes"], d * E)
                        copy = 2 * min(buffer, n_r * E) if from_caller(pattern, mine[r]) else n_r * E
                        if g["peak_buffer_bytes"] > max(copy + 3 * buffer, peaks[r][direction]["peak_buffer_bytes"]):
                            failures.append(f"{case}, aggregator {r}: buffers beyond n_r e (or the send buffers) + 3 B")
                    if direction == "write":
                        aggs = [got[x] for x in plan.aggs]
                        measured.append(dict(
                            rpn=rpn, a=a_count, pattern=pattern, buffer=buffer,
                            rounds=max(x["rounds"] for x in aggs),
                            sent=max(x["messages_sent"] for x in got),
                            per_round=max((x["messages_received"] / x["rounds"] for x in aggs if x["rounds"]),
                                          default=0),
                            bytes_sent=sum(x["bytes_sent"] for x in got),
                            requests=sum(x["file_requests"] for x in aggs),
                            peak=max(x["peak_buffer_bytes"] for x in aggs)))
                    k += 1
    print("| ranks/node | A | pattern | B | rounds (max) | messages sent per rank (max) | "
          "received per aggregator round (max) | bytes sent (all) | file requests (all) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for m in measured:
        print(f"| {m['rpn']} | {m['a']} | {m['pattern']} | {m['buffer']} | {m['rounds']} | {m['sent']} | "
              f"{m['per_round']:.1f} | {m['bytes_sent']} | {m['requests']} |")
    print(f"scaling_check: {len(measured) * 2} transfers at {P} ranks checked in {time.time() - t_start:.1f} s")
    if failures:
        print("\n".join(failures[:40]), file=sys.stderr)
        sys.exit(f"scaling_check: {len(failures)} differences")


if __name__ == "__main__":
    main()
