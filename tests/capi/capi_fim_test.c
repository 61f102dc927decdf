/* Files in Memory through the C API. CTest runs it with PARIO_FIM='*.fim'
 * and PARIO_FIM_BUDGET=1M:
 *   - pario_init removes a segment whose process died without unlinking it;
 *   - a process killed with SIGKILL while holding RAM files leaves no
 *     segment behind;
 *   - a RAM file spills mid-file to its disk path when the budget is spent,
 *     reads back the same, and survives close + reopen;
 *   - a RAM file that never spilled has no disk file while it lives, and is
 *     written to disk at pario_finalize (nothing is lost);
 *   - files not matching the rules stay on disk. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

/* Entries in /dev/shm of this user's pario segments made by pid. */
static int segments_of(pid_t pid) {
  char prefix[64];
  snprintf(prefix, sizeof prefix, "pario.%d.%d.", (int)getuid(), (int)pid);
  int n = 0;
  DIR *d = opendir("/dev/shm");
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d))) n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
  closedir(d);
  return n;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Child mode: hold a RAM file, say so on fd 1, then wait to be killed. */
static int hold(void) {
  if (pario_init() != PARIO_OK) return 1;
  char path[4096];
  pario_scratch_path("held.fim", path, sizeof path);
  pario_file_t f;
  static char block[65536];
  if (pario_file_open(path, PARIO_MODE_RDWR | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &f) != PARIO_OK) return 1;
  if (pario_file_write(f, 0, block, sizeof block) != PARIO_OK) return 1;
  if (write(1, "ready\n", 6) != 6) return 1;
  pause();
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "hold") == 0) return hold();

  /* A stale segment: made by a child that exits without unlinking. */
  char stale[128];
  snprintf(stale, sizeof stale, "/pario.%d.%d.00000000deadbeef", (int)getuid(), 0);
  pid_t pid = fork();
  if (pid == 0) {
    snprintf(stale, sizeof stale, "/pario.%d.%d.00000000deadbeef", (int)getuid(), (int)getpid());
    int fd = shm_open(stale, O_RDWR | O_CREAT | O_EXCL, 0600);
    _exit(fd >= 0 ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0); /* it made the segment */

  /* A process killed while it holds a RAM file (before MPI starts here:
   * no fork after MPI_Init). */
  int out[2];
  CHECK(pipe(out) == 0);
  pid_t holder = fork();
  if (holder == 0) {
    dup2(out[1], 1);
    close(out[0]);
    execl(argv[0], argv[0], "hold", (char *)NULL);
    _exit(127);
  }
  close(out[1]);
  char ready[8] = {0};
  CHECK(read(out[0], ready, 6) == 6 && strcmp(ready, "ready\n") == 0);
  kill(holder, SIGKILL);
  waitpid(holder, &status, 0);
  close(out[0]);
  CHECK(segments_of(holder) == 0); /* every name was unlinked once attached */

  CHECK(pario_init() == PARIO_OK);
  CHECK(segments_of(pid) == 0); /* pario_init removed the dead one's (or a
                                  * parallel test's pario_init did first) */
  CHECK(segments_of(getpid()) == 0);

  /* Spill mid-file: 3 MiB through a 1 MiB budget. */
  char path[4096], kept[4096], plain[4096];
  pario_scratch_path("spill.fim", path, sizeof path);
  pario_scratch_path("kept.fim", kept, sizeof kept);
  pario_scratch_path("plain.dat", plain, sizeof plain);
  const size_t n = 3 << 20;
  char *data = malloc(n), *back = malloc(n);
  for (size_t i = 0; i < n; ++i) data[i] = (char)(i * 7 + 3);
  pario_file_t f;
  CHECK(pario_file_open(path, PARIO_MODE_RDWR | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &f) == PARIO_OK);
  CHECK(pario_file_write(f, 0, data, n) == PARIO_OK);
  struct stat st;
  CHECK(stat(path, &st) == 0); /* the spilled part: 2 MiB after a 1 MiB hole */
  CHECK(st.st_size == (off_t)n && st.st_blocks * 512 <= (off_t)(2 << 20) + 65536);
  CHECK(pario_file_read(f, 0, back, n) == PARIO_OK && memcmp(back, data, n) == 0);
  CHECK(pario_file_close(&f) == PARIO_OK);
  CHECK(pario_file_open(path, PARIO_MODE_READ, &f) == PARIO_OK); /* reopened: still there */
  memset(back, 0, n);
  CHECK(pario_file_read(f, 0, back, n) == PARIO_OK && memcmp(back, data, n) == 0);
  CHECK(pario_file_close(&f) == PARIO_OK);
  CHECK(pario_file_delete(path) == PARIO_OK);
  CHECK(!exists(path));
  CHECK(pario_file_open(path, PARIO_MODE_READ, &f) == PARIO_ERR_NOT_FOUND);

  /* Never spilled: no disk file until finalize writes it. The budget is
   * free again now that the spilled file is gone. */
  CHECK(pario_file_open(kept, PARIO_MODE_RDWR | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &f) == PARIO_OK);
  CHECK(pario_file_write(f, 100, data, 5000) == PARIO_OK);
  CHECK(pario_file_close(&f) == PARIO_OK);
  CHECK(!exists(kept));

  /* Not matching the rules: on disk at once. */
  CHECK(pario_file_open(plain, PARIO_MODE_RDWR | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &f) == PARIO_OK);
  CHECK(pario_file_write(f, 0, data, 10) == PARIO_OK);
  CHECK(pario_file_close(&f) == PARIO_OK);
  CHECK(exists(plain));
  remove(plain);

  CHECK(pario_finalize() == PARIO_OK);
  FILE *k = fopen(kept, "rb");
  CHECK(k != NULL);
  if (k) {
    memset(back, 1, 5100);
    CHECK(fread(back, 1, 5100, k) == 5100);
    CHECK(fgetc(k) == EOF);
    static const char zeros[100];
    CHECK(memcmp(back, zeros, 100) == 0 && memcmp(back + 100, data, 5000) == 0);
    fclose(k);
  }
  remove(kept);
  free(data);
  free(back);
  return check_summary("capi_fim_test");
}
