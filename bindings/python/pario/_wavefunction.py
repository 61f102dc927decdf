"""MFDn's wave-function file on parallel HDF5 (pario/wavefunction.h).

A WaveFunctionFile holds the lowest eigenvectors of a many-body
Hamiltonian (MFDn writes about 15), each a float64 vector over the
many-body basis, distributed over the ranks in contiguous slices: every
rank writes its own slice of each vector and reads back any slice, on the
same or another number of ranks. Beside the vectors the file describes
its basis (a WaveFunctionBasis), and each vector has observables (energy,
J, T) reserved when the file is made (NaN) and written later. h5py reads
the file with no pario installed (layout: docs/architecture.md, "MFDn's
wave-function file").

    basis = pario.WaveFunctionBasis(dimension=n, protons=3, neutrons=3, nmax=4,
                                    parity=+1, two_mj=0, hbar_omega=20.0)
    with pario.WaveFunctionFile.create("wf.h5", basis, 15, comm) as wf:
        wf.write(k, my_slice, start=my_first)   # every rank its own slice
    with pario.WaveFunctionFile.open("wf.h5", comm, mode="r+") as wf:
        x = wf.read(k)                          # this rank's part of an even split
        wf.set_observables(k, energy=-31.2, J=1.0, T=0.0)

create and open take, beside the transfer, the collective engine's hints
as Decomposition does (aggregators, aggregator_ranks, buffer_size, align,
convert, buffering; None: the environment's, then the defaults; the same
on every rank) for the "aggregators" transfer; they never change what is
in the file. There is no byteorder: HDF5's types carry it.

Every method is collective over the file's group (all ranks call it in
the same order; vector indices, observables, paths and modes must match)
unless its docstring says local; a failure raises on every rank together:
the rank at fault its own error, the others RemoteError. What the package
checks itself (a path os.fspath refuses, a transfer name, a hint
Decomposition refuses, a slice that is not a 1-D array of real numbers)
still makes the C call, with an argument C refuses, so no rank is left
waiting.
"""
import collections
import collections.abc
import dataclasses
import math
import numbers
import operator

import numpy as np

from . import _pario
from ._dataset import _PathHandle, _hint_args
from ._errors import InvalidArgument, _check

_TRANSFERS = {
    "default": _pario.WF_TRANSFER_DEFAULT,
    "independent": _pario.WF_TRANSFER_INDEPENDENT,
    "collective": _pario.WF_TRANSFER_COLLECTIVE,
    "aggregators": _pario.WF_TRANSFER_AGGREGATORS,
}
_TRANSFER_NAMES = {code: name for name, code in _TRANSFERS.items()}
_OPEN_MODES = {"r": _pario.MODE_READ, "r+": _pario.MODE_RDWR}
_NO_BASIS = (0, 0, 0, 0, 0, 0, 0.0)

MAX_VECTORS = _pario.WF_MAX_VECTORS
_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1


def _int64(value):
    """value as an int that the extension's int64 arguments take, or None
    (not an integer, or out of range: raising here, before the collective
    C call, would leave the other ranks waiting in it)."""
    try:
        v = operator.index(value)
    except TypeError:
        return None
    return v if _INT64_MIN <= v <= _INT64_MAX and not isinstance(value, bool) else None


def _invalid(message):
    return InvalidArgument(_pario.ERR_INVALID_ARGUMENT, message)


@dataclasses.dataclass(frozen=True)
class WaveFunctionBasis:
    """The many-body basis the vectors are expanded in (MFDn's M-scheme
    basis): dimension (basis states, every vector's length, >= 1), protons
    (Z) and neutrons (N) (>= 0, at least one nucleon), nmax (N_max >= 0),
    parity (+1 or -1), two_mj (2 M_J: odd exactly when Z + N is odd) and
    hbar_omega (MeV, finite and > 0). pario checks these rules."""
    dimension: int
    protons: int
    neutrons: int
    nmax: int
    parity: int
    two_mj: int
    hbar_omega: float

    def _tuple(self):
        """The C struct's fields, or None when one is not a number (the
        caller sends a NULL basis, which C refuses on every rank)."""
        ints = (self.dimension, self.protons, self.neutrons, self.nmax, self.parity, self.two_mj)
        if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in ints) or \
                not isinstance(self.hbar_omega, numbers.Real) or isinstance(self.hbar_omega, bool):
            return None
        if not all(_INT64_MIN <= int(v) <= _INT64_MAX for v in ints):
            return None
        try:
            hbar_omega = float(self.hbar_omega)
        except OverflowError:  # an integer beyond any float: no rank may raise before the C call
            return None
        return tuple(int(v) for v in ints) + (hbar_omega,)


WaveFunctionObservables = collections.namedtuple("WaveFunctionObservables", "energy J T written")
WaveFunctionObservables.__doc__ = """A vector's observables: energy, total angular momentum J and isospin T
(NaN where not written), and written: whether the vector was written
whole (and the file closed since)."""


def _transfer_code(transfer):
    """(PARIO_WF_TRANSFER_*, or -1 refused by C on every rank; error or None)."""
    code = _TRANSFERS.get(transfer, -1) if isinstance(transfer, str) else -1
    if code == -1:
        return -1, f"transfer {transfer!r}: expected one of {', '.join(_TRANSFERS)}"
    return code, None


class WaveFunctionFile(_PathHandle):
    """An MFDn wave-function file open on a group of ranks (an mpi4py
    communicator, a pario.Group or None for the world): made with
    create(), opened with open(), closed by close() or a with block
    (collective; vectors written whole are marked written then)."""

    _close_c = staticmethod(_pario.wavefunction_close)

    def __init__(self, *args, **kwargs):
        raise TypeError("use WaveFunctionFile.create() or WaveFunctionFile.open()")

    @staticmethod
    def supported():
        """Local: whether this build has parallel HDF5 (else every call raises Unsupported)."""
        return bool(_pario.dataset_supported())

    @classmethod
    def _new(cls, path, comm, make, error=None):
        self = cls._make(path, comm, make, error)
        self._load()
        return self

    def _load(self):
        t, self._nvectors, transfer = _check(*_pario.wavefunction_info(self._handle))
        self._basis = WaveFunctionBasis(*t)
        self._transfer = _TRANSFER_NAMES.get(transfer, str(transfer))

    @classmethod
    def create(cls, path, basis, nvectors, comm=None, *, overwrite=False, transfer="default", aggregators=None,
               aggregator_ranks=None, buffer_size=None, align=None, convert=None, buffering=None):
        """Collective: a new wave-function file of nvectors vectors (1 ..
        MAX_VECTORS) over basis (a WaveFunctionBasis, or a dict of its
        fields), open read-write, every vector's space allocated and its
        observables reserved (NaN). An existing file raises Exists, unless
        overwrite=True replaces a pario wave-function file there (any other
        file still raises Exists and is left alone). transfer: how slices
        reach the file: "default" (PARIO_WAVEFUNCTION_TRANSFER, else
        independent), "independent", "collective" or "aggregators"; it
        never changes what is in the file. aggregators, aggregator_ranks,
        buffer_size, align, convert, buffering: the collective engine's
        hints for the "aggregators" transfer, as Decomposition.blocks takes
        them."""
        error = None
        if isinstance(basis, collections.abc.Mapping):
            try:
                basis = WaveFunctionBasis(**basis)
            except TypeError as e:
                error = f"basis: {e}"
        fields = basis._tuple() if isinstance(basis, WaveFunctionBasis) else None
        if fields is None and not error:
            error = f"basis {basis!r}: expected a WaveFunctionBasis (or a dict of its fields) of integers and a float"
        if isinstance(nvectors, numbers.Integral) and not isinstance(nvectors, bool) and \
                -2**31 <= int(nvectors) < 2**31:
            n = int(nvectors)
        else:
            n, error = 0, error or f"nvectors {nvectors!r}: expected an integer"  # 0: refused by C
        code, transfer_error = _transfer_code(transfer)
        hints, hints_error = _hint_args(aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
        error = error or transfer_error or hints_error
        if hints_error:
            code = -1  # refused by C on every rank
        mode = _pario.MODE_CREATE | _pario.MODE_RDWR | (_pario.MODE_TRUNCATE if overwrite else _pario.MODE_EXCLUSIVE)
        return cls._new(path, comm, lambda g, p: _pario.wavefunction_create(
            g, p, mode, fields is not None, fields or _NO_BASIS, n, code, hints), error)

    @classmethod
    def open(cls, path, comm=None, mode="r", *, transfer="default", aggregators=None, aggregator_ranks=None,
             buffer_size=None, align=None, convert=None, buffering=None):
        """Collective: an existing wave-function file, mode "r" (read-only)
        or "r+" (to write observables or vectors). A file that is not a
        pario wave-function file or is damaged raises Corrupt, a missing
        one NotFound. The transfer and the hints as for create."""
        code = _OPEN_MODES.get(mode, 0) if isinstance(mode, str) else 0  # 0: refused by C
        error = None if code else f"mode {mode!r}: expected 'r' or 'r+'"
        transfer_code, transfer_error = _transfer_code(transfer)
        hints, hints_error = _hint_args(aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
        if hints_error:
            transfer_code = -1  # refused by C on every rank
        return cls._new(path, comm, lambda g, p: _pario.wavefunction_open(g, p, code, transfer_code, hints),
                        error or transfer_error or hints_error)

    # ---- local queries ----

    @property
    def basis(self):
        """Local: the WaveFunctionBasis."""
        return self._basis

    @property
    def dimension(self):
        """Local: every vector's length (the basis's dimension)."""
        return self._basis.dimension

    @property
    def nvectors(self):
        """Local: how many vectors the file holds."""
        return self._nvectors

    def __len__(self):
        return self._nvectors

    @property
    def transfer(self):
        """Local: the transfer in use: "independent", "collective" or "aggregators"."""
        return self._transfer

    def even_split(self):
        """Local: (start, count) of this rank's part of an even split of a
        vector over the group (the first dimension % size ranks one more):
        what write and read take when no start is given."""
        return _check(*_pario.dataset_even_split(self.dimension, self.group.size, self.group.rank))

    def observables(self, vector):
        """Local: vector's WaveFunctionObservables (energy, J, T; NaN where not written;
        written: whether the vector was written whole)."""
        rc, energy, j, t, written = _pario.wavefunction_observables(self._handle, operator.index(vector))
        _check(rc)
        return WaveFunctionObservables(energy, j, t, written)

    # ---- vectors ----

    @staticmethod
    def _vector(vector):
        """(index for C: -1 when not an integer, so C refuses it; error)."""
        try:
            k = operator.index(vector)
        except TypeError:
            return -1, f"vector {vector!r}: expected an integer"
        return (k, None) if -2**31 <= k < 2**31 else (-1, f"vector {vector}: out of range")

    def write(self, vector, values, start=None):
        """Collective: this rank's slice of vector `vector` (0-based):
        values (1-D, real numbers, converted to float64) at [start, start +
        len(values)); start default: this rank's even_split() start. The
        ranks' slices must tile the vector (every element written by exactly
        one rank; InvalidArgument naming the rank otherwise). Writing a
        vector again replaces it."""
        k, error = self._vector(vector)
        data = np.empty(0, np.float64)
        try:
            a = np.asarray(values)
        except (TypeError, ValueError):
            a = None
        if a is None or a.ndim != 1 or a.dtype.kind not in "iuf":
            shape = "?" if a is None else a.shape
            error = error or f"values of shape {shape} and dtype {getattr(a, 'dtype', '?')}: expected a 1-D array " \
                             f"of real numbers"
        else:
            data = np.ascontiguousarray(a, dtype=np.float64)
        first = self.even_split()[0] if start is None else _int64(start)
        if first is None:
            first, error = 0, error or f"start {start!r}: expected an integer of 64 bits"
        count = -1 if error else data.size  # -1: refused by C on every rank
        rc = _pario.wavefunction_write(self._handle, k, first, count, data)
        if error and rc != _pario.OK:
            raise _invalid(f"write: {error}")
        _check(rc)

    def read(self, vector, start=None, count=None, out=None):
        """Collective: this rank's slice [start, start + count) of vector
        `vector` as a float64 array (into out, a 1-D float64 array of
        count elements, when given); any slice, overlapping other ranks'
        or empty. Neither start nor count: this rank's even_split(); start
        alone: to the end. NotFound for a vector never written whole."""
        k, error = self._vector(vector)
        if start is None and count is None:
            first, n = self.even_split()
        else:
            first = 0 if start is None else _int64(start)
            n = None if first is None else self.dimension - first if count is None else _int64(count)
            if first is None or n is None or not _INT64_MIN <= n <= _INT64_MAX:
                first, n, error = 0, 0, error or f"start {start!r}, count {count!r}: expected integers of 64 bits"
        memory_error = None
        if out is None:
            try:
                buf = np.empty(max(n, 0), np.float64)
            except MemoryError as e:  # raised after the collective call, as the others fail
                buf, memory_error = np.empty(0, np.float64), e
                error = error or "no memory for the slice"
        elif isinstance(out, np.ndarray) and out.dtype == np.float64 and out.ndim == 1 and \
                out.flags.c_contiguous and out.flags.writeable and out.size == max(n, 0):
            buf = out
        else:
            buf = np.empty(0, np.float64)
            error = error or f"out: expected a writable contiguous 1-D float64 array of {n} elements"
        rc = _pario.wavefunction_read(self._handle, k, first, -1 if error else n, buf)
        if memory_error and rc != _pario.OK:
            raise memory_error
        if error and rc != _pario.OK:
            raise _invalid(f"read: {error}")
        _check(rc)
        return buf

    def set_observables(self, vector, energy=math.nan, J=math.nan, T=math.nan):
        """Collective: writes vector's observables into its reserved
        attributes (the same values on every rank; NaN for "unknown")."""
        k, error = self._vector(vector)
        try:
            e, j, t = float(energy), float(J), float(T)
        except (TypeError, ValueError):
            e, j, t = math.nan, math.nan, math.nan
            error = error or f"energy {energy!r}, J {J!r}, T {T!r}: expected real numbers"
        rc = _pario.wavefunction_set_observables(self._handle, -1 if error else k, e, j, t)
        if error and rc != _pario.OK:
            raise _invalid(f"set_observables: {error}")
        _check(rc)
