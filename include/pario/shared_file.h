/* pario/shared_file.h: shared files (ChemIO's SF): one scratch file for
 * all ranks of a group.
 *
 * Create and destroy are collective over the group; every rank must pass
 * the same path and hints (a mismatch fails on every rank, never hangs).
 * Reads and writes are independent and byte-addressed, at any offset,
 * blocking or nonblocking (requests as in pario/request.h, mixed freely
 * with file and array requests in pario_request_waitall).
 *
 * Semantics: holes read as zeros; reading past the current end of file is
 * PARIO_ERR_OUT_OF_RANGE, and so is writing past the hard limit; a
 * nonblocking write's buffer is borrowed until its request is waited.
 * Overlapping writes from different ranks with nothing ordering them leave
 * undefined bytes; after a barrier (pario_group_barrier) every rank sees
 * every write completed before it.
 *
 * Where the bytes live is chosen at run time (PARIO_FILE_BACKEND): one
 * file at path, or stripes over the PARIO_SCRATCH directories with the
 * stripe size taken from request_size. Files are created 0600; a symbolic
 * link in the last path component is refused.
 *
 * Thread safety: as private files; create/close/destroy from one thread.
 */
#ifndef PARIO_SHARED_FILE_H
#define PARIO_SHARED_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "pario/array.h" /* pario_group_t */
#include "pario/export.h"
#include "pario/file.h" /* PARIO_MODE_* */
#include "pario/request.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pario_shared_file_s *pario_shared_file_t;

#define PARIO_SHARED_FILE_NULL ((pario_shared_file_t)0)
/* A hint whose value is not known. */
#define PARIO_SIZE_UNKNOWN ((int64_t)-1)

/* Collective over group: creates (replacing an old file of that name) and
 * opens the file on every rank. Sizes in bytes, each PARIO_SIZE_UNKNOWN or
 * >= 0: hard_limit bounds every write, soft_limit is the expected size,
 * request_size the typical request. */
PARIO_COLLECTIVE PARIO_API int pario_shared_file_create(pario_group_t group, const char *path, int64_t hard_limit,
                                       int64_t soft_limit, int64_t request_size,
                                       pario_shared_file_t *file_out);
/* Collective over group: opens an existing file (one an earlier job wrote,
 * e.g. for a restart on another number of ranks) on every rank, mode
 * PARIO_MODE_READ or PARIO_MODE_RDWR; never creates or truncates it
 * (PARIO_ERR_NOT_FOUND where it is missing). Files in Memory do not apply
 * to it; with PARIO_FILE_BACKEND=striped the stripe size must be the one
 * it was written with (PARIO_STRIPE_SIZE). */
PARIO_COLLECTIVE PARIO_API int pario_shared_file_open(pario_group_t group, const char *path, int mode,
                                                      pario_shared_file_t *file_out);
/* Collective: completes this rank's requests, closes the file on every
 * rank, and deletes it; sets *file to PARIO_SHARED_FILE_NULL. */
PARIO_COLLECTIVE PARIO_API int pario_shared_file_destroy(pario_shared_file_t *file);
/* Collective: as destroy, but the file stays on disk. */
PARIO_COLLECTIVE PARIO_API int pario_shared_file_close(pario_shared_file_t *file);

PARIO_API int pario_shared_file_read(pario_shared_file_t file, int64_t offset, void *buf,
                                     size_t bytes);
PARIO_API int pario_shared_file_write(pario_shared_file_t file, int64_t offset, const void *buf,
                                      size_t bytes);
PARIO_API int pario_shared_file_iread(pario_shared_file_t file, int64_t offset, void *buf,
                                      size_t bytes, pario_request_t *req_out);
PARIO_API int pario_shared_file_iwrite(pario_shared_file_t file, int64_t offset,
                                       const void *buf, size_t bytes, pario_request_t *req_out);
/* Local (GA's SF_Close / SF_Open / SF_Rwtor): suspend completes this
 * rank's requests and releases its descriptor; resume opens the file again
 * on this rank with mode PARIO_MODE_RDWR or PARIO_MODE_READ (closing it
 * first if it is open). Reads and writes on a suspended rank fail with
 * PARIO_ERR_STATE. */
PARIO_API int pario_shared_file_suspend(pario_shared_file_t file);
PARIO_API int pario_shared_file_resume(pario_shared_file_t file, int mode);
/* The current end of file. */
PARIO_API int pario_shared_file_length(pario_shared_file_t file, int64_t *length_out);
/* This rank's completed writes to stable storage. */
PARIO_API int pario_shared_file_sync(pario_shared_file_t file);

#ifdef __cplusplus
}
#endif

#endif /* PARIO_SHARED_FILE_H */
