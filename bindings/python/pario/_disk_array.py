"""Disk arrays as Zarr v3 stores (pario/disk_array.h)."""
import os

import numpy as np

from . import _pario
from ._arrays import _TYPES, _check_collective, _group, _type_code
from ._errors import InvalidArgument, StateError, _check
from ._requests import Request

_DTYPES = {code: dtype for dtype, code in _TYPES.items()}
# A store opens read-only or read-write (nothing else in disk_array.h).
_OPEN_MODES = {"r": _pario.MODE_READ, "r+": _pario.MODE_RDWR}


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
