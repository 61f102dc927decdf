/* A program written for GA ChemIO's eaf.h, built unchanged against pario's
 * compat header: every EAF call, GA's conventions (EAF_Eof returns 0 for
 * end of file, EAF_Probe status 0 = done, deleting a missing file is fine). */
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "eaf.h"
#include "../capi/check.h"

int main(void) {
  const char *dir = getenv("PARIO_SCRATCH");
  char path[4096];
  snprintf(path, sizeof path, "%s/eaf_test.dat", dir ? dir : "/tmp");
  int fd = -1, id[8], status = -1, rc;
  double buf[1000], back[1000];
  for (int i = 0; i < 1000; ++i) buf[i] = i * 0.5;

  CHECK(EAF_Open(path, EAF_W, &fd) == 0);
  CHECK(EAF_Write(fd, 0.0, buf, sizeof buf) == 0);
  for (int k = 0; k < 8; ++k) CHECK(EAF_Awrite(fd, (k + 1) * 8000.0, buf, sizeof buf, &id[k]) == 0);
  CHECK(EAF_Probe(id[0], &status) == 0 && (status == 0 || status == 1));
  for (int k = 0; k < 8; ++k) CHECK(EAF_Wait(fd, id[k]) == 0);
  CHECK(EAF_Wait(fd, id[0]) != 0); /* waited twice */
  eaf_off_t len = 0;
  CHECK(EAF_Length(fd, &len) == 0 && len == 9 * 8000.0);
  /* GA's per-file counters, with pario's statistics off. */
  char out[4200];
  snprintf(out, sizeof out, "%s.stats", path);
  fflush(stdout);
  const int saved = dup(1);
  FILE *sink = fopen(out, "w+");
  CHECK(sink != NULL && saved >= 0);
  dup2(fileno(sink), 1);
  EAF_Print_stats(fd);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  char text[4096] = "";
  rewind(sink);
  text[fread(text, 1, sizeof text - 1, sink)] = '\0';
  fclose(sink);
  unlink(out);
  long w = -1, r = -1, aw = -1, ar = -1, wt = -1;
  const char *calls = strstr(text, "calls:");
  CHECK(calls && sscanf(calls, "calls: %ld %ld %ld %ld %ld", &w, &r, &aw, &ar, &wt) == 5);
  CHECK(w == 1 && r == 0 && aw == 8 && ar == 0 && wt == 9);
  CHECK(strstr(text, "size=72000 bytes") != NULL && strstr(text, path) != NULL);
  CHECK(EAF_Close(fd) == 0);
  CHECK(EAF_Close(fd) != 0); /* closed */

  CHECK(EAF_Open(path, EAF_R, &fd) == 0);
  CHECK(EAF_Aread(fd, 8 * 8000.0, back, sizeof back, &id[0]) == 0);
  CHECK(EAF_Wait(fd, id[0]) == 0);
  CHECK(memcmp(buf, back, sizeof buf) == 0);
  rc = EAF_Read(fd, len - 8, back, 16);
  CHECK(rc != 0 && EAF_Eof(rc) == 0);
  CHECK(EAF_Eof(0) != 0);
  char msg[80];
  EAF_Errmsg(rc, msg);
  CHECK(strstr(msg, "out of range") != NULL);
  CHECK(EAF_Write(fd, 0.0, buf, 8) != 0); /* read-only */
  rc = EAF_Read(fd, 1.5, back, 8);       /* not a whole byte offset */
  CHECK(rc != 0);
  EAF_Errmsg(rc, msg);
  CHECK(strstr(msg, "1.5") != NULL);
  CHECK(EAF_Close(fd) == 0);

  CHECK(EAF_Open(path, EAF_RW, &fd) == 0);
  CHECK(EAF_Truncate(fd, 100.0) == 0);
  CHECK(EAF_Length(fd, &len) == 0 && len == 100.0);
  CHECK(EAF_Close(fd) == 0);
  rc = EAF_Open(path, 7, &fd); /* bad mode */
  CHECK(rc != 0);
  EAF_Errmsg(rc, msg);
  CHECK(strstr(msg, "type 7") != NULL);

  long kb = -1;
  char fstype[32];
  CHECK(EAF_Stat(path, &kb, fstype, sizeof fstype) == 0 && kb >= 0 && fstype[0]);
  /* GA's EAF_Stat reports megabytes (its kilobyte count shifted by ten);
   * the disk is shared, so allow for what others write meanwhile. */
  struct statvfs vfs;
  CHECK(statvfs(path, &vfs) == 0);
  const long mb = (long)(((unsigned long long)vfs.f_bavail * vfs.f_frsize) >> 20);
  const long slack = mb / 50 > 64 ? mb / 50 : 64;
  CHECK(kb >= mb - slack && kb <= mb + slack);
  CHECK(EAF_Stat(path, &kb, fstype, 4) != 0);
  CHECK(EAF_Delete(path) == 0);
  CHECK(EAF_Delete(path) == 0); /* GA: a missing file is not an error */
  return check_summary("eaf_test");
}
