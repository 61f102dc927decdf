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
