/* pario/dataset.h: self-describing datasets on parallel HDF5 (PDS).
 *
 * A dataset is one HDF5 file holding
 *   - segments: topology and state segments, each with a time index
 *     (int64) and a time value (double), appended in time order and
 *     numbered by position (0, 1, ...);
 *   - variables: registered by name with an item type (a scalar, a vector
 *     of k components or an r x c tensor of words) and a word type (a
 *     PARIO_TYPE_*, the type in the file), numbered in registration order;
 *   - sections: the values of one variable in one segment (not every
 *     segment needs every variable), either
 *       rank-ordered (PDS): every rank writes a piece of any number of
 *       items, the pieces stored one after another in rank order with the
 *       per-rank counts, their sum and maximum; read back on any number of
 *       ranks by item range (an even split, a writer's piece, anything), or
 *       global-ordered: every rank passes its part of a global index space
 *       through a decomposition (pario/collective_io.h); the values land
 *       in global order through the collective I/O engine, so the file does
 *       not depend on how many ranks wrote it; read back through any
 *       decomposition on any number of ranks (or by item range);
 *   - infos: name -> typed array (any PARIO_TYPE_*) or string, attached to
 *     the dataset, a variable or a segment.
 * h5py and h5dump read every file with no pario installed; the layout is
 * in docs/architecture.md ("Datasets") and src/dataset/pds.h.
 *
 * File modes (PXI), chosen at create (pario_dataset_create_with) and read
 * back from the file at open: one file; a file per time index; or n time
 * indices per file. The path given to create and open is always the entry
 * file; in the multi-file modes the segments live in member files beside
 * it ("run.h5" -> "run.000000.h5", "run.000001.h5", ...: member k holds
 * time indices k*n .. k*n+n-1 counted in order from the first), and the
 * entry file is not written while segments are (only by create, variable
 * registration and dataset or variable infos).
 *
 * Crash safety: when the next segment is appended (a segment's end), every
 * file written since its last flush is written out, per the dataset's
 * sync policy (pario_dataset_create_options.sync or
 * pario_dataset_open_options.sync, or the environment's
 * PARIO_DATASET_SYNC=fsync|write|none; docs/architecture.md, "Datasets"):
 *   PARIO_DATASET_SYNC_FSYNC (the default): H5Fflush, HDF5's metadata
 *     written and the file fsynced: the segment's own, and an older
 *     member file a section or segment info went into since. A process
 *     killed while segment k is written leaves segments 0..k-1 readable:
 *     in the multi-file modes always (a member file left unreadable by
 *     the crash is dropped at open, and renamed aside to <member>.torn
 *     when opened read-write, so segment k can be appended again); in one file with Debian's HDF5
 *     1.10 as long as HDF5 wrote no metadata of segment k before the
 *     kill, which holds while a segment's metadata fits HDF5's metadata
 *     cache (src/dataset/pds.h says exactly what survives). After a
 *     machine's crash, segments 0..k-1 are on disk as far as fsync
 *     reaches it.
 *   PARIO_DATASET_SYNC_WRITE: the same written out without an fsync (the
 *     file closed and reopened, which HDF5 1.10 writes without a sync):
 *     the same guarantee against a killed process; none against a
 *     machine's crash before the operating system writes its cache.
 *   PARIO_DATASET_SYNC_NONE: nothing at a segment's end (nor after a
 *     registration or an info): HDF5 writes its metadata when its cache
 *     evicts it and at close. A process killed before close may leave no
 *     readable dataset (PARIO_ERR_CORRUPT at open).
 * Close writes everything out (H5Fclose) but does not fsync, whatever the
 * policy: durability against a machine crash after close is the caller's.
 * A process killed after close loses nothing.
 *
 * Memory types: a variable has a put type (what write calls take) and a
 * get type (what read calls give), both the word type until
 * pario_dataset_variable_set_types changes them (per rank, any time).
 * Values convert on the way (any PARIO_TYPE_* pair); a value that does not
 * fit (e.g. 300 into an int8 word) is PARIO_ERR_OUT_OF_RANGE, on every
 * rank, and nothing is written.
 *
 * Collectives (PARIO_COLLECTIVE) are called by every rank of the dataset's
 * group in the same order; arguments that must match (path, mode, segment,
 * variable, names, info values' type and count) are checked to match, and
 * every rank gets the same status: a bad argument or failed I/O on one
 * rank gives the others PARIO_ERR_REMOTE naming it. Metadata is written
 * and read once (HDF5's collective metadata operations: one rank reads
 * and broadcasts), never by N ranks at once. A failed call leaves what
 * was there before: a segment or section it was making is removed.
 * Queries of segments and variables are local (every rank holds the same
 * records after open).
 *
 * Builds without parallel HDF5: every function here except
 * pario_dataset_even_split returns PARIO_ERR_UNSUPPORTED (on every rank,
 * without communicating) and pario_dataset_supported() returns 0.
 *
 * Errors: PARIO_ERR_INVALID_ARGUMENT (a bad or mismatched argument, a
 * segment out of time order, an unknown segment or variable, a
 * decomposition of another type or size), PARIO_ERR_STATE (writing a
 * dataset opened read-only), PARIO_ERR_NOT_FOUND (no such file, section
 * or info), PARIO_ERR_EXISTS (exclusive create of an existing file, a
 * section written twice, a variable registered again differently),
 * PARIO_ERR_CORRUPT (a file that is not a pario dataset or is damaged:
 * everything read from the file is checked), PARIO_ERR_UNSUPPORTED (a
 * newer format version), PARIO_ERR_OUT_OF_RANGE (a value that does not
 * fit, an item range outside the section), PARIO_ERR_IO.
 *
 * Thread safety: one thread per rank calls these (Debian's parallel HDF5
 * is not thread-safe).
 */
#ifndef PARIO_DATASET_H
#define PARIO_DATASET_H

#include <stddef.h>
#include <stdint.h>

#include "pario/array.h"
#include "pario/collective_io.h"
#include "pario/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pario_dataset_s *pario_dataset_t;
#define PARIO_DATASET_NULL ((pario_dataset_t)0)

/* Segment kinds (PARIO_SEGMENT_ANY only for the find calls). */
#define PARIO_SEGMENT_ANY 0
#define PARIO_SEGMENT_TOPOLOGY 1
#define PARIO_SEGMENT_STATE 2

/* Item kinds: how many words an item has (item_dims). */
#define PARIO_ITEM_SCALAR 0 /* one word; item_dims unused (may be NULL) */
#define PARIO_ITEM_VECTOR 1 /* item_dims[0] = k components */
#define PARIO_ITEM_TENSOR 2 /* item_dims[0] x item_dims[1], row-major */

/* Section layouts. */
#define PARIO_SECTION_RANK_ORDERED 1
#define PARIO_SECTION_GLOBAL_ORDERED 2

/* Info owners. */
#define PARIO_INFO_DATASET 0  /* owner index unused */
#define PARIO_INFO_VARIABLE 1 /* owner = variable id */
#define PARIO_INFO_SEGMENT 2  /* owner = segment position */

/* An info value type beside the PARIO_TYPE_* element types: a UTF-8
 * string (count = its length in bytes, no NUL inside). */
#define PARIO_INFO_STRING 256

/* File modes (pario_dataset_create_options.file_mode). */
#define PARIO_DATASET_ONE_FILE 0       /* every segment in the entry file */
#define PARIO_DATASET_FILE_PER_STEP 1  /* a member file per time index */
#define PARIO_DATASET_STEPS_PER_FILE 2 /* steps_per_file time indices per member file */

/* Sync policies (pario_dataset_create_options.sync): what a segment's end
 * writes out (crash safety, above). A run's choice, not stored in the
 * file: pario_dataset_open takes the environment's, pario_dataset_open_with
 * its options'. */
#define PARIO_DATASET_SYNC_DEFAULT 0 /* PARIO_DATASET_SYNC=fsync|write|none from the environment, else _FSYNC */
#define PARIO_DATASET_SYNC_FSYNC 1   /* HDF5's metadata written and the files fsynced */
#define PARIO_DATASET_SYNC_WRITE 2   /* HDF5's metadata written, no fsync */
#define PARIO_DATASET_SYNC_NONE 3    /* nothing until close */

/* How pario_dataset_create_with lays a dataset out. Zero-initialised it
 * is one file (what pario_dataset_create makes) with the default sync
 * policy and the environment's collective hints.
 *
 * hints: the collective I/O engine's hints (pario/collective_io.h) for
 * the transfers the dataset makes through decompositions of its own:
 * pario_dataset_write_array and _read_array. NULL (or zero fields): the
 * environment's (PARIO_AGGREGATORS, PARIO_AGGREGATOR_BUFFER, ...), then
 * the defaults. Borrowed for the call only (the dataset keeps a copy).
 * byte_order is ignored: HDF5's types carry the byte order. They tune,
 * never change what is in the file. pario_dataset_write_decomp and
 * _read_decomp use the caller's decomposition and its hints. */
typedef struct pario_dataset_create_options {
  int file_mode;          /* a PARIO_DATASET_* file mode */
  int64_t steps_per_file; /* _STEPS_PER_FILE: n >= 1; _FILE_PER_STEP: 0 or 1; _ONE_FILE: 0 */
  int sync;               /* a PARIO_DATASET_SYNC_* policy (0: the environment's, else fsync) */
  const pario_decomp_hints *hints; /* the engine's hints (NULL: the environment's), as above */
} pario_dataset_create_options_t;

/* How pario_dataset_open_with opens a dataset (the run's choices; the
 * file mode is the file's). Zero-initialised it is what
 * pario_dataset_open does. */
typedef struct pario_dataset_open_options {
  int sync;                        /* a PARIO_DATASET_SYNC_* policy (0: the environment's, else fsync) */
  const pario_decomp_hints *hints; /* the engine's hints (NULL: the environment's), as for create */
} pario_dataset_open_options_t;

/* Local: 1 when this build has parallel HDF5 (datasets work), else 0. */
PARIO_API int pario_dataset_supported(void);

/* Creates a dataset at path, collectively over group. mode:
 *   PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE: PARIO_ERR_EXISTS if path exists;
 *   PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE: replaces a pario dataset at
 *       path (in place: it is gone once the call starts writing); any
 *       other file there is PARIO_ERR_EXISTS and is left alone.
 * PARIO_MODE_RDWR may be added. The new dataset is open read-write. */
PARIO_COLLECTIVE PARIO_API int pario_dataset_create(pario_group_t group, const char *path, int mode,
                                                    pario_dataset_t *dataset_out);
/* pario_dataset_create with a file mode, a sync policy and the
 * collective hints: options NULL or zeroed is one file. Options must be
 * the same on every rank (else PARIO_ERR_INVALID_ARGUMENT on every rank
 * naming the field, a hint included; also for a mode that is not a
 * PARIO_DATASET_* or a steps_per_file that does not fit it, and for a
 * hint pario_decomp_create_blocks refuses, with its message). Files of the
 * member name pattern ("run.000007.h5" for "run.h5") already there, which
 * an open would take for this dataset's: an exclusive multi-file create
 * fails with PARIO_ERR_EXISTS naming one (nothing made); replacing
 * (PARIO_MODE_TRUNCATE) removes them, the old dataset's included.
 * A bad PARIO_DATASET_SYNC in the environment is PARIO_ERR_INVALID_ARGUMENT
 * naming it (when options->sync is 0), as for pario_dataset_open. */
PARIO_COLLECTIVE PARIO_API int pario_dataset_create_with(pario_group_t group, const char *path, int mode,
                                                         const pario_dataset_create_options_t *options,
                                                         pario_dataset_t *dataset_out);
/* Local: the dataset's file mode, time indices per member file (0 for one
 * file) and the number of files it has now (the entry file and its
 * members). Outputs may be NULL. */
PARIO_API int pario_dataset_file_mode(pario_dataset_t dataset, int *file_mode_out, int64_t *steps_per_file_out,
                                      int64_t *files_out);
/* Local: the dataset's sync policy (a PARIO_DATASET_SYNC_* other than
 * _DEFAULT), and what it has done since it was created or opened, the same
 * on every rank: file syncs (H5Fflush, each an fsync of one file: the entry
 * file or a member) and write-backs (a file's metadata written without an
 * fsync). Outputs may be NULL. */
PARIO_API int pario_dataset_sync_counts(pario_dataset_t dataset, int *policy_out, int64_t *syncs_out,
                                        int64_t *write_backs_out);
/* Opens a dataset: mode PARIO_MODE_READ or PARIO_MODE_RDWR. The file mode
 * is read from the entry file at path; the sync policy is the
 * environment's (PARIO_DATASET_SYNC, else fsync). Its
 * segments and variables are read and checked (PARIO_ERR_CORRUPT for a
 * file that is not a pario dataset or is damaged). */
PARIO_COLLECTIVE PARIO_API int pario_dataset_open(pario_group_t group, const char *path, int mode,
                                                  pario_dataset_t *dataset_out);
/* pario_dataset_open with a sync policy and the collective hints
 * (pario_dataset_open_options_t; NULL or zeroed: what pario_dataset_open
 * does), the same on every rank, checked as for pario_dataset_create_with.
 * An open options struct rather than create's: the file mode and steps
 * per file are the file's. */
PARIO_COLLECTIVE PARIO_API int pario_dataset_open_with(pario_group_t group, const char *path, int mode,
                                                       const pario_dataset_open_options_t *options,
                                                       pario_dataset_t *dataset_out);
/* Closes it (everything written out, no fsync); sets *dataset to
 * PARIO_DATASET_NULL. Datasets still open at pario_finalize are closed
 * there, in the order they were made. */
PARIO_COLLECTIVE PARIO_API int pario_dataset_close(pario_dataset_t *dataset);

/* ---- segments ---- */

/* Appends a segment of kind PARIO_SEGMENT_TOPOLOGY or _STATE. Time
 * indices never decrease; a topology and a state segment may share one
 * (the topology first), two of one kind may not; time values never
 * decrease and are finite (else PARIO_ERR_INVALID_ARGUMENT naming the
 * segment it would follow). *segment_out (may be NULL): its position. */
PARIO_COLLECTIVE PARIO_API int pario_dataset_segment_append(pario_dataset_t dataset, int kind, int64_t time_index,
                                                            double time_value, int64_t *segment_out);
/* Local: the number of segments. */
PARIO_API int pario_dataset_segment_count(pario_dataset_t dataset, int64_t *count_out);
/* Local: segment `segment`'s kind, time index and time value (outputs may
 * be NULL). */
PARIO_API int pario_dataset_segment_info(pario_dataset_t dataset, int64_t segment, int *kind_out,
                                         int64_t *time_index_out, double *time_value_out);
/* Local: the first segment of `kind` (or PARIO_SEGMENT_ANY) with this
 * time index; PARIO_ERR_NOT_FOUND if none. */
PARIO_API int pario_dataset_segment_find_index(pario_dataset_t dataset, int kind, int64_t time_index,
                                               int64_t *segment_out);
/* Local: the last segment of `kind` (or PARIO_SEGMENT_ANY) whose time
 * value is <= time_value (the state at that time); PARIO_ERR_NOT_FOUND if
 * none. */
PARIO_API int pario_dataset_segment_find_time(pario_dataset_t dataset, int kind, double time_value,
                                              int64_t *segment_out);
/* Erases every segment after last_kept (-1: every segment), with their
 * sections and infos. Variables stay registered. In the multi-file modes
 * the member files holding only erased segments are removed; a file that
 * keeps some does not shrink (HDF5 does not give space back; h5repack
 * writes a compact copy). */
PARIO_COLLECTIVE PARIO_API int pario_dataset_truncate(pario_dataset_t dataset, int64_t last_kept);

/* ---- variables ---- */

/* Registers a variable: a name (1..255 bytes, no '/', not starting with
 * "pario_"), an item kind with its item_dims (PARIO_ITEM_*), and a word
 * type (PARIO_TYPE_*). Registering a name again with the same definition
 * gives its id; with another, PARIO_ERR_EXISTS. *variable_out: its id
 * (registration order from 0). */
PARIO_COLLECTIVE PARIO_API int pario_dataset_variable_register(pario_dataset_t dataset, const char *name,
                                                               int item_kind, const int64_t item_dims[],
                                                               int word_type, int *variable_out);
/* Local: the id of the variable called name; PARIO_ERR_NOT_FOUND if none. */
PARIO_API int pario_dataset_variable_find(pario_dataset_t dataset, const char *name, int *variable_out);
/* Local: the number of variables. */
PARIO_API int pario_dataset_variable_count(pario_dataset_t dataset, int *count_out);
/* Local: a variable's name (copied into name_buf, NUL-terminated;
 * PARIO_ERR_INVALID_ARGUMENT naming the length needed when name_len is
 * too small; name_buf may be NULL with name_len 0 to skip it), item kind,
 * item dims ({1,1}, {k,1} or {r,c}) and word type (outputs may be NULL). */
PARIO_API int pario_dataset_variable_info(pario_dataset_t dataset, int variable, char *name_buf,
                                          size_t name_len, int *item_kind_out, int64_t item_dims_out[2],
                                          int *word_type_out);
/* Local: this rank's put and get types of the variable (PARIO_TYPE_*; 0
 * for the word type), used by every later write and read call. */
PARIO_API int pario_dataset_variable_set_types(pario_dataset_t dataset, int variable, int put_type,
                                               int get_type);

/* ---- sections ---- */

typedef struct pario_dataset_section {
  int layout;           /* PARIO_SECTION_RANK_ORDERED or _GLOBAL_ORDERED */
  int writers;          /* rank-ordered: the ranks that wrote it; else 0 */
  int64_t items;        /* every item (rank-ordered: the sum of the pieces) */
  int64_t max_piece;    /* rank-ordered: the largest piece; else 0 */
  int64_t piece_start;  /* the asked writer's piece (items); else 0 */
  int64_t piece_count;
  int ndim;             /* the HDF5 dataset's shape: [items] + item dims, */
  int64_t dims[PARIO_ARRAY_MAX_DIMS]; /* or a blocks decomposition's shape */
} pario_dataset_section_t;

/* The section of `variable` in `segment` (PARIO_ERR_NOT_FOUND when that
 * segment has none), with writer `writer`'s piece in piece_start and
 * piece_count (rank-ordered and 0 <= writer < writers; writer may differ
 * between ranks). */
PARIO_COLLECTIVE PARIO_API int pario_dataset_section_info(pario_dataset_t dataset, int64_t segment, int variable,
                                                          int writer, pario_dataset_section_t *info_out);
/* Writes a rank-ordered section: this rank's piece is `items` items (any
 * number, 0 too; items x words per item values of the put type at buf).
 * Pieces are stored in rank order. PARIO_ERR_EXISTS when the segment has
 * this section. */
PARIO_COLLECTIVE PARIO_API int pario_dataset_write_ranked(pario_dataset_t dataset, int64_t segment, int variable,
                                                          int64_t items, const void *buf);
/* Reads items [start, start + items) of a section (either layout) into
 * buf as the get type; each rank its own range (may be empty). Reading
 * on another number of ranks: pario_dataset_even_split, or a writer's
 * piece from pario_dataset_section_info. */
PARIO_COLLECTIVE PARIO_API int pario_dataset_read_items(pario_dataset_t dataset, int64_t segment, int variable,
                                                        int64_t start, int64_t items, void *buf);
/* Local, pure (also without HDF5): part `part` of `parts` of `items`
 * split evenly (the first items % parts parts one item more). */
PARIO_API int pario_dataset_even_split(int64_t items, int parts, int part, int64_t *start_out, int64_t *count_out);
/* Writes a global-ordered section through a decomposition of its words
 * (items x words per item: component j of item i is word i*k + j; a
 * blocks decomposition of shape {n, k} says it directly). The
 * decomposition's file_type is the variable's word type, its byte order
 * native, its group the dataset's. buf: this rank's values of the put
 * type in the decomposition's memory order. A blocks decomposition's
 * global shape becomes the HDF5 dataset's shape when it ends with the
 * item dims (a scalar: any shape), else [items] + item dims.
 * PARIO_ERR_EXISTS when the segment has this section. */
PARIO_COLLECTIVE PARIO_API int pario_dataset_write_decomp(pario_dataset_t dataset, int64_t segment, int variable,
                                                          pario_decomp_t decomp, const void *buf);
/* Reads a section (either layout) through a decomposition of its words
 * (global size = the section's words) into buf as the get type. */
PARIO_COLLECTIVE PARIO_API int pario_dataset_read_decomp(pario_dataset_t dataset, int64_t segment, int variable,
                                                         pario_decomp_t decomp, void *buf);
/* Checkpoint: writes a global array (any distribution; its group the
 * dataset's processes) as a global-ordered section of a scalar variable,
 * the HDF5 dataset of the array's shape. The array's own type is the
 * memory type. Collective over the array's group too. The transfer takes
 * the dataset's collective hints (create or open options). */
PARIO_COLLECTIVE PARIO_API int pario_dataset_write_array(pario_dataset_t dataset, int64_t segment, int variable,
                                                         pario_array_t array);
/* Restart: reads the section into a global array of the same number of
 * elements (any shape, distribution and number of ranks; values in C
 * order), converted to the array's type; the dataset's hints as above. */
PARIO_COLLECTIVE PARIO_API int pario_dataset_read_array(pario_dataset_t dataset, int64_t segment, int variable,
                                                        pario_array_t array);

/* ---- infos ---- */

/* Sets info `name` (as variable names) of the owner (PARIO_INFO_*; owner
 * the variable id or segment position) to count values of type (a
 * PARIO_TYPE_* or PARIO_INFO_STRING: count bytes of text), replacing one
 * of that name. One writer: rank 0's values are stored (the others may
 * pass NULL); name, type and count must match on every rank. At most
 * 64 MiB. */
PARIO_COLLECTIVE PARIO_API int pario_dataset_info_put(pario_dataset_t dataset, int owner_kind, int64_t owner,
                                                      const char *name, int type, int64_t count,
                                                      const void *values);
/* Reads info `name`: *type_out (the stored type: a PARIO_TYPE_* or
 * PARIO_INFO_STRING) and *count_out (values, or bytes of a string), and
 * when values is not NULL, the values converted to `type` (a string only
 * as PARIO_INFO_STRING, without a NUL added), at most capacity of them
 * (PARIO_ERR_INVALID_ARGUMENT naming the count when fewer than count).
 * The same on every rank. PARIO_ERR_NOT_FOUND when absent. */
PARIO_COLLECTIVE PARIO_API int pario_dataset_info_get(pario_dataset_t dataset, int owner_kind, int64_t owner,
                                                      const char *name, int type, int64_t capacity, void *values,
                                                      int *type_out, int64_t *count_out);
/* The owner's infos in name order: *count_out their number, and when
 * 0 <= index < count and name_buf is not NULL, the name of info `index`
 * (NUL-terminated; PARIO_ERR_INVALID_ARGUMENT naming the length needed
 * when name_len is too small). */
PARIO_COLLECTIVE PARIO_API int pario_dataset_info_name(pario_dataset_t dataset, int owner_kind, int64_t owner,
                                                       int64_t index, char *name_buf, size_t name_len,
                                                       int64_t *count_out);

#ifdef __cplusplus
}
#endif

#endif /* PARIO_DATASET_H */
