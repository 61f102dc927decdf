#!/usr/bin/env bash
# The README's main job: installs what is missing, builds pario and its
# Python package, and runs the out-of-core Hartree-Fock example on 2 ranks
# in its three modes (traditional, semi-direct, direct), printing the
# comparison table and the energy check against PySCF. Safe to run again.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
scripts/setup.sh
mkdir -p build
scripts/build.sh release > build/release.build.log 2>&1 || { cat build/release.build.log; exit 1; }
export PYTHONPATH="$here/build/release/bindings/python${PYTHONPATH:+:$PYTHONPATH}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
# One thread per rank: the ranks already fill the cores (PySCF would start
# one OpenMP thread per core in each).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export PARIO_SCRATCH="${PARIO_SCRATCH:-$here/build}"
exec mpiexec.openmpi --oversubscribe -n 2 "$here/.venv/bin/python" examples/hf/hf.py "$@"
