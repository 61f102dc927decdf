/* pario/request.h: nonblocking operations of every kind.
 *
 * A pario_request_t stands for one nonblocking operation: a private-file
 * read or write (pario_file_iread/iwrite) or a global-array transfer
 * (pario_array_iget/iput/iacc). The same three calls complete all of them,
 * and one waitall may mix kinds. A request's handle becomes stale once
 * waited: using it again returns PARIO_ERR_INVALID_ARGUMENT.
 *
 * Thread safety: different requests may be waited from different threads;
 * one request must not be waited by two threads at once.
 */
#ifndef PARIO_REQUEST_H
#define PARIO_REQUEST_H

#include <stddef.h>

#include "pario/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pario_request_s *pario_request_t;

#define PARIO_REQUEST_NULL ((pario_request_t)0)

/* Waits for a request, frees it and sets *req to PARIO_REQUEST_NULL.
 * Returns the operation's status (e.g. OUT_OF_RANGE for a read past end of
 * file). Waiting a null or already-waited request is INVALID_ARGUMENT.
 * Collective requests (disk-array and decomposition transfers) are waited
 * by every rank of their group in the order they were started; so that a
 * bad handle on one rank cannot leave the others waiting for it, a wait
 * with a bad handle also completes this rank's oldest collective request
 * with that error (the others get PARIO_ERR_REMOTE), and waiting that
 * request's own handle afterwards returns INVALID_ARGUMENT saying so (and
 * nulls it). With collective requests outstanding on several groups the
 * oldest one started is taken, which meets the others only where they
 * wait in that same order.
 * For array puts and accumulates, completion means the data is in the
 * target array (a later get from any rank that is ordered after this
 * wait sees it). */
PARIO_API int pario_request_wait(pario_request_t *req);

/* Nonblocking check: *done_out = 1 when complete (the request must still
 * be waited to free it and get its status), else 0. */
PARIO_API int pario_request_test(pario_request_t *req, int *done_out);

/* Waits for every request in the array in order, frees all and nulls
 * them; returns the first failure's status (naming its index), or
 * PARIO_OK. A null or stale entry fails as pario_request_wait does, and
 * the others are still waited. */
PARIO_API int pario_request_waitall(size_t count, pario_request_t *reqs);

#ifdef __cplusplus
}
#endif

#endif /* PARIO_REQUEST_H */
