"""Out-of-core restricted Hartree-Fock on pario: ChemIO's first client.

The two-electron integrals come from PySCF (libcint) in blocks, one block
per shell pair (ij) of the bra with the whole ket, skipped when Schwarz's
bound says the block is negligible. Blocks are handed to ranks by pario's
load-balancing counter. Each iteration builds J and K from the blocks and
accumulates the Fock matrix into a pario global array. Three modes:

  traditional  every block is computed once, stored in the rank's private
               pario file (or, --storage shared, in one shared file for all
               ranks), and read back every iteration;
  semidirect   the blocks costliest to recompute per byte (a cost estimate
               from their angular momenta) are stored, up to --budget; the
               rest are recomputed every iteration;
  direct       every block is recomputed every iteration.

Where the stored blocks live (disk, or RAM through Files in Memory) is
pario's run-time configuration: e.g. PARIO_FIM='hf_eri*'.

  mpiexec -n 2 python hf.py --xyz benzene.xyz --basis 6-31g --modes traditional,direct
"""
import argparse
import os
import sys
import time

import numpy as np

import pario
from mpi4py import MPI  # after pario: it points mpi4py at pario's MPI
from pyscf import gto, scf

COMM = MPI.COMM_WORLD
ME, NP = COMM.Get_rank(), COMM.Get_size()
SCHWARZ = 1e-12  # blocks whose largest integral is bounded below this are skipped


def say(*args):
    if ME == 0:
        print(*args, flush=True)


class Integrals:
    """The blocks (ij|kl) for bra shell pairs i >= j, with Schwarz bounds
    and a cost estimate per block."""

    def __init__(self, mol):
        self.mol = mol
        self.nao = mol.nao_nr()
        self.ao_loc = mol.ao_loc_nr()
        nsh = mol.nbas
        # Schwarz: Q[i,j] = sqrt(max |(ij|ij)|) per shell pair.
        diag = mol.intor("int2e", aosym="s1", shls_slice=None) if self.nao <= 40 else None
        q = np.zeros((nsh, nsh))
        for i in range(nsh):
            for j in range(i + 1):
                if diag is not None:
                    a, b = slice(*self.ao_loc[i:i + 2]), slice(*self.ao_loc[j:j + 2])
                    block = diag[a, b, a, b]
                else:
                    block = mol.intor("int2e", shls_slice=(i, i + 1, j, j + 1, i, i + 1, j, j + 1))
                q[i, j] = q[j, i] = np.sqrt(np.abs(block).max())
        qmax = q.max()
        self.tasks = [(i, j) for i in range(nsh) for j in range(i + 1) if q[i, j] * qmax >= SCHWARZ]
        self.skipped = nsh * (nsh + 1) // 2 - len(self.tasks)
        # Cost of a block: its integrals, weighted by the angular momenta
        # (higher shells cost more per integral in libcint).
        l = np.array([mol.bas_angular(s) for s in range(nsh)])
        self.cost = [self.size(t) * (1 + l[t[0]] + l[t[1]]) ** 2 for t in self.tasks]

    def shape(self, task):
        i, j = task
        return (self.ao_loc[i + 1] - self.ao_loc[i], self.ao_loc[j + 1] - self.ao_loc[j], self.nao, self.nao)

    def size(self, task):
        return int(np.prod(self.shape(task)))

    def compute(self, task):
        i, j = task
        nsh = self.mol.nbas
        return self.mol.intor("int2e", shls_slice=(i, i + 1, j, j + 1, 0, nsh, 0, nsh))

    def add_jk(self, task, block, dm, j_mat, k_mat):
        """J and K contributions of (ij|kl) and, for i != j, of (ji|kl)."""
        i, j = task
        a, b = slice(*self.ao_loc[i:i + 2]), slice(*self.ao_loc[j:j + 2])
        flat = block.reshape(block.shape[0] * block.shape[1], -1)
        jab = (flat @ dm.reshape(-1)).reshape(block.shape[:2])
        j_mat[a, b] += jab
        # K[a,k] += sum_{b,l} (ab|kl) D[b,l]
        k_mat[a, :] += np.einsum("abkl,bl->ak", block, dm[b, :], optimize=True)
        if i != j:
            j_mat[b, a] += jab.T
            k_mat[b, :] += np.einsum("abkl,al->bk", block, dm[a, :], optimize=True)


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
        self.index = []  # (task, offset, shape)
        self.end = 0     # bytes this rank stored

    def put(self, task, block):
        data = np.ascontiguousarray(block)
        offset = self.offsets.fetch_add(data.nbytes) if self.shared else self.end
        self.file.write(offset, data)
        self.index.append((task, offset, data.shape))
        self.end += data.nbytes

    def blocks(self):
        """The stored blocks in order, reading the next while the caller
        works on the current one (two buffers, pario's iread)."""
        if not self.index:
            return
        bufs = [np.empty(max(int(np.prod(s)) for _, _, s in self.index)) for _ in range(2)]
        def start(n):
            task, off, shape = self.index[n]
            out = bufs[n % 2][:int(np.prod(shape))]
            return self.file.iread(off, out), out.reshape(shape), task
        pending = start(0)
        for n in range(len(self.index)):
            req, block, task = pending
            req.wait()
            if n + 1 < len(self.index):
                pending = start(n + 1)
            yield task, block

    def close(self):
        """Collective when shared."""
        if self.shared:
            self.file.destroy()
            self.offsets.destroy()
        else:
            self.file.close()
            pario.File.remove(self.path)


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

    # Which blocks are stored: all, none, or (semidirect) those costliest to
    # recompute per byte stored, up to the budget; the same choice on every
    # rank. Stored blocks are computed once, handed out by the counter, and
    # kept by the rank that computed them; the others are handed out by the
    # counter again in every iteration.
    if mode == "traditional":
        stored = list(range(len(ints.tasks)))
    elif mode == "semidirect":
        by_value = sorted(range(len(ints.tasks)), key=lambda n: -ints.cost[n] / ints.size(ints.tasks[n]))
        stored, total = [], 0
        for n in by_value:
            nbytes = ints.size(ints.tasks[n]) * 8
            if total + nbytes <= budget * NP:
                stored.append(n)
                total += nbytes
    else:
        stored = []
    kept = set(stored)
    recomputed = [n for n in range(len(ints.tasks)) if n not in kept]
    t_ints = time.perf_counter()
    counter.reset()
    for n in counter:
        if n >= len(stored):
            break
        task = ints.tasks[stored[n]]
        store.put(task, ints.compute(task))
    t_ints = time.perf_counter() - t_ints

    history, errors = [], []
    energy, bytes_read = 0.0, 0
    converged = False
    for it in range(1, max_iter + 1):
        t0 = time.perf_counter()
        j_mat = np.zeros((nao, nao))
        k_mat = np.zeros((nao, nao))
        read = 0
        if store:
            for task, block in store.blocks():
                ints.add_jk(task, block, dm, j_mat, k_mat)
                read += block.nbytes
        if recomputed:
            counter.reset()
            for n in counter:
                if n >= len(recomputed):
                    break
                task = ints.tasks[recomputed[n]]
                ints.add_jk(task, ints.compute(task), dm, j_mat, k_mat)
        # Every rank adds its share of the two-electron part; then all read F.
        fock.zero()
        fock.acc((slice(None), slice(None)), j_mat - 0.5 * k_mat)
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
            f"|FDS-SDF| = {np.linalg.norm(err):.2e}  {time.perf_counter() - t0:6.3f} s  "
            f"read {read_all / 1e6:9.1f} MB")
        if abs(change) < conv and np.linalg.norm(err) < 1e-7:
            converged = True
            break
    total = time.perf_counter() - t_start
    stored = COMM.allreduce(store.end if store else 0)
    if store:
        store.close()
    counter.destroy()
    fock.destroy()
    return {"mode": mode, "energy": energy, "iterations": it, "converged": converged,
            "integral_seconds": COMM.allreduce(t_ints, op=MPI.MAX), "total_seconds": total,
            "stored_bytes": stored, "read_bytes": bytes_read}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--xyz", help="molecule as an XYZ file (default: benzene)")
    p.add_argument("--basis", default="6-31g")
    p.add_argument("--modes", default="traditional,semidirect,direct")
    p.add_argument("--budget", type=float, default=0.3,
                   help="semidirect storage per rank: bytes, or a fraction (< 1) of all blocks")
    p.add_argument("--storage", choices=("private", "shared"), default="private",
                   help="stored blocks in each rank's private file, or in one shared file")
    p.add_argument("--no-reference", action="store_true", help="skip PySCF's own RHF")
    args = p.parse_args(argv)
    atoms = open(args.xyz).read().split("\n", 2)[2] if args.xyz else BENZENE
    mol = gto.M(atom=atoms, basis=args.basis, verbose=0)
    say(f"pario {pario.__version__} Hartree-Fock: {mol.natm} atoms, {mol.nao_nr()} basis functions "
        f"({args.basis}), {NP} rank{'s' if NP > 1 else ''}")
    t0 = time.perf_counter()
    ints = Integrals(mol)
    all_bytes = sum(ints.size(t) for t in ints.tasks) * 8
    say(f"  {len(ints.tasks)} shell-pair blocks ({all_bytes / 1e6:.1f} MB), {ints.skipped} skipped by "
        f"Schwarz screening ({time.perf_counter() - t0:.2f} s)")
    budget = args.budget * all_bytes / NP if args.budget < 1 else args.budget
    results = [run(mol, ints, mode.strip(), budget, args.storage) for mode in args.modes.split(",")]
    reference = None
    if not args.no_reference:
        t0 = time.perf_counter()
        mf = scf.RHF(mol)
        mf.conv_tol = 1e-11
        reference = COMM.bcast(mf.kernel() if ME == 0 else None)
        ref_seconds = time.perf_counter() - t0
    say("\n  mode         iterations  integrals (s)  total (s)  stored (MB)  read (MB)  E - E(PySCF)")
    ok = True
    for r in results:
        diff = r["energy"] - reference if reference is not None else float("nan")
        ok &= r["converged"] and (reference is None or abs(diff) < 1e-8)
        say(f"  {r['mode']:<12} {r['iterations']:10d} {r['integral_seconds']:14.3f} {r['total_seconds']:10.3f} "
            f"{r['stored_bytes'] / 1e6:12.1f} {r['read_bytes'] / 1e6:10.1f}  {diff:+.2e}")
    if reference is not None:
        say(f"  PySCF RHF    E = {reference:.12f} ({ref_seconds:.2f} s on rank 0)")
    say("  energies agree with PySCF to 1e-8 Hartree: " + ("yes" if ok else "NO"))
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
