"""pario exodus: Exodus II files from the command line (tools/pario_cli.py).

  pario exodus workload --nx NX --ny NY --nz NZ --steps T [--mixed] OUT
  pario exodus info FILE ...
  pario exodus diff A B [--rtol R] [--atol A] [--exact]
  pario exodus plot FILE --var NAME [--step K] [--axis z] [--at Z] -o out.png

Every command runs on one process or under `mpiexec -n P` (pario's
reader and writer are collective): each rank reads or writes its share
of every array, and rank 0 prints. No rank ever holds a whole mesh or a
whole step; a slice to plot is gathered to rank 0 (a plane: about N^(2/3)
points).

The pure parts (the workload's formulas, the value comparison, the
slice's choice) take NumPy arrays and no MPI, so tests call them directly.
"""
import os
import sys
import time

import numpy as np

# The workload of ../shared/exodus_workload.md (docs/architecture.md,
# "Exodus II files"): the same formulas, evaluated in the same order, as
# bench/exodus/workload.h, so pario's C writer, the peers and this command
# write the same bits.
TETS = np.array([(1, 2, 3, 7), (1, 2, 7, 6), (1, 4, 7, 3), (1, 4, 8, 7), (1, 5, 6, 7), (1, 5, 7, 8)]) - 1
HEX_CORNERS = np.array([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)])
CHUNK = 1 << 22  # values a rank reads per call: bounds the memory of info, diff and plot


class Workload:
    """The mesh of NX x NY x NZ cells and T steps, HEX or MIXED."""

    def __init__(self, nx, ny, nz, steps, mixed=False):
        if nx < 1 or ny < 1 or nz < 2 or steps < 0:
            raise ValueError(f"nx, ny >= 1, nz >= 2, steps >= 0 (got {nx}, {ny}, {nz}, {steps})")
        self.nx, self.ny, self.nz, self.steps, self.mixed = nx, ny, nz, steps, mixed
        self.cells = nx * ny * nz
        self.cells1 = nx * ny * (nz // 2)  # block 1: k < NZ/2
        self.nodes = (nx + 1) * (ny + 1) * (nz + 1)
        self.per_upper = 6 if mixed else 1
        self.elements = self.cells1 + self.per_upper * (self.cells - self.cells1)
        variant = "MIXED" if mixed else "HEX"
        self.title = f"pario-exodus-workload {variant} {nx}x{ny}x{nz} T={steps}"
        self.info = f"generator=pario-exodus-v1 nx={nx} ny={ny} nz={nz} T={steps} variant={variant}"

    def corners(self, cells):
        """(n, 8) HEX8 corners of cells, Exodus order, 0-based node indices."""
        i, j, k = cells % self.nx, (cells // self.nx) % self.ny, cells // (self.nx * self.ny)
        d = HEX_CORNERS
        return ((i[:, None] + d[:, 0]) + (self.nx + 1) * ((j[:, None] + d[:, 1]) + (self.ny + 1) * (k[:, None] + d[:, 2])))

    def coords(self, nodes):
        """x, y, z of nodes (0-based indices): one IEEE division each."""
        i = nodes % (self.nx + 1)
        j = (nodes // (self.nx + 1)) % (self.ny + 1)
        k = nodes // ((self.nx + 1) * (self.ny + 1))
        return i / self.nx, j / self.ny, k / self.nz

    def upper_elements(self, cells):
        """Block 2's elements of cells (all with k >= NZ/2): 0-based element
        indices and (n, nodes per element) 0-based node indices."""
        hexes = self.corners(cells)
        if not self.mixed:
            return self.cells1 + (cells - self.cells1), hexes
        first = self.cells1 + (cells - self.cells1) * 6
        elems = (first[:, None] + np.arange(6)).ravel()
        return elems, hexes[:, TETS].reshape(-1, 4)

    @staticmethod
    def time(step):
        return 0.25 * step

    @staticmethod
    def temperature(x, y, z, t):
        return 300 + 10 * x + 20 * y + 30 * z + t

    @staticmethod
    def displacement(x, y, z, t):
        return 0.001 * t * (1 + x + y * z)

    def centroids(self, conn):
        """Element centroids from (n, npe) 0-based node indices, summed in
        connectivity order (left to right, as the workload says; NumPy's own
        sum pairs the terms differently) and divided by npe."""
        x, y, z = self.coords(conn)
        cen = []
        for c in (x, y, z):
            s = c[:, 0].copy()
            for q in range(1, c.shape[1]):
                s += c[:, q]
            cen.append(s / c.shape[1])
        return cen

    @staticmethod
    def stress(cen, t):
        return 1000 + cen[0] + 2 * cen[1] + 3 * cen[2] + t


def share(n, rank, size):
    """[lo, hi) of n things dealt to rank of size, as the peers deal them."""
    return n * rank // size, n * (rank + 1) // size


def pieces(n, rank, size, chunk=CHUNK):
    """This rank's [lo, hi) in each of the same number of rounds on every
    rank (the reads are collective), at most chunk values per rank and round."""
    rounds = max(1, -(-n // (chunk * size)))
    for r in range(rounds):
        lo, hi = share(n, r, rounds)
        a, b = share(hi - lo, rank, size)
        yield lo + a, lo + b


# ------------------------------------------------------------- comparing --

class Difference:
    """What differs in one array between two files, summed over pieces."""

    def __init__(self, what):
        self.what = what
        self.count = 0        # values compared
        self.differ = 0       # values outside the tolerance
        self.max_abs = 0.0
        self.max_rel = 0.0
        self.first = None     # (index, a, b) of the first differing value

    def add(self, offset, a, b, rtol, atol, exact):
        """Compares a piece starting at offset. exact: bit-for-bit values (NaN
        equal to NaN); otherwise |a - b| <= max(atol, rtol * max(|a|, |b|))."""
        a, b = np.asarray(a), np.asarray(b)
        self.count += a.size
        if a.size == 0:
            return
        if exact and a.dtype.kind == "f" and a.dtype == b.dtype:
            bits = np.dtype(f"u{a.dtype.itemsize}")
            bad = a.view(bits) != b.view(bits)  # bit for bit: -0.0 is not 0.0, a NaN equals its own bits
        elif exact or a.dtype.kind in "iu":
            bad = a != b
            if a.dtype.kind == "f":
                bad &= ~(np.isnan(a) & np.isnan(b))
        else:
            diff = np.abs(a - b)
            scale = np.maximum(np.abs(a), np.abs(b))
            bad = ~(diff <= np.maximum(atol, rtol * scale))  # NaN on one side differs
            bad &= ~(np.isnan(a) & np.isnan(b))
        if a.dtype.kind == "f":
            with np.errstate(invalid="ignore", divide="ignore"):
                diff = np.abs(a.astype(np.float64) - b)
                rel = np.where(diff > 0, diff / np.maximum(np.abs(a), np.abs(b)), 0.0)
            finite = np.isfinite(diff)
            if finite.any():
                self.max_abs = max(self.max_abs, float(diff[finite].max()))
                self.max_rel = max(self.max_rel, float(np.nanmax(np.where(finite, rel, 0.0))))
        else:
            self.max_abs = max(self.max_abs, float(np.abs(a.astype(np.int64) - b).max()))
        n = int(bad.sum())
        if n:
            self.differ += n
            i = int(np.argmax(bad))
            if self.first is None or offset + i < self.first[0]:
                self.first = (offset + i, a.flat[i].item(), b.flat[i].item())

    def merged(self, others):
        """This rank's difference with the other ranks' (a list of tuples from state())."""
        for count, differ, max_abs, max_rel, first in others:
            self.count += count
            self.differ += differ
            self.max_abs = max(self.max_abs, max_abs)
            self.max_rel = max(self.max_rel, max_rel)
            if first is not None and (self.first is None or first[0] < self.first[0]):
                self.first = first
        return self

    def state(self):
        return self.count, self.differ, self.max_abs, self.max_rel, self.first

    def line(self):
        i, a, b = self.first
        scale = f"max abs {self.max_abs:.3g}" + (f", max rel {self.max_rel:.3g}" if isinstance(a, float) else "")
        return f"{self.what}: {self.differ} of {self.count} values differ, first at index {i}: {a!r} vs {b!r} ({scale})"


def nearest(coord, at):
    """(distance, value) of the coordinate nearest to `at` (the lower one
    on a tie); (inf, nan) for none. Ranks take the minimum of theirs."""
    if coord.size == 0:
        return (np.inf, np.nan)
    d = np.abs(coord - at)
    best = d.min()
    return (float(best), float(coord[d == best].min()))


def band(extent, count):
    """Half the width of a slice: half a mean spacing, extent / cbrt(count)
    / 2. Less than half a structured mesh's spacing, so such a slice is
    one plane of points; an unstructured mesh gives a band of points."""
    return 0.5 * extent / max(1.0, count ** (1 / 3))


# ------------------------------------------------------------ MPI helpers --

class Progress:
    """A one-line progress bar on rank 0's stderr when it is a terminal."""

    def __init__(self, label, total, rank):
        self.label, self.total, self.done = label, max(1, total), 0
        self.on = rank == 0 and sys.stderr.isatty()
        self.start = time.monotonic()

    def step(self, n=1):
        self.done += n
        if self.on:
            frac = min(1.0, self.done / self.total)
            bar = "#" * int(30 * frac)
            sys.stderr.write(f"\r{self.label} [{bar:<30}] {100 * frac:3.0f}% {time.monotonic() - self.start:6.1f} s")
            sys.stderr.flush()

    def end(self):
        if self.on:
            sys.stderr.write("\n")


def world():
    """pario started, then mpi4py's world (pario starts MPI first, so
    mpi4py's wheel finds the MPI library pario chose)."""
    import pario  # noqa: F401  (sets mpi4py's MPI library, starts MPI)
    pario.init()
    from mpi4py import MPI
    return pario, MPI.COMM_WORLD


# ------------------------------------------------------------- workload --

def cmd_workload(args):
    try:
        w = Workload(args.nx, args.ny, args.nz, args.steps, args.mixed)
    except ValueError as e:
        print(f"pario exodus workload: {e}", file=sys.stderr)
        return 2
    pario, comm = world()
    rank, size = comm.rank, comm.size
    # Rank r's cells: [C*r/P, C*(r+1)/P), the nodes they use (each shared
    # node passed by every rank using it: pario picks one writer).
    c0, c1 = share(w.cells, rank, size)
    cells = np.arange(c0, c1, dtype=np.int64)
    lower, upper = cells[cells < w.cells1], cells[cells >= w.cells1]
    conn1 = w.corners(lower)
    elems2, conn2 = w.upper_elements(upper)
    nodes = np.unique(np.concatenate([conn1.ravel(), conn2.ravel()]))
    x, y, z = w.coords(nodes)
    cen1, cen2 = w.centroids(conn1), w.centroids(conn2)
    bottom = lower[lower < w.nx * w.ny]  # side set z0: cells with k = 0 (block 1's first elements)
    progress = Progress(f"writing {args.out}", w.steps + 1, rank)
    comm.barrier()
    began = time.monotonic()
    try:
        write_workload(pario, comm, args.out, w, progress, (lower, conn1, elems2, conn2, nodes, x, y, z, cen1, cen2,
                                                            bottom))
    except pario.Error as e:  # every rank failed together (the others with RemoteError)
        progress.end()
        if rank == 0:
            print(f"pario exodus workload: {e}", file=sys.stderr)
        return 1
    comm.barrier()
    seconds = time.monotonic() - began
    progress.end()
    if rank == 0:
        mb = os.stat(args.out).st_size / 1e6
        print(f"pario exodus workload: wrote {args.out}: {w.nodes} nodes, {w.elements} elements, {w.steps} steps, "
              f"{mb:.1f} MB on {size} ranks in {seconds:.2f} s ({mb / seconds:.0f} MB/s, not synced)")
    return 0


def write_workload(pario, comm, out, w, progress, part):
    """This rank's part of the workload into one file written by all (collective)."""
    lower, conn1, elems2, conn2, nodes, x, y, z, cen1, cen2, bottom = part
    npe2 = 4 if w.mixed else 8
    with pario.ExodusFile.create(out, comm, title=w.title, num_nodes=w.nodes, num_elem=w.elements,
                                 num_blocks=2, num_node_sets=1, num_side_sets=1) as ex:
        ex.put_coord_names(["x", "y", "z"])
        ex.define_block(10, "HEX8", w.cells1, 8, name="lower")
        ex.define_block(20, "TETRA4" if w.mixed else "HEX8", w.elements - w.cells1, npe2, name="upper")
        ex.define_node_set(100, (w.ny + 1) * (w.nz + 1), name="x0")
        ex.define_side_set(200, w.nx * w.ny, name="z0")
        # One clock for every rank: a QA record that differs between ranks is refused.
        stamp = comm.bcast(time.strftime("%Y-%m-%d %H:%M:%S") if comm.rank == 0 else None, root=0).split()
        ex.put_qa([("pario", pario.__version__, stamp[0], stamp[1])])
        ex.put_info([w.info])
        ex.define_variables("global", ["energy"])
        ex.define_variables("nodal", ["temperature", "displacement_x"])
        ex.define_variables("element", ["stress"])
        ex.put_truth_table([[1], [1]])  # (blocks, variables): stress on both
        ex.end_define()
        ex.put_nodes(2 * (nodes + 1), x, y, z)
        ex.put_block(10, 2 * (lower + 1), 2 * (conn1 + 1))
        ex.put_block(20, 2 * (elems2 + 1), 2 * (conn2 + 1))
        ex.put_node_set(100, 2 * (nodes[nodes % (w.nx + 1) == 0] + 1))
        ex.put_side_set(200, 2 * (bottom + 1), np.full(bottom.size, 5))
        progress.step()
        for s in range(1, w.steps + 1):
            t = w.time(s)
            ex.put_time(s, t)
            ex.put_global_values(s, [t * t])
            ex.put_nodal_values(s, "temperature", w.temperature(x, y, z, t))
            ex.put_nodal_values(s, "displacement_x", w.displacement(x, y, z, t))
            ex.put_element_values(s, "stress", 10, w.stress(cen1, t))
            ex.put_element_values(s, "stress", 20, w.stress(cen2, t))
            progress.step()


# ------------------------------------------------------------------ info --

def container(path):
    """The netCDF container of path from its magic bytes."""
    with open(path, "rb") as f:
        magic = f.read(8)
    return {b"CDF\x01": "netCDF classic (CDF-1)", b"CDF\x02": "netCDF 64-bit offset (CDF-2)",
            b"CDF\x05": "netCDF 64-bit data (CDF-5)"}.get(magic[:4],
                                                         "netCDF-4/HDF5" if magic == b"\x89HDF\r\n\x1a\n" else None)


def value_ranges(comm, count, read, rows):
    """(min, max) of each of `rows` rows over all ranks of read(lo, n), an
    array of rows x n, for [0, count); None for an empty row."""
    lo_v, hi_v = [np.inf] * rows, [-np.inf] * rows
    for lo, hi in pieces(count, comm.rank, comm.size):
        v = np.asarray(read(lo, hi - lo)).reshape(rows, -1)
        if v.size:
            lo_v = [min(a, float(np.nanmin(r))) for a, r in zip(lo_v, v)]
            hi_v = [max(a, float(np.nanmax(r))) for a, r in zip(hi_v, v)]
    from mpi4py import MPI
    lo_v, hi_v = comm.allreduce(lo_v, MPI.MIN), comm.allreduce(hi_v, MPI.MAX)
    return [None if a > b else (a, b) for a, b in zip(lo_v, hi_v)]


def value_range(comm, count, read):
    """(min, max) over all ranks of read(lo, n) for [0, count), or None."""
    return value_ranges(comm, count, read, 1)[0]


def fmt_range(r):
    if r is None:
        return "empty"
    if all(float(v).is_integer() and abs(v) < 2**53 for v in r):  # ids: every digit
        return f"[{int(r[0])}, {int(r[1])}]"
    return f"[{r[0]:.6g}, {r[1]:.6g}]"


def describe(pario, comm, path, ranges=True):
    """Lines describing one Exodus file (every rank takes part; rank 0's count)."""
    kind = container(path)
    lines = [f"{path}: Exodus II, {kind or 'not a netCDF file'}, {os.stat(path).st_size / 2**20:.1f} MiB"]
    with pario.ExodusFile.open(path, comm) as ex:
        info = ex.info
        times = ex.times
        lines.append(f"  title: {info.title}")
        span = f" (time {times[0]:g} .. {times[-1]:g})" if len(times) else ""
        lines.append(f"  {info.num_dim}-D, {info.num_nodes} nodes, {info.num_elem} elements, "
                     f"{info.num_steps} steps{span}")
        if ranges:
            names = "xyz"[:info.num_dim]
            cr = value_ranges(comm, info.num_nodes, ex.read_coords, info.num_dim)  # one pass, every axis
            lines.append("  coordinates: " + ", ".join(f"{a} {fmt_range(r)}" for a, r in zip(names, cr)))
            ids = value_range(comm, info.num_nodes, ex.read_node_ids)
            lines.append(f"  node ids: {fmt_range(ids)}")
        for b in ex.blocks:
            extra = ""
            if ranges:
                extra = f", ids {fmt_range(value_range(comm, b.count, lambda s, n, b=b: ex.read_block(b.id, s, n)[0]))}"
            lines.append(f"  block {b.id} {b.name!r}: {b.type}, {b.count} elements of {b.nodes_per_element} nodes"
                         + extra)
        for kind_, label in (("node", "node set"), ("side", "side set")):
            for x in ex.sets(kind_):
                df = f", {x.df_count} distribution factors" if x.df_count else ""
                lines.append(f"  {label} {x.id} {x.name!r}: {x.count} {'nodes' if kind_ == 'node' else 'sides'}{df}")
        variables = ex.variables
        for kind_ in ("global", "nodal", "element"):
            names = variables[kind_]
            if not names:
                continue
            cells = []
            for v in names:
                r = None
                if ranges and info.num_steps:
                    r = var_range(comm, ex, info, kind_, v)
                cells.append(f"{v} {fmt_range(r)}" if ranges and info.num_steps else v)
            lines.append(f"  {kind_} variables: " + ", ".join(cells))
        lb = ex.loadbal(0)
        if lb is not None:
            lines.append(f"  Nemesis load-balance information (processor 0: {lb})")
    return lines


def var_range(comm, ex, info, kind, name):
    """A variable's (min, max) over every step (and block)."""
    lo, hi = np.inf, -np.inf
    for s in range(1, info.num_steps + 1):
        if kind == "global":
            v = ex.read_global_values(s)[ex.variables["global"].index(name)]
            rs = [(float(v), float(v))]
        elif kind == "nodal":
            rs = [value_range(comm, info.num_nodes, lambda a, n: ex.read_nodal_values(s, name, a, n))]
        else:  # the blocks that have it (truth table)
            v = ex.variables["element"].index(name)
            rs = [value_range(comm, b.count, lambda a, n, b=b: ex.read_element_values(s, name, b.id, a, n))
                  for b, has in zip(ex.blocks, ex.truth_table[:, v]) if has]
        for r in rs:
            if r is not None:
                lo, hi = min(lo, r[0]), max(hi, r[1])
    return None if lo > hi else (lo, hi)


def cmd_info(args):
    pario, comm = world()
    rc = 0
    for path in args.files:
        try:
            lines = describe(pario, comm, path, ranges=not args.no_ranges)
        except (OSError, pario.Error) as e:
            lines, rc = None, 1
            if comm.rank == 0:
                print(f"pario exodus info: {path}: {e}", file=sys.stderr)
        if lines and comm.rank == 0:
            print("\n".join(lines))
    return rc


# ------------------------------------------------------------------ diff --

def compare_files(pario, comm, path_a, path_b, rtol, atol, exact):
    """(lines, differences): the model's differences (names, sizes, blocks,
    sets, times), then every array's, value by value in file order (as
    SEACAS exodiff does by default); integers always exactly."""
    rank, size = comm.rank, comm.size
    lines, bad = [], 0
    with pario.ExodusFile.open(path_a, comm) as a, pario.ExodusFile.open(path_b, comm) as b:
        ia, ib = a.info, b.info
        for field in ("num_dim", "num_nodes", "num_elem", "num_blocks", "num_node_sets", "num_side_sets", "num_steps"):
            if getattr(ia, field) != getattr(ib, field):
                lines.append(f"{field}: {getattr(ia, field)} vs {getattr(ib, field)}")
        if ia.title != ib.title:
            lines.append(f"title: {ia.title!r} vs {ib.title!r} (not counted as a difference)")
        for kind in ("global", "nodal", "element"):
            if a.variables[kind] != b.variables[kind]:
                lines.append(f"{kind} variables: {a.variables[kind]} vs {b.variables[kind]}")
        blocks_a, blocks_b = a.blocks, b.blocks
        show = {"block": lambda x: f"{x.id} {x.name!r} {x.type}, {x.count} of {x.nodes_per_element} nodes",
                "set": lambda x: f"{x.id} {x.name!r}, {x.count} entries, {x.df_count} factors"}
        sets = {k: (a.sets(k), b.sets(k)) for k in ("node", "side")}
        for label, (xa, xb), how in [("block", (blocks_a, blocks_b), show["block"])] + [
                (f"{k} set", pair, show["set"]) for k, pair in sets.items()]:
            if len(xa) != len(xb):
                lines.append(f"{label}s: {len(xa)} vs {len(xb)}")
            lines += [f"{label} {how(x)} vs {how(y)}" for x, y in zip(xa, xb) if x != y]
        times_a, times_b = a.times, b.times
        bad = sum(1 for line in lines if not line.startswith("title"))
        if bad:  # the arrays cannot be matched up
            return lines, bad
        diff = Difference("times")
        if rank == 0:  # every rank has them: count them once
            diff.add(0, times_a, times_b, rtol, atol, exact)
        checks = [diff]

        def arrays():
            """(labels, count, read(file, start, n)) for the arrays of both
            files, read together where one call gives several (a tuple of
            arrays, each n entries of a fixed number of values)."""
            axes = tuple(f"coordinate {'xyz'[d]}" for d in range(ia.num_dim))
            yield axes, ia.num_nodes, lambda f, s, n: tuple(f.read_coords(s, n))
            yield ("node ids",), ia.num_nodes, lambda f, s, n: (f.read_node_ids(s, n),)
            for blk in blocks_a:
                yield ((f"block {blk.id} ids", f"block {blk.id} connectivity"), blk.count,
                       lambda f, s, n, k=blk.id: f.read_block(k, s, n))
            for x in sets["node"][0]:
                yield (f"node set {x.id}",), x.count, lambda f, s, n, k=x.id: (f.read_node_set(k, s, n),)
                if x.df_count:
                    yield ((f"node set {x.id} factors",), x.df_count,
                           lambda f, s, n, k=x.id: (f.read_set_df("node", k, s, n),))
            for x in sets["side"][0]:
                yield ((f"side set {x.id} elements", f"side set {x.id} sides"), x.count,
                       lambda f, s, n, k=x.id: f.read_side_set(k, s, n))
                if x.df_count:
                    yield ((f"side set {x.id} factors",), x.df_count,
                           lambda f, s, n, k=x.id: (f.read_set_df("side", k, s, n),))
            truth = a.truth_table
            for step in range(1, ia.num_steps + 1):
                if a.variables["global"]:  # one read gives them all
                    yield (tuple(f"global {v} step {step}" for v in a.variables["global"]), 1,
                           lambda f, s, n, st=step: tuple(f.read_global_values(st)[:, None]))
                for v in a.variables["nodal"]:
                    yield ((f"nodal {v} step {step}",), ia.num_nodes,
                           lambda f, s, n, st=step, v=v: (f.read_nodal_values(st, v, s, n),))
                for i, v in enumerate(a.variables["element"]):
                    for blk, has in zip(blocks_a, truth[:, i]):
                        if has:  # the truth tables are compared below
                            yield ((f"element {v} block {blk.id} step {step}",), blk.count,
                                   lambda f, s, n, st=step, v=v, k=blk.id: (f.read_element_values(st, v, k, s, n),))

        if not np.array_equal(a.truth_table, b.truth_table):
            lines.append(f"truth table: {a.truth_table.astype(int).tolist()} vs {b.truth_table.astype(int).tolist()}")
            return lines, 1
        todo = list(arrays())
        progress = Progress(f"comparing {path_a} and {path_b}", len(todo), rank)
        for labels, count, read in todo:
            diffs = [Difference(label) for label in labels]
            # The global values: one each, read by every rank, compared on rank 0.
            ranges = [(0, count)] if labels[0].startswith("global") else pieces(count, rank, size)
            for lo, hi in ranges:
                ra, rb = read(a, lo, hi - lo), read(b, lo, hi - lo)
                if labels[0].startswith("global") and rank != 0:
                    continue
                for d, x, y in zip(diffs, ra, rb):
                    x, y = np.ravel(x), np.ravel(y)
                    per = x.size // (hi - lo) if hi > lo else 1  # values per entry (connectivity: its nodes)
                    d.add(lo * per, x, y, rtol, atol, exact)
            checks += diffs
            progress.step()
        progress.end()
    states = comm.gather([c.state() for c in checks], root=0)
    if rank != 0:
        return lines, comm.bcast(None, root=0)
    compared = 0
    for i, c in enumerate(checks):
        c.count, c.differ, c.max_abs, c.max_rel, c.first = 0, 0, 0.0, 0.0, None
        c.merged([s[i] for s in states])
        compared += c.count
        if c.differ:
            lines.append(c.line())
            bad += 1
    lines.append(f"{len(checks)} arrays, {compared} values compared "
                 f"({'bit for bit' if exact else f'rtol {rtol:g}, atol {atol:g}; integers exactly'})")
    comm.bcast(bad, root=0)
    return lines, bad


def cmd_diff(args):
    pario, comm = world()
    try:
        lines, bad = compare_files(pario, comm, args.a, args.b, args.rtol, args.atol, args.exact)
    except (OSError, pario.Error) as e:
        if comm.rank == 0:
            print(f"pario exodus diff: {e}", file=sys.stderr)
        return 2
    if comm.rank == 0:
        print("\n".join(lines))
        print(f"pario exodus diff: {f'files differ in {bad} place' + 's' * (bad > 1) if bad else 'files are the same'}")
    return 1 if bad else 0


# ------------------------------------------------------------------ plot --

def cmd_plot(args):
    pario, comm = world()
    rank = comm.rank
    try:
        with pario.ExodusFile.open(args.file, comm) as ex:
            info = ex.info
            kind = next((k for k in ("nodal", "element", "global") if args.var in ex.variables[k]), None)
            if kind is None:
                raise ValueError(f"no variable {args.var!r} (the file has {ex.variables})")
            if info.num_steps == 0:
                raise ValueError("the file has no steps")
            step = info.num_steps if args.step is None else args.step
            if not 1 <= step <= info.num_steps:
                raise ValueError(f"--step {step} is not in 1..{info.num_steps}")
            times = ex.times
            if kind == "global":
                i = ex.variables["global"].index(args.var)
                series = [ex.read_global_values(s)[i] for s in range(1, info.num_steps + 1)]
                picture = ("global", times, np.array(series), None)
            else:
                picture = slice_points(comm, ex, info, kind, args.var, step, args.axis, args.at)
    except (OSError, ValueError, pario.Error) as e:
        if rank == 0:
            print(f"pario exodus plot: {e}", file=sys.stderr)
        return 2
    if rank == 0:
        draw(picture, args, times[step - 1], step)
        print(f"pario exodus plot: wrote {args.output}")
    return 0


def slice_points(comm, ex, info, kind, var, step, axis, at):
    """The plane's points (nodes, or element centroids) gathered on rank 0:
    ("slice", (u, v), values, description); a 2-D file gives all its points."""
    from mpi4py import MPI
    rank, size = comm.rank, comm.size
    dims = info.num_dim
    a = "xyz".index(axis)
    if a >= dims:
        raise ValueError(f"--axis {axis}: the file is {dims}-D")
    in_plane = [d for d in range(dims) if d != a] if dims == 3 else list(range(dims))
    pts, vals = [], []
    if kind == "nodal":
        count = info.num_nodes
        for lo, hi in pieces(count, rank, size):
            c = ex.read_coords(lo, hi - lo)
            pts.append(c)
            vals.append(ex.read_nodal_values(step, var, lo, hi - lo))
    else:
        count = info.num_elem
        has = ex.truth_table[:, ex.variables["element"].index(var)]
        for blk in (b for b, h in zip(ex.blocks, has) if h):  # the blocks that have it
            for lo, hi in pieces(blk.count, rank, size):
                _, conn = ex.read_block(blk.id, lo, hi - lo)
                vals.append(ex.read_element_values(step, var, blk.id, lo, hi - lo))
                pts.append(centroids_of(comm, ex, conn))
    coords = np.concatenate(pts, axis=1) if pts else np.zeros((dims, 0))
    values = np.concatenate(vals) if vals else np.zeros(0)
    if dims == 3:
        lo_c = comm.allreduce(float(coords[a].min()) if coords.shape[1] else np.inf, MPI.MIN)
        hi_c = comm.allreduce(float(coords[a].max()) if coords.shape[1] else -np.inf, MPI.MAX)
        want = 0.5 * (lo_c + hi_c) if at is None else at
        _, plane = comm.allreduce(nearest(coords[a], want), MPI.MIN)  # Python objects: the smallest tuple
        half = band(hi_c - lo_c, count)
        mask = np.abs(coords[a] - plane) <= half
        description = f"{axis} = {plane:g}" + (f" (asked {want:g})" if plane != want else "")
    else:
        mask, description = np.ones(coords.shape[1], bool), "the whole mesh"
    mine = (coords[in_plane][:, mask], values[mask])
    got = comm.gather(mine, root=0)
    if rank != 0:
        return None
    uv = np.concatenate([g[0] for g in got], axis=1)
    return ("slice", uv, np.concatenate([g[1] for g in got]), (description, ["xyz"[d] for d in in_plane]))


def centroids_of(comm, ex, conn):
    """Centroids of elements whose connectivity holds 1-based node positions:
    the coordinates of the range of positions they touch (compact for a
    partitioned or structured mesh; the whole node range at worst)."""
    if conn.size == 0:
        # Every rank takes part in the collective read, even with nothing to read.
        ex.read_coords(0, 0)
        return np.zeros((ex.info.num_dim, 0))
    first, last = int(conn.min()), int(conn.max())
    c = ex.read_coords(first - 1, last - first + 1)
    pos = conn - first
    out = []
    for d in range(c.shape[0]):
        x = c[d][pos]
        s = x[:, 0].copy()
        for q in range(1, x.shape[1]):
            s += x[:, q]
        out.append(s / x.shape[1])
    return np.array(out)


def draw(picture, args, t, step):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.tri as mtri
    kind, where, values, extra = picture
    fig, ax = plt.subplots(figsize=(7, 5.5), dpi=110)
    if kind == "global":
        ax.plot(where, values, marker="o")
        ax.set_xlabel("time")
        ax.set_ylabel(args.var)
        ax.set_title(f"{args.var} over {len(values)} steps: {os.path.basename(args.file)}")
    else:
        description, names = extra
        u, v = where
        if u.size >= 3 and np.ptp(u) > 0 and np.ptp(v) > 0:
            shown = ax.tripcolor(mtri.Triangulation(u, v), values, shading="gouraud", cmap="viridis")
        else:
            shown = ax.scatter(u, v, c=values, cmap="viridis")
        fig.colorbar(shown, ax=ax, label=args.var)
        ax.set_xlabel(names[0])
        ax.set_ylabel(names[1] if len(names) > 1 else "")
        ax.set_aspect("equal")
        ax.set_title(f"{args.var}, step {step} (t = {t:g}), {description}\n{os.path.basename(args.file)}: "
                     f"{values.size} points", fontsize=9)
    fig.tight_layout()
    fig.savefig(args.output)
    plt.close(fig)


# ---------------------------------------------------------------- parser --

def add_parser(sub):
    """The `exodus` command and its subcommands, under pario's parser."""
    e = sub.add_parser("exodus", help="write the Exodus workload, describe, compare and plot Exodus II files",
                       description=__doc__, formatter_class=__import__("argparse").RawDescriptionHelpFormatter)
    es = e.add_subparsers(dest="exodus_command", metavar="SUBCOMMAND")
    w = es.add_parser("workload", help="write the benchmark workload (../shared/exodus_workload.md; docs/architecture.md)")
    for axis in ("nx", "ny", "nz"):
        w.add_argument(f"--{axis}", type=int, required=True, help=f"cells along {axis[1]}" + (" (>= 2)" if axis == "nz" else ""))
    w.add_argument("--steps", type=int, required=True, metavar="T", help="time steps")
    w.add_argument("--mixed", action="store_true", help="the upper block as TETRA4 (6 per cell), not HEX8")
    w.add_argument("out", metavar="OUT")
    w.set_defaults(run=cmd_workload)
    i = es.add_parser("info", help="blocks, sets, variables, steps and value ranges of Exodus files")
    i.add_argument("files", nargs="+", metavar="FILE")
    i.add_argument("--no-ranges", action="store_true", help="the model only: read no coordinates or values")
    i.set_defaults(run=cmd_info)
    d = es.add_parser("diff", help="compare two Exodus files value by value (as SEACAS exodiff); exit 0 same, "
                                   "1 different, 2 error")
    d.add_argument("a", metavar="A")
    d.add_argument("b", metavar="B")
    d.add_argument("--rtol", type=float, default=1e-6, help="relative tolerance of floating-point values (1e-6)")
    d.add_argument("--atol", type=float, default=0.0, help="absolute tolerance, for values near 0 (0)")
    d.add_argument("--exact", action="store_true", help="floating-point values bit for bit")
    d.set_defaults(run=cmd_diff)
    p = es.add_parser("plot", help="a plane through a nodal or element variable (or a global one over time) as PNG")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--var", required=True, help="variable name")
    p.add_argument("--step", type=int, help="1-based step (default: the last)")
    p.add_argument("--axis", choices="xyz", default="z", help="the plane's normal in 3-D (z)")
    p.add_argument("--at", type=float, help="where the plane cuts the axis (default: the middle)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.png")
    p.set_defaults(run=cmd_plot)
    e.set_defaults(run=lambda args: (e.print_usage(sys.stderr), 2)[1])
    return e
