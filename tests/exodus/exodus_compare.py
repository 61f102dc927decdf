"""pario's Exodus files through two readers that know nothing of pario.

    exodus_compare.py DIR VARIANT P...

DIR holds VARIANT_npP.e for each P (tests/exodus/CMakeLists.txt writes
them with exodus_workload). Checks:
1. netCDF4-python (netCDF-C): every dimension and every variable of the
   file written at the first P equals, value for value, the one written at
   each other P (the file does not depend on the number of writers); the
   format is 64-bit offset; numrecs counts the steps.
2. meshio (its Exodus reader, on netCDF4): the points are the coordinates
   and the cells are the blocks' connectivity (0-based), by type.

Exits 77 (skipped) when netCDF4-python or meshio is missing: the setup
script installs both into the venv.
"""
import os
import sys

try:
    import numpy as np
    import netCDF4
except ImportError as e:
    print(f"exodus_compare: skipped: {e} (scripts/setup.sh installs netCDF4)")
    sys.exit(77)
try:
    import meshio
except ImportError as e:
    print(f"exodus_compare: skipped: {e} (scripts/setup.sh installs meshio)")
    sys.exit(77)
# meshio 5.3 maps the Exodus type TETRA4 (the workload's, and what
# libexodusii and SEACAS write) to "tetra4", a cell type meshio itself does
# not know (KeyError; nschloe/meshio PRs #1296 and #1336, open): read it as
# "tetra", as those PRs do.
from meshio.exodus import _exodus as _meshio_exodus  # noqa: E402

if _meshio_exodus.exodus_to_meshio_type.get("TETRA4") == "tetra4":
    _meshio_exodus.exodus_to_meshio_type["TETRA4"] = "tetra"


def read_all(path):
    with netCDF4.Dataset(path) as ds:
        ds.set_auto_mask(False)
        assert ds.data_model == "NETCDF3_64BIT_OFFSET", f"{path}: {ds.data_model}"
        dims = {n: len(d) for n, d in ds.dimensions.items()}
        vars_ = {n: np.array(v[...]) for n, v in ds.variables.items()}
        attrs = {n: ds.getncattr(n) for n in ds.ncattrs()}
    return dims, vars_, attrs


def main():
    where, variant, ranks = sys.argv[1], sys.argv[2], sys.argv[3:]
    files = [os.path.join(where, f"{variant}_np{p}.e") for p in ranks]
    base_dims, base_vars, base_attrs = read_all(files[0])
    assert base_dims["time_step"] > 0, "no steps"
    assert base_attrs["int64_status"] == 0 and base_attrs["floating_point_word_size"] == 8
    for other in files[1:]:
        dims, vars_, attrs = read_all(other)
        assert dims == base_dims, f"{other}: dimensions {dims} != {base_dims}"
        assert vars_.keys() == base_vars.keys(), f"{other}: variables differ"
        for name, values in base_vars.items():
            assert values.dtype == vars_[name].dtype, f"{other}: {name} type"
            assert np.array_equal(values, vars_[name]), f"{other}: {name} differs from {files[0]}"
        assert attrs["title"] == base_attrs["title"]
        print(f"exodus_compare: {other} equals {files[0]} in all {len(vars_)} variables")

    for path in files:
        mesh = meshio.read(path, file_format="exodus")
        _, v, _ = read_all(path)
        points = np.column_stack([v["coordx"], v["coordy"], v["coordz"]])
        assert np.array_equal(mesh.points, points), f"{path}: meshio's points differ"
        want = [("hexahedron", v["connect1"] - 1)]
        want.append(("tetra" if variant == "MIXED" else "hexahedron", v["connect2"] - 1))
        got = [(c.type, np.asarray(c.data)) for c in mesh.cells]
        assert len(got) == len(want), f"{path}: meshio sees {len(got)} cell blocks"
        for (gt, gd), (wt, wd) in zip(got, want):
            assert gt == wt and np.array_equal(gd, wd), f"{path}: meshio's {gt} cells differ"
        assert "temperature" in mesh.point_data, f"{path}: meshio has no temperature"
        print(f"exodus_compare: meshio reads {path}: {len(mesh.points)} points, "
              + ", ".join(f"{len(d)} {t}" for t, d in got))


if __name__ == "__main__":
    main()
