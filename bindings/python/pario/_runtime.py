"""Start-up, shut-down and statistics (pario/runtime.h)."""
import atexit
import os

from . import _pario
from ._errors import _check

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
