/* libFuzzer target: the C API's argument handling. Each input is a short
 * program of calls on one rank (an MPI singleton): global-array and
 * disk-array creation with extreme extents, one-sided transfers and
 * disk-array sections with starts, counts and leading dimensions taken raw
 * from the bytes (near INT64_MAX, negative, zero), attributes with any
 * bytes, group sums and broadcasts with any counts. pario must answer each
 * with a status and never touch memory outside what a correct call would
 * (ASan and UBSan watch); buffers are sized for the section the call
 * names, as a correct caller's are. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pario/pario.h"

typedef struct {
  const uint8_t *p;
  size_t n;
} reader_t;

static uint8_t byte(reader_t *r) {
  if (r->n == 0) return 0;
  --r->n;
  return *r->p++;
}

static int64_t raw64(reader_t *r) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | byte(r);
  return (int64_t)v;
}

/* A value near where bounds checks break: small, or an edge of int64. */
static int64_t edgy(reader_t *r) {
  const uint8_t k = byte(r);
  switch (k % 8) {
    case 0: return INT64_MAX - (k >> 3);
    case 1: return INT64_MIN + (k >> 3);
    case 2: return -(int64_t)(k >> 3);
    case 3: return raw64(r);
    default: return k >> 3;  /* 0 .. 31 */
  }
}

static int initialized;
static pario_group_t world;
static char store[4096];

static void setup(void) {
  if (initialized) return;
  if (pario_init() != PARIO_OK) abort();
  if (pario_group_world(&world) != PARIO_OK) abort();
  snprintf(store, sizeof store, "/tmp/pario_fuzz_store.%d", (int)getpid());
  initialized = 1;
}

/* dims of a small array (1..4 per dimension), or, with the flag set, edgy
 * ones that creation must refuse or accept only when they are small. */
static int read_dims(reader_t *r, int64_t dims[PARIO_ARRAY_MAX_DIMS]) {
  const uint8_t h = byte(r);
  const int ndim = (h & 7) + 1; /* 1..8: 8 is invalid */
  for (int d = 0; d < ndim && d < PARIO_ARRAY_MAX_DIMS; ++d) {
    dims[d] = (h & 0x80) ? edgy(r) : 1 + byte(r) % 4;
  }
  return ndim;
}

/* A correct but huge array (more than 2^20 elements) is not what this
 * target tests, and would only make it slow: such dims are skipped; those
 * that overflow or are not positive go to pario, which must refuse them. */
static int too_big_to_try(int ndim, const int64_t *dims) {
  int64_t n = 1;
  for (int d = 0; d < ndim && d < PARIO_ARRAY_MAX_DIMS; ++d) {
    if (dims[d] < 1) return 0;
    if (__builtin_mul_overflow(n, dims[d], &n)) return 0;
  }
  return n > (INT64_C(1) << 20);
}

static int64_t elements_of(int ndim, const int64_t *count) {
  int64_t n = 1;
  for (int d = 0; d < ndim; ++d) {
    if (count[d] < 0 || (count[d] > 0 && n > (INT64_C(1) << 20) / count[d])) return -1;
    n *= count[d];
  }
  return n;
}

/* A section of an ndim array: start and count from edgy values. The
 * buffer a correct caller would pass: count elements (or NULL when the
 * section is too large to be a correct call's). */
static void *section(reader_t *r, int ndim, int64_t *start, int64_t *count, size_t esize) {
  for (int d = 0; d < ndim; ++d) {
    start[d] = edgy(r);
    count[d] = edgy(r);
  }
  const int64_t n = elements_of(ndim, count);
  return n < 0 ? NULL : calloc((size_t)n + 1, esize);
}

static void arrays(reader_t *r) {
  int64_t dims[PARIO_ARRAY_MAX_DIMS];
  const int ndim = read_dims(r, dims);
  const int type = byte(r) % 14; /* 0 and 13 are invalid */
  pario_array_t a = PARIO_ARRAY_NULL;
  if (too_big_to_try(ndim, dims) || pario_array_create(world, "fuzz", type, ndim, dims, &a) != PARIO_OK) return;
  int64_t start[PARIO_ARRAY_MAX_DIMS], count[PARIO_ARRAY_MAX_DIMS], ld[PARIO_ARRAY_MAX_DIMS];
  for (int k = byte(r) % 4; k >= 0 && r->n > 0; --k) {
    void *buf = section(r, ndim, start, count, 16);
    const int dense = byte(r) & 1;
    for (int d = 0; d + 1 < ndim; ++d) ld[d] = count[d + 1]; /* a correct caller's dense ld */
    const uint8_t op = byte(r) % 4;
    const double one = 1;
    if (op == 0) (void)pario_array_get(a, start, count, buf, dense ? NULL : ld);
    if (op == 1) (void)pario_array_put(a, start, count, buf, dense ? NULL : ld);
    if (op == 2) (void)pario_array_acc(a, start, count, buf, dense ? NULL : ld, type == PARIO_TYPE_DOUBLE ? &one : NULL);
    if (op == 3) {
      int64_t s[PARIO_ARRAY_MAX_DIMS], c[PARIO_ARRAY_MAX_DIMS];
      (void)pario_array_distribution(a, (int)edgy(r), s, c);
    }
    free(buf);
  }
  if (pario_array_destroy(&a) != PARIO_OK) abort();
}

static void disk_arrays(reader_t *r) {
  int64_t dims[PARIO_ARRAY_MAX_DIMS], hint[PARIO_ARRAY_MAX_DIMS];
  const int ndim = read_dims(r, dims);
  for (int d = 0; d < PARIO_ARRAY_MAX_DIMS; ++d) hint[d] = edgy(r);
  pario_disk_array_t da = PARIO_DISK_ARRAY_NULL;
  (void)pario_disk_array_delete(world, store);
  if (pario_disk_array_create(world, store, PARIO_TYPE_DOUBLE, ndim, dims, (byte(r) & 1) ? hint : NULL, &da) !=
      PARIO_OK) {
    return;
  }
  int type = 0, nd = 0;
  int64_t shape[PARIO_ARRAY_MAX_DIMS], chunks[PARIO_ARRAY_MAX_DIMS];
  if (pario_disk_array_info(da, &type, &nd, shape, chunks) != PARIO_OK || nd != ndim) abort();
  pario_array_t a = PARIO_ARRAY_NULL;
  if (!too_big_to_try(ndim, dims) &&
      pario_array_create(world, "fuzz_mem", PARIO_TYPE_DOUBLE, ndim, dims, &a) == PARIO_OK) {
    int64_t start[PARIO_ARRAY_MAX_DIMS], count[PARIO_ARRAY_MAX_DIMS], at[PARIO_ARRAY_MAX_DIMS];
    int perm[PARIO_ARRAY_MAX_DIMS];
    for (int k = byte(r) % 3; k >= 0 && r->n > 0; --k) {
      for (int d = 0; d < ndim; ++d) {
        start[d] = edgy(r);
        count[d] = edgy(r);
        at[d] = edgy(r);
        perm[d] = (int)(byte(r) % (ndim + 1)); /* may repeat or go past: must be refused */
      }
      const uint8_t op = byte(r) % 3;
      if (op == 0) (void)pario_disk_array_write(da, a, start, count, at);
      if (op == 1) (void)pario_disk_array_read(da, a, start, count, at);
      if (op == 2) {
        pario_request_t req = PARIO_REQUEST_NULL;
        if (pario_disk_array_iwrite(da, a, start, count, at, perm, &req) == PARIO_OK) (void)pario_request_wait(&req);
      }
    }
    if (pario_array_destroy(&a) != PARIO_OK) abort();
  }
  char name[16], value[32], out[8];
  for (size_t i = 0; i < sizeof name; ++i) name[i] = (char)byte(r);
  for (size_t i = 0; i < sizeof value; ++i) value[i] = (char)byte(r);
  name[byte(r) % sizeof name] = '\0';
  name[sizeof name - 1] = value[sizeof value - 1] = '\0';
  (void)pario_disk_array_set_attribute(da, name, value);
  (void)pario_disk_array_get_attribute(da, name, out, byte(r) % (sizeof out + 1));
  if (pario_disk_array_close(&da) != PARIO_OK) abort();
  (void)pario_disk_array_delete(world, store);
}

static void group_calls(reader_t *r) {
  double x[8] = {1, 2, 3, 4}; /* room for 4 elements of any type */
  /* A correct caller's buffer holds the count; SIZE_MAX must be refused
   * before anything is moved. */
  const size_t counts[4] = {0, 1, 4, SIZE_MAX};
  const size_t c = counts[byte(r) % 4];
  (void)pario_group_sum(world, byte(r) % 7, x, c);
  (void)pario_group_broadcast(world, x, c, (int)edgy(r));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  setup();
  reader_t r = {data, size};
  while (r.n > 0) {
    switch (byte(&r) % 3) {
      case 0: arrays(&r); break;
      case 1: disk_arrays(&r); break;
      case 2: group_calls(&r); break;
    }
  }
  return 0;
}
