/* File modes from C at 1, 2 and 4 ranks: one file, a file per time index,
 * two time indices per file. For each: segments, sections and infos
 * written, the member files there by their documented names, everything
 * read back after reopening (the mode read from the entry file),
 * truncation removing the member files of erased segments, appending again
 * after it, replacing a multi-file dataset with a one-file one, a damaged
 * member (not the last: PARIO_ERR_CORRUPT; the last: dropped as a step cut
 * short), bad options, member files an earlier run left (an exclusive
 * create refuses them, a truncating one removes them). The datasets are kept in DIR for
 * pds_modes_check.py (h5py, no pario) and h5dump_check.sh; one of them is
 * left open for pario_finalize to close (flush).
 *   dataset_modes_test DIR */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int rank, size;
static pario_group_t world;
static const char *dir;

/* temp of segment s, item j (every writer's piece concatenated). */
static double temp_value(int64_t s, int64_t j) { return 1000.0 * (double)s + (double)j; }

/* Rank r writes r + 1 items of temp; they start at item r (r + 1) / 2. */
static void write_temp(pario_dataset_t ds, int64_t seg) {
  double v[8];
  const int64_t first = (int64_t)rank * (rank + 1) / 2;
  for (int i = 0; i <= rank; ++i) v[i] = temp_value(seg, first + i);
  CHECK(pario_dataset_write_ranked(ds, seg, 0, rank + 1, v) == PARIO_OK);
}

/* Every rank reads its even share of segment seg's temp and checks it. */
static void check_temp(pario_dataset_t ds, int64_t seg) {
  const int64_t items = (int64_t)size * (size + 1) / 2;
  int64_t start = 0, count = 0;
  CHECK(pario_dataset_even_split(items, size, rank, &start, &count) == PARIO_OK);
  double v[8] = {0};
  CHECK(pario_dataset_read_items(ds, seg, 0, start, count, v) == PARIO_OK);
  for (int64_t i = 0; i < count; ++i) {
    if (v[i] != temp_value(seg, start + i)) {
      fprintf(stderr, "rank %d: segment %lld temp item %lld is %g, not %g\n", rank, (long long)seg,
              (long long)(start + i), v[i], temp_value(seg, start + i));
      CHECK(0);
    }
  }
}

static void path_of(char *buf, size_t len, const char *name) { snprintf(buf, len, "%s/%s", dir, name); }

static int exists(const char *name) {
  char p[1024];
  path_of(p, sizeof p, name);
  return access(p, F_OK) == 0;
}

/* Segments: topology 0 and state 1 at time index 0, then states at time
 * indices 1..4 (segments 2..5): six segments in five time groups. temp in
 * every state segment; vel (3-vector of float) in the topology; an info on
 * segment 3. */
static void fill(pario_dataset_t ds) {
  int v = -1;
  const int64_t three[1] = {3};
  CHECK(pario_dataset_variable_register(ds, "temp", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK &&
        v == 0);
  CHECK(pario_dataset_variable_register(ds, "vel", PARIO_ITEM_VECTOR, three, PARIO_TYPE_FLOAT, &v) == PARIO_OK &&
        v == 1);
  int64_t seg = -1;
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_TOPOLOGY, 0, 0.0, &seg) == PARIO_OK && seg == 0);
  float vel[6];
  for (int i = 0; i < 6; ++i) vel[i] = (float)(6 * rank + i);
  CHECK(pario_dataset_write_ranked(ds, 0, 1, 2, vel) == PARIO_OK);
  for (int64_t t = 0; t <= 4; ++t) {
    CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, t, 0.5 * (double)t, &seg) == PARIO_OK &&
          seg == t + 1);
    write_temp(ds, seg);
  }
  const double e = -2.5;
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, 3, "energy", PARIO_TYPE_DOUBLE, 1, &e) == PARIO_OK);
}

static void check_all(pario_dataset_t ds, int64_t segments) {
  int64_t n = 0;
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == segments);
  for (int64_t s = 1; s < segments; ++s) check_temp(ds, s);
  float vel[3] = {0};
  CHECK(pario_dataset_read_items(ds, 0, 1, 2 * rank + 1, 1, vel) == PARIO_OK && vel[0] == (float)(6 * rank + 3) &&
        vel[2] == (float)(6 * rank + 5));
  if (segments > 3) {
    double e = 0;
    CHECK(pario_dataset_info_get(ds, PARIO_INFO_SEGMENT, 3, "energy", PARIO_TYPE_DOUBLE, 1, &e, NULL, NULL) ==
              PARIO_OK &&
          e == -2.5);
  }
}

/* One mode: name "<stem>.h5", the member files expected for six segments
 * (files after fill) and after truncating to segments 0..2 (time indices
 * 0 and 1). */
static void one_mode(const char *stem, int mode, int64_t steps, int64_t files, int64_t files_cut) {
  char path[1024], name[300];
  snprintf(name, sizeof name, "%s.h5", stem);
  path_of(path, sizeof path, name);
  pario_dataset_create_options_t o = {mode, steps};
  pario_dataset_t ds = PARIO_DATASET_NULL;
  CHECK(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &ds) == PARIO_OK);
  fill(ds);
  int m = -1;
  int64_t n = -1, f = -1;
  CHECK(pario_dataset_file_mode(ds, &m, &n, &f) == PARIO_OK && m == mode && f == files);
  check_all(ds, 6);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  /* Member k by the documented pattern <stem>.%06d.h5. */
  for (int64_t k = 0; k < files; ++k) {
    snprintf(name, sizeof name, "%s.%06lld.h5", stem, (long long)k);
    CHECK(exists(name) == (k < files - 1));
  }

  /* Reopened: the mode comes from the file. */
  CHECK(pario_dataset_open(world, path, PARIO_MODE_READ, &ds) == PARIO_OK);
  CHECK(pario_dataset_file_mode(ds, &m, &n, &f) == PARIO_OK && m == mode && f == files);
  CHECK(n == (mode == PARIO_DATASET_ONE_FILE ? 0 : steps > 0 ? steps : 1));
  check_all(ds, 6);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);

  /* Truncated after segment 2, then time index 2 written again (other
   * values: segment 3 as 1000*3 + j + 0.5 would be; here the same rule). */
  CHECK(pario_dataset_open(world, path, PARIO_MODE_RDWR, &ds) == PARIO_OK);
  CHECK(pario_dataset_truncate(ds, 2) == PARIO_OK);
  CHECK(pario_dataset_file_mode(ds, NULL, NULL, &f) == PARIO_OK && f == files_cut);
  for (int64_t k = files_cut - 1; k < files; ++k) {
    snprintf(name, sizeof name, "%s.%06lld.h5", stem, (long long)k);
    CHECK(exists(name) == (k < files_cut - 1));
  }
  check_all(ds, 3);
  int64_t seg = -1;
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 2, 1.0, &seg) == PARIO_OK && seg == 3);
  write_temp(ds, 3);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 3, 1.5, &seg) == PARIO_OK && seg == 4);
  write_temp(ds, 4);
  const double e = -2.5;
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, 3, "energy", PARIO_TYPE_DOUBLE, 1, &e) == PARIO_OK);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  CHECK(pario_dataset_open(world, path, PARIO_MODE_READ, &ds) == PARIO_OK);
  check_all(ds, 5);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);

  /* Everything erased: only the entry file is left. */
  snprintf(name, sizeof name, "%s_all.h5", stem);
  path_of(path, sizeof path, name);
  CHECK(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &o, &ds) == PARIO_OK);
  fill(ds);
  CHECK(pario_dataset_truncate(ds, -1) == PARIO_OK);
  CHECK(pario_dataset_file_mode(ds, NULL, NULL, &f) == PARIO_OK && f == 1);
  snprintf(name, sizeof name, "%s_all.000000.h5", stem);
  CHECK(!exists(name));
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == 0);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 7, 7.0, &seg) == PARIO_OK && seg == 0);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  CHECK(pario_dataset_open(world, path, PARIO_MODE_READ, &ds) == PARIO_OK);
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == 1);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
}

/* A file-per-step dataset at path (replacing one there), filled and closed. */
static void make_filled(const char *path) {
  pario_dataset_t ds = PARIO_DATASET_NULL;
  pario_dataset_create_options_t o = {PARIO_DATASET_FILE_PER_STEP, 0};
  CHECK(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &ds) == PARIO_OK);
  fill(ds);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
}

/* Rank 0 overwrites the start of a file with text (a damaged member). */
static void damage(const char *name) {
  if (rank == 0) {
    char p[1024];
    path_of(p, sizeof p, name);
    FILE *fp = fopen(p, "r+b");
    CHECK(fp != NULL);
    if (fp) {
      static const char junk[2048] = "this is no HDF5 file";
      CHECK(fwrite(junk, 1, sizeof junk, fp) == sizeof junk);
      fclose(fp);
    }
  }
  CHECK(pario_group_barrier(world) == PARIO_OK);
}

static void damaged_and_bad(void) {
  char path[1024];
  pario_dataset_t ds = PARIO_DATASET_NULL;
  path_of(path, sizeof path, "damaged.h5");
  make_filled(path);
  /* The last member (time index 4, segment 5) damaged: a step cut short.
   * Read-only it is skipped; read-write it is removed. */
  damage("damaged.000004.h5");
  int64_t n = 0, f = 0;
  CHECK(pario_dataset_open(world, path, PARIO_MODE_READ, &ds) == PARIO_OK);
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == 5);
  check_all(ds, 5);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  CHECK(exists("damaged.000004.h5"));
  CHECK(pario_dataset_open(world, path, PARIO_MODE_RDWR, &ds) == PARIO_OK);
  CHECK(!exists("damaged.000004.h5"));
  CHECK(pario_dataset_file_mode(ds, NULL, NULL, &f) == PARIO_OK && f == 5);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  /* A last "member" that is some other HDF5 file (here a one-file pario
   * dataset) is no crash's doing: refused, and left alone. */
  char other[1024];
  path_of(other, sizeof other, "damaged.000004.h5");
  pario_dataset_t od = PARIO_DATASET_NULL;
  CHECK(pario_dataset_create(world, other, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &od) == PARIO_OK);
  CHECK(pario_dataset_close(&od) == PARIO_OK);
  CHECK_FAILS(pario_dataset_open(world, path, PARIO_MODE_RDWR, &ds), PARIO_ERR_CORRUPT, "not a member file");
  CHECK(exists("damaged.000004.h5"));
  CHECK(pario_group_barrier(world) == PARIO_OK);  /* every rank looked before it goes */
  if (rank == 0) CHECK(unlink(other) == 0);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  /* A member before the last damaged: the dataset is damaged. */
  damage("damaged.000001.h5");
  CHECK_FAILS(pario_dataset_open(world, path, PARIO_MODE_READ, &ds), PARIO_ERR_CORRUPT, "damaged.000001.h5");
  CHECK(ds == PARIO_DATASET_NULL);

  /* Bad options, on every rank. */
  path_of(path, sizeof path, "bad.h5");
  pario_dataset_create_options_t bad = {7, 0};
  CHECK_FAILS(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &bad, &ds),
              PARIO_ERR_INVALID_ARGUMENT, "file mode 7");
  bad.file_mode = PARIO_DATASET_STEPS_PER_FILE;
  CHECK_FAILS(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &bad, &ds),
              PARIO_ERR_INVALID_ARGUMENT, "steps_per_file 0");
  bad.file_mode = PARIO_DATASET_ONE_FILE;
  bad.steps_per_file = 3;
  CHECK_FAILS(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &bad, &ds),
              PARIO_ERR_INVALID_ARGUMENT, "steps_per_file 3");
  CHECK(!exists("bad.h5"));

  /* Replacing a multi-file dataset with a one-file one removes its members. */
  path_of(path, sizeof path, "damaged.h5");
  CHECK(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, NULL, &ds) == PARIO_OK);
  CHECK(!exists("damaged.000000.h5") && !exists("damaged.000003.h5"));
  CHECK(pario_dataset_file_mode(ds, NULL, NULL, &f) == PARIO_OK && f == 1);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
}

/* Member files of an earlier dataset whose entry file is gone (removed by
 * hand), one of them after a gap: an exclusive create of a multi-file
 * dataset of that name refuses them and makes nothing; a truncating one
 * removes every one, so a reopen finds only the new dataset's segments. */
static void strays(void) {
  char path[1024], from[1024], to[1024];
  pario_dataset_t ds = PARIO_DATASET_NULL;
  pario_dataset_create_options_t o = {PARIO_DATASET_FILE_PER_STEP, 0};
  path_of(path, sizeof path, "stray.h5");
  make_filled(path);
  if (rank == 0) {
    CHECK(unlink(path) == 0);
    path_of(from, sizeof from, "stray.000004.h5");
    path_of(to, sizeof to, "stray.000009.h5");
    CHECK(rename(from, to) == 0);
  }
  CHECK(pario_group_barrier(world) == PARIO_OK);
  CHECK_FAILS(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &o, &ds),
              PARIO_ERR_EXISTS, "stray.000000.h5 and 4 more member files");
  CHECK(ds == PARIO_DATASET_NULL && !exists("stray.h5") && exists("stray.000000.h5") && exists("stray.000009.h5"));
  pario_dataset_create_options_t two = {PARIO_DATASET_STEPS_PER_FILE, 2};
  CHECK_FAILS(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &two, &ds),
              PARIO_ERR_EXISTS, "PARIO_MODE_TRUNCATE");
  CHECK(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &ds) == PARIO_OK);
  CHECK(!exists("stray.000000.h5") && !exists("stray.000003.h5") && !exists("stray.000009.h5"));
  int v = -1;
  int64_t seg = -1, n = -1, f = -1;
  CHECK(pario_dataset_variable_register(ds, "temp", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK);
  for (int64_t t = 0; t < 2; ++t) {
    CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, t, (double)t, &seg) == PARIO_OK && seg == t);
    write_temp(ds, seg);
  }
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  CHECK(pario_dataset_open(world, path, PARIO_MODE_READ, &ds) == PARIO_OK);
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == 2);
  CHECK(pario_dataset_file_mode(ds, NULL, NULL, &f) == PARIO_OK && f == 3);
  for (int64_t s = 0; s < n; ++s) check_temp(ds, s);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
}

int main(int argc, char **argv) {
  dir = argc == 2 ? argv[1] : NULL;
  if (!dir || pario_init() != PARIO_OK || pario_world_rank(&rank) != PARIO_OK ||
      pario_world_size(&size) != PARIO_OK || pario_group_world(&world) != PARIO_OK) {
    fprintf(stderr, "usage: dataset_modes_test DIR (and pario_init must work)\n");
    return 2;
  }
  /* After fill: one file 1; a file per step 1 + 5; two per file 1 + 3.
   * After truncating to time indices 0 and 1: 1; 1 + 2; 1 + 1. */
  one_mode("one", PARIO_DATASET_ONE_FILE, 0, 1, 1);
  one_mode("per_step", PARIO_DATASET_FILE_PER_STEP, 0, 6, 3);
  one_mode("two_per_file", PARIO_DATASET_STEPS_PER_FILE, 2, 4, 2);
  damaged_and_bad();
  strays();
  /* Left open: pario_finalize closes (flushes) it; pds_modes_check.py
   * finds its last segment's values. */
  char path[1024];
  path_of(path, sizeof path, "left_open.h5");
  pario_dataset_create_options_t o = {PARIO_DATASET_FILE_PER_STEP, 1};
  pario_dataset_t ds = PARIO_DATASET_NULL;
  CHECK(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &ds) == PARIO_OK);
  fill(ds);
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("dataset_modes_test");
}
