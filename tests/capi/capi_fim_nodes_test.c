/* Files in Memory for a shared file spanning nodes, at 4 ranks in 2
 * emulated nodes (PARIO_RANKS_PER_NODE=2, PARIO_FIM=*): one copy per node
 * (counted from the shared-memory segments each rank maps), every write
 * seen on the other node after a barrier, bytes past the RAM part on disk,
 * close writing the whole file to disk, destroy unmapping the copies. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

enum { kBlock = 4096, kNames = 8, kNameLen = 96 };

static pario_group_t world;
static int rank, size;
static char path[512];

/* The pario segments this process maps (from /proc/self/maps), sorted. */
static int mapped_segments(char names[kNames][kNameLen]) {
  char prefix[64], line[1024];
  snprintf(prefix, sizeof prefix, "/dev/shm/pario.%d.", (int)getuid());
  FILE *maps = fopen("/proc/self/maps", "r");
  int n = 0;
  while (maps && fgets(line, sizeof line, maps)) {
    const char *at = strstr(line, prefix);
    if (!at) continue;
    char name[kNameLen];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(at, " \n"), at);
    int seen = 0;
    for (int i = 0; i < n; ++i) seen |= !strcmp(names[i], name);
    if (!seen && n < kNames) snprintf(names[n++], kNameLen, "%s", name);
  }
  if (maps) fclose(maps);
  for (int i = 1; i < n; ++i) /* insertion sort */
    for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; --j) {
      char t[kNameLen];
      memcpy(t, names[j], kNameLen);
      memcpy(names[j], names[j - 1], kNameLen);
      memcpy(names[j - 1], t, kNameLen);
    }
  return n;
}

/* Every rank's segment list, gathered: rank r's at all + r * kNames. */
static void gather_segments(char (*all)[kNameLen], int *counts) {
  char mine[kNames][kNameLen];
  memset(mine, 0, sizeof mine);
  int n = mapped_segments(mine);
  for (int r = 0; r < size; ++r) {
    if (r == rank) memcpy(all + r * kNames, mine, sizeof mine), counts[r] = n;
    CHECK(pario_group_broadcast(world, all + r * kNames, sizeof mine, r) == PARIO_OK);
    CHECK(pario_group_broadcast(world, &counts[r], sizeof n, r) == PARIO_OK);
  }
}

static unsigned char pattern(int block, int i) { return (unsigned char)(block * 37 + i * 11 + 3); }

static int64_t disk_size(void) {
  struct stat st;
  return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

int main(void) {
  if (pario_init() != PARIO_OK) return 1;
  CHECK(pario_group_world(&world) == PARIO_OK);
  CHECK(pario_group_rank(world, &rank) == PARIO_OK && pario_group_size(world, &size) == PARIO_OK);
  const char *dir = getenv("PARIO_SCRATCH");
  snprintf(path, sizeof path, "%s/capi_fim_nodes.dat", dir ? dir : "/tmp");
  const int node = rank / 2;

  /* The RAM part is the soft limit: 2 blocks per rank. */
  const int64_t ram_part = 2 * (int64_t)kBlock * size;
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  CHECK(pario_shared_file_create(world, path, PARIO_SIZE_UNKNOWN, ram_part, kBlock, &f) == PARIO_OK);

  /* One copy per node: each rank maps the node's budget and the node's
   * copy; node mates map the same two, the other node two others. */
  char(*all)[kNameLen] = calloc((size_t)size * kNames, kNameLen);
  int *counts = calloc((size_t)size, sizeof(int));
  gather_segments(all, counts);
  for (int r = 0; r < size; ++r) {
    CHECK(counts[r] == 2);
    const int same_node = r / 2 == node;
    for (int i = 0; i < 2; ++i) {
      const int shared = !strcmp(all[rank * kNames + i], all[r * kNames + i]);
      CHECK(shared == same_node);
    }
  }

  /* Rank r writes blocks r and r + P; the other node reads them. */
  unsigned char *block = malloc(kBlock);
  for (int k = 0; k < 2; ++k) {
    const int b = rank + k * size;
    for (int i = 0; i < kBlock; ++i) block[i] = pattern(b, i);
    CHECK(pario_shared_file_write(f, (int64_t)b * kBlock, block, kBlock) == PARIO_OK);
  }
  CHECK(pario_group_barrier(world) == PARIO_OK);
  int64_t length = -1;
  CHECK(pario_shared_file_length(f, &length) == PARIO_OK && length == ram_part);
  int good = 1;
  for (int b = 0; b < 2 * size; ++b) {
    CHECK(pario_shared_file_read(f, (int64_t)b * kBlock, block, kBlock) == PARIO_OK);
    for (int i = 0; i < kBlock; ++i) good &= block[i] == pattern(b, i);
  }
  CHECK(good);
  CHECK(disk_size() == -1); /* all of it in RAM so far */
  CHECK(pario_group_barrier(world) == PARIO_OK);

  /* Past the RAM part: the last rank writes across its end, one block
   * straddling; the bytes past it are on disk, read back everywhere. */
  if (rank == size - 1) {
    for (int i = 0; i < kBlock; ++i) block[i] = pattern(99, i);
    CHECK(pario_shared_file_write(f, ram_part - kBlock / 2, block, kBlock) == PARIO_OK);
  }
  CHECK(pario_group_barrier(world) == PARIO_OK);
  CHECK(disk_size() == ram_part + kBlock / 2);
  CHECK(pario_shared_file_length(f, &length) == PARIO_OK && length == ram_part + kBlock / 2);
  CHECK(pario_shared_file_read(f, ram_part - kBlock / 2, block, kBlock) == PARIO_OK);
  good = 1;
  for (int i = 0; i < kBlock; ++i) good &= block[i] == pattern(99, i);
  CHECK(good);
  CHECK_FAILS(pario_shared_file_read(f, ram_part, block, kBlock), PARIO_ERR_OUT_OF_RANGE, "past end");

  /* close keeps the file: the RAM part and the disk part, all on disk. */
  CHECK(pario_shared_file_close(&f) == PARIO_OK);
  CHECK(disk_size() == ram_part + kBlock / 2);
  const int64_t total = ram_part + kBlock / 2;
  unsigned char *want = malloc((size_t)total), *got = malloc((size_t)total);
  for (int b = 0; b < 2 * size; ++b)
    for (int i = 0; i < kBlock; ++i) want[(int64_t)b * kBlock + i] = pattern(b, i);
  for (int i = 0; i < kBlock; ++i) want[ram_part - kBlock / 2 + i] = pattern(99, i);
  FILE *in = fopen(path, "rb");
  CHECK(in != NULL && fread(got, 1, (size_t)total, in) == (size_t)total);
  CHECK(memcmp(got, want, (size_t)total) == 0);
  if (in) fclose(in);
  free(want);
  free(got);

  /* After close only the budget stays mapped. */
  gather_segments(all, counts);
  CHECK(counts[rank] == 1);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  if (rank == 0) CHECK(pario_file_delete(path) == PARIO_OK);
  free(block);
  free(all);
  free(counts);
  CHECK(pario_group_free(&world) == PARIO_OK);
  CHECK(pario_finalize() == PARIO_OK);
  return rank == 0 ? check_summary("capi_fim_nodes_test") : (check_failures ? 1 : 0);
}
