"""heat_plot's check (CMakeLists.txt): plot_heat.py's PNG of a heat file
is a picture, not a blank.

    plot_check.py plot_heat.py FILE.e OUT.png
"""
import runpy
import sys

import matplotlib.image
import numpy as np

script, path, png = sys.argv[1:4]
sys.argv = [script, path, png]
runpy.run_path(script, run_name="__main__")
colours = len(np.unique(matplotlib.image.imread(png)[..., :3].reshape(-1, 3), axis=0))
print(f"heat_plot: {png}: {colours} colours")
sys.exit(0 if colours > 100 else 1)
