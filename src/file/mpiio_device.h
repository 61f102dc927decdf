// The MPI-IO backend: a Device whose bytes move through MPI_File_read_at /
// MPI_File_write_at, so that the MPI library's own drivers (ROMIO's or
// OMPIO's for Lustre, GPFS, DAOS, NFS...) and their hints (ROMIO_HINTS)
// serve pario's files on a parallel file system.
//
// Each process opens its own handle on MPI_COMM_SELF, for private and shared
// files alike. Every Device call is then local, as pario's file calls are:
// a shared file's sync() is one rank's, and its reads and writes are
// independent. Collective MPI-IO (write_at_all) serves collective transfers,
// which the collective layer issues; a shared file's independent calls have
// no collective to join.
//
// The file is created (0600, no symbolic link followed) and truncated by the
// POSIX layer before MPI opens it, since MPI_File_open takes no mode bits.
// O_DIRECT is not asked of MPI: direct I/O is a driver hint there.
//
// Needs MPI initialized with MPI_THREAD_SERIALIZED or more (pario asks for
// MULTIPLE): asynchronous requests run on pario's worker threads. Under
// SERIALIZED every MPI call here takes one mutex.
#pragma once

#include <memory>
#include <string>

#include "base/status.h"
#include "device/device.h"

namespace pario::file {

Result<std::unique_ptr<device::Device>> open_mpiio(const std::string& path,
                                                   const device::OpenOptions& options);

}  // namespace pario::file
