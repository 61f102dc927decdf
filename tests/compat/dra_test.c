/* GA's dra.h over pario, with DDI handles as the global arrays, at 1, 2
 * and 4 ranks: whole and section transfers (C order, 0-based, inclusive),
 * transposed, asynchronous with DRA_Probe and DRA_Wait, close and reopen,
 * inquire, delete, and errors (bad handles, mismatched sections). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ddi.h"
#include "dra.h"
#include "dra_check.h"
#include "pario/pario.h"
#include "../capi/rename_fault.h"
#include <dirent.h>

/* Entries in the directory of `prefix` whose names start with its last
 * component: what a replace left beside a file. */
static int names_with_prefix(const char *prefix) {
  char dir[4400];
  snprintf(dir, sizeof dir, "%s", prefix);
  char *slash = strrchr(dir, '/');
  const char *base = slash ? strrchr(prefix, '/') + 1 : prefix;
  if (slash) *slash = 0;
  DIR *d = opendir(slash ? dir : ".");
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) n += strncmp(e->d_name, base, strlen(base)) == 0;
  if (d) closedir(d);
  return n;
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static int file_holds(const char *path, const char *text) {
  char got[64] = {0};
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  const size_t n = fread(got, 1, sizeof got - 1, f);
  fclose(f);
  return n == strlen(text) && memcmp(got, text, n) == 0;
}

/* DDI arrays are idim x jdim column-major: seen from C's NDRA calls they
 * are [jdim][idim]. Element (i, j) (0-based, Fortran order) holds this. */
static double value(int i, int j) { return i + 1000.0 * j; }

int main(void) {
  DDI_Init(0, NULL);
  int np, me;
  DDI_NProc(&np, &me);
  const int idim = 30, jdim = 21;
  int a, b, t;
  DDI_Create(idim, jdim, &a);
  DDI_Create(idim, jdim, &b);
  DDI_Create(jdim, idim, &t); /* the transpose */
  static double buf[30 * 21], got[30 * 21];
  for (int j = 0; j < jdim; ++j)
    for (int i = 0; i < idim; ++i) buf[j * idim + i] = value(i, j);
  if (me == 0) DDI_Put(a, 0, idim - 1, 0, jdim - 1, buf);
  DDI_Sync(1);

  CHECK(DRA_Init(4, 1e8, 1e10, 1e7) == 0);
  char path[4096];
  CHECK(pario_scratch_path("dra_test.da", path, sizeof path) == PARIO_OK);
  *strrchr(path, '.') = '\0'; /* one path for all ranks */
  dra_size_t dims[2] = {jdim, idim}, req[2] = {7, 30};
  int d, r;
  /* GA creates over a plain file at the name (programs fopen it first to
   * check that the directory is writable). */
  if (me == 0) {
    FILE *probe = fopen(path, "w");
    CHECK(probe != NULL);
    if (probe) fclose(probe);
  }
  DDI_Sync(2);
  /* MT_F_DBL from C: the type given, like the name, is kept in the store */
  CHECK(NDRA_Create(1013 /* MT_F_DBL */, 2, dims, "test array", path, DRA_RW, req, &d) == 0);
  CHECK(NDRA_Write(a, d, &r) == 0);
  CHECK(DRA_Wait(r) == 0);
  CHECK(DRA_Wait(r) == 0); /* GA: waiting again on a completed request is fine */
  int done = 0;
  CHECK(DRA_Probe(r, &done) == 0 && done == ELIO_DONE);
  /* A section, transposed: a[cols 2..9][rows 5..16] -> d[rows 3..14][cols 11..18]
   * in C order, so d[3 + x][11 + y] = a[2 + y][5 + x]. */
  int glo[2] = {2, 5}, ghi[2] = {9, 16};
  dra_size_t dlo[2] = {3, 11}, dhi[2] = {14, 18};
  CHECK(NDRA_Write_section(1, a, glo, ghi, d, dlo, dhi, &r) == 0);
  int status = 0, spins = 0;
  do CHECK(DRA_Probe(r, &status) == 0);
  while (status != ELIO_DONE && ++spins < 1000000);
  CHECK(status == ELIO_DONE);
  CHECK(DRA_Wait(r) == 0);
  CHECK(DRA_Close(d) == 0);

  int d2, type = 0, nd = 0;
  CHECK(DRA_Open(path, DRA_R, &d2) == 0);
  dra_size_t shape[7] = {0};
  char name[1024], file[1024];
  CHECK(NDRA_Inquire(d2, &type, &nd, shape, name, file) == 0);
  CHECK(type == 1013 && nd == 2 && shape[0] == jdim && shape[1] == idim && strcmp(file, path) == 0);
  CHECK(strcmp(name, "test array") == 0); /* after DRA_Open too */
  CHECK(NDRA_Read(b, d2, &r) == 0);
  CHECK(DRA_Wait(r) == 0);
  DDI_Get(b, 0, idim - 1, 0, jdim - 1, got);
  int bad = 0;
  for (int j = 0; j < jdim; ++j)     /* C row j */
    for (int i = 0; i < idim; ++i) { /* C column i */
      const int in = j >= 3 && j <= 14 && i >= 11 && i <= 18;
      const double want = in ? value(5 + (j - 3), 2 + (i - 11)) : value(i, j);
      bad += got[j * idim + i] != want;
    }
  CHECK(bad == 0);
  /* The whole array read transposed into t. */
  int tlo[2] = {0, 0}, thi[2] = {idim - 1, jdim - 1};
  dra_size_t wlo[2] = {0, 0}, whi[2] = {jdim - 1, idim - 1};
  CHECK(NDRA_Read_section(1, t, tlo, thi, d2, wlo, whi, &r) == 0);
  CHECK(DRA_Wait(r) == 0);
  DDI_Get(t, 0, jdim - 1, 0, idim - 1, got);
  bad = 0;
  for (int i = 0; i < idim; ++i)
    for (int j = 0; j < jdim; ++j) {
      const int in = j >= 3 && j <= 14 && i >= 11 && i <= 18;
      const double want = in ? value(5 + (j - 3), 2 + (i - 11)) : value(i, j);
      bad += got[i * jdim + j] != want;
    }
  CHECK(bad == 0);

  /* Errors: a handle never opened, a bad global array, sections of
   * another shape, a read-only array written, a bad type. */
  CHECK(d2 == d); /* DRA_Close freed the slot DRA_Open reuses */
  CHECK(NDRA_Write(a, 99, &r) == PARIO_ERR_INVALID_ARGUMENT && r == DRA_REQ_INVALID);
  CHECK(NDRA_Read(12345, d2, &r) == PARIO_ERR_INVALID_ARGUMENT);
  char msg[80];
  DRA_Errmsg(PARIO_ERR_INVALID_ARGUMENT, msg);
  CHECK(strstr(msg, "12345") != NULL);
  int shorter[2] = {2, 5};
  CHECK(NDRA_Read_section(0, b, glo, shorter, d2, dlo, dhi, &r) == PARIO_ERR_INVALID_ARGUMENT);
  DRA_Errmsg(PARIO_ERR_INVALID_ARGUMENT, msg);
  CHECK(strstr(msg, "differ in shape") != NULL);
  /* The same on the last rank alone: every rank is refused, that rank
   * with its own error and the others with PARIO_ERR_REMOTE. The others
   * once went on into the read's collective start and met the last
   * rank's next call there ("different collectives"). */
  if (np > 1) {
    const int rc = NDRA_Read_section(1, b, glo, me == np - 1 ? shorter : ghi, d2, dlo, dhi, &r);
    CHECK(rc == (me == np - 1 ? PARIO_ERR_INVALID_ARGUMENT : PARIO_ERR_REMOTE));
    CHECK(r == DRA_REQ_INVALID);
  }
  CHECK(NDRA_Write(a, d2, &r) != 0);
  CHECK(DRA_Wait(DRA_REQ_INVALID) == 0);
  CHECK(DRA_Wait(77) == PARIO_ERR_INVALID_ARGUMENT);
  int d3;
  CHECK(NDRA_Create(999, 2, dims, "bad", path, DRA_RW, req, &d3) == PARIO_ERR_INVALID_ARGUMENT);
  CHECK(DRA_Delete(d2) == 0);
  CHECK(DRA_Open(path, DRA_R, &d3) != 0); /* gone */

  /* A name longer than NDRA_Inquire's 1024 bytes for an opened array
   * (the stored name is the file's, untrusted): the filename stands in,
   * never a copy past the caller's buffer. */
  {
    static char long_name[3000];
    memset(long_name, 'n', sizeof long_name - 1);
    CHECK(NDRA_Create(1013, 2, dims, long_name, path, DRA_RW, req, &d3) == 0);
    CHECK(DRA_Close(d3) == 0);
    CHECK(DRA_Open(path, DRA_R, &d3) == 0);
    char short_name[1024], short_file[1024];
    CHECK(NDRA_Inquire(d3, &type, &nd, shape, short_name, short_file) == 0);
    CHECK(strcmp(short_name, path) == 0 && strcmp(short_file, path) == 0);
    CHECK(DRA_Delete(d3) == 0);
  }

  /* Each rank names its own file: as in GA, rank 0's name is the array's. */
  char mine[4200];
  snprintf(mine, sizeof mine, me == 0 ? "%s" : "%s.rank%d", path, me);
  CHECK(NDRA_Create(1013, 2, dims, "per rank", mine, DRA_RW, req, &d3) == 0);
  CHECK(NDRA_Write(a, d3, &r) == 0 && DRA_Wait(r) == 0);
  /* A probe of a request number never handed out, on the last rank alone:
   * refused there, PARIO_ERR_REMOTE on the others (who once waited in the
   * probe's sum for ever); the write is then waited for everywhere. */
  if (np > 1) {
    CHECK(NDRA_Write(a, d3, &r) == 0);
    int probed = 0;
    CHECK(DRA_Probe(me == np - 1 ? 77 : r, &probed) == (me == np - 1 ? PARIO_ERR_INVALID_ARGUMENT : PARIO_ERR_REMOTE));
    CHECK(DRA_Wait(r) == 0);
  }
  /* A wait for a number never handed out, on the last rank alone, while
   * the others wait for a write: that rank's oldest transfer ends with its
   * error, so the others get PARIO_ERR_REMOTE (they once waited for ever),
   * and its own wait for the write then says the write was ended so. */
  if (np > 1) {
    CHECK(NDRA_Write(a, d3, &r) == 0);
    CHECK(DRA_Wait(me == np - 1 ? 77 : r) == (me == np - 1 ? PARIO_ERR_INVALID_ARGUMENT : PARIO_ERR_REMOTE));
    CHECK(DRA_Wait(r) == (me == np - 1 ? PARIO_ERR_INVALID_ARGUMENT : 0));
  }
  CHECK(NDRA_Inquire(d3, &type, &nd, shape, name, file) == 0 && strcmp(file, path) == 0);
  CHECK(DRA_Close(d3) == 0);
  FILE *other = me == 0 ? NULL : fopen(mine, "r");
  CHECK(other == NULL); /* never made */
  if (other) fclose(other);
  /* Over an old store, of another shape: replaced. */
  dra_size_t small[2] = {5, 4};
  CHECK(NDRA_Create(1013, 2, small, "again", path, DRA_RW, NULL, &d3) == 0);
  CHECK(NDRA_Inquire(d3, &type, &nd, shape, name, file) == 0 && shape[0] == 5 && shape[1] == 4);
  CHECK(DRA_Close(d3) == 0);
  /* Never through a symbolic link: the store it names is left alone. */
  char link[4200];
  snprintf(link, sizeof link, "%s.link", path);
  if (me == 0) {
    unlink(link);
    CHECK(symlink(path, link) == 0);
  }
  DDI_Sync(3);
  CHECK(NDRA_Create(1013, 2, dims, "through a link", link, DRA_RW, req, &d3) != 0);
  CHECK(DRA_Open(path, DRA_R, &d3) == 0);
  CHECK(NDRA_Inquire(d3, &type, &nd, shape, name, file) == 0 && shape[0] == 5 && strcmp(name, "again") == 0);
  CHECK(DRA_Delete(d3) == 0);
  DDI_Sync(4);
  if (me == 0) unlink(link);

  /* Over a plain file the store is made under another name and swapped in
   * (renameat2 RENAME_EXCHANGE): a failure before or at the swap leaves
   * the file as it was and no new store. */
  char plain[4200], leftover[4300];
  snprintf(plain, sizeof plain, "%s.plain", path);
  snprintf(leftover, sizeof leftover, "%s.pario-new-", plain); /* the prefix of the fresh names */
  if (me == 0) write_file(plain, "old contents");
  DDI_Sync(5);
  dra_size_t bad_dims[2] = {-3, 4};
  CHECK(NDRA_Create(1013, 2, bad_dims, "refused", plain, DRA_RW, NULL, &d3) != 0);
  if (me == 0) CHECK(file_holds(plain, "old contents"));
  rename_fault = EIO; /* the exchange fails (rank 0 makes it) */
  CHECK(NDRA_Create(1013, 2, small, "not swapped", plain, DRA_RW, NULL, &d3) == PARIO_ERR_IO);
  rename_fault = 0;
  DRA_Errmsg(PARIO_ERR_IO, msg);
  CHECK(strstr(msg, "cannot put the new disk array") != NULL);
  struct stat st;
  if (me == 0) CHECK(file_holds(plain, "old contents") && names_with_prefix(leftover) == 0);
  rename_fault = EINVAL; /* no RENAME_EXCHANGE here: renamed aside, then in */
  CHECK(NDRA_Create(1013, 2, small, "fallback", plain, DRA_RW, NULL, &d3) == 0);
  rename_fault = 0;
  CHECK(NDRA_Inquire(d3, &type, &nd, shape, name, file) == 0 && strcmp(name, "fallback") == 0);
  if (me == 0) CHECK(names_with_prefix(leftover) == 0); /* nor a fresh name's .old */
  CHECK(DRA_Delete(d3) == 0);
  if (me == 0) write_file(plain, "old contents");
  DDI_Sync(6);
  CHECK(NDRA_Create(1013, 2, small, "swapped", plain, DRA_RW, NULL, &d3) == 0);
  CHECK(NDRA_Inquire(d3, &type, &nd, shape, name, file) == 0 && strcmp(name, "swapped") == 0);
  if (me == 0) CHECK(stat(plain, &st) == 0 && S_ISDIR(st.st_mode) && names_with_prefix(leftover) == 0);
  CHECK(DRA_Delete(d3) == 0);
  CHECK(DRA_Terminate() == 0);
  DDI_Destroy(t);
  DDI_Destroy(b);
  DDI_Destroy(a);
  DDI_Finalize();
  if (me == 0) printf("dra_test: %s\n", failures ? "FAIL" : "ok");
  return failures ? 1 : 0;
}
