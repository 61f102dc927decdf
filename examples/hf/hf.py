"""Out-of-core restricted Hartree-Fock on pario: ChemIO's first client.

The two-electron integrals are PySCF's (libcint), computed by the compiled
hf_kernel in blocks: one block per bra shell pair ij against its unique kets
(8-fold symmetry), each shell quartet kept only when Schwarz's bound says it
can matter. Blocks are handed to ranks by pario's load-balancing counter.
Each iteration builds J and K from the blocks (hf_kernel's contraction) and
accumulates the Fock matrix into a pario global array. Three modes:

  traditional  every block is computed once, stored in the rank's private
               pario file (or, --storage shared, in one shared file for all
               ranks), and read back every iteration;
  semidirect   the blocks costliest to recompute per byte (an estimate from
               primitives and angular momenta) are stored, up to --budget;
               the rest are recomputed every iteration;
  direct       every block is recomputed every iteration.

Recomputed blocks build the Fock matrix incrementally, from the change of
the density since the last iteration, and skip the quartets that change
cannot reach (density screening), as direct SCF codes do.

Where the stored blocks live (disk, or RAM through Files in Memory) is
pario's run-time configuration: e.g. PARIO_FIM='hf_eri*'.

  mpiexec -n 2 python hf.py --xyz benzene.xyz --basis 6-31g --modes traditional,direct
"""
import argparse
import ctypes
import json
import sys
import time

import numpy as np

import pario
from mpi4py import MPI  # after pario: it points mpi4py at pario's MPI
from pyscf import gto, scf
from pyscf.gto import moleintor

try:
    import hf_kernel
except ImportError as e:  # built by pario's CMake next to the pario package
    sys.exit(f"hf.py: the compiled kernel is missing ({e}): build pario with scripts/build.sh release "
             "and put build/release/bindings/python on PYTHONPATH")

COMM = MPI.COMM_WORLD
ME, NP = COMM.Get_rank(), COMM.Get_size()
SCHWARZ = 1e-12            # shell quartets bounded below this are never computed
DENSITY_SCREENING = 1e-13  # recomputed quartets whose bound times the density change is below this are skipped


def say(*args):
    if ME == 0:
        print(*args, flush=True)


class Integrals:
    """The unique integrals in blocks, one per bra shell pair ij (i >= j)
    against its kets kl (k >= l, kl <= ij): 8-fold symmetry, Schwarz
    screening per shell quartet. libcint (PySCF's integral engine, called by
    the compiled hf_kernel) computes them; hf_kernel also contracts them."""

    def __init__(self, mol):
        self.mol = mol
        self.nao = mol.nao_nr()
        intor = mol._add_suffix("int2e")
        # Kept alive as long as the kernel may call libcint with it.
        self._optimizer = moleintor.make_cintopt(mol._atm, mol._bas, mol._env, intor)
        function = ctypes.cast(getattr(moleintor.libcgto, intor), ctypes.c_void_p).value
        self.eri = hf_kernel.Eri(mol._atm, mol._bas, mol._env, mol.ao_loc_nr().astype(np.int32),
                                 function, self._optimizer.value or 0, SCHWARZ)
        q = self.eri.schwarz()
        qmax = q.max()
        nsh = mol.nbas
        pairs = [(i, j) for i in range(nsh) for j in range(i + 1) if q[i, j] * qmax >= SCHWARZ]
        # A pair may keep no ket at all: then it has no block.
        info = {t: self.eri.block_info(*t) for t in pairs}
        self.tasks = [t for t in pairs if info[t][0] > 0]
        self.skipped = nsh * (nsh + 1) // 2 - len(self.tasks)
        self.sizes = [info[t][0] for t in self.tasks]  # doubles per block
        self.cost = [info[t][1] for t in self.tasks]   # estimated work per block

    def compute(self, n):
        block = np.empty(self.sizes[n])
        self.eri.compute(*self.tasks[n], block)
        return block

    def add_jk(self, n, block, dm, jh, kh):
        """Jh, Kh += block n's part (J = Jh + Jh^T, K = Kh + Kh^T)."""
        self.eri.contract(*self.tasks[n], block, dm, jh, kh)

    def add_jk_direct(self, n, dm, dmax, jh, kh):
        """Computes block n's quartets that matter for dm (density screening
        with dmax = eri.shell_max(dm)) and contracts them at once."""
        return self.eri.direct(*self.tasks[n], dm, dmax, DENSITY_SCREENING, jh, kh)


class Store:
    """This rank's stored blocks: appended to its private pario file, or
    (shared=True) to one pario shared file for all ranks, each block at an
    offset a pario counter hands out (one fetch-and-add per block)."""

    def __init__(self, path, shared=False):
        self.path = path
        self.shared = shared
        if shared:
            self.file = pario.SharedFile(path, request_size=1 << 20)
            self.offsets = pario.Counter()
        else:
            self.file = pario.File(path, "w+")
        self.index = []  # (block number, offset, doubles)
        self.end = 0     # bytes this rank stored
        self.wait_seconds = 0.0

    def put(self, n, block):
        offset = self.offsets.fetch_add(block.nbytes) if self.shared else self.end
        self.file.write(offset, block)
        self.index.append((n, offset, block.size))
        self.end += block.nbytes

    def blocks(self):
        """The stored blocks in order, reading the next while the caller
        works on the current one (two buffers, pario's iread)."""
        if not self.index:
            return
        bufs = [np.empty(max(size for _, _, size in self.index)) for _ in range(2)]

        def start(k):
            n, offset, size = self.index[k]
            out = bufs[k % 2][:size]
            return self.file.iread(offset, out), out, n
        pending = start(0)
        for k in range(len(self.index)):
            req, block, n = pending
            t = time.perf_counter()
            req.wait()
            self.wait_seconds += time.perf_counter() - t
            if k + 1 < len(self.index):
                pending = start(k + 1)
            yield n, block

    def close(self):
        """Collective when shared."""
        if self.shared:
            self.file.destroy()
            self.offsets.destroy()
        else:
            self.file.close()
            pario.File.remove(self.path)


def stored_blocks(ints, mode, budget):
    """Which blocks are stored: all, none, or (semidirect) those costliest to
    recompute per byte stored, up to the budget (bytes per rank); the same
    choice on every rank."""
    everything = range(len(ints.tasks))
    if mode == "traditional":
        return list(everything)
    if mode != "semidirect":
        return []
    chosen, total = [], 0
    for n in sorted(everything, key=lambda n: -ints.cost[n] / ints.sizes[n]):
        nbytes = ints.sizes[n] * 8
        if total + nbytes <= budget * NP:
            chosen.append(n)
            total += nbytes
    return chosen


def symmetric(h):
    return h + h.T


def run(mol, ints, mode, budget, storage="private", max_iter=60, conv=1e-10):
    """One SCF in `mode`; returns a dict of results (energy, times, bytes)."""
    nao = ints.nao
    s = mol.intor("int1e_ovlp")
    h = mol.intor("int1e_kin") + mol.intor("int1e_nuc")
    e_nuc = mol.energy_nuc()
    nocc = mol.nelectron // 2
    w, v = np.linalg.eigh(s)
    x = v / np.sqrt(w)  # S^-1/2, canonical
    dm = scf.hf.init_guess_by_minao(mol)
    fock = pario.GlobalArray((nao, nao), np.float64, name=f"fock-{mode}")
    counter = pario.Counter()
    store = None
    if mode != "direct":
        shared = storage == "shared"
        store = Store(pario.scratch_path(f"hf_eri_{mode}", per_rank=not shared), shared)
    t_start = time.perf_counter()

    # Stored blocks are computed once, handed out by the counter, and kept by
    # the rank that computed them; the others are handed out by the counter
    # again in every iteration.
    stored = stored_blocks(ints, mode, budget)
    kept = set(stored)
    recomputed = [n for n in range(len(ints.tasks)) if n not in kept]
    t_ints = time.perf_counter()
    counter.reset()
    for k in counter:
        if k >= len(stored):
            break
        store.put(stored[k], ints.compute(stored[k]))
    t_ints = time.perf_counter() - t_ints

    # The recomputed blocks' share of the two-electron matrix, built from
    # density changes: this rank's running sum (the sum over ranks is the
    # whole share for the current density).
    g_recomputed = np.zeros((nao, nao))
    dm_last = np.zeros((nao, nao))
    history, errors = [], []
    energy, bytes_read, quartets = 0.0, 0, 0
    converged = False
    for it in range(1, max_iter + 1):
        t0 = time.perf_counter()
        jh, kh = np.zeros((nao, nao)), np.zeros((nao, nao))
        read = 0
        if store:
            for n, block in store.blocks():
                ints.add_jk(n, block, dm, jh, kh)
                read += block.nbytes
        g = symmetric(jh) - 0.5 * symmetric(kh)
        if recomputed:
            delta = dm - dm_last
            dmax = ints.eri.shell_max(delta)
            jh, kh = np.zeros((nao, nao)), np.zeros((nao, nao))
            counter.reset()
            for k in counter:
                if k >= len(recomputed):
                    break
                quartets += ints.add_jk_direct(recomputed[k], delta, dmax, jh, kh)
            g_recomputed += symmetric(jh) - 0.5 * symmetric(kh)
            dm_last = dm
        # Every rank adds its share of the two-electron part; then all read F.
        fock.zero()
        fock.acc((slice(None), slice(None)), g + g_recomputed)
        fock.sync()
        f = h + fock[:, :]
        fock.sync()
        e_new = 0.5 * np.sum(dm * (h + f)) + e_nuc
        # DIIS on the commutator FDS - SDF.
        err = f @ dm @ s - s @ dm @ f
        history.append(f)
        errors.append(x.T @ err @ x)
        history, errors = history[-8:], errors[-8:]
        if len(history) > 1:
            m = len(history)
            b = -np.ones((m + 1, m + 1))
            b[m, m] = 0
            for p in range(m):
                for q in range(m):
                    b[p, q] = np.vdot(errors[p], errors[q])
            rhs = np.zeros(m + 1)
            rhs[m] = -1
            c = np.linalg.solve(b, rhs)[:m]
            f = sum(ci * fi for ci, fi in zip(c, history))
        eps, cprime = np.linalg.eigh(x.T @ f @ x)
        mo = x @ cprime
        dm = 2 * mo[:, :nocc] @ mo[:, :nocc].T
        read_all = COMM.allreduce(read)
        bytes_read += read_all
        change = e_new - energy
        energy = e_new
        say(f"  {mode:<11} iter {it:2d}  E = {energy:.12f}  dE = {change:+.3e}  "
            f"|FDS-SDF| = {np.linalg.norm(err):.2e}  {time.perf_counter() - t0:7.3f} s  "
            f"read {read_all / 1e6:9.1f} MB")
        if abs(change) < conv and np.linalg.norm(err) < 1e-7:
            converged = True
            break
    total = time.perf_counter() - t_start
    scf_seconds = total - COMM.allreduce(t_ints, op=MPI.MAX)
    stored_bytes = COMM.allreduce(store.end if store else 0)
    wait = COMM.allreduce(store.wait_seconds if store else 0.0, op=MPI.MAX)
    if store:
        store.close()
    counter.destroy()
    fock.destroy()
    return {"mode": mode, "energy": energy, "iterations": it, "converged": converged,
            "integral_seconds": COMM.allreduce(t_ints, op=MPI.MAX), "total_seconds": total,
            "scf_seconds": scf_seconds, "read_wait_seconds": wait,
            "stored_bytes": stored_bytes, "read_bytes": bytes_read,
            "quartets_recomputed": COMM.allreduce(quartets), "ranks": NP}


def comparison(results, reference_seconds):
    """The seed's section 5.1 comparison: how much longer direct takes than
    the disk-based modes, and the read rate each rank sustained."""
    by_mode = {r["mode"]: r for r in results}
    lines = ["  ChemIO section 5.1   time         direct:mode   read per rank (MB/s)"]
    direct = by_mode.get("direct")
    for r in results:
        ratio = f"{direct['total_seconds'] / r['total_seconds']:5.2f}:1" if direct else "    -  "
        rate = r["read_bytes"] / r["ranks"] / r["scf_seconds"] / 1e6 if r["read_bytes"] else 0.0
        lines.append(f"  {r['mode']:<20} {r['total_seconds']:9.2f} s   {ratio:>11}   {rate:10.1f}")
    if reference_seconds is not None:
        lines.append(f"  {'PySCF RHF':<20} {reference_seconds:9.2f} s   (rank 0 alone)")
    lines.append("  seed (64 nodes, 324 functions): direct:traditional 1.5:1 (IBM SP), 3.9:1 (Cray T3E); "
                 "direct:semi-direct 2.9:1 (SP), 2.2:1 (T3E); read per node 8.0 MB/s (SP), 0.58 MB/s (T3E)")
    return "\n".join(lines)


def pyscf_reference(mol, conv, direct=False):
    """PySCF's own RHF with the same convergence thresholds: (energy,
    seconds). It keeps the integrals in memory when they fit in its memory
    budget; direct=True makes it recompute them (its direct SCF) anyway."""
    t0 = time.perf_counter()
    mf = scf.RHF(mol)
    if direct:
        mf._is_mem_enough = lambda: False
    mf.conv_tol, mf.conv_tol_grad = conv
    energy = mf.kernel()
    return energy, time.perf_counter() - t0, mf.converged


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--xyz", help="molecule as an XYZ file (default: benzene)")
    p.add_argument("--basis", default="6-31g")
    p.add_argument("--modes", default="traditional,semidirect,direct",
                   help="comma-separated; empty: only PySCF's own RHF")
    p.add_argument("--budget", type=float, default=0.3,
                   help="semidirect storage per rank: bytes, or a fraction (< 1) of all blocks")
    p.add_argument("--storage", choices=("private", "shared"), default="private",
                   help="stored blocks in each rank's private file, or in one shared file")
    p.add_argument("--no-reference", action="store_true", help="skip PySCF's own RHF")
    p.add_argument("--pyscf-direct", action="store_true",
                   help="PySCF's reference by its direct SCF even when its integrals fit in memory")
    p.add_argument("--json", help="write the results to this file (rank 0)")
    args = p.parse_args(argv)
    atoms = open(args.xyz).read().split("\n", 2)[2] if args.xyz else BENZENE
    mol = gto.M(atom=atoms, basis=args.basis, verbose=0)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    for m in modes:
        if m not in ("traditional", "semidirect", "direct"):
            p.error(f"unknown mode '{m}' (traditional, semidirect, direct)")
    say(f"pario {pario.__version__} Hartree-Fock: {mol.natm} atoms, {mol.nao_nr()} basis functions "
        f"({args.basis}), {NP} rank{'s' if NP > 1 else ''}")
    conv = (1e-10, 1e-7)  # energy change; |FDS - SDF| (PySCF: its orbital gradient)
    results = []
    if modes:
        t0 = time.perf_counter()
        ints = Integrals(mol)
        all_bytes = sum(ints.sizes) * 8
        say(f"  {len(ints.tasks)} shell-pair blocks, {all_bytes / 1e6:.1f} MB of unique integrals after "
            f"Schwarz screening ({ints.skipped} pairs skipped; {time.perf_counter() - t0:.2f} s)")
        budget = args.budget * all_bytes / NP if args.budget < 1 else args.budget
        results = [run(mol, ints, mode, budget, args.storage, conv=conv[0]) for mode in modes]
    reference = ref_seconds = None
    if not args.no_reference:
        reference, ref_seconds, _ = pyscf_reference(mol, conv, args.pyscf_direct) if ME == 0 else (None, None, None)
        reference, ref_seconds = COMM.bcast((reference, ref_seconds))
    ok = True
    if results:
        say("\n  mode         iterations  integrals (s)  total (s)  stored (MB)  read (MB)  E - E(PySCF)")
    for r in results:
        diff = r["energy"] - reference if reference is not None else float("nan")
        ok &= r["converged"] and (reference is None or abs(diff) < 1e-8)
        say(f"  {r['mode']:<12} {r['iterations']:10d} {r['integral_seconds']:14.3f} {r['total_seconds']:10.3f} "
            f"{r['stored_bytes'] / 1e6:12.1f} {r['read_bytes'] / 1e6:10.1f}  {diff:+.2e}")
    if reference is not None:
        say(f"  PySCF RHF    E = {reference:.12f} ({ref_seconds:.2f} s on rank 0)")
    if results:
        say("\n" + comparison(results, ref_seconds))
    if results and reference is not None:
        say("  energies agree with PySCF to 1e-8 Hartree: " + ("yes" if ok else "NO"))
    if args.json and ME == 0:
        with open(args.json, "w") as out:
            json.dump({"molecule": args.xyz or "benzene", "basis": args.basis, "nao": mol.nao_nr(), "ranks": NP,
                       "results": results, "pyscf_energy": reference, "pyscf_seconds": ref_seconds}, out, indent=1)
    return results, reference, ok


BENZENE = """
C   0.0000   1.3970  0.0
C   1.2098   0.6985  0.0
C   1.2098  -0.6985  0.0
C   0.0000  -1.3970  0.0
C  -1.2098  -0.6985  0.0
C  -1.2098   0.6985  0.0
H   0.0000   2.4810  0.0
H   2.1486   1.2405  0.0
H   2.1486  -1.2405  0.0
H   0.0000  -2.4810  0.0
H  -2.1486  -1.2405  0.0
H  -2.1486   1.2405  0.0
"""

if __name__ == "__main__":
    pario.init()
    _, _, good = main()
    pario.finalize()
    sys.exit(0 if good else 1)
