/* Run with PARIO_STATS_FILE=<dir>/stats_%r.json: pario_finalize writes each
 * rank's statistics as JSON, naming each file with its calls, bytes, share
 * of random accesses, and the I/O engine in use; with several ranks, rank 0
 * also writes the totals over all ranks to stats_sum.json, overall and per
 * path: the shared file's one path sums every rank's writes. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  static char text[1 << 16];
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = '\0';
  fclose(f);
  return text;
}

int main(void) {
  CHECK(pario_init() == PARIO_OK);
  int me = 0, np = 1;
  pario_world_rank(&me);
  pario_world_size(&np);
  char path[4096], json[4096], name[64];
  snprintf(name, sizeof name, "stats_test_%d.dat", me);
  CHECK(pario_scratch_path(name, path, sizeof path) == PARIO_OK);
  pario_file_t f;
  char buf[1000] = {0};
  CHECK(pario_file_open(path, PARIO_MODE_RDWR | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &f) == PARIO_OK);
  for (int i = 0; i < 10; ++i) CHECK(pario_file_write(f, i * 1000, buf, 1000) == PARIO_OK); /* sequential */
  CHECK(pario_file_read(f, 5000, buf, 1000) == PARIO_OK);                                     /* random */
  pario_request_t r;
  CHECK(pario_file_iread(f, 0, buf, 1000, &r) == PARIO_OK && pario_request_wait(&r) == PARIO_OK);
  CHECK(pario_file_close(&f) == PARIO_OK);

  /* A shared file: 3 writes of 100 bytes per rank, disjoint. */
  char shared[4096];
  pario_group_t world;
  pario_shared_file_t sf;
  CHECK(pario_scratch_path("stats_test_shared.dat", shared, sizeof shared) == PARIO_OK);
  *strrchr(shared, '.') = '\0'; /* one path for all ranks: drop ".<rank>" */
  CHECK(pario_group_world(&world) == PARIO_OK);
  CHECK(pario_shared_file_create(world, shared, PARIO_SIZE_UNKNOWN, PARIO_SIZE_UNKNOWN, 100, &sf) ==
        PARIO_OK);
  for (int i = 0; i < 3; ++i) CHECK(pario_shared_file_write(sf, (i * np + me) * 100, buf, 100) == PARIO_OK);
  CHECK(pario_shared_file_destroy(&sf) == PARIO_OK);

  char table[8192];
  CHECK(pario_stats_table(table, sizeof table) > 0 && strstr(table, name) != NULL);

  /* A link planted at the statistics path is replaced, not written
   * through, and the file is private to the user. */
  char target[4096], link_path[4096], other[64];
  snprintf(other, sizeof other, "stats_test_target_%d", me);
  CHECK(pario_scratch_path(other, target, sizeof target) == PARIO_OK);
  snprintf(other, sizeof other, "stats_test_link_%d.json", me);
  CHECK(pario_scratch_path(other, link_path, sizeof link_path) == PARIO_OK);
  FILE *t = fopen(target, "w");
  CHECK(t != NULL);
  if (t) fputs("precious", t), fclose(t);
  remove(link_path);
  CHECK(symlink(target, link_path) == 0);
  CHECK(pario_stats_write_json(link_path) == PARIO_OK);
  struct stat st;
  CHECK(lstat(link_path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600);
  char *kept = slurp(target);
  CHECK(kept != NULL && strcmp(kept, "precious") == 0);
  remove(link_path);
  remove(target);
  CHECK(pario_finalize() == PARIO_OK);
  remove(path);

  const char *pattern = getenv("PARIO_STATS_FILE");
  const char *rank = pattern ? strstr(pattern, "%r") : NULL;
  CHECK(rank != NULL); /* CTest sets PARIO_STATS_FILE=.../stats_%r.json */
  if (!rank) return check_summary("capi_stats_test");
  snprintf(json, sizeof json, "%.*s%d%s", (int)(rank - pattern), pattern, me, rank + 2);
  char *text = slurp(json);
  CHECK(text != NULL);
  if (text) {
    CHECK(strstr(text, name) != NULL);
    CHECK(strstr(text, "\"write\": {\"calls\": 10, \"async_calls\": 0, \"bytes\": 10000") != NULL);
    CHECK(strstr(text, "\"read\": {\"calls\": 2, \"async_calls\": 1, \"bytes\": 2000") != NULL);
    CHECK(strstr(text, "\"io_engine\"") != NULL);
    CHECK(strstr(text, "\"size\": 10000") != NULL);
  }
  remove(json);
  if (me == 0 && np > 1) {
    char sum[4096], want[160];
    snprintf(sum, sizeof sum, "%.*ssum%s", (int)(rank - pattern), pattern, rank + 2);
    text = slurp(sum);
    CHECK(text != NULL);
    if (text) {
      snprintf(want, sizeof want, "\"ranks\": %d", np);
      CHECK(strstr(text, want) != NULL);
      snprintf(want, sizeof want, "\"write\": {\"calls\": %d, \"async_calls\": 0, \"bytes\": %d", 13 * np,
               10300 * np);
      CHECK(strstr(text, want) != NULL);
      snprintf(want, sizeof want, "\"read\": {\"calls\": %d, \"async_calls\": %d, \"bytes\": %d", 2 * np,
               np, 2000 * np);
      CHECK(strstr(text, want) != NULL);
      /* Per path: the shared file once, opened by every rank. */
      const char *entry = strstr(text, "stats_test_shared.dat\"");
      CHECK(entry != NULL);
      if (entry) {
        /* Under PARIO_FIM (capi_stats_fim_test) the shared file is in RAM:
         * the one copy's bytes, not each rank's sum. */
        const int in_ram = getenv("PARIO_FIM") != NULL ? 300 * np : 0;
        snprintf(want, sizeof want,
                 "\"ranks\": %d, \"size\": %d, \"ram_bytes\": %d, \"spilled_bytes\": 0, "
                 "\"read\": {\"calls\": 0, \"async_calls\": 0, "
                 "\"bytes\": 0, \"seconds\": 0}, \"write\": {\"calls\": %d, \"async_calls\": 0, \"bytes\": %d",
                 np, 300 * np, in_ram, 3 * np, 300 * np);
        CHECK(strncmp(entry + strlen("stats_test_shared.dat\", "), want, strlen(want)) == 0);
      }
      CHECK(strstr(text, "stats_test_1.dat.1\", \"ranks\": 1, \"size\": 10000") != NULL);
      CHECK(strstr(strstr(text, "\"paths\""), "stats_test_0.dat") != NULL);
    }
    remove(sum);
  }
  if (me != 0) return check_failures ? 1 : 0;
  return check_summary("capi_stats_test");
}
