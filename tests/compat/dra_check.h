/* The check macro of the DRA tests: on failure, the file, line and what
 * DRA_Errmsg says; the program prints "<name>: ok" or "FAIL" at the end. */
#ifndef PARIO_TEST_DRA_CHECK_H
#define PARIO_TEST_DRA_CHECK_H
#include <stdio.h>

#include "dra.h"

static int failures = 0;
#define CHECK(cond)                                                                     \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      char m_[80];                                                                      \
      DRA_Errmsg(1, m_);                                                                \
      fprintf(stderr, "%s:%d: CHECK(%s) failed [%s]\n", __FILE__, __LINE__, #cond, m_); \
      ++failures;                                                                       \
    }                                                                                   \
  } while (0)

#endif
