/* Minimal assertions for the C tests: report file, line and pario's
 * message, count failures, keep going. */
#ifndef PARIO_TEST_CHECK_H
#define PARIO_TEST_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pario/pario.h"

static int check_failures = 0;
static int check_passes = 0;

#define CHECK(cond)                                                   \
  do {                                                                \
    if (cond) {                                                       \
      ++check_passes;                                                 \
    } else {                                                          \
      char msg_[256];                                                 \
      pario_last_error_message(msg_, sizeof msg_);                    \
      fprintf(stderr, "%s:%d: CHECK(%s) failed [last error: %s]\n",   \
              __FILE__, __LINE__, #cond, msg_);                       \
      ++check_failures;                                               \
    }                                                                 \
  } while (0)

/* Checks a call's status and that the last message mentions `text`. */
#define CHECK_FAILS(call, code, text)                                 \
  do {                                                                \
    char m_[512];                                                     \
    int rc_ = (call);                                                 \
    CHECK(rc_ == (code));                                             \
    pario_last_error_message(m_, sizeof m_);                          \
    if (!strstr(m_, (text))) {                                        \
      fprintf(stderr, "%s:%d: message '%s' lacks '%s'\n", __FILE__,   \
              __LINE__, m_, (text));                                  \
      ++check_failures;                                               \
    }                                                                 \
  } while (0)

/* A scratch directory for the whole job (rank 0's scratch name), made
 * empty by rank 0; job_dir_remove takes it away again. Collective. */
static inline void job_dir(pario_group_t group, const char *name, char *dir, size_t len) {
  int me = 0;
  pario_group_rank(group, &me);
  CHECK(pario_scratch_path(name, dir, len) == PARIO_OK);
  CHECK(pario_group_broadcast(group, dir, len, 0) == PARIO_OK);
  if (me == 0) {
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    CHECK(system(cmd) == 0);
  }
  CHECK(pario_group_barrier(group) == PARIO_OK);
}

static inline void job_dir_remove(pario_group_t group, const char *dir) {
  int me = 0;
  pario_group_rank(group, &me);
  CHECK(pario_group_barrier(group) == PARIO_OK);
  if (me == 0) {
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
  }
}

/* The collective I/O engine's aggregator rounds so far, writing [0] and
 * reading [1], summed over the group: what shows that hints reached the
 * engine (a 64-byte buffer takes a round per 64 bytes). Counted only
 * under PARIO_STATS=1 (read at start-up: set by CTest); else 0.
 * Collective. */
static inline void collective_rounds(pario_group_t group, int64_t rounds[2]) {
  char path[600];
  rounds[0] = rounds[1] = -1;
  CHECK(pario_scratch_path("collective_rounds.json", path, sizeof path) == PARIO_OK);
  CHECK(pario_stats_write_json(path) == PARIO_OK);
  FILE *f = fopen(path, "rb");
  char *text = NULL;
  if (f && fseek(f, 0, SEEK_END) == 0) {
    const long n = ftell(f);
    text = n >= 0 ? (char *)calloc((size_t)n + 1, 1) : NULL;
    if (text && (fseek(f, 0, SEEK_SET) != 0 || fread(text, 1, (size_t)n, f) != (size_t)n)) text[0] = '\0';
  }
  if (f) fclose(f);
  remove(path);
  /* "collective": {"write": {... "rounds": W, ...}, "read": {... "rounds": R, */
  const char *w = text ? strstr(text, "\"collective\": {\"write\": {") : NULL;
  const char *wr = w ? strstr(w, "\"rounds\": ") : NULL;
  const char *r = wr ? strstr(wr, "\"read\": {") : NULL;
  const char *rr = r ? strstr(r, "\"rounds\": ") : NULL;
  CHECK(rr != NULL);
  if (rr) {
    rounds[0] = strtoll(wr + strlen("\"rounds\": "), NULL, 10);
    rounds[1] = strtoll(rr + strlen("\"rounds\": "), NULL, 10);
  }
  free(text);
  CHECK(pario_group_sum(group, PARIO_TYPE_INT64, rounds, 2) == PARIO_OK);
}

static int check_summary(const char *name) {
  printf("%s: %d passed, %d failed\n", name, check_passes, check_failures);
  return check_failures ? 1 : 0;
}
#endif
