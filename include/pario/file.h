/* pario/file.h: private files (ChemIO's Exclusive Access Files).
 *
 * A private file is one process's byte-addressable scratch file: read and
 * write any number of bytes at any offset, no seek, blocking or
 * nonblocking. Files larger than 2 GB are ordinary (offsets are 64-bit).
 * New files are created with mode 0600 and a symbolic link in the last
 * path component is refused, never followed.
 *
 * Handles: pario_file_t and pario_request_t (pario/request.h) are opaque. A closed file's or
 * completed request's handle is recognised as stale: using it returns
 * PARIO_ERR_INVALID_ARGUMENT, never undefined behaviour.
 *
 * Thread safety: reads, writes and nonblocking requests on one file may be
 * issued from several threads at once. Closing a file while another thread
 * uses it is not allowed.
 */
#ifndef PARIO_FILE_H
#define PARIO_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "pario/export.h"
#include "pario/request.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pario_file_s *pario_file_t;

#define PARIO_FILE_NULL ((pario_file_t)0)

/* Open modes, combined with |. READ and/or WRITE is required. */
#define PARIO_MODE_READ 0x01
#define PARIO_MODE_WRITE 0x02
#define PARIO_MODE_RDWR (PARIO_MODE_READ | PARIO_MODE_WRITE)
#define PARIO_MODE_CREATE 0x04    /* create if missing (needs WRITE) */
#define PARIO_MODE_TRUNCATE 0x08  /* empty an existing file (needs WRITE) */
#define PARIO_MODE_EXCLUSIVE 0x10 /* fail with PARIO_ERR_EXISTS if present */
#define PARIO_MODE_DIRECT 0x20    /* bypass the page cache (O_DIRECT); any
                                     buffer, offset and size still work */

/* Opens (or creates) a private file. Local, blocking. *file_out is written
 * only on success. Errors: INVALID_ARGUMENT (null, bad mode), NOT_FOUND,
 * EXISTS, PERMISSION (also for a symbolic link), UNSUPPORTED (O_DIRECT
 * refused by the file system). */
PARIO_API int pario_file_open(const char *path, int mode, pario_file_t *file_out);

/* Completes the file's outstanding requests, closes it and sets *file to
 * PARIO_FILE_NULL. The requests must still be waited; they return their
 * own status. */
PARIO_API int pario_file_close(pario_file_t *file);

/* Removes a file by name. NOT_FOUND if there is none. */
PARIO_API int pario_file_delete(const char *path);

/* Blocking write of `bytes` bytes at `offset` (>= 0); extends the file as
 * needed, the gap reading as zeros. NO_SPACE names the path and the free
 * space; bytes written by earlier calls stay intact. */
PARIO_API int pario_file_write(pario_file_t file, int64_t offset, const void *buf,
                               size_t bytes);

/* Blocking read of exactly `bytes` bytes at `offset`. OUT_OF_RANGE if the
 * file ends first (buf may then hold the part that existed). */
PARIO_API int pario_file_read(pario_file_t file, int64_t offset, void *buf, size_t bytes);

/* Vectored forms: `count` buffers, in order, as one range starting at
 * `offset` (one preadv/pwritev where the backend can); otherwise as
 * pario_file_write and pario_file_read (exact: OUT_OF_RANGE if the file
 * ends first). Same layout as struct iovec. */
typedef struct pario_iovec {
  void *base;
  size_t len;
} pario_iovec_t;
PARIO_API int pario_file_writev(pario_file_t file, int64_t offset, const pario_iovec_t *iov,
                                int count);
PARIO_API int pario_file_readv(pario_file_t file, int64_t offset, const pario_iovec_t *iov,
                               int count);

/* Nonblocking forms. The buffer is borrowed until pario_request_wait (or a
 * pario_request_test that reports completion) returns. *req_out is written
 * only on success. There is no limit on outstanding requests. */
PARIO_API int pario_file_iwrite(pario_file_t file, int64_t offset, const void *buf,
                                size_t bytes, pario_request_t *req_out);
PARIO_API int pario_file_iread(pario_file_t file, int64_t offset, void *buf, size_t bytes,
                               pario_request_t *req_out);

/* Current length in bytes. */
PARIO_API int pario_file_length(pario_file_t file, int64_t *length_out);

/* Sets the length: shortens, or extends with zeros. */
PARIO_API int pario_file_truncate(pario_file_t file, int64_t length);

/* Flushes written data to stable storage. */
PARIO_API int pario_file_sync(pario_file_t file);

/* *eof_out = 1 if offset is at or past the end of the file, else 0. */
PARIO_API int pario_file_eof(pario_file_t file, int64_t offset, int *eof_out);

/* What is under a path: free space for this user, total size, preferred
 * I/O size, and the file-system type ("ext4", "xfs", "tmpfs", "zfs",
 * "overlay", ...). A path that does not exist yet describes its directory. */
typedef struct pario_fs_stat {
  int64_t available_bytes;
  int64_t total_bytes;
  int64_t block_size;
  char type[32];
} pario_fs_stat_t;
PARIO_API int pario_fs_stat(const char *path, pario_fs_stat_t *stat_out);

/* A path for a scratch file named `name` in the first PARIO_SCRATCH
 * directory, made unique per rank ("<dir>/<name>.<rank>"). Copies like
 * snprintf; PARIO_ERR_INVALID_ARGUMENT if it does not fit. */
PARIO_API int pario_scratch_path(const char *name, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* PARIO_FILE_H */
