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

static int check_summary(const char *name) {
  printf("%s: %d passed, %d failed\n", name, check_passes, check_failures);
  return check_failures ? 1 : 0;
}
#endif
