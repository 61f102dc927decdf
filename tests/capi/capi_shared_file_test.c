/* Shared files from C at 1, 2 and 4 ranks, on one file and striped over
 * three directories (PARIO_FILE_BACKEND=striped): round-robin writes then
 * cross reads after a barrier, many outstanding requests, holes, end of
 * file, the hard limit, and mismatched or bad arguments (an error on every
 * rank, never a hang). */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

enum { kBlock = 5000, kPerRank = 8 };

static pario_group_t world;
static int rank, size;
static char path[512];

static unsigned char pattern(int64_t block, int64_t i) { return (unsigned char)(block * 31 + i * 7 + 1); }

static int path_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

static void round_robin(void) {
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  const int64_t blocks = (int64_t)kPerRank * size, end = blocks * kBlock;
  CHECK(pario_shared_file_create(world, path, end + 20000, end, kBlock, &f) == PARIO_OK);
  /* Rank r writes blocks r, r+P, ...: half blocking, half nonblocking. */
  unsigned char *mine = malloc((size_t)kPerRank * kBlock);
  pario_request_t reqs[kPerRank];
  int nreq = 0;
  for (int k = 0; k < kPerRank; ++k) {
    const int64_t block = (int64_t)k * size + rank;
    unsigned char *b = mine + (size_t)k * kBlock;
    for (int i = 0; i < kBlock; ++i) b[i] = pattern(block, i);
    if (k % 2) {
      CHECK(pario_shared_file_iwrite(f, block * kBlock, b, kBlock, &reqs[nreq++]) == PARIO_OK);
    } else {
      CHECK(pario_shared_file_write(f, block * kBlock, b, kBlock) == PARIO_OK);
    }
  }
  CHECK(pario_request_waitall(nreq, reqs) == PARIO_OK);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  int64_t length = -1;
  CHECK(pario_shared_file_length(f, &length) == PARIO_OK && length == end);
  /* Read every block another rank wrote, all at once. */
  unsigned char *back = malloc((size_t)blocks * kBlock);
  pario_request_t *rr = malloc(sizeof(pario_request_t) * (size_t)blocks);
  int nr = 0;
  for (int64_t block = 0; block < blocks; ++block) {
    if (block % size == rank && size > 1) continue;
    CHECK(pario_shared_file_iread(f, block * kBlock, back + block * kBlock, kBlock, &rr[nr++]) == PARIO_OK);
  }
  CHECK(pario_request_waitall(nr, rr) == PARIO_OK);
  int good = 1;
  for (int64_t block = 0; block < blocks; ++block) {
    if (block % size == rank && size > 1) continue;
    for (int i = 0; i < kBlock; ++i) good &= back[block * kBlock + i] == pattern(block, i);
  }
  CHECK(good);
  CHECK(pario_group_barrier(world) == PARIO_OK);

  /* A hole: the last rank writes 3 bytes 10000 past the end. */
  if (rank == size - 1) CHECK(pario_shared_file_write(f, end + 10000, "xyz", 3) == PARIO_OK);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  unsigned char hole[10003];
  memset(hole, 0xff, sizeof hole);
  CHECK(pario_shared_file_read(f, end, hole, sizeof hole) == PARIO_OK);
  good = 1;
  for (int i = 0; i < 10000; ++i) good &= hole[i] == 0;
  CHECK(good && hole[10000] == 'x' && hole[10002] == 'z');
  CHECK_FAILS(pario_shared_file_read(f, end + 10000, hole, 4), PARIO_ERR_OUT_OF_RANGE, "past end of file");
  CHECK_FAILS(pario_shared_file_write(f, end + 19999, "ab", 2), PARIO_ERR_OUT_OF_RANGE, "hard limit");
  pario_request_t late;
  CHECK_FAILS(pario_shared_file_iwrite(f, end + 20000, "a", 1, &late), PARIO_ERR_OUT_OF_RANGE, "hard limit");
  CHECK_FAILS(pario_shared_file_write(f, -1, "a", 1), PARIO_ERR_INVALID_ARGUMENT, "negative offset");
  CHECK(pario_shared_file_sync(f) == PARIO_OK);

  /* Striped: the other directories hold their stripes. */
  const char *backend = getenv("PARIO_FILE_BACKEND");
  const char *dirs = getenv("PARIO_SCRATCH");
  if (backend && !strcmp(backend, "striped") && dirs && strchr(dirs, ':')) {
    char stripe1[600];
    const char *colon = strchr(dirs, ':'), *next = strchr(colon + 1, ':');
    const int len = next ? (int)(next - colon - 1) : (int)strlen(colon + 1);
    snprintf(stripe1, sizeof stripe1, "%.*s/capi_shared.dat.stripe1", len, colon + 1);
    CHECK(path_exists(stripe1));
  }
  CHECK(pario_shared_file_destroy(&f) == PARIO_OK && f == PARIO_SHARED_FILE_NULL);
  CHECK(!path_exists(path));
  CHECK_FAILS(pario_shared_file_read(f, 0, hole, 1), PARIO_ERR_INVALID_ARGUMENT, "null");
  free(mine);
  free(back);
  free(rr);
}

static void close_keeps_the_file(void) {
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  CHECK(pario_shared_file_create(world, path, PARIO_SIZE_UNKNOWN, PARIO_SIZE_UNKNOWN,
                                 PARIO_SIZE_UNKNOWN, &f) == PARIO_OK);
  if (rank == 0) CHECK(pario_shared_file_write(f, 0, "kept", 4) == PARIO_OK);
  CHECK(pario_shared_file_close(&f) == PARIO_OK);
  CHECK(path_exists(path));
  CHECK(pario_group_barrier(world) == PARIO_OK);
  if (rank == 0) CHECK(pario_file_delete(path) == PARIO_OK);
}

static void mismatches_fail_everywhere(void) {
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  if (size > 1) {
    /* Ranks disagree on the hard limit. */
    CHECK_FAILS(pario_shared_file_create(world, path, 1000 + rank, -1, -1, &f),
                PARIO_ERR_INVALID_ARGUMENT, "arguments differ between ranks (hard_limit)");
    /* One rank passes no path: the others learn of it. */
    const int rc = pario_shared_file_create(world, rank == 1 ? NULL : path, -1, -1, -1, &f);
    CHECK(rc != PARIO_OK && f == PARIO_SHARED_FILE_NULL);
  }
  CHECK_FAILS(pario_shared_file_create(world, path, -7, -1, -1, &f), PARIO_ERR_INVALID_ARGUMENT,
              "hard limit -7");
  CHECK_FAILS(pario_shared_file_create(world, "", -1, -1, -1, &f), PARIO_ERR_INVALID_ARGUMENT,
              "empty");
  CHECK(f == PARIO_SHARED_FILE_NULL);
}

int main(void) {
  if (pario_init() != PARIO_OK) return 1;
  CHECK(pario_group_world(&world) == PARIO_OK);
  CHECK(pario_group_rank(world, &rank) == PARIO_OK && pario_group_size(world, &size) == PARIO_OK);
  const char *dirs = getenv("PARIO_SCRATCH");
  snprintf(path, sizeof path, "%.*s/capi_shared.dat", dirs ? (int)strcspn(dirs, ":") : 4,
           dirs ? dirs : "/tmp");
  round_robin();
  close_keeps_the_file();
  mismatches_fail_everywhere();
  CHECK(pario_group_free(&world) == PARIO_OK);
  CHECK(pario_finalize() == PARIO_OK);
  return rank == 0 ? check_summary("capi_shared_file_test") : (check_failures ? 1 : 0);
}
