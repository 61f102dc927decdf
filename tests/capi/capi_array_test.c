/* The array, group, counter and request API from C, at several rank
 * counts: the same scenario the Fortran and Python smoke tests run. */
#include <complex.h>
#include <stdlib.h>

#include "check.h"

static pario_group_t world;
static int rank, size;

static void sections_and_strides(void) {
  const int64_t dims[2] = {17, 9};
  pario_array_t a = PARIO_ARRAY_NULL;
  CHECK(pario_array_create(world, "c_api", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  /* Rank r puts rows r, r+size, ... */
  for (int64_t i = rank; i < 17; i += size) {
    double row[9];
    for (int j = 0; j < 9; ++j) row[j] = 100.0 * i + j;
    const int64_t start[2] = {i, 0}, count[2] = {1, 9};
    CHECK(pario_array_put(a, start, count, row, NULL) == PARIO_OK);
  }
  CHECK(pario_array_sync(a) == PARIO_OK);
  /* A 5x4 section into a buffer with leading dimension 6. */
  double buf[5 * 6];
  for (int k = 0; k < 30; ++k) buf[k] = -1;
  const int64_t start[2] = {10, 3}, count[2] = {5, 4}, ld[1] = {6};
  CHECK(pario_array_get(a, start, count, buf, ld) == PARIO_OK);
  int good = 1;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 6; ++j) good &= buf[i * 6 + j] == (j < 4 ? 100.0 * (10 + i) + 3 + j : -1);
  CHECK(good);
  CHECK(pario_array_sync(a) == PARIO_OK); /* everyone has read before anyone adds */
  /* Nonblocking accumulate with a scale factor, then a mixed waitall. */
  const double ones[5 * 4] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const double two = 2;
  pario_request_t reqs[2];
  CHECK(pario_array_iacc(a, start, count, ones, NULL, &two, &reqs[0]) == PARIO_OK);
  double corner = 0;
  const int64_t c0[2] = {0, 0}, c1[2] = {1, 1};
  CHECK(pario_array_iget(a, c0, c1, &corner, NULL, &reqs[1]) == PARIO_OK);
  CHECK(pario_request_waitall(2, reqs) == PARIO_OK);
  CHECK(reqs[0] == PARIO_REQUEST_NULL && corner == 0.0);
  CHECK(pario_array_sync(a) == PARIO_OK);
  CHECK(pario_array_get(a, start, count, buf, NULL) == PARIO_OK);
  CHECK(buf[0] == 100.0 * 10 + 3 + 2.0 * size);
  /* Errors: out of range, wrong type handle, stale request. */
  const int64_t far[2] = {16, 0}, two_rows[2] = {2, 9};
  CHECK_FAILS(pario_array_get(a, far, two_rows, buf, NULL), PARIO_ERR_OUT_OF_RANGE, "dimension 0");
  CHECK_FAILS(pario_request_wait(&reqs[0]), PARIO_ERR_INVALID_ARGUMENT, "null");
  int type = 0, ndim = 0;
  int64_t got_dims[PARIO_ARRAY_MAX_DIMS];
  CHECK(pario_array_info(a, &type, &ndim, got_dims) == PARIO_OK);
  CHECK(type == PARIO_TYPE_DOUBLE && ndim == 2 && got_dims[0] == 17 && got_dims[1] == 9);
  pario_array_t stale = a;
  CHECK(pario_array_destroy(&a) == PARIO_OK && a == PARIO_ARRAY_NULL);
  CHECK_FAILS(pario_array_get(stale, start, count, buf, NULL), PARIO_ERR_INVALID_ARGUMENT, "stale");
}

static void complex_columns_and_direct_access(void) {
  const int64_t dims[2] = {12, 3};
  pario_array_t z = PARIO_ARRAY_NULL;
  CHECK(pario_array_create_columns(world, "z", PARIO_TYPE_COMPLEX_DOUBLE, 2, dims, NULL, &z) == PARIO_OK);
  double _Complex v = 1.0 + 2.0 * I;
  CHECK(pario_array_fill(z, &v) == PARIO_OK);
  double _Complex i_unit = I;
  CHECK(pario_array_scale(z, &i_unit) == PARIO_OK); /* (1+2i) i = -2 + i */
  void *p = NULL;
  int64_t s[2], c[2];
  CHECK(pario_array_access(z, rank, &p, s, c) == PARIO_OK);
  CHECK(c[1] == 3);
  if (c[0] > 0) CHECK(((double _Complex *)p)[0] == -2.0 + 1.0 * I);
  int node, nodes, node_rank, node_size;
  CHECK(pario_group_node_info(world, &node, &nodes, &node_rank, &node_size) == PARIO_OK);
  int64_t ns[2], nc[2];
  CHECK(pario_array_node_distribution(z, node, ns, nc) == PARIO_OK);
  CHECK(nc[1] == 3 && ns[0] <= s[0]);
  CHECK_FAILS(pario_array_access(z, size, &p, s, c), PARIO_ERR_INVALID_ARGUMENT, "not in the group");
  CHECK(pario_array_destroy(&z) == PARIO_OK);
  CHECK_FAILS(pario_array_create(world, "bad", 42, 2, dims, &z), PARIO_ERR_INVALID_ARGUMENT,
              "unknown element type");
  const int64_t zero_dim[2] = {4, 0};
  CHECK_FAILS(pario_array_create(world, "bad", PARIO_TYPE_INT32, 2, zero_dim, &z),
              PARIO_ERR_INVALID_ARGUMENT, "extent 0");
}

static void counters_groups_and_sums(void) {
  pario_counter_t c = PARIO_COUNTER_NULL;
  CHECK(pario_counter_create(world, &c) == PARIO_OK);
  int64_t seen[50];
  for (int k = 0; k < 50; ++k) CHECK(pario_counter_next(c, &seen[k]) == PARIO_OK);
  int64_t total = 0;
  for (int k = 0; k < 50; ++k) total += seen[k];
  CHECK(pario_group_sum(world, PARIO_TYPE_INT64, &total, 1) == PARIO_OK);
  const int64_t n = 50 * (int64_t)size;
  CHECK(total == n * (n - 1) / 2); /* every value 0..n-1 handed out once */
  CHECK(pario_counter_reset(c) == PARIO_OK);
  int64_t old = -1;
  CHECK(pario_counter_fetch_add(c, PARIO_COUNTER_GLOBAL, 0, &old) == PARIO_OK && old == 0);
  CHECK_FAILS(pario_counter_fetch_add(c, size, 1, &old), PARIO_ERR_INVALID_ARGUMENT, "not a rank");
  CHECK(pario_counter_destroy(&c) == PARIO_OK);

  pario_group_t half = PARIO_GROUP_NULL;
  CHECK(pario_group_split(world, rank % 2, &half) == PARIO_OK);
  int hrank = -1, hsize = 0;
  CHECK(pario_group_rank(half, &hrank) == PARIO_OK && pario_group_size(half, &hsize) == PARIO_OK);
  CHECK(hrank == rank / 2);
  int32_t one = 1;
  CHECK(pario_group_sum(half, PARIO_TYPE_INT32, &one, 1) == PARIO_OK && one == hsize);
  char word[8] = "none";
  if (hrank == 0) snprintf(word, sizeof word, "grp%d", rank % 2);
  CHECK(pario_group_broadcast(half, word, sizeof word, 0) == PARIO_OK);
  char want[8];
  snprintf(want, sizeof want, "grp%d", rank % 2);
  CHECK(strcmp(word, want) == 0);
  CHECK(pario_group_free(&half) == PARIO_OK && half == PARIO_GROUP_NULL);
  CHECK_FAILS(pario_group_barrier(half), PARIO_ERR_INVALID_ARGUMENT, "null");
}

int main(void) {
  if (pario_init() != PARIO_OK) return 1;
  CHECK(pario_group_world(&world) == PARIO_OK);
  CHECK(pario_group_rank(world, &rank) == PARIO_OK && pario_group_size(world, &size) == PARIO_OK);
  sections_and_strides();
  complex_columns_and_direct_access();
  counters_groups_and_sums();
  /* Left for pario_finalize, which destroys them (in creation order). */
  const int64_t dims[1] = {8}, start[1] = {0}, count[1] = {1};
  pario_array_t left = PARIO_ARRAY_NULL;
  pario_counter_t left_counter = PARIO_COUNTER_NULL;
  CHECK(pario_array_create(world, "left", PARIO_TYPE_INT64, 1, dims, &left) == PARIO_OK);
  CHECK(pario_counter_create(world, &left_counter) == PARIO_OK);
  CHECK(pario_group_free(&world) == PARIO_OK);
  CHECK(pario_finalize() == PARIO_OK);
  int64_t x;
  CHECK_FAILS(pario_array_get(left, start, count, &x, NULL), PARIO_ERR_INVALID_ARGUMENT, "closed");
  return rank == 0 ? check_summary("capi_array_test") : (check_failures ? 1 : 0);
}
