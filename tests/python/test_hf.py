"""The Hartree-Fock example (examples/hf) on small molecules: every mode
converges to PySCF's own RHF energy within 1e-8 Hartree, at 1 and 2 ranks
(CTest runs this file under both)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "hf"))
import hf  # noqa: E402

WATER = """3

O  0.0000  0.0000  0.1173
H  0.0000  0.7572 -0.4692
H  0.0000 -0.7572 -0.4692
"""


@pytest.mark.parametrize("basis", ["sto-3g", "6-31g*"])
def test_every_mode_matches_pyscf(tmp_path, basis):
    xyz = tmp_path / "water.xyz"
    xyz.write_text(WATER)
    results, reference, ok = hf.main(["--xyz", str(xyz), "--basis", basis, "--budget", "0.4"])
    assert ok
    assert [r["mode"] for r in results] == ["traditional", "semidirect", "direct"]
    for r in results:
        assert r["converged"]
        assert abs(r["energy"] - reference) < 1e-8, r
    traditional, semidirect, direct = results
    assert traditional["stored_bytes"] > semidirect["stored_bytes"] > 0 == direct["stored_bytes"]
    assert traditional["read_bytes"] > 0 and direct["read_bytes"] == 0


def test_shared_file_storage_matches_pyscf(tmp_path):
    xyz = tmp_path / "water.xyz"
    xyz.write_text(WATER)
    results, reference, ok = hf.main(["--xyz", str(xyz), "--basis", "sto-3g", "--modes", "traditional",
                                      "--storage", "shared"])
    assert ok and abs(results[0]["energy"] - reference) < 1e-8
    assert results[0]["stored_bytes"] > 0 and results[0]["read_bytes"] > 0


def test_kernel_matches_pyscf_jk():
    """The compiled kernel's packed 8-fold blocks, contracted, and its direct
    path give PySCF's J and K for a non-physical symmetric density (d shells
    included, so every coincidence weight is exercised)."""
    import numpy as np
    from pyscf import gto, scf
    mol = gto.M(atom=WATER.split("\n", 2)[2], basis="6-31g**", verbose=0)
    ints = hf.Integrals(mol)
    nao = ints.nao
    rng = np.random.default_rng(7)
    dm = rng.standard_normal((nao, nao))
    dm += dm.T
    jh, kh = np.zeros((nao, nao)), np.zeros((nao, nao))
    jd, kd = np.zeros((nao, nao)), np.zeros((nao, nao))
    dmax = ints.eri.shell_max(dm)
    for n in range(len(ints.tasks)):
        ints.add_jk(n, ints.compute(n), dm, jh, kh)
        ints.eri.direct(*ints.tasks[n], dm, dmax, 0.0, jd, kd)
    j_ref, k_ref = scf.hf.get_jk(mol, dm)
    assert np.abs(jh + jh.T - j_ref).max() < 1e-10
    assert np.abs(kh + kh.T - k_ref).max() < 1e-10
    assert np.abs(jd + jd.T - j_ref).max() < 1e-10
    assert np.abs(kd + kd.T - k_ref).max() < 1e-10
    # 8-fold: about an eighth of the nao^4 integrals
    assert sum(ints.sizes) < nao ** 4 / 6


def test_kernel_rejects_bad_arguments():
    import numpy as np
    from pyscf import gto
    mol = gto.M(atom=WATER.split("\n", 2)[2], basis="sto-3g", verbose=0)
    ints = hf.Integrals(mol)
    nao = ints.nao
    ok = np.zeros((nao, nao))
    with pytest.raises(IndexError, match="shell pair"):
        ints.eri.compute(0, 1, np.empty(1))
    with pytest.raises(ValueError, match="out has"):
        ints.eri.compute(1, 0, np.empty(1))
    with pytest.raises(ValueError, match="nao"):
        ints.eri.contract(0, 0, ints.compute(0), np.zeros((nao, nao + 1)), ok, ok)
    with pytest.raises(ValueError, match="wrong size"):
        ints.eri.contract(*ints.tasks[0], np.zeros(3), ok, ok, ok)
