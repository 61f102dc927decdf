/* A fault for the tests of replacing a store or file: while rename_fault is
 * not 0, renameat2 fails with it as errno. The executable's definition
 * takes the C library's place for libpario and libpario_compat too (they
 * call renameat2 through the dynamic linker). Include once, in the file
 * with main, after defining _GNU_SOURCE. */
#ifndef PARIO_TEST_RENAME_FAULT_H
#define PARIO_TEST_RENAME_FAULT_H
#include <dlfcn.h>
#include <errno.h>

static int rename_fault;

__attribute__((visibility("default"))) int renameat2(int olddirfd, const char *oldpath, int newdirfd,
                                                     const char *newpath, unsigned int flags) {
  if (rename_fault) {
    errno = rename_fault;
    return -1;
  }
  int (*real)(int, const char *, int, const char *, unsigned int) =
      (int (*)(int, const char *, int, const char *, unsigned int))dlsym(RTLD_NEXT, "renameat2");
  return real(olddirfd, oldpath, newdirfd, newpath, flags);
}

#endif
