/* Minimal assertions for the C tests: report file, line and pario's
 * message, count failures, keep going. */
#ifndef PARIO_TEST_CHECK_H
#define PARIO_TEST_CHECK_H
#include <stdio.h>
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

static int check_summary(const char *name) {
  printf("%s: %d passed, %d failed\n", name, check_passes, check_failures);
  return check_failures ? 1 : 0;
}
#endif
