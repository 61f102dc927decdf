"""Private files (pario/file.h) and shared files (pario/shared_file.h)."""
import os

import numpy as np

from . import _pario
from ._arrays import _group
from ._errors import InvalidArgument, StateError, _check
from ._requests import Request
from ._runtime import init

# Python's open() modes as C mode bits.
_R, _W, _RW = _pario.MODE_READ, _pario.MODE_WRITE, _pario.MODE_RDWR
_CREATE, _TRUNCATE, _EXCLUSIVE = _pario.MODE_CREATE, _pario.MODE_TRUNCATE, _pario.MODE_EXCLUSIVE
_MODES = {"r": _R, "w": _W | _CREATE | _TRUNCATE, "r+": _RW, "w+": _RW | _CREATE | _TRUNCATE,
          "a+": _RW | _CREATE, "x": _W | _CREATE | _EXCLUSIVE, "x+": _RW | _CREATE | _EXCLUSIVE}


def scratch_path(name, per_rank=True):
    """name in the first PARIO_SCRATCH directory: "<dir>/<name>.<rank>",
    or with per_rank=False "<dir>/<name>" (one path for a SharedFile)."""
    init()
    path = _check(*_pario.scratch_path(name))
    return path if per_rank else path[:path.rindex(".")]


def _bytes_view(data):
    """A flat uint8 view of any contiguous buffer (NumPy array, bytes, ...)."""
    a = np.asarray(memoryview(data)) if not isinstance(data, np.ndarray) else data
    if not a.flags.c_contiguous:
        raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT, "buffer is not C-contiguous")
    return a.reshape(-1).view(np.uint8)


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

    @classmethod
    def open(cls, path, group=None, mode="r"):
        """Collective: an existing shared file (one an earlier job wrote,
        e.g. to restart on another number of ranks), mode "r" or "r+";
        never created or truncated (NotFound where it is missing). Leaving
        a `with` block closes it and keeps the file (keep=True)."""
        modes = {"r": _R, "r+": _RW}
        self = cls.__new__(cls)
        self.group = _group(group)
        self.path = os.fspath(path)
        self.keep = True
        self._handle = 0
        # A bad mode still goes into the collective (as 0, which C refuses),
        # so that every rank fails together.
        rc, handle = _pario.shared_file_open(self.group._handle, self.path, modes.get(mode, 0))
        if mode not in modes and rc != _pario.OK:
            raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT, f"mode {mode!r}: expected 'r' or 'r+'")
        self._handle = _check(rc, handle)
        return self

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
