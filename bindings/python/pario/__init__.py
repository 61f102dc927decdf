"""pario: parallel I/O and distributed data for scientific codes.

Private scratch files (File), one scratch file shared by all processes
(SharedFile), arrays distributed over all processes' memory (GlobalArray),
a dynamic load-balancing Counter, disk arrays (DiskArray) and collective
I/O through aggregator ranks (Decomposition), Exodus II mesh files
(ExodusFile), self-describing datasets on parallel HDF5 (Dataset) and
MFDn's wave-function file (WaveFunctionFile), over pario's C library.
Works as a single process and under ``mpiexec -n N python ...``; pass an
mpi4py communicator wherever a ``group`` is accepted.

    import numpy as np, pario
    with pario.File(pario.scratch_path("ints.0"), "w+") as f:
        f.write(0, np.arange(10.0))
        x = f.read(0, np.empty(10))

Errors raise subclasses of pario.Error carrying the C status code and
message. The library starts on first use (pario.init()) and stops at exit.
"""
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

# One private module per C header (_errors: status.h, _runtime, _requests,
# _files: file.h and shared_file.h, _arrays, _disk_array, _collective:
# collective_io.h, _exodus: exodus.h, _dataset: dataset.h, _wavefunction:
# wavefunction.h); they load the
# extension, so they come after the MPI set-up above.
from . import _pario  # noqa: E402
from ._arrays import Counter, GlobalArray, Group  # noqa: E402
from ._collective import Decomposition  # noqa: E402
from ._dataset import Dataset, Infos, SectionInfo, Segment, Variable  # noqa: E402
from ._disk_array import DiskArray, Transfer  # noqa: E402
from ._errors import (Canceled, Corrupt, Error, Exists, InternalError, InvalidArgument,  # noqa: E402
                      IOFailure, MPIError, NoMemory, NoSpace, NotFound, OutOfRange, PermissionDenied,
                      RemoteError, StateError, Unsupported)
from ._exodus import ExodusBlock, ExodusFile, ExodusInfo  # noqa: E402
from ._files import File, SharedFile, scratch_path  # noqa: E402
from ._requests import Request, wait_all  # noqa: E402
from ._runtime import abort, finalize, init, rank, size, stats, stats_table  # noqa: E402
from ._wavefunction import WaveFunctionBasis, WaveFunctionFile, WaveFunctionObservables  # noqa: E402

__version__ = _pario.version()

__all__ = ["Error", "InvalidArgument", "StateError", "NotFound", "Exists", "OutOfRange", "NoMemory", "NoSpace",
           "IOFailure", "MPIError", "Unsupported", "Corrupt", "Canceled", "RemoteError", "InternalError",
           "PermissionDenied", "init", "finalize", "abort", "rank", "size", "scratch_path", "stats_table",
           "stats", "Request", "Transfer", "wait_all", "File", "SharedFile", "Group", "GlobalArray", "Counter",
           "DiskArray", "Decomposition", "ExodusFile", "ExodusInfo", "ExodusBlock", "Dataset", "Segment",
           "Variable", "Infos", "SectionInfo", "WaveFunctionFile", "WaveFunctionBasis", "WaveFunctionObservables"]

# Tracebacks, reprs and pickles name the public place (pario.NotFound, not
# pario._errors.NotFound), as they did before the package was split.
for _name in __all__:
    globals()[_name].__module__ = __name__
del _name
