/* The one-rank-failure matrix: every collective of the public headers (the
 * calls marked PARIO_COLLECTIVE; collective_list.cmake checks that each has
 * a CASE here) is called with a bad argument on one rank at a time, every
 * rank in turn. Each case must fail on every rank: the bad rank with its
 * own error, the others with PARIO_ERR_REMOTE naming it; and the job must
 * go on (a barrier after every case). Where an argument must be the same on
 * every rank, a second row passes a rank-dependent value and expects
 * PARIO_ERR_INVALID_ARGUMENT everywhere. A watchdog ends the job with the
 * case's name if a case hangs. */
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int rank, size;
static pario_group_t world;
static char dir[512];
static const char *current = "";

enum { kWatchdogSeconds = 60 };

static void watchdog(int sig) {
  (void)sig;
  char line[256];
  const int n = snprintf(line, sizeof line, "rank %d: HANG in case %s\n", rank, current);
  if (n > 0) (void)!write(2, line, (size_t)n);
  _exit(3);
}

/* A 2-D global array of doubles, 8 x 6. */
static pario_array_t make_array(void) {
  const int64_t dims[2] = {8, 6};
  pario_array_t a = PARIO_ARRAY_NULL;
  CHECK(pario_array_create(world, "m", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  return a;
}

static void path_of(char *buf, size_t len, const char *name) { snprintf(buf, len, "%s/%s", dir, name); }

static pario_disk_array_t make_disk_array(const char *name) {
  const int64_t dims[2] = {8, 6};
  char path[600];
  path_of(path, sizeof path, name);
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  CHECK(pario_disk_array_create(world, path, PARIO_TYPE_DOUBLE, 2, dims, NULL, &d) == PARIO_OK);
  return d;
}

static void drop_disk_array(pario_disk_array_t *d, const char *name) {
  char path[600];
  path_of(path, sizeof path, name);
  CHECK(pario_disk_array_close(d) == PARIO_OK);
  CHECK(pario_disk_array_delete(world, path) == PARIO_OK);
}

/* ---- the cases: each calls one collective, bad (1) on one rank ---- */

static int c_group_split(int bad) {
  pario_group_t g = PARIO_GROUP_NULL;
  const int rc = pario_group_split(world, 0, bad ? NULL : &g);
  if (rc == PARIO_OK) pario_group_free(&g);
  return rc;
}

static int c_group_from_fortran_comm(int bad) {
  pario_group_t g = PARIO_GROUP_NULL;
  const int rc = pario_group_from_fortran_comm(MPI_Comm_c2f(MPI_COMM_WORLD), bad ? NULL : &g);
  if (rc == PARIO_OK) pario_group_free(&g);
  return rc;
}

static int c_group_barrier(int bad) { return pario_group_barrier(bad ? PARIO_GROUP_NULL : world); }

static int c_group_sum(int bad) {
  double x[3] = {1, 2, 3};
  return pario_group_sum(world, bad ? 99 : PARIO_TYPE_DOUBLE, x, 3);
}

static int c_group_broadcast(int bad) {
  char b[8] = "abc";
  return pario_group_broadcast(world, b, sizeof b, bad ? size : 0);
}

static int c_array_create(int bad) {
  const int64_t dims[2] = {8, 6};
  pario_array_t a = PARIO_ARRAY_NULL;
  const int rc = pario_array_create(world, "x", bad ? 99 : PARIO_TYPE_DOUBLE, 2, dims, &a);
  if (rc == PARIO_OK) pario_array_destroy(&a);
  return rc;
}

static int c_array_create_irregular(int bad) {
  const int64_t dims[2] = {8, 6}, nblocks[2] = {1, 1}, starts[2] = {0, 0};
  pario_array_t a = PARIO_ARRAY_NULL;
  const int rc = pario_array_create_irregular(world, "x", PARIO_TYPE_DOUBLE, 2, dims, bad ? NULL : nblocks,
                                              starts, &a);
  if (rc == PARIO_OK) pario_array_destroy(&a);
  return rc;
}

static int c_array_create_columns(int bad) {
  const int64_t dims[2] = {8, 6};
  pario_array_t a = PARIO_ARRAY_NULL;
  const int rc = pario_array_create_columns(world, "x", PARIO_TYPE_DOUBLE, 2, dims, NULL, bad ? NULL : &a);
  if (rc == PARIO_OK) pario_array_destroy(&a);
  return rc;
}

static int c_array_destroy(int bad) {
  pario_array_t a = make_array(), none = PARIO_ARRAY_NULL;
  const int rc = pario_array_destroy(bad ? &none : &a);
  if (a != PARIO_ARRAY_NULL) CHECK(pario_array_destroy(&a) == PARIO_OK);  /* it lived on everywhere */
  return rc;
}

static pario_array_t shared_array;

static int c_array_fill(int bad) {
  const double v = 2.5;
  return pario_array_fill(shared_array, bad ? NULL : &v);
}

static int c_array_zero(int bad) { return pario_array_zero(bad ? PARIO_ARRAY_NULL : shared_array); }

static int c_array_scale(int bad) {
  const double v = 0.5;
  return pario_array_scale(shared_array, bad ? NULL : &v);
}

static int c_array_copy(int bad) {
  pario_array_t b = make_array();
  const int rc = pario_array_copy(shared_array, bad ? PARIO_ARRAY_NULL : b);
  CHECK(pario_array_destroy(&b) == PARIO_OK);
  return rc;
}

static int c_array_sync(int bad) { return pario_array_sync(bad ? PARIO_ARRAY_NULL : shared_array); }

static int c_counter_create(int bad) {
  pario_counter_t c = PARIO_COUNTER_NULL;
  const int rc = pario_counter_create(world, bad ? NULL : &c);
  if (rc == PARIO_OK) pario_counter_destroy(&c);
  return rc;
}

static int c_counter_destroy(int bad) {
  pario_counter_t c = PARIO_COUNTER_NULL, none = PARIO_COUNTER_NULL;
  CHECK(pario_counter_create(world, &c) == PARIO_OK);
  const int rc = pario_counter_destroy(bad ? &none : &c);
  if (c != PARIO_COUNTER_NULL) CHECK(pario_counter_destroy(&c) == PARIO_OK);
  return rc;
}

static int c_counter_reset(int bad) {
  pario_counter_t c = PARIO_COUNTER_NULL;
  CHECK(pario_counter_create(world, &c) == PARIO_OK);
  const int rc = pario_counter_reset(bad ? PARIO_COUNTER_NULL : c);
  CHECK(pario_counter_destroy(&c) == PARIO_OK);
  return rc;
}

static int c_shared_file_create(int bad) {
  char path[600];
  path_of(path, sizeof path, "sf");
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  const int rc = pario_shared_file_create(world, bad ? NULL : path, -1, -1, -1, &f);
  if (rc == PARIO_OK) pario_shared_file_destroy(&f);
  return rc;
}

static int c_shared_file_open(int bad) {
  char path[600];
  path_of(path, sizeof path, "decomp.dat");
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  const int rc = pario_shared_file_open(world, path, bad ? 0 : PARIO_MODE_READ, &f);
  if (rc == PARIO_OK) pario_shared_file_close(&f);
  return rc;
}

static int end_shared_file(int bad, int destroy) {
  char path[600];
  path_of(path, sizeof path, "sf");
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  CHECK(pario_shared_file_create(world, path, -1, -1, -1, &f) == PARIO_OK);
  pario_shared_file_t *which = bad ? NULL : &f;
  const int rc = destroy ? pario_shared_file_destroy(which) : pario_shared_file_close(which);
  if (f != PARIO_SHARED_FILE_NULL) CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
  else if (!destroy && rank == 0) pario_file_delete(path);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  return rc;
}
static int c_shared_file_destroy(int bad) { return end_shared_file(bad, 1); }
static int c_shared_file_close(int bad) { return end_shared_file(bad, 0); }

static int c_disk_array_create(int bad) {
  const int64_t dims[2] = {8, 6};
  char path[600];
  path_of(path, sizeof path, "da_new");
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  const int rc = pario_disk_array_create(world, path, bad ? 99 : PARIO_TYPE_DOUBLE, 2, dims, NULL, &d);
  if (rc == PARIO_OK) drop_disk_array(&d, "da_new");
  return rc;
}

static int c_disk_array_create_mode(int bad) {
  const int64_t dims[2] = {8, 6};
  char path[600];
  path_of(path, sizeof path, "da_mode");
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  const int rc = pario_disk_array_create_mode(world, path, PARIO_TYPE_DOUBLE, 2, dims, NULL,
                                              bad ? PARIO_MODE_TRUNCATE : PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE,
                                              &d);
  if (rc == PARIO_OK) drop_disk_array(&d, "da_mode");
  return rc;
}

static pario_disk_array_t shared_disk_array;

static int c_disk_array_sync(int bad) { return pario_disk_array_sync(bad ? PARIO_DISK_ARRAY_NULL : shared_disk_array); }

/* Each rank its own row; the bad rank's lies outside the array, so its
 * write fails after the others wrote, and the sync tells them. */
static int c_disk_array_write_pieces(int bad) {
  const double row[6] = {1, 2, 3, 4, 5, 6};
  const int64_t start[2] = {bad ? 8 : rank % 8, 0}, count[2] = {1, 6};
  return pario_disk_array_write_pieces(shared_disk_array, start, count, row);
}

static int c_disk_array_open(int bad) {
  char path[600];
  path_of(path, sizeof path, "da");
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  const int rc = pario_disk_array_open(world, path, bad ? 999 : PARIO_MODE_READ, &d);
  if (rc == PARIO_OK) CHECK(pario_disk_array_close(&d) == PARIO_OK);
  return rc;
}

static int c_disk_array_close(int bad) {
  pario_disk_array_t d = make_disk_array("da_close"), none = PARIO_DISK_ARRAY_NULL;
  const int rc = pario_disk_array_close(bad ? &none : &d);
  if (d != PARIO_DISK_ARRAY_NULL) drop_disk_array(&d, "da_close");
  else {
    char path[600];
    path_of(path, sizeof path, "da_close");
    CHECK(pario_disk_array_delete(world, path) == PARIO_OK);
  }
  return rc;
}

static int c_disk_array_delete(int bad) {
  pario_disk_array_t d = make_disk_array("da_del");
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  char path[600];
  path_of(path, sizeof path, "da_del");
  const int rc = pario_disk_array_delete(world, bad ? NULL : path);
  if (rc != PARIO_OK) CHECK(pario_disk_array_delete(world, path) == PARIO_OK);
  return rc;
}

static int c_disk_array_set_attribute(int bad) {
  return pario_disk_array_set_attribute(shared_disk_array, "units", bad ? NULL : "hartree");
}

static const int64_t zero2[2] = {0, 0}, count2[2] = {8, 6};

static int c_disk_array_write(int bad) {
  return pario_disk_array_write(bad ? PARIO_DISK_ARRAY_NULL : shared_disk_array, shared_array, zero2, count2,
                                zero2);
}

static int c_disk_array_read(int bad) {
  return pario_disk_array_read(shared_disk_array, bad ? PARIO_ARRAY_NULL : shared_array, zero2, count2, zero2);
}

static int wait_if_ok(int rc, pario_request_t *req) {
  if (rc != PARIO_OK) return rc;
  return pario_request_wait(req);
}

static int c_disk_array_iwrite(int bad) {
  pario_request_t req = PARIO_REQUEST_NULL;
  return wait_if_ok(pario_disk_array_iwrite(shared_disk_array, shared_array, zero2, count2, zero2, NULL,
                                            bad ? NULL : &req),
                    &req);
}

static int c_disk_array_iread(int bad) {
  pario_request_t req = PARIO_REQUEST_NULL;
  return wait_if_ok(pario_disk_array_iread(shared_disk_array, shared_array, bad ? NULL : zero2, count2, zero2,
                                           NULL, &req),
                    &req);
}

/* Another library's array, seen through callbacks: one rank holds it all. */
static double foreign[8 * 6];
static int fail_sync_here;
static int ops_distribution(void *ctx, int r, int64_t start[], int64_t count[]) {
  (void)ctx;
  start[0] = start[1] = 0;
  count[0] = r == 0 ? 8 : 0;
  count[1] = r == 0 ? 6 : 0;
  return PARIO_OK;
}
static int ops_get(void *ctx, const int64_t s[], const int64_t c[], void *buf, const int64_t ld[]) {
  (void)ctx, (void)ld;
  for (int64_t i = 0; i < c[0]; ++i) memcpy((double *)buf + i * c[1], foreign + (s[0] + i) * 6 + s[1], c[1] * sizeof(double));
  return PARIO_OK;
}
static int ops_put(void *ctx, const int64_t s[], const int64_t c[], const void *buf, const int64_t ld[]) {
  (void)ctx, (void)ld;
  for (int64_t i = 0; i < c[0]; ++i) memcpy(foreign + (s[0] + i) * 6 + s[1], (const double *)buf + i * c[1], c[1] * sizeof(double));
  return PARIO_OK;
}
static int ops_sync(void *ctx) {
  (void)ctx;
  return fail_sync_here ? PARIO_ERR_IO : PARIO_OK;
}
static pario_array_ops_t foreign_ops(void) {
  pario_array_ops_t o;
  memset(&o, 0, sizeof o);
  o.name = "foreign";
  o.type = PARIO_TYPE_DOUBLE;
  o.ndim = 2;
  o.dims[0] = 8;
  o.dims[1] = 6;
  o.distribution = ops_distribution;
  o.get = ops_get;
  o.put = ops_put;
  o.sync = ops_sync;
  return o;
}

static int c_disk_array_iwrite_ops(int bad) {
  pario_array_ops_t o = foreign_ops();
  pario_request_t req = PARIO_REQUEST_NULL;
  return wait_if_ok(pario_disk_array_iwrite_ops(shared_disk_array, bad ? NULL : &o, zero2, count2, zero2, NULL, &req),
                    &req);
}

static int c_disk_array_iread_ops(int bad) {
  pario_array_ops_t o = foreign_ops();
  pario_request_t req = PARIO_REQUEST_NULL;
  fail_sync_here = bad;  /* the sync callback fails on this rank alone */
  const int rc = wait_if_ok(pario_disk_array_iread_ops(shared_disk_array, &o, zero2, count2, zero2, NULL, &req), &req);
  fail_sync_here = 0;
  return rc;
}

/* Collective I/O: rank r holds rows [8r/P, 8(r+1)/P) of an 8 x 6 array of
 * doubles, written to and read from one shared file. */
static pario_decomp_t shared_decomp;
static pario_shared_file_t shared_sf;
static double decomp_vals[48];

static int64_t my_rows(int64_t *start, int64_t *count) {
  start[0] = 8 * rank / size;
  count[0] = 8 * (rank + 1) / size - start[0];
  start[1] = 0;
  count[1] = 6;
  return count[0] * 6;
}

/* buffering: a PARIO_BUFFERING_* (0: the default). */
static pario_decomp_t make_decomp(int buffering) {
  const int64_t dims[2] = {8, 6};
  int64_t start[2], count[2];
  my_rows(start, count);
  pario_decomp_hints h;
  pario_decomp_hints_init(&h);
  h.buffering = buffering;
  pario_decomp_t d = PARIO_DECOMP_NULL;
  CHECK(pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 2, dims, PARIO_ORDER_C, 1, start, count, &h, &d) ==
        PARIO_OK);
  return d;
}

/* The same rows with collective buffering off: every rank moves its own
 * runs, no exchange; a failure on one rank must still fail every rank. */
static pario_decomp_t shared_decomp_direct;

static int c_decomp_create_blocks(int bad) {
  const int64_t dims[2] = {8, 6};
  int64_t start[2], count[2];
  my_rows(start, count);
  pario_decomp_t d = PARIO_DECOMP_NULL;
  const int rc = pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 2, dims, bad ? 7 : PARIO_ORDER_C, 1, start,
                                            count, NULL, &d);
  if (rc == PARIO_OK) pario_decomp_free(&d);
  return rc;
}

static int c_decomp_create_indices(int bad) {
  const int64_t idx[1] = {rank};
  pario_decomp_t d = PARIO_DECOMP_NULL;
  const int rc = pario_decomp_create_indices(world, PARIO_TYPE_DOUBLE, size, 1, bad ? NULL : idx, NULL, &d);
  if (rc == PARIO_OK) pario_decomp_free(&d);
  return rc;
}

static int c_decomp_create_keys(int bad) {
  const int64_t keys[1] = {100 + 7 * rank};
  pario_decomp_t d = PARIO_DECOMP_NULL;
  pario_decomp_hints h;
  pario_decomp_hints_init(&h);
  h.buffer_size = bad ? -1 : 0;
  const int rc = pario_decomp_create_keys(world, PARIO_TYPE_DOUBLE, 1, keys, &h, NULL, NULL, &d);
  if (rc == PARIO_OK) pario_decomp_free(&d);
  return rc;
}

static int c_decomp_free(int bad) {
  pario_decomp_t d = make_decomp(0), none = PARIO_DECOMP_NULL;
  const int rc = pario_decomp_free(bad ? &none : &d);
  if (d != PARIO_DECOMP_NULL) CHECK(pario_decomp_free(&d) == PARIO_OK); /* it lived on everywhere */
  return rc;
}

static int decomp_write(pario_decomp_t d, int bad) {
  return pario_decomp_write(d, shared_sf, 0, PARIO_TYPE_DOUBLE, bad ? NULL : decomp_vals);
}

/* Fails after the exchange (or this rank's own read), in this rank's
 * conversion alone: 1000.0 does not fit int8. */
static int decomp_read(pario_decomp_t d, int bad) {
  int8_t small[48];
  double back[48];
  return pario_decomp_read(d, shared_sf, 0, bad ? PARIO_TYPE_INT8 : PARIO_TYPE_DOUBLE,
                           bad ? (void *)small : (void *)back);
}

static int decomp_iwrite(pario_decomp_t d, int bad) {
  pario_request_t req = PARIO_REQUEST_NULL;
  return wait_if_ok(pario_decomp_iwrite(d, shared_sf, 0, PARIO_TYPE_DOUBLE, decomp_vals, bad ? NULL : &req), &req);
}

static int decomp_iread(pario_decomp_t d, int bad) {
  double back[48];
  pario_request_t req = PARIO_REQUEST_NULL;
  return wait_if_ok(pario_decomp_iread(d, shared_sf, 0, bad ? 99 : PARIO_TYPE_DOUBLE, back, &req), &req);
}

static int c_decomp_write(int bad) { return decomp_write(shared_decomp, bad); }
static int c_decomp_read(int bad) { return decomp_read(shared_decomp, bad); }
static int c_decomp_iwrite(int bad) { return decomp_iwrite(shared_decomp, bad); }
static int c_decomp_iread(int bad) { return decomp_iread(shared_decomp, bad); }
static int c_decomp_write_direct(int bad) { return decomp_write(shared_decomp_direct, bad); }
static int c_decomp_read_direct(int bad) { return decomp_read(shared_decomp_direct, bad); }
static int c_decomp_iwrite_direct(int bad) { return decomp_iwrite(shared_decomp_direct, bad); }
static int c_decomp_iread_direct(int bad) { return decomp_iread(shared_decomp_direct, bad); }

/* Waits on collective requests (disk-array and decomposition transfers),
 * bad on one rank: a null, stale or missing handle there completes that
 * rank's oldest collective request with its error, so the others' waits
 * end with PARIO_ERR_REMOTE; waiting that request's own handle afterwards
 * is a local error. */
static int c_request_wait_null(int bad) {
  pario_request_t req = PARIO_REQUEST_NULL, none = PARIO_REQUEST_NULL;
  int rc = pario_disk_array_iwrite(shared_disk_array, shared_array, zero2, count2, zero2, NULL, &req);
  if (rc != PARIO_OK) return rc;
  rc = pario_request_wait(bad ? &none : &req);
  if (bad) CHECK_FAILS(pario_request_wait(&req), PARIO_ERR_INVALID_ARGUMENT, "earlier wait with a bad handle");
  return rc;
}

static int c_request_wait_stale(int bad) {
  pario_request_t first = PARIO_REQUEST_NULL, second = PARIO_REQUEST_NULL;
  double back[48];
  CHECK(pario_decomp_iwrite(shared_decomp, shared_sf, 0, PARIO_TYPE_DOUBLE, decomp_vals, &first) == PARIO_OK);
  CHECK(pario_decomp_iread(shared_decomp_direct, shared_sf, 0, PARIO_TYPE_DOUBLE, back, &second) == PARIO_OK);
  const pario_request_t copy = first;
  CHECK(pario_request_wait(&first) == PARIO_OK);
  pario_request_t stale = copy;
  const int rc = pario_request_wait(bad ? &stale : &second);
  if (bad) CHECK_FAILS(pario_request_wait(&second), PARIO_ERR_INVALID_ARGUMENT, "earlier wait with a bad handle");
  return rc;
}

static int c_request_waitall(int bad) {
  pario_request_t reqs[2] = {PARIO_REQUEST_NULL, PARIO_REQUEST_NULL};
  double back[48];
  CHECK(pario_disk_array_iread(shared_disk_array, shared_array, zero2, count2, zero2, NULL, &reqs[0]) == PARIO_OK);
  CHECK(pario_decomp_iread(shared_decomp, shared_sf, 0, PARIO_TYPE_DOUBLE, back, &reqs[1]) == PARIO_OK);
  pario_request_t mine[2] = {reqs[0], bad ? PARIO_REQUEST_NULL : reqs[1]};
  const int rc = pario_request_waitall(2, mine);
  if (bad) {
    CHECK(mine[0] == PARIO_REQUEST_NULL);  /* the good one was still waited */
    CHECK_FAILS(pario_request_wait(&reqs[1]), PARIO_ERR_INVALID_ARGUMENT, "earlier wait with a bad handle");
  }
  return rc;
}

/* ---- Exodus files: a fresh definition per case, and one file with its
 * mesh put and step 1 begun, shared by the data cases ---- */

static pario_exodus_t ex_data;

static pario_exodus_t ex_fresh(const char *name, int blocks, int node_sets, int side_sets) {
  char path[600];
  path_of(path, sizeof path, name);
  pario_exodus_t x = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_create(world, path, NULL, &x) == PARIO_OK);
  CHECK(pario_exodus_init(x, "matrix", 3, 8, blocks, blocks, node_sets, side_sets) == PARIO_OK);
  return x;
}

/* A case's file, closed after the case's messages were checked (a close
 * would replace them): a definition the case left incomplete fails the
 * close on every rank (PARIO_ERR_STATE), and the handle goes anyway. */
static pario_exodus_t ex_pending = PARIO_EXODUS_NULL;

static void ex_drop(pario_exodus_t *x) {
  ex_pending = *x;
  *x = PARIO_EXODUS_NULL;
}

static void ex_close_pending(void) {
  if (ex_pending == PARIO_EXODUS_NULL) return;
  const int rc = pario_exodus_close(&ex_pending);
  CHECK(rc == PARIO_OK || rc == PARIO_ERR_STATE);
  CHECK(ex_pending == PARIO_EXODUS_NULL);
}

static int c_exodus_create(int bad) {
  char path[600];
  path_of(path, sizeof path, "create.e");
  pario_exodus_t x = PARIO_EXODUS_NULL;
  const int rc = pario_exodus_create(world, bad ? NULL : path, NULL, &x);
  if (rc == PARIO_OK) ex_drop(&x);
  return rc;
}

static int c_exodus_close(int bad) {
  pario_exodus_t x = ex_fresh("close.e", 0, 0, 0), none = PARIO_EXODUS_NULL;
  const int rc = pario_exodus_close(bad ? &none : &x);
  if (x != PARIO_EXODUS_NULL) ex_drop(&x); /* it lived on everywhere */
  return rc;
}

static int c_exodus_init(int bad) {
  char path[600];
  path_of(path, sizeof path, "init.e");
  pario_exodus_t x = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_create(world, path, NULL, &x) == PARIO_OK);
  const int rc = pario_exodus_init(x, bad ? NULL : "t", 3, 8, 1, 0, 0, 0);
  ex_drop(&x);
  return rc;
}

static int c_exodus_define_block(int bad) {
  pario_exodus_t x = ex_fresh("block.e", 1, 0, 0);
  const int rc = pario_exodus_define_block(x, bad ? 0 : 1, "b", "HEX8", 1, 8, 0);
  ex_drop(&x);
  return rc;
}

static int c_exodus_define_node_set(int bad) {
  pario_exodus_t x = ex_fresh("ns.e", 0, 1, 0);
  const int rc = pario_exodus_define_node_set(x, bad ? -5 : 1, "n", 1, 0);
  ex_drop(&x);
  return rc;
}

static int c_exodus_define_side_set(int bad) {
  pario_exodus_t x = ex_fresh("ss.e", 0, 0, 1);
  const int rc = pario_exodus_define_side_set(x, 1, "s", 1, bad ? -1 : 0);
  ex_drop(&x);
  return rc;
}

static int c_exodus_define_side_set_df(int bad) {
  pario_exodus_t x = ex_fresh("ssdf.e", 0, 0, 1);
  const int rc = pario_exodus_define_side_set_df(x, 1, "s", 1, bad ? -1 : 3);
  ex_drop(&x);
  return rc;
}

static int c_exodus_put_coord_names(int bad) {
  const char *names[3] = {"a", "b", "c"};
  pario_exodus_t x = ex_fresh("coord.e", 0, 0, 0);
  const int rc = pario_exodus_put_coord_names(x, bad ? NULL : names);
  ex_drop(&x);
  return rc;
}

static int c_exodus_put_qa(int bad) {
  const char *qa[4] = {"code", "1", "today", "now"};
  pario_exodus_t x = ex_fresh("qa.e", 0, 0, 0);
  const int rc = pario_exodus_put_qa(x, bad ? -1 : 1, qa);
  ex_drop(&x);
  return rc;
}

static int c_exodus_put_info(int bad) {
  const char *info[1] = {"line"};
  pario_exodus_t x = ex_fresh("info.e", 0, 0, 0);
  const int rc = pario_exodus_put_info(x, 1, bad ? NULL : info);
  ex_drop(&x);
  return rc;
}

static int c_exodus_define_variables(int bad) {
  const char *names[1] = {"v"};
  pario_exodus_t x = ex_fresh("vars.e", 0, 0, 0);
  const int rc = pario_exodus_define_variables(x, bad ? 7 : PARIO_EXODUS_GLOBAL, 1, names);
  ex_drop(&x);
  return rc;
}

static int c_exodus_put_truth_table(int bad) {
  const char *names[1] = {"v"};
  const int table[1] = {1};
  pario_exodus_t x = ex_fresh("truth.e", 1, 0, 0);
  CHECK(pario_exodus_define_block(x, 1, "b", "HEX8", 1, 8, 0) == PARIO_OK);
  CHECK(pario_exodus_define_variables(x, PARIO_EXODUS_ELEMENT, 1, names) == PARIO_OK);
  const int rc = pario_exodus_put_truth_table(x, 1, 1, bad ? NULL : table);
  ex_drop(&x);
  return rc;
}

static int c_exodus_end_define(int bad) {
  pario_exodus_t x = ex_fresh("end.e", 0, 0, 0);
  const int rc = pario_exodus_end_define(bad ? PARIO_EXODUS_NULL : x);
  ex_drop(&x);
  return rc;
}

/* ex_data: one HEX8 per rank with 8 nodes of its own, ids rank*8+1..; the
 * element's id rank+1; a node set and a side set with one entry per rank. */
static int64_t exd_nodes[8], exd_conn[8], exd_elem;
static double exd_xyz[3][8];

static pario_exodus_t make_exodus_data(const char *name) {
  char path[600];
  path_of(path, sizeof path, name);
  const char *g[1] = {"g"}, *n[1] = {"n"}, *e[1] = {"e"};
  pario_exodus_t x = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_create(world, path, NULL, &x) == PARIO_OK);
  CHECK(pario_exodus_init(x, "matrix data", 3, 8 * size, size, 1, 1, 2) == PARIO_OK);
  CHECK(pario_exodus_define_block(x, 1, "b", "HEX8", size, 8, 1) == PARIO_OK);
  CHECK(pario_exodus_define_node_set(x, 1, "ns", size, 0) == PARIO_OK);
  CHECK(pario_exodus_define_side_set(x, 1, "ss", size, 0) == PARIO_OK);
  CHECK(pario_exodus_define_side_set_df(x, 2, "ssdf", size, 3 * size) == PARIO_OK);
  CHECK(pario_exodus_define_variables(x, PARIO_EXODUS_GLOBAL, 1, g) == PARIO_OK);
  CHECK(pario_exodus_define_variables(x, PARIO_EXODUS_NODAL, 1, n) == PARIO_OK);
  CHECK(pario_exodus_define_variables(x, PARIO_EXODUS_ELEMENT, 1, e) == PARIO_OK);
  for (int k = 0; k < 8; ++k) {
    exd_nodes[k] = exd_conn[k] = rank * 8 + k + 1;
    exd_xyz[0][k] = k & 1;
    exd_xyz[1][k] = (k >> 1) & 1;
    exd_xyz[2][k] = rank + (k >> 2);
  }
  exd_elem = rank + 1;
  CHECK(pario_exodus_put_nodes(x, 8, exd_nodes, PARIO_TYPE_DOUBLE, exd_xyz[0], exd_xyz[1], exd_xyz[2]) == PARIO_OK);
  CHECK(pario_exodus_put_block(x, 1, 1, &exd_elem, exd_conn) == PARIO_OK);
  CHECK(pario_exodus_put_time(x, 1, 0.5) == PARIO_OK);
  return x;
}

/* put_nodes and put_block on a file where the call is right but for the
 * bad argument: the definition ended (so that the writer's own checks,
 * which join the entry agreement, run and pass on the other ranks), one
 * HEX8 on nodes 1..8 that every rank passes alike, nothing put yet
 * (put_block: the nodes put). On ex_data, where they are put already, the
 * other ranks would fail on their own ("already put"), not by the bad
 * rank. */
static pario_exodus_t ex_mesh_fresh(const char *name, int with_nodes) {
  pario_exodus_t x = ex_fresh(name, 1, 0, 0);
  CHECK(pario_exodus_define_block(x, 1, "b", "HEX8", 1, 8, 0) == PARIO_OK);
  CHECK(pario_exodus_end_define(x) == PARIO_OK);
  if (with_nodes) {
    const int64_t ids[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(pario_exodus_put_nodes(x, 8, ids, PARIO_TYPE_DOUBLE, exd_xyz[0], exd_xyz[1], exd_xyz[1]) == PARIO_OK);
  }
  return x;
}

static int c_exodus_put_nodes(int bad) {
  pario_exodus_t x = ex_mesh_fresh("nodes.e", 0);
  const int64_t ids[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const int rc = pario_exodus_put_nodes(x, 8, ids, bad ? 99 : PARIO_TYPE_DOUBLE, exd_xyz[0], exd_xyz[1], exd_xyz[1]);
  ex_drop(&x);
  return rc;
}

static int c_exodus_put_block(int bad) {
  pario_exodus_t x = ex_mesh_fresh("blockput.e", 1);
  const int64_t one = 1, conn[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const int rc = pario_exodus_put_block(x, 1, 1, bad ? NULL : &one, conn);
  ex_drop(&x);
  return rc;
}

static int c_exodus_put_attributes(int bad) {
  const double a = 1.5;
  return pario_exodus_put_attributes(ex_data, 1, bad ? 99 : PARIO_TYPE_DOUBLE, &a);
}

static int c_exodus_put_node_set(int bad) {
  return pario_exodus_put_node_set(ex_data, 1, bad ? -1 : 1, exd_nodes, PARIO_TYPE_DOUBLE, NULL);
}

static int c_exodus_put_side_set(int bad) {
  const int side = 1;
  return pario_exodus_put_side_set(ex_data, 1, 1, &exd_elem, bad ? NULL : &side, PARIO_TYPE_DOUBLE, NULL);
}

static const double exd_side_df[3] = {0.25, 0.5, 0.75};
static const int exd_side_df_count = 3;

static int c_exodus_put_side_set_df(int bad) {
  const int side = 2;
  return pario_exodus_put_side_set_df(ex_data, 2, 1, &exd_elem, &side, bad ? NULL : &exd_side_df_count,
                                      PARIO_TYPE_DOUBLE, exd_side_df);
}

static int c_exodus_put_time(int bad) { return pario_exodus_put_time(ex_data, bad ? 7 : 2, 1.0); }

static int c_exodus_put_global_values(int bad) {
  const double v[5] = {1, 2, 3, 4, 5};
  return pario_exodus_put_global_values(ex_data, 1, bad ? 5 : 1, PARIO_TYPE_DOUBLE, v);
}

static int c_exodus_put_nodal_values(int bad) {
  return pario_exodus_put_nodal_values(ex_data, 1, bad ? 9 : 1, PARIO_TYPE_DOUBLE, exd_xyz[0]);
}

static int c_exodus_put_element_values(int bad) {
  const double v = 2.5;
  return pario_exodus_put_element_values(ex_data, 1, 1, bad ? 99 : 1, PARIO_TYPE_DOUBLE, &v);
}

static int c_exodus_flush(int bad) { return pario_exodus_flush(bad ? PARIO_EXODUS_NULL : ex_data); }

/* ex_read: read.e, the same mesh with step 1 written, open for reading. */
static pario_exodus_t ex_read;

/* Opens read.e with `open` (pario_exodus_open or _open_append), then closes it. */
static int exodus_open_case(int bad, int (*open)(pario_group_t, const char *, const pario_exodus_options *,
                                                 pario_exodus_t *)) {
  char path[600];
  path_of(path, sizeof path, "read.e");
  pario_exodus_t x = PARIO_EXODUS_NULL;
  const int rc = open(world, path, NULL, bad ? NULL : &x);
  if (rc == PARIO_OK) CHECK(pario_exodus_close(&x) == PARIO_OK);
  return rc;
}

static int c_exodus_open(int bad) { return exodus_open_case(bad, pario_exodus_open); }

static int c_exodus_read_coords(int bad) {
  double x[8], y[8], z[8];
  return pario_exodus_read_coords(ex_read, 8 * rank, 8, bad ? 99 : PARIO_TYPE_DOUBLE, x, y, z);
}

static int c_exodus_read_node_ids(int bad) {
  int64_t ids[8];
  return pario_exodus_read_node_ids(bad ? PARIO_EXODUS_NULL : ex_read, 8 * rank, 8, ids);
}

static int c_exodus_read_block(int bad) {
  int64_t id, conn[8];
  return pario_exodus_read_block(ex_read, bad ? 77 : 1, rank, 1, &id, conn);
}

static int c_exodus_read_nodal_values(int bad) {
  double v[8];
  return pario_exodus_read_nodal_values(ex_read, 1, 1, 8 * rank, 8, bad ? 99 : PARIO_TYPE_DOUBLE, v);
}

static int c_exodus_read_attributes(int bad) {
  double v[1];
  return pario_exodus_read_attributes(ex_read, bad ? 77 : 1, rank, bad ? 1 : 0, PARIO_TYPE_DOUBLE, v);
}

static int c_exodus_read_global_values(int bad) {
  double v[2];
  return pario_exodus_read_global_values(ex_read, 1, bad ? 2 : 1, PARIO_TYPE_DOUBLE, v); /* the file has one */
}

static int c_exodus_read_element_values(int bad) {
  double v[1];
  return pario_exodus_read_element_values(bad ? ex_data : ex_read, 1, 1, 1, rank, 1, PARIO_TYPE_DOUBLE, v);
}

/* Appending to read.e (nothing is added: the cases only attach). */
static int c_exodus_open_append(int bad) { return exodus_open_case(bad, pario_exodus_open_append); }

static pario_exodus_t ex_appender(void) {
  char path[600];
  path_of(path, sizeof path, "read.e");
  pario_exodus_t x = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_open_append(world, path, NULL, &x) == PARIO_OK);
  return x;
}

static int c_exodus_attach_nodes(int bad) {
  pario_exodus_t x = ex_appender();
  const int rc = pario_exodus_attach_nodes(x, 8, bad ? NULL : exd_nodes);
  CHECK(pario_exodus_close(&x) == PARIO_OK);
  return rc;
}

static int c_exodus_attach_block(int bad) {
  pario_exodus_t x = ex_appender();
  const int rc = pario_exodus_attach_block(x, bad ? 77 : 1, 1, &exd_elem);
  CHECK(pario_exodus_close(&x) == PARIO_OK);
  return rc;
}

static int c_exodus_read_coords_by_id(int bad) {
  double x[8], y[8], z[8];
  return pario_exodus_read_coords_by_id(ex_read, 8, exd_nodes, bad ? 99 : PARIO_TYPE_DOUBLE, x, y, z);
}

static int c_exodus_read_block_by_id(int bad) {
  int64_t conn[8];
  return pario_exodus_read_block_by_id(ex_read, bad ? 77 : 1, 1, &exd_elem, conn);
}

static int c_exodus_read_nodal_values_by_id(int bad) {
  double v[8];
  const int64_t stray = 100000;
  return pario_exodus_read_nodal_values_by_id(ex_read, 1, 1, bad ? 1 : 8, bad ? &stray : exd_nodes,
                                              PARIO_TYPE_DOUBLE, v);
}

static int c_exodus_read_element_values_by_id(int bad) {
  double v;
  return pario_exodus_read_element_values_by_id(bad ? ex_data : ex_read, 1, 1, 1, 1, &exd_elem, PARIO_TYPE_DOUBLE,
                                                &v);
}

/* read.e's sets are defined, not written: empty ranges read. */
static int c_exodus_read_node_set(int bad) {
  int64_t ids[1];
  return pario_exodus_read_node_set(ex_read, bad ? 77 : 1, 0, 0, ids);
}

static int c_exodus_read_side_set(int bad) {
  int64_t ids[1], sides[1];
  return pario_exodus_read_side_set(ex_read, 1, 0, bad ? -1 : 0, ids, sides);
}

static int c_exodus_read_set_df(int bad) {
  double df[1];
  return pario_exodus_read_set_df(ex_read, bad ? 9 : PARIO_EXODUS_NODE_SET, 1, 0, 0, PARIO_TYPE_DOUBLE, df);
}

static int d_exodus_define_block(void) {
  pario_exodus_t x = ex_fresh("dblock.e", 1, 0, 0);
  const int rc = pario_exodus_define_block(x, 1, "b", "HEX8", 1 + rank, 8, 0);
  ex_drop(&x);
  return rc;
}

static int d_exodus_put_time(void) { return pario_exodus_put_time(ex_data, 2, 1.0 + rank); }

/* A decomposition of my_rows() of an 8 x ny array with hints h, freed. */
static int decomp_blocks(int64_t ny, const pario_decomp_hints *h) {
  const int64_t dims[2] = {8, ny};
  int64_t start[2], count[2];
  my_rows(start, count);
  pario_decomp_t d = PARIO_DECOMP_NULL;
  const int rc = pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 2, dims, PARIO_ORDER_C, 1, start, count, h, &d);
  if (rc == PARIO_OK) pario_decomp_free(&d);
  return rc;
}
static int d_decomp_create_blocks(void) { return decomp_blocks(6 + rank % 2, NULL); }
/* The 8th and 9th arguments of the call's digest: each is named alone. */
static int d_decomp_create_blocks_byte_order(void) {
  pario_decomp_hints h;
  pario_decomp_hints_init(&h);
  h.byte_order = rank % 2 ? PARIO_BYTE_ORDER_BIG : PARIO_BYTE_ORDER_LITTLE;
  return decomp_blocks(6, &h);
}
static int d_decomp_create_blocks_convert(void) {
  pario_decomp_hints h;
  pario_decomp_hints_init(&h);
  h.convert = rank % 2 ? PARIO_CONVERT_SENDER : PARIO_CONVERT_AGGREGATOR;
  return decomp_blocks(6, &h);
}

static int d_decomp_create_blocks_buffering(void) {
  pario_decomp_hints h;
  pario_decomp_hints_init(&h);
  h.buffering = rank % 2 ? PARIO_BUFFERING_NEVER : PARIO_BUFFERING_ALWAYS;
  return decomp_blocks(6, &h);
}

static int d_decomp_write(void) {
  return pario_decomp_write(shared_decomp, shared_sf, 8 * (rank % 2), PARIO_TYPE_DOUBLE, decomp_vals);
}


#if PARIO_TEST_HDF5
/* Datasets: one kept open (variables s and g, one state segment with a
 * rank-ordered section of s and a global-ordered one of g through the
 * decomposition above), one closed beside it for the opens. */
static pario_dataset_t shared_ds;

static int c_dataset_create(int bad) {
  char path[600];
  path_of(path, sizeof path, "dsx.h5");
  pario_dataset_t d = PARIO_DATASET_NULL;
  const int rc = pario_dataset_create(world, path, bad ? PARIO_MODE_READ : PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &d);
  if (rc == PARIO_OK) pario_dataset_close(&d);
  return rc;
}

/* A file per step; the bad rank asks for a file mode that is none. */
static int c_dataset_create_with(int bad) {
  char path[600];
  path_of(path, sizeof path, "dsm.h5");
  pario_dataset_create_options_t o = {bad ? 9 : PARIO_DATASET_FILE_PER_STEP, 0};
  pario_dataset_t d = PARIO_DATASET_NULL;
  const int rc = pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &d);
  if (rc == PARIO_OK) pario_dataset_close(&d);
  return rc;
}

static int c_dataset_open(int bad) {
  char path[600];
  path_of(path, sizeof path, "ds2.h5");
  pario_dataset_t d = PARIO_DATASET_NULL;
  const int rc = pario_dataset_open(world, path, bad ? 99 : PARIO_MODE_READ, &d);
  if (rc == PARIO_OK) pario_dataset_close(&d);
  return rc;
}

/* The bad rank's hints ask for a negative aggregator count. */
static int c_dataset_open_with(int bad) {
  char path[600];
  path_of(path, sizeof path, "ds2.h5");
  const pario_decomp_hints hints = {bad ? -1 : 1};
  const pario_dataset_open_options_t o = {0, &hints};
  pario_dataset_t d = PARIO_DATASET_NULL;
  const int rc = pario_dataset_open_with(world, path, PARIO_MODE_READ, &o, &d);
  if (rc == PARIO_OK) pario_dataset_close(&d);
  return rc;
}

static int c_dataset_close(int bad) {
  char path[600];
  path_of(path, sizeof path, "dsc.h5");
  pario_dataset_t d = PARIO_DATASET_NULL, none = PARIO_DATASET_NULL;
  CHECK(pario_dataset_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &d) == PARIO_OK);
  const int rc = pario_dataset_close(bad ? &none : &d);
  if (d != PARIO_DATASET_NULL) CHECK(pario_dataset_close(&d) == PARIO_OK); /* it lived on everywhere */
  return rc;
}

static int c_dataset_segment_append(int bad) {
  return pario_dataset_segment_append(shared_ds, bad ? 9 : PARIO_SEGMENT_STATE, 100, 100.0, NULL);
}

static int c_dataset_truncate(int bad) { return pario_dataset_truncate(shared_ds, bad ? 99 : 0); }

static int c_dataset_variable_register(int bad) {
  int v = 0;
  return pario_dataset_variable_register(shared_ds, bad ? "a/b" : "t", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE,
                                         &v);
}

static int c_dataset_section_info(int bad) {
  pario_dataset_section_t info;
  return pario_dataset_section_info(shared_ds, 0, 0, 0, bad ? NULL : &info);
}

static int c_dataset_write_ranked(int bad) {
  double x = 1;
  return pario_dataset_write_ranked(shared_ds, 0, 1, bad ? -1 : 1, &x);
}

static int c_dataset_read_items(int bad) {
  double x;
  return pario_dataset_read_items(shared_ds, 0, 0, bad ? -1 : 0, rank == 0, &x);
}

static int c_dataset_write_decomp(int bad) {
  return pario_dataset_write_decomp(shared_ds, 0, 0, bad ? PARIO_DECOMP_NULL : shared_decomp, decomp_vals);
}

static int c_dataset_read_decomp(int bad) {
  double back[48];
  return pario_dataset_read_decomp(shared_ds, 0, 1, bad ? PARIO_DECOMP_NULL : shared_decomp, back);
}

static int c_dataset_write_array(int bad) {
  return pario_dataset_write_array(shared_ds, 0, 0, bad ? PARIO_ARRAY_NULL : shared_array);
}

static int c_dataset_read_array(int bad) {
  return pario_dataset_read_array(shared_ds, 0, 1, bad ? PARIO_ARRAY_NULL : shared_array);
}

static int c_dataset_info_put(int bad) {
  const double x = 2.5;
  return pario_dataset_info_put(shared_ds, PARIO_INFO_DATASET, 0, "x", bad ? 99 : PARIO_TYPE_DOUBLE, 1, &x);
}

static int c_dataset_info_get(int bad) {
  double x;
  return pario_dataset_info_get(shared_ds, bad ? 9 : PARIO_INFO_SEGMENT, 0, "e", PARIO_TYPE_DOUBLE, 1, &x, NULL,
                                NULL);
}

static int c_dataset_info_name(int bad) {
  int64_t n = 0;
  return pario_dataset_info_name(shared_ds, bad ? 9 : PARIO_INFO_DATASET, 0, 0, NULL, 0, &n);
}

static int d_dataset_create(void) {
  char path[600], name[32];
  snprintf(name, sizeof name, "dsd%d.h5", rank);
  path_of(path, sizeof path, name);
  pario_dataset_t d = PARIO_DATASET_NULL;
  const int rc = pario_dataset_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &d);
  if (rc == PARIO_OK) pario_dataset_close(&d);
  return rc;
}

/* Steps per file that differ between ranks. */
static int d_dataset_create_with(void) {
  char path[600];
  path_of(path, sizeof path, "dsmd.h5");
  pario_dataset_create_options_t o = {PARIO_DATASET_STEPS_PER_FILE, 1 + rank};
  pario_dataset_t d = PARIO_DATASET_NULL;
  const int rc = pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &d);
  if (rc == PARIO_OK) pario_dataset_close(&d);
  return rc;
}

/* Sync policies that differ between ranks. */
static int d_dataset_create_sync(void) {
  char path[600];
  path_of(path, sizeof path, "dssd.h5");
  pario_dataset_create_options_t o = {PARIO_DATASET_ONE_FILE, 0,
                                      rank == 0 ? PARIO_DATASET_SYNC_FSYNC : PARIO_DATASET_SYNC_WRITE};
  pario_dataset_t d = PARIO_DATASET_NULL;
  const int rc = pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &d);
  if (rc == PARIO_OK) pario_dataset_close(&d);
  return rc;
}

/* Hints that differ between ranks: the aggregator buffer, the way. */
static int d_dataset_create_hints(void) {
  char path[600];
  path_of(path, sizeof path, "dshd.h5");
  const pario_decomp_hints hints = {.buffer_size = 64 << (rank % 2)};
  pario_dataset_create_options_t o = {PARIO_DATASET_ONE_FILE, 0, 0, &hints};
  pario_dataset_t d = PARIO_DATASET_NULL;
  const int rc = pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &d);
  if (rc == PARIO_OK) pario_dataset_close(&d);
  return rc;
}

static int d_dataset_open_with(void) {
  char path[600];
  path_of(path, sizeof path, "ds2.h5");
  const pario_decomp_hints hints = {.buffering = rank % 2 ? PARIO_BUFFERING_NEVER : PARIO_BUFFERING_ALWAYS};
  const pario_dataset_open_options_t o = {0, &hints};
  pario_dataset_t d = PARIO_DATASET_NULL;
  const int rc = pario_dataset_open_with(world, path, PARIO_MODE_READ, &o, &d);
  if (rc == PARIO_OK) pario_dataset_close(&d);
  return rc;
}

static int d_dataset_segment_append(void) {
  return pario_dataset_segment_append(shared_ds, PARIO_SEGMENT_STATE, 100 + rank, 100.0, NULL);
}

static int d_dataset_info_put(void) {
  const double x[2] = {1, 2};
  return pario_dataset_info_put(shared_ds, PARIO_INFO_DATASET, 0, "x", PARIO_TYPE_DOUBLE, 1 + rank % 2, x);
}

static void make_shared_dataset(void) {
  char path[600];
  path_of(path, sizeof path, "ds2.h5");
  CHECK(pario_dataset_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &shared_ds) == PARIO_OK);
  CHECK(pario_dataset_close(&shared_ds) == PARIO_OK);
  path_of(path, sizeof path, "ds.h5");
  CHECK(pario_dataset_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &shared_ds) == PARIO_OK);
  int v = 0;
  CHECK(pario_dataset_variable_register(shared_ds, "s", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK);
  CHECK(pario_dataset_variable_register(shared_ds, "g", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK);
  CHECK(pario_dataset_segment_append(shared_ds, PARIO_SEGMENT_STATE, 0, 0.0, NULL) == PARIO_OK);
  const double mine = 10.0 + rank, e = 1.5;
  CHECK(pario_dataset_write_ranked(shared_ds, 0, 0, 1, &mine) == PARIO_OK);
  CHECK(pario_dataset_write_decomp(shared_ds, 0, 1, shared_decomp, decomp_vals) == PARIO_OK);
  CHECK(pario_dataset_info_put(shared_ds, PARIO_INFO_SEGMENT, 0, "e", PARIO_TYPE_DOUBLE, 1, &e) == PARIO_OK);
}

/* The dataset survived every case: its segment and sections as written. */
static void check_shared_dataset(void) {
  int64_t n = 0;
  CHECK(pario_dataset_segment_count(shared_ds, &n) == PARIO_OK && n == 1);
  double back[48], mine = 0;
  CHECK(pario_dataset_read_items(shared_ds, 0, 0, rank, 1, &mine) == PARIO_OK && mine == 10.0 + rank);
  CHECK(pario_dataset_read_decomp(shared_ds, 0, 1, shared_decomp, back) == PARIO_OK);
  int64_t start[2], count[2];
  const int64_t k = my_rows(start, count);
  int good = 1;
  for (int64_t i = 0; i < k; ++i) good &= back[i] == decomp_vals[i];
  CHECK(good);
  int v = 0;
  CHECK(pario_dataset_variable_count(shared_ds, &v) == PARIO_OK && v == 2);
  CHECK(pario_dataset_close(&shared_ds) == PARIO_OK);
}

/* Wave-function files: one kept open (2 vectors over 8 x size states,
 * vector 0 written), one closed beside it for the opens. */
static pario_wavefunction_t shared_wf;
static const pario_wavefunction_basis_t wf_basis0 = {8, 2, 2, 2, 1, 0, 15.0};

static pario_wavefunction_basis_t wf_basis(void) {
  pario_wavefunction_basis_t b = wf_basis0;
  b.dimension = 8 * size;
  return b;
}

static double wf_vals[8];

/* Creates (nvectors, the transfer) or opens (nvectors 0: wf2.h5 with
 * mode) a file and closes it again if that worked. */
static int wf_made(const char *name, int nvectors, int mode, int transfer) {
  char path[600];
  path_of(path, sizeof path, name);
  const pario_wavefunction_basis_t b = wf_basis();
  pario_wavefunction_t w = PARIO_WAVEFUNCTION_NULL;
  const int rc = nvectors ? pario_wavefunction_create(world, path, mode, &b, nvectors, transfer, &w)
                          : pario_wavefunction_open(world, path, mode, transfer, &w);
  if (rc == PARIO_OK) pario_wavefunction_close(&w);
  return rc;
}

static const int wf_truncate = PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE;

static int c_wavefunction_create(int bad) { return wf_made("wfc.h5", bad ? -1 : 2, wf_truncate, 0); }

static int c_wavefunction_open(int bad) { return wf_made("wf2.h5", 0, bad ? 99 : PARIO_MODE_READ, 0); }

/* Creates (nvectors) or opens (0: wf2.h5, read-only) a file through the
 * aggregators with hints, and closes it again if that worked. */
static int wf_made_with(const char *name, int nvectors, const pario_decomp_hints *hints) {
  char path[600];
  path_of(path, sizeof path, name);
  const pario_wavefunction_basis_t b = wf_basis();
  const pario_wavefunction_options_t o = {PARIO_WF_TRANSFER_AGGREGATORS, hints};
  pario_wavefunction_t w = PARIO_WAVEFUNCTION_NULL;
  const int rc = nvectors ? pario_wavefunction_create_with(world, path, wf_truncate, &b, nvectors, &o, &w)
                          : pario_wavefunction_open_with(world, path, PARIO_MODE_READ, &o, &w);
  if (rc == PARIO_OK) pario_wavefunction_close(&w);
  return rc;
}

/* The bad rank's hints: a buffering that is none; a negative buffer. */
static int c_wavefunction_create_with(int bad) {
  const pario_decomp_hints hints = {.buffering = bad ? 9 : PARIO_BUFFERING_ALWAYS};
  return wf_made_with("wfc.h5", 2, &hints);
}

static int c_wavefunction_open_with(int bad) {
  const pario_decomp_hints hints = {.buffer_size = bad ? -1 : 64};
  return wf_made_with("wf2.h5", 0, &hints);
}

static int c_wavefunction_close(int bad) {
  char path[600];
  path_of(path, sizeof path, "wfc.h5");
  const pario_wavefunction_basis_t b = wf_basis();
  pario_wavefunction_t w = PARIO_WAVEFUNCTION_NULL, none = PARIO_WAVEFUNCTION_NULL;
  CHECK(pario_wavefunction_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &b, 1, 0, &w) == PARIO_OK);
  const int rc = pario_wavefunction_close(bad ? &none : &w);
  if (w != PARIO_WAVEFUNCTION_NULL) CHECK(pario_wavefunction_close(&w) == PARIO_OK); /* it lived on everywhere */
  return rc;
}

static int c_wavefunction_write(int bad) {
  return pario_wavefunction_write(shared_wf, 1, bad ? -1 : 8 * rank, 8, wf_vals);
}

static int c_wavefunction_read(int bad) {
  double back[8];
  return pario_wavefunction_read(shared_wf, 0, 8 * rank, bad ? -1 : 8, back);
}

static int c_wavefunction_set_observables(int bad) {
  return pario_wavefunction_set_observables(shared_wf, bad ? 99 : 0, -1.0, 2.0, 0.0);
}

static int d_wavefunction_create(void) {
  char name[32];
  snprintf(name, sizeof name, "wfd%d.h5", rank);
  return wf_made(name, 2, wf_truncate, 0);
}

static int d_wavefunction_open(void) { return wf_made("wf2.h5", 0, PARIO_MODE_READ, 1 + rank % 2); }

static int d_wavefunction_create_with(void) {
  const int ranks[1] = {rank % 2};
  const pario_decomp_hints hints = {.aggregators = 1, .aggregator_ranks = ranks};
  return wf_made_with("wfc.h5", 2, &hints);
}

static int d_wavefunction_open_with(void) {
  const pario_decomp_hints hints = {.align = 64 * (1 + rank % 2)};
  return wf_made_with("wf2.h5", 0, &hints);
}

static int d_wavefunction_set_observables(void) {
  return pario_wavefunction_set_observables(shared_wf, 0, -1.0 - rank % 2, 2.0, 0.0);
}

static void make_shared_wavefunction(void) {
  char path[600];
  const pario_wavefunction_basis_t b = wf_basis();
  for (int i = 0; i < 8; ++i) wf_vals[i] = 100.0 * rank + i;
  path_of(path, sizeof path, "wf2.h5");
  CHECK(pario_wavefunction_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &b, 1, 0, &shared_wf) ==
        PARIO_OK);
  CHECK(pario_wavefunction_close(&shared_wf) == PARIO_OK);
  path_of(path, sizeof path, "wf.h5");
  CHECK(pario_wavefunction_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &b, 2, 0, &shared_wf) ==
        PARIO_OK);
  CHECK(pario_wavefunction_write(shared_wf, 0, 8 * rank, 8, wf_vals) == PARIO_OK);
}

/* The wave-function file survived every case: vector 0 as written, its
 * observables unset, vector 1 still unwritten (every write failed). */
static void check_shared_wavefunction(void) {
  double back[8], e = 0;
  int written = 1;
  CHECK(pario_wavefunction_read(shared_wf, 0, 8 * rank, 8, back) == PARIO_OK);
  int good = 1;
  for (int i = 0; i < 8; ++i) good &= back[i] == wf_vals[i];
  CHECK(good);
  CHECK(pario_wavefunction_observables(shared_wf, 0, &e, NULL, NULL, NULL) == PARIO_OK && e != e);
  CHECK(pario_wavefunction_observables(shared_wf, 1, NULL, NULL, NULL, &written) == PARIO_OK && written == 0);
  CHECK(pario_wavefunction_close(&shared_wf) == PARIO_OK);
}
#endif

/* ---- rows whose arguments differ between ranks ---- */

static int d_group_sum(void) {
  double x[4] = {0};
  return pario_group_sum(world, PARIO_TYPE_DOUBLE, x, (size_t)(2 + rank % 2));
}
static int d_group_broadcast(void) {
  char b[4] = "ab";
  return pario_group_broadcast(world, b, sizeof b, rank % 2);
}
static int d_array_create(void) {
  const int64_t dims[2] = {8 + rank % 2, 6};
  pario_array_t a = PARIO_ARRAY_NULL;
  const int rc = pario_array_create(world, "x", PARIO_TYPE_DOUBLE, 2, dims, &a);
  if (rc == PARIO_OK) pario_array_destroy(&a);
  return rc;
}
static int d_array_fill(void) {
  const double v = rank % 2;
  return pario_array_fill(shared_array, &v);
}
static int d_disk_array_create(void) {
  const int64_t dims[2] = {8, 6};
  char path[600];
  snprintf(path, sizeof path, "%s/da_rank%d", dir, rank % 2);
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  const int rc = pario_disk_array_create(world, path, PARIO_TYPE_DOUBLE, 2, dims, NULL, &d);
  if (rc == PARIO_OK) pario_disk_array_close(&d);
  return rc;
}
static int d_disk_array_create_mode(void) {
  const int64_t dims[2] = {8, 6};
  char path[600];
  path_of(path, sizeof path, "da_mode");
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  const int rc = pario_disk_array_create_mode(world, path, PARIO_TYPE_DOUBLE, 2, dims, NULL,
                                              PARIO_MODE_CREATE | (rank % 2 ? PARIO_MODE_TRUNCATE : 0), &d);
  if (rc == PARIO_OK) drop_disk_array(&d, "da_mode");
  return rc;
}
static int d_disk_array_open(void) {
  char path[600];
  path_of(path, sizeof path, "da");
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  const int rc = pario_disk_array_open(world, path, rank % 2 ? PARIO_MODE_RDWR : PARIO_MODE_READ, &d);
  if (rc == PARIO_OK) pario_disk_array_close(&d);
  return rc;
}
static int d_disk_array_set_attribute(void) {
  return pario_disk_array_set_attribute(shared_disk_array, "units", rank % 2 ? "eV" : "hartree");
}
static int d_disk_array_write(void) {
  const int64_t at[2] = {0, rank % 2}, count[2] = {8, 5};
  return pario_disk_array_write(shared_disk_array, shared_array, zero2, count, at);
}
static int d_shared_file_create(void) {
  char path[600];
  path_of(path, sizeof path, "sf");
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  const int rc = pario_shared_file_create(world, path, 1000 + rank % 2, -1, -1, &f);
  if (rc == PARIO_OK) pario_shared_file_destroy(&f);
  return rc;
}
/* Ranks in different collectives: the bad one closes, the others write. */
static int d_close_while_others_write(void) {
  if (rank % 2) return pario_disk_array_close(&shared_disk_array);
  return pario_disk_array_write(shared_disk_array, shared_array, zero2, count2, zero2);
}

#define CASE(name) {"pario_" #name, c_##name}
static const struct {
  const char *name;
  int (*call)(int bad);
} cases[] = {
    CASE(group_split),         CASE(group_from_fortran_comm), CASE(group_barrier),
    CASE(group_sum),           CASE(group_broadcast),         CASE(array_create),
    CASE(array_create_irregular), CASE(array_create_columns), CASE(array_destroy),
    CASE(array_fill),          CASE(array_zero),              CASE(array_scale),
    CASE(array_copy),          CASE(array_sync),              CASE(counter_create),
    CASE(counter_destroy),     CASE(counter_reset),           CASE(shared_file_create),
    CASE(shared_file_destroy), CASE(shared_file_close),       CASE(disk_array_create),
    CASE(disk_array_open),     CASE(disk_array_close),        CASE(disk_array_delete),
    CASE(disk_array_set_attribute), CASE(disk_array_write),   CASE(disk_array_read),
    CASE(disk_array_iwrite),   CASE(disk_array_iread),        CASE(disk_array_iwrite_ops),
    CASE(disk_array_iread_ops),      CASE(disk_array_create_mode),  CASE(disk_array_sync),
    CASE(disk_array_write_pieces),   CASE(decomp_create_blocks),    CASE(decomp_create_indices),
    CASE(decomp_create_keys),        CASE(decomp_free),             CASE(decomp_write),
    CASE(decomp_read),               CASE(decomp_iwrite),           CASE(decomp_iread),
    /* the same calls on a decomposition with collective buffering off */
    {"pario_decomp_write, direct", c_decomp_write_direct}, {"pario_decomp_read, direct", c_decomp_read_direct},
    {"pario_decomp_iwrite, direct", c_decomp_iwrite_direct}, {"pario_decomp_iread, direct", c_decomp_iread_direct},
    /* waits on collective requests, with a bad handle on one rank */
    {"pario_request_wait, null handle", c_request_wait_null},
    {"pario_request_wait, stale handle", c_request_wait_stale},
    {"pario_request_waitall, one null entry", c_request_waitall},
    CASE(shared_file_open),
    CASE(exodus_create),             CASE(exodus_close),            CASE(exodus_init),
    CASE(exodus_define_block),       CASE(exodus_define_node_set),  CASE(exodus_define_side_set),
    CASE(exodus_define_side_set_df), CASE(exodus_put_side_set_df),
    CASE(exodus_put_coord_names),    CASE(exodus_put_qa),           CASE(exodus_put_info),
    CASE(exodus_define_variables),   CASE(exodus_put_truth_table),  CASE(exodus_end_define),
    CASE(exodus_put_nodes),          CASE(exodus_put_block),        CASE(exodus_put_attributes),
    CASE(exodus_put_node_set),       CASE(exodus_put_side_set),     CASE(exodus_put_time),
    CASE(exodus_put_global_values),  CASE(exodus_put_nodal_values), CASE(exodus_put_element_values),
    CASE(exodus_flush),              CASE(exodus_open),             CASE(exodus_read_coords),
    CASE(exodus_read_node_ids),      CASE(exodus_read_block),       CASE(exodus_read_nodal_values),
    CASE(exodus_read_global_values),  CASE(exodus_read_attributes),
    CASE(exodus_read_element_values),  CASE(exodus_open_append),      CASE(exodus_attach_nodes),
    CASE(exodus_attach_block),         CASE(exodus_read_coords_by_id), CASE(exodus_read_block_by_id),
    CASE(exodus_read_nodal_values_by_id), CASE(exodus_read_element_values_by_id),
    CASE(exodus_read_node_set),        CASE(exodus_read_side_set),     CASE(exodus_read_set_df),
#if PARIO_TEST_HDF5
    CASE(dataset_create),            CASE(dataset_open),            CASE(dataset_close),
    CASE(dataset_segment_append),    CASE(dataset_truncate),        CASE(dataset_variable_register),
    CASE(dataset_section_info),      CASE(dataset_write_ranked),    CASE(dataset_read_items),
    CASE(dataset_write_decomp),      CASE(dataset_read_decomp),     CASE(dataset_write_array),
    CASE(dataset_read_array),        CASE(dataset_info_put),        CASE(dataset_info_get),
    CASE(dataset_info_name),         CASE(dataset_create_with),     CASE(dataset_open_with),
    CASE(wavefunction_create),       CASE(wavefunction_open),       CASE(wavefunction_close),
    CASE(wavefunction_create_with),  CASE(wavefunction_open_with),
    CASE(wavefunction_write),        CASE(wavefunction_read),       CASE(wavefunction_set_observables),
#endif
};

static const struct {
  const char *name;
  int (*call)(void);
  const char *expect;
} differing[] = {
    {"pario_group_sum", d_group_sum, "(count)"},
    {"pario_group_broadcast", d_group_broadcast, "(root)"},
    {"pario_array_create", d_array_create, "(dims)"},
    {"pario_array_fill", d_array_fill, "(value)"},
    {"pario_disk_array_create", d_disk_array_create, "(path)"},
    {"pario_disk_array_create_mode", d_disk_array_create_mode, "(mode)"},
    {"pario_disk_array_open", d_disk_array_open, "(mode)"},
    {"pario_disk_array_set_attribute", d_disk_array_set_attribute, "(value)"},
    {"pario_disk_array_write", d_disk_array_write, "(disk_start)"},
    {"pario_shared_file_create", d_shared_file_create, "(hard_limit)"},
    {"pario_decomp_create_blocks", d_decomp_create_blocks, "(dims)"},
    {"pario_decomp_create_blocks", d_decomp_create_blocks_byte_order, "(byte_order)"},
    {"pario_decomp_create_blocks", d_decomp_create_blocks_convert, "(convert)"},
    {"pario_decomp_create_blocks", d_decomp_create_blocks_buffering, "(buffering)"},
    {"pario_decomp_write", d_decomp_write, "(offset)"},
    {"pario_exodus_define_block", d_exodus_define_block, "(numbers)"},
    {"pario_exodus_put_time", d_exodus_put_time, "(time)"},
#if PARIO_TEST_HDF5
    {"pario_dataset_create", d_dataset_create, "(path)"},
    {"pario_dataset_create_with", d_dataset_create_with, "(steps_per_file)"},
    {"pario_dataset_create_with", d_dataset_create_sync, "(sync)"},
    {"pario_dataset_create_with", d_dataset_create_hints, "(buffer_size)"},
    {"pario_dataset_open_with", d_dataset_open_with, "(buffering)"},
    {"pario_dataset_segment_append", d_dataset_segment_append, "(time_index)"},
    {"pario_dataset_info_put", d_dataset_info_put, "(count)"},
    {"pario_wavefunction_create", d_wavefunction_create, "(path)"},
    {"pario_wavefunction_open", d_wavefunction_open, "(transfer)"},
    {"pario_wavefunction_create_with", d_wavefunction_create_with, "(aggregator_ranks)"},
    {"pario_wavefunction_open_with", d_wavefunction_open_with, "(align)"},
    {"pario_wavefunction_set_observables", d_wavefunction_set_observables, "(observables)"},
#endif
    {"close on some ranks, write on others", d_close_while_others_write, "different collectives"},
};

static void expect_all_failed(const char *name, int bad_rank, int rc) {
  char msg[512], want[32];
  pario_last_error_message(msg, sizeof msg);
  snprintf(want, sizeof want, "rank %d failed", bad_rank);
  const int good = rank == bad_rank ? rc != PARIO_OK && rc != PARIO_ERR_REMOTE
                                    : rc == PARIO_ERR_REMOTE && strstr(msg, want) != NULL;
  if (!good) {
    fprintf(stderr, "rank %d: %s with rank %d bad: status %d (%s), message '%s'\n", rank, name, bad_rank, rc,
            pario_status_string(rc), msg);
  }
  CHECK(good);
}

int main(void) {
  signal(SIGALRM, watchdog);
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&rank);
  pario_world_size(&size);
  CHECK(pario_group_world(&world) == PARIO_OK);
  job_dir(world, "matrix", dir, sizeof dir);
  shared_array = make_array();
  shared_disk_array = make_disk_array("da");
  shared_decomp = make_decomp(0);
  shared_decomp_direct = make_decomp(PARIO_BUFFERING_NEVER);
  ex_data = make_exodus_data("data.e");
  {
    pario_exodus_t w = make_exodus_data("read.e");
    CHECK(pario_exodus_put_nodal_values(w, 1, 1, PARIO_TYPE_DOUBLE, exd_xyz[2]) == PARIO_OK);
    CHECK(pario_exodus_close(&w) == PARIO_OK);
    char path[600];
    path_of(path, sizeof path, "read.e");
    CHECK(pario_exodus_open(world, path, NULL, &ex_read) == PARIO_OK);
  }
  {
    char path[600];
    path_of(path, sizeof path, "decomp.dat");
    CHECK(pario_shared_file_create(world, path, -1, -1, -1, &shared_sf) == PARIO_OK);
    for (int i = 0; i < 48; ++i) decomp_vals[i] = 1000.0 + i;
    CHECK(pario_decomp_write(shared_decomp, shared_sf, 0, PARIO_TYPE_DOUBLE, decomp_vals) == PARIO_OK);
  }
#if PARIO_TEST_HDF5
  make_shared_dataset();
  make_shared_wavefunction();
#endif

  int rows = 0;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    for (int bad = 0; bad < size; ++bad) {
      current = cases[c].name;
      alarm(kWatchdogSeconds);
      expect_all_failed(cases[c].name, bad, cases[c].call(rank == bad));
      ex_close_pending();
      CHECK(pario_group_barrier(world) == PARIO_OK);  /* the job goes on */
      alarm(0);
      ++rows;
    }
  }
  if (size > 1) {
    for (size_t c = 0; c < sizeof differing / sizeof differing[0]; ++c) {
      current = differing[c].name;
      alarm(kWatchdogSeconds);
      CHECK_FAILS(differing[c].call(), PARIO_ERR_INVALID_ARGUMENT, differing[c].expect);
      ex_close_pending();
      CHECK(pario_group_barrier(world) == PARIO_OK);
      alarm(0);
      ++rows;
    }
  }
  /* A handle one rank already destroyed, on a split group (not the world):
   * that rank still finds the group, so the others do not wait. */
  {
    pario_group_t half = PARIO_GROUP_NULL;
    CHECK(pario_group_split(world, rank % 2, &half) == PARIO_OK);
    int hrank = 0;
    pario_group_rank(half, &hrank);
    const int64_t dims[2] = {4, 4};
    pario_array_t old = PARIO_ARRAY_NULL, cur = PARIO_ARRAY_NULL;
    CHECK(pario_array_create(half, "old", PARIO_TYPE_DOUBLE, 2, dims, &old) == PARIO_OK);
    pario_array_t stale = old;
    CHECK(pario_array_destroy(&old) == PARIO_OK);
    CHECK(pario_array_create(half, "cur", PARIO_TYPE_DOUBLE, 2, dims, &cur) == PARIO_OK);
    current = "stale handle on a split group";
    alarm(kWatchdogSeconds);
    const int rc = pario_array_sync(hrank == 0 ? stale : cur);
    alarm(0);
    if (hrank == 0) CHECK(rc == PARIO_ERR_INVALID_ARGUMENT);
    else CHECK(rc == PARIO_ERR_REMOTE);
    CHECK(pario_array_destroy(&cur) == PARIO_OK);
    CHECK(pario_group_free(&half) == PARIO_OK);
    CHECK(pario_group_barrier(world) == PARIO_OK);
  }
  /* The disk array survived: every rank still has it open and usable. */
  CHECK(pario_disk_array_write(shared_disk_array, shared_array, zero2, count2, zero2) == PARIO_OK);
  drop_disk_array(&shared_disk_array, "da");
#if PARIO_TEST_HDF5
  check_shared_dataset();
  check_shared_wavefunction();
#endif
  /* The decomposition and its file survived too. */
  {
    double back[48];
    int64_t start[2], count[2];
    const int64_t mine = my_rows(start, count);
    CHECK(pario_decomp_read(shared_decomp, shared_sf, 0, PARIO_TYPE_DOUBLE, back) == PARIO_OK);
    int good = 1;
    for (int64_t k = 0; k < mine; ++k) good &= back[k] == decomp_vals[k];
    CHECK(good);
    CHECK(pario_decomp_free(&shared_decomp) == PARIO_OK);
    for (int64_t k = 0; k < mine; ++k) back[k] = -1;
    CHECK(pario_decomp_read(shared_decomp_direct, shared_sf, 0, PARIO_TYPE_DOUBLE, back) == PARIO_OK);
    good = 1;
    for (int64_t k = 0; k < mine; ++k) good &= back[k] == decomp_vals[k];
    CHECK(good);
    CHECK(pario_decomp_free(&shared_decomp_direct) == PARIO_OK);
    CHECK(pario_shared_file_destroy(&shared_sf) == PARIO_OK);
  }
  /* The Exodus file survived every failed call: step 1 takes its values,
   * the mesh's sets go in, and it closes whole. */
  {
    const double v[8] = {1, 2, 3, 4, 5, 6, 7, 8}, g = 3.0;
    const int side = 5;
    CHECK(pario_exodus_put_nodal_values(ex_data, 1, 1, PARIO_TYPE_DOUBLE, v) == PARIO_OK);
    CHECK(pario_exodus_put_global_values(ex_data, 1, 1, PARIO_TYPE_DOUBLE, &g) == PARIO_OK);
    CHECK(pario_exodus_put_element_values(ex_data, 1, 1, 1, PARIO_TYPE_DOUBLE, v) == PARIO_OK);
    CHECK(pario_exodus_put_attributes(ex_data, 1, PARIO_TYPE_DOUBLE, v) == PARIO_OK);
    CHECK(pario_exodus_put_node_set(ex_data, 1, 1, exd_nodes, PARIO_TYPE_DOUBLE, NULL) == PARIO_OK);
    CHECK(pario_exodus_put_side_set(ex_data, 1, 1, &exd_elem, &side, PARIO_TYPE_DOUBLE, NULL) == PARIO_OK);
    CHECK(pario_exodus_put_side_set_df(ex_data, 2, 1, &exd_elem, &side, &exd_side_df_count, PARIO_TYPE_DOUBLE,
                                       exd_side_df) == PARIO_OK);
    CHECK(pario_exodus_flush(ex_data) == PARIO_OK);
    CHECK(pario_exodus_close(&ex_data) == PARIO_OK);
    /* And the file read survived too: this rank's nodes as written. */
    double z[8];
    CHECK(pario_exodus_read_nodal_values(ex_read, 1, 1, 8 * rank, 8, PARIO_TYPE_DOUBLE, z) == PARIO_OK);
    int same = 1;
    for (int k = 0; k < 8; ++k) same &= z[k] == exd_xyz[2][k];
    CHECK(same);
    CHECK(pario_exodus_close(&ex_read) == PARIO_OK);
  }
  CHECK(pario_array_destroy(&shared_array) == PARIO_OK);
  job_dir_remove(world, dir);
  CHECK(pario_finalize() == PARIO_OK);
  /* After finalize a collective is refused, not an abort inside MPI. */
  CHECK_FAILS(pario_group_barrier(world), PARIO_ERR_STATE, "pario_init");
  if (rank == 0) printf("%d rows at %d ranks\n", rows, size);
  return check_summary("capi_collective_matrix_test");
}
