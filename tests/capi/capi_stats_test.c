/* Run with PARIO_STATS_FILE=<dir>/stats_%r.json: pario_finalize writes each
 * rank's statistics as JSON, naming each file with its calls, bytes, share
 * of random accesses, and the I/O engine in use; with several ranks, rank 0
 * also writes the totals over all ranks to stats_sum.json, overall and per
 * path: the shared file's one path sums every rank's writes. A collective
 * write and read of known sizes give known message, byte and request
 * counts per rank and summed. */
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

  /* Collective I/O: each rank holds 100 doubles, [100 me, 100 me + 100);
   * 400-byte rounds (50 elements), domains aligned to one element. The
   * write has one aggregator (rank 0): every other rank sends its 800
   * bytes in 2 messages and rank 0 writes all 800 np bytes in 2 np
   * requests of 400. The read has one aggregator per rank, each domain a
   * rank's own elements: no messages, 2 requests each. */
  char coll[4096];
  CHECK(pario_scratch_path("stats_test_coll.dat", coll, sizeof coll) == PARIO_OK);
  *strrchr(coll, '.') = '\0';
  CHECK(pario_shared_file_create(world, coll, PARIO_SIZE_UNKNOWN, PARIO_SIZE_UNKNOWN, PARIO_SIZE_UNKNOWN, &sf) ==
        PARIO_OK);
  double values[100];
  for (int i = 0; i < 100; ++i) values[i] = 100.0 * me + i;
  const int64_t dims[1] = {100 * (int64_t)np}, start[1] = {100 * (int64_t)me}, count[1] = {100};
  pario_decomp_hints hints;
  pario_decomp_hints_init(&hints);
  hints.buffer_size = 400;
  hints.align = 8;
  hints.buffering = PARIO_BUFFERING_ALWAYS; /* the counts below are the aggregators' */
  for (int pass = 0; pass < 2; ++pass) {
    hints.aggregators = pass == 0 ? 1 : np;
    pario_decomp_t d = PARIO_DECOMP_NULL;
    CHECK(pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 1, dims, PARIO_ORDER_C, 1, start, count, &hints, &d) ==
          PARIO_OK);
    if (pass == 0) {
      CHECK(pario_decomp_write(d, sf, 0, PARIO_TYPE_DOUBLE, values) == PARIO_OK);
    } else {
      double back[100] = {0};
      CHECK(pario_decomp_read(d, sf, 0, PARIO_TYPE_DOUBLE, back) == PARIO_OK);
      CHECK(memcmp(back, values, sizeof back) == 0);
    }
    CHECK(pario_decomp_free(&d) == PARIO_OK);
  }
  CHECK(pario_shared_file_destroy(&sf) == PARIO_OK);

  char table[8192];
  CHECK(pario_stats_table(table, sizeof table) > 0 && strstr(table, name) != NULL);
  CHECK(strstr(table, "collective I/O") != NULL && strstr(table, "decompositions made: 2") != NULL);

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
    char want[400];
    if (me == 0) {
      /* Its own slab's two rounds are one request of 800 bytes from its
       * packed copy (collective/transfer.h, direct pieces). */
      snprintf(want, sizeof want,
               "\"collective\": {\"write\": {\"transfers\": 1, \"messages_sent\": 0, \"messages_received\": %d, "
               "\"bytes_sent\": 0, \"bytes_received\": %d, \"rounds\": %d, \"file_requests\": %d, "
               "\"file_bytes\": %d, \"largest_request\": 800, ",
               2 * (np - 1), 800 * (np - 1), 2 * np, 2 * np - 1, 800 * np);
    } else {
      snprintf(want, sizeof want,
               "\"collective\": {\"write\": {\"transfers\": 1, \"messages_sent\": 2, \"messages_received\": 0, "
               "\"bytes_sent\": 800, \"bytes_received\": 0, \"rounds\": 0, \"file_requests\": 0, "
               "\"file_bytes\": 0, \"largest_request\": 0, ");
    }
    CHECK(strstr(text, want) != NULL);
    CHECK(strstr(text, "\"read\": {\"transfers\": 1, \"messages_sent\": 0, \"messages_received\": 0, "
                       "\"bytes_sent\": 0, \"bytes_received\": 0, \"rounds\": 2, \"file_requests\": 1, "
                       "\"file_bytes\": 800, \"largest_request\": 800, ") != NULL);
    CHECK(strstr(text, "\"setup\": {\"decompositions\": 2, ") != NULL);
  }
  remove(json);
  if (me == 0 && np > 1) {
    char sum[4096], want[400];
    snprintf(sum, sizeof sum, "%.*ssum%s", (int)(rank - pattern), pattern, rank + 2);
    text = slurp(sum);
    CHECK(text != NULL);
    if (text) {
      snprintf(want, sizeof want, "\"ranks\": %d", np);
      CHECK(strstr(text, want) != NULL);
      /* Files: the collective requests (asynchronous) included; rank 0's
       * own two rounds are one write on its calling thread. */
      snprintf(want, sizeof want, "\"write\": {\"calls\": %d, \"async_calls\": %d, \"bytes\": %d", 15 * np - 1,
               2 * np - 2, 11100 * np);
      CHECK(strstr(text, want) != NULL);
      /* The collective read: each rank's own two rounds in one read on its
       * calling thread. */
      snprintf(want, sizeof want, "\"read\": {\"calls\": %d, \"async_calls\": %d, \"bytes\": %d", 3 * np,
               np, 2800 * np);
      CHECK(strstr(text, want) != NULL);
      /* Collective I/O summed; the largest request is the largest, not a sum. */
      snprintf(want, sizeof want,
               "\"collective\": {\"write\": {\"transfers\": %d, \"messages_sent\": %d, \"messages_received\": %d, "
               "\"bytes_sent\": %d, \"bytes_received\": %d, \"rounds\": %d, \"file_requests\": %d, "
               "\"file_bytes\": %d, \"largest_request\": 800, ",
               np, 2 * (np - 1), 2 * (np - 1), 800 * (np - 1), 800 * (np - 1), 2 * np, 2 * np - 1, 800 * np);
      CHECK(strstr(text, want) != NULL);
      snprintf(want, sizeof want,
               "\"read\": {\"transfers\": %d, \"messages_sent\": 0, \"messages_received\": 0, "
               "\"bytes_sent\": 0, \"bytes_received\": 0, \"rounds\": %d, \"file_requests\": %d, "
               "\"file_bytes\": %d, \"largest_request\": 800, ",
               np, 2 * np, np, 800 * np);
      CHECK(strstr(text, want) != NULL);
      /* The busiest rank: rank 0 received every other rank's bytes. */
      snprintf(want, sizeof want, "\"most\": {\"write\": {\"transfers\": 1, \"messages_sent\": 2, "
               "\"messages_received\": %d, \"bytes_sent\": 800, \"bytes_received\": %d, ", 2 * (np - 1), 800 * (np - 1));
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
