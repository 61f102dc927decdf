"""pario.exodus: Exodus II files as a module, the way SEACAS's exodus.py
and meshio users reach for them (pario.ExodusFile is the same class).

    import pario.exodus
    with pario.exodus.open("heat.e", comm) as f:     # collective, on any number of ranks
        part = f.partition                            # this rank's elements of each block
        mesh = f.to_meshio()                          # a meshio.Mesh, for files that fit one process

open, create and append are ExodusFile.open, .create and .append.
"""
from ._exodus import ExodusBlock, ExodusFile, ExodusInfo, ExodusSeries, ExodusSet

open = ExodusFile.open  # noqa: A001  (the file's open, as h5py.File and netCDF4.Dataset spell it)
create = ExodusFile.create
append = ExodusFile.append

__all__ = ["ExodusFile", "ExodusInfo", "ExodusBlock", "ExodusSet", "ExodusSeries", "open", "create", "append"]
