/* pario/array.h: global arrays, process groups and load-balancing counters
 * (GAMESS DDI's distributed data, Global Arrays' NGA_* calls).
 *
 * A global array is an N-d array (N <= PARIO_ARRAY_MAX_DIMS) cut into one
 * patch per rank of a group and held in the ranks' memory. Any rank reads,
 * writes or accumulates into any rectangular section one-sidedly: the owner
 * takes no part. Ranks of one node reach each other's patches by plain
 * memory copies (the patches live in node-shared memory); a section on a
 * remote node costs one MPI RMA message per node across machines, not one
 * per rank (within one machine, one per owner: see PARIO_ARRAY_WINDOW).
 *
 * Indexing is C order (row-major), zero-based. A section is given by
 * start[] and count[] (one entry per dimension). A local buffer holds the
 * section row-major; ld[] (ndim-1 entries, in elements) gives its leading
 * dimensions when it is larger than the section (GA's convention), NULL
 * means dense. Fortran's column-major, one-based view is the reverse of
 * the dimensions (see the DDI and Fortran bindings).
 *
 * Consistency: accumulate is atomic per element. A get ordered after this
 * rank's completed put/accumulate (the blocking call returned, or its
 * request was waited) sees it. Overlapping writes from different ranks
 * with nothing ordering them give undefined values. pario_array_sync is a
 * fence: afterwards every rank sees every update completed before it.
 * pario_array_lock gives a group-wide read or write lock on one array for
 * read-modify-write sequences.
 *
 * Collective calls (marked so) must be made by every rank of the group in
 * the same order; they return the same status on every rank. Destroy
 * arrays and counters before pario_finalize; it destroys those left (in
 * creation order), and their handles then report the array as closed.
 *
 * Thread safety: get/put/acc and counters from any thread; collective
 * calls from one thread per rank.
 */
#ifndef PARIO_ARRAY_H
#define PARIO_ARRAY_H

#include <stddef.h>
#include <stdint.h>

#include "pario/export.h"
#include "pario/request.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pario_group_s *pario_group_t;
typedef struct pario_array_s *pario_array_t;
typedef struct pario_counter_s *pario_counter_t;

#define PARIO_GROUP_NULL ((pario_group_t)0)
#define PARIO_ARRAY_NULL ((pario_array_t)0)
#define PARIO_COUNTER_NULL ((pario_counter_t)0)

#define PARIO_ARRAY_MAX_DIMS 7

/* Element types of global and disk arrays (values only ever appended).
 * The C type of each, and its name in a Zarr store's data_type: */
#define PARIO_TYPE_DOUBLE 1         /* double, float64 */
#define PARIO_TYPE_FLOAT 2          /* float, float32 */
#define PARIO_TYPE_INT32 3          /* int32_t, int32 */
#define PARIO_TYPE_INT64 4          /* int64_t, int64 */
#define PARIO_TYPE_COMPLEX_DOUBLE 5 /* two doubles, C99 double _Complex, complex128 */
#define PARIO_TYPE_INT8 6           /* int8_t, int8 */
#define PARIO_TYPE_UINT8 7          /* uint8_t, uint8 */
#define PARIO_TYPE_INT16 8          /* int16_t, int16 */
#define PARIO_TYPE_UINT16 9         /* uint16_t, uint16 */
#define PARIO_TYPE_UINT32 10        /* uint32_t, uint32 */
#define PARIO_TYPE_UINT64 11        /* uint64_t, uint64 */
#define PARIO_TYPE_COMPLEX_FLOAT 12 /* two floats, C99 float _Complex, complex64 */

#define PARIO_LOCK_READ 1
#define PARIO_LOCK_WRITE 2

/* The global counter of a pario_counter_t (as opposed to a rank's own). */
#define PARIO_COUNTER_GLOBAL (-1)

/* ---- groups (DDI's scopes: world, group, masters) ---- */

/* A handle on all ranks (after pario_init). Local; free it when done. */
PARIO_API int pario_group_world(pario_group_t *group_out);
/* Collective over parent: ranks passing the same color >= 0 form a group
 * (ordered by their rank in parent); color < 0 gives PARIO_GROUP_NULL.
 * DDI's masters scope is a split with color 0 on each group's rank 0. */
PARIO_COLLECTIVE PARIO_API int pario_group_split(pario_group_t parent, int color, pario_group_t *group_out);
/* Collective over an MPI communicator given by its Fortran handle
 * (MPI_Comm_c2f in C, the INTEGER in Fortran, comm.py2f() in mpi4py), so
 * this header needs no <mpi.h>: a group of the same ranks, in the same
 * order (the communicator is duplicated; the caller keeps its own). */
PARIO_COLLECTIVE PARIO_API int pario_group_from_fortran_comm(int64_t fortran_comm, pario_group_t *group_out);
/* Local: releases the handle (arrays made on the group keep it alive). */
PARIO_API int pario_group_free(pario_group_t *group);
PARIO_API int pario_group_rank(pario_group_t group, int *rank_out);
PARIO_API int pario_group_size(pario_group_t group, int *size_out);
/* This rank's node within the group, the number of nodes, the rank's
 * place on its node and the ranks on its node (DDI_NNode, DDI_SMP_NProc). */
PARIO_API int pario_group_node_info(pario_group_t group, int *node_out, int *nodes_out,
                                    int *node_rank_out, int *node_size_out);
/* Collective. */
PARIO_COLLECTIVE PARIO_API int pario_group_barrier(pario_group_t group);
/* Collective: in-place element-wise sum of count elements over the group. */
PARIO_COLLECTIVE PARIO_API int pario_group_sum(pario_group_t group, int type, void *buf, size_t count);
/* Collective: root's bytes to every rank. */
PARIO_COLLECTIVE PARIO_API int pario_group_broadcast(pario_group_t group, void *buf, size_t bytes, int root);

/* ---- arrays ---- */

/* Collective: a zeroed array with GA's regular block distribution (a
 * process grid chosen so patches are near square). name is for messages
 * and statistics (may be NULL). */
PARIO_COLLECTIVE PARIO_API int pario_array_create(pario_group_t group, const char *name, int type, int ndim,
                                 const int64_t dims[], pario_array_t *array_out);
/* Collective: user-given blocks (GA's NGA_Create_irreg): nblocks[d] blocks
 * along dimension d, whose first indices are listed in block_starts, all
 * of dimension 0's first, then dimension 1's, ... (each list starts at 0).
 * The product of nblocks may not exceed the group size. */
PARIO_COLLECTIVE PARIO_API int pario_array_create_irregular(pario_group_t group, const char *name, int type,
                                           int ndim, const int64_t dims[],
                                           const int64_t nblocks[],
                                           const int64_t block_starts[],
                                           pario_array_t *array_out);
/* Collective: DDI's column distribution: only dimension 0 is cut, one
 * contiguous block per rank, so each patch is contiguous memory.
 * first_index gives each rank's first index along dimension 0 (group-size
 * entries, nondecreasing; ranks owning nothing must come last), or NULL
 * for an even split. */
PARIO_COLLECTIVE PARIO_API int pario_array_create_columns(pario_group_t group, const char *name, int type,
                                         int ndim, const int64_t dims[],
                                         const int64_t first_index[], pario_array_t *array_out);
/* Collective: completes pending requests on the array, frees it and sets
 * *array to PARIO_ARRAY_NULL. */
PARIO_COLLECTIVE PARIO_API int pario_array_destroy(pario_array_t *array);

/* Element type, number of dimensions and extents (dims_out has room for
 * PARIO_ARRAY_MAX_DIMS entries; may be NULL). */
PARIO_API int pario_array_info(pario_array_t array, int *type_out, int *ndim_out,
                               int64_t dims_out[]);
/* The section rank owns (count all zero when it owns nothing). Local. */
PARIO_API int pario_array_distribution(pario_array_t array, int rank, int64_t start_out[],
                                       int64_t count_out[]);
/* The section held by the ranks of node (DDI_NDistrib). Local. Fails with
 * PARIO_ERR_UNSUPPORTED when their patches do not form one box (always a
 * box for the column distribution). */
PARIO_API int pario_array_node_distribution(pario_array_t array, int node,
                                            int64_t start_out[], int64_t count_out[]);
/* Direct access to the patch of rank, which must be on this rank's node:
 * its section and a pointer to its dense row-major elements. Loads and
 * stores through it are plain memory operations; order them with other
 * ranks' operations by pario_array_sync. Local. */
PARIO_API int pario_array_access(pario_array_t array, int rank, void **ptr_out,
                                 int64_t start_out[], int64_t count_out[]);

/* Blocking one-sided transfers of a section. Local (no other rank acts). */
PARIO_API int pario_array_get(pario_array_t array, const int64_t start[], const int64_t count[],
                              void *buf, const int64_t ld[]);
PARIO_API int pario_array_put(pario_array_t array, const int64_t start[], const int64_t count[],
                              const void *buf, const int64_t ld[]);
/* section += alpha * buf; alpha points to one element of the array's type
 * (NULL means 1). */
PARIO_API int pario_array_acc(pario_array_t array, const int64_t start[], const int64_t count[],
                              const void *buf, const int64_t ld[], const void *alpha);

/* Fetch-and-accumulate (DDI_GetAcc): section += buf, and buf receives the
 * values the section held just before; atomic per element with respect to
 * other accumulates. */
PARIO_API int pario_array_get_acc(pario_array_t array, const int64_t start[],
                                  const int64_t count[], void *buf, const int64_t ld[]);

/* Nonblocking forms: buf (and alpha) are borrowed until the request is
 * waited; node-local parts are already done when the call returns. */
PARIO_API int pario_array_iget(pario_array_t array, const int64_t start[], const int64_t count[],
                               void *buf, const int64_t ld[], pario_request_t *req_out);
PARIO_API int pario_array_iput(pario_array_t array, const int64_t start[], const int64_t count[],
                               const void *buf, const int64_t ld[], pario_request_t *req_out);
PARIO_API int pario_array_iacc(pario_array_t array, const int64_t start[], const int64_t count[],
                               const void *buf, const int64_t ld[], const void *alpha,
                               pario_request_t *req_out);

/* Collective whole-array operations; each ends with a fence. value and
 * alpha point to one element of the array's type. */
PARIO_COLLECTIVE PARIO_API int pario_array_fill(pario_array_t array, const void *value);
PARIO_COLLECTIVE PARIO_API int pario_array_zero(pario_array_t array);
PARIO_COLLECTIVE PARIO_API int pario_array_scale(pario_array_t array, const void *alpha);
/* dst = src: same type and shape, any distributions, same group. */
PARIO_COLLECTIVE PARIO_API int pario_array_copy(pario_array_t src, pario_array_t dst);

/* Collective fence. */
PARIO_COLLECTIVE PARIO_API int pario_array_sync(pario_array_t array);
/* Group-wide lock on the array: PARIO_LOCK_READ (shared) or
 * PARIO_LOCK_WRITE (exclusive). Not fair. Blocking, local. */
PARIO_API int pario_array_lock(pario_array_t array, int mode);
PARIO_API int pario_array_unlock(pario_array_t array);

/* ---- dynamic load-balancing counters ---- */

/* Collective: one global counter and one counter per rank, all 0. */
PARIO_COLLECTIVE PARIO_API int pario_counter_create(pario_group_t group, pario_counter_t *counter_out);
/* Collective. */
PARIO_COLLECTIVE PARIO_API int pario_counter_destroy(pario_counter_t *counter);
/* The global counter's value before adding 1 (DDI_DLBNext). Local, atomic. */
PARIO_API int pario_counter_next(pario_counter_t counter, int64_t *value_out);
/* Adds increment to the global counter (owner PARIO_COUNTER_GLOBAL) or to
 * rank owner's, returning the value before. Local, atomic. */
PARIO_API int pario_counter_fetch_add(pario_counter_t counter, int owner, int64_t increment,
                                      int64_t *old_out);
/* Collective: every counter back to 0 (DDI_DLBReset). */
PARIO_COLLECTIVE PARIO_API int pario_counter_reset(pario_counter_t counter);

#ifdef __cplusplus
}
#endif

#endif /* PARIO_ARRAY_H */
