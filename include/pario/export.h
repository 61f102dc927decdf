/* pario/export.h: symbol visibility of the public C API. */
#ifndef PARIO_EXPORT_H
#define PARIO_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define PARIO_API __attribute__((visibility("default")))
#else
#define PARIO_API
#endif

/* Marks a collective call: every rank of the group (or of the
 * communicator) makes it, in the same order, with the same arguments. It
 * checks its arguments on each rank, then the ranks agree: all return the
 * same status (PARIO_ERR_REMOTE, naming the failing rank, where another
 * rank's check or I/O failed), arguments that differ between ranks fail
 * everywhere, and no rank is left waiting. The one-rank-failure test
 * (tests/capi/capi_collective_matrix_test.c) covers every call so marked;
 * tests/capi/collective_list.cmake fails the build's tests if one is left
 * out. */
#define PARIO_COLLECTIVE

#endif /* PARIO_EXPORT_H */
