"""Collective I/O through aggregator ranks (pario/collective_io.h).

A Decomposition says which elements of a global index space this rank
holds, in the order it holds them; it is made once (collectively) and used
for every write and read of that layout into a SharedFile. Element i of the
global space is at byte offset + i * dtype.itemsize of the file, in the
decomposition's file dtype (and byte order); the memory array may be of any
dtype pario has, converted on the way (a value that does not fit raises
OutOfRange, never wraps).

Every call here is collective over the decomposition's group and raises on
every rank together: the rank at fault gets its own error, the others
RemoteError. The package keeps that promise for what it checks itself (a
wrong array size, a dtype pario lacks) by making the C call fail on that
rank before raising, instead of raising alone and leaving the others
waiting.
"""
import numpy as np

from . import _pario
from ._arrays import _TYPES, _group
from ._disk_array import Transfer
from ._errors import InvalidArgument, _check

_ORDERS = {"C": _pario.ORDER_C, "F": _pario.ORDER_FORTRAN}
_BYTE_ORDERS = {"=": _pario.BYTE_ORDER_NATIVE, "|": _pario.BYTE_ORDER_NATIVE,
                "<": _pario.BYTE_ORDER_LITTLE, ">": _pario.BYTE_ORDER_BIG}
# Where a transfer converts (pario_decomp_hints.convert); None: the
# environment's PARIO_COLLECTIVE_CONVERT, else "auto".
_CONVERTS = {None: _pario.CONVERT_DEFAULT, "auto": _pario.CONVERT_AUTO, "sender": _pario.CONVERT_SENDER,
             "aggregator": _pario.CONVERT_AGGREGATOR}
# Whether transfers go through the aggregators (pario_decomp_hints.buffering,
# collective buffering); None: the environment's PARIO_COLLECTIVE_BUFFERING,
# else "auto".
_BUFFERINGS = {None: _pario.BUFFERING_DEFAULT, "auto": _pario.BUFFERING_AUTO, "always": _pario.BUFFERING_ALWAYS,
               "never": _pario.BUFFERING_NEVER}


def _invalid(message):
    return InvalidArgument(_pario.ERR_INVALID_ARGUMENT, message)


def _file_type(dtype, byteorder):
    """(PARIO_TYPE_*, PARIO_BYTE_ORDER_*, the file's dtype as NumPy spells it,
    or an error message). The byte order comes from byteorder or from a
    non-native dtype such as ">i4", which must not disagree."""
    dt = np.dtype(dtype)
    if byteorder not in _BYTE_ORDERS:
        return 0, 0, dt, f"byteorder {byteorder!r}: expected '=', '<' or '>'"
    native = dt.newbyteorder("=")
    code = _TYPES.get(native, 0)
    if not code:
        return 0, 0, dt, f"dtype {dt}: expected one of {', '.join(str(t) for t in _TYPES)}"
    wanted = byteorder if byteorder in "<>" else None  # explicit, or unsaid
    given = dt.byteorder if dt.byteorder in "<>" else None
    if wanted and given and wanted != given:
        return 0, 0, dt, f"dtype {dt} and byteorder {byteorder!r} disagree"
    order = wanted or given or "="
    file_dtype = native if order == "=" or dt.itemsize == 1 else native.newbyteorder(order)
    return code, _BYTE_ORDERS[order], file_dtype, None


def _choice_error(name, value, choices):
    """The message for a value of hint `name` that is not one of choices
    (a str, or None), else None."""
    if (isinstance(value, str) or value is None) and value in choices:
        return None
    return f"{name} {value!r}: expected {', '.join(repr(c) for c in choices if c is not None)} or None"


_DEFAULT_HINTS = (0, [], 0, 0, _pario.CONVERT_DEFAULT, _pario.BUFFERING_DEFAULT)


def _hint_values(aggregators, aggregator_ranks, buffer_size, align, convert, buffering):
    """The hints as pario_decomp_hints takes them (aggregators, ranks,
    buffer_size, align, convert, buffering) and None; or, for a hint this
    package refuses (a convert or buffering not listed, a count that is no
    integer), the defaults and this rank's message: the caller then makes
    the C call fail on every rank, instead of raising here alone and
    leaving the others waiting. Shared by Decomposition and ExodusFile."""
    error = _choice_error("convert", convert, _CONVERTS) or _choice_error("buffering", buffering, _BUFFERINGS)
    numbers = {}
    # The C fields' widths: a value past them would raise in the binding on
    # this rank alone.
    for name, value, bits in (("aggregators", aggregators, 31), ("buffer_size", buffer_size, 63),
                              ("align", align, 63)):
        try:
            numbers[name] = int(value or 0)
            if abs(numbers[name]) >= 1 << bits:
                raise ValueError
        except (TypeError, ValueError, OverflowError):
            error = error or f"{name} {value!r}: expected an integer or None"
    try:
        ranks = [] if aggregator_ranks is None else [int(r) for r in aggregator_ranks]
        if any(abs(r) >= 1 << 31 for r in ranks):
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        error = error or f"aggregator_ranks {aggregator_ranks!r}: expected a sequence of integers or None"
    if error:
        return _DEFAULT_HINTS, error
    if ranks and aggregators is None:
        numbers["aggregators"] = len(ranks)
    return (numbers["aggregators"], ranks, numbers["buffer_size"], numbers["align"], _CONVERTS[convert],
            _BUFFERINGS[buffering]), None


def _hints(values, byte_order):
    """pario_decomp_hints of _hint_values' values and a PARIO_BYTE_ORDER_*."""
    aggregators, ranks, buffer_size, align, convert, buffering = values
    return _pario.DecompHints(aggregators, ranks, buffer_size, align, byte_order, convert, buffering)


def _memory_type(dtype):
    """PARIO_TYPE_* of a native dtype pario has, else 0 (which C refuses)."""
    return _TYPES.get(np.dtype(dtype), 0)


class Decomposition:
    """Which elements of a global index space each rank holds (NCAR
    ParallelIO's decomposition), for collective writes and reads of a
    SharedFile through a few aggregator ranks. Make one with
    Decomposition.blocks, .indices or .keys (collective); free it with a
    `with` block or free() (collective).

    dtype is the FILE's element type; its byte order, or byteorder
    ("=", "<", ">"), is the file's. Hints: aggregators (a count, default one
    per node), aggregator_ranks (group ranks), buffer_size and align
    (bytes), convert (where a transfer converts between the memory dtype
    and the file's dtype and byte order: "sender", the rank holding the
    elements; "aggregator"; or "auto", the measured rule), buffering
    (whether transfers go through the aggregators at all, collective
    buffering: "always"; "never", every rank moving its own runs directly;
    or "auto", direct where the ranks' parts do not interleave and runs are
    long; the file's bytes are the same either way); None takes
    PARIO_AGGREGATORS, PARIO_AGGREGATOR_RANKS, PARIO_AGGREGATOR_BUFFER,
    PARIO_COLLECTIVE_CONVERT, PARIO_COLLECTIVE_BUFFERING, then the
    defaults. Like the C hints, convert and buffering must be the same on
    every rank; a value not listed, or a count that is no integer or past
    its C field (int, int64), raises
    InvalidArgument (a ValueError) there and RemoteError on the other ranks."""

    def __init__(self, *args, **kwargs):
        raise TypeError("use Decomposition.blocks(), .indices() or .keys()")

    @classmethod
    def _make(cls, group, dtype, byteorder, order, create, error=None):
        """Runs create(group handle, file type, byte order) -> (rc, handle,
        ...) and builds the object. A dtype or byteorder this package
        refuses, or an argument error found before (error), still goes into
        the collective (as file type 0), so that every rank fails together;
        this rank then raises its own message."""
        self = object.__new__(cls)
        self._handle = 0
        self.group = _group(group)
        code, byte_order, self.dtype, type_error = _file_type(dtype, byteorder)
        error = error or type_error
        result = create(self.group._handle, 0 if error else code, byte_order)
        if error and result[0] != _pario.OK:
            raise _invalid(error)
        out = _check(*result)
        self._handle = out[0] if isinstance(out, tuple) else out
        self.order = order
        self.shape = None
        self._block_shape = None
        self.global_size, self.local_count, self.aggregators, self.is_aggregator = \
            _check(*_pario.decomp_info(self._handle))
        return self

    @classmethod
    def blocks(cls, shape, starts, counts, dtype=np.float64, order="C", group=None, aggregators=None,
               aggregator_ranks=None, buffer_size=None, align=None, byteorder="=", convert=None,
               buffering=None):
        """N-d blocks of a global array of `shape`: one block as sequences
        starts, counts; several as 2-D arrays (one row per block; None or
        zero rows for none), held one after the other, each dense in
        `order` ("C": the last index fastest, "F": the first). The global
        index, and so the file, follows `order` too."""
        shape = (shape,) if np.ndim(shape) == 0 else tuple(int(n) for n in shape)
        ndim = len(shape)
        values, hints_error = _hint_values(aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
        error = None if order in _ORDERS else f"order {order!r}: expected 'C' or 'F'"
        error = error or hints_error
        if starts is None and counts is None:
            starts = counts = np.empty((0, ndim), np.int64)
        s = np.asarray(starts if starts is not None else [], np.int64)
        c = np.asarray(counts if counts is not None else [], np.int64)
        one = s.ndim <= 1  # one block (a scalar: of a 1-D shape)
        s, c = (s.reshape(1, -1), c.reshape(1, -1)) if one else (s, c)
        if error is None and (s.ndim != 2 or s.shape != c.shape or s.shape[1] != ndim):
            error = (f"starts {s.shape[1:] if s.ndim == 2 else s.shape} and counts "
                     f"{c.shape[1:] if c.ndim == 2 else c.shape}: expected {ndim} entries per block "
                     f"(one block as sequences, several as rows of 2-D arrays)")
        nblocks = 0 if error else s.shape[0]

        def create(g, code, byte_order):
            hints = _hints(values, byte_order)
            if error:  # file type 0: fails here, and on the other ranks as RemoteError
                return _pario.decomp_create_blocks(g, code, list(shape), 0, 0, [], [], hints)
            return _pario.decomp_create_blocks(g, code, list(shape), _ORDERS[order], nblocks,
                                               s.ravel().tolist(), c.ravel().tolist(), hints)

        self = cls._make(group, dtype, byteorder, order, create, error)
        self.shape = shape
        self._block_shape = tuple(int(n) for n in c[0]) if one else None
        return self

    @classmethod
    def indices(cls, global_size, indices, dtype=np.float64, group=None, aggregators=None,
                aggregator_ranks=None, buffer_size=None, align=None, byteorder="=", convert=None,
                buffering=None):
        """A global space of global_size elements; this rank holds element k
        of its arrays at flat (0-based) index indices[k], in any order."""
        idx = np.ascontiguousarray(np.asarray(indices, np.int64).ravel())
        values, error = _hint_values(aggregators, aggregator_ranks, buffer_size, align, convert, buffering)

        def create(g, code, byte_order):
            return _pario.decomp_create_indices(g, code, int(global_size), idx, _hints(values, byte_order))

        self = cls._make(group, dtype, byteorder, "C", create, error)
        return self

    @classmethod
    def keys(cls, keys, dtype=np.float64, group=None, aggregators=None, aggregator_ranks=None,
             buffer_size=None, align=None, byteorder="=", convert=None, buffering=None):
        """Elements ordered by an int64 key (a sparse global id): the global
        space is every rank's distinct keys in increasing order. Sets
        .positions (each element's dense position) and .global_size."""
        k = np.ascontiguousarray(np.asarray(keys, np.int64).ravel())
        positions = np.empty(k.size, np.int64)
        values, error = _hint_values(aggregators, aggregator_ranks, buffer_size, align, convert, buffering)

        def create(g, code, byte_order):
            return _pario.decomp_create_keys(g, code, k, positions, _hints(values, byte_order))

        self = cls._make(group, dtype, byteorder, "C", create, error)
        self.positions = positions
        return self

    # ---- transfers ----

    # A freed decomposition or closed file goes into C as handle 0, which C
    # refuses on every rank (raising here alone would leave the others
    # waiting in the collective).
    @staticmethod
    def _file_handle(file):
        return getattr(file, "_handle", 0) or 0

    def _fail(self, write, file, offset, message):
        """Takes this rank into the collective with a type C refuses (so the
        others fail with it), then raises message."""
        start = _pario.decomp_write if write else _pario.decomp_read
        start(self._handle, self._file_handle(file), int(offset), 0, np.empty(0, np.uint8), False)
        raise message if isinstance(message, MemoryError) else _invalid(message)

    def _source(self, array):
        """array's elements in this decomposition's order, native and
        contiguous (a copy only where needed), or an error message."""
        a = np.asarray(array)
        if a.size != self.local_count:
            return None, f"an array of {a.size} elements for a decomposition holding {self.local_count} here"
        if not a.dtype.isnative:
            a = a.astype(a.dtype.newbyteorder("="))
        if not _memory_type(a.dtype):
            return None, f"dtype {a.dtype}: expected one of {', '.join(str(t) for t in _TYPES)}"
        return np.ravel(a, order=self.order), None

    def _target(self, out, dtype):
        """(array returned, flat contiguous view pario fills, or None, error:
        a message, or the MemoryError of an array that could not be made,
        raised once this rank has taken the others through the call)."""
        if out is None:
            dt = self.dtype.newbyteorder("=") if dtype is None else np.dtype(dtype)
            shape = self._block_shape if getattr(self, "_block_shape", None) else (self.local_count,)
            try:
                out = np.empty(shape, dt, order=self.order)
            except MemoryError as e:
                return None, None, e
        elif not isinstance(out, np.ndarray):
            return out, None, f"out is a {type(out).__name__}, not a NumPy array"
        if out.size != self.local_count:
            return out, None, f"out has {out.size} elements, the decomposition {self.local_count} here"
        if not _memory_type(out.dtype):
            return out, None, f"out's dtype {out.dtype}: expected one of {', '.join(str(t) for t in _TYPES)}"
        if not out.flags.writeable:
            return out, None, "out is read-only"
        contiguous = out.flags.f_contiguous if self.order == "F" else out.flags.c_contiguous
        return out, (out.reshape(-1, order=self.order) if contiguous else None), None

    def _buffer(self, out, flat):
        """(the array pario fills: flat, or for a strided out a contiguous
        one copied into out afterwards; the MemoryError if it cannot be
        made, to raise once this rank has taken the others through the
        call)."""
        if flat is not None:
            return flat, None
        try:
            return np.empty(self.local_count, out.dtype), None
        except MemoryError as e:
            return None, e

    def write(self, file, array, offset=0):
        """Collective: writes this rank's elements (array: local_count
        elements of any dtype pario has, taken in the decomposition's order,
        i.e. array.ravel(order)) into the SharedFile."""
        self._start(True, file, array, offset, nonblocking=False)

    def iwrite(self, file, array, offset=0):
        """Collective, nonblocking: as write; array may change as soon as
        this returns. Returns a Transfer, whose wait() is collective."""
        return self._start(True, file, array, offset, nonblocking=True)

    def read(self, file, out=None, dtype=None, offset=0):
        """Collective: this rank's elements, into out (any array of
        local_count elements, filled in the decomposition's order) or a new
        array of dtype (default: the file's, native): of the block's shape
        for one block, else 1-D. Returns it."""
        out, flat, error = self._target(out, dtype)
        buf, error = (None, error) if error else self._buffer(out, flat)
        if error:
            self._fail(False, file, offset, error)
        _check(*_pario.decomp_read(self._handle, self._file_handle(file), int(offset), _memory_type(buf.dtype),
                                   buf, False)[:1])
        if flat is None:  # out is strided: copied into it
            out[...] = buf.reshape(out.shape, order=self.order)
        return out

    def iread(self, file, out=None, dtype=None, offset=0):
        """Collective, nonblocking: starts read(); returns a Transfer whose
        wait() (collective) returns the array. out must be contiguous in
        the decomposition's order, and untouched until the wait (the
        Transfer keeps it alive)."""
        out, flat, error = self._target(out, dtype)
        if error is None and flat is None:
            error = f"out is not {self.order}-contiguous; a nonblocking read fills it after the call returns"
        if error:
            self._fail(False, file, offset, error)
        handle = _check(*_pario.decomp_read(self._handle, self._file_handle(file), int(offset),
                                            _memory_type(flat.dtype), flat, True))
        return _ReadTransfer(handle, out)

    def _start(self, write, file, array, offset, nonblocking):
        data, error = self._source(array)
        if error:
            self._fail(write, file, offset, error)
        rc, handle = _pario.decomp_write(self._handle, self._file_handle(file), int(offset),
                                         _memory_type(data.dtype), data, nonblocking)
        _check(rc)
        return Transfer(handle, data) if nonblocking else None

    # ---- lifetime ----

    def free(self):
        """Collective: releases the decomposition (idempotent)."""
        if self._handle:
            h, self._handle = self._handle, 0
            _check(_pario.decomp_free(h))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()

    def __repr__(self):
        return (f"Decomposition(global_size={self.global_size}, local_count={self.local_count}, "
                f"dtype={self.dtype}, aggregators={self.aggregators})")


class _ReadTransfer(Transfer):
    """A pending collective read: wait() returns the array it fills."""

    def __init__(self, handle, array):
        super().__init__(handle, array)
        self.array = array

    def wait(self):
        array = self.array  # alive until the C wait has returned
        super().wait()
        return array
