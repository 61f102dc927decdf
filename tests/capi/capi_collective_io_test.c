/* Collective I/O (pario/collective_io.h) from C at 1, 2 and 4 ranks, with
 * one aggregator per node or per emulated node (PARIO_RANKS_PER_NODE=1),
 * and with buffers small enough that every transfer takes many rounds:
 * N-d blocks in C and Fortran order, random global indices, sparse keys,
 * empty ranks, type conversion and byte order on the way, holes left
 * untouched, overlap and narrowing refused on every rank with the file
 * unchanged, nonblocking transfers, and a file written by all ranks read
 * back by half of them with another decomposition; collective buffering
 * on, off and auto. Every value written is
 * a function of its global index, checked element by element in the file
 * itself (read whole through the shared file) and through pario's read. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

static pario_group_t world;
static int rank, size;
static char dir[512];
static pario_decomp_hints small; /* many rounds, several aggregators */

static double value_of(int64_t g) { return (double)g * 0.5 + 1.0; }

/* A shared file of `bytes` bytes of 0xAB (the marker of untouched bytes). */
static pario_shared_file_t fresh_file(const char *name, int64_t bytes) {
  char path[700];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  CHECK(pario_shared_file_create(world, path, PARIO_SIZE_UNKNOWN, bytes, PARIO_SIZE_UNKNOWN, &f) == PARIO_OK);
  if (rank == 0 && bytes > 0) {
    unsigned char *fill = malloc((size_t)bytes);
    memset(fill, 0xAB, (size_t)bytes);
    CHECK(pario_shared_file_write(f, 0, fill, (size_t)bytes) == PARIO_OK);
    free(fill);
  }
  CHECK(pario_group_barrier(world) == PARIO_OK);
  return f;
}

/* The file's doubles, read whole by this rank. */
static double *file_doubles(pario_shared_file_t f, int64_t n) {
  double *all = malloc((size_t)n * sizeof(double) + 1);
  CHECK(pario_shared_file_read(f, 0, all, (size_t)n * sizeof(double)) == PARIO_OK);
  return all;
}

/* A 3-D array in z-slabs, then in px x py blocks, C order. */
static void blocks_c_order(const pario_decomp_hints *hints) {
  const int64_t dims[3] = {7, 6, 5}, n = 7 * 6 * 5;
  for (int pattern = 0; pattern < 2; ++pattern) {
    int64_t start[3] = {0, 0, 0}, count[3] = {7, 6, 5};
    if (pattern == 0) { /* slabs along dim 0 */
      start[0] = 7 * rank / size;
      count[0] = 7 * (rank + 1) / size - start[0];
    } else { /* blocks over dims 1 and 2 */
      const int px = size >= 2 ? 2 : 1, py = size / px;
      const int ix = rank % px, iy = rank / px;
      start[1] = 6 * ix / px;
      count[1] = 6 * (ix + 1) / px - start[1];
      start[2] = 5 * iy / py;
      count[2] = 5 * (iy + 1) / py - start[2];
    }
    const int64_t mine = count[0] * count[1] * count[2];
    double *buf = malloc((size_t)mine * sizeof(double) + 1);
    int64_t k = 0;
    for (int64_t i = start[0]; i < start[0] + count[0]; ++i)
      for (int64_t j = start[1]; j < start[1] + count[1]; ++j)
        for (int64_t l = start[2]; l < start[2] + count[2]; ++l) buf[k++] = value_of((i * 6 + j) * 5 + l);
    pario_decomp_t d = PARIO_DECOMP_NULL;
    CHECK(pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 3, dims, PARIO_ORDER_C, 1, start, count, hints, &d) ==
          PARIO_OK);
    int64_t global = 0, local = -1;
    CHECK(pario_decomp_info(d, &global, &local, NULL, NULL) == PARIO_OK && global == n && local == mine);
    pario_shared_file_t f = fresh_file("blocks_c.dat", n * 8 + 16);
    CHECK(pario_decomp_write(d, f, 16, PARIO_TYPE_DOUBLE, buf) == PARIO_OK);
    CHECK(pario_group_barrier(world) == PARIO_OK);
    double *all = file_doubles(f, n + 2);
    unsigned char head[16];
    memcpy(head, all, 16);
    int good = 1;
    for (int i = 0; i < 16; ++i) good &= head[i] == 0xAB; /* before the offset: untouched */
    for (int64_t g = 0; g < n; ++g) good &= all[g + 2] == value_of(g);
    CHECK(good);
    /* Read back as float. */
    float *back = malloc((size_t)mine * sizeof(float) + 1);
    CHECK(pario_decomp_read(d, f, 16, PARIO_TYPE_FLOAT, back) == PARIO_OK);
    good = 1;
    for (int64_t e = 0; e < mine; ++e) good &= back[e] == (float)buf[e];
    CHECK(good);
    free(back);
    free(all);
    free(buf);
    CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
    CHECK(pario_decomp_free(&d) == PARIO_OK && d == PARIO_DECOMP_NULL);
  }
}

/* Fortran order: a 2-D 9 x 4 array, each rank two column blocks, stored
 * column-major; the file's flat index is i + 9 * j. */
static void blocks_fortran_order(void) {
  const int64_t dims[2] = {9, 4}, n = 36;
  /* Columns cut into 2 * size pieces along dim 0 of each column pair. */
  int64_t starts[4], counts[4];
  const int nb = 2;
  for (int b = 0; b < nb; ++b) {
    const int piece = rank * nb + b, pieces = size * nb;
    starts[2 * b] = 9 * piece / pieces;
    counts[2 * b] = 9 * (piece + 1) / pieces - starts[2 * b];
    starts[2 * b + 1] = 0;
    counts[2 * b + 1] = 4;
  }
  int64_t mine = counts[0] * 4 + counts[2] * 4;
  int32_t *buf = malloc((size_t)mine * sizeof(int32_t) + 1);
  int64_t k = 0;
  for (int b = 0; b < nb; ++b)
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t i = starts[2 * b]; i < starts[2 * b] + counts[2 * b]; ++i) buf[k++] = (int32_t)(i + 9 * j);
  pario_decomp_t d = PARIO_DECOMP_NULL;
  CHECK(pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 2, dims, PARIO_ORDER_FORTRAN, nb, starts, counts, &small,
                                   &d) == PARIO_OK);
  pario_shared_file_t f = fresh_file("blocks_f.dat", n * 8);
  CHECK(pario_decomp_write(d, f, 0, PARIO_TYPE_INT32, buf) == PARIO_OK);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  double *all = file_doubles(f, n);
  int good = 1;
  for (int64_t g = 0; g < n; ++g) good &= all[g] == (double)g;
  CHECK(good);
  free(all);
  free(buf);
  CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
  CHECK(pario_decomp_free(&d) == PARIO_OK);
}

/* A seeded permutation of 0 .. n-1, the same on every rank. */
static int64_t *permutation(int64_t n, unsigned seed) {
  int64_t *p = malloc((size_t)n * sizeof(int64_t) + 1);
  for (int64_t i = 0; i < n; ++i) p[i] = i;
  for (int64_t i = n - 1; i > 0; --i) {
    seed = seed * 1103515245u + 12345u;
    const int64_t j = (int64_t)((seed >> 8) % (unsigned)(i + 1));
    const int64_t t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  return p;
}

static size_t type_size(int t);

/* An index decomposition of `small` hints, big endian, converting where
 * `convert` says; this rank's elements written from mem_type into a fresh
 * file of n elements of file_type. Returns the file's bytes, read whole
 * after a barrier (free them). */
static unsigned char *write_big_endian(const char *name, int file_type, int convert, int64_t n, int64_t mine,
                                       const int64_t *idx, int mem_type, const void *vals, pario_decomp_t *d,
                                       pario_shared_file_t *f) {
  pario_decomp_hints h = small;
  h.byte_order = PARIO_BYTE_ORDER_BIG;
  h.convert = convert;
  CHECK(pario_decomp_create_indices(world, file_type, n, mine, idx, &h, d) == PARIO_OK);
  const size_t bytes = (size_t)n * type_size(file_type);
  *f = fresh_file(name, (int64_t)bytes);
  CHECK(pario_decomp_write(*d, *f, 0, mem_type, vals) == PARIO_OK);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  unsigned char *raw = malloc(bytes + 1);
  CHECK(pario_shared_file_read(*f, 0, raw, bytes) == PARIO_OK);
  return raw;
}

/* Random global indices, every other one held (holes stay 0xAB), rank 0
 * holding nothing when there are several ranks; int64 in memory, int32 in
 * the file, big endian; read back as double. */
static void random_indices(void) {
  const int64_t n = 5000, held = n / 2;
  int64_t *perm = permutation(held, 7);
  const int first_holder = size > 1 ? 1 : 0, holders = size - first_holder;
  int64_t lo = 0, hi = 0;
  if (rank >= first_holder) {
    lo = held * (rank - first_holder) / holders;
    hi = held * (rank - first_holder + 1) / holders;
  }
  const int64_t mine = hi - lo;
  int64_t *idx = malloc((size_t)mine * sizeof(int64_t) + 1), *vals = malloc((size_t)mine * sizeof(int64_t) + 1);
  for (int64_t k = 0; k < mine; ++k) {
    idx[k] = 2 * perm[lo + k]; /* even indices only */
    vals[k] = idx[k] * 3 - 7000;
  }
  pario_decomp_t d = PARIO_DECOMP_NULL;
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  unsigned char *raw =
      write_big_endian("random.dat", PARIO_TYPE_INT32, PARIO_CONVERT_DEFAULT, n, mine, idx, PARIO_TYPE_INT64, vals, &d, &f);
  int good = 1;
  for (int64_t g = 0; g < n; ++g) {
    const unsigned char *b = raw + g * 4;
    if (g % 2) {
      good &= b[0] == 0xAB && b[1] == 0xAB && b[2] == 0xAB && b[3] == 0xAB;
    } else {
      const uint32_t v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
      good &= (int32_t)v == (int32_t)(g * 3 - 7000);
    }
  }
  CHECK(good);
  double *back = malloc((size_t)mine * sizeof(double) + 1);
  CHECK(pario_decomp_read(d, f, 0, PARIO_TYPE_DOUBLE, back) == PARIO_OK);
  good = 1;
  for (int64_t k = 0; k < mine; ++k) good &= back[k] == (double)vals[k];
  CHECK(good);
  free(back);
  free(raw);
  free(idx);
  free(vals);
  free(perm);
  CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
  CHECK(pario_decomp_free(&d) == PARIO_OK);
}

/* Sparse keys: key 1000 + 13 * p for p in a permutation; the dense
 * position of a key is p. */
static void sparse_keys(void) {
  const int64_t n = 999;
  int64_t *perm = permutation(n, 11);
  const int64_t lo = n * rank / size, hi = n * (rank + 1) / size, mine = hi - lo;
  int64_t *keys = malloc((size_t)mine * sizeof(int64_t) + 1), *pos = malloc((size_t)mine * sizeof(int64_t) + 1);
  double *vals = malloc((size_t)mine * sizeof(double) + 1);
  for (int64_t k = 0; k < mine; ++k) {
    keys[k] = 1000 + 13 * perm[lo + k];
    vals[k] = value_of(perm[lo + k]);
  }
  pario_decomp_t d = PARIO_DECOMP_NULL;
  int64_t distinct = -1;
  CHECK(pario_decomp_create_keys(world, PARIO_TYPE_DOUBLE, mine, keys, &small, pos, &distinct, &d) == PARIO_OK);
  CHECK(distinct == n);
  int good = 1;
  for (int64_t k = 0; k < mine; ++k) good &= pos[k] == perm[lo + k];
  CHECK(good);
  pario_shared_file_t f = fresh_file("keys.dat", n * 8);
  CHECK(pario_decomp_write(d, f, 0, PARIO_TYPE_DOUBLE, vals) == PARIO_OK);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  double *all = file_doubles(f, n);
  good = 1;
  for (int64_t g = 0; g < n; ++g) good &= all[g] == value_of(g);
  CHECK(good);
  free(all);
  free(keys);
  free(pos);
  free(vals);
  free(perm);
  CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
  CHECK(pario_decomp_free(&d) == PARIO_OK);
}

/* Every pair of memory and file types, in both byte orders: small values
 * every type holds, written from one type and read back into another. */
static size_t type_size(int t) {
  static const size_t sizes[] = {0, 8, 4, 4, 8, 16, 1, 1, 2, 2, 4, 8, 8};
  return sizes[t];
}
static void put_value(int t, void *at, int v) {
  switch (t) {
    case PARIO_TYPE_DOUBLE: *(double *)at = v; break;
    case PARIO_TYPE_FLOAT: *(float *)at = (float)v; break;
    case PARIO_TYPE_INT32: *(int32_t *)at = v; break;
    case PARIO_TYPE_INT64: *(int64_t *)at = v; break;
    case PARIO_TYPE_COMPLEX_DOUBLE: ((double *)at)[0] = v; ((double *)at)[1] = 0; break;
    case PARIO_TYPE_INT8: *(int8_t *)at = (int8_t)v; break;
    case PARIO_TYPE_UINT8: *(uint8_t *)at = (uint8_t)v; break;
    case PARIO_TYPE_INT16: *(int16_t *)at = (int16_t)v; break;
    case PARIO_TYPE_UINT16: *(uint16_t *)at = (uint16_t)v; break;
    case PARIO_TYPE_UINT32: *(uint32_t *)at = (uint32_t)v; break;
    case PARIO_TYPE_UINT64: *(uint64_t *)at = (uint64_t)v; break;
    case PARIO_TYPE_COMPLEX_FLOAT: ((float *)at)[0] = (float)v; ((float *)at)[1] = 0; break;
  }
}
static int equals_value(int t, const void *at, int v) {
  unsigned char want[16];
  put_value(t, want, v);
  return memcmp(at, want, type_size(t)) == 0;
}

/* Each pair with the conversion on the sender, then on the aggregator
 * (fewer rounds there: many rounds are the sender side's): memory type mt
 * written at its own offset, so each side's file holds every write, and
 * the two files must be the same. Every write is read back on the sender
 * side; on the aggregator side one per file type (each transfer costs
 * MPICH's busy-polling ranks several collectives). */
static void every_type_pair(int first_order, int last_order) {
  const int64_t n = 40, lo = n * rank / size, hi = n * (rank + 1) / size, mine = hi - lo;
  int64_t idx[40];
  for (int64_t k = 0; k < mine; ++k) idx[k] = hi - 1 - k; /* reversed: a real permutation */
  unsigned char mem[40 * 16], back[40 * 16];
  static unsigned char files[2][12 * 40 * 16];
  int good = 1, same = 1;
  for (int order = first_order; order <= last_order; ++order) {
    for (int ft = 1; ft <= 12; ++ft) {
      const size_t es = type_size(ft), bytes = (size_t)n * es;
      for (int side = 0; side < 2; ++side) {
        pario_decomp_hints h;
        pario_decomp_hints_init(&h);
        h.byte_order = order;
        h.buffer_size = side ? 128 : 96; /* 2-7 rounds a write for 4- to 16-byte file types */
        h.convert = side ? PARIO_CONVERT_AGGREGATOR : PARIO_CONVERT_SENDER;
        pario_decomp_t d = PARIO_DECOMP_NULL;
        CHECK(pario_decomp_create_indices(world, ft, n, mine, idx, &h, &d) == PARIO_OK);
        pario_shared_file_t f = fresh_file("types.dat", 12 * n * 16);
        for (int mt = 1; mt <= 12; ++mt) {
          const int64_t at = (int64_t)((size_t)(mt - 1) * bytes);
          for (int64_t k = 0; k < mine; ++k) put_value(mt, mem + k * type_size(mt), (int)(idx[k] + 3 * mt));
          CHECK(pario_decomp_write(d, f, at, mt, mem) == PARIO_OK);
          if (side && mt != ft) continue; /* the aggregator side reads one type per file type (MPICH's time) */
          const int rt = mt % 12 + 1;     /* read into another type */
          CHECK(pario_decomp_read(d, f, at, rt, back) == PARIO_OK);
          for (int64_t k = 0; k < mine; ++k) good &= equals_value(rt, back + k * type_size(rt), (int)(idx[k] + 3 * mt));
        }
        CHECK(pario_group_barrier(world) == PARIO_OK);
        CHECK(pario_shared_file_read(f, 0, files[side], 12 * bytes) == PARIO_OK);
        CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
        CHECK(pario_decomp_free(&d) == PARIO_OK);
      }
      same &= memcmp(files[0], files[1], 12 * bytes) == 0;
      /* The bytes of the last write (mt 12): big or little endian as asked. */
      const unsigned char *raw = files[0] + 11 * bytes;
      unsigned char want[16];
      const int swap = (order == PARIO_BYTE_ORDER_BIG) == (*(const unsigned char *)&(const int){1} == 1);
      for (int64_t g = 0; g < n; ++g) {
        put_value(ft, want, (int)(g + 36));
        const size_t half = (ft == PARIO_TYPE_COMPLEX_DOUBLE || ft == PARIO_TYPE_COMPLEX_FLOAT) ? es / 2 : es;
        for (size_t b = 0; b < es; ++b) {
          const size_t part = b / half * half, at = b % half;
          good &= raw[g * es + b] == want[part + (swap ? half - 1 - at : at)];
        }
      }
    }
  }
  CHECK(good);
  CHECK(same);
}

/* Memory types that differ between ranks, the aggregators asked to
 * convert: the ranks fall back to converting on the sender side, and the
 * file is right. */
static void mixed_memory_types(void) {
  const int64_t n = 64, lo = n * rank / size, hi = n * (rank + 1) / size, mine = hi - lo;
  const int mt = rank % 2 ? PARIO_TYPE_DOUBLE : PARIO_TYPE_INT32;
  pario_decomp_t d = PARIO_DECOMP_NULL;
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  int64_t idx[64];
  unsigned char mem[64 * 8], back[64 * 8];
  for (int64_t k = 0; k < mine; ++k) idx[k] = hi - 1 - k;
  for (int64_t k = 0; k < mine; ++k) put_value(mt, mem + k * type_size(mt), (int)(idx[k] * 5 - 100));
  unsigned char *raw =
      write_big_endian("mixed.dat", PARIO_TYPE_INT64, PARIO_CONVERT_AGGREGATOR, n, mine, idx, mt, mem, &d, &f);
  int good = 1;
  for (int64_t g = 0; g < n; ++g) {
    uint64_t v = 0; /* big endian */
    for (int b = 0; b < 8; ++b) v = v << 8 | raw[g * 8 + b];
    good &= (int64_t)v == g * 5 - 100;
  }
  CHECK(good);
  free(raw);
  CHECK(pario_decomp_read(d, f, 0, mt, back) == PARIO_OK);
  CHECK(memcmp(back, mem, (size_t)mine * type_size(mt)) == 0);
  CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
  CHECK(pario_decomp_free(&d) == PARIO_OK);
}

/* Collective buffering (pario_decomp_hints.buffering): round trips with
 * it on (always), off (never: every rank moves its own runs, no exchange)
 * and auto, the file's bytes checked each time; scattered indices with it
 * off (the holes stay untouched, int64 converted to big-endian int32 on
 * each rank); a file written with it off read with it on and the other
 * way; a hint that is no PARIO_BUFFERING_* refused on every rank. */
static void buffering_modes(void) {
  for (int b = PARIO_BUFFERING_AUTO; b <= PARIO_BUFFERING_NEVER; ++b) {
    pario_decomp_hints h = small;
    h.buffering = b;
    blocks_c_order(&h);
  }
  const pario_decomp_hints was = small;
  small.buffering = PARIO_BUFFERING_NEVER;
  random_indices();
  small = was;

  const int64_t n = 3000, lo = n * rank / size, hi = n * (rank + 1) / size, mine = hi - lo;
  int64_t *idx = malloc((size_t)mine * sizeof(int64_t) + 1);
  double *vals = malloc((size_t)mine * sizeof(double) + 1), *back = malloc((size_t)mine * sizeof(double) + 1);
  for (int64_t k = 0; k < mine; ++k) idx[k] = hi - 1 - k; /* reversed in memory */
  pario_shared_file_t f = fresh_file("modes.dat", n * 8);
  for (int w = 0; w < 2; ++w) {
    pario_decomp_hints hw = small, hr = small;
    hw.buffering = w ? PARIO_BUFFERING_ALWAYS : PARIO_BUFFERING_NEVER;
    hr.buffering = w ? PARIO_BUFFERING_NEVER : PARIO_BUFFERING_ALWAYS;
    pario_decomp_t dw = PARIO_DECOMP_NULL, dr = PARIO_DECOMP_NULL;
    CHECK(pario_decomp_create_indices(world, PARIO_TYPE_DOUBLE, n, mine, idx, &hw, &dw) == PARIO_OK);
    CHECK(pario_decomp_create_indices(world, PARIO_TYPE_DOUBLE, n, mine, idx, &hr, &dr) == PARIO_OK);
    for (int64_t k = 0; k < mine; ++k) {
      vals[k] = value_of(idx[k]) + w;
      back[k] = -1;
    }
    CHECK(pario_decomp_write(dw, f, 0, PARIO_TYPE_DOUBLE, vals) == PARIO_OK);
    CHECK(pario_group_barrier(world) == PARIO_OK);
    double *all = file_doubles(f, n);
    int good = 1;
    for (int64_t g = 0; g < n; ++g) good &= all[g] == value_of(g) + w;
    CHECK(good);
    free(all);
    CHECK(pario_decomp_read(dr, f, 0, PARIO_TYPE_DOUBLE, back) == PARIO_OK);
    good = 1;
    for (int64_t k = 0; k < mine; ++k) good &= back[k] == vals[k];
    CHECK(good);
    CHECK(pario_decomp_free(&dw) == PARIO_OK && pario_decomp_free(&dr) == PARIO_OK);
  }
  pario_decomp_hints bad = small;
  bad.buffering = 9;
  pario_decomp_t d = PARIO_DECOMP_NULL;
  CHECK_FAILS(pario_decomp_create_indices(world, PARIO_TYPE_DOUBLE, n, mine, idx, &bad, &d),
              PARIO_ERR_INVALID_ARGUMENT, "hints->buffering 9");
  CHECK(d == PARIO_DECOMP_NULL);
  CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
  free(back);
  free(vals);
  free(idx);
}

/* Failures: every rank gets an error and the file keeps what it had. */
static void refused(void) {
  const int64_t n = 16;
  int64_t idx[16];
  double vals[16];
  const int64_t mine = n / size;
  for (int64_t k = 0; k < mine; ++k) {
    idx[k] = rank * mine + k;
    vals[k] = (double)k;
  }
  pario_shared_file_t f = fresh_file("refused.dat", n);
  /* A value that does not fit int8 on the last rank only, converted on
   * the sender and on the aggregator: refused before anything is written. */
  pario_decomp_t d = PARIO_DECOMP_NULL;
  int good = 1;
  for (int side = PARIO_CONVERT_SENDER; side <= PARIO_CONVERT_AGGREGATOR; ++side) {
    pario_decomp_hints h;
    pario_decomp_hints_init(&h);
    h.convert = side;
    CHECK(pario_decomp_create_indices(world, PARIO_TYPE_INT8, n, mine, idx, &h, &d) == PARIO_OK);
    if (rank == size - 1) vals[3] = 300.0;
    const int rc = pario_decomp_write(d, f, 0, PARIO_TYPE_DOUBLE, vals);
    CHECK(rc == (rank == size - 1 ? PARIO_ERR_OUT_OF_RANGE : (size > 1 ? PARIO_ERR_REMOTE : PARIO_ERR_OUT_OF_RANGE)));
    if (rank == size - 1) {
      char m[512];
      pario_last_error_message(m, sizeof m);
      CHECK(strstr(m, "buf[3]") != NULL);
    }
    CHECK(pario_group_barrier(world) == PARIO_OK);
    unsigned char raw[16];
    CHECK(pario_shared_file_read(f, 0, raw, sizeof raw) == PARIO_OK);
    for (int i = 0; i < 16; ++i) good &= raw[i] == 0xAB;
    CHECK(good); /* nothing written */
    CHECK(pario_decomp_free(&d) == PARIO_OK);
  }

  /* Two ranks (or one, twice) hold index 0: the write is refused, the read is not. */
  idx[mine - 1] = 0;
  CHECK(pario_decomp_create_indices(world, PARIO_TYPE_INT8, n, mine, idx, NULL, &d) == PARIO_OK);
  for (int64_t k = 0; k < mine; ++k) vals[k] = 1.0;
  CHECK_FAILS(pario_decomp_write(d, f, 0, PARIO_TYPE_DOUBLE, vals), PARIO_ERR_INVALID_ARGUMENT, "overlap");
  double back[16];
  CHECK(pario_decomp_read(d, f, 0, PARIO_TYPE_DOUBLE, back) == PARIO_OK);
  CHECK(back[mine - 1] == (double)(int8_t)0xAB);
  CHECK(pario_decomp_free(&d) == PARIO_OK);

  /* An index outside the space on one rank: create fails everywhere. */
  idx[0] = rank == 0 ? n : 0;
  const int rc2 = pario_decomp_create_indices(world, PARIO_TYPE_INT8, n, 1, idx, NULL, &d);
  CHECK(rc2 == (rank == 0 ? PARIO_ERR_OUT_OF_RANGE : PARIO_ERR_REMOTE));
  CHECK(d == PARIO_DECOMP_NULL);
  /* Offsets that differ between ranks. */
  idx[0] = rank;
  CHECK(pario_decomp_create_indices(world, PARIO_TYPE_INT8, n, 1, idx, NULL, &d) == PARIO_OK);
  if (size > 1) {
    CHECK_FAILS(pario_decomp_write(d, f, rank, PARIO_TYPE_DOUBLE, vals), PARIO_ERR_INVALID_ARGUMENT, "offset");
  }
  CHECK(pario_decomp_free(&d) == PARIO_OK);
  CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
}

/* Nonblocking: the request is waited on every rank. */
static void nonblocking(void) {
  const int64_t n = 4096, lo = n * rank / size, hi = n * (rank + 1) / size, mine = hi - lo;
  int64_t *idx = malloc((size_t)mine * sizeof(int64_t) + 1);
  double *vals = malloc((size_t)mine * sizeof(double) + 1), *back = malloc((size_t)mine * sizeof(double) + 1);
  for (int64_t k = 0; k < mine; ++k) {
    idx[k] = n - 1 - (lo + k); /* reversed */
    vals[k] = value_of(idx[k]);
  }
  pario_decomp_t d = PARIO_DECOMP_NULL;
  CHECK(pario_decomp_create_indices(world, PARIO_TYPE_DOUBLE, n, mine, idx, &small, &d) == PARIO_OK);
  pario_shared_file_t f = fresh_file("nonblocking.dat", 0);
  pario_request_t w = PARIO_REQUEST_NULL, r = PARIO_REQUEST_NULL;
  CHECK(pario_decomp_iwrite(d, f, 0, PARIO_TYPE_DOUBLE, vals, &w) == PARIO_OK);
  memset(vals, 0, (size_t)mine * sizeof(double)); /* copied at the start */
  CHECK(pario_request_wait(&w) == PARIO_OK);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  CHECK(pario_decomp_iread(d, f, 0, PARIO_TYPE_DOUBLE, back, &r) == PARIO_OK);
  CHECK(pario_request_wait(&r) == PARIO_OK);
  int good = 1;
  for (int64_t k = 0; k < mine; ++k) good &= back[k] == value_of(idx[k]);
  CHECK(good);
  /* pario_request_test alone finishes a read: the data is in the buffer
   * once it says done, before the (collective) wait. */
  memset(back, 0, (size_t)mine * sizeof(double));
  CHECK(pario_decomp_iread(d, f, 0, PARIO_TYPE_DOUBLE, back, &r) == PARIO_OK);
  const time_t deadline = time(NULL) + 30;
  int done = 0;
  while (!done && time(NULL) < deadline) CHECK(pario_request_test(&r, &done) == PARIO_OK);
  CHECK(done);
  good = 1;
  for (int64_t k = 0; k < mine; ++k) good &= back[k] == value_of(idx[k]);
  CHECK(good);
  CHECK(pario_request_wait(&r) == PARIO_OK && r == PARIO_REQUEST_NULL);
  free(idx);
  free(vals);
  free(back);
  CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
  CHECK(pario_decomp_free(&d) == PARIO_OK);
}

/* Written by every rank in slabs, read by the first half of the ranks in
 * round-robin single elements (a restart on fewer ranks). */
/* The environment's aggregators reach a decomposition made without
 * hints (the CTest runs set PARIO_AGGREGATORS or PARIO_AGGREGATOR_RANKS),
 * and the transfer through them reads back. */
static void environment_aggregators(void) {
  const char *count = getenv("PARIO_AGGREGATORS"), *ranks = getenv("PARIO_AGGREGATOR_RANKS");
  if (!count && !ranks) return;
  int want = count ? atoi(count) : 0, mine = 0;
  if (want > size) want = size;
  if (ranks) { /* a comma list: its length, and whether this rank is in it */
    want = 0;
    for (const char *p = ranks; *p;) {
      char *end;
      const long r = strtol(p, &end, 10);
      ++want;
      mine |= r == rank;
      p = *end ? end + 1 : end;
    }
  }
  const int64_t n = 1000, lo = n * rank / size, hi = n * (rank + 1) / size;
  pario_decomp_t d = PARIO_DECOMP_NULL;
  CHECK(pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 1, &n, PARIO_ORDER_C, 1, &lo, (int64_t[]){hi - lo}, NULL,
                                   &d) == PARIO_OK);
  int aggregators = 0, is_aggregator = -1;
  CHECK(pario_decomp_info(d, NULL, NULL, &aggregators, &is_aggregator) == PARIO_OK);
  CHECK(aggregators == want);
  if (ranks) CHECK(is_aggregator == mine);
  pario_shared_file_t f = fresh_file("env_aggregators.bin", n * 8);
  double *vals = malloc((size_t)(hi - lo) * sizeof(double) + 1), *back = malloc((size_t)(hi - lo) * sizeof(double) + 1);
  for (int64_t i = lo; i < hi; ++i) vals[i - lo] = value_of(i);
  CHECK(pario_decomp_write(d, f, 0, PARIO_TYPE_DOUBLE, vals) == PARIO_OK);
  CHECK(pario_decomp_read(d, f, 0, PARIO_TYPE_DOUBLE, back) == PARIO_OK);
  int good = 1;
  for (int64_t i = lo; i < hi; ++i) good &= back[i - lo] == value_of(i);
  CHECK(good);
  free(vals);
  free(back);
  CHECK(pario_decomp_free(&d) == PARIO_OK);
  CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
}

static void write_n_read_m(void) {
  const int64_t n = 3000, lo = n * rank / size, hi = n * (rank + 1) / size;
  int64_t start[1] = {lo}, count[1] = {hi - lo}, dims[1] = {n};
  double *vals = malloc((size_t)(hi - lo) * sizeof(double) + 1);
  for (int64_t g = lo; g < hi; ++g) vals[g - lo] = value_of(g);
  pario_decomp_t d = PARIO_DECOMP_NULL;
  CHECK(pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 1, dims, PARIO_ORDER_C, 1, start, count, NULL, &d) ==
        PARIO_OK);
  char path[700];
  snprintf(path, sizeof path, "%s/restart.dat", dir);
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  CHECK(pario_shared_file_create(world, path, PARIO_SIZE_UNKNOWN, n * 8, PARIO_SIZE_UNKNOWN, &f) == PARIO_OK);
  CHECK(pario_decomp_write(d, f, 0, PARIO_TYPE_DOUBLE, vals) == PARIO_OK);
  CHECK(pario_decomp_free(&d) == PARIO_OK);
  CHECK(pario_shared_file_close(&f) == PARIO_OK);

  const int readers = size > 1 ? size / 2 : 1;
  pario_group_t half = PARIO_GROUP_NULL;
  CHECK(pario_group_split(world, rank < readers ? 0 : -1, &half) == PARIO_OK);
  if (rank < readers) {
    /* The file the whole group wrote, opened by half of it. */
    pario_shared_file_t g = PARIO_SHARED_FILE_NULL;
    CHECK(pario_shared_file_open(half, path, PARIO_MODE_READ, &g) == PARIO_OK);
    CHECK(pario_group_barrier(half) == PARIO_OK);
    int64_t mine = 0;
    int64_t *idx = malloc((size_t)n * sizeof(int64_t));
    for (int64_t e = rank; e < n; e += readers) idx[mine++] = e;
    pario_decomp_t r = PARIO_DECOMP_NULL;
    CHECK(pario_decomp_create_indices(half, PARIO_TYPE_DOUBLE, n, mine, idx, &small, &r) == PARIO_OK);
    double *back = malloc((size_t)mine * sizeof(double) + 1);
    CHECK(pario_decomp_read(r, g, 0, PARIO_TYPE_DOUBLE, back) == PARIO_OK);
    int good = 1;
    for (int64_t k = 0; k < mine; ++k) good &= back[k] == value_of(idx[k]);
    CHECK(good);
    free(back);
    free(idx);
    CHECK(pario_decomp_free(&r) == PARIO_OK);
    CHECK(pario_shared_file_close(&g) == PARIO_OK);
    CHECK(pario_group_free(&half) == PARIO_OK);
  }
  CHECK(pario_group_barrier(world) == PARIO_OK);
  /* A file that is not there. */
  char missing[800];
  snprintf(missing, sizeof missing, "%s/missing.dat", dir);
  pario_shared_file_t none = PARIO_SHARED_FILE_NULL;
  CHECK(pario_shared_file_open(world, missing, PARIO_MODE_READ, &none) == PARIO_ERR_NOT_FOUND);
  free(vals);
}

int main(void) {
  if (pario_init() != PARIO_OK) return 1;
  CHECK(pario_group_world(&world) == PARIO_OK);
  CHECK(pario_group_rank(world, &rank) == PARIO_OK && pario_group_size(world, &size) == PARIO_OK);
  if (size != 1 && size != 2 && size != 4) {
    if (rank == 0) fprintf(stderr, "capi_collective_io_test: run at 1, 2 or 4 ranks\n");
    pario_finalize();
    return 1;
  }
  job_dir(world, "capi_collective_io", dir, sizeof dir);
  pario_decomp_hints_init(&small);
  small.aggregators = size > 1 ? 2 : 1;
  small.buffer_size = 64; /* 8 doubles a round */
  /* PARIO_TEST_PART=little or big runs the type pairs of that file byte
   * order (with the mixed memory types: little), rest the others: three
   * CTest tests, each inside the timeout on MPICH's busy-polling ranks
   * under load; unset, everything. */
  const char *part = getenv("PARIO_TEST_PART");
  const int all = part == NULL;
  const int little = all || strcmp(part, "little") == 0, big = all || strcmp(part, "big") == 0;
  const int rest = all || strcmp(part, "rest") == 0;
  if (!little && !big && !rest) {
    if (rank == 0) fprintf(stderr, "capi_collective_io_test: PARIO_TEST_PART=%s (little, big or rest)\n", part);
    CHECK(0);
  }
  if (rest) {
    blocks_c_order(NULL);
    blocks_c_order(&small);
    blocks_fortran_order();
    random_indices();
    sparse_keys();
  }
  if (little || big) every_type_pair(little ? PARIO_BYTE_ORDER_LITTLE : PARIO_BYTE_ORDER_BIG,
                                     big ? PARIO_BYTE_ORDER_BIG : PARIO_BYTE_ORDER_LITTLE);
  if (little) mixed_memory_types();
  if (rest) {
    refused();
    buffering_modes();
    nonblocking();
    write_n_read_m();
    environment_aggregators();
  }
  job_dir_remove(world, dir);
  CHECK(pario_group_free(&world) == PARIO_OK);
  CHECK(pario_finalize() == PARIO_OK);
  return rank == 0 ? check_summary("capi_collective_io_test") : (check_failures ? 1 : 0);
}
