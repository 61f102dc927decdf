"""After dataset_capi_test: h5py (the serial wheel, no pario) reads the
pario dataset it kept, through the documented layout only, and finds every
record and value the test wrote.    pds_check.py FILE.h5"""
import sys

import h5py
import numpy as np

with h5py.File(sys.argv[1], "r") as f:
    assert f.attrs["pario_format"] == "pario dataset", f.attrs["pario_format"]
    assert f.attrs["pario_format_version"] == 1
    # Segments: groups named by position, in time order.
    segs = sorted(f["segments"].keys())
    assert segs == [f"{i:08d}" for i in range(5)], segs
    kinds = [f["segments"][s].attrs["pario_kind"] for s in segs]
    assert kinds == ["topology", "state", "state", "state", "state"], kinds
    assert [int(f["segments"][s].attrs["pario_time_index"]) for s in segs] == [0, 0, 1, 2, 3]
    assert [float(f["segments"][s].attrs["pario_time_value"]) for s in segs] == [0.0, 0.0, 0.5, 1.0, 1.25]
    # Variables: a group each, ids in registration order.
    var = f["variables"]
    ids = {name: int(var[name].attrs["pario_id"]) for name in var}
    assert ids == {"temp": 0, "vel": 1, "stress": 2, "id": 3, "grid": 4, "disp": 5}, ids
    assert var["vel"].attrs["pario_item"] == "vector" and list(var["vel"].attrs["pario_item_dims"]) == [3, 1]
    assert var["stress"].attrs["pario_item"] == "tensor" and var["stress"].attrs["pario_word_name"] == "double"
    assert var["stress"].attrs["units"] == "GPa"

    # Rank-ordered temp in segment 1: writer r wrote r + 1 items 1000 r + 10 i.
    temp = f["segments/00000001/temp"]
    n = int(temp.attrs["pario_writers"])
    pieces = list(temp.attrs["pario_piece_items"])
    assert temp.attrs["pario_layout"] == "rank" and pieces == [r + 1 for r in range(n)], pieces
    assert int(temp.attrs["pario_item_sum"]) == n * (n + 1) // 2 and int(temp.attrs["pario_item_max"]) == n
    want = np.concatenate([1000.0 * r + 10.0 * np.arange(r + 1) for r in range(n)])
    assert temp.dtype == np.dtype("<f8") and np.array_equal(temp[...], want), temp[...]
    assert np.array_equal(f["segments/00000002/temp"][...], want + 1)
    assert "temp" not in f["segments/00000003"]  # not every segment has every variable
    vel = f["segments/00000002/vel"]
    assert vel.dtype == np.dtype("<f4") and vel.shape == (n * (n - 1), 3), (vel.dtype, vel.shape)
    want = np.concatenate([np.zeros((0, 3))] + [1000.0 * r + 10.0 * np.arange(2 * r)[:, None] + np.arange(3)
                                                for r in range(n)])
    assert np.array_equal(vel[...], want.astype("<f4"))
    stress = f["segments/00000003/stress"]
    assert stress.shape == (n, 2, 2)
    assert np.array_equal(stress[...], (1000.0 * np.arange(n)[:, None] + np.arange(4)).reshape(n, 2, 2))
    ids = f["segments/00000003/id"]
    assert ids.dtype == np.dtype("<i4") and list(ids[...]) == sum([[r, 7] for r in range(n)], [])

    # Global-ordered sections: in global order whatever the writer count.
    grid = f["segments/00000001/grid"]
    assert grid.attrs["pario_layout"] == "global" and grid.shape == (6, 10)
    assert np.array_equal(grid[...], 0.5 * np.arange(60).reshape(6, 10))
    disp = f["segments/00000003/disp"]
    assert disp.shape == (7, 3) and np.array_equal(disp[...], np.arange(21).reshape(7, 3) + 0.25)

    # Infos: attributes not starting with pario_.
    types = {1: "<f8", 2: "<f4", 3: "<i4", 4: "<i8", 5: "<c16", 6: "i1", 7: "u1", 8: "<i2", 9: "<u2",
             10: "<u4", 11: "<u8", 12: "<c8"}
    for t, dtype in types.items():
        a = f.attrs[f"type{t:02d}"]
        assert a.dtype == np.dtype(dtype), (t, a.dtype)
        assert np.array_equal(a, np.array([1, 2, 3]).astype(dtype)), (t, a)
    assert f.attrs["title"] == "PDS test, \u00e9t\u00e9", f.attrs["title"]
    assert f.attrs["empty"] == "" and f.attrs["none"].shape == (0,)
    assert list(f["segments/00000002"].attrs["energy"]) == [-1.5]
print(f"pds_check: {sys.argv[1]} holds what dataset_capi_test wrote ({n} writers)")
