"""Process groups, global arrays and load-balancing counters (pario/array.h)."""
import operator

import numpy as np

from . import _pario
from ._errors import InvalidArgument, OutOfRange, StateError, _check
from ._runtime import init

# NumPy's dtypes of the C element types.
_TYPES = {np.dtype(np.float64): _pario.TYPE_DOUBLE, np.dtype(np.float32): _pario.TYPE_FLOAT,
          np.dtype(np.int32): _pario.TYPE_INT32, np.dtype(np.int64): _pario.TYPE_INT64,
          np.dtype(np.complex128): _pario.TYPE_COMPLEX_DOUBLE,
          np.dtype(np.int8): _pario.TYPE_INT8, np.dtype(np.uint8): _pario.TYPE_UINT8,
          np.dtype(np.int16): _pario.TYPE_INT16, np.dtype(np.uint16): _pario.TYPE_UINT16,
          np.dtype(np.uint32): _pario.TYPE_UINT32, np.dtype(np.uint64): _pario.TYPE_UINT64,
          np.dtype(np.complex64): _pario.TYPE_COMPLEX_FLOAT}


def _type_code(dtype):
    """The C type of a NumPy dtype, or 0 (no PARIO_TYPE_*, so C refuses it) when it has none."""
    return _TYPES.get(dtype, 0)


def _check_collective(result, dtype):
    """_check for a collective create: a dtype pario lacks still goes through
    C, so that every rank fails together (the others with RemoteError)
    instead of this rank raising alone and the others waiting; here the
    error names the dtype."""
    if dtype not in _TYPES and result[0] != _pario.OK:
        raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT,
                              f"dtype {dtype}: expected one of {', '.join(str(t) for t in _TYPES)}")
    return _check(*result)


def _section(key, shape):
    """(start, count, result shape) of a basic-slicing key over an array of
    `shape`, as NumPy reads it: slices (step 1) clipped to the extent,
    integers (negative ones from the end) leaving their dimension out of
    the result, one Ellipsis."""
    key = key if isinstance(key, tuple) else (key,)
    ndim = len(shape)
    if sum(k is Ellipsis for k in key) > 1:
        raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT, "an index can only have a single Ellipsis")
    if any(k is Ellipsis for k in key):
        i = key.index(Ellipsis)
        key = key[:i] + (slice(None),) * (ndim - len(key) + 1) + key[i + 1:]
    key = key + (slice(None),) * (ndim - len(key))
    if len(key) != ndim:
        raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT, f"{len(key)} indices for a {ndim}-d array")
    start, count, out = [], [], []
    for k, n in zip(key, shape):
        if isinstance(k, slice):
            lo, hi, step = k.indices(n)
            if step != 1:
                raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT,
                                      f"slice {k}: sections take unit steps only (step {step})")
            start.append(lo)
            count.append(max(0, hi - lo))
            out.append(count[-1])
            continue
        try:
            i = operator.index(k)
        except TypeError:
            raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT,
                                  f"index {k!r}: sections take integers, slices and Ellipsis "
                                  "(no arrays, None or floats)") from None
        if not -n <= i < n:
            raise OutOfRange(_pario.ERR_OUT_OF_RANGE, f"index {i} is out of range for a dimension of {n}")
        start.append(i + n if i < 0 else i)
        count.append(1)
    return start, count, tuple(out)


class Group:
    """A set of processes: the world, or an mpi4py communicator's."""

    def __init__(self, comm=None):
        init()
        self._handle = 0
        if comm is None:
            self._handle = _check(*_pario.group_world())
        else:
            self._handle = _check(*_pario.group_from_fortran_comm(comm.py2f()))
        _, self.rank, self.size = _pario.group_rank_size(self._handle)

    def barrier(self):
        _check(_pario.group_barrier(self._handle))

    def __del__(self):
        if getattr(self, "_handle", 0) and _pario.initialized():
            _pario.group_free(self._handle)


def _group(group):
    if group is None or isinstance(group, Group):
        return group or Group()
    return Group(group)  # an mpi4py communicator


class GlobalArray:
    """An N-d array distributed over the memory of a group's processes.

    a[1:5, :] gets a section (one-sided) as a NumPy array; a[1:5, :] = x
    puts one (x broadcast to the section); a.acc(key, x, alpha) adds
    alpha*x atomically per element; a.local() is a zero-copy view of this
    rank's own patch. Create and destroy are collective."""

    def __init__(self, shape, dtype=np.float64, group=None, name="array"):
        self.group = _group(group)
        self.dtype = np.dtype(dtype)
        shape = (shape,) if isinstance(shape, int) else tuple(int(n) for n in shape)
        self._handle = 0
        self._handle = _check_collective(_pario.array_create(self.group._handle, name, _type_code(self.dtype),
                                                             list(shape)), self.dtype)
        self.shape = shape
        self.name = name

    @property
    def ndim(self):
        return len(self.shape)

    def _live(self):
        if not self._handle:
            raise StateError(_pario.ERR_STATE, f"array {self.name} is destroyed")
        return self._handle

    def _section(self, key):
        return _section(key, self.shape)

    def __getitem__(self, key):
        start, count, shape = self._section(key)
        out = np.empty(count, self.dtype)
        if out.size:
            _check(_pario.array_get(self._live(), start, count, out))
        return out.reshape(shape)

    def __setitem__(self, key, value):
        start, count, shape = self._section(key)
        data = self._data(value, count, shape)
        if data.size:
            _check(_pario.array_put(self._live(), start, count, data))

    def _data(self, value, count, shape):
        """value as a contiguous buffer of the section (broadcast to the
        shape a[key] would have)."""
        return np.ascontiguousarray(np.broadcast_to(np.asarray(value, self.dtype), shape)).reshape(count)

    def acc(self, key, value, alpha=1):
        """section += alpha * value, atomic per element."""
        start, count, shape = self._section(key)
        data = self._data(value, count, shape)
        if data.size:
            _check(_pario.array_acc(self._live(), start, count, data, np.asarray([alpha], self.dtype)))

    def distribution(self, rank=None):
        """The section `rank` (default: this one) owns, as a tuple of slices."""
        rank = self.group.rank if rank is None else rank
        start, count = _check(*_pario.array_distribution(self._live(), rank, self.ndim))
        return tuple(slice(s, s + c) for s, c in zip(start, count))

    def local(self, rank=None):
        """A NumPy view of a patch on this node (default: this rank's own);
        order its loads and stores with other ranks' by sync()."""
        rank = self.group.rank if rank is None else rank
        rc, _, view = _pario.array_access(self._live(), rank, self)
        return _check(rc, view)

    def fill(self, value):
        """Collective: every element = value."""
        _check(_pario.array_fill(self._live(), np.asarray([value], self.dtype)))

    def zero(self):
        self.fill(0)

    def scale(self, alpha):
        """Collective: every element *= alpha."""
        _check(_pario.array_scale(self._live(), np.asarray([alpha], self.dtype)))

    def sync(self):
        """Collective: every transfer before it is visible everywhere after it."""
        _check(_pario.array_sync(self._live()))

    def destroy(self):
        """Collective."""
        if self._handle:
            h, self._handle = self._handle, 0
            _check(_pario.array_destroy(h))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()

    def __repr__(self):
        return f"GlobalArray({self.name!r}, shape={self.shape}, dtype={self.dtype}, ranks={self.group.size})"


class Counter:
    """A dynamic load-balancing counter: next() hands out 0, 1, 2, ...
    across the group, each value once. Create, reset and destroy are
    collective."""

    def __init__(self, group=None):
        self.group = _group(group)
        self._handle = _check(*_pario.counter_create(self.group._handle))

    def next(self):
        return _check(*_pario.counter_next(self._handle))

    def fetch_add(self, increment, owner=None):
        """Adds increment (to rank owner's counter, default the global one)
        and returns the value before, atomically."""
        owner = _pario.COUNTER_GLOBAL if owner is None else owner
        return _check(*_pario.counter_fetch_add(self._handle, owner, increment))

    def __iter__(self):
        """Values until the caller stops (e.g. `for i in c: if i >= n: break`)."""
        while True:
            yield self.next()

    def reset(self):
        _check(_pario.counter_reset(self._handle))

    def destroy(self):
        if self._handle:
            h, self._handle = self._handle, 0
            _check(_pario.counter_destroy(h))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()
