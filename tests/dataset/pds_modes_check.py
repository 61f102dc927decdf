"""After dataset_modes_test: h5py (the serial wheel, no pario) reads each
dataset it kept through the documented layout only (src/dataset/pds.h):
the entry file, then its member files by pario_member_pattern, 0, 1, ...
while they exist, and finds every record and value the test wrote.
    pds_modes_check.py DIR RANKS"""
import os
import sys

import h5py
import numpy as np

root, ranks = sys.argv[1], int(sys.argv[2])


def segments(entry_path):
    """{position: (file name, segment group attrs, {variable: array})}."""
    out = {}
    with h5py.File(entry_path, "r") as entry:
        assert entry.attrs["pario_format"] == "pario dataset"
        if int(entry.attrs["pario_format_version"]) == 1:
            files = [entry_path]
            assert "pario_file_mode" not in entry.attrs
        else:
            assert int(entry.attrs["pario_format_version"]) == 2
            assert "segments" not in entry  # the entry holds no steps
            pattern = entry.attrs["pario_member_pattern"]
            files, k = [], 0
            while os.path.exists(os.path.join(os.path.dirname(entry_path), pattern % k)):
                files.append(os.path.join(os.path.dirname(entry_path), pattern % k))
                k += 1
        assert list(entry["variables"].keys()) == ["temp", "vel"]
    for k, name in enumerate(files):
        with h5py.File(name, "r") as f:
            if name != entry_path:
                assert f.attrs["pario_format"] == "pario dataset member" and int(f.attrs["pario_member"]) == k
            for s in f["segments"]:
                g = f["segments"][s]
                out[int(s)] = (os.path.basename(name), dict(g.attrs), {v: g[v][...] for v in g})
    assert sorted(out) == list(range(len(out))), sorted(out)
    return out


items = ranks * (ranks + 1) // 2
# Each mode after truncation to 0..2 and time indices 2, 3 written again.
for stem, per_file in (("one", None), ("per_step", 1), ("two_per_file", 2)):
    segs = segments(os.path.join(root, stem + ".h5"))
    assert len(segs) == 5, (stem, len(segs))
    assert [int(segs[s][1]["pario_time_index"]) for s in range(5)] == [0, 0, 1, 2, 3]
    assert segs[0][1]["pario_kind"] == "topology" and segs[1][1]["pario_kind"] == "state"
    for s in range(1, 5):
        temp = segs[s][2]["temp"]
        assert np.array_equal(temp, 1000.0 * s + np.arange(items)), (stem, s, temp)
    vel = segs[0][2]["vel"]
    assert vel.dtype == np.dtype("<f4") and np.array_equal(vel, np.arange(6 * ranks).reshape(2 * ranks, 3))
    assert list(segs[3][1]["energy"]) == [-2.5]
    if per_file:
        # Segment s of time group g lies in member g // per_file.
        groups = [0, 0, 1, 2, 3]
        for s in range(5):
            assert segs[s][0] == f"{stem}.{groups[s] // per_file:06d}.h5", (stem, s, segs[s][0])
# Left open at pario_finalize: closed and flushed there, every segment whole.
segs = segments(os.path.join(root, "left_open.h5"))
assert len(segs) == 6 and np.array_equal(segs[5][2]["temp"], 5000.0 + np.arange(items))
print(f"pds_modes_check: {root} holds what dataset_modes_test wrote ({ranks} ranks)")
