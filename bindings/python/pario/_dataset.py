"""Self-describing datasets on parallel HDF5 (pario/dataset.h; PDS).

A Dataset is one HDF5 file of time-ordered segments (topology and state,
each with a time index and a time value), registered variables (an item
shape and a word dtype) and sections: the values of one variable in one
segment, either rank-ordered (every rank writes a piece of any length,
stored in rank order) or global-ordered (through a Decomposition, landing
in global index order). Infos (name -> NumPy array or str) hang on the
dataset, a variable or a segment as dict-like mappings. h5py reads every
file with no pario installed.

    with pario.Dataset.create("run.h5", comm) as ds:
        t = ds.append_segment("state", time_index=0, time_value=0.0)
        u = ds.register("u", item_shape=(3,), dtype=np.float64)
        ds.write_ranked(t, u, my_values)            # shape (n, 3), any n per rank
        ds.infos["code"] = "lulesh"
    with pario.Dataset.open("run.h5", comm) as ds:
        part = ds.read(0, "u")                     # an even split over the ranks

Every method is collective over the dataset's group (all ranks call it in
the same order with matching arguments) unless its docstring says local;
a failure raises on every rank together: the rank at fault its own error,
the others RemoteError. The package keeps that promise for what it checks
itself (a dtype pario lacks, a wrong shape, an unknown variable name): the
rank still makes the C call, with an argument C refuses, and then raises
its own message.

Writes take the values' own dtype as the put type and reads give `dtype`
(default the word type): pario converts on the way, and a value that does
not fit (300 into an int8 word) raises OutOfRange on every rank.

create and open take the collective engine's hints as Decomposition does
(aggregators, aggregator_ranks, buffer_size, align, convert, buffering;
None: the environment's, then the defaults; the same on every rank) for
the transfers the dataset makes through decompositions of its own
(write_array, read_array); write_global and read_global use the given
Decomposition's. There is no byteorder: HDF5's types carry it. A hint
Decomposition refuses fails the call on every rank.
"""
import collections
import collections.abc
import numbers
import operator
import os

import numpy as np

from . import _pario
from ._arrays import _TYPES, _group
from ._collective import Decomposition, _hint_values, _hints
from ._errors import InvalidArgument, NotFound, OutOfRange, _check

_SEGMENT_KINDS = {"topology": _pario.SEGMENT_TOPOLOGY, "state": _pario.SEGMENT_STATE}
_FIND_KINDS = dict(_SEGMENT_KINDS, any=_pario.SEGMENT_ANY)
_KIND_NAMES = {code: name for name, code in _SEGMENT_KINDS.items()}
_LAYOUTS = {_pario.SECTION_RANK_ORDERED: "rank", _pario.SECTION_GLOBAL_ORDERED: "global"}
_DTYPES = {code: dtype for dtype, code in _TYPES.items()}
_OPEN_MODES = {"r": _pario.MODE_READ, "r+": _pario.MODE_RDWR}
_FILE_MODES = {
    "one_file": _pario.DATASET_ONE_FILE,
    "file_per_step": _pario.DATASET_FILE_PER_STEP,
    "steps_per_file": _pario.DATASET_STEPS_PER_FILE,
}
_SYNC_POLICIES = {
    None: _pario.DATASET_SYNC_DEFAULT,
    "fsync": _pario.DATASET_SYNC_FSYNC,
    "write": _pario.DATASET_SYNC_WRITE,
    "none": _pario.DATASET_SYNC_NONE,
}

SectionInfo = collections.namedtuple("SectionInfo", "layout writers items max_piece piece_start piece_count shape")
SectionInfo.__doc__ = """A section's facts: layout "rank" or "global"; rank-ordered: writers (ranks
that wrote it), max_piece and the asked writer's piece (piece_start,
piece_count, in items); items (all of them); shape (the HDF5 dataset's)."""


def _invalid(message):
    return InvalidArgument(_pario.ERR_INVALID_ARGUMENT, message)


def _native(a):
    """a as a native-byte-order, C-contiguous array and its PARIO_TYPE_* (0
    if none, or if NumPy cannot make an array of it: the caller reports it
    after the collective)."""
    try:
        a = np.asarray(a)
    except (TypeError, ValueError):
        return np.empty(0, np.object_), 0
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    return np.ascontiguousarray(a), _TYPES.get(a.dtype, 0)


def _dtype_error(dtype):
    return f"dtype {dtype}: expected one of {', '.join(str(t) for t in _TYPES)}"


def _memory_code(dtype):
    """(PARIO_TYPE_* of dtype, 0 for None: the word type; an error message or None)."""
    if dtype is None:
        return 0, None
    try:
        dt = np.dtype(dtype)
    except TypeError:
        return 0, f"dtype {dtype!r} is not a NumPy dtype"
    code = _TYPES.get(dt.newbyteorder("=") if dt.byteorder in "<>" else dt, 0)
    return code, (None if code else _dtype_error(dt))


def _c_int(value, what, bits=64):
    """(value as an int that C's int<bits>_t holds, None), or (None, error)
    for one it does not (not an integer, out of range): the caller passes
    C an argument it refuses and raises after the collective call, as
    nanobind's own conversion would raise on this rank alone, before it,
    leaving the other ranks waiting."""
    try:
        v = operator.index(value)
    except TypeError:
        return None, f"{what} {value!r}: expected an integer"
    if not -(1 << (bits - 1)) <= v < 1 << (bits - 1):
        return None, f"{what} {v} does not fit a {bits}-bit integer"
    return v, None


def _hint_args(aggregators, aggregator_ranks, buffer_size, align, convert, buffering):
    """(the C hints, None), or for a hint _hint_values refuses (the
    defaults, this rank's message): the caller then passes C an argument it
    refuses, so that every rank fails together. The byte order is native:
    HDF5's types carry the file's. Shared with WaveFunctionFile."""
    values, error = _hint_values(aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
    return _hints(values, _pario.BYTE_ORDER_NATIVE), error


def _decomposition(d):
    return d if isinstance(d, Decomposition) else None


def _handle(obj):
    """A pario object's C handle; 0 (refused by C on every rank) for a
    freed one, None or anything else."""
    return getattr(obj, "_handle", 0) or 0


class _PathHandle:
    """What Dataset and WaveFunctionFile share: a C handle that a collective
    call made from a path on a group (self.group, self.path), released by
    close() (idempotent, collective) or at the end of a with block."""

    _close_c = None  # the extension's close call, staticmethod(...) in the subclass

    @classmethod
    def _make(cls, path, comm, make, error=None):
        """A new object whose handle make(group handle, path) returns; error:
        a problem this rank found in the other arguments, for which make
        passed C an argument it refuses. A path os.fspath refuses goes to C
        as "" (refused on every rank), so that ranks given a good path are
        not left waiting; either raises InvalidArgument after the call."""
        self = object.__new__(cls)
        self._handle = 0
        self.group = _group(comm)
        try:
            self.path = os.fspath(path)
        except TypeError:
            self.path = ""
            error = error or f"path {path!r}: expected a str, bytes or os.PathLike"
        if isinstance(self.path, bytes):
            self.path = os.fsdecode(self.path)
        rc, handle = make(self.group._handle, self.path)
        if rc == _pario.OK and error:  # not expected: C accepted what the package refuses
            type(self)._close_c(handle)
            rc = _pario.ERR_INVALID_ARGUMENT
        if error and rc != _pario.OK:
            raise _invalid(error)
        self._handle = _check(rc, handle)
        return self

    def close(self):
        """Collective: closes the file (idempotent)."""
        if self._handle:
            h, self._handle = self._handle, 0
            _check(type(self)._close_c(h))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        state = "open" if self._handle else "closed"
        return f"{type(self).__name__}({self.path!r}, {state})"


class Segment:
    """A segment of a dataset (local record): .index (its position, 0..),
    .kind ("topology" or "state"), .time_index, .time_value and .infos.
    Pass it, or its index, wherever a segment is taken."""

    __slots__ = ("dataset", "index", "kind", "time_index", "time_value")

    def __init__(self, dataset, index):
        kind, self.time_index, self.time_value = _check(*_pario.dataset_segment_info(dataset._handle, index))
        self.dataset = dataset
        self.index = index
        self.kind = _KIND_NAMES.get(kind, str(kind))

    def __index__(self):
        return self.index

    @property
    def infos(self):
        """The segment's infos (collective mapping)."""
        return Infos(self.dataset, _pario.INFO_SEGMENT, self.index)

    def __eq__(self, other):
        return (isinstance(other, Segment) and other.dataset is self.dataset and other.index == self.index
                and other.time_index == self.time_index)

    def __hash__(self):
        return hash((id(self.dataset), self.index))

    def __repr__(self):
        return (f"Segment(index={self.index}, kind={self.kind!r}, time_index={self.time_index}, "
                f"time_value={self.time_value!r})")


class Variable:
    """A registered variable (local record): .name, .id (registration
    order, 0..), .item_shape (() scalar, (k,) vector, (r, c) tensor),
    .dtype (the word type in the file) and .infos. Pass it, its id or its
    name wherever a variable is taken."""

    __slots__ = ("dataset", "id", "name", "item_shape", "dtype")

    def __init__(self, dataset, variable_id):
        name, kind, dims, word = _check(*_pario.dataset_variable_info(dataset._handle, variable_id))
        self.dataset = dataset
        self.id = variable_id
        self.name = name
        self.item_shape = {_pario.ITEM_SCALAR: (), _pario.ITEM_VECTOR: (dims[0],)}.get(kind, tuple(dims))
        self.dtype = _DTYPES[word]

    def __index__(self):
        return self.id

    @property
    def words(self):
        """Words per item (1 for a scalar)."""
        return int(np.prod(self.item_shape, dtype=np.int64))

    @property
    def infos(self):
        """The variable's infos (collective mapping)."""
        return Infos(self.dataset, _pario.INFO_VARIABLE, self.id)

    def __repr__(self):
        return f"Variable({self.name!r}, id={self.id}, item_shape={self.item_shape}, dtype={self.dtype})"


class Infos(collections.abc.Mapping):
    """Name -> value infos of a dataset, variable or segment: a value is a
    1-D NumPy array (of the stored element type) or a str. Reading, setting,
    iterating and len() are collective: every rank of the dataset's group
    makes the same calls in the same order. infos[name] = value replaces an
    info (rank 0's value is stored; the dtype and length must match on every
    rank); a missing name raises KeyError on every rank."""

    def __init__(self, dataset, owner_kind, owner):
        self._dataset = dataset
        self._kind = owner_kind
        self._owner = int(owner)

    def __getitem__(self, name):
        h = self._dataset._handle
        try:
            stored, count = _check(*_pario.dataset_info_get(h, self._kind, self._owner, str(name), 0, None))
        except NotFound as e:
            raise KeyError(name) from e
        if stored == _pario.INFO_STRING:
            buf = np.empty(count, np.uint8)
            _check(*_pario.dataset_info_get(h, self._kind, self._owner, str(name), stored, buf)[:1])
            return buf.tobytes().decode("utf-8")
        out = np.empty(count, _DTYPES[stored])
        _check(*_pario.dataset_info_get(h, self._kind, self._owner, str(name), stored, out)[:1])
        return out

    def __setitem__(self, name, value):
        error = None
        if isinstance(value, str):
            data, code = np.frombuffer(value.encode("utf-8"), np.uint8), _pario.INFO_STRING
        else:
            data, code = _native(value)
            data = data.ravel()
            if not code:
                error = f"info {name!r}: " + _dtype_error(data.dtype) + " or a str"
                data = np.empty(0, np.uint8)
        rc = _pario.dataset_info_put(self._dataset._handle, self._kind, self._owner, str(name), code, data.size,
                                     data)
        if error and rc != _pario.OK:  # type 0: refused on every rank, this rank says why
            raise _invalid(error)
        _check(rc)

    def _name(self, index):
        return _check(*_pario.dataset_info_name(self._dataset._handle, self._kind, self._owner, index))

    def __len__(self):
        return self._name(-1)[1]

    def __iter__(self):
        return iter([self._name(i)[0] for i in range(len(self))])

    def __contains__(self, name):
        return str(name) in list(self)

    def __repr__(self):
        return f"Infos({dict(self)!r})"


class Dataset(_PathHandle):
    """A self-describing dataset (one HDF5 file) of every rank of a group.
    Make one with Dataset.create() or Dataset.open() (collective); close it
    with close() or a `with` block (collective)."""

    _close_c = staticmethod(_pario.dataset_close)

    def __init__(self, *args, **kwargs):
        raise TypeError("use Dataset.create() or Dataset.open()")

    @staticmethod
    def supported():
        """Local: whether this build has parallel HDF5 (else every call raises Unsupported)."""
        return bool(_pario.dataset_supported())

    @classmethod
    def _new(cls, path, comm, make, error=None):
        self = cls._make(path, comm, make, error)
        self._variables = None
        return self

    @classmethod
    def create(cls, path, comm=None, *, overwrite=False, file_mode="one_file", steps_per_file=0, sync=None,
               aggregators=None, aggregator_ranks=None, buffer_size=None, align=None, convert=None, buffering=None):
        """Collective: a new dataset at path for every rank of comm (an
        mpi4py communicator, a pario.Group, or None for the world), open
        read-write. An existing file raises Exists, unless overwrite=True
        replaces a pario dataset there (any other file still raises Exists
        and is left alone). file_mode: "one_file" (every segment in the file
        at path), "file_per_step" (a member file per time index) or
        "steps_per_file" (steps_per_file time indices per member file); the
        file at path opens the whole dataset whatever the mode. sync: what a
        segment's end writes out: "fsync" (HDF5's metadata written and the
        files fsynced), "write" (written, no fsync: as safe against a killed
        process, not against a machine's crash), "none" (nothing until
        close), or None for the environment's PARIO_DATASET_SYNC (else
        "fsync"); pario/dataset.h says what each guarantees. aggregators,
        aggregator_ranks, buffer_size, align, convert, buffering: the
        collective engine's hints for write_array and read_array, as
        Decomposition.blocks takes them."""
        mode = _pario.MODE_CREATE | (_pario.MODE_TRUNCATE if overwrite else _pario.MODE_EXCLUSIVE)
        code = _FILE_MODES.get(file_mode, -1)  # -1: refused by C on every rank
        steps, steps_error = _c_int(steps_per_file, "steps_per_file")
        if steps_error:
            code = -1  # raised after the collective call, so no rank is left waiting
        sync_code = _SYNC_POLICIES.get(sync, -1) if isinstance(sync, (str, type(None))) else -1
        hints, hints_error = _hint_args(aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
        if hints_error:
            code = -1
        try:
            return cls._new(path, comm, lambda g, p: _pario.dataset_create(
                g, p, mode, code, steps if code != -1 else 0, sync_code, hints), hints_error)
        except InvalidArgument:
            if hints_error:
                raise  # the hint's own message
            if code == -1:
                raise _invalid(f"file_mode {file_mode!r} with steps_per_file {steps_per_file!r}: expected "
                               f"one of {sorted(_FILE_MODES)} and an integer") from None
            if sync_code == -1:
                raise _invalid(f"sync {sync!r}: expected None or one of "
                               f"{sorted(k for k in _SYNC_POLICIES if k)}") from None
            raise

    @property
    def sync(self):
        """Local: (sync policy name, file syncs, write-backs) since this
        dataset was created or opened; the same on every rank (a file sync
        is an fsync of one file)."""
        rc, code, syncs, write_backs = _pario.dataset_sync_counts(self._handle)
        _check(rc)
        name = next(k for k, v in _SYNC_POLICIES.items() if v == code and k)
        return name, syncs, write_backs

    @property
    def file_mode(self):
        """Local: (file mode name, time indices per member file, files:
        the entry file plus its members)."""
        rc, code, steps_per_file, files = _pario.dataset_file_mode(self._handle)
        _check(rc)
        name = next(k for k, v in _FILE_MODES.items() if v == code)
        return name, steps_per_file, files

    @classmethod
    def open(cls, path, comm=None, mode="r", *, sync=None, aggregators=None, aggregator_ranks=None,
             buffer_size=None, align=None, convert=None, buffering=None):
        """Collective: an existing dataset, mode "r" (read-only) or "r+"
        (read-write). A file that is not a pario dataset or is damaged
        raises Corrupt, a missing one NotFound. sync and the hints as for
        create (a run's choices, not stored in the file)."""
        code = _OPEN_MODES.get(mode, 0) if isinstance(mode, str) else 0  # 0: refused by C on every rank
        sync_code = _SYNC_POLICIES.get(sync, -1) if isinstance(sync, (str, type(None))) else -1
        hints, hints_error = _hint_args(aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
        try:
            return cls._new(path, comm, lambda g, p: _pario.dataset_open(
                g, p, 0 if hints_error else code, sync_code, hints), hints_error)
        except InvalidArgument:
            if hints_error:
                raise  # the hint's own message
            if not code:
                raise _invalid(f"mode {mode!r}: expected 'r' or 'r+'") from None
            if sync_code == -1:
                raise _invalid(f"sync {sync!r}: expected None or one of "
                               f"{sorted(k for k in _SYNC_POLICIES if k)}") from None
            raise

    # ---- segments (queries local) ----

    def append_segment(self, kind, time_index, time_value=0.0):
        """Collective: appends a segment of kind "topology" or "state";
        time indices and values never decrease, a topology and a state
        segment may share a time index (topology first). Returns it."""
        code = _SEGMENT_KINDS.get(kind, -1)  # -1: refused by C on every rank
        error = None if code != -1 else f"kind {kind!r}: expected 'topology' or 'state'"
        index, index_error = _c_int(time_index, "time_index")
        try:
            value = float(time_value)
        except (TypeError, ValueError):
            value, error = 0.0, error or f"time_value {time_value!r}: expected a real number"
        error = error or index_error
        if error:
            code, index = -1, 0
        rc, position = _pario.dataset_segment_append(self._handle, code, index, value)
        if rc != _pario.OK and error:
            raise _invalid(error)
        _check(rc)
        return Segment(self, position)

    @property
    def segments(self):
        """Local: every segment, in time order."""
        n = _check(*_pario.dataset_segment_count(self._handle))
        return [Segment(self, i) for i in range(n)]

    def segment(self, index):
        """Local: the segment at position index."""
        return Segment(self, operator.index(index))

    def find_segment(self, time_index=None, *, time=None, kind="any"):
        """Local: the first segment of kind ("topology", "state" or "any")
        with this time_index, or (time=t) the last one whose time value is
        <= t (the state at that time). Raises NotFound when none is."""
        if (time_index is None) == (time is None):
            raise _invalid("find_segment: give time_index or time, not both or neither")
        if kind not in _FIND_KINDS:
            raise _invalid(f"kind {kind!r}: expected 'topology', 'state' or 'any'")
        if time is None:
            found = _pario.dataset_segment_find_index(self._handle, _FIND_KINDS[kind], int(time_index))
        else:
            found = _pario.dataset_segment_find_time(self._handle, _FIND_KINDS[kind], float(time))
        return Segment(self, _check(*found))

    def truncate(self, last_kept=None):
        """Collective: erases every segment after last_kept (a Segment or a
        position; None erases them all), with their sections and infos.
        Variables stay registered."""
        kept, error = (-1, None) if last_kept is None else _c_int(last_kept, "last_kept")
        rc = _pario.dataset_truncate(self._handle, -2 if error else kept)  # -2: refused by C on every rank
        if error and rc != _pario.OK:
            raise _invalid(error)
        _check(rc)

    # ---- variables ----

    def register(self, name, item_shape=(), dtype=np.float64):
        """Collective: registers a variable: item_shape () for a scalar, (k,)
        for a vector of k components, (r, c) for a tensor; dtype is the word
        type in the file. Registering a name again with the same definition
        returns it; with another raises Exists."""
        shape = (item_shape,) if np.ndim(item_shape) == 0 and item_shape != () else tuple(item_shape)
        kind = (_pario.ITEM_SCALAR, _pario.ITEM_VECTOR, _pario.ITEM_TENSOR)[min(len(shape), 2)]
        error = None if len(shape) <= 2 else f"item_shape {shape}: at most 2 dimensions (a tensor)"
        code, type_error = _memory_code(np.float64 if dtype is None else dtype)
        dims = [_c_int(n, "item_shape dimension") for n in shape]
        error = error or type_error or next((e for _, e in dims if e), None)
        rc, variable = _pario.dataset_variable_register(self._handle, str(name), -1 if error else kind,
                                                        [] if error else [n for n, _ in dims], code)
        if error and rc != _pario.OK:
            raise _invalid(f"register {name!r}: {error}")
        _check(rc)
        self._variables = None
        return Variable(self, variable)

    @property
    def variables(self):
        """Local: {name: Variable} in registration order."""
        if self._variables is None:
            n = _check(*_pario.dataset_variable_count(self._handle))
            self._variables = {v.name: v for v in (Variable(self, i) for i in range(n))}
        return dict(self._variables)

    def variable(self, name):
        """Local: the variable called name (NotFound if none)."""
        return Variable(self, _check(*_pario.dataset_variable_find(self._handle, str(name))))

    def _resolve(self, variable):
        """(Variable or None, id for C: -1 when unknown so C refuses it, error)."""
        if isinstance(variable, Variable):
            return variable, variable.id, None
        if isinstance(variable, str):
            rc, vid = _pario.dataset_variable_find(self._handle, variable)
            if rc != _pario.OK:
                return None, -1, f"no variable {variable!r} in {self.path}"
            return Variable(self, vid), vid, None
        vid, error = _c_int(variable, "variable", bits=32)
        if error:
            return None, -1, error if isinstance(variable, numbers.Integral) else \
                f"variable {variable!r}: expected a Variable, a name or an id"
        rc = _pario.dataset_variable_info(self._handle, vid)[0]
        return (Variable(self, vid) if rc == _pario.OK else None), vid, None

    @staticmethod
    def _segment(segment):
        position, error = _c_int(segment, "segment")
        if error:
            return -1, error if isinstance(segment, numbers.Integral) else \
                f"segment {segment!r}: expected a Segment or a position"
        return position, None

    def _prepare(self, segment, variable):
        """(segment position, Variable or None, variable id, error)."""
        seg, seg_error = self._segment(segment)
        var, vid, var_error = self._resolve(variable)
        return seg, var, vid, seg_error or var_error

    def _set_types(self, vid, put=0, get=0):
        _pario.dataset_variable_set_types(self._handle, vid, put, get)  # a bad id: the collective says so

    # ---- sections ----

    def section(self, segment, variable, writer=0):
        """Collective: the SectionInfo of variable in segment (NotFound when
        that segment has none), with writer `writer`'s piece (any rank may
        ask for another writer)."""
        seg, _, vid, error = self._prepare(segment, variable)
        writer, writer_error = _c_int(writer, "writer", bits=32)
        error = error or writer_error
        result = _pario.dataset_section_info(self._handle, seg, -1 if error else vid, writer or 0)
        if error and result[0] != _pario.OK:
            raise _invalid(error)
        _check(result[0])
        layout, writers, items, max_piece, start, count, dims = result[1:]
        return SectionInfo(_LAYOUTS.get(layout, layout), writers, items, max_piece, start, count, tuple(dims))

    def even_split(self, items):
        """Local: (start, count) of this rank's part of `items` split evenly
        over the group (the first items % size ranks one more): the items
        read() reads when given neither writer, start nor count."""
        n, error = _c_int(items, "items")
        if error:
            raise _invalid(f"even_split: {error}")
        return _check(*_pario.dataset_even_split(n, self.group.size, self.group.rank))

    def write_ranked(self, segment, variable, values):
        """Collective: this rank's piece of a rank-ordered section: values of
        shape (n,) + item_shape (or flat, n * words long), any n (0 too)
        and any dtype pario has. Pieces are stored in rank order; writing a
        section twice raises Exists."""
        seg, var, vid, error = self._prepare(segment, variable)
        data, code = _native(values)
        items = 0
        if not error and not code:
            error = _dtype_error(data.dtype)
        if not error and var is not None:
            shape = var.item_shape
            if data.ndim >= 1 and data.shape[1:] == shape:
                items = data.shape[0]
            elif data.ndim == 1 and data.size % var.words == 0:
                items = data.size // var.words
            else:
                error = f"values of shape {data.shape} for items of shape {shape}: expected (n,) + {shape} or flat"
        if error:
            vid, items, data = -1, 0, np.empty(0, np.uint8)
        else:
            self._set_types(vid, put=code)
        rc = _pario.dataset_write_ranked(self._handle, seg, vid, items, data.ravel())
        if error and rc != _pario.OK:
            raise _invalid(f"write_ranked: {error}")
        _check(rc)

    def read(self, segment, variable, start=None, count=None, *, writer=None, dtype=None):
        """Collective: items of a section (either layout) on this rank, as
        an array of shape (count,) + item_shape and dtype (default the word
        type). Which items: writer=r, rank r's piece as written; start and
        count, that range (count default: to the end); neither, this rank's
        part of an even split over the group (the first items % size
        ranks one item more). Ranks may choose differently."""
        seg, var, vid, error = self._prepare(segment, variable)
        code, type_error = _memory_code(dtype)
        error = error or type_error
        # Every number is checked before the first collective call: a
        # conversion that raised on this rank alone would leave the others
        # waiting in it.
        if writer is not None:
            writer, writer_error = _c_int(writer, "writer", bits=32)
            error = error or writer_error
        if start is not None:
            start, start_error = _c_int(start, "start")
            error = error or start_error
        if count is not None:
            count, count_error = _c_int(count, "count")
            error = error or count_error
        info = _pario.dataset_section_info(self._handle, seg, -1 if error else vid,
                                           0 if writer is None or error else writer)
        if error and info[0] != _pario.OK:
            raise _invalid(f"read: {error}")
        _check(info[0])
        items, writers = info[3], info[2]
        range_error = None
        if writer is not None:
            if info[1] != _pario.SECTION_RANK_ORDERED or not 0 <= writer < writers:
                range_error = f"writer {writer}: the section has {writers} writers (rank-ordered only)"
            start, count = info[5], info[6]
        elif start is None and count is None:
            start, count = self.even_split(items)
        else:
            start = 0 if start is None else start
            count = items - start if count is None else count
            if not (0 <= start <= items and 0 <= count <= items - start):
                range_error = f"items [{start}, +{count}) outside the section's {items} items"
        dt = _DTYPES[code] if code else var.dtype
        out, memory_error = np.empty((0,) + var.item_shape, dt), None
        if not range_error:
            try:
                out = np.empty((count,) + var.item_shape, dt)
            except MemoryError as e:  # raised after the collective call, as the others fail
                memory_error = e
        failed = range_error or memory_error
        self._set_types(vid, get=code)
        rc = _pario.dataset_read_items(self._handle, seg, vid, -1 if failed else start, 0 if failed else count,
                                       out.reshape(-1))
        if memory_error and rc != _pario.OK:
            raise memory_error
        if range_error and rc != _pario.OK:
            raise OutOfRange(_pario.ERR_OUT_OF_RANGE, f"read: {range_error}")
        _check(rc)
        return out

    def write_global(self, segment, variable, decomposition, values):
        """Collective: a global-ordered section through a Decomposition of
        its words (item i's component j is word i * words + j; a blocks
        decomposition of shape (n,) + item_shape says it directly), whose
        dtype is the variable's and whose group is the dataset's. values:
        this rank's local_count words, of any dtype pario has, in the
        decomposition's order. The file does not depend on the number of
        ranks that wrote it."""
        seg, _, vid, error = self._prepare(segment, variable)
        decomposition, data, source_error = _decomposition(decomposition), None, None
        if decomposition is None:
            error = error or "decomposition: expected a pario.Decomposition"
        else:
            data, source_error = decomposition._source(values)
        error = error or source_error
        if error:
            data, vid = np.empty(0, np.uint8), -1
        else:
            self._set_types(vid, put=_TYPES[data.dtype])
        rc = _pario.dataset_write_decomp(self._handle, seg, vid, _handle(decomposition), data)
        if error and rc != _pario.OK:
            raise _invalid(f"write_global: {error}")
        _check(rc)

    def read_global(self, segment, variable, decomposition, out=None, dtype=None):
        """Collective: this rank's words of a section (either layout)
        through a Decomposition (global size = the section's words), into
        out or a new array of dtype (default the decomposition's), shaped
        as Decomposition.read shapes it. Returns it."""
        seg, var, vid, error = self._prepare(segment, variable)
        if dtype is None and out is None and var is not None:
            dtype = var.dtype
        decomposition, flat, target_error = _decomposition(decomposition), None, None
        if decomposition is None:
            error = error or "decomposition: expected a pario.Decomposition"
        else:
            out, flat, target_error = decomposition._target(out, dtype)
        error = error or target_error
        buf, error = (None, error) if error else decomposition._buffer(out, flat)
        if error:
            buf, vid = np.empty(0, np.uint8), -1
        else:
            self._set_types(vid, get=_TYPES[buf.dtype])
        rc = _pario.dataset_read_decomp(self._handle, seg, vid, _handle(decomposition), buf)
        if error and rc != _pario.OK:
            raise error if isinstance(error, MemoryError) else _invalid(f"read_global: {error}")
        _check(rc)
        if flat is None:  # out is strided: copied into it
            out[...] = buf.reshape(out.shape, order=decomposition.order)
        return out

    def write_array(self, segment, variable, array):
        """Collective (over the array's group too): checkpoints a
        GlobalArray (any distribution) into a global-ordered section of a
        scalar variable, of the array's shape."""
        seg, _, vid, error = self._prepare(segment, variable)
        rc = _pario.dataset_write_array(self._handle, seg, vid, _handle(array))
        if error and rc != _pario.OK:
            raise _invalid(f"write_array: {error}")
        _check(rc)

    def read_array(self, segment, variable, array):
        """Collective: restart: reads a section into a GlobalArray of as many
        elements (any shape, distribution, dtype and number of ranks; values
        in C order). Returns the array."""
        seg, _, vid, error = self._prepare(segment, variable)
        rc = _pario.dataset_read_array(self._handle, seg, vid, _handle(array))
        if error and rc != _pario.OK:
            raise _invalid(f"read_array: {error}")
        _check(rc)
        return array

    # ---- infos ----

    @property
    def infos(self):
        """The dataset's infos (collective mapping)."""
        return Infos(self, _pario.INFO_DATASET, 0)
