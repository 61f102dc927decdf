"""Disk arrays as Zarr v3 stores (pario/disk_array.h)."""
import os

import numpy as np

from . import _pario
from ._arrays import _TYPES, _check_collective, _group, _section, _type_code
from ._errors import InvalidArgument, StateError, _check
from ._requests import Request

_DTYPES = {code: dtype for dtype, code in _TYPES.items()}
# h5py's modes: "r" and "r+" open (pario_disk_array_open); the others
# create (pario_disk_array_create_mode), and differ when the store exists.
_OPEN_MODES = {"r": _pario.MODE_READ, "r+": _pario.MODE_RDWR}
_CREATE_MODES = {"w": _pario.MODE_CREATE | _pario.MODE_TRUNCATE,       # replace it
                 "w-": _pario.MODE_CREATE | _pario.MODE_EXCLUSIVE,     # refuse it (Exists)
                 "x": _pario.MODE_CREATE | _pario.MODE_EXCLUSIVE,
                 "a": _pario.MODE_CREATE}                               # open it if it matches


class Transfer(Request):
    """A pending collective transfer (of a disk array or a Decomposition).
    wait() is collective: every rank of the group waits its transfers in
    the same order. test() is local and never blocks: it moves the transfer
    on and is True once this rank's part is done (a Decomposition's read:
    the data in its array); wait() is still needed."""

    def test(self):
        if not self._handle:
            return True
        rc, done = _pario.request_test(self._handle)
        _check(rc)
        return done

    def __del__(self):
        if getattr(self, "_handle", 0):
            import warnings
            warnings.warn("a collective transfer was never waited (wait() is collective)", ResourceWarning)


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
    """An N-d array on disk (a Zarr v3 store, which the zarr package reads).
    Opening and creating are collective.

    DiskArray(path, shape, dtype, chunks=None, mode="w-") creates, with
    h5py's modes for a store that exists: "w-" or "x" refuse it (Exists,
    a FileExistsError), "w" replaces it, "a" opens it when its shape and
    dtype match (else Exists). DiskArray(path, mode="r"|"r+"|"a") opens
    (default "r+"); "r" refuses writes.

    NumPy indexing is independent (local: this rank alone, any time):
    x = d[i0:i1, :] reads a section into a new NumPy array; d[i0:i1, :] = x
    writes one (x broadcast to the section; a value of another kind of
    dtype is refused). Keys take integers, slices with step 1 and Ellipsis.
    Between two d.sync() calls (collective) ranks must write disjoint
    chunks (d.chunks; shards of a zarr-python sharded store); other ranks
    read what was written after the sync. d.write_pieces(key, piece) is the
    collective form: each rank writes its own piece, then sync.

    With global arrays (collective transfers): d.write(ga) / d.read(ga)
    move a whole array; d.write(ga, (slice(i0, i1), slice(j0, j1)),
    at=(k, l)) moves the section ga[i0:i1, j0:j1] to the disk section
    starting at (k, l); axes=(1, 0) transposes. iwrite/iread return a
    Transfer to wait on."""

    def __init__(self, path, shape=None, dtype=np.float64, chunks=None, group=None, mode=None):
        self.group = _group(group)
        self.path = os.fspath(path)
        self._handle = 0
        if mode is None:
            mode = "w-" if shape is not None else "r+"  # the defaults before modes existed
        if mode not in _OPEN_MODES and mode not in _CREATE_MODES:
            raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT,
                                  f"mode {mode!r}: expected 'r', 'r+', 'w', 'w-', 'x' or 'a'")
        if shape is not None:
            shape = (shape,) if isinstance(shape, int) else tuple(int(n) for n in shape)
        if mode in _CREATE_MODES and shape is not None:
            dt = np.dtype(dtype)
            self._handle = _check_collective(_pario.disk_array_create_mode(
                self.group._handle, self.path, _type_code(dt), list(shape), list(chunks or []),
                _CREATE_MODES[mode]), dt)
        elif mode in ("w", "w-", "x"):
            raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT, f"mode {mode!r} creates: it needs a shape")
        else:
            self._handle = _check(*_pario.disk_array_open(self.group._handle, self.path,
                                                          _OPEN_MODES.get(mode, _pario.MODE_RDWR)))
        self.mode = mode
        type_code, dims, chunks = _check(*_pario.disk_array_info(self._handle))
        self.dtype, self.shape, self.chunks = _DTYPES[type_code], tuple(dims), tuple(chunks)
        self.attrs = _Attributes(self)
        if shape is not None and (self.shape, self.dtype) != (shape, np.dtype(dtype)):
            found = f"shape {self.shape} of {self.dtype}"
            self.close()
            raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT,
                                  f"{self.path}: opened with {found}, not shape {shape} of {np.dtype(dtype)}")

    @property
    def ndim(self):
        return len(self.shape)

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        return f"DiskArray({self.path!r}, shape={self.shape}, dtype={self.dtype}, chunks={self.chunks})"

    def __getitem__(self, key):
        """Local: the section as a new NumPy array (this rank alone)."""
        start, count, shape = _section(key, self.shape)
        out = np.empty(count, self.dtype)
        _check(_pario.disk_array_read_local(self._live(), start, count, out))
        return out.reshape(shape) if shape else out.reshape(())[()]  # all integers: a NumPy scalar

    def _piece(self, key, value):
        """(start, count, data): value as a dense buffer of the section key."""
        start, count, shape = _section(key, self.shape)
        value = np.asarray(value)
        if not np.can_cast(value.dtype, self.dtype, casting="same_kind"):
            raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT,
                                  f"{self.path}: a value of {value.dtype} for an array of {self.dtype}")
        try:
            data = np.broadcast_to(value, shape)
        except ValueError:
            raise InvalidArgument(_pario.ERR_INVALID_ARGUMENT,
                                  f"{self.path}: a value of shape {value.shape} for a section of shape "
                                  f"{shape}") from None
        return start, count, np.ascontiguousarray(data, self.dtype).reshape(count)

    def __setitem__(self, key, value):
        """Local: writes value (broadcast) into the section; other ranks see
        it after the next sync(), and must write other chunks until then."""
        start, count, data = self._piece(key, value)
        _check(_pario.disk_array_write_local(self._live(), start, count, data))

    def sync(self):
        """Collective: every rank's writes before it are visible to every
        rank after it. InvalidArgument on every rank when two ranks wrote
        one chunk since the last sync (the message names it)."""
        _check(_pario.disk_array_sync(self._live()))

    def write_pieces(self, key, piece):
        """Collective: each rank writes its own piece into its own section
        (key None: nothing), then sync(). One rank's bad piece fails the
        call on every rank (RemoteError on the others)."""
        handle = self._live()
        try:
            if key is None:
                start, count, data = [0] * self.ndim, [0] * self.ndim, np.empty(0, self.dtype)
            else:
                start, count, data = self._piece(key, piece)
        except Exception:
            # Into the collective anyway, so that the others fail with this
            # rank instead of waiting for it.
            _pario.disk_array_write_pieces(handle, [], [], None)
            raise
        _check(_pario.disk_array_write_pieces(handle, start, count, data))

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
