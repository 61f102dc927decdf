/* What the independent libexodusii checkers (exodus_check,
 * exodus_nemesis_check, exodus_side_df_check) share: EXPECT prints the
 * first 20 differences, prefixed with CHECKER (defined before this
 * header), and counts them all in `failures`; OK expects a libexodusii
 * call to succeed; xcalloc never returns null. */
#ifndef PARIO_TESTS_LIBEXODUSII_CHECK_H
#define PARIO_TESTS_LIBEXODUSII_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int failures = 0;
#define EXPECT(cond, ...)                 \
  do {                                    \
    if (!(cond)) {                        \
      if (failures++ < 20) {              \
        fprintf(stderr, CHECKER ": ");    \
        fprintf(stderr, __VA_ARGS__);     \
        fprintf(stderr, "\n");            \
      }                                   \
    }                                     \
  } while (0)
#define OK(call) EXPECT((call) >= 0, "%s failed", #call)

static void *xcalloc(size_t n, size_t s) {
  void *p = calloc(n ? n : 1, s);
  if (!p) exit(3);
  return p;
}

#endif /* PARIO_TESTS_LIBEXODUSII_CHECK_H */
