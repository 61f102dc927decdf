/* Bad input to datasets, at 1, 2 and 4 ranks: files that are not HDF5,
 * HDF5 files that are not pario datasets, pario datasets damaged in each
 * record pario reads (a newer version, a missing field, a gap in the
 * segments, pieces that do not add up, an unknown item kind, a segment
 * end mark gone: damage before the last, a step cut short at it), a file cut
 * short and one with bytes overwritten: a clear error, the same on every
 * rank, no crash, no hang. And failed calls on a good dataset lose
 * nothing written before. The damage is done with HDF5 itself (serially,
 * on rank 0) to copies of a real dataset. Files are private (0600, members
 * too) and never made or opened through a symbolic link.
 *   dataset_bad_input_test DIR */
#include <hdf5.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static int rank, size;
static pario_group_t world;
static const char *dir;

static void path_of(char *buf, size_t len, const char *name) { snprintf(buf, len, "%s/%s", dir, name); }

/* The same status on every rank. */
static int same_everywhere(int rc) {
  int lo = 0, hi = 0;
  MPI_Allreduce(&rc, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&rc, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

/* Rank 0 runs a shell command; then everyone goes on. */
static void on_root(const char *cmd) {
  if (rank == 0) CHECK(system(cmd) == 0);
  MPI_Barrier(MPI_COMM_WORLD);
}

static void copy(const char *from, const char *to) {
  char a[600], b[600], cmd[1300];
  path_of(a, sizeof a, from);
  path_of(b, sizeof b, to);
  snprintf(cmd, sizeof cmd, "cp '%s' '%s'", a, b);
  on_root(cmd);
}

/* Opens `name` and expects `code` (with `text` in the message) everywhere. */
static void expect_open_fails(const char *name, int code, const char *text) {
  char path[600];
  path_of(path, sizeof path, name);
  pario_dataset_t ds = PARIO_DATASET_NULL;
  const int rc = pario_dataset_open(world, path, PARIO_MODE_READ, &ds);
  if (rank == 0) {
    CHECK_FAILS(rc, code, text);
  } else {
    CHECK(rc == code || rc == PARIO_ERR_REMOTE);
  }
  CHECK(same_everywhere(rc == PARIO_ERR_REMOTE ? code : rc));
  CHECK(ds == PARIO_DATASET_NULL);
}

/* Rank 0's answer, on every rank. */
static int root_says(int yes) {
  MPI_Bcast(&yes, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return yes;
}

static int mode_is_0600(const char *path) {
  struct stat st;
  return root_says(rank != 0 || (stat(path, &st) == 0 && (st.st_mode & 0777) == 0600));
}

/* A call on a symbolic link: PARIO_ERR_PERMISSION on every rank, naming
 * it, and no dataset. */
static void expect_link_refused(int rc, const pario_dataset_t *ds) {
  CHECK(*ds == PARIO_DATASET_NULL);
  CHECK(same_everywhere(rc));
  CHECK_FAILS(rc, PARIO_ERR_PERMISSION, "symbolic link");
}

/* Files are private and made where they are named. HDF5's MPI-IO driver
 * alone would make them with the umask's mode and follow a link planted
 * at the name (a replace through it truncates the target). */
static void links_and_modes(void) {
  char good[600], link[600], ghost[600], dangling[600], steps[600], member[600], cmd[1400];
  path_of(good, sizeof good, "good.h5");
  path_of(link, sizeof link, "link.h5");
  path_of(ghost, sizeof ghost, "ghost.h5");
  path_of(dangling, sizeof dangling, "dangling.h5");
  CHECK(mode_is_0600(good));
  struct stat before = {0}, after = {0};
  if (rank == 0) CHECK(stat(good, &before) == 0);
  snprintf(cmd, sizeof cmd, "ln -s '%s' '%s' && ln -s '%s' '%s'", good, link, ghost, dangling);
  on_root(cmd);
  pario_dataset_t ds = PARIO_DATASET_NULL;
  int rc = pario_dataset_create(world, link, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &ds);
  expect_link_refused(rc, &ds);
  rc = pario_dataset_open(world, link, PARIO_MODE_READ, &ds);
  expect_link_refused(rc, &ds);
  rc = pario_dataset_open(world, link, PARIO_MODE_RDWR, &ds);
  expect_link_refused(rc, &ds);
  rc = pario_dataset_create(world, dangling, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &ds);
  expect_link_refused(rc, &ds);
  if (rank == 0) CHECK(stat(good, &after) == 0);
  CHECK(root_says(before.st_size == after.st_size && before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
                  before.st_mtim.tv_nsec == after.st_mtim.tv_nsec));  /* the target as it was */
  CHECK(root_says(access(ghost, F_OK) != 0));                         /* nothing made at the link's target */
  CHECK(pario_dataset_open(world, good, PARIO_MODE_READ, &ds) == PARIO_OK);
  int64_t n = 0;
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == 2);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);

  /* A file per step: the entry file and the member 0600. */
  path_of(steps, sizeof steps, "steps.h5");
  path_of(member, sizeof member, "steps.000000.h5");
  pario_dataset_create_options_t o = {PARIO_DATASET_FILE_PER_STEP, 0, 0, NULL};
  CHECK(pario_dataset_create_with(world, steps, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &o, &ds) == PARIO_OK);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 0, 0.0, NULL) == PARIO_OK);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  CHECK(mode_is_0600(steps));
  CHECK(mode_is_0600(member));

  /* Replacing a file-per-step dataset whose entry file cannot be written
   * (0444; immutable where this runs as root): refused before any member
   * file is removed, and the old dataset reads whole. */
  {
    char locked[600], first[600];
    path_of(locked, sizeof locked, "locked.h5");
    path_of(first, sizeof first, "locked.000000.h5");
    CHECK(pario_dataset_create_with(world, locked, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &o, &ds) == PARIO_OK);
    CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 0, 0.0, NULL) == PARIO_OK);
    CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 1, 1.0, NULL) == PARIO_OK);
    CHECK(pario_dataset_close(&ds) == PARIO_OK);
    snprintf(cmd, sizeof cmd,
             "chmod 0444 '%s' && { [ \"$(id -u)\" != 0 ] || chattr +i '%s' 2>/dev/null; } && "
             "! sh -c \"exec 3>>'%s'\" 2>/dev/null",
             locked, locked, locked);
    const int lockable = root_says(rank == 0 ? system(cmd) == 0 : 0);
    if (lockable) {
      rc = pario_dataset_create_with(world, locked, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &ds);
      CHECK(rc != PARIO_OK && ds == PARIO_DATASET_NULL);
      CHECK(root_says(access(first, F_OK) == 0));  /* the members are still there */
      CHECK(pario_dataset_open(world, locked, PARIO_MODE_READ, &ds) == PARIO_OK);
      CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == 2);
      CHECK(pario_dataset_close(&ds) == PARIO_OK);
    } else if (rank == 0) {
      printf("locked.h5: skipped (the file could not be made unwritable here)\n");
    }
    snprintf(cmd, sizeof cmd, "chattr -i '%s' 2>/dev/null; chmod 0600 '%s'", locked, locked);
    if (rank == 0) (void)!system(cmd);
    MPI_Barrier(MPI_COMM_WORLD);
  }

  /* A last member that does not read (a step cut short, or any file of
   * the member name's shape): opened read-write it is renamed aside to
   * <member>.torn with its bytes, never removed, and the step is written
   * again. */
  char torn_entry[600], torn_member[600], aside[700];
  path_of(torn_entry, sizeof torn_entry, "torn.h5");
  path_of(torn_member, sizeof torn_member, "torn.000001.h5");
  snprintf(aside, sizeof aside, "%s.torn", torn_member);
  CHECK(pario_dataset_create_with(world, torn_entry, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &o, &ds) == PARIO_OK);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 0, 0.0, NULL) == PARIO_OK);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 1, 1.0, NULL) == PARIO_OK);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  snprintf(cmd, sizeof cmd, "echo 'notes kept' > '%s'", torn_member);
  on_root(cmd);
  CHECK(pario_dataset_open(world, torn_entry, PARIO_MODE_RDWR, &ds) == PARIO_OK);
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == 1);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 1, 1.0, NULL) == PARIO_OK);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  snprintf(cmd, sizeof cmd, "test \"$(cat '%s')\" = 'notes kept'", aside);
  on_root(cmd);
  CHECK(pario_dataset_open(world, torn_entry, PARIO_MODE_READ, &ds) == PARIO_OK);
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == 2);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
}

static void make_good(const char *name) {
  char path[600];
  path_of(path, sizeof path, name);
  pario_dataset_t ds = PARIO_DATASET_NULL;
  CHECK(pario_dataset_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &ds) == PARIO_OK);
  int v = 0;
  CHECK(pario_dataset_variable_register(ds, "temp", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_INT16, &v) == PARIO_OK);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_TOPOLOGY, 0, 0.0, NULL) == PARIO_OK);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 0, 0.0, NULL) == PARIO_OK);
  int16_t mine[3] = {(int16_t)rank, (int16_t)(rank + 10), (int16_t)(rank + 20)};
  CHECK(pario_dataset_write_ranked(ds, 1, 0, 3, mine) == PARIO_OK);
  const double e = 4.5;
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, 1, "energy", PARIO_TYPE_DOUBLE, 1, &e) == PARIO_OK);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
}

/* Serial HDF5 edits of a copy (rank 0), then a barrier. */
static hid_t edit_open(const char *name) {
  char path[600];
  path_of(path, sizeof path, name);
  hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
  CHECK(f >= 0);
  return f;
}

static void set_int_attr(hid_t f, const char *object, const char *attr, int64_t v) {
  hid_t o = H5Oopen(f, object, H5P_DEFAULT);
  CHECK(H5Adelete(o, attr) >= 0);
  hid_t s = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(o, attr, H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT);
  CHECK(H5Awrite(a, H5T_NATIVE_INT64, &v) >= 0);
  H5Aclose(a);
  H5Sclose(s);
  H5Oclose(o);
}

static void damage(void) {
  if (rank == 0) {
    hid_t f = edit_open("v99.h5");
    set_int_attr(f, "/", "pario_format_version", 99);
    H5Fclose(f);

    f = edit_open("nokind.h5");
    hid_t g = H5Oopen(f, "/segments/00000001", H5P_DEFAULT);
    CHECK(H5Adelete(g, "pario_kind") >= 0);
    H5Oclose(g);
    H5Fclose(f);

    f = edit_open("gap.h5");
    CHECK(H5Lmove(f, "/segments/00000001", f, "/segments/00000007", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    H5Fclose(f);

    f = edit_open("pieces.h5");
    set_int_attr(f, "/segments/00000001/temp", "pario_writers", size + 1);
    H5Fclose(f);

    f = edit_open("itemkind.h5");
    set_int_attr(f, "/variables/temp", "pario_word_type", 77);
    H5Fclose(f);

    /* Segment ends (pario_ended): the first one's gone is damage (a
     * segment follows it); the last one's gone is a segment cut short. */
    f = edit_open("unended.h5");
    g = H5Oopen(f, "/segments/00000000", H5P_DEFAULT);
    CHECK(H5Adelete(g, "pario_ended") >= 0);
    H5Oclose(g);
    H5Fclose(f);
    f = edit_open("cutlast.h5");
    g = H5Oopen(f, "/segments/00000001", H5P_DEFAULT);
    CHECK(H5Adelete(g, "pario_ended") >= 0);
    H5Oclose(g);
    H5Fclose(f);

    /* Links pario never writes: a segment that is an external link to a
     * FIFO (following it blocked every rank in open(2) for ever), one to
     * another pario file, and a section that is one (a read-write open
     * would have written through it). */
    char fifo[600], good[600];
    path_of(fifo, sizeof fifo, "fifo");
    path_of(good, sizeof good, "good.h5");
    CHECK(mkfifo(fifo, 0600) == 0);
    f = edit_open("elinkfifo.h5");
    CHECK(H5Ldelete(f, "/segments/00000000", H5P_DEFAULT) >= 0);
    CHECK(H5Lcreate_external(fifo, "/g", f, "/segments/00000000", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    H5Fclose(f);
    f = edit_open("elinkfile.h5");
    CHECK(H5Ldelete(f, "/segments/00000001", H5P_DEFAULT) >= 0);
    CHECK(H5Lcreate_external(good, "/segments/00000001", f, "/segments/00000001", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    H5Fclose(f);
    f = edit_open("elinksection.h5");
    CHECK(H5Ldelete(f, "/segments/00000001/temp", H5P_DEFAULT) >= 0);
    CHECK(H5Lcreate_external(good, "/segments/00000001/temp", f, "/segments/00000001/temp", H5P_DEFAULT,
                             H5P_DEFAULT) >= 0);
    H5Fclose(f);

    /* A plain HDF5 file: a dataset, no pario marker. */
    char path[600];
    path_of(path, sizeof path, "plain.h5");
    f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t n = 4;
    hid_t s = H5Screate_simple(1, &n, NULL);
    hid_t d = H5Dcreate2(f, "x", H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(d);
    H5Sclose(s);
    H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: dataset_bad_input_test DIR\n");
    return 2;
  }
  dir = argv[1];
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&rank);
  pario_world_size(&size);
  CHECK(pario_group_world(&world) == PARIO_OK);
  {
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && echo 'not an HDF5 file' > '%s/text.h5'", dir, dir, dir);
    on_root(cmd);
  }
  make_good("good.h5");
  const char *copies[] = {"v99.h5",    "nokind.h5", "gap.h5",      "pieces.h5", "itemkind.h5",
                          "unended.h5", "cut.h5",    "cutlast.h5", "noise.h5",    "elinkfifo.h5",
                          "elinkfile.h5", "elinksection.h5"};
  for (size_t i = 0; i < sizeof copies / sizeof *copies; ++i) copy("good.h5", copies[i]);
  damage();

  expect_open_fails("text.h5", PARIO_ERR_CORRUPT, "text.h5");
  expect_open_fails("plain.h5", PARIO_ERR_CORRUPT, "not a pario dataset");
  expect_open_fails("v99.h5", PARIO_ERR_UNSUPPORTED, "version 99");
  expect_open_fails("nokind.h5", PARIO_ERR_CORRUPT, "pario_kind");
  expect_open_fails("gap.h5", PARIO_ERR_CORRUPT, "where segment 1 should be");
  expect_open_fails("itemkind.h5", PARIO_ERR_CORRUPT, "word_type 77");
  expect_open_fails("unended.h5", PARIO_ERR_CORRUPT, "never ended");
  alarm(60);  /* a hang in open(2) on the FIFO ends the test */
  expect_open_fails("elinkfifo.h5", PARIO_ERR_CORRUPT, "soft or external link");
  alarm(0);
  expect_open_fails("elinkfile.h5", PARIO_ERR_CORRUPT, "soft or external link");
  {
    /* A section behind an external link: refused on every rank (it was
     * read from the other file), read-write too, and that file is left
     * alone. */
    char path[600], good[600];
    struct stat before, after;
    path_of(path, sizeof path, "elinksection.h5");
    path_of(good, sizeof good, "good.h5");
    CHECK(stat(good, &before) == 0);
    pario_dataset_t e = PARIO_DATASET_NULL;
    CHECK(pario_dataset_open(world, path, PARIO_MODE_RDWR, &e) == PARIO_OK);
    pario_dataset_section_t info;
    CHECK(pario_dataset_section_info(e, 1, 0, 0, &info) != PARIO_OK);
    int16_t back[3];
    CHECK(pario_dataset_read_items(e, 1, 0, 0, 1, back) != PARIO_OK);
    CHECK(pario_dataset_close(&e) == PARIO_OK);
    CHECK(stat(good, &after) == 0 && after.st_size == before.st_size &&
          after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
  }
  {
    /* The last segment without its end: not listed read-only; removed
     * read-write, and its time index appended again. */
    char cutlast[600];
    path_of(cutlast, sizeof cutlast, "cutlast.h5");
    pario_dataset_t c = PARIO_DATASET_NULL;
    int64_t n = -1;
    CHECK(pario_dataset_open(world, cutlast, PARIO_MODE_READ, &c) == PARIO_OK);
    CHECK(pario_dataset_segment_count(c, &n) == PARIO_OK && n == 1);
    CHECK(pario_dataset_close(&c) == PARIO_OK);
    CHECK(pario_dataset_open(world, cutlast, PARIO_MODE_RDWR, &c) == PARIO_OK);
    CHECK(pario_dataset_segment_count(c, &n) == PARIO_OK && n == 1);
    CHECK(pario_dataset_segment_append(c, PARIO_SEGMENT_STATE, 0, 0.0, NULL) == PARIO_OK);
    CHECK(pario_dataset_close(&c) == PARIO_OK);
    CHECK(pario_dataset_open(world, cutlast, PARIO_MODE_READ, &c) == PARIO_OK);
    CHECK(pario_dataset_segment_count(c, &n) == PARIO_OK && n == 2);
    CHECK(pario_dataset_close(&c) == PARIO_OK);
  }
  expect_open_fails("missing.h5", PARIO_ERR_NOT_FOUND, "missing.h5");

  /* Replacing something that is not a pario dataset is refused, and it
   * stays as it was. */
  char path[600];
  pario_dataset_t ds = PARIO_DATASET_NULL;
  path_of(path, sizeof path, "text.h5");
  CHECK_FAILS(pario_dataset_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &ds), PARIO_ERR_EXISTS,
              "not HDF5");
  path_of(path, sizeof path, "plain.h5");
  CHECK_FAILS(pario_dataset_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &ds), PARIO_ERR_EXISTS,
              "not a pario dataset");
  expect_open_fails("plain.h5", PARIO_ERR_CORRUPT, "not a pario dataset");

  links_and_modes();

  /* Pieces that do not add up: the file opens, the section is refused. */
  path_of(path, sizeof path, "pieces.h5");
  CHECK(pario_dataset_open(world, path, PARIO_MODE_READ, &ds) == PARIO_OK);
  pario_dataset_section_t info;
  CHECK_FAILS(pario_dataset_section_info(ds, 1, 0, 0, &info), PARIO_ERR_CORRUPT, "pario_piece_items");
  CHECK(pario_dataset_close(&ds) == PARIO_OK);

  /* Cut short, and overwritten in the middle: errors, never crashes. */
  {
    char cmd[1400], cut[600], noise[600];
    path_of(cut, sizeof cut, "cut.h5");
    path_of(noise, sizeof noise, "noise.h5");
    snprintf(cmd, sizeof cmd,
             "truncate -s $(( $(stat -c %%s '%s') / 2 )) '%s' && "
             "dd if=/dev/urandom of='%s' bs=1 seek=200 count=1500 conv=notrunc status=none",
             cut, cut, noise);
    on_root(cmd);
  }
  expect_open_fails("cut.h5", PARIO_ERR_CORRUPT, "cut.h5");
  /* Read-write too: refused, and the file keeps its size (pario does not
   * extend a file short of its recorded end: zeros would stand in for
   * what a cut copy lost). */
  {
    char cut[600];
    path_of(cut, sizeof cut, "cut.h5");
    struct stat before, after;
    CHECK(stat(cut, &before) == 0);
    const int rc = pario_dataset_open(world, cut, PARIO_MODE_RDWR, &ds);
    CHECK(same_everywhere(rc == PARIO_ERR_REMOTE ? PARIO_ERR_CORRUPT : rc) && rc != PARIO_OK);
    if (rank == 0) CHECK_FAILS(rc, PARIO_ERR_CORRUPT, "truncated file");
    CHECK(ds == PARIO_DATASET_NULL);
    CHECK(stat(cut, &after) == 0 && after.st_size == before.st_size);
  }
  /* Random bytes over the superblock and root object header: whatever
   * HDF5 makes of them, every rank gets one outcome. */
  path_of(path, sizeof path, "noise.h5");
  {
    int rc = pario_dataset_open(world, path, PARIO_MODE_READ, &ds);
    CHECK(same_everywhere(rc == PARIO_OK));
    if (rc == PARIO_OK) {
      rc = pario_dataset_section_info(ds, 1, 0, 0, &info);
      CHECK(same_everywhere(rc == PARIO_OK));
      CHECK(pario_dataset_close(&ds) == PARIO_OK);
    }
    if (rank == 0) printf("noise.h5: %s\n", rc == PARIO_OK ? "read (the bytes hit unused space)" : "refused");
  }

  /* Failed calls on the good dataset lose nothing. */
  path_of(path, sizeof path, "good.h5");
  CHECK(pario_dataset_open(world, path, PARIO_MODE_RDWR, &ds) == PARIO_OK);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 0, 1.0, NULL) == PARIO_ERR_INVALID_ARGUMENT);
  int32_t big[2] = {rank == 0 ? 70000 : 1, 2};
  CHECK(pario_dataset_variable_set_types(ds, 0, PARIO_TYPE_INT32, 0) == PARIO_OK);
  CHECK(pario_dataset_write_ranked(ds, 0, 0, 2, big) == (rank == 0 ? PARIO_ERR_OUT_OF_RANGE : PARIO_ERR_REMOTE));
  big[0] = 1;
  CHECK(pario_dataset_write_ranked(ds, 1, 0, 2, big) == PARIO_ERR_EXISTS);
  int v = 0;
  CHECK(pario_dataset_variable_register(ds, "temp", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) ==
        PARIO_ERR_EXISTS);
  CHECK(pario_dataset_variable_find(ds, "nope", &v) == PARIO_ERR_NOT_FOUND);
  CHECK_FAILS(pario_dataset_read_items(ds, 1, 5, 0, 1, big), PARIO_ERR_INVALID_ARGUMENT, "variable 5");
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  CHECK(pario_dataset_open(world, path, PARIO_MODE_READ, &ds) == PARIO_OK);
  int64_t n = 0;
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == 2);
  CHECK(pario_dataset_section_info(ds, 0, 0, 0, &info) == PARIO_ERR_NOT_FOUND);
  int16_t back[3];
  CHECK(pario_dataset_section_info(ds, 1, 0, rank, &info) == PARIO_OK && info.piece_count == 3);
  CHECK(pario_dataset_read_items(ds, 1, 0, info.piece_start, 3, back) == PARIO_OK && back[0] == rank &&
        back[2] == rank + 20);
  double e = 0;
  CHECK(pario_dataset_info_get(ds, PARIO_INFO_SEGMENT, 1, "energy", PARIO_TYPE_DOUBLE, 1, &e, NULL, NULL) ==
            PARIO_OK && e == 4.5);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);

  {
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    on_root(cmd);
  }
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("dataset_bad_input_test");
}
