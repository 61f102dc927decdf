"""pario: parallel I/O and distributed data for scientific codes.

Private scratch files (File), one scratch file shared by all processes
(SharedFile), arrays distributed over all processes' memory (GlobalArray)
and a dynamic load-balancing Counter, over pario's C library. Works as a
single process and under ``mpiexec -n N python ...``; pass an mpi4py
communicator wherever a ``group`` is accepted.

    import numpy as np, pario
    with pario.File(pario.scratch_path("ints.0"), "w+") as f:
        f.write(0, np.arange(10.0))
        x = f.read(0, np.empty(10))

Errors raise subclasses of pario.Error carrying the C status code and
message. The library starts on first use (pario.init()) and stops at exit.
"""
import atexit
import os

from . import _config

# mpi4py's binary wheel must load the MPI library pario was built with;
# these defaults apply only if the user has not chosen and mpi4py is not
# yet imported (see README, "Python").
os.environ.setdefault("MPI4PY_MPIABI", _config.MPI_ABI)
os.environ.setdefault("MPI4PY_LIBMPI", _config.MPI_LIBRARY)
if _config.MPI_NAME_LINK:
    import ctypes

    ctypes.CDLL(os.path.join(os.path.dirname(__file__), _config.MPI_NAME_LINK), mode=ctypes.RTLD_GLOBAL)

import numpy as np  # noqa: E402

from . import _pario  # noqa: E402

__version__ = _pario.version()

# ---------------------------------------------------------------- errors --


class Error(Exception):
    """A pario call failed: .code is the C status code, .message the detail."""

    def __init__(self, code, message):
        super().__init__(f"{message} ({_pario.status_string(code)})")
        self.code = code
        self.message = message


class InvalidArgument(Error, ValueError): pass      # noqa: E701
class StateError(Error, RuntimeError): pass         # noqa: E701
class NotFound(Error, FileNotFoundError): pass      # noqa: E701
class Exists(Error, FileExistsError): pass          # noqa: E701
class OutOfRange(Error, IndexError): pass           # noqa: E701
class NoMemory(Error, MemoryError): pass            # noqa: E701
class NoSpace(Error, OSError): pass                 # noqa: E701
class IOFailure(Error, OSError): pass               # noqa: E701
class MPIError(Error, RuntimeError): pass           # noqa: E701
class Unsupported(Error, NotImplementedError): pass  # noqa: E701
class Corrupt(Error, RuntimeError): pass            # noqa: E701
class Canceled(Error, RuntimeError): pass           # noqa: E701
class RemoteError(Error, RuntimeError): pass        # noqa: E701
class InternalError(Error, RuntimeError): pass      # noqa: E701
class PermissionDenied(Error, PermissionError): pass  # noqa: E701

# Keyed by the C constants, so neither order nor numbering is repeated
# here; a code missing from this table raises the base Error
# (tests/python/test_constants.py requires every code of the header).
_ERRORS = {
    _pario.ERR_INVALID_ARGUMENT: InvalidArgument,
    _pario.ERR_STATE: StateError,
    _pario.ERR_NOT_FOUND: NotFound,
    _pario.ERR_EXISTS: Exists,
    _pario.ERR_OUT_OF_RANGE: OutOfRange,
    _pario.ERR_NO_MEMORY: NoMemory,
    _pario.ERR_NO_SPACE: NoSpace,
    _pario.ERR_IO: IOFailure,
    _pario.ERR_MPI: MPIError,
    _pario.ERR_UNSUPPORTED: Unsupported,
    _pario.ERR_CORRUPT: Corrupt,
    _pario.ERR_CANCELED: Canceled,
    _pario.ERR_REMOTE: RemoteError,
    _pario.ERR_INTERNAL: InternalError,
    _pario.ERR_PERMISSION: PermissionDenied,
}


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


def _check(rc, *outputs):
    """Raises the Error of a failed status; returns the outputs."""
    if rc != _pario.OK:
        raise _ERRORS.get(rc, Error)(rc, _pario.last_error_message())
    if not outputs:
        return None
    return outputs[0] if len(outputs) == 1 else outputs


# ---------------------------------------------------------------- runtime --

_started = False


def init():
    """Starts pario (and MPI, unless already running, e.g. through mpi4py).
    Called by every constructor; explicit calls are optional."""
    global _started
    if not _pario.initialized():
        _check(_pario.init())
        _started = True


def finalize():
    """Stops pario: destroys what is left and writes statistics. Collective."""
    global _started
    if _pario.initialized():
        _started = False
        _check(_pario.finalize())


@atexit.register
def _finalize_at_exit():
    if _started and _pario.initialized():
        _pario.finalize()


def abort(code=1):
    """Ends every process of the job at once (MPI_Abort): for a failure one
    rank found that the others, waiting in a collective, will never see."""
    _pario.abort(code)


def rank():
    """This process's rank in the world (0 before init)."""
    return _pario.world_rank_size()[0]


def size():
    """Number of processes in the world."""
    return _pario.world_rank_size()[1]


def scratch_path(name, per_rank=True):
    """name in the first PARIO_SCRATCH directory: "<dir>/<name>.<rank>",
    or with per_rank=False "<dir>/<name>" (one path for a SharedFile)."""
    init()
    path = _check(*_pario.scratch_path(name))
    return path if per_rank else path[:path.rindex(".")]


def stats_table():
    """This process's I/O and array statistics as text (PARIO_STATS=1 enables them)."""
    return _pario.stats_table()


def stats():
    """This process's I/O and array statistics as a dict: the JSON that
    PARIO_STATS_FILE writes at finalize, taken now (per file: calls, bytes,
    time, share of random accesses, request sizes; per array: local and
    remote traffic). Empty counters unless PARIO_STATS=1 or
    PARIO_STATS_FILE is set."""
    import json
    import tempfile
    with tempfile.TemporaryDirectory(prefix="pario-stats-") as d:  # private (0700)
        path = os.path.join(d, "stats.json")
        _check(_pario.stats_write_json(path))
        with open(path) as f:
            return json.load(f)


def _bytes_view(data):
    """A flat uint8 view of any contiguous buffer (NumPy array, bytes, ...)."""
    a = np.asarray(memoryview(data)) if not isinstance(data, np.ndarray) else data
    if not a.flags.c_contiguous:
        raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT, "buffer is not C-contiguous")
    return a.reshape(-1).view(np.uint8)


class Request:
    """A pending transfer. The buffer stays borrowed (and referenced here)
    until wait() returns."""

    def __init__(self, handle, buffer):
        self._handle = handle
        self._buffer = buffer

    def wait(self):
        if self._handle:
            h, self._handle = self._handle, 0
            self._buffer = None
            _check(_pario.request_wait(h))

    def test(self):
        """True when done; then the request is waited (released, and its
        error raised if it failed)."""
        if not self._handle:
            return True
        rc, done = _pario.request_test(self._handle)
        _check(rc)
        if done:
            self.wait()
        return done

    def __del__(self):
        if getattr(self, "_handle", 0):
            _pario.request_wait(self._handle)  # never leave the buffer in use


class Transfer(Request):
    """A pending disk-array transfer. wait() is collective: every rank of
    the group waits its transfers in the same order. test() is local: True
    once this rank's file I/O is done (wait() is still needed)."""

    def test(self):
        if not self._handle:
            return True
        rc, done = _pario.request_test(self._handle)
        _check(rc)
        return done

    def __del__(self):
        if getattr(self, "_handle", 0):
            import warnings
            warnings.warn("a disk-array transfer was never waited (wait() is collective)", ResourceWarning)


def wait_all(requests):
    """Waits for every request; raises the first error after all are done."""
    first = None
    for r in requests:
        try:
            r.wait()
        except Error as e:  # keep waiting: every buffer must be released
            first = first or e
    if first:
        raise first


# ---------------------------------------------------------------- files --

# Python's open() modes as C mode bits.
_R, _W, _RW = _pario.MODE_READ, _pario.MODE_WRITE, _pario.MODE_RDWR
_CREATE, _TRUNCATE, _EXCLUSIVE = _pario.MODE_CREATE, _pario.MODE_TRUNCATE, _pario.MODE_EXCLUSIVE
_MODES = {"r": _R, "w": _W | _CREATE | _TRUNCATE, "r+": _RW, "w+": _RW | _CREATE | _TRUNCATE,
          "a+": _RW | _CREATE, "x": _W | _CREATE | _EXCLUSIVE, "x+": _RW | _CREATE | _EXCLUSIVE}


class _Transfers:
    """read/write/iread/iwrite over the _io table of a file kind."""

    def read(self, offset, out):
        """Reads at offset: into `out` (a writable buffer, returned), or
        `out` bytes as a new bytes object. Past end of file is OutOfRange."""
        if isinstance(out, int):
            buf = np.empty(out, np.uint8)
            _check(self._io["read"](self._live(), offset, buf))
            return buf.tobytes()
        _check(self._io["read"](self._live(), offset, _bytes_view(out)))
        return out

    def write(self, offset, data):
        """Writes all of data (any contiguous buffer) at offset."""
        _check(self._io["write"](self._live(), offset, _bytes_view(data)))

    def iread(self, offset, out):
        """Starts reading into out; returns a Request."""
        view = _bytes_view(out)
        return Request(_check(*self._io["iread"](self._live(), offset, view)), out)

    def iwrite(self, offset, data):
        """Starts writing data; returns a Request (data is borrowed until its wait)."""
        view = _bytes_view(data)
        return Request(_check(*self._io["iwrite"](self._live(), offset, view)), data)

    def __len__(self):
        return self.length()

    def __enter__(self):
        return self

    def _live(self):
        if not self._handle:
            raise StateError(_pario.ERR_STATE, f"{self.path}: the file is closed")
        return self._handle


class File(_Transfers):
    """A private scratch file (ChemIO's EAF): byte-addressed, no seek.

    mode: "r", "r+", "w" / "w+" (create, truncate), "a+" (create, keep),
    "x" / "x+" (create, must not exist). direct=True asks for O_DIRECT."""

    _io = {"read": _pario.file_read, "write": _pario.file_write,
           "iread": _pario.file_iread, "iwrite": _pario.file_iwrite}

    def __init__(self, path, mode="r+", direct=False):
        init()
        if mode not in _MODES:
            raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT,
                                  f"mode {mode!r}: expected one of {', '.join(_MODES)}")
        self.path = os.fspath(path)
        self._handle = 0
        bits = _MODES[mode] | (_pario.MODE_DIRECT if direct else 0)
        self._handle = _check(*_pario.file_open(self.path, bits))

    def length(self):
        return _check(*_pario.file_length(self._live()))

    def truncate(self, length):
        _check(_pario.file_truncate(self._live(), length))

    def sync(self):
        _check(_pario.file_sync(self._live()))

    def close(self):
        """Completes pending requests and closes (idempotent)."""
        if self._handle:
            h, self._handle = self._handle, 0
            _check(_pario.file_close(h))

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_handle", 0) and _pario.initialized():
            _pario.file_close(self._handle)

    @staticmethod
    def remove(path):
        """Deletes a file (and its stripes)."""
        init()
        _check(_pario.file_delete(os.fspath(path)))


# ---------------------------------------------------------------- groups --


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


def _size_hint(v):
    return _pario.SIZE_UNKNOWN if v is None else int(v)


class SharedFile(_Transfers):
    """One scratch file for all processes of a group (ChemIO's SF).

    Collective create and destroy; independent reads and writes at any
    offset. Leaving a `with` block destroys the file (it is scratch) unless
    keep=True, which only closes it."""

    _io = {"read": _pario.shared_file_read, "write": _pario.shared_file_write,
           "iread": _pario.shared_file_iread, "iwrite": _pario.shared_file_iwrite}

    def __init__(self, path, group=None, hard_limit=None, soft_limit=None, request_size=None, keep=False):
        self.group = _group(group)
        self.path = os.fspath(path)
        self.keep = keep
        self._handle = 0
        self._handle = _check(*_pario.shared_file_create(
            self.group._handle, self.path, _size_hint(hard_limit), _size_hint(soft_limit),
            _size_hint(request_size)))

    def length(self):
        return _check(*_pario.shared_file_length(self._live()))

    def sync(self):
        _check(_pario.shared_file_sync(self._live()))

    def close(self):
        """Collective: completes requests and closes, keeping the file."""
        if self._handle:
            h, self._handle = self._handle, 0
            _check(_pario.shared_file_close(h))

    def destroy(self):
        """Collective: closes and deletes the file."""
        if self._handle:
            h, self._handle = self._handle, 0
            _check(_pario.shared_file_destroy(h))

    def __exit__(self, *exc):
        self.close() if self.keep else self.destroy()


# ---------------------------------------------------------------- arrays --

# NumPy's dtypes of the C element types.
_TYPES = {np.dtype(np.float64): _pario.TYPE_DOUBLE, np.dtype(np.float32): _pario.TYPE_FLOAT,
          np.dtype(np.int32): _pario.TYPE_INT32, np.dtype(np.int64): _pario.TYPE_INT64,
          np.dtype(np.complex128): _pario.TYPE_COMPLEX_DOUBLE}


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
        """(start, count) of a basic-slicing key; integer indices keep
        their dimension out of the result shape."""
        key = key if isinstance(key, tuple) else (key,)
        if any(k is Ellipsis for k in key):
            i = key.index(Ellipsis)
            key = key[:i] + (slice(None),) * (self.ndim - len(key) + 1) + key[i + 1:]
        key = key + (slice(None),) * (self.ndim - len(key))
        if len(key) != self.ndim:
            raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT,
                                  f"{len(key)} indices for a {self.ndim}-d array")
        start, count, shape = [], [], []
        for k, n in zip(key, self.shape):
            if isinstance(k, slice):
                lo, hi, step = k.indices(n)
                if step != 1:
                    raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT, "sections take unit steps only")
                start.append(lo)
                count.append(max(0, hi - lo))
                shape.append(count[-1])
            else:
                i = int(k) + (n if int(k) < 0 else 0)
                if not 0 <= i < n:
                    raise OutOfRange(_pario.ERR_OUT_OF_RANGE,
                                     f"index {k} is out of range for a dimension of {n}")
                start.append(i)
                count.append(1)
        return start, count, tuple(shape)

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


# ------------------------------------------------------------ disk arrays --

_DTYPES = {code: dtype for dtype, code in _TYPES.items()}
# A store opens read-only or read-write (nothing else in disk_array.h).
_OPEN_MODES = {"r": _pario.MODE_READ, "r+": _pario.MODE_RDWR}


class _Attributes:
    """A disk array's string attributes (zarr.json "attributes", which
    zarr-python shows as .attrs): d.attrs["units"] = "hartree" is collective
    and needs mode "r+"; reading is local; a value that is not a string
    comes as its JSON text."""

    def __init__(self, array):
        self._array = array

    def __getitem__(self, name):
        rc, value = _pario.disk_array_get_attribute(self._array._live(), str(name))
        if rc == _pario.ERR_NOT_FOUND:
            raise KeyError(name)
        return _check(rc, value)

    def __setitem__(self, name, value):
        if not isinstance(value, str):
            raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT,
                                  f"attribute {name!r}: values are strings, got {type(value).__name__}")
        _check(_pario.disk_array_set_attribute(self._array._live(), str(name), value))

    def __contains__(self, name):
        return _pario.disk_array_get_attribute(self._array._live(), str(name))[0] == _pario.OK

    def get(self, name, default=None):
        return self[name] if name in self else default


class DiskArray:
    """An N-d array on disk (a Zarr v3 store, which the zarr package reads),
    moved section by section to and from GlobalArrays. Collective.

    DiskArray(path, shape, dtype, chunks=None) creates; DiskArray(path)
    opens (mode "r" or "r+"). d.write(ga) / d.read(ga) move a whole array;
    d.write(ga, (slice(i0, i1), slice(j0, j1)), at=(k, l)) moves the
    section ga[i0:i1, j0:j1] to the disk section starting at (k, l);
    axes=(1, 0) transposes. iwrite/iread return a Transfer to wait on."""

    def __init__(self, path, shape=None, dtype=np.float64, chunks=None, group=None, mode="r+"):
        self.group = _group(group)
        self.path = os.fspath(path)
        self._handle = 0
        if shape is not None:
            shape = (shape,) if isinstance(shape, int) else tuple(int(n) for n in shape)
            dt = np.dtype(dtype)
            self._handle = _check_collective(_pario.disk_array_create(self.group._handle, self.path,
                                                                      _type_code(dt), list(shape),
                                                                      list(chunks or [])), dt)
        else:
            if mode not in _OPEN_MODES:
                raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT, f"mode {mode!r}: expected 'r' or 'r+'")
            self._handle = _check(*_pario.disk_array_open(self.group._handle, self.path, _OPEN_MODES[mode]))
        type_code, dims, chunks = _check(*_pario.disk_array_info(self._handle))
        self.dtype, self.shape, self.chunks = _DTYPES[type_code], tuple(dims), tuple(chunks)
        self.attrs = _Attributes(self)

    def _start(self, write, ga, key, at, axes):
        start, count, _ = ga._section(key if key is not None else tuple(slice(None) for _ in ga.shape))
        if at is None:
            at = [start[a] for a in axes] if axes is not None else start
        handle = _check(*_pario.disk_array_start(write, self._handle, ga._live(), start, count, list(at),
                                                 list(axes or [])))
        return Transfer(handle, ga)  # keeps ga alive until the wait

    def iwrite(self, ga, key=None, at=None, axes=None):
        """Starts disk[at...] = ga[key] and returns a Transfer; ga may change
        as soon as this returns. axes permutes: disk dimension d runs along
        ga's dimension axes[d] ((1, 0) transposes)."""
        return self._start(True, ga, key, at, axes)

    def iread(self, ga, key=None, at=None, axes=None):
        """Starts ga[key] = disk[at...]; leave ga[key] alone until the wait."""
        return self._start(False, ga, key, at, axes)

    def write(self, ga, key=None, at=None, axes=None):
        """disk[at...] = ga[key] (default: the whole array, same place)."""
        self.iwrite(ga, key, at, axes).wait()

    def read(self, ga, key=None, at=None, axes=None):
        """ga[key] = disk[at...] (default: the whole array, same place)."""
        self.iread(ga, key, at, axes).wait()

    def _live(self):
        if not self._handle:
            raise StateError(_pario.ERR_STATE, f"{self.path}: the disk array is closed")
        return self._handle

    def close(self):
        if self._handle:
            h, self._handle = self._handle, 0
            _check(_pario.disk_array_close(h))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @staticmethod
    def remove(path, group=None):
        """Collective: deletes a store."""
        g = _group(group)
        _check(_pario.disk_array_delete(g._handle, os.fspath(path)))
