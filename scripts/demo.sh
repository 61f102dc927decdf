#!/usr/bin/env bash
# The README's main job: installs what is missing, builds pario, and runs
# the private-file benchmark (ChemIO's Figures 3 and 4 on this machine) at
# a small size, printing its table. Safe to run again.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
scripts/setup.sh
mkdir -p build
scripts/build.sh release > build/release.build.log 2>&1 || { cat build/release.build.log; exit 1; }
exec bench/run eaf --quick --out build/demo-eaf.json
