/* The DDI API as GAMESS-style C code uses it, at 1, 2 and 4 ranks and on
 * emulated nodes: column distributions, patches across rank boundaries,
 * accumulate and fetch-and-accumulate from every rank at once, counters,
 * scopes and groups, and bad input (run with PARIO_DDI_ERRORS=return).
 * With the argument "abort" every rank makes one bad call in the default
 * mode, which must end the job with a message; with "abort-one" only the
 * last rank does while the others wait in DDI_Sync, and the job must still
 * end rather than hang. */
#include <stdlib.h>
#include <string.h>

#include "ddi.h"
#include "../capi/check.h"

static int np, me;

/* Checks that the last DDI call failed and its message mentions text. */
#define CHECK_DDI_FAILS(call, text)                                          \
  do {                                                                       \
    char m_[512];                                                            \
    call;                                                                    \
    int rc_ = DDI_Last_error(m_, sizeof m_);                                 \
    CHECK(rc_ != 0);                                                         \
    if (!strstr(m_, (text))) {                                               \
      fprintf(stderr, "%s:%d: message '%s' lacks '%s'\n", __FILE__, __LINE__, \
              m_, (text));                                                   \
      ++check_failures;                                                      \
    }                                                                        \
  } while (0)

#define CHECK_DDI_OK() CHECK(DDI_Last_error(NULL, 0) == 0)

static double value(int i, int j) { return i + 1000.0 * j; }

static void distribution(void) {
  int h = -1;
  const int idim = 7, jdim = 13;
  DDI_Create(idim, jdim, &h);
  CHECK_DDI_OK();
  /* DDI's even split: the first jdim % np ranks get one column more. */
  int next = 0;
  for (int r = 0; r < np; ++r) {
    int ilo, ihi, jlo, jhi;
    DDI_Distrib(h, r, &ilo, &ihi, &jlo, &jhi);
    const int cols = jdim / np + (r < jdim % np);
    CHECK(ilo == 0 && ihi == idim - 1 && jlo == next && jhi == next + cols - 1);
    next += cols;
  }
  int nnodes, mynode;
  DDI_NNode(&nnodes, &mynode);
  int covered = 0;
  for (int n = 0; n < nnodes; ++n) {
    int ilo, ihi, jlo, jhi;
    DDI_NDistrib(h, n, &ilo, &ihi, &jlo, &jhi);
    CHECK_DDI_OK();
    CHECK(jlo == covered);
    covered = jhi + 1;
  }
  CHECK(covered == jdim);

  /* Rank 0 writes the whole array column-major; everyone reads a patch
   * that crosses rank boundaries. */
  if (me == 0) {
    double *all = malloc(sizeof(double) * idim * jdim);
    for (int j = 0; j < jdim; ++j)
      for (int i = 0; i < idim; ++i) all[i + j * idim] = value(i, j);
    DDI_Put(h, 0, idim - 1, 0, jdim - 1, all);
    CHECK_DDI_OK();
    free(all);
  }
  DDI_Sync(1);
  double patch[4 * 11];
  DDI_Get(h, 2, 5, 1, 11, patch);
  CHECK_DDI_OK();
  int good = 1;
  for (int j = 0; j < 11; ++j)
    for (int i = 0; i < 4; ++i) good &= patch[i + 4 * j] == value(2 + i, 1 + j);
  CHECK(good);
  DDI_Sync(2);

  /* Every rank adds (rank + 1) everywhere at once; DDI_AccP with 2x. */
  double *ones = malloc(sizeof(double) * idim * jdim);
  for (int k = 0; k < idim * jdim; ++k) ones[k] = me + 1;
  DDI_Acc(h, 0, idim - 1, 0, jdim - 1, ones);
  DDI_Patch p = {0};
  p.ilo = 1, p.ihi = 1, p.jlo = 0, p.jhi = jdim - 1;
  DDI_AccP(h, &p, 2.0, ones);
  CHECK_DDI_OK();
  DDI_Sync(3);
  double back[7 * 13];
  DDI_Get(h, 0, idim - 1, 0, jdim - 1, back);
  const double added = np * (np + 1) / 2.0;
  good = 1;
  for (int j = 0; j < jdim; ++j)
    for (int i = 0; i < idim; ++i)
      good &= back[i + j * idim] == value(i, j) + (i == 1 ? 3 : 1) * added;
  CHECK(good);
  free(ones);

  DDI_Zero(h);
  DDI_Get(h, 6, 6, 12, 12, back);
  CHECK(back[0] == 0.0);
  DDI_Destroy(h);
  CHECK_DDI_OK();
}

/* Fetch-and-add: every rank adds 1 to one element 20 times; the old values
 * seen across all ranks must be exactly 0 .. 20*np - 1, each once. */
static void get_acc(void) {
  int h = -1;
  DDI_Create(3, 2 * np, &h);
  const int rounds = 20, total = rounds * np;
  double *seen = calloc(total, sizeof(double));
  for (int k = 0; k < rounds; ++k) {
    double v = 1.0;
    DDI_GetAcc(h, 1, 1, np, np, &v); /* column np: rank np/2's patch */
    CHECK(v >= 0 && v < total);
    if (v >= 0 && v < total) seen[(int)v] += 1;
  }
  CHECK_DDI_OK();
  DDI_GSum(seen, total, DDI_DOUBLE);
  int once = 1;
  for (int k = 0; k < total; ++k) once &= seen[k] == 1.0;
  CHECK(once);
  /* A 2-column patch: old values come back, new ones are summed. */
  DDI_Sync(4);
  double two[3 * 2] = {1, 1, 1, 1, 1, 1};
  DDI_GetAcc(h, 0, 2, 0, 1, two);
  DDI_Sync(5);
  double after[3 * 2];
  DDI_Get(h, 0, 2, 0, 1, after);
  CHECK(after[0] == np && after[5] == np);
  free(seen);
  DDI_Destroy(h);
}

static void counters_and_collectives(void) {
  /* DDI_DLBNext hands out 0, 1, 2, ... each exactly once. */
  const int tasks = 50;
  double taken[50] = {0};
  DDI_DLBReset();
  for (;;) {
    size_t t;
    DDI_DLBNext(&t);
    if (t >= (size_t)tasks) break;
    taken[t] += 1;
  }
  DDI_GSum(taken, tasks, DDI_DOUBLE);
  int once = 1;
  for (int k = 0; k < tasks; ++k) once &= taken[k] == 1.0;
  CHECK(once);
  DDI_DLBReset();
  size_t first;
  DDI_DLBNext(&first);
  DDI_Sync(6);
  long lfirst = first == 0;
  DDI_GSum(&lfirst, 1, DDI_LONG);
  CHECK(lfirst == 1); /* exactly one rank got 0 after the reset */

  /* Per-rank counters: everyone takes 3 from rank 0's counter. */
  int c = -1;
  DDI_ProcDLB_create(&c);
  CHECK_DDI_OK();
  for (int k = 0; k < 3; ++k) {
    int v = -1;
    DDI_ProcDLB_next(c, 0, &v);
    CHECK(v >= 0 && v < 3 * np);
  }
  DDI_Sync(7);
  int v = -1;
  DDI_ProcDLB_next(c, 0, &v);
  CHECK(v >= 3 * np && v < 4 * np);
  DDI_ProcDLB_destroy(c);
  CHECK_DDI_OK();

  int isum[2] = {me, 1};
  DDI_GSum(isum, 2, DDI_INT);
  CHECK(isum[0] == np * (np - 1) / 2 && isum[1] == np);
  char word[16] = "";
  if (me == np - 1) strcpy(word, "from the last");
  DDI_BCast(word, sizeof word, np - 1);
  CHECK(strcmp(word, "from the last") == 0);
}

/* Two groups: each sees only its own ranks, arrays and counters; the
 * masters scope holds one rank per group. */
static void groups(void) {
  if (np < 2) return;
  int world, group, masters;
  DDI_Group_create(2, &world, &group, &masters);
  CHECK_DDI_OK();
  CHECK(world == DDI_WORLD && group == DDI_GROUP && masters == DDI_MASTERS);
  int ngroups, mygroup, gnp, gme;
  DDI_NGroup(&ngroups, &mygroup);
  DDI_NProc(&gnp, &gme);
  CHECK(ngroups == 2 && mygroup == (me < (np + 1) / 2 ? 0 : 1));
  CHECK(gnp == (mygroup == 0 ? (np + 1) / 2 : np / 2));
  int h = -1;
  DDI_Create(2, 4, &h); /* in the group scope */
  double mark[2 * 4];
  for (int k = 0; k < 8; ++k) mark[k] = 10 + mygroup;
  if (gme == 0) DDI_Put(h, 0, 1, 0, 3, mark);
  DDI_Sync(8);
  double got[2 * 4];
  DDI_Get(h, 0, 1, 0, 3, got);
  CHECK(got[0] == 10 + mygroup && got[7] == 10 + mygroup);
  size_t t;
  DDI_DLBNext(&t); /* the group's counter: starts at 0 in each group */
  long zeros = t == 0;
  DDI_GSum(&zeros, 1, DDI_LONG);
  CHECK(zeros == 1);

  DDI_Scope(DDI_MASTERS);
  int mnp, mme;
  DDI_NProc(&mnp, &mme);
  CHECK(gme == 0 ? mnp == 2 : mnp == 1);
  if (gme == 0) {
    long one = 1;
    DDI_GSum(&one, 1, DDI_LONG);
    CHECK(one == 2);
  }
  DDI_Scope(DDI_GROUP);
  /* A handle bad on the group's last rank alone, inside the group scope:
   * refused there, and the group's others fail too (that rank once agreed
   * over the world while they agreed over the group: both waited for ever). */
  if (gnp > 1) {
    CHECK_DDI_FAILS(DDI_Zero(gme == gnp - 1 ? 999 : h),
                    gme == gnp - 1 ? "not a live DDI array" : "different collectives");
  }
  DDI_Destroy(h);
  DDI_Scope(DDI_WORLD);
  DDI_NProc(&gnp, &gme);
  CHECK(gnp == np && gme == me);
  CHECK_DDI_OK();
}

static void bad_input(void) {
  int h = -1;
  double buf[4];
  CHECK_DDI_FAILS(DDI_Get(7777, 0, 0, 0, 0, buf), "not a live DDI array");
  DDI_Create(4, 4, &h);
  CHECK_DDI_FAILS(DDI_Get(h, 0, 4, 0, 0, buf), "rows 0..4 is not within 0..3");
  CHECK_DDI_FAILS(DDI_Put(h, 2, 1, 0, 0, buf), "rows 2..1");
  CHECK_DDI_FAILS(DDI_Acc(h, 0, 0, -1, 0, buf), "columns -1..0");
  CHECK_DDI_FAILS(DDI_Get(h, 0, 0, 0, 0, NULL), "buffer is null");
  int a, b, c, d;
  CHECK_DDI_FAILS(DDI_Distrib(h, np, &a, &b, &c, &d), "not in array");
  CHECK_DDI_FAILS(DDI_GSum(buf, 1, 3), "is not DDI_DOUBLE");
  CHECK_DDI_FAILS(DDI_Scope(5), "scope 5");
  CHECK_DDI_FAILS(DDI_ProcDLB_next(99, 0, &h), "not a live DDI_ProcDLB");
  CHECK_DDI_FAILS(DDI_Create(0, 3, &h), "at least 1");
  /* The same on the last rank alone: refused there, PARIO_ERR_REMOTE on
   * the others. They once waited in the memory cap's sum for ever. */
  if (np > 1) {
    CHECK_DDI_FAILS(DDI_Create(me == np - 1 ? 0 : 3, 3, &h), me == np - 1 ? "at least 1" : "other rank");
  }
  CHECK_DDI_FAILS(DDI_Group_create(np + 1, NULL, NULL, NULL), "groups: need 1..");
  /* A handle bad on the last rank alone: refused there, the others told
   * that rank failed (they once waited in pario's zero for ever). */
  if (np > 1) CHECK_DDI_FAILS(DDI_Zero(me == np - 1 ? 999 : h), me == np - 1 ? "not a live DDI array" : "failed");
  DDI_Destroy(h);
  CHECK_DDI_OK();
  CHECK_DDI_FAILS(DDI_Destroy(h), "not a live DDI array");
  /* The memory cap: 1 megaword, then an array of 2. */
  DDI_Memory(1);
  CHECK_DDI_FAILS(DDI_Create(1024, 2048, &h), "exceeds the DDI_Memory cap");
  DDI_Create(1024, 512, &h);
  CHECK_DDI_OK();
  DDI_Destroy(h);
  DDI_Memory(0);
}

int main(int argc, char **argv) {
  DDI_Init(argc, argv);
  DDI_NProc(&np, &me);
  if (argc > 1 && strncmp(argv[1], "abort", 5) == 0) {
    double x;
    if (strcmp(argv[1], "abort") == 0 || me == np - 1) {
      DDI_Get(12345, 0, 0, 0, 0, &x); /* default mode: ends the job */
    } else {
      DDI_Sync(1); /* never completes: the failing rank ends the job */
    }
    printf("ddi_test: still running after a fatal error\n");
    return 0;
  }
  distribution();
  get_acc();
  counters_and_collectives();
  groups();
  bad_input();
  /* An array left for DDI_Finalize to destroy. */
  int h;
  DDI_Create(5, 5, &h);
  DDI_Finalize();
  CHECK(DDI_Last_error(NULL, 0) == 0);
  return me == 0 ? check_summary("ddi_test") : (check_failures ? 1 : 0);
}
