/* Disk resident arrays (ChemIO's DRA): N-d arrays on disk, moved section by
 * section to and from global arrays.
 *
 * A disk array is a Zarr v3 store: a directory with zarr.json and shard
 * files of chunks at fixed offsets (uncompressed, C order; see
 * PARIO_DISK_ARRAY_SHARD and _CODEC for one file per chunk, or zstd),
 * which the `zarr` Python package opens with no pario installed; pario
 * opens arrays zarr wrote uncompressed or with zstd, sharded or not,
 * little-endian, default "/" chunk keys. Chunks never written read
 * as zeros. Calls marked PARIO_COLLECTIVE are collective over the group,
 * and every rank passes the same arguments; the others (read_local,
 * write_local, info, get_attribute) are local. Types are the PARIO_TYPE_*
 * of global arrays.
 *
 * Independent I/O and its one rule: pario_disk_array_read_local and
 * _write_local move a section between the store and this rank's own
 * buffer, with no other rank taking part. Between two
 * pario_disk_array_sync calls, independent writes of different ranks must
 * touch disjoint chunks (pario_disk_array_info's chunk shape), or
 * disjoint shards in a store zarr-python sharded, whose shards are
 * rewritten whole: a chunk file covered in part is read, merged and
 * written back, so two ranks merging into one chunk can lose one's part.
 * (pario's own shards write just the part's bytes; the rule is the same
 * for every layout, so a program need not know which it has.) A rank
 * reads what another wrote after a sync. sync reports a broken rule
 * (PARIO_ERR_INVALID_ARGUMENT on every rank, naming the chunk and two of
 * its writers). */
#ifndef PARIO_DISK_ARRAY_H
#define PARIO_DISK_ARRAY_H

#include <stddef.h>
#include <stdint.h>

#include "pario/array.h"
#include "pario/export.h"
#include "pario/request.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pario_disk_array_s *pario_disk_array_t;
#define PARIO_DISK_ARRAY_NULL ((pario_disk_array_t)0)

/* Creates a store at path (which must not exist) of ndim (1..7) dims.
 * chunk_hint: the typical request shape, or NULL to let pario choose
 * (about 1 MiB chunks of whole rows). A hint larger than about 1 MiB is
 * cut into near-square tiles of it (its longest dimension halved until
 * a chunk is about 1 MiB). */
PARIO_COLLECTIVE PARIO_API int pario_disk_array_create(pario_group_t group, const char *path, int type, int ndim,
                                      const int64_t dims[], const int64_t chunk_hint[],
                                      pario_disk_array_t *array_out);
/* pario_disk_array_create with what to do when path exists (h5py's file
 * modes), mode one of:
 *   PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE  ("w-", "x") refuse it with
 *       PARIO_ERR_EXISTS: pario_disk_array_create;
 *   PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE   ("w") replace it, but only
 *       a disk array (a directory holding zarr.json, not reached through a
 *       symbolic link; anything else is PARIO_ERR_EXISTS), atomically: the
 *       new store is made beside it as path.pario-new-PID and swapped in
 *       (renameat2 RENAME_EXCHANGE), then the old one removed; a failure
 *       before the swap leaves the old one. Where the file system cannot
 *       exchange names, the old store is renamed aside first (the name is
 *       briefly missing; the old store is put back on failure);
 *   PARIO_MODE_CREATE                         ("a") open it read-write
 *       when its type and dims are these (chunk_hint is then unused), else
 *       PARIO_ERR_EXISTS naming the difference.
 * PARIO_MODE_RDWR may be added to any of them. Collective: rank 0 looks at
 * path and replaces it, and every rank gets the same outcome. */
PARIO_COLLECTIVE PARIO_API int pario_disk_array_create_mode(pario_group_t group, const char *path, int type,
                                                            int ndim, const int64_t dims[],
                                                            const int64_t chunk_hint[], int mode,
                                                            pario_disk_array_t *array_out);
/* Opens an existing store; mode PARIO_MODE_READ or PARIO_MODE_RDWR. */
PARIO_COLLECTIVE PARIO_API int pario_disk_array_open(pario_group_t group, const char *path, int mode,
                                    pario_disk_array_t *array_out);
PARIO_COLLECTIVE PARIO_API int pario_disk_array_close(pario_disk_array_t *array);
/* Removes a store (refuses a directory without zarr.json). */
PARIO_COLLECTIVE PARIO_API int pario_disk_array_delete(pario_group_t group, const char *path);
/* Type, rank, shape and chunk shape (arrays of PARIO_ARRAY_MAX_DIMS; the
 * outputs may be NULL). Local. */
PARIO_API int pario_disk_array_info(pario_disk_array_t array, int *type_out, int *ndim_out,
                                    int64_t dims_out[], int64_t chunks_out[]);
/* Collective: stores a string attribute `name` in the store's zarr.json
 * "attributes" (zarr-python shows it in .attrs), replacing one of that
 * name; the array must be open PARIO_MODE_RDWR. "pario" is reserved. */
PARIO_COLLECTIVE PARIO_API int pario_disk_array_set_attribute(pario_disk_array_t array, const char *name, const char *value);
/* Local: copies attribute `name` into buf like snprintf (a value that is
 * not a string comes as its JSON text). PARIO_ERR_NOT_FOUND when absent,
 * PARIO_ERR_INVALID_ARGUMENT (saying the length needed) when buf is short. */
PARIO_API int pario_disk_array_get_attribute(pario_disk_array_t array, const char *name, char *buf, size_t len);
/* disk[disk_start + i] = ga[ga_start + i] for 0 <= i < count, and the
 * reverse; the global array has the disk array's type and rank. Sections
 * need not align with chunks: partly covered chunks are merged. */
PARIO_COLLECTIVE PARIO_API int pario_disk_array_write(pario_disk_array_t array, pario_array_t ga,
                                     const int64_t ga_start[], const int64_t count[],
                                     const int64_t disk_start[]);
PARIO_COLLECTIVE PARIO_API int pario_disk_array_read(pario_disk_array_t array, pario_array_t ga,
                                    const int64_t ga_start[], const int64_t count[],
                                    const int64_t disk_start[]);

/* Local (independent): the disk section [start, start + count) into buf,
 * dense in C order (count[0] * ... * count[ndim-1] elements of the
 * array's type); chunks never written read as 0. Any rank, at any time
 * between collective calls; see the rule at the top for what another
 * rank's writes it sees. buf may be NULL for an empty section.
 * PARIO_ERR_OUT_OF_RANGE for a section outside the array. This rank's
 * file I/O of its unwaited transfers on the array finishes first. */
PARIO_API int pario_disk_array_read_local(pario_disk_array_t array, const int64_t start[], const int64_t count[],
                                          void *buf);
/* Local (independent): buf (dense, C order) into the disk section; needs
 * PARIO_MODE_RDWR (PARIO_ERR_STATE otherwise). Chunks covered in part are
 * merged. Other ranks see it after the next pario_disk_array_sync; until
 * then, other ranks' independent writes must touch other chunks (the rule
 * at the top). */
PARIO_API int pario_disk_array_write_local(pario_disk_array_t array, const int64_t start[], const int64_t count[],
                                           const void *buf);
/* Collective: every rank's independent writes before it are visible to
 * every rank after it. PARIO_ERR_INVALID_ARGUMENT on every rank when two
 * ranks wrote one chunk (one shard, see above) since the previous sync:
 * that chunk may hold either's data (checked for up to 2^20 chunks per
 * rank). */
PARIO_COLLECTIVE PARIO_API int pario_disk_array_sync(pario_disk_array_t array);
/* Collective: each rank writes its own section (its own start, count and
 * buf; a count with a zero writes nothing), then pario_disk_array_sync.
 * The sections follow the rule at the top. One rank's bad section or
 * failed write fails the call on every rank (PARIO_ERR_REMOTE on the
 * others), after the other ranks' writes. */
PARIO_COLLECTIVE PARIO_API int pario_disk_array_write_pieces(pario_disk_array_t array, const int64_t start[],
                                                             const int64_t count[], const void *buf);

/* Nonblocking transfers, with an optional axis permutation. perm[d] is
 * the global array's dimension that disk dimension d runs along (NULL:
 * the identity; {1, 0} transposes a matrix); count is in the global
 * array's order, and the disk section's extent d is count[perm[d]].
 * iwrite copies the section out of the global array before it returns (the
 * array may change at once) and writes the chunk files in the background;
 * iread reads them in the background and fills the section at the wait,
 * so leave that section alone until then. Waiting (pario_request_wait)
 * on these requests is collective: every rank of the group waits them in
 * the same order, and all get the same status. pario_request_test is
 * local: 1 once this rank's file I/O is done. Requests whose disk sections
 * share a chunk, where one of them writes, take effect in the order they
 * were started. */
PARIO_COLLECTIVE PARIO_API int pario_disk_array_iwrite(pario_disk_array_t array, pario_array_t ga,
                                      const int64_t ga_start[], const int64_t count[],
                                      const int64_t disk_start[], const int perm[],
                                      pario_request_t *req_out);
PARIO_COLLECTIVE PARIO_API int pario_disk_array_iread(pario_disk_array_t array, pario_array_t ga,
                                     const int64_t ga_start[], const int64_t count[],
                                     const int64_t disk_start[], const int perm[],
                                     pario_request_t *req_out);

/* Another library's distributed array (for example a Global Arrays
 * handle), seen through callbacks, so that disk arrays move its sections
 * too. Indices are 0-based, C order; ranks are those of the disk array's
 * group; ld as in pario_array_get. Each callback returns PARIO_OK or an
 * error code. get and put are one-sided; sync is collective and makes
 * every rank's puts visible. The struct is copied; context must stay valid
 * until the request is waited. */
typedef struct pario_array_ops {
  void *context;
  const char *name; /* for messages; may be NULL */
  int type;         /* PARIO_TYPE_* */
  int ndim;
  int64_t dims[PARIO_ARRAY_MAX_DIMS];
  /* The section rank holds (count all zero when it holds nothing). */
  int (*distribution)(void *context, int rank, int64_t start[], int64_t count[]);
  int (*get)(void *context, const int64_t start[], const int64_t count[], void *buf,
             const int64_t ld[]);
  int (*put)(void *context, const int64_t start[], const int64_t count[], const void *buf,
             const int64_t ld[]);
  int (*sync)(void *context);
  /* Optional (NULL: none): this rank's own patch (the section distribution
   * gives for it), dense in C order, valid until the request is waited, so
   * that reads land in it and blocking writes gather from it with no copy.
   * NULL in *ptr_out, or an error, means none: get and put move it all. */
  int (*access)(void *context, void **ptr_out);
} pario_array_ops_t;

PARIO_COLLECTIVE PARIO_API int pario_disk_array_iwrite_ops(pario_disk_array_t array, const pario_array_ops_t *ops,
                                          const int64_t start[], const int64_t count[],
                                          const int64_t disk_start[], const int perm[],
                                          pario_request_t *req_out);
PARIO_COLLECTIVE PARIO_API int pario_disk_array_iread_ops(pario_disk_array_t array, const pario_array_ops_t *ops,
                                         const int64_t start[], const int64_t count[],
                                         const int64_t disk_start[], const int perm[],
                                         pario_request_t *req_out);

#ifdef __cplusplus
}
#endif

#endif /* PARIO_DISK_ARRAY_H */
