/* pario/status.h: status codes and error messages of every pario call.
 *
 * Every fallible pario function returns an int: PARIO_OK (0) on success,
 * otherwise one of the positive codes below. Codes are only ever appended,
 * never renumbered. errno values and MPI error codes never appear here; the
 * detail (which call, path, offset, errno text) is in the message returned
 * by pario_last_error_message().
 *
 * Thread safety: all functions here are safe to call from any thread; the
 * last error message is kept per thread.
 */
#ifndef PARIO_STATUS_H
#define PARIO_STATUS_H

#include <stddef.h>

#include "pario/export.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  PARIO_OK = 0,
  /* An argument is wrong on its own: null pointer, negative offset, unknown
   * mode, a handle that was closed or a request that was already waited. */
  PARIO_ERR_INVALID_ARGUMENT = 1,
  /* The call is not allowed in the object's current state (e.g. writing a
   * file opened read-only, using pario before a failed start-up). */
  PARIO_ERR_STATE = 2,
  /* A named file or object does not exist. */
  PARIO_ERR_NOT_FOUND = 3,
  /* Creation was asked to be exclusive and the object already exists. */
  PARIO_ERR_EXISTS = 4,
  /* A position is outside the valid range: reading past end of file,
   * writing past a hard size limit. */
  PARIO_ERR_OUT_OF_RANGE = 5,
  /* Memory (heap, shared memory or a RAM budget) could not be obtained. */
  PARIO_ERR_NO_MEMORY = 6,
  /* The file system is full (ENOSPC, EDQUOT); data written before is intact. */
  PARIO_ERR_NO_SPACE = 7,
  /* The operating system reported an I/O error not covered above. */
  PARIO_ERR_IO = 8,
  /* An MPI call failed. */
  PARIO_ERR_MPI = 9,
  /* The operation or backend is not available in this build or system. */
  PARIO_ERR_UNSUPPORTED = 10,
  /* Stored data or metadata is malformed. */
  PARIO_ERR_CORRUPT = 11,
  /* The operation was canceled before it completed. */
  PARIO_ERR_CANCELED = 12,
  /* A collective failed on another rank; this rank's part was fine. */
  PARIO_ERR_REMOTE = 13,
  /* A bug in pario: please report it with the message. */
  PARIO_ERR_INTERNAL = 14,
  /* The operating system refused access (EACCES, EPERM, EROFS, ELOOP on a
   * symbolic link that pario refuses to follow). */
  PARIO_ERR_PERMISSION = 15
};

/* Static English name of a status code ("invalid argument"); never NULL. */
PARIO_API const char *pario_status_string(int code);

/* Copies this thread's last error message into buf (always NUL-terminated
 * when len > 0) and returns the full message length, like snprintf. The
 * message has the shape "<call>: <context>: <cause>"; it belongs to the
 * thread's most recent failed call (successful calls leave it unchanged) and
 * is empty before the first failure. */
PARIO_API size_t pario_last_error_message(char *buf, size_t len);

/* For language bindings that check arguments pario cannot see (the element
 * type of a Fortran buffer): records "<call>: <message>" as this thread's
 * last error, so pario_last_error_message stays the one place to look, and
 * returns code. A code that is not an error (PARIO_OK, unknown) records
 * nothing and returns PARIO_ERR_INVALID_ARGUMENT. */
PARIO_API int pario_report_error(int code, const char *call, const char *message);

#ifdef __cplusplus
}
#endif

#endif /* PARIO_STATUS_H */
