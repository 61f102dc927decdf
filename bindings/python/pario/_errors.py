"""Errors (pario/status.h): one exception class per C status code."""
from . import _pario


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


def _check(rc, *outputs):
    """Raises the Error of a failed status; returns the outputs."""
    if rc != _pario.OK:
        raise _ERRORS.get(rc, Error)(rc, _pario.last_error_message())
    if not outputs:
        return None
    return outputs[0] if len(outputs) == 1 else outputs
