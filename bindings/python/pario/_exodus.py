"""Exodus II finite-element files (pario/exodus.h).

ExodusFile.create(path, group, title=..., num_nodes=..., ...) makes one file
that every rank of the group writes at once, each rank passing only its
own nodes, elements, set entries and values (global ids; pario orders
them, so the file does not depend on the number of ranks).
ExodusFile.open(path, group) reads any Exodus II classic file back in
slices or by each rank's global ids (ids=...), on any number of ranks.
ExodusFile.append(path, group) reopens a file after a restart to add steps;
create(..., steps_per_file=n) starts a new file (path-s0002, ...) every n
steps, and append(..., steps_per_file=n) / open(..., steps_per_file=n)
continue / read such a series from its first name. Every method is
collective unless its docstring says local.

create, open and append take the collective engine's hints as
Decomposition does: aggregators, aggregator_ranks, buffer_size, align,
convert and buffering (None: the environment's, then the defaults; the
same on every rank); the file's bytes do not depend on them. There is no
byteorder: netCDF's is big-endian.

A rank whose arguments this package refuses (a path os.fspath refuses, a
size that is no integer, a hint Decomposition refuses, a wrong array
length or shape, a dtype pario lacks) still goes into the C call, with a path, count or type C refuses,
so that every rank fails together (the others with RemoteError); this rank
then raises its own message.
"""
import collections.abc
import os
import re

import numpy as np

from . import _pario
from ._arrays import _TYPES, _group
from ._collective import _hint_values, _hints
from ._errors import InvalidArgument, _check

_KINDS = {"global": _pario.EXODUS_GLOBAL, "nodal": _pario.EXODUS_NODAL, "element": _pario.EXODUS_ELEMENT}
_FORMATS = {"auto": _pario.EXODUS_FORMAT_AUTO, "cdf2": _pario.EXODUS_FORMAT_CDF2, "cdf5": _pario.EXODUS_FORMAT_CDF5}

ExodusInfo = collections.namedtuple("ExodusInfo", "title num_dim num_nodes num_elem num_blocks num_node_sets "
                                                  "num_side_sets num_steps")
ExodusBlock = collections.namedtuple("ExodusBlock", "id name type count nodes_per_element")
ExodusSet = collections.namedtuple("ExodusSet", "id name count df_count")
ExodusSeries = collections.namedtuple("ExodusSeries", "file_index first_step steps")
_SETS = {"node": _pario.EXODUS_NODE_SET, "side": _pario.EXODUS_SIDE_SET}

_NONE = np.empty(0, np.int64)


def _invalid(message):
    return InvalidArgument(_pario.ERR_INVALID_ARGUMENT, message)


def _kind(kind):
    if kind in _KINDS:
        return _KINDS[kind]
    if kind in _KINDS.values():
        return kind
    raise _invalid(f"kind {kind!r}: expected 'global', 'nodal' or 'element'")


def _ids(a):
    return np.ascontiguousarray(np.asarray(a, np.int64).ravel())


def _values(a, dtype=None):
    """a as a native contiguous array of a dtype pario has, and its
    PARIO_TYPE_* (0 when it has none)."""
    a = np.asarray(a, dtype)
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    return np.ascontiguousarray(a), _TYPES.get(a.dtype, 0)


class ExodusFile:
    """One Exodus II file: written by every rank of a group (create) or
    read back in slices (open). Close it with close() or a `with` block
    (collective)."""

    def __init__(self, *args, **kwargs):
        raise TypeError("use ExodusFile.create() or ExodusFile.open()")

    @classmethod
    def _new(cls, group, path, writing):
        """A handle-less file; a path os.fspath refuses becomes "" (which C
        refuses on every rank) and self._error this rank's own message."""
        self = object.__new__(cls)
        self._handle = 0
        self.group = _group(group)
        self._error = None
        try:
            self.path = os.fsdecode(path)
        except TypeError:
            self.path = ""
            self._error = _invalid(f"path {path!r}: expected a str, bytes or os.PathLike")
        self.writing = writing
        self._variables = {k: [] for k in _KINDS}
        self._blocks = {}  # writing: id -> [nodes per element, attributes, this rank's elements]
        self._local_nodes = 0
        return self

    @classmethod
    def create(cls, path, group=None, *, title="", num_dim=3, num_nodes, num_elem, num_blocks, num_node_sets=0,
               num_side_sets=0, format="auto", float_size=8, step_sync=True, steps_per_file=0, int64=False,
               nemesis=False, aggregators=None, aggregator_ranks=None, buffer_size=None, align=None, convert=None,
               buffering=None):
        """Collective: makes the file at path (replacing one there) and
        starts its definition: the title (up to 80 characters), dimensions,
        the global numbers of nodes and elements, and how many blocks and
        sets will be defined. format "auto", "cdf2" or "cdf5"; float_size 8
        (double) or 4 (float) in the file; step_sync=True follows
        PARIO_EXODUS_SYNC ("step" by default: each finished step is synced
        before it is counted, so a writer killed during step k leaves steps
        1..k-1 readable; "overlap" leaves 1..k-2), step_sync=False skips the
        fdatasync that makes each finished step crash-safe; steps_per_file
        n > 0 puts each n steps in a new file of a series (path, then
        path-s0002, path-s0003, ...), each with the mesh; int64=True stores
        ids, maps and connectivity as 64-bit integers (CDF-5); nemesis=True
        adds the Nemesis load-balance information of the ranks' partition
        (rank r = processor r), written once the nodes and every block are
        put (steps only after that). aggregators, aggregator_ranks,
        buffer_size, align, convert, buffering: the collective engine's
        hints, as Decomposition.blocks takes them."""
        self = cls._new(group, path, True)
        hints = self._hints(aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
        fmt = _FORMATS.get(format, -1)  # -1: refused by C on every rank
        if fmt == -1 and self._error is None:
            self._error = _invalid(f"format {format!r}: expected 'auto', 'cdf2' or 'cdf5'")
        # Every argument is checked here, before the first collective call:
        # init's too, since a rank raising between create and init would
        # leave the others waiting in init.
        counts = self._integers(num_dim=num_dim, num_nodes=num_nodes, num_elem=num_elem, num_blocks=num_blocks,
                                num_node_sets=num_node_sets, num_side_sets=num_side_sets, float_size=float_size,
                                steps_per_file=steps_per_file)
        if self._error is not None:
            fmt = -1
        rc, handle = _pario.exodus_create(self.group._handle, self.path, fmt, counts["float_size"], not step_sync,
                                          counts["steps_per_file"], bool(int64), bool(nemesis), hints)
        self._handle = self._opened(rc, handle)
        try:
            _check(_pario.exodus_init(self._handle, str(title), counts["num_dim"], counts["num_nodes"],
                                      counts["num_elem"], counts["num_blocks"], counts["num_node_sets"],
                                      counts["num_side_sets"]))
        except BaseException:
            _pario.exodus_close(self._handle)  # collective, as init was
            self._handle = 0
            raise
        self.num_dim = counts["num_dim"]
        return self

    def _hints(self, aggregators, aggregator_ranks, buffer_size, align, convert, buffering):
        """pario_decomp_hints of the arguments; a hint _hint_values refuses
        gives the defaults and, first, this rank's error (the caller then
        makes C refuse on every rank). The byte order is netCDF's, whatever
        the hints say."""
        values, error = _hint_values(aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
        if error and self._error is None:
            self._error = _invalid(error)
        return _hints(values, _pario.BYTE_ORDER_NATIVE)

    def _integers(self, **values):
        """The values as ints; one that is not makes it 0 and, first, this
        rank's error (the caller then makes C refuse on every rank)."""
        out = {}
        for name, value in values.items():
            try:
                out[name] = int(value)
            except (TypeError, ValueError):
                out[name] = 0
                if self._error is None:
                    self._error = _invalid(f"{name} {value!r}: expected an integer")
        return out

    def _opened(self, rc, handle):
        """The handle of the C call that made this file, or this rank's own
        error (C refused its arguments on every rank)."""
        if self._error is not None:
            if rc == _pario.OK:  # not reached: C refuses "" and format -1
                _pario.exodus_close(handle)
            raise self._error
        return _check(rc, handle)

    @classmethod
    def open(cls, path, group=None, *, steps_per_file=0, aggregators=None, aggregator_ranks=None, buffer_size=None,
             align=None, convert=None, buffering=None):
        """Collective: an existing Exodus II file (pario's, libexodusii's,
        meshio's) for reading by every rank of group. steps_per_file n > 0:
        path is the first file of a series of n steps per file, and the
        last file holding steps opens (see series). The hints as for
        create."""
        self = cls._new(group, path, False)
        hints = self._hints(aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
        spf = self._integers(steps_per_file=steps_per_file)["steps_per_file"]
        if self._error is not None:
            spf = -1  # refused by C on every rank
        self._handle = self._opened(*_pario.exodus_open(self.group._handle, self.path, spf, hints))
        self.num_dim = self.info.num_dim
        for kind, code in _KINDS.items():
            n = _check(*_pario.exodus_get_variable(self._handle, code, 0))[1]
            self._variables[kind] = [_check(*_pario.exodus_get_variable(self._handle, code, v))[0]
                                     for v in range(1, n + 1)]
        return self

    @classmethod
    def append(cls, path, group=None, *, step_sync=True, steps_per_file=0, aggregators=None, aggregator_ranks=None,
               buffer_size=None, align=None, convert=None, buffering=None):
        """Collective: an existing Exodus II file reopened to add steps
        after a restart, on any number of ranks. Name this rank's part with
        attach_nodes and attach_block, then put_time(num_steps + 1, ...)
        and the values as for a new file. steps_per_file n > 0: path is
        the first file of a series of n steps per file, continued in its
        last file and then in new ones every n steps (num_steps counts the
        whole series' steps). The hints as for create."""
        if isinstance(aggregator_ranks, collections.abc.Iterator):
            aggregator_ranks = list(aggregator_ranks)  # read twice below: a generator would be empty the second time
        hint_args = dict(aggregators=aggregators, aggregator_ranks=aggregator_ranks, buffer_size=buffer_size,
                         align=align, convert=convert, buffering=buffering)
        # The names and blocks, for the checks here; a bad argument on one
        # rank (hints included) fails this open on every rank.
        with cls.open(path, group, steps_per_file=steps_per_file, **hint_args) as r:
            variables, blocks = r.variables, r.blocks
        self = cls._new(group, path, True)
        self._handle = _check(*_pario.exodus_open_append(self.group._handle, self.path, not step_sync,
                                                         int(steps_per_file), self._hints(**hint_args)))
        self._variables = variables
        self._blocks = {b.id: [b.nodes_per_element, 0, 0] for b in blocks}
        self.num_dim = None
        self.num_steps = self.series.steps
        return self

    @property
    def series(self):
        """Local: ExodusSeries(file_index, first_step, steps): where the
        open file lies in its series (1, 0, ... for a single file): the run's
        steps in the files before it and the run's steps so far (a writer:
        the last step begun; put_time takes steps + 1 next)."""
        return ExodusSeries(*_check(*_pario.exodus_get_series(self._handle)))

    def attach_nodes(self, ids):
        """After append: this rank's nodes by global id, the order of its
        later nodal values (all ranks together name every node)."""
        ids = _ids(ids)
        _check(_pario.exodus_attach_nodes(self._handle, ids.size, ids))
        self._local_nodes = ids.size

    def attach_block(self, block_id, ids):
        """After append: this rank's elements of a block by global id, the
        order of its later element values."""
        ids = _ids(ids)
        _check(_pario.exodus_attach_block(self._handle, int(block_id), ids.size, ids))
        if int(block_id) in self._blocks:
            self._blocks[int(block_id)][2] = ids.size

    # ---- definitions (the same on every rank) ----

    def define_block(self, block_id, type, count, nodes_per_element=None, name="", attributes=0):
        """An element block: id (> 0), type ("HEX8", "TETRA4", ...), count
        (elements, all ranks together), nodes per element (default: the
        number ending the type's name), attributes per element."""
        if nodes_per_element is None:
            m = re.search(r"(\d+)$", type)
            nodes_per_element = int(m.group(1)) if m else 0  # 0: C names the problem
        _check(_pario.exodus_define_block(self._handle, int(block_id), name, type, int(count),
                                          int(nodes_per_element), int(attributes)))
        self._blocks[int(block_id)] = [int(nodes_per_element), int(attributes), 0]

    def define_node_set(self, set_id, count, name="", has_df=False):
        """A node set of count distinct nodes (all ranks together)."""
        _check(_pario.exodus_define_node_set(self._handle, int(set_id), name, int(count), int(bool(has_df))))

    def define_side_set(self, set_id, count, name="", df_per_side=0, num_df=None):
        """A side set of count distinct (element, side) pairs, df_per_side
        distribution factors each; or, with num_df, sides of different
        numbers of factors (a set over mixed element types), num_df in
        all (put_side_set then takes df_counts)."""
        if num_df is None:
            _check(_pario.exodus_define_side_set(self._handle, int(set_id), name, int(count), int(df_per_side)))
        else:
            _check(_pario.exodus_define_side_set_df(self._handle, int(set_id), name, int(count), int(num_df)))

    def put_coord_names(self, names):
        """num_dim coordinate names (default x, y, z)."""
        names = [str(n) for n in names]
        if len(names) != self.num_dim:  # the C call reads num_dim of them
            names = names[:self.num_dim] + [""] * (self.num_dim - len(names))
        _check(_pario.exodus_put_coord_names(self._handle, names))

    def put_qa(self, records):
        """QA records: each (code, version, date, time)."""
        records = [tuple(str(s) for s in r) for r in records]
        if any(len(r) != 4 for r in records):
            raise _invalid("a QA record has 4 strings: (code, version, date, time)")
        _check(_pario.exodus_put_qa(self._handle, [s for r in records for s in r]))

    def put_info(self, lines):
        """Info lines (up to 80 characters each)."""
        _check(_pario.exodus_put_info(self._handle, [str(s) for s in lines]))

    def define_variables(self, kind, names):
        """The variables of a kind ("global", "nodal", "element"), numbered
        1.. in this order; once per kind."""
        names = [str(n) for n in names]
        _check(_pario.exodus_define_variables(self._handle, _kind(kind), names))
        self._variables[[k for k, c in _KINDS.items() if c == _kind(kind)][0]] = names

    def put_truth_table(self, table):
        """Which element variables each block has: table[b, v] true, blocks
        in definition order (default: all)."""
        t = np.ascontiguousarray(np.asarray(table) != 0, np.int32)
        if t.ndim != 2:
            raise _invalid(f"the truth table is {t.ndim}-d, not (blocks, variables)")
        _check(_pario.exodus_put_truth_table(self._handle, t.shape[0], t.shape[1], t.ravel()))

    def end_define(self):
        """Ends the definition (otherwise the first data call does)."""
        _check(_pario.exodus_end_define(self._handle))

    # ---- the mesh: each rank its own part ----

    def put_nodes(self, ids, x, y=None, z=None):
        """This rank's nodes (those its elements use): global ids and
        coordinates (num_dim of x, y, z, each as long as ids). The order
        here is the order of every later nodal value array."""
        ids = _ids(ids)
        coords = [c for c in (x, y, z)[:self.num_dim]]
        error = None
        if any(c is None for c in coords):
            error = f"{self.num_dim}-d nodes need {self.num_dim} coordinate arrays"
            coords = [np.empty(0)] * self.num_dim
        dtype = np.result_type(*[np.asarray(c) for c in coords])
        arrays = [_values(np.ravel(c), dtype)[0] for c in coords]
        code = _TYPES.get(arrays[0].dtype, 0)
        if error is None and any(a.size != ids.size for a in arrays):
            error = f"{ids.size} ids but {', '.join(str(a.size) for a in arrays)} coordinates"
        if error is None and not code:
            error = f"coordinates of dtype {dtype}: expected one of {', '.join(str(t) for t in _TYPES)}"
        rc = _pario.exodus_put_nodes(self._handle, -1 if error else ids.size, ids, code,
                                     *(arrays + [None] * (3 - len(arrays))))
        if error and rc != _pario.OK:
            raise _invalid(error)
        _check(rc)
        self._local_nodes = ids.size

    def put_block(self, block_id, ids, connectivity):
        """This rank's elements of a block: global ids and connectivity, an
        (n, nodes_per_element) array of global node ids. The order here is
        the order of the block's attributes and element values."""
        ids = _ids(ids)
        conn = np.ascontiguousarray(np.asarray(connectivity, np.int64))
        npe = self._blocks.get(int(block_id), [0])[0]
        error = None
        if npe and conn.shape != (ids.size, npe) and not (ids.size == 0 and conn.size == 0):
            error = f"connectivity of shape {conn.shape} for {ids.size} elements of {npe} nodes"
        rc = _pario.exodus_put_block(self._handle, int(block_id), -1 if error else ids.size, ids, conn.ravel())
        if error and rc != _pario.OK:
            raise _invalid(error)
        _check(rc)
        self._blocks[int(block_id)][2] = ids.size

    def put_attributes(self, block_id, values):
        """The block's attributes of this rank's elements: (n, attributes)."""
        _, attributes, n = self._blocks.get(int(block_id), [0, 0, 0])
        self._put(f"attributes of {n} elements", n * attributes, values,
                  lambda code, v: _pario.exodus_put_attributes(self._handle, int(block_id), code, v))

    def put_node_set(self, set_id, node_ids, df=None):
        """This rank's part of a node set: global node ids (and one
        distribution factor each, if the set has them)."""
        ids = _ids(node_ids)
        d, code = (None, _pario.TYPE_DOUBLE) if df is None else _values(np.ravel(df))
        error = None if d is None or (d.size == ids.size and code) else "df: one value of a real dtype per node"
        rc = _pario.exodus_put_node_set(self._handle, int(set_id), -1 if error else ids.size, ids, code, d)
        if error and rc != _pario.OK:
            raise _invalid(error)
        _check(rc)

    def put_side_set(self, set_id, elem_ids, sides, df=None, df_counts=None):
        """This rank's part of a side set: (global element id, side 1..)
        pairs (and df_per_side distribution factors per side; for a set
        defined with num_df, df_counts[k] factors for side k, df all of
        them side after side)."""
        ids = _ids(elem_ids)
        s = np.ascontiguousarray(np.asarray(sides, np.int32).ravel())
        d, code = (None, _pario.TYPE_DOUBLE) if df is None else _values(np.ravel(df))
        error = None if s.size == ids.size else f"{ids.size} elements but {s.size} sides"
        if error is None and d is not None and not code:
            error = f"df of dtype {d.dtype}: expected a real dtype"
        if df_counts is not None:
            counts = np.ascontiguousarray(np.asarray(df_counts, np.int32).ravel())
            if error is None and counts.size != ids.size:
                error = f"{ids.size} elements but {counts.size} df_counts"
            if error is None and d is not None and d.size != int(counts.sum()):
                error = f"df has {d.size} values; df_counts add up to {int(counts.sum())}"
            rc = _pario.exodus_put_side_set_df(self._handle, int(set_id), -1 if error else ids.size, ids, s, counts,
                                               code, d)
        else:
            rc = _pario.exodus_put_side_set(self._handle, int(set_id), -1 if error else ids.size, ids, s, code, d)
        if error and rc != _pario.OK:
            raise _invalid(error)
        _check(rc)

    # ---- results, step by step ----

    def put_time(self, step, time):
        """Begins step (1, 2, ...) at time; ends the step before it."""
        _check(_pario.exodus_put_time(self._handle, int(step), float(time)))

    def _var(self, kind, var):
        """The 1-based number of a variable given by name or number."""
        if isinstance(var, str):
            names = self._variables[kind]
            if var not in names:
                raise _invalid(f"no {kind} variable {var!r} (the file has {', '.join(names) or 'none'})")
            return names.index(var) + 1
        return int(var)

    def _put(self, what, n, values, call):
        """call(mem type, contiguous values) with n values expected; a
        wrong size or dtype goes in as type 0, which C refuses everywhere."""
        v, code = _values(np.ravel(values))
        error = None
        if v.size != n:
            error = f"{v.size} values for {what} ({n} expected)"
        elif not code:
            error = f"values of dtype {v.dtype}: expected one of {', '.join(str(t) for t in _TYPES)}"
        rc = call(0 if error else code, v if not error else np.zeros(max(n, 1)))
        if error and rc != _pario.OK:
            raise _invalid(error)
        _check(rc)

    def put_global_values(self, step, values):
        """Every global variable's value of the step (equal on every rank)."""
        n = len(self._variables["global"])
        self._put("the global variables", n, values,
                  lambda code, v: _pario.exodus_put_global_values(self._handle, int(step), n, code, v))

    def put_nodal_values(self, step, var, values):
        """Nodal variable var (name or 1-based number) of the step for this
        rank's nodes, in the order of put_nodes."""
        var = self._var("nodal", var)
        self._put(f"{self._local_nodes} nodes", self._local_nodes, values,
                  lambda code, v: _pario.exodus_put_nodal_values(self._handle, int(step), var, code, v))

    def put_element_values(self, step, var, block_id, values):
        """Element variable var (name or 1-based number) of the step for
        this rank's elements of a block, in the order of put_block."""
        var = self._var("element", var)
        n = self._blocks.get(int(block_id), [0, 0, 0])[2]
        self._put(f"{n} elements of block {block_id}", n, values,
                  lambda code, v: _pario.exodus_put_element_values(self._handle, int(step), var, int(block_id),
                                                                   code, v))

    def flush(self):
        """Ends the open step (its data synced, then counted for readers)."""
        _check(_pario.exodus_flush(self._handle))

    # ---- reading ----

    @property
    def info(self):
        """Local: ExodusInfo(title, num_dim, num_nodes, num_elem, num_blocks,
        num_node_sets, num_side_sets, num_steps)."""
        return ExodusInfo(*_check(*_pario.exodus_get_info(self._handle)))

    @property
    def blocks(self):
        """Local: the blocks in file order, as ExodusBlock(id, name, type,
        count, nodes_per_element)."""
        return [ExodusBlock(*_check(*_pario.exodus_get_block(self._handle, b)))
                for b in range(self.info.num_blocks)]

    @property
    def variables(self):
        """Local: {"global": names, "nodal": names, "element": names}."""
        return {k: list(v) for k, v in self._variables.items()}

    @property
    def times(self):
        """Local: the time of each step, as an array."""
        return np.array([_check(*_pario.exodus_get_time(self._handle, s))
                         for s in range(1, self.info.num_steps + 1)], np.float64)

    def loadbal(self, processor):
        """Local: the Nemesis load-balance parameters of processor
        (0-based), as ex_get_loadbal_param gives them: a dict of
        int_nodes, bor_nodes, ext_nodes, int_elems, bor_elems, node_cmaps,
        elem_cmaps; None when the file has no Nemesis information."""
        procs, counts = _check(*_pario.exodus_get_loadbal(self._handle, int(processor)))
        if procs == 0:
            return None
        keys = ("int_nodes", "bor_nodes", "ext_nodes", "int_elems", "bor_elems", "node_cmaps", "elem_cmaps")
        return dict(zip(keys, counts))

    def node_maps(self, processor):
        """Local: the Nemesis node lists of processor (0-based) as
        ex_get_processor_node_maps gives them: (internal, border, external),
        int64 arrays of 1-based node numbers (file positions; node_ids
        gives their global ids). NotFound when the file has no Nemesis
        information, OutOfRange for a processor beyond the file's."""
        return tuple(np.array(a, np.int64) for a in
                     _check(*_pario.exodus_get_node_maps(self._handle, int(processor))))

    def elem_maps(self, processor):
        """Local: (internal, border) elements of processor, as
        ex_get_processor_elem_maps gives them (1-based element numbers)."""
        return tuple(np.array(a, np.int64) for a in
                     _check(*_pario.exodus_get_elem_maps(self._handle, int(processor))))

    def comm_maps(self, processor):
        """Local: processor's communication maps, as ex_get_cmap_params,
        ex_get_node_cmap and ex_get_elem_cmap give them: {"node": {id:
        (nodes, procs)}, "elem": {id: (elems, sides, procs)}}, int64 arrays
        (nodes and elements 1-based, sides 1-based, processors 0-based)."""
        p = int(processor)
        n_ids, n_counts, e_ids, e_counts = _check(*_pario.exodus_get_cmap_params(self._handle, p))
        out = {"node": {}, "elem": {}}
        for map_id, count in zip(n_ids, n_counts):
            nodes, procs = np.zeros(count, np.int64), np.zeros(count, np.int64)
            _check(_pario.exodus_get_node_cmap(self._handle, p, map_id, nodes, procs))
            out["node"][map_id] = (nodes, procs)
        for map_id, count in zip(e_ids, e_counts):
            elems, sides, procs = (np.zeros(count, np.int64) for _ in range(3))
            _check(_pario.exodus_get_elem_cmap(self._handle, p, map_id, elems, sides, procs))
            out["elem"][map_id] = (elems, sides, procs)
        return out

    def sets(self, kind):
        """Local: the node sets (kind "node") or side sets ("side") in file
        order, as ExodusSet(id, name, count, df_count)."""
        code = _SETS.get(kind)
        if code is None:
            raise _invalid(f"kind {kind!r}: expected 'node' or 'side'")
        n = self.info.num_node_sets if kind == "node" else self.info.num_side_sets
        return [ExodusSet(*_check(*_pario.exodus_get_set(self._handle, code, i))) for i in range(n)]

    def _set(self, kind, set_id):
        for x in self.sets(kind):
            if x.id == set_id:
                return x
        return ExodusSet(int(set_id), "", 0, 0)  # C names the missing set on every rank

    def read_node_set(self, set_id, start=0, count=None):
        """Entries [start, start + count) of a node set as global node ids."""
        start, count = self._range(start, count, self._set("node", set_id).count)
        ids = np.empty(count, np.int64)
        _check(_pario.exodus_read_node_set(self._handle, int(set_id), start, count, ids))
        return ids

    def read_side_set(self, set_id, start=0, count=None):
        """Entries [start, start + count) of a side set: (global element
        ids, sides)."""
        start, count = self._range(start, count, self._set("side", set_id).count)
        elems, sides = np.empty(count, np.int64), np.empty(count, np.int64)
        _check(_pario.exodus_read_side_set(self._handle, int(set_id), start, count, elems, sides))
        return elems, sides

    def read_set_df(self, kind, set_id, start=0, count=None, dtype=np.float64):
        """Distribution factors [start, start + count) of a set (kind
        "node" or "side"; side sets: in the order of their sides)."""
        start, count = self._range(start, count, self._set(kind, set_id).df_count)
        out = np.empty(count, dtype)
        _check(_pario.exodus_read_set_df(self._handle, _SETS.get(kind, -1), int(set_id), start, count,
                                         _TYPES.get(out.dtype, 0), out))
        return out

    def _range(self, start, count, total):
        start = int(start)
        return start, (max(0, total - start) if count is None else int(count))

    def read_coords(self, start=0, count=None, dtype=np.float64, *, ids=None):
        """Coordinates of nodes [start, start + count) (0-based file
        positions; count None: to the end), or of the nodes with global ids
        `ids` (this rank's partition), as a (num_dim, n) array:
        x, y, z = f.read_coords(...)."""
        if ids is not None:
            ids = _ids(ids)
            count = ids.size
        else:
            start, count = self._range(start, count, self.info.num_nodes)
        out = np.empty((self.num_dim, count), dtype)
        rows = [out[d] for d in range(self.num_dim)] + [None] * (3 - self.num_dim)
        code = _TYPES.get(out.dtype, 0)
        if ids is not None:
            _check(_pario.exodus_read_coords_by_id(self._handle, ids.size, ids, code, *rows))
        else:
            _check(_pario.exodus_read_coords(self._handle, start, count, code, *rows))
        return out

    def read_node_ids(self, start=0, count=None):
        """Global ids of nodes [start, start + count)."""
        start, count = self._range(start, count, self.info.num_nodes)
        ids = np.empty(count, np.int64)
        _check(_pario.exodus_read_node_ids(self._handle, start, count, ids))
        return ids

    def _block(self, block_id):
        for b in self.blocks:
            if b.id == block_id:
                return b
        return ExodusBlock(int(block_id), "", "", 0, 0)  # C names the missing block on every rank

    def read_block(self, block_id, start=0, count=None, *, ids=None):
        """Elements [start, start + count) of a block: (global ids,
        connectivity as an (count, nodes_per_element) array of 1-based node
        positions). With ids (this rank's elements of the block by global
        id): (ids, connectivity as global node ids)."""
        b = self._block(block_id)
        if ids is not None:
            ids = _ids(ids)
            conn = np.empty((ids.size, b.nodes_per_element), np.int64)
            _check(_pario.exodus_read_block_by_id(self._handle, int(block_id), ids.size, ids, conn.ravel()))
            return ids, conn
        start, count = self._range(start, count, b.count)
        ids = np.empty(count, np.int64)
        conn = np.empty((count, b.nodes_per_element), np.int64)
        _check(_pario.exodus_read_block(self._handle, int(block_id), start, count, ids, conn.ravel()))
        return ids, conn

    def read_attributes(self, block_id, start=0, count=None, dtype=np.float64):
        """Attributes of elements [start, start + count) of a block, as a
        (count, attributes per element) array."""
        b = self._block(block_id)
        per = 0
        for i, x in enumerate(self.blocks):
            if x.id == b.id:
                per = _check(*_pario.exodus_get_block_attributes(self._handle, i))
        start, count = self._range(start, count, b.count)
        out = np.empty((count, per), dtype)
        _check(_pario.exodus_read_attributes(self._handle, int(block_id), start, count, _TYPES.get(out.dtype, 0),
                                             out.ravel()))
        return out

    def read_global_values(self, step, dtype=np.float64):
        """Every global variable of a step, in variables["global"] order
        (every rank gets them all)."""
        out = np.empty(len(self._variables["global"]), dtype)
        _check(_pario.exodus_read_global_values(self._handle, int(step), out.size, _TYPES.get(out.dtype, 0), out))
        return out

    def read_nodal_values(self, step, var, start=0, count=None, dtype=np.float64, *, ids=None):
        """Nodal variable var (name or 1-based number) of a step, nodes
        [start, start + count) or the nodes with global ids `ids`."""
        var = self._var("nodal", var)
        if ids is not None:
            ids = _ids(ids)
            out = np.empty(ids.size, dtype)
            _check(_pario.exodus_read_nodal_values_by_id(self._handle, int(step), var, ids.size, ids,
                                                         _TYPES.get(out.dtype, 0), out))
            return out
        start, count = self._range(start, count, self.info.num_nodes)
        out = np.empty(count, dtype)
        _check(_pario.exodus_read_nodal_values(self._handle, int(step), var, start, count,
                                               _TYPES.get(out.dtype, 0), out))
        return out

    def read_element_values(self, step, var, block_id, start=0, count=None, dtype=np.float64, *, ids=None):
        """Element variable var of a step, elements [start, start + count)
        of a block, or its elements with global ids `ids`."""
        var = self._var("element", var)
        if ids is not None:
            ids = _ids(ids)
            out = np.empty(ids.size, dtype)
            _check(_pario.exodus_read_element_values_by_id(self._handle, int(step), var, int(block_id), ids.size,
                                                           ids, _TYPES.get(out.dtype, 0), out))
            return out
        start, count = self._range(start, count, self._block(block_id).count)
        out = np.empty(count, dtype)
        _check(_pario.exodus_read_element_values(self._handle, int(step), var, int(block_id), start, count,
                                                 _TYPES.get(out.dtype, 0), out))
        return out

    # Exodus element types (their common spellings) as meshio names them.
    _MESHIO_TYPES = {"HEX": "hexahedron", "HEX8": "hexahedron", "HEX20": "hexahedron20", "HEX27": "hexahedron27",
                     "TETRA": "tetra", "TETRA4": "tetra", "TET4": "tetra", "TETRA10": "tetra10", "TET10": "tetra10",
                     "WEDGE": "wedge", "WEDGE6": "wedge", "WEDGE15": "wedge15", "PYRAMID": "pyramid",
                     "PYRAMID5": "pyramid", "PYRAMID13": "pyramid13", "QUAD": "quad", "QUAD4": "quad",
                     "SHELL": "quad", "SHELL4": "quad", "QUAD8": "quad8", "QUAD9": "quad9", "TRI": "triangle",
                     "TRI3": "triangle", "TRIANGLE": "triangle", "TRISHELL": "triangle", "TRI6": "triangle6",
                     "BAR": "line", "BAR2": "line", "BEAM": "line", "BEAM2": "line", "TRUSS": "line",
                     "TRUSS2": "line", "BAR3": "line3", "SPHERE": "vertex", "CIRCLE": "vertex"}

    def to_meshio(self, step=None):
        """Collective: the whole file as a meshio.Mesh on every rank (for
        files that fit one process): points (num_nodes, num_dim), one cell
        block per element block (0-based node indices), point_data and
        cell_data of step (1-based; default the last, none when the file
        has no steps; an element variable a block lacks is NaN there).
        Needs meshio (pip install meshio)."""
        try:
            import meshio
        except ImportError as e:
            raise ImportError("ExodusFile.to_meshio needs meshio (pip install meshio)") from e
        info = self.info
        if step is None:
            step = info.num_steps
        blocks = self.blocks
        points = self.read_coords().T.copy()
        cells = []
        for b in blocks:
            kind = self._MESHIO_TYPES.get(b.type.upper())
            if kind is None:
                raise _invalid(f"block {b.id}: element type {b.type!r} has no meshio cell type")
            cells.append((kind, self.read_block(b.id)[1] - 1))
        point_data, cell_data = {}, {}
        if step:
            for name in self._variables["nodal"]:
                point_data[name] = self.read_nodal_values(step, name)
            truth = self.truth_table
            for v, name in enumerate(self._variables["element"]):
                cell_data[name] = [self.read_element_values(step, name, b.id) if truth[i][v]
                                   else np.full(b.count, np.nan) for i, b in enumerate(blocks)]
        return meshio.Mesh(points, cells, point_data=point_data, cell_data=cell_data)

    @property
    def partition(self):
        """Local: pario's own read partition, {block id: (start, count)}:
        the file's elements split evenly over the group's ranks in file
        order, this rank's of each block. Read them with read_block and
        read_element_values, and their nodes by id (read_block(...,
        ids=...) gives their connectivity as global node ids, for
        read_coords(ids=...) and read_nodal_values(..., ids=...))."""
        blocks = self.blocks
        start, count = _check(*_pario.exodus_get_partition(self._handle, len(blocks)))
        return {b.id: (int(s), int(c)) for b, s, c in zip(blocks, start, count)}

    @property
    def truth_table(self):
        """Local: which element variables each block holds, a (blocks,
        variables) bool array (blocks in file order), as ex_get_truth_table."""
        nb, nv = self.info.num_blocks, len(self._variables["element"])
        table = _check(*_pario.exodus_get_truth_table(self._handle, nb, nv))
        return np.array(table, bool).reshape(nb, nv)

    # ---- lifetime ----

    def close(self):
        """Collective: finishes the open step and the file (writing) and
        closes it (idempotent)."""
        if self._handle:
            h, self._handle = self._handle, 0
            _check(_pario.exodus_close(h))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"ExodusFile({self.path!r}, {'writing' if self.writing else 'reading'})"
