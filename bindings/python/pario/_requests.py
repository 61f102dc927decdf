"""Nonblocking operations of every kind (pario/request.h)."""
from . import _pario
from ._errors import Error, _check


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
