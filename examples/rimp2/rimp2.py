"""Out-of-core matrix multiply, the heart of RI-MP2 (ChemIO section 5.2).

C = A.B with A (m x k) a disk array larger than the memory budget, streamed
through two global arrays of `rows` rows: while block i is multiplied, the
read of block i+1 is in flight (DiskArray.iread), and each block of C goes
back to disk while the next is computed (iwrite copies it out at once, so
its global array is free again). B (k x n) is small and every rank holds a
copy. The result is checked against an in-core product, and the run is
repeated without the read-ahead to show what the overlap gains (with
--cold, A comes from the disk rather than the page cache).

    mpiexec -n 2 python examples/rimp2/rimp2.py [--m 8192 --k 2048 --n 512 --budget 32M] [--cold]
"""
import argparse
import os
import sys
import time

import numpy as np

import pario


def size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].upper() in units else int(text)


def a_rows(lo, hi, k):
    """Rows lo..hi-1 of A (any rank can make any part of it)."""
    return np.sin(np.add.outer(np.arange(lo, hi) * 0.37, np.arange(k) * 0.011))


def b_matrix(k, n):
    return np.cos(np.add.outer(np.arange(k) * 0.05, -np.arange(n) * 0.3))


def drop_page_cache():
    os.sync()
    try:
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
    except OSError as e:
        print(f"note: cannot drop the page cache ({e.strerror}); A may come from memory")


def local_rows(ga, valid):
    """This rank's patch of a block array, cut to the block's first
    `valid` rows: (row slice, column slice, view)."""
    rows, cols = ga.distribution()
    stop = min(rows.stop, valid)
    if stop <= rows.start or cols.stop <= cols.start:
        return None
    return slice(rows.start, stop), cols, ga.local()[: stop - rows.start, :]


def make_a(path, m, k, rows, group):
    """Writes A to disk block by block (set-up, not part of the multiply)."""
    with pario.GlobalArray((rows, k), group=group, name="A block") as blk, \
            pario.DiskArray(path, (m, k), np.float64, chunks=(min(rows, m), k), group=group) as d:
        for i0 in range(0, m, rows):
            n = min(rows, m - i0)
            mine = local_rows(blk, n)
            if mine:
                r, c, view = mine
                view[:, :] = a_rows(i0 + r.start, i0 + r.stop, k)[:, c]
            blk.sync()
            d.write(blk, (slice(0, n), slice(None)), at=(i0, 0))


def multiply(a_path, c_path, m, k, n, rows, b, group, read_ahead):
    """C = A.B streamed from disk; returns (seconds, seconds waiting for reads)."""
    blocks = [pario.GlobalArray((rows, k), group=group, name=f"A block {i}") for i in range(2)]
    out = [pario.GlobalArray((rows, n), group=group, name=f"C block {i}") for i in range(2)]
    starts = list(range(0, m, rows))
    waited = 0.0
    group.barrier()
    t0 = time.perf_counter()
    with pario.DiskArray(a_path, mode="r", group=group) as da, \
            pario.DiskArray(c_path, (m, n), np.float64, chunks=(min(rows, m), n), group=group) as dc:
        def read(i):
            count = min(rows, m - starts[i])
            return da.iread(blocks[i % 2], (slice(0, count), slice(None)), at=(starts[i], 0))

        pending, writes = read(0), []
        for i, i0 in enumerate(starts):
            t = time.perf_counter()
            pending.wait()
            waited += time.perf_counter() - t
            if i + 1 < len(starts) and read_ahead:
                pending = read(i + 1)  # in flight during this block's multiply
            count = min(rows, m - i0)
            c = out[i % 2]
            c.zero()
            mine = local_rows(blocks[i % 2], count)
            if mine:
                r, cols, view = mine
                c.acc((r, slice(None)), view @ b[cols, :])
            c.sync()
            writes.append(dc.iwrite(c, (slice(0, count), slice(None)), at=(i0, 0)))
            if i + 1 < len(starts) and not read_ahead:
                pending = read(i + 1)
        pario.wait_all(writes)
    seconds = time.perf_counter() - t0
    for g in blocks + out:
        g.destroy()
    return seconds, waited


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--m", type=int, default=8192, help="rows of A and C")
    p.add_argument("--k", type=int, default=2048, help="columns of A, rows of B")
    p.add_argument("--n", type=int, default=512, help="columns of B and C")
    p.add_argument("--budget", type=size, default=size("32M"),
                   help="memory for A's blocks in flight (two of them), e.g. 32M")
    p.add_argument("--dir", default=None, help="scratch directory (default: PARIO_SCRATCH)")
    p.add_argument("--cold", action="store_true",
                   help="drop the page cache before each multiply (needs root), so A comes from the disk")
    args = p.parse_args()
    m, k, n = args.m, args.k, args.n
    group = pario.Group()
    rows = max(1, args.budget // (2 * k * 8))
    base = os.path.join(args.dir, "rimp2") if args.dir else pario.scratch_path("rimp2", per_rank=False)
    a_path, c_path = base + "_A.zarr", base + "_C.zarr"
    if group.rank == 0:  # leftovers of an interrupted run
        import shutil
        for path in (a_path, c_path):
            shutil.rmtree(path, ignore_errors=True)
    group.barrier()
    a_bytes = m * k * 8
    if group.rank == 0:
        print(f"A: {m} x {k} doubles ({a_bytes / 1e6:.0f} MB) on disk; budget {args.budget / 1e6:.1f} MB "
              f"-> blocks of {rows} rows, {-(-m // rows)} blocks; {group.size} ranks")
        if a_bytes <= args.budget:
            print("note: A fits the budget; the run is not out of core")
    make_a(a_path, m, k, rows, group)
    b = b_matrix(k, n)

    # Each way twice, alternating; the faster of each pair is reported.
    results = {}
    for read_ahead in (False, True, False, True):
        if group.rank == 0:
            import shutil
            shutil.rmtree(c_path, ignore_errors=True)
            if args.cold:
                drop_page_cache()
        group.barrier()
        run = multiply(a_path, c_path, m, k, n, rows, b, group, read_ahead)
        results[read_ahead] = min(results.get(read_ahead, run), run)

    # Check C on disk against the in-core product, a block of rows at a time.
    worst = 0.0
    with pario.DiskArray(c_path, mode="r", group=group) as dc, \
            pario.GlobalArray((rows, n), group=group, name="C check") as got:
        for i0 in range(0, m, rows):
            count = min(rows, m - i0)
            dc.read(got, (slice(0, count), slice(None)), at=(i0, 0))
            if group.rank == 0:
                want = a_rows(i0, i0 + count, k) @ b
                worst = max(worst, float(np.max(np.abs(got[:count, :] - want)) / max(1.0, np.max(np.abs(want)))))
    flops = 2.0 * m * k * n
    if group.rank == 0:
        for read_ahead, (seconds, waited) in results.items():
            label = "read-ahead" if read_ahead else "no overlap"
            print(f"{label:>11}: {seconds:7.3f} s, {flops / seconds / 1e9:6.2f} GFLOP/s, "
                  f"{a_bytes / seconds / 1e6:7.0f} MB/s of A, waiting for reads {waited:6.3f} s")
        print(f"read-ahead speed-up: {results[False][0] / results[True][0]:.2f}x")
        ok = worst < 1e-12
        print(f"max relative difference from the in-core product: {worst:.2e} "
              f"({'ok' if ok else 'MISMATCH'})")
    pario.DiskArray.remove(a_path, group=group)
    pario.DiskArray.remove(c_path, group=group)
    if group.rank == 0 and worst >= 1e-12:
        sys.exit(1)


if __name__ == "__main__":
    main()
