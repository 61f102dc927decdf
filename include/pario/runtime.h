/* pario/runtime.h: start-up, shut-down, configuration queries, statistics.
 *
 * pario_init() starts MPI if the application has not (a program run without
 * mpiexec becomes a one-rank job) and reads the configuration from the
 * environment (the README's table). Private files work without
 * pario_init(): they read the configuration on first use.
 *
 * Thread safety: call pario_init/pario_finalize from one thread; the
 * queries may be called from any thread.
 */
#ifndef PARIO_RUNTIME_H
#define PARIO_RUNTIME_H

#include <stddef.h>

#include "pario/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over MPI_COMM_WORLD. Starts MPI when needed (pario then also
 * finalizes it), duplicates MPI_COMM_WORLD for its own use, and validates
 * the configuration: a malformed PARIO_* variable fails here with
 * PARIO_ERR_INVALID_ARGUMENT naming the variable. Calling it again is a
 * no-op. */
PARIO_API int pario_init(void);

/* Collective. Writes the statistics if PARIO_STATS / PARIO_STATS_FILE ask
 * for them, releases pario's communicators and finalizes MPI if pario_init
 * started it. */
PARIO_API int pario_finalize(void);

/* Ends the whole job now with error_code (MPI_Abort when MPI is running):
 * for classic APIs whose errors are fatal, like DDI's. Never returns. */
PARIO_API void pario_abort(int error_code);
/* *flag_out = 1 between pario_init and pario_finalize, else 0. */
PARIO_API int pario_initialized(int *flag_out);

/* This rank and the job size in pario's world (0 and 1 before init). */
PARIO_API int pario_world_rank(int *rank_out);
PARIO_API int pario_world_size(int *size_out);

/* Node topology (after pario_init): the node index of this rank, the number
 * of nodes, and this rank's place on its node. PARIO_RANKS_PER_NODE=k
 * emulates nodes of k ranks on one machine. */
PARIO_API int pario_node_info(int *node_out, int *nodes_out, int *node_rank_out,
                              int *node_size_out);

/* Names the asynchronous I/O engine in use, e.g. "io_uring" or
 * "threads (io_uring unavailable: ...)": a fallback is never silent.
 * Copies into buf like snprintf and returns PARIO_OK. */
PARIO_API int pario_io_engine(char *buf, size_t len);

/* Statistics: enabled by PARIO_STATS=1 (table on stderr at finalize) or
 * PARIO_STATS_FILE=path.json ("%r" in the path becomes the rank). These
 * write them now: JSON to a path, or the table to a buffer. */
PARIO_API int pario_stats_write_json(const char *path);
PARIO_API size_t pario_stats_table(char *buf, size_t len);

/* Library version, e.g. "0.1.0". */
PARIO_API const char *pario_version(void);

#ifdef __cplusplus
}
#endif

#endif /* PARIO_RUNTIME_H */
