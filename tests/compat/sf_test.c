/* GA's sf.h API at 1, 2 and 4 ranks, written as ChemIO's users write it:
 * round-robin asynchronous writes, SF_Waitall, a barrier, cross reads;
 * SF_Close/SF_Open/SF_Rwtor; the hard limit; names; bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sf.h"
#include "../capi/check.h"

enum { kBlock = 3000, kPerRank = 6 };

static int rank, size;
static pario_group_t world;

static unsigned char pattern(int block, int i) { return (unsigned char)(block * 13 + i * 5 + 3); }

int main(void) {
  char dir[400], name[420], made[440], msg[80];
  const char *scratch = getenv("PARIO_SCRATCH");
  snprintf(dir, sizeof dir, "%s", scratch ? scratch : "/tmp");
  snprintf(name, sizeof name, "%s/sf_test", dir);
  int h = -1;
  /* SF_Create starts pario when the program has not. */
  CHECK(SF_Create(name, 1.0e6, 1.0e5, (double)kBlock, &h) == 0);
  CHECK(pario_group_world(&world) == PARIO_OK);
  pario_group_rank(world, &rank);
  pario_group_size(world, &size);
  snprintf(made, sizeof made, "%s.%d", name, h);
  struct stat st;
  CHECK(stat(made, &st) == 0 && (st.st_mode & 0777) == 0600);

  unsigned char *mine = malloc(kPerRank * kBlock), *back = malloc((size_t)kPerRank * size * kBlock);
  int ids[kPerRank];
  for (int k = 0; k < kPerRank; ++k) {
    const int block = k * size + rank;
    for (int i = 0; i < kBlock; ++i) mine[k * kBlock + i] = pattern(block, i);
    CHECK(SF_Write(h, (double)block * kBlock, kBlock, (char *)mine + k * kBlock, &ids[k]) == 0);
  }
  CHECK(SF_Waitall(ids, kPerRank) == 0 && ids[0] == SF_DONE);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  int good = 1;
  for (int block = 0; block < kPerRank * size; ++block) {
    int id;
    CHECK(SF_Read(h, (double)block * kBlock, kBlock, (char *)back + block * kBlock, &id) == 0);
    CHECK(SF_Wait(&id) == 0 && id == SF_DONE);
    for (int i = 0; i < kBlock; ++i) good &= back[block * kBlock + i] == pattern(block, i);
  }
  CHECK(good);
  int id = 12345;
  CHECK(SF_Wait(&id) == PARIO_ERR_INVALID_ARGUMENT); /* never issued */

  /* Local close and reopen, then read-only. */
  CHECK(SF_Close(h) == 0);
  int rc = SF_Read(h, 0, 10, (char *)back, &id);
  CHECK(rc == PARIO_ERR_STATE);
  SF_Errmsg(rc, msg);
  CHECK(strstr(msg, "suspended") != NULL);
  CHECK(SF_Open(h) == 0);
  CHECK(SF_Read(h, 0, 10, (char *)back, &id) == 0 && SF_Wait(&id) == 0);
  CHECK(SF_Fsync(h) == 0);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  CHECK(SF_Rwtor(h) == 0);
  rc = SF_Write(h, 0, 10, (char *)back, &id);
  CHECK(rc == PARIO_ERR_STATE);
  SF_Errmsg(rc, msg);
  CHECK(strstr(msg, "read-only") != NULL);
  CHECK(SF_Open(h) == 0);

  /* The hard limit, past end of file, and bad sizes. */
  rc = SF_Write(h, 1.0e6 - 1, 2, (char *)back, &id);
  CHECK(rc == PARIO_ERR_OUT_OF_RANGE);
  SF_Errmsg(rc, msg);
  CHECK(strstr(msg, "hard limit") != NULL);
  CHECK(SF_Read(h, (double)kPerRank * size * kBlock, 1, (char *)back, &id) == 0);
  CHECK(SF_Wait(&id) == PARIO_ERR_OUT_OF_RANGE);
  rc = SF_Write(h, 0.5, 1, (char *)back, &id);
  CHECK(rc == PARIO_ERR_INVALID_ARGUMENT);
  SF_Errmsg(rc, msg);
  CHECK(strstr(msg, "whole") != NULL);
  CHECK(SF_Write(h + 99, 0, 1, (char *)back, &id) == PARIO_ERR_INVALID_ARGUMENT);

  CHECK(SF_Destroy(h) == 0);
  CHECK(stat(made, &st) != 0);
  CHECK(SF_Destroy(h) != 0);

  /* A suffix names the file; mismatched hints fail everywhere. */
  int hs = -1;
  CHECK(SF_Create_suffix(name, -1, -1, -1, &hs, 42) == 0);
  snprintf(made, sizeof made, "%s.42", name);
  CHECK(stat(made, &st) == 0);
  CHECK(SF_Destroy(hs) == 0);
  if (size > 1) CHECK(SF_Create(name, 1000.0 + rank, -1, -1, &hs) == PARIO_ERR_INVALID_ARGUMENT);
  /* A hint that is not a whole byte count on the last rank alone: refused
   * there, PARIO_ERR_REMOTE on the others (which once went on into the
   * create's collectives and waited there). */
  if (size > 1) {
    const int rc = SF_Create(name, rank == size - 1 ? 1.5 : -1.0, -1, -1, &hs);
    CHECK(rc == (rank == size - 1 ? PARIO_ERR_INVALID_ARGUMENT : PARIO_ERR_REMOTE));
  }

  /* Names that differ between ranks, as GA: each rank's file is the one
   * its own name gives, shared by the ranks that name the same file. */
  char own[440];
  snprintf(own, sizeof own, "%s/sf_test_rank%d", dir, rank);
  int ho = -1;
  CHECK(SF_Create(own, -1, -1, -1, &ho) == 0);
  snprintf(made, sizeof made, "%s.%d", own, ho);
  const char tag = (char)('A' + rank);
  CHECK(SF_Write(ho, 0, 1, (char *)&tag, &id) == 0 && SF_Wait(&id) == 0);
  CHECK(SF_Fsync(ho) == 0);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  FILE *seen = fopen(made, "rb");
  int byte = seen ? fgetc(seen) : EOF;
  CHECK(byte == tag && (!seen || fgetc(seen) == EOF)); /* this rank's alone */
  if (seen) fclose(seen);
  CHECK(SF_Destroy(ho) == 0);
  CHECK(stat(made, &st) != 0);
  /* One file under two spellings (absolute, and relative to the working
   * directory) is one shared file. */
  char cwd[400], same[440];
  CHECK(getcwd(cwd, sizeof cwd) != NULL);
  CHECK(chdir(dir) == 0);
  snprintf(same, sizeof same, rank % 2 ? "./sf_test_same" : "%s/sf_test_same", dir);
  CHECK(SF_Create(same, -1, -1, -1, &ho) == 0);
  if (rank == size - 1) CHECK(SF_Write(ho, 7, 1, (char *)&tag, &id) == 0 && SF_Wait(&id) == 0);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  char last = 0;
  CHECK(SF_Read(ho, 7, 1, &last, &id) == 0 && SF_Wait(&id) == 0 && last == (char)('A' + size - 1));
  CHECK(pario_group_barrier(world) == PARIO_OK);
  CHECK(SF_Destroy(ho) == 0);
  CHECK(chdir(cwd) == 0);

  free(mine);
  free(back);
  CHECK(pario_group_free(&world) == PARIO_OK);
  CHECK(pario_finalize() == PARIO_OK);
  return rank == 0 ? check_summary("sf_test") : (check_failures ? 1 : 0);
}
