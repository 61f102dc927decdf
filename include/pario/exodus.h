/* pario/exodus.h: one Exodus II file written by all ranks at once (PXI).
 *
 * The file is a standard netCDF classic container (64-bit offset, CDF-5
 * where a variable outgrows it) with the names of libexodusii 6.02 /
 * SEACAS: Debian's libexodusii, netCDF-C, netCDF4-python, meshio and
 * ParaView read it with no pario installed.
 *
 * Every rank passes only what it holds: the nodes its elements use (global
 * ids and coordinates), its elements of each block (global ids and
 * connectivity by global node id), its part of each set, and per step its
 * nodal and element values. No rank ever holds the whole mesh or a whole
 * step. pario puts nodes in increasing global id and elements in
 * increasing global id within their block (blocks in definition order), so
 * the file's values do not depend on the number of ranks that wrote it;
 * node_num_map and elem_num_map hold the global ids. A node several ranks
 * pass is written once, by the lowest rank holding it: its coordinates
 * must be the same on every rank passing it (compared exactly, converted
 * to double; PARIO_ERR_INVALID_ARGUMENT on every rank naming the node id
 * and two of the ranks otherwise); its nodal values are the lowest rank's
 * (the others' are not read).
 * Connectivity and sets are translated from global ids to file positions
 * by a distributed lookup. A rank may hold nothing at all (n = 0).
 *
 * Order of calls (each PARIO_COLLECTIVE: every rank of the group, the same
 * definitions on every rank, the same status returned everywhere):
 *   pario_exodus_create
 *   definitions: pario_exodus_init (first), then any of
 *     pario_exodus_define_block, _define_node_set, _define_side_set,
 *     _put_coord_names, _put_qa, _put_info, _define_variables,
 *     _put_truth_table
 *   pario_exodus_end_define (or implicitly: the first data call)
 *   mesh: pario_exodus_put_nodes, then _put_block (each block once),
 *     _put_attributes, _put_node_set, _put_side_set
 *   per step: pario_exodus_put_time (step 1, 2, ...), then
 *     _put_global_values, _put_nodal_values, _put_element_values;
 *     pario_exodus_flush, the next put_time or close ends the step
 *   pario_exodus_close
 * A definition after the definition has ended, or data before their
 * prerequisites (nodes before blocks, a step's time before its values) is
 * PARIO_ERR_STATE. Arguments that must be equal on every rank (everything
 * but the rank's own part: n, ids, coordinates, values) and differ give
 * PARIO_ERR_INVALID_ARGUMENT everywhere.
 *
 * Crash safety: the step count readers see (netCDF's numrecs) is raised
 * only after every rank's data of the step and its time value are written
 * and synced. PARIO_EXODUS_SYNC says when: "step" (the default) waits
 * for the sync before counting each step, so a writer killed during step
 * k leaves steps 1..k-1 readable; "overlap" starts step k's sync when step
 * k ends and counts step k when step k+1 ends (or at pario_exodus_flush or
 * close), so the writer does not wait for the disk each step, but a writer
 * killed during step k leaves only 1..k-2; "none" (or
 * options.no_step_sync) counts each step when it ends and syncs only at
 * close (1..k-1 readable after a killed process, but a machine crash may
 * lose counted steps). pario_exodus_flush counts every ended step, synced.
 *
 * File modes (PXI): one file for the whole run (the default); or, with
 * options.steps_per_file = n > 0, a series: steps 1..n in the file at
 * path, each next n steps in a new file path-s0002, path-s0003, ... (the
 * names SEACAS/IOSS give a series and ParaView groups), each a whole
 * Exodus file: the same header and mesh, its own steps from 1 (times as
 * given). pario_exodus_put_time takes the run's step number throughout.
 * Creating a series removes files path-s0002, ... of an earlier series at
 * path (a restart would take them for this run's).
 *
 * Restart: pario_exodus_open_append opens an existing file (pario's or
 * another writer's) on any number of ranks to add steps after the last
 * one the header counts (numrecs); each rank names its nodes and elements
 * by global id (pario_exodus_attach_nodes, _attach_block), then the steps
 * go as above. A step a killed writer left half-written is overwritten.
 * With options.steps_per_file = n, path is the first file of a series:
 * the run goes on in its last file, then in new files every n steps, as
 * the run that wrote it would have (pario_exodus_get_series tells the
 * next step).
 *
 * Reading by a caller's partition: the *_by_id reads take each rank's
 * global node or element ids (as the file's id maps hold them) instead of
 * a range of positions; any number of ranks, any decomposition.
 *
 * Nemesis (options.nemesis = 1, new files only): the file also records
 * the writing ranks' partition, rank r as processor r, as SEACAS's
 * nem_slice records an elemental decomposition in one file ("s" type, P
 * processors): the global parameters and, per processor, internal and
 * border nodes (no external ones), internal and border elements, one
 * nodal communication map (id 1: (node, processor) pairs) and one
 * elemental one (id 1: (element, side, processor)); nodes and elements as
 * 1-based file positions. libexodusii's ex_get_init_info,
 * ex_get_init_global, ex_get_loadbal_param, ex_get_processor_node_maps,
 * ex_get_processor_elem_maps, ex_get_cmap_params, ex_get_node_cmap and
 * ex_get_elem_cmap read it, and so do pario_exodus_get_loadbal,
 * _get_node_maps, _get_elem_maps, _get_cmap_params, _get_node_cmap and
 * _get_elem_cmap (also for nem_slice's and libexodusii's files). It is
 * computed and written when the nodes
 * and every block are put; pario_exodus_put_time or _flush before that
 * is PARIO_ERR_STATE (close then closes the file without Nemesis
 * information and returns PARIO_ERR_STATE).
 *
 * Integers in the file are 32-bit (int64_status 0) by default: ids and
 * counts must be below 2^31. options.int64 = 1 stores ids, maps,
 * connectivity and set entries as 64-bit integers, as libexodusii's
 * EX_ALL_INT64_DB does (int64_status 0x1C00), in a CDF-5 container
 * (64-bit integer variables need it; netCDF-C reads it, Debian's
 * libexodusii 6.02 does not know int64_status); node and element ids and
 * counts may then exceed 2^31 (block and set ids stay below). Reals are
 * double unless options.float_size is 4.
 *
 * Errors: PARIO_ERR_INVALID_ARGUMENT (the message names the call and the
 * argument: ids not positive or repeated, counts that do not add up over
 * the ranks, connectivity or sets naming ids nobody passed, names longer
 * than 32 characters, mismatched types and node counts); PARIO_ERR_STATE
 * (out of order); PARIO_ERR_IO and the file's errors; PARIO_ERR_REMOTE on
 * the ranks where nothing was wrong.
 */
#ifndef PARIO_EXODUS_H
#define PARIO_EXODUS_H

#include <stddef.h>
#include <stdint.h>

#include "pario/array.h"
#include "pario/collective_io.h"
#include "pario/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pario_exodus_s *pario_exodus_t;
#define PARIO_EXODUS_NULL ((pario_exodus_t)0)

/* netCDF container versions. */
#define PARIO_EXODUS_FORMAT_AUTO 0 /* CDF-2 (64-bit offset), CDF-5 where a variable needs it */
#define PARIO_EXODUS_FORMAT_CDF2 2
#define PARIO_EXODUS_FORMAT_CDF5 5

/* Kinds of variables. */
#define PARIO_EXODUS_GLOBAL 0
#define PARIO_EXODUS_NODAL 1
#define PARIO_EXODUS_ELEMENT 2
/* Kinds of sets (pario_exodus_get_set, _read_set_df). */
#define PARIO_EXODUS_NODE_SET 3
#define PARIO_EXODUS_SIDE_SET 4

typedef struct pario_exodus_options {
  int format;                      /* PARIO_EXODUS_FORMAT_* */
  int float_size;                  /* bytes of a real in the file: 0 or 8 (double), 4 (float) */
  int no_step_sync;                /* 1: no sync before a step is counted (PARIO_EXODUS_SYNC=none) */
  const pario_decomp_hints *hints; /* the collective engine's hints (NULL: the environment's), the same on every
                                      rank (else PARIO_ERR_INVALID_ARGUMENT naming the field); byte order ignored */
  int steps_per_file;              /* 0: one file; n > 0: a new file (path-s0002, ...) every n steps (create);
                                      path names such a series (open_append, open) */
  int int64;                       /* 1: 64-bit integers in the file (CDF-5, EX_ALL_INT64_DB; create only) */
  int nemesis;                     /* 1: Nemesis load-balance information of the writing ranks (create only) */
} pario_exodus_options;

/* Local: every field zero (the defaults). */
PARIO_API void pario_exodus_options_init(pario_exodus_options *options);

/* Makes the file at path (replacing one there) for every rank of group.
 * options may be NULL. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_create(pario_group_t group, const char *path,
                                                   const pario_exodus_options *options, pario_exodus_t *exodus_out);
/* Finishes the open step, ends the definition if still open, makes the
 * file whole, closes it and sets *exodus to PARIO_EXODUS_NULL. A
 * definition that cannot end (no init, fewer blocks or sets than init
 * announced) is closed all the same, without a header: PARIO_ERR_STATE. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_close(pario_exodus_t *exodus);

/* Opens the existing Exodus file at path for every rank of group to
 * append steps (a restart; the group need not be the one that wrote it).
 * options may be NULL. Then, before any values: pario_exodus_attach_nodes
 * (if the file has nodal variables) and pario_exodus_attach_block per
 * block with element variables; then put_time(numrecs + 1, ...), the
 * values, flush, close as for a new file. Definitions and mesh calls are
 * PARIO_ERR_STATE. PARIO_ERR_CORRUPT / _UNSUPPORTED as pario_exodus_open
 * (and _UNSUPPORTED for a file with no time_whole or with real record
 * variables of two types).
 * options->steps_per_file = 0: path is one file (a file of a series by
 * its own name: its steps count from 1); PARIO_ERR_INVALID_ARGUMENT when
 * path is the first file of a series (path-s0002 exists).
 * options->steps_per_file = n > 0: path is the first file of a series
 * written with n steps per file. Rank 0 lists path's directory and reads
 * every file's header: files 2..K must be named as the writer names them
 * (path-s0002, ...; PARIO_ERR_CORRUPT naming a file like path-s2 or a
 * gap), every header equal to the first file's and the last file's mesh
 * (its fixed data) equal to the first file's byte for byte
 * (PARIO_ERR_CORRUPT naming what differs), files 1..K-1 holding n steps
 * each and file K at most n (PARIO_ERR_INVALID_ARGUMENT otherwise). The
 * run continues in file K at the run's step (K - 1) n + numrecs + 1 (a
 * file K with no step counted, or with no header yet, as a writer killed
 * while starting it leaves it, is made again from file K-1 by the next
 * step), and moves to a new file every n steps. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_open_append(pario_group_t group, const char *path,
                                                        const pario_exodus_options *options,
                                                        pario_exodus_t *exodus_out);
/* After open_append: this rank's n nodes by global id (node_num_map's
 * values; without a map, positions from 1), in the order of its later
 * nodal values. All ranks together name every node of the file; a node
 * several ranks name is written by the lowest of them. An id the file does
 * not have or repeated on a rank: PARIO_ERR_INVALID_ARGUMENT. Once. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_attach_nodes(pario_exodus_t exodus, int64_t n, const int64_t ids[]);
/* After open_append: this rank's n elements of block block_id by global id
 * (elem_num_map's values), in the order of its later element values; all
 * ranks together name each element of the block exactly once. Once per block. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_attach_block(pario_exodus_t exodus, int64_t block_id, int64_t n,
                                                         const int64_t ids[]);

/* ---- definitions (the same on every rank) ---- */

/* The title (up to 80 characters), dimensions (1..3), the global numbers
 * of nodes and elements, and how many blocks and sets will be defined. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_init(pario_exodus_t exodus, const char *title, int num_dim,
                                                 int64_t num_nodes, int64_t num_elem, int num_blocks,
                                                 int num_node_sets, int num_side_sets);
/* An element block: id (> 0), name (may be NULL or ""), type ("HEX8",
 * "TETRA4", "WEDGE6", "QUAD4", "TRI3", ...; a known type must have its
 * number of nodes), count (elements, all ranks together), nodes per
 * element, attributes per element (0: none). */
PARIO_COLLECTIVE PARIO_API int pario_exodus_define_block(pario_exodus_t exodus, int64_t id, const char *name,
                                                         const char *type, int64_t count, int nodes_per_element,
                                                         int attributes);
/* A node set: id, name, count (distinct nodes), has_df (0 or 1: one
 * distribution factor per node). */
PARIO_COLLECTIVE PARIO_API int pario_exodus_define_node_set(pario_exodus_t exodus, int64_t id, const char *name,
                                                            int64_t count, int has_df);
/* A side set: id, name, count (distinct (element, side) pairs),
 * df_per_side (distribution factors per side, e.g. 4 for HEX8 faces; 0: none). */
PARIO_COLLECTIVE PARIO_API int pario_exodus_define_side_set(pario_exodus_t exodus, int64_t id, const char *name,
                                                            int64_t count, int df_per_side);
/* A side set whose sides have different numbers of distribution factors
 * (one per node of each side, as ex_put_set_dist_fact takes them: a set
 * over mixed element or face types): id, name, count (distinct (element,
 * side) pairs) and num_df, the factors of all its sides together (0:
 * none). Its parts go through pario_exodus_put_side_set_df. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_define_side_set_df(pario_exodus_t exodus, int64_t id, const char *name,
                                                               int64_t count, int64_t num_df);
/* num_dim names (up to 32 characters); the default is x, y, z. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_coord_names(pario_exodus_t exodus, const char *const names[]);
/* n QA records, 4 strings each (code, version, date, time; up to 32
 * characters): records[4*i .. 4*i+3]. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_qa(pario_exodus_t exodus, int n, const char *const records[]);
/* n info lines of up to 80 characters. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_info(pario_exodus_t exodus, int n, const char *const lines[]);
/* The n variables of a kind (PARIO_EXODUS_GLOBAL/NODAL/ELEMENT), numbered
 * 1..n in this order; once per kind. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_define_variables(pario_exodus_t exodus, int kind, int n,
                                                             const char *const names[]);
/* Which element variables each block has: table[b * num_vars + v] != 0,
 * blocks in definition order (default: all). After both are defined. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_truth_table(pario_exodus_t exodus, int num_blocks, int num_vars,
                                                            const int table[]);
/* Ends the definition: rank 0 writes the header and the small variables. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_end_define(pario_exodus_t exodus);

/* ---- the mesh: each rank its own part ---- */

/* This rank's n nodes (those its elements use; shared ones too): global
 * ids (> 0) and coordinates of mem_type (a PARIO_TYPE_* real or integer),
 * x, y, z (those beyond num_dim ignored, may be NULL). Once. Writes the
 * coordinates and node_num_map. The order given here is the order of
 * every later nodal value array. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_nodes(pario_exodus_t exodus, int64_t n, const int64_t ids[],
                                                      int mem_type, const void *x, const void *y, const void *z);
/* This rank's n elements of block block_id: global ids (> 0, unique) and
 * connectivity, n * nodes_per_element global node ids (each passed to
 * put_nodes by some rank). Once per block, after put_nodes. The order
 * given here is the order of the block's attributes and element values. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_block(pario_exodus_t exodus, int64_t block_id, int64_t n,
                                                      const int64_t ids[], const int64_t connectivity[]);
/* The block's attributes for this rank's elements: n * attributes values. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_attributes(pario_exodus_t exodus, int64_t block_id, int mem_type,
                                                           const void *values);
/* This rank's part of node set set_id: n global node ids, df (n values of
 * mem_type, or NULL when the set has none). An entry several ranks pass
 * is written once; entries land in increasing node position. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_node_set(pario_exodus_t exodus, int64_t set_id, int64_t n,
                                                         const int64_t node_ids[], int mem_type, const void *df);
/* This rank's part of side set set_id: n (global element id, side 1..15)
 * pairs, df (n * df_per_side values, or NULL). Entries land in increasing
 * (element position, side). */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_side_set(pario_exodus_t exodus, int64_t set_id, int64_t n,
                                                         const int64_t elem_ids[], const int sides[], int mem_type,
                                                         const void *df);
/* This rank's part of a side set defined by pario_exodus_define_side_set_df:
 * n (global element id, side 1..15) pairs, df_counts[k] (>= 0) factors of
 * side k, and df, the sum of df_counts values of mem_type, side after side
 * in the order given (may be NULL when the sum is 0). In the file the
 * sides land in increasing (element position, side) with their factors
 * (dist_fact_ss<s> in the sides' order, num_df_ss<s> = num_df); a side
 * several ranks pass is written once, with its lowest rank's factors. All
 * ranks' counts together must add up to num_df
 * (PARIO_ERR_INVALID_ARGUMENT naming both sums otherwise). */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_side_set_df(pario_exodus_t exodus, int64_t set_id, int64_t n,
                                                            const int64_t elem_ids[], const int sides[],
                                                            const int df_counts[], int mem_type, const void *df);

/* ---- results, step by step ---- */

/* Begins step `step` (1 for the first, then each next one) at `time`
 * (equal on every rank); ends the step before it. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_time(pario_exodus_t exodus, int step, double time);
/* All n global values of the step (n = the number of global variables;
 * equal on every rank). Kept until the step ends: rank 0 writes them with
 * the step's time, so a failure to write them is returned by the call
 * that ends the step (the next put_time, flush or close). */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_global_values(pario_exodus_t exodus, int step, int n, int mem_type,
                                                              const void *values);
/* Nodal variable var (1-based) of the step for this rank's nodes, in the
 * order of put_nodes. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_nodal_values(pario_exodus_t exodus, int step, int var, int mem_type,
                                                             const void *values);
/* Element variable var (1-based) of the step for this rank's elements of
 * block block_id, in the order of put_block. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_put_element_values(pario_exodus_t exodus, int step, int var,
                                                               int64_t block_id, int mem_type, const void *values);
/* Ends the open step (its time) and counts every ended step in the step
 * count readers see, after a sync (PARIO_EXODUS_SYNC=none: without). */
PARIO_COLLECTIVE PARIO_API int pario_exodus_flush(pario_exodus_t exodus);

/* ---- reading: an existing file on any number of ranks ---- */

/* Opens an existing Exodus II file (netCDF classic: pario's, libexodusii's,
 * meshio's) for reading by every rank of group (options may be NULL; only
 * its hints and steps_per_file count: n > 0 opens the last file holding
 * steps of the series whose first file is path, found and checked as
 * pario_exodus_open_append finds it, without comparing the meshes). Rank 0 reads the header and the small variables; the
 * file is untrusted (PARIO_ERR_CORRUPT naming what does not fit,
 * PARIO_ERR_UNSUPPORTED for netCDF-4 files and the old single-array
 * layout). Close with pario_exodus_close. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_open(pario_group_t group, const char *path,
                                                 const pario_exodus_options *options, pario_exodus_t *exodus_out);
/* Local, for a file being read or written: where it lies in its series
 * (any output may be NULL). file_index: 1 for a single file or a series'
 * first file; first_step: the run's steps in the files before it (the
 * file's step s is the run's step first_step + s); steps: the run's steps
 * so far (a reader: first_step + the file's steps; a writer: the last
 * step begun, so put_time takes steps + 1 next; after open_append: the
 * steps the file or series holds). */
PARIO_API int pario_exodus_get_series(pario_exodus_t exodus, int *file_index, int *first_step, int *steps);
/* Local: what the file holds (any output may be NULL; title cut to
 * title_len - 1 characters). */
PARIO_API int pario_exodus_get_info(pario_exodus_t exodus, char *title, size_t title_len, int *num_dim,
                                    int64_t *num_nodes, int64_t *num_elem, int *num_blocks, int *num_node_sets,
                                    int *num_side_sets, int *num_steps);
/* Local: block `index` (0-based, file order). */
PARIO_API int pario_exodus_get_block(pario_exodus_t exodus, int index, int64_t *id, char *name, size_t name_len,
                                     char *type, size_t type_len, int64_t *count, int *nodes_per_element);
/* Local: the attribute values per element of block `index` (0-based,
 * file order; 0 when it has none). */
PARIO_API int pario_exodus_get_block_attributes(pario_exodus_t exodus, int index, int *num_attributes);
/* Local: how many variables of a kind (num_vars), and the name of var
 * (1-based; 0 asks only for the count). */
PARIO_API int pario_exodus_get_variable(pario_exodus_t exodus, int kind, int var, char *name, size_t name_len,
                                        int *num_vars);
/* Local: set `index` (0-based, file order) of a kind
 * (PARIO_EXODUS_NODE_SET or _SIDE_SET): its id, name, entries and number
 * of distribution factors (node sets: 0 or count; side sets: any number,
 * in the order of the sides). */
PARIO_API int pario_exodus_get_set(pario_exodus_t exodus, int kind, int index, int64_t *id, char *name,
                                   size_t name_len, int64_t *count, int64_t *df_count);
/* Local: the Nemesis load-balance parameters of `processor` (0-based) as
 * libexodusii's ex_get_loadbal_param gives them: counts[0..6] = internal,
 * border and external nodes, internal and border elements, nodal and
 * elemental communication maps. *num_procs: the processors the file
 * describes, 0 when it has no Nemesis information (counts untouched;
 * either output may be NULL). A processor beyond the file's:
 * PARIO_ERR_OUT_OF_RANGE. Files open for reading. */
PARIO_API int pario_exodus_get_loadbal(pario_exodus_t exodus, int processor, int *num_procs, int64_t counts[7]);
/* The Nemesis lists of `processor` (0-based), as libexodusii's
 * ex_get_processor_node_maps, ex_get_processor_elem_maps,
 * ex_get_cmap_params, ex_get_node_cmap and ex_get_elem_cmap give them for
 * a load-balance file of all processors ("s", as pario and nem_slice
 * write it). Local (this rank reads its own processor's, or any), files
 * open for reading. Nodes and elements are 1-based file positions, as
 * libexodusii gives them (pario_exodus_read_node_ids and _read_block give
 * their global ids); processors are 0-based. Sizes come from
 * pario_exodus_get_loadbal's counts; any output may be NULL (not read);
 * outputs are written only on success. A file without Nemesis
 * information: PARIO_ERR_NOT_FOUND; a processor beyond the file's:
 * PARIO_ERR_OUT_OF_RANGE; lists that do not fit their variables:
 * PARIO_ERR_CORRUPT (at pario_exodus_open). */
/* Internal, border and external nodes: counts[0], [1] and [2] entries. */
PARIO_API int pario_exodus_get_node_maps(pario_exodus_t exodus, int processor, int64_t internal[], int64_t border[],
                                         int64_t external[]);
/* Internal and border elements: counts[3] and [4] entries. */
PARIO_API int pario_exodus_get_elem_maps(pario_exodus_t exodus, int processor, int64_t internal[], int64_t border[]);
/* The ids and entry counts of the processor's counts[5] nodal and
 * counts[6] elemental communication maps, in file order. */
PARIO_API int pario_exodus_get_cmap_params(pario_exodus_t exodus, int processor, int64_t node_map_ids[],
                                           int64_t node_map_counts[], int64_t elem_map_ids[],
                                           int64_t elem_map_counts[]);
/* Nodal communication map map_id of the processor: its entries' nodes and
 * the processors that share them (the count of pario_exodus_get_cmap_params);
 * no such map: PARIO_ERR_NOT_FOUND. */
PARIO_API int pario_exodus_get_node_cmap(pario_exodus_t exodus, int processor, int64_t map_id, int64_t nodes[],
                                         int64_t procs[]);
/* Elemental communication map map_id: elements, their sides (1-based) and
 * the processors on the other side. */
PARIO_API int pario_exodus_get_elem_cmap(pario_exodus_t exodus, int processor, int64_t map_id, int64_t elems[],
                                         int64_t sides[], int64_t procs[]);
/* Local: which element variables each block holds values of, as
 * libexodusii's ex_get_truth_table gives it: table[b * num_vars + v] = 1
 * for block b (0-based, file order) and variable v + 1, else 0; num_blocks
 * and num_vars must be the file's (get_info, get_variable). */
PARIO_API int pario_exodus_get_truth_table(pario_exodus_t exodus, int num_blocks, int num_vars, int table[]);
/* Local: pario's own read partition. The file's elements are split evenly
 * over the group's ranks in file order (blocks one after another, so each
 * rank holds one contiguous stretch of the file); this rank's elements of
 * block b (0-based, file order) are [start[b], start[b] + count[b]) of
 * that block. num_blocks must be the file's. Read them with
 * pario_exodus_read_block (their ids) and _read_element_values, and their
 * nodes by id: _read_block_by_id gives their connectivity as global node
 * ids, for _read_coords_by_id and _read_nodal_values_by_id. */
PARIO_API int pario_exodus_get_partition(pario_exodus_t exodus, int num_blocks, int64_t start[], int64_t count[]);
/* Local: the time of step (1-based). */
PARIO_API int pario_exodus_get_time(pario_exodus_t exodus, int step, double *time);
/* Each rank reads the range it asks for ([start, start + count), 0-based
 * file positions; ranges may overlap, count may be 0), converted to
 * mem_type. Nodes: coordinates (x, y, z for num_dim) and global ids. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_coords(pario_exodus_t exodus, int64_t start, int64_t count,
                                                        int mem_type, void *x, void *y, void *z);
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_node_ids(pario_exodus_t exodus, int64_t start, int64_t count,
                                                          int64_t ids[]);
/* Elements of block block_id: global ids (may be NULL) and connectivity
 * as 1-based node positions, count * nodes_per_element. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_block(pario_exodus_t exodus, int64_t block_id, int64_t start,
                                                       int64_t count, int64_t ids[], int64_t connectivity[]);
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_nodal_values(pario_exodus_t exodus, int step, int var,
                                                              int64_t start, int64_t count, int mem_type,
                                                              void *values);
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_element_values(pario_exodus_t exodus, int step, int var,
                                                                int64_t block_id, int64_t start, int64_t count,
                                                                int mem_type, void *values);
/* Attribute values of elements [start, start + count) of block block_id,
 * get_block_attributes' number per element, element by element; a block
 * without attributes: PARIO_ERR_NOT_FOUND (count 0 reads nothing). */
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_attributes(pario_exodus_t exodus, int64_t block_id, int64_t start,
                                                            int64_t count, int mem_type, void *values);
/* Global variables 1..n of step (n: 0 up to get_variable's num_vars for
 * PARIO_EXODUS_GLOBAL), on every rank. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_global_values(pario_exodus_t exodus, int step, int n, int mem_type,
                                                               void *values);

/* Entries [start, start + count) of node set set_id as global node ids. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_node_set(pario_exodus_t exodus, int64_t set_id, int64_t start,
                                                          int64_t count, int64_t node_ids[]);
/* Entries [start, start + count) of side set set_id: global element ids
 * and sides (1-based; either output may be NULL). */
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_side_set(pario_exodus_t exodus, int64_t set_id, int64_t start,
                                                          int64_t count, int64_t elem_ids[], int64_t sides[]);
/* Distribution factors [start, start + count) of a set (kind
 * PARIO_EXODUS_NODE_SET or _SIDE_SET; 0 .. df_count of pario_exodus_get_set). */
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_set_df(pario_exodus_t exodus, int kind, int64_t set_id,
                                                        int64_t start, int64_t count, int mem_type, void *df);

/* Reads by a caller's partition: each rank names its n nodes or elements
 * of a block by global id (ids repeated on one rank are refused; several
 * ranks may name the same id); the k-th output entry is ids[k]'s. An id
 * the file does not have: PARIO_ERR_INVALID_ARGUMENT naming it. The id
 * lookup reads the id map once per call, in one slice per rank, through a
 * distributed directory: no rank holds the whole map. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_coords_by_id(pario_exodus_t exodus, int64_t n, const int64_t ids[],
                                                              int mem_type, void *x, void *y, void *z);
/* Connectivity of the elements as global node ids (node_num_map's values),
 * n * nodes_per_element. */
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_block_by_id(pario_exodus_t exodus, int64_t block_id, int64_t n,
                                                             const int64_t ids[], int64_t connectivity[]);
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_nodal_values_by_id(pario_exodus_t exodus, int step, int var,
                                                                    int64_t n, const int64_t ids[], int mem_type,
                                                                    void *values);
PARIO_COLLECTIVE PARIO_API int pario_exodus_read_element_values_by_id(pario_exodus_t exodus, int step, int var,
                                                                      int64_t block_id, int64_t n,
                                                                      const int64_t ids[], int mem_type,
                                                                      void *values);

#ifdef __cplusplus
}
#endif

#endif /* PARIO_EXODUS_H */
