/* pario/collective_io.h: collective I/O through aggregator ranks (PDS's
 * PIO, NCAR ParallelIO's decompositions).
 *
 * A decomposition says which elements of a global index space each rank
 * of a group holds, in the order it holds them in memory. It is built
 * once, collectively, and reused for every write and read of that layout:
 *   - blocks: N-d sections (start, count; any number per rank) of a global
 *     shape, in C or Fortran order; the flat global index and each block's
 *     memory layout follow that order;
 *   - indices: an explicit list of flat global indices in any order (an
 *     unstructured mesh: remap by index);
 *   - keys: any int64 keys (a sparse global node id); the engine sorts all
 *     ranks' keys together and gives each distinct key its dense position,
 *     which it can return.
 * Ranks holding nothing take part with n = 0.
 *
 * A collective write sends every rank's elements to a few aggregator ranks
 * (by default one per node), which assemble large contiguous buffers of
 * the file and write them; a read takes the reverse path. On the way the
 * memory type becomes the decomposition's file type (any PARIO_TYPE_*
 * pair; a value that does not fit is an error naming the first such
 * element, never wrapped) and the file's byte order (native, little or big
 * endian). Element i of the global space is at byte offset
 * offset + i * size(file_type) of the target; elements no rank writes are
 * left untouched. Writing indices that overlap (two ranks, or one rank
 * twice) is an error; reading them is allowed (each holder gets a copy).
 *
 * Hints (pario_decomp_hints; zero fields take the environment, then the
 * defaults): aggregators (PARIO_AGGREGATORS, default one per node, never
 * more than the ranks), which ranks (PARIO_AGGREGATOR_RANKS, a comma list
 * of group ranks), the aggregator buffer (PARIO_AGGREGATOR_BUFFER, default
 * 16 MiB), the alignment of file domains (a stripe size; default the
 * buffer size; in whole elements, counted from a transfer's offset, so
 * domains start on stripes of the file where the offset itself is a
 * multiple of the alignment: place a dataset or variable that way), the
 * file byte order, and where the conversion happens
 * (PARIO_COLLECTIVE_CONVERT=sender|aggregator|auto: on the rank holding
 * the elements or on the aggregator; auto as measured), and whether
 * transfers go through the aggregators at all
 * (PARIO_COLLECTIVE_BUFFERING=auto|always|never, ROMIO's cb_write and
 * cb_read: never, every rank writes and reads its own runs of the file
 * directly, with no exchange; auto, the default, does that where the
 * ranks' parts of the file do not interleave and their runs are long,
 * decided once when the decomposition is made). Hints are given per
 * decomposition, as ParallelIO gives them per I/O system: its plan (who
 * sends what to whom) is made from them once; for other hints on the
 * same layout, make a second decomposition (the datasets' and Exodus
 * calls take them per file).
 *
 * Every call marked PARIO_COLLECTIVE is made by every rank of the
 * decomposition's group with the same shared arguments (global shape,
 * file type, hints, target, offset) and returns the same status on every
 * rank: a bad argument or failed I/O on one rank gives the others
 * PARIO_ERR_REMOTE naming it. The requests of iwrite/iread are waited
 * collectively (pario_request_wait on every rank, in the same order).
 *
 * Memory: an aggregator holds at most 3 buffers beyond the caller's data;
 * any rank holds a copy of its own elements (converted) during a
 * transfer (none for a read or a blocking write whose elements are in
 * file order and type). See docs/scaling.md for messages and bytes per rank.
 */
#ifndef PARIO_COLLECTIVE_IO_H
#define PARIO_COLLECTIVE_IO_H

#include <stddef.h>
#include <stdint.h>

#include "pario/array.h"
#include "pario/export.h"
#include "pario/request.h"
#include "pario/shared_file.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pario_decomp_s *pario_decomp_t;
#define PARIO_DECOMP_NULL ((pario_decomp_t)0)

/* Index orders of blocks. */
#define PARIO_ORDER_C 0       /* row-major: the last dimension fastest */
#define PARIO_ORDER_FORTRAN 1 /* column-major: the first dimension fastest */

/* File byte orders. */
#define PARIO_BYTE_ORDER_NATIVE 0
#define PARIO_BYTE_ORDER_LITTLE 1
#define PARIO_BYTE_ORDER_BIG 2

/* Where a transfer converts between the memory type and the file's type
 * and byte order (pario_decomp_hints.convert). The file's bytes are the
 * same either way; only the work and the message sizes move. */
#define PARIO_CONVERT_DEFAULT 0    /* PARIO_COLLECTIVE_CONVERT, else AUTO */
#define PARIO_CONVERT_AUTO 1       /* the measured rule (docs/architecture.md) */
#define PARIO_CONVERT_SENDER 2     /* the rank that holds the elements */
#define PARIO_CONVERT_AGGREGATOR 3 /* the aggregator */

/* Whether transfers go through the aggregators (pario_decomp_hints.buffering):
 * collective buffering, ROMIO's cb_write/cb_read. Either way the file gets
 * the same bytes and every call agrees on one status. */
#define PARIO_BUFFERING_DEFAULT 0 /* PARIO_COLLECTIVE_BUFFERING, else AUTO */
#define PARIO_BUFFERING_AUTO 1    /* direct where the ranks' parts do not interleave and runs are long */
#define PARIO_BUFFERING_ALWAYS 2  /* every transfer through the aggregators (two phases) */
#define PARIO_BUFFERING_NEVER 3   /* every rank moves its own runs directly */

typedef struct pario_decomp_hints {
  int aggregators;              /* 0: PARIO_AGGREGATORS, else one per node */
  const int *aggregator_ranks;  /* NULL, or `aggregators` distinct group ranks */
  int64_t buffer_size;          /* bytes; 0: PARIO_AGGREGATOR_BUFFER, else 16 MiB */
  int64_t align;                /* bytes; 0: the buffer size */
  int byte_order;               /* PARIO_BYTE_ORDER_* */
  int convert;                  /* PARIO_CONVERT_*; 0: PARIO_COLLECTIVE_CONVERT, else auto */
  int buffering;                /* PARIO_BUFFERING_*; 0: PARIO_COLLECTIVE_BUFFERING, else auto */
} pario_decomp_hints;

/* Local: every field zero (the defaults). */
PARIO_API void pario_decomp_hints_init(pario_decomp_hints *hints);

/* Blocks: ndim (1..PARIO_ARRAY_MAX_DIMS) global dims; this rank holds
 * nblocks blocks, block b at starts[b*ndim .. b*ndim+ndim-1] with counts
 * likewise, in the index order `order`, stored in memory one after the
 * other, each dense in that order. hints may be NULL. */
PARIO_COLLECTIVE PARIO_API int pario_decomp_create_blocks(pario_group_t group, int file_type, int ndim,
                                                          const int64_t dims[], int order, int nblocks,
                                                          const int64_t starts[], const int64_t counts[],
                                                          const pario_decomp_hints *hints,
                                                          pario_decomp_t *decomp_out);
/* Indices: a global space of global_size elements; this rank holds n
 * elements, element k at flat index indices[k] (0-based). */
PARIO_COLLECTIVE PARIO_API int pario_decomp_create_indices(pario_group_t group, int file_type,
                                                           int64_t global_size, int64_t n,
                                                           const int64_t indices[],
                                                           const pario_decomp_hints *hints,
                                                           pario_decomp_t *decomp_out);
/* Keys: this rank holds n elements with keys[k]; the global space is the
 * distinct keys of all ranks in increasing order. positions_out (NULL, or
 * n entries) gets each element's dense position; *global_size_out (may be
 * NULL) the number of distinct keys. */
PARIO_COLLECTIVE PARIO_API int pario_decomp_create_keys(pario_group_t group, int file_type, int64_t n,
                                                        const int64_t keys[],
                                                        const pario_decomp_hints *hints,
                                                        int64_t positions_out[], int64_t *global_size_out,
                                                        pario_decomp_t *decomp_out);
/* Collective: frees it and sets *decomp to PARIO_DECOMP_NULL; wait its
 * transfers' requests first. */
PARIO_COLLECTIVE PARIO_API int pario_decomp_free(pario_decomp_t *decomp);
/* Local: the global size, this rank's element count, the number of
 * aggregators and whether this rank is one (outputs may be NULL). */
PARIO_API int pario_decomp_info(pario_decomp_t decomp, int64_t *global_size_out, int64_t *local_count_out,
                                int *aggregators_out, int *is_aggregator_out);

/* Writes this rank's elements (buf: local_count elements of mem_type, in
 * the decomposition's memory order) into the shared file, element i at
 * byte offset + i * size(file_type). */
PARIO_COLLECTIVE PARIO_API int pario_decomp_write(pario_decomp_t decomp, pario_shared_file_t file,
                                                  int64_t offset, int mem_type, const void *buf);
/* Reads them back into buf; elements beyond the end of the file read as 0. */
PARIO_COLLECTIVE PARIO_API int pario_decomp_read(pario_decomp_t decomp, pario_shared_file_t file,
                                                 int64_t offset, int mem_type, void *buf);
/* Nonblocking: the exchange may finish inside the call; the file I/O goes
 * on until the request is waited (collectively). iwrite has copied buf
 * when it returns; iread fills buf by the wait. pario_request_test (local,
 * never blocks) moves either on as far as it can and reports done once
 * this rank's part is complete: an iread's data in buf, an iwrite's file
 * I/O finished. The wait, on every rank, still gives the agreed status. */
PARIO_COLLECTIVE PARIO_API int pario_decomp_iwrite(pario_decomp_t decomp, pario_shared_file_t file,
                                                   int64_t offset, int mem_type, const void *buf,
                                                   pario_request_t *request_out);
PARIO_COLLECTIVE PARIO_API int pario_decomp_iread(pario_decomp_t decomp, pario_shared_file_t file,
                                                  int64_t offset, int mem_type, void *buf,
                                                  pario_request_t *request_out);

#ifdef __cplusplus
}
#endif

#endif /* PARIO_COLLECTIVE_IO_H */
