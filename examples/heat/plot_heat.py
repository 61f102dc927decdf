"""The last step of a heat result as a PNG: the temperature on the box's
bottom face (z = 0, where the decaying mode is largest), and the heat flux
of the tetrahedra touching that face (arrows, coloured by magnitude; at
most about 800 of them).
Reads the file through pario's Python package (pario.ExodusFile).

    PYTHONPATH=build/release/bindings/python .venv/bin/python \
        examples/heat/plot_heat.py heat.e heat.png
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.tri as mtri  # noqa: E402
import numpy as np  # noqa: E402
import pario  # noqa: E402


def main(path, out):
    with pario.ExodusFile.open(path) as f:
        info = f.info
        step = info.num_steps
        if step < 1:
            raise SystemExit(f"plot_heat: {path} has no steps")
        t = f.times[-1]
        x, y, z = f.read_coords()
        temp = f.read_nodal_values(step, "temperature")
        block = f.blocks[0]
        _, conn = f.read_block(block.id)
        q = np.array([f.read_element_values(step, v, block.id) for v in ("flux_x", "flux_y", "flux_z")])
    zs = z.min()
    on = np.abs(z - zs) < 1e-9
    centroid = np.array([x[conn - 1].mean(axis=1), y[conn - 1].mean(axis=1), z[conn - 1].mean(axis=1)])
    near = np.flatnonzero(on[conn - 1].any(axis=1))
    near = near[:: max(1, len(near) // 800)]

    fig, ax = plt.subplots(1, 2, figsize=(12, 4.2), constrained_layout=True)
    tri = mtri.Triangulation(x[on], y[on])
    c = ax[0].tricontourf(tri, temp[on], levels=20, cmap="inferno")
    fig.colorbar(c, ax=ax[0], label="temperature")
    ax[0].set_title(f"temperature at z = {zs:g}, t = {t:.4g} (step {step})")
    mag = np.linalg.norm(q[:, near], axis=0)
    a = ax[1].quiver(centroid[0, near], centroid[1, near], q[0, near], q[1, near], mag, cmap="viridis")
    fig.colorbar(a, ax=ax[1], label="|heat flux|")
    ax[1].set_title(f"heat flux (x, y) of the tetrahedra touching z = {zs:g}")
    for a_ in ax:
        a_.set_aspect("equal")
        a_.set_xlabel("x")
        a_.set_ylabel("y")
    fig.suptitle(f"{path}: {info.num_nodes} nodes, {info.num_elem} tetrahedra")
    fig.savefig(out, dpi=110)
    print(f"plot_heat: {out}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit("usage: plot_heat.py FILE.e OUT.png")
    main(sys.argv[1], sys.argv[2])
