"""Exodus II files (pario.ExodusFile) at 1, 2 and 4 ranks: the benchmark
workload (exodus_workload.md, the shared workload description; HEX, 4x3x3 cells, T=2) written
from Python, each rank its share of the elements and the nodes they use;
rank 0 checks every value with netCDF4-python (netCDF-C); then half of the
ranks (an mpi4py communicator) read it back through the binding in slices
of their own; and an argument error on one rank raises on every rank."""
import numpy as np
import pytest

import pario
import pario.exodus  # the module spelling of pario.ExodusFile

NX, NY, NZ, T = 4, 3, 3, 2
KB = NZ // 2
NN = (NX + 1) * (NY + 1) * (NZ + 1)
E = NX * NY * NZ


def split(n, rank, size):
    return n * rank // size, n * (rank + 1) // size


def node(i, j, k):
    return i + (NX + 1) * (j + (NY + 1) * k)


def coords(n):
    n = np.asarray(n)
    i, j, k = n % (NX + 1), n // (NX + 1) % (NY + 1), n // ((NX + 1) * (NY + 1))
    return i / NX, j / NY, k / NZ


def corners(c):
    """HEX8 corners (0-based node indices) of cell c, Exodus order."""
    i, j, k = c % NX, c // NX % NY, c // (NX * NY)
    return [node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k),
            node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1), node(i, j + 1, k + 1)]


# Every cell is one HEX8 element; block 1 the cells with k < KB.
CONN = np.array([corners(c) for c in range(E)], np.int64)  # 0-based node indices
LOWER = NX * NY * KB


def temperature(x, y, z, t):
    return 300 + 10 * x + 20 * y + 30 * z + t


def displacement(x, y, z, t):
    return 0.001 * t * (1 + x + y * z)


def stress(e, t):
    x, y, z = coords(CONN[e])
    return 1000 + x.mean(axis=-1) + 2 * y.mean(axis=-1) + 3 * z.mean(axis=-1) + t


def write_workload(path, group, nemesis=False, **hints):
    g = pario.Group(group) if group is not None else pario.Group()
    lo, hi = split(E, g.rank, g.size)  # this rank's elements
    mine = np.arange(lo, hi)
    nodes = np.unique(CONN[mine])  # the nodes they use
    x, y, z = coords(nodes)
    with pario.ExodusFile.create(path, g, title=f"pario-exodus-workload HEX {NX}x{NY}x{NZ} T={T}",
                                 num_nodes=NN, num_elem=E, num_blocks=2, num_node_sets=1,
                                 num_side_sets=1, nemesis=nemesis, **hints) as ex:
        ex.define_block(10, "HEX8", LOWER, name="lower")
        ex.define_block(20, "HEX8", E - LOWER, name="upper")
        ex.define_node_set(100, (NY + 1) * (NZ + 1), name="x0")
        ex.define_side_set(200, NX * NY, name="z0")
        ex.put_qa([("pario", pario.__version__, "2026-01-01", "00:00:00")])
        ex.put_info([f"generator=pario-exodus-v1 nx={NX} ny={NY} nz={NZ} T={T} variant=HEX"])
        ex.define_variables("global", ["energy"])
        ex.define_variables("nodal", ["temperature", "displacement_x"])
        ex.define_variables("element", ["stress"])
        ex.put_nodes(2 * (nodes + 1), x, y, z)
        for block_id, b0, b1 in ((10, 0, LOWER), (20, LOWER, E)):
            part = mine[(mine >= b0) & (mine < b1)]
            ex.put_block(block_id, 2 * (part + 1), 2 * (CONN[part] + 1))  # (n, 8) global node ids
        ex.put_node_set(100, 2 * (nodes[nodes % (NX + 1) == 0] + 1))
        bottom = mine[mine < NX * NY]
        ex.put_side_set(200, 2 * (bottom + 1), np.full(bottom.size, 5))
        for s in range(1, T + 1):
            t = 0.25 * s
            ex.put_time(s, t)
            ex.put_global_values(s, [t * t])
            ex.put_nodal_values(s, "temperature", temperature(x, y, z, t))
            ex.put_nodal_values(s, 2, displacement(x, y, z, t).astype(np.float32))  # converted
            for block_id, b0, b1 in ((10, 0, LOWER), (20, LOWER, E)):
                part = mine[(mine >= b0) & (mine < b1)]
                ex.put_element_values(s, "stress", block_id, stress(part, t) if part.size else [])
    assert ex._handle == 0
    return g


def check_with_netcdf(path):
    netCDF4 = pytest.importorskip("netCDF4")
    ds = netCDF4.Dataset(path)
    ds.set_auto_maskandscale(False)
    v = ds.variables
    assert ds.getncattr("title") == f"pario-exodus-workload HEX {NX}x{NY}x{NZ} T={T}"
    assert len(ds.dimensions["num_nodes"]) == NN and len(ds.dimensions["num_elem"]) == E
    x, y, z = coords(np.arange(NN))
    assert np.array_equal(v["coordx"][:], x) and np.array_equal(v["coordy"][:], y)
    assert np.array_equal(v["coordz"][:], z)
    assert np.array_equal(v["node_num_map"][:], 2 * (np.arange(NN) + 1))
    assert np.array_equal(v["elem_num_map"][:], 2 * (np.arange(E) + 1))
    assert list(v["eb_prop1"][:]) == [10, 20]
    assert np.array_equal(v["connect1"][:], CONN[:LOWER] + 1)
    assert np.array_equal(v["connect2"][:], CONN[LOWER:] + 1)
    assert v["connect1"].getncattr("elem_type") == "HEX8"
    assert list(v["ns_prop1"][:]) == [100] and list(v["ss_prop1"][:]) == [200]
    assert np.array_equal(v["node_ns1"][:], np.arange(NN)[np.arange(NN) % (NX + 1) == 0] + 1)
    assert np.array_equal(v["elem_ss1"][:], np.arange(NX * NY) + 1)
    assert np.array_equal(v["side_ss1"][:], np.full(NX * NY, 5))
    assert np.array_equal(v["time_whole"][:], [0.25, 0.5])
    for s in range(1, T + 1):
        t = 0.25 * s
        assert v["vals_glo_var"][s - 1, 0] == t * t
        assert np.array_equal(v["vals_nod_var1"][s - 1], temperature(x, y, z, t))
        assert np.array_equal(v["vals_nod_var2"][s - 1], displacement(x, y, z, t).astype(np.float32))
        assert np.allclose(v["vals_elem_var1eb1"][s - 1], stress(np.arange(LOWER), t), rtol=1e-12, atol=0)
        assert np.allclose(v["vals_elem_var1eb2"][s - 1], stress(np.arange(LOWER, E), t), rtol=1e-12, atol=0)
    ds.close()


def test_workload_written_checked_by_netcdf_and_read_back_on_half():
    from mpi4py import MPI
    path = pario.scratch_path("py_workload.exo", per_rank=False)
    g = write_workload(path, None)
    g.barrier()
    if g.rank == 0:
        check_with_netcdf(path)
    readers = max(1, g.size // 2)
    comm = MPI.COMM_WORLD.Split(0 if g.rank < readers else MPI.UNDEFINED, g.rank)
    if g.rank < readers:
        with pario.ExodusFile.open(path, comm) as ex:
            info = ex.info
            assert info.title.startswith("pario-exodus-workload HEX")
            assert (info.num_dim, info.num_nodes, info.num_elem, info.num_blocks, info.num_steps) == (3, NN, E, 2, T)
            assert [(b.id, b.name, b.type, b.count, b.nodes_per_element) for b in ex.blocks] == \
                [(10, "lower", "HEX8", LOWER, 8), (20, "upper", "HEX8", E - LOWER, 8)]
            assert ex.variables == {"global": ["energy"], "nodal": ["temperature", "displacement_x"],
                                    "element": ["stress"]}
            assert np.array_equal(ex.times, [0.25, 0.5])
            assert ex.read_global_values(2).tolist() == [0.25] and ex.read_global_values(1, np.float32)[0] == 0.0625
            lo, hi = split(NN, g.rank, readers)  # this reader's nodes
            xyz = ex.read_coords(lo, hi - lo)
            assert xyz.shape == (3, hi - lo)
            assert np.array_equal(xyz, np.array(coords(np.arange(lo, hi))))
            assert np.array_equal(ex.read_node_ids(lo, hi - lo), 2 * (np.arange(lo, hi) + 1))
            x, y, z = xyz
            assert np.array_equal(ex.read_nodal_values(2, "temperature", lo, hi - lo), temperature(x, y, z, 0.5))
            assert ex.read_nodal_values(1, 2, lo, hi - lo, dtype=np.float32).dtype == np.float32
            ids, conn = ex.read_block(20, start=g.rank, count=1)  # overlapping reads are fine
            assert ids[0] == 2 * (LOWER + g.rank + 1) and np.array_equal(conn[0], CONN[LOWER + g.rank] + 1)
            whole = ex.read_element_values(1, "stress", 10)  # every rank the whole block
            assert np.allclose(whole, stress(np.arange(LOWER), 0.25), rtol=1e-12, atol=0)
            with pytest.raises(pario.InvalidArgument, match="no nodal variable 'pressure'"):
                ex.read_nodal_values(1, "pressure")
            assert ex.truth_table.tolist() == [[True], [True]]
            # pario's own partition of the readers: contiguous stretches of
            # the file, read by ranges, their nodes by id.
            part = ex.partition
            lo_e, hi_e = split(E, comm.rank, comm.size)
            assert sum(c for _, c in part.values()) == hi_e - lo_e
            mine = []
            for block_id, (first, count) in part.items():
                ids, _ = ex.read_block(block_id, first, count)
                _, conn_ids = ex.read_block(block_id, ids=ids)
                mine.append(ids // 2 - 1)
                assert np.array_equal(conn_ids, 2 * (CONN[ids // 2 - 1] + 1))
                nodes = np.unique(conn_ids)
                assert np.array_equal(ex.read_coords(ids=nodes), np.array(coords(nodes // 2 - 1)))
            assert np.array_equal(np.concatenate(mine), np.arange(lo_e, hi_e))
            meshio = pytest.importorskip("meshio")
            mesh = ex.to_meshio(step=1)  # the whole file on every reader
            assert isinstance(mesh, meshio.Mesh) and mesh.points.shape == (NN, 3)
            assert np.array_equal(mesh.points, np.array(coords(np.arange(NN))).T)
            assert [c.type for c in mesh.cells] == ["hexahedron", "hexahedron"]
            assert np.array_equal(np.concatenate([c.data for c in mesh.cells]), CONN)
            assert np.array_equal(mesh.point_data["temperature"], temperature(*coords(np.arange(NN)), 0.25))
            assert np.allclose(np.concatenate(mesh.cell_data["stress"]), stress(np.arange(E), 0.25), rtol=1e-12)
        comm.Free()
    g.barrier()


def test_nemesis_information_of_the_ranks_partition():
    """nemesis=True: the ranks' partition (contiguous element ranges) in
    the file's Nemesis variables, checked with netCDF4-python against the
    partition worked out here from the whole mesh; the file is still the
    workload."""
    path = pario.scratch_path("py_nemesis.exo", per_rank=False)
    g = write_workload(path, None, nemesis=True)
    g.barrier()
    if g.rank == 0:
        check_with_netcdf(path)
        netCDF4 = pytest.importorskip("netCDF4")
        with netCDF4.Dataset(path) as ds:
            v, d = ds.variables, ds.dimensions
            assert len(d["num_procs_file"]) == g.size and int(v["nem_ftype"][...]) == 1
            assert list(v["el_blk_ids_global"][:]) == [10, 20]
            assert list(v["el_blk_cnt_global"][:]) == [LOWER, E - LOWER]
            users = [set() for _ in range(NN)]
            for p in range(g.size):
                lo, hi = split(E, p, g.size)
                for n in np.unique(CONN[lo:hi]):
                    users[n].add(p)
            bor_end = int_end = 0
            for p in range(g.size):
                lo, hi = split(E, p, g.size)
                used = np.unique(CONN[lo:hi])
                internal = [n + 1 for n in used if len(users[n]) == 1]
                border = [n + 1 for n in used if len(users[n]) > 1]
                assert list(v["node_mapi"][int_end:int_end + len(internal)]) == internal
                int_end += len(internal)
                assert int(v["node_mapi_idx"][p]) == int_end
                if g.size > 1:
                    assert list(v["node_mapb"][bor_end:bor_end + len(border)]) == border
                    bor_end += len(border)
                    assert int(v["node_mapb_idx"][p]) == bor_end
                else:
                    assert "node_mapb" not in v and not border
    # pario's reader: each processor's parameters, on every rank.
    with pario.ExodusFile.open(path, g) as ex:
        for p in range(g.size):
            lo, hi = split(E, p, g.size)
            used = np.unique(CONN[lo:hi])
            others = set()
            for q in range(g.size):
                if q != p:
                    qlo, qhi = split(E, q, g.size)
                    others |= set(np.unique(CONN[qlo:qhi]).tolist())
            border = sum(1 for n in used.tolist() if n in others)
            lb = ex.loadbal(p)
            assert (lb["int_nodes"], lb["bor_nodes"], lb["ext_nodes"]) == (len(used) - border, border, 0)
            assert lb["int_elems"] + lb["bor_elems"] == hi - lo
            assert lb["node_cmaps"] == (1 if border else 0)
            # The lists themselves (node n is node number n + 1, cell c element c + 1).
            internal, bor, external = ex.node_maps(p)
            assert internal.tolist() == [n + 1 for n in used.tolist() if n not in others]
            assert bor.tolist() == [n + 1 for n in used.tolist() if n in others]
            assert external.size == 0
            ints, bors = ex.elem_maps(p)
            assert sorted(ints.tolist() + bors.tolist()) == list(range(lo + 1, hi + 1))
            maps = ex.comm_maps(p)
            want = []  # (processor, node) for each node p shares, by processor then node
            for q in range(g.size):
                if q != p:
                    qlo, qhi = split(E, q, g.size)
                    want += [(q, n + 1) for n in np.intersect1d(used, CONN[qlo:qhi]).tolist()]
            if want:
                nodes, procs = maps["node"][1]
                assert list(zip(procs.tolist(), nodes.tolist())) == want
            else:
                assert maps["node"] == {}
            if bors.size:
                elems, sides, procs = maps["elem"][1]
                assert set(elems.tolist()) == set(bors.tolist())
                assert all(1 <= side <= 6 for side in sides.tolist()) and p not in procs.tolist()
            else:
                assert maps["elem"] == {}
        with pytest.raises(pario.OutOfRange):
            ex.loadbal(g.size)
        with pytest.raises(pario.OutOfRange):
            ex.node_maps(g.size)
    plain = pario.scratch_path("py_nemesis_none.exo", per_rank=False)
    write_workload(plain, None)
    with pario.ExodusFile.open(plain, g) as ex:
        assert ex.loadbal(0) is None
        with pytest.raises(pario.NotFound):
            ex.node_maps(0)


def test_side_set_with_a_varying_number_of_factors_per_side():
    """define_side_set(num_df=...) and put_side_set(df_counts=...): rank r
    holds quadrilateral r of a strip and passes side 1 with 2 factors and
    side 2 with 3 (made-up counts: the file takes any), read back through
    pario in set order."""
    g = pario.Group()
    path = pario.scratch_path("py_side_df.exo", per_rank=False)
    r, p = g.rank, g.size
    with pario.ExodusFile.create(path, g, title="side df", num_dim=2, num_nodes=2 * (p + 1), num_elem=p,
                                 num_blocks=1, num_side_sets=1) as ex:
        ex.define_block(1, "QUAD4", p)
        ex.define_side_set(5, 2 * p, num_df=5 * p)
        nodes = np.array([r + 1, r + 2, p + r + 3, p + r + 2])  # (r,0) (r+1,0) (r+1,1) (r,1)
        ex.put_nodes(nodes, np.array([r, r + 1, r + 1, r], float), np.array([0, 0, 1, 1], float))
        ex.put_block(1, [r + 1], nodes.reshape(1, 4))
        df = [10 * r + 1, 10 * r + 2, 10 * r + 3, 10 * r + 4, 10 * r + 5]
        ex.put_side_set(5, [r + 1, r + 1], [2, 1], df=df[2:] + df[:2], df_counts=[3, 2])
    with pario.ExodusFile.open(path, g) as ex:
        got = ex.read_set_df("side", 5)
        assert np.array_equal(got, [10 * q + k for q in range(p) for k in range(1, 6)])


def test_wrong_array_on_one_rank_raises_on_every_rank():
    g = pario.Group()
    path = pario.scratch_path("py_bad.exo", per_rank=False)
    with pario.ExodusFile.create(path, g, title="bad", num_dim=2, num_nodes=g.size, num_elem=0,
                                 num_blocks=0) as ex:
        x = np.array([float(g.rank)])
        y = np.zeros(2 if g.rank == 0 else 1)  # rank 0: one too many
        expected = pario.InvalidArgument if g.rank == 0 else pario.RemoteError
        with pytest.raises(expected) as e:
            ex.put_nodes([g.rank + 1], x, y)
        if g.rank == 0:
            assert "1 ids but 1, 2 coordinates" in str(e.value)
    with pytest.raises(pario.NotFound):
        pario.ExodusFile.open(pario.scratch_path("py_missing.exo", per_rank=False), g)


def test_series_restart_on_another_partition_and_reads_by_id():
    """steps_per_file=1 with T = 2 steps: path and path-s0002, each with
    the mesh; after a 'restart' the second file gets one more step from
    ranks holding the elements in reverse order (one rank: all of them);
    every rank then reads its own elements and nodes back by global id,
    and the sets by ranges, with netCDF4 checking the appended file."""
    import os
    g = pario.Group()
    if g.size > 2:  # exodus_restart (C) covers 3 and 4 ranks
        pytest.skip("run at 1 and 2 ranks")
    path = pario.scratch_path("py_series.exo", per_rank=False)
    g.barrier()
    lo, hi = split(E, g.rank, g.size)
    mine = np.arange(lo, hi)
    nodes = np.unique(CONN[mine])
    x, y, z = coords(nodes)
    with pario.ExodusFile.create(path, g, title="series", num_nodes=NN, num_elem=E, num_blocks=2, num_node_sets=1,
                                 num_side_sets=1, steps_per_file=1, step_sync=False) as ex:
        ex.define_block(10, "HEX8", LOWER)
        ex.define_block(20, "HEX8", E - LOWER)
        ex.define_node_set(100, (NY + 1) * (NZ + 1), has_df=True)
        ex.define_side_set(200, NX * NY, df_per_side=4)
        ex.define_variables("nodal", ["temperature"])
        ex.define_variables("element", ["stress"])
        ex.put_nodes(2 * (nodes + 1), x, y, z)
        for block_id, b0, b1 in ((10, 0, LOWER), (20, LOWER, E)):
            part = mine[(mine >= b0) & (mine < b1)]
            ex.put_block(block_id, 2 * (part + 1), 2 * (CONN[part] + 1))
        x0 = nodes[nodes % (NX + 1) == 0]
        ex.put_node_set(100, 2 * (x0 + 1), df=x0 / 10)
        bottom = mine[mine < NX * NY]
        ex.put_side_set(200, 2 * (bottom + 1), np.full(bottom.size, 5), df=np.repeat(bottom, 4) + 0.5)
        for s in (1, 2):
            ex.put_time(s, 0.25 * s)
            ex.put_nodal_values(s, "temperature", temperature(x, y, z, 0.25 * s))
            for block_id, b0, b1 in ((10, 0, LOWER), (20, LOWER, E)):
                part = mine[(mine >= b0) & (mine < b1)]
                ex.put_element_values(s, "stress", block_id, stress(part, 0.25 * s) if part.size else [])
    second = path + "-s0002"
    assert os.path.exists(second) and not os.path.exists(path + "-s0003")

    # The restart: elements dealt in reverse, values of t = 0.75 as the file's step 2.
    lo2, hi2 = split(E, g.size - 1 - g.rank, g.size)
    mine2 = np.arange(lo2, hi2)
    nodes2 = np.unique(CONN[mine2])
    x2, y2, z2 = coords(nodes2)
    with pario.ExodusFile.append(second, g, step_sync=False) as ex:
        assert ex.num_steps == 1
        ex.attach_nodes(2 * (nodes2 + 1))
        for block_id, b0, b1 in ((10, 0, LOWER), (20, LOWER, E)):
            ex.attach_block(block_id, 2 * (mine2[(mine2 >= b0) & (mine2 < b1)] + 1))
        ex.put_time(2, 0.75)
        ex.put_nodal_values(2, "temperature", temperature(x2, y2, z2, 0.75))
        for block_id, b0, b1 in ((10, 0, LOWER), (20, LOWER, E)):
            part = mine2[(mine2 >= b0) & (mine2 < b1)]
            ex.put_element_values(2, "stress", block_id, stress(part, 0.75) if part.size else [])
    g.barrier()
    if g.rank == 0:
        netCDF4 = pytest.importorskip("netCDF4")
        with netCDF4.Dataset(second) as ds:
            ds.set_auto_maskandscale(False)
            v = ds.variables
            assert np.array_equal(v["time_whole"][:], [0.5, 0.75])
            xa, ya, za = coords(np.arange(NN))
            assert np.array_equal(v["vals_nod_var1"][1], temperature(xa, ya, za, 0.75))
            assert np.array_equal(v["connect2"][:], CONN[LOWER:] + 1)

    for name, times in ((path, [0.25]), (second, [0.5, 0.75])):
        with pario.ExodusFile.open(name, g) as ex:
            assert np.array_equal(ex.times, times)
            assert np.array_equal(ex.read_coords(ids=2 * (nodes + 1)), np.array([x, y, z]))
            t = times[-1]
            assert np.array_equal(ex.read_nodal_values(len(times), "temperature", ids=2 * (nodes + 1)),
                                  temperature(x, y, z, t))
            for block_id, b0, b1 in ((10, 0, LOWER), (20, LOWER, E)):
                part = mine[(mine >= b0) & (mine < b1)]
                ids, conn = ex.read_block(block_id, ids=2 * (part + 1))
                assert np.array_equal(conn, 2 * (CONN[part] + 1))
                got = ex.read_element_values(len(times), "stress", block_id, ids=ids)
                assert np.allclose(got, stress(part, t), rtol=1e-12, atol=0)
            assert [(s.id, s.count, s.df_count) for s in ex.sets("node")] == [(100, (NY + 1) * (NZ + 1),
                                                                               (NY + 1) * (NZ + 1))]
            assert [(s.id, s.count, s.df_count) for s in ex.sets("side")] == [(200, NX * NY, 4 * NX * NY)]
            s0, s1 = split(NX * NY, g.rank, g.size)
            elems, sides = ex.read_side_set(200, s0, s1 - s0)
            assert np.array_equal(elems, 2 * (np.arange(s0, s1) + 1)) and np.all(sides == 5)
            assert np.array_equal(ex.read_set_df("side", 200, 4 * s0, 4 * (s1 - s0)),
                                  np.repeat(np.arange(s0, s1), 4) + 0.5)
            x0 = np.arange(NN)[np.arange(NN) % (NX + 1) == 0]
            assert np.array_equal(ex.read_node_set(100), 2 * (x0 + 1))
            assert np.array_equal(ex.read_set_df("node", 100), x0 / 10)
            stray = [10 ** 6] if g.rank == g.size - 1 else [2]
            expected = pario.InvalidArgument if g.rank == g.size - 1 else pario.RemoteError
            with pytest.raises(expected):
                ex.read_nodal_values(1, "temperature", ids=stray)
    g.barrier()


def write_ids(path, g, base, int64, steps=1, steps_per_file=0):
    """One block of the workload's cells (this rank's share) with node and
    element ids base + 2 (n + 1), the temperature at `steps` steps
    (t = 0.25 s); returns this rank's nodes and cells (0-based)."""
    lo, hi = split(E, g.rank, g.size)
    mine = np.arange(lo, hi)
    nodes = np.unique(CONN[mine])
    x, y, z = coords(nodes)
    with pario.ExodusFile.create(path, g, title="ids", num_nodes=NN, num_elem=E, num_blocks=1, int64=int64,
                                 steps_per_file=steps_per_file, step_sync=False) as ex:
        ex.define_block(10, "HEX8", E)
        ex.define_variables("nodal", ["temperature"])
        ex.put_nodes(base + 2 * (nodes + 1), x, y, z)
        ex.put_block(10, base + 2 * (mine + 1), base + 2 * (CONN[mine] + 1))
        for s in range(1, steps + 1):
            ex.put_time(s, 0.25 * s)
            ex.put_nodal_values(s, "temperature", temperature(x, y, z, 0.25 * s))
    return nodes, mine


def test_int64_ids_beyond_2_31_round_trip_and_meshio_reads_32_and_64_bit_files():
    """int64=True (CDF-5, int64_status 0x1C00): node and element ids beyond
    2^32 come back through pario's reader by ranges and by id; a 32-bit
    file refuses them on every rank; meshio reads both files."""
    g = pario.Group()
    base = 3 * 2 ** 31  # every id beyond 2^32
    p32 = pario.scratch_path("py_ids32.exo", per_rank=False)
    p64 = pario.scratch_path("py_ids64.exo", per_rank=False)
    write_ids(p32, g, 0, False)
    nodes, mine = write_ids(p64, g, base, True)
    with pytest.raises((pario.InvalidArgument, pario.RemoteError)) as e:
        write_ids(pario.scratch_path("py_ids_refused.exo", per_rank=False), g, base, False)
    if isinstance(e.value, pario.InvalidArgument):
        assert "2^31-1 (ask for int64 integers)" in str(e.value)
    g.barrier()
    with pario.ExodusFile.open(p64, g) as ex:
        lo, hi = split(NN, g.rank, g.size)
        assert np.array_equal(ex.read_node_ids(lo, hi - lo), base + 2 * (np.arange(lo, hi) + 1))
        e0, e1 = split(E, g.rank, g.size)
        ids, conn = ex.read_block(10, e0, e1 - e0)
        assert np.array_equal(ids, base + 2 * (np.arange(e0, e1) + 1)) and np.array_equal(conn, CONN[e0:e1] + 1)
        ids, conn = ex.read_block(10, ids=base + 2 * (mine + 1))
        assert np.array_equal(conn, base + 2 * (CONN[mine] + 1))
        x, y, z = coords(nodes)
        assert np.array_equal(ex.read_coords(ids=base + 2 * (nodes + 1)), np.array([x, y, z]))
        assert np.array_equal(ex.read_nodal_values(1, "temperature", ids=base + 2 * (nodes + 1)),
                              temperature(x, y, z, 0.25))
    if g.rank == 0:
        netCDF4 = pytest.importorskip("netCDF4")
        with netCDF4.Dataset(p64) as ds:
            assert ds.data_model == "NETCDF3_64BIT_DATA" and ds.getncattr("int64_status") == 0x1C00
            assert ds.variables["node_num_map"].dtype == np.int64
            assert np.array_equal(ds.variables["node_num_map"][:], base + 2 * (np.arange(NN) + 1))
        meshio = pytest.importorskip("meshio")
        for path in (p32, p64):
            mesh = meshio.read(path, file_format="exodus")
            assert np.array_equal(mesh.points, np.column_stack(coords(np.arange(NN))))
            assert [c.type for c in mesh.cells] == ["hexahedron"]
            assert np.array_equal(mesh.cells[0].data, CONN)
            assert np.array_equal(mesh.point_data["temperature"], temperature(*coords(np.arange(NN)), 0.25))
    g.barrier()


def test_series_appended_as_a_series():
    """A series of one step per file (path, path-s0002) continued after a
    restart from its first name: step 3 makes path-s0003; reading the
    series opens its last file."""
    import os
    g = pario.Group()
    path = pario.scratch_path("py_series_append.exo", per_rank=False)
    write_ids(path, g, 0, False, steps=2, steps_per_file=1)
    lo, hi = split(E, g.size - 1 - g.rank, g.size)  # another partition
    mine = np.arange(lo, hi)
    nodes = np.unique(CONN[mine])
    x, y, z = coords(nodes)
    with pario.ExodusFile.append(path, g, step_sync=False, steps_per_file=1) as ex:
        assert ex.num_steps == 2 and ex.series == (2, 1, 2)
        ex.attach_nodes(2 * (nodes + 1))
        ex.attach_block(10, 2 * (mine + 1))
        ex.put_time(3, 0.75)
        ex.put_nodal_values(3, "temperature", temperature(x, y, z, 0.75))
        assert ex.series == (3, 2, 3)
    assert os.path.exists(path + "-s0003")
    with pario.ExodusFile.open(path, g, steps_per_file=1) as ex:
        assert ex.series == (3, 2, 3) and np.array_equal(ex.times, [0.75])
        assert np.array_equal(ex.read_nodal_values(1, "temperature", ids=2 * (nodes + 1)),
                              temperature(x, y, z, 0.75))
    with pytest.raises((pario.InvalidArgument, pario.RemoteError)) as e:
        pario.ExodusFile.append(path, g)  # the series' first file alone
    if g.rank == 0:
        assert "first file of a series" in str(e.value)
    g.barrier()


@pytest.mark.parametrize("entry", ["create", "open", "append"])
def test_a_path_one_rank_cannot_use_fails_on_every_rank(entry):
    """One rank passes None as the path: it raises InvalidArgument naming
    it, the others RemoteError, nobody is left waiting in a collective."""
    g = pario.Group()
    if g.size < 2:
        pytest.skip("needs 2 ranks or more")
    good = pario.scratch_path("py_path_agree.exo", per_rank=False)
    if entry != "create":
        write_ids(good, g, 0, False)
    path = None if g.rank == g.size - 1 else good
    calls = {
        "create": lambda: pario.ExodusFile.create(path, g, num_nodes=NN, num_elem=E, num_blocks=1),
        "open": lambda: pario.ExodusFile.open(path, g),
        "append": lambda: pario.ExodusFile.append(path, g),
    }
    expected = pario.InvalidArgument if path is None else pario.RemoteError
    with pytest.raises(expected) as e:
        calls[entry]()
    if path is None:
        assert "path None: expected a str, bytes or os.PathLike" in str(e.value)
    # An argument that is no integer, on one rank, before init.
    if entry == "create":
        count = "many" if g.rank == 0 else E
        with pytest.raises(pario.InvalidArgument if g.rank == 0 else pario.RemoteError) as e:
            pario.ExodusFile.create(good, g, num_nodes=NN, num_elem=count, num_blocks=1)
        if g.rank == 0:
            assert "num_elem 'many': expected an integer" in str(e.value)
    g.barrier()


# The collective engine's hints on create, open and append: through the
# aggregators in 64-byte rounds, or each rank directly.
HINTS = [dict(aggregators=1, buffer_size=64, buffering="always"),
         dict(aggregator_ranks=[pario.size() - 1], buffer_size=4096, align=512, convert="sender",
              buffering="never")]


@pytest.mark.parametrize("hints", HINTS)
def test_hints_give_the_default_file_and_read_it_back(hints):
    """The workload written with hints is the default's file byte for
    byte (netCDF4 checks it too); it is read back and appended to with
    them."""
    g = pario.Group()
    default = pario.scratch_path("py_hints_default.exo", per_rank=False)
    hinted = pario.scratch_path("py_hints.exo", per_rank=False)
    write_workload(default, None)
    write_workload(hinted, None, **hints)
    g.barrier()
    if g.rank == 0:
        with open(default, "rb") as a, open(hinted, "rb") as b:
            assert a.read() == b.read()
        check_with_netcdf(hinted)
    lo, hi = split(NN, g.rank, g.size)
    x, y, z = coords(np.arange(lo, hi))
    with pario.ExodusFile.open(hinted, g, **hints) as ex:
        assert np.array_equal(ex.read_nodal_values(T, "temperature", lo, hi - lo), temperature(x, y, z, 0.25 * T))
    with pario.ExodusFile.append(hinted, g, step_sync=False, **hints) as ex:
        ex.attach_nodes(2 * (np.arange(lo, hi) + 1))
        ex.put_time(T + 1, 1.0)
        ex.put_nodal_values(T + 1, "temperature", temperature(x, y, z, 1.0))
    with pario.ExodusFile.open(hinted, g) as ex:
        assert np.array_equal(ex.read_nodal_values(T + 1, "temperature", lo, hi - lo), temperature(x, y, z, 1.0))
    g.barrier()


def hints_error(hints, make):
    """The InvalidArgument (or RemoteError) make(hints) raises on this rank."""
    with pytest.raises((pario.InvalidArgument, pario.RemoteError)) as e:
        make(hints)
    return e.value


@pytest.mark.parametrize("hints, message", [
    (dict(aggregators=-1), "hints->aggregators is negative"),
    (dict(buffer_size=-64), "hints->buffer_size -64 is not in 0.."),
    (dict(buffering="sometimes"), "buffering 'sometimes': expected 'auto', 'always', 'never' or None"),
    (dict(convert="here"), "convert 'here': expected 'auto', 'sender', 'aggregator' or None"),
    (dict(aggregators="two"), "aggregators 'two': expected an integer or None"),
    (dict(aggregators=1 << 40), "aggregators 1099511627776: expected an integer or None"),
    (dict(aggregator_ranks=[0, 1 << 40]), "aggregator_ranks [0, 1099511627776]: expected a sequence"),
])
def test_a_hint_decomposition_refuses_is_refused_by_create_open_and_append(hints, message):
    """Refused with the message Decomposition.indices gives for it, on
    every rank (each passes it); the files stay usable."""
    g = pario.Group()
    path = pario.scratch_path("py_hints_refused.exo", per_rank=False)
    write_ids(path, g, 0, False)
    e = hints_error(hints, lambda h: pario.Decomposition.indices(4, [], **h))
    assert isinstance(e, pario.InvalidArgument) and message in str(e)
    for make in (lambda h: pario.ExodusFile.create(path + "-new", g, num_nodes=NN, num_elem=E, num_blocks=1, **h),
                 lambda h: pario.ExodusFile.open(path, g, **h),
                 lambda h: pario.ExodusFile.append(path, g, **h)):
        e = hints_error(hints, make)
        assert isinstance(e, pario.InvalidArgument) and message in str(e)
    with pario.ExodusFile.open(path, g) as ex:
        assert ex.info.num_steps == 1
    g.barrier()


def test_a_hint_on_one_rank_fails_on_every_rank():
    """A count that is no integer on one rank: InvalidArgument there,
    RemoteError on the others. A buffering that differs between the ranks
    (which would send them different ways): InvalidArgument naming it
    everywhere, as for a decomposition."""
    g = pario.Group()
    if g.size < 2:
        pytest.skip("needs 2 ranks or more")
    path = pario.scratch_path("py_hints_one_rank.exo", per_rank=False)
    last = g.rank == g.size - 1
    e = hints_error(dict(buffer_size="big" if last else None),
                    lambda h: pario.ExodusFile.create(path, g, num_nodes=NN, num_elem=E, num_blocks=1, **h))
    assert isinstance(e, pario.InvalidArgument if last else pario.RemoteError)
    if last:
        assert "buffer_size 'big': expected an integer or None" in str(e)
    e = hints_error(dict(buffering="never" if last else "always"),
                    lambda h: pario.ExodusFile.create(path, g, num_nodes=NN, num_elem=E, num_blocks=1, **h))
    assert isinstance(e, pario.InvalidArgument) and "(buffering)" in str(e)
    g.barrier()


def test_buffering_hint_is_the_way_taken(tmp_path):
    """The hint, not PARIO_COLLECTIVE_BUFFERING, decides whether the
    file's data goes through the aggregators: aggregator rounds in the
    collective statistics, writing and reading (statistics and the
    variable are read at start-up, so fresh one-rank processes)."""
    import os
    from conftest import run_with_stats
    if pario.Group().rank != 0:
        return
    body = (f"sys.path.insert(0, {os.path.dirname(__file__)!r})\n"
            "from test_exodus import write_workload\n"
            "rounds = {}\n"
            "for hint in (None, sys.argv[2]):\n"
            "    path = sys.argv[1] + str(hint)\n"
            "    before = pario.stats()['collective']\n"
            "    write_workload(path, None, buffering=hint)\n"
            "    with pario.ExodusFile.open(path, buffering=hint) as ex:\n"
            "        ex.read_coords()\n"
            "    after = pario.stats()['collective']\n"
            "    rounds[str(hint)] = [after[k]['rounds'] - before[k]['rounds'] for k in ('write', 'read')]\n"
            "print(json.dumps(rounds))\n")
    way = {env: run_with_stats(tmp_path, body, [tmp_path / "way.exo", hint], PARIO_COLLECTIVE_BUFFERING=env)
           for env, hint in (("always", "never"), ("never", "always"))}
    assert min(way["always"]["None"]) >= 1 and way["always"]["never"] == [0, 0]
    assert way["never"]["None"] == [0, 0] and min(way["never"]["always"]) >= 1


def test_element_types_2d_and_3d_and_attributes_read_back():
    """The Exodus types beyond the workload's, each rank writing its own
    elements: a 2-D file of QUAD4 and TRI3 (a strip of squares, the last
    cut in two triangles) and a 3-D file of WEDGE6 with one attribute (a
    prism per rank) and TETRA4 (one per rank), both read back through
    pario (to_meshio) and by meshio and netCDF4-python (no pario)."""
    meshio = pytest.importorskip("meshio")
    netCDF4 = pytest.importorskip("netCDF4")
    # meshio 5.3's Exodus reader maps TETRA4 to "tetra4", a type meshio
    # does not know, and lacks WEDGE6 (libexodusii's and SEACAS's names):
    # read them as "tetra" and "wedge" (nschloe/meshio PRs #1296, #1336).
    from meshio.exodus import _exodus as meshio_exodus
    monkey = pytest.MonkeyPatch()
    monkey.setitem(meshio_exodus.exodus_to_meshio_type, "TETRA4", "tetra")
    monkey.setitem(meshio_exodus.exodus_to_meshio_type, "WEDGE6", "wedge")
    g = pario.Group()
    r, p = g.rank, g.size
    # 2-D: squares 0..p (square q: nodes (q,0) (q+1,0) (q+1,1) (q,1)); the
    # ranks' squares are quads, one more square on the last rank is cut.
    path2 = pario.scratch_path("py_types2d.exo", per_rank=False)
    ids2 = lambda q: np.array([q + 1, q + 2, p + q + 4, p + q + 3])  # noqa: E731  (global node ids)
    with pario.ExodusFile.create(path2, g, title="2-D types", num_dim=2, num_nodes=2 * (p + 2), num_elem=p + 2,
                                 num_blocks=2) as ex:
        ex.put_coord_names(["x", "y"])
        ex.define_block(1, "QUAD4", p, name="squares")
        ex.define_block(2, "TRI3", 2, name="triangles")
        ex.define_variables("nodal", ["h"])
        nodes = ids2(r) if r < p - 1 else np.concatenate([ids2(r), ids2(p)[[1, 2]]])
        q = (nodes - 1) % (p + 2)  # column of each node
        ex.put_nodes(nodes, q.astype(float), (nodes > p + 2).astype(float))
        ex.put_block(1, [r + 1], ids2(r).reshape(1, 4))
        tri = ids2(p)
        ex.put_block(2, [p + 1, p + 2] if r == p - 1 else [], tri[[0, 1, 2, 0, 2, 3]].reshape(2, 3) if r == p - 1
                     else np.zeros((0, 3), np.int64))
        ex.put_time(1, 1.0)
        ex.put_nodal_values(1, "h", 10.0 * nodes)
    assert pario.exodus.open == pario.ExodusFile.open and pario.exodus.ExodusFile is pario.ExodusFile
    with pario.exodus.open(path2, g) as ex:
        mesh = ex.to_meshio()
    want_points = np.column_stack([np.tile(np.arange(p + 2.0), 2), np.repeat([0.0, 1.0], p + 2)])
    squares = np.array([ids2(q) - 1 for q in range(p)])
    for m in (mesh, meshio.read(path2, file_format="exodus")):
        assert np.array_equal(m.points[:, :2], want_points) and m.points.shape[1] in (2, 3)
        assert [c.type for c in m.cells] == ["quad", "triangle"]
        assert np.array_equal(m.cells[0].data, squares)
        assert np.array_equal(m.cells[1].data, (ids2(p) - 1)[[0, 1, 2, 0, 2, 3]].reshape(2, 3))
        assert np.array_equal(m.point_data["h"], 10.0 * np.arange(1, 2 * (p + 2) + 1))
    # 3-D: rank r's prism on the triangle (0,0) (1,0) (0,1) lifted by r, its
    # nodes 6r+1..6r+6; one tetrahedron per rank on its prism's bottom
    # corners and the apex node shared by all ranks (id 6p + 1).
    path3 = pario.scratch_path("py_types3d.exo", per_rank=False)
    base = np.array([[0, 0], [1, 0], [0, 1]], float)
    with pario.ExodusFile.create(path3, g, title="3-D types", num_nodes=6 * p + 1, num_elem=2 * p,
                                 num_blocks=2) as ex:
        ex.define_block(7, "WEDGE6", p, name="prisms", attributes=1)
        ex.define_block(8, "TETRA4", p, name="tets")
        nodes = np.concatenate([6 * r + np.arange(1, 7), [6 * p + 1]])
        x = np.concatenate([base[:, 0], base[:, 0], [0.25]])
        y = np.concatenate([base[:, 1], base[:, 1], [0.25]])
        z = np.concatenate([np.full(3, float(r)), np.full(3, r + 1.0), [-1.0]])
        ex.put_nodes(nodes, x, y, z)
        ex.put_block(7, [r + 1], nodes[:6].reshape(1, 6))
        ex.put_attributes(7, [r + 0.5])
        ex.put_block(8, [p + r + 1], np.array([[nodes[0], nodes[1], nodes[2], 6 * p + 1]]))
    with pario.ExodusFile.open(path3, g) as ex:
        mesh = ex.to_meshio()
        assert np.array_equal(ex.read_attributes(7), (np.arange(p) + 0.5).reshape(p, 1))
        assert ex.read_attributes(7, start=r, count=1)[0, 0] == r + 0.5
        with pytest.raises((pario.NotFound, pario.RemoteError)):
            ex.read_attributes(8, count=1 if r == 0 else 0)  # asks for values the block lacks
    with netCDF4.Dataset(path3) as ds:
        assert ds.variables["connect1"].getncattr("elem_type") == "WEDGE6"
        assert np.array_equal(ds.variables["attrib1"][:, 0], np.arange(p) + 0.5)  # one attribute per prism
    for m in (mesh, meshio.read(path3, file_format="exodus")):
        assert [c.type for c in m.cells] == ["wedge", "tetra"]
        assert np.array_equal(m.cells[0].data, np.arange(6 * p).reshape(p, 6))
        assert np.array_equal(m.cells[1].data[:, 3], np.full(p, 6 * p))
        assert np.array_equal(m.points[6 * np.arange(p) + 3, 2], np.arange(p) + 1.0)
    monkey.undo()


def test_a_file_meshio_writes_is_netcdf4_and_refused_clearly():
    """meshio writes Exodus through netCDF4-python as netCDF-4 (HDF5), with
    several unlimited dimensions, which no classic file can hold (nccopy -k
    nc6 refuses it): pario reads classic files only, and says so."""
    meshio = pytest.importorskip("meshio")
    pytest.importorskip("netCDF4")
    g = pario.Group()
    path = pario.scratch_path("py_meshio_written.exo", per_rank=False)
    if g.rank == 0:
        cells = [("hexahedron", np.arange(8).reshape(1, 8))]
        meshio.write(path, meshio.Mesh(np.array(coords(np.arange(8))).T, cells), file_format="exodus")
    g.barrier()
    # Rank 0 reads the header; the others learn its status.
    expected = pario.Unsupported if g.rank == 0 else pario.RemoteError
    with pytest.raises(expected, match="netCDF-4 \\(HDF5\\) file; only classic files"):
        pario.ExodusFile.open(path, g)



def test_header_claims_beyond_memory_fail_on_every_rank():
    """A file whose header claims more than a reader holds: block names of
    300 MiB (written sparse, fill off), and 2^17 blocks times 2^10 element
    variables (2^27 block variables). Every rank gets an error at open,
    never a hang on one rank's failed allocation or a crash."""
    netCDF4 = pytest.importorskip("netCDF4")
    g = pario.Group()
    names = pario.scratch_path("py_claims_names.exo", per_rank=False)
    product = pario.scratch_path("py_claims_product.exo", per_rank=False)
    if g.rank == 0:
        for path, blocks, name_len, variables in ((names, 1 << 20, 300, 0), (product, 1 << 17, 1, 1 << 10)):
            with netCDF4.Dataset(path, "w", format="NETCDF3_64BIT_DATA") as ds:
                ds.set_fill_off()
                ds.createDimension("num_dim", 2)
                ds.createDimension("num_nodes", 1)
                ds.createDimension("num_elem", 1)  # 0 would be unlimited
                ds.createDimension("num_el_blk", blocks)
                ds.createDimension("len_name", name_len)
                ds.createDimension("time_step", None)
                ds.createVariable("time_whole", "f8", ("time_step",))
                ds.createVariable("coordx", "f8", ("num_nodes",))
                ds.createVariable("coordy", "f8", ("num_nodes",))
                ds.createVariable("eb_prop1", "i1", ("num_el_blk",))
                ds.createVariable("eb_names", "S1", ("num_el_blk", "len_name"))
                if variables:
                    ds.createDimension("num_elem_var", variables)
                    ds.createVariable("name_elem_var", "S1", ("num_elem_var", "len_name"))
    g.barrier()
    for path, words in ((names, "MiB"), (product, "block variables")):
        with pytest.raises(pario.Error) as e:
            pario.ExodusFile.open(path, g)
        if g.rank == 0 or not isinstance(e.value, pario.RemoteError):
            assert isinstance(e.value, pario.Unsupported), e.value
            assert words in str(e.value), e.value
