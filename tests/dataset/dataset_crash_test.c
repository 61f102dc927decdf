/* A writer killed (SIGKILL, as kill -9) while segment K is written, then
 * restarted: two mpiexec runs of this program.
 *   dataset_crash_test write MODE PATH    segments 0..K-1 written whole
 *       (temp and vel each), then a late section (variable late) written
 *       into segment 0 (an older member file in the multi-file modes),
 *       then segment K appended and its temp written, and every rank kills
 *       itself before vel: the run never returns normally (PATH.killed
 *       says the kill came after every check passed). With
 *       PARIO_TEST_KILL=last only the last rank does; the others are in
 *       vel's write when the launcher kills them. With PARIO_TEST_INFOS,
 *       segment K gets large infos first, so its group is in the file.
 *   dataset_crash_test recover MODE PATH  reopens read-write: segments
 *       0..K-1 are there with their values, the late section too (K's
 *       append re-synced segment 0's file), and K is not; K is appended
 *       again and written, and after closing and reopening read-only all
 *       K+1 segments read back. With PARIO_TEST_KILL=writeout, the kill
 *       comes inside K's append instead, in the write-out of K-1's end and
 *       K's group, once the superblock is in the file and nothing else of
 *       it is (see write_hook): K-1 and K are both cut short, as with
 *       PARIO_TEST_DAMAGE=unmark. With PARIO_TEST_DAMAGE=header (modes
 *       one and two), rank 0 first damages the header of K's group in
 *       the file (with HDF5, as a kill inside an eviction can): a
 *       read-only open lists 0..K-1, and the read-write one sets
 *       /segments aside (/segments.torn, since HDF5 cannot unlink a link
 *       whose object does not read) and goes on as above. With
 *       PARIO_TEST_DAMAGE=unmark, rank 0 deletes K-1's end mark (a kill
 *       inside the write-out of K's append): K-1 and K are both cut
 *       short, and both are appended again (header,unmark: both, with
 *       K's header damaged too).
 * MODE: one (one file), step (a file per time index), two (two time
 * indices per file). */
#include <fcntl.h>
#include <hdf5.h>
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

enum { kSegments = 3 }; /* K: the segment being written when killed */

static int rank, size;
static pario_group_t world;

/* PARIO_TEST_KILL=writeout: HDF5 writes the superblock, with the file's
 * new end, before it sets the file's size, and a write-out's metadata
 * goes out in one collective write (pario asks for collective metadata
 * writes), each rank writing its share. A kill when one rank's share,
 * the one with the superblock, is in the file and another's is not
 * leaves a file shorter than the end it records ("truncated file")
 * unless pario made it long enough first. Through MPI's profiling
 * interface (exported, as dataset_faults_test's): while armed, every
 * write is dropped (reported done, the file untouched) but a share that
 * starts at offset 0, the superblock's, which is written and then kills
 * its writer; mpiexec ends the others. */
#define INTERPOSED __attribute__((visibility("default")))
static volatile int drop_writes = 0;
static char hooked_marker[1024]; /* PATH.hooked: left by the killed writer, asked for by the recovery */

static int write_hook(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype type,
                      MPI_Status *status, int collective) {
  if (!drop_writes) {
    return collective ? PMPI_File_write_at_all(fh, offset, buf, count, type, status)
                      : PMPI_File_write_at(fh, offset, buf, count, type, status);
  }
  MPI_Offset disp = 0;
  MPI_Datatype etype, filetype;
  char rep[MPI_MAX_DATAREP_STRING];
  int type_size = 0;
  PMPI_File_get_view(fh, &disp, &etype, &filetype, rep);
  PMPI_Type_size(type, &type_size);
  const MPI_Count bytes = (MPI_Count)type_size * count;
  /* HDF5's collective metadata writes carry the addresses in the view's
   * file type (displacement 0, offset 0): its lowest byte is where the
   * write starts. */
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_get_true_extent(filetype, &lb, &extent);
  if (disp + offset + lb == 0 && bytes > 0) {
    /* This rank's part alone (the others' are dropped), then the kill. */
    PMPI_File_write_at(fh, offset, buf, count, type, MPI_STATUS_IGNORE);
    const int fd = open(hooked_marker, O_WRONLY | O_CREAT, 0600);
    if (fd >= 0) close(fd);
    raise(SIGKILL);
  }
  if (status != MPI_STATUS_IGNORE) MPI_Status_set_elements_x(status, MPI_BYTE, bytes);
  return MPI_SUCCESS;
}

INTERPOSED int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype type,
                                 MPI_Status *status) {
  return write_hook(fh, offset, buf, count, type, status, 0);
}
INTERPOSED int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype type,
                                     MPI_Status *status) {
  return write_hook(fh, offset, buf, count, type, status, 1);
}

/* Rank 0 leaves PATH.killed when every check so far passed on every rank
 * (the test's script asks for it: a run that failed early is no crash
 * test). */
static void mark_killed(const char *path) {
  int failed = check_failures;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && failed == 0) {
    char marker[1024];
    snprintf(marker, sizeof marker, "%s.killed", path);
    FILE *fp = fopen(marker, "w");
    if (fp) fclose(fp);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  fflush(NULL);
}

static double temp_value(int64_t s, int64_t j) { return 100.0 * (double)s + (double)j; }

/* Rank r's piece: 3 items of temp, 3 of vel (a 2-vector of int32). */
static void write_temp(pario_dataset_t ds, int64_t seg) {
  double v[3];
  for (int i = 0; i < 3; ++i) v[i] = temp_value(seg, 3 * rank + i);
  CHECK(pario_dataset_write_ranked(ds, seg, 0, 3, v) == PARIO_OK);
}

static void write_vel(pario_dataset_t ds, int64_t seg) {
  int32_t v[6];
  for (int i = 0; i < 6; ++i) v[i] = (int32_t)(1000 * seg + 6 * rank + i);
  CHECK(pario_dataset_write_ranked(ds, seg, 1, 3, v) == PARIO_OK);
}

/* The late section: rank r writes 2 items into segment 0 after segment
 * K-1 is whole. */
static double late_value(int64_t j) { return -0.5 * (double)j; }

static void write_late(pario_dataset_t ds) {
  const double v[2] = {late_value(2 * rank), late_value(2 * rank + 1)};
  CHECK(pario_dataset_write_ranked(ds, 0, 2, 2, v) == PARIO_OK);
}

static void check_late(pario_dataset_t ds) {
  int64_t start = 0, count = 0;
  CHECK(pario_dataset_even_split(2 * size, size, rank, &start, &count) == PARIO_OK);
  double v[8] = {0};
  CHECK(pario_dataset_read_items(ds, 0, 2, start, count, v) == PARIO_OK);
  for (int64_t i = 0; i < count; ++i) CHECK(v[i] == late_value(start + i));
}

static void check_segment(pario_dataset_t ds, int64_t seg) {
  int64_t start = 0, count = 0;
  CHECK(pario_dataset_even_split(3 * size, size, rank, &start, &count) == PARIO_OK);
  double t[8] = {0};
  int32_t v[16] = {0};
  CHECK(pario_dataset_read_items(ds, seg, 0, start, count, t) == PARIO_OK);
  CHECK(pario_dataset_read_items(ds, seg, 1, start, count, v) == PARIO_OK);
  for (int64_t i = 0; i < count; ++i) {
    CHECK(t[i] == temp_value(seg, start + i));
    CHECK(v[2 * i] == (int32_t)(1000 * seg + 2 * (start + i)) && v[2 * i + 1] == v[2 * i] + 1);
  }
  int kind = 0;
  int64_t ti = -1;
  CHECK(pario_dataset_segment_info(ds, seg, &kind, &ti, NULL) == PARIO_OK && kind == PARIO_SEGMENT_STATE &&
        ti == seg);
}

static void append_whole(pario_dataset_t ds, int64_t seg) {
  int64_t at = -1;
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, seg, (double)seg, &at) == PARIO_OK && at == seg);
  write_temp(ds, seg);
  write_vel(ds, seg);
}

/* The file holding segment K: the entry in one file, member 1 (time
 * indices 2 and 3) at two per file. */
static void file_of_last(const char *path, const char *mode, char *out, size_t size) {
  if (strcmp(mode, "two") != 0) {
    snprintf(out, size, "%s", path);
    return;
  }
  const size_t n = strlen(path);
  snprintf(out, size, "%.*s.000001.h5", (int)(n > 3 ? n - 3 : n), path);
}

/* Rank 0: HDF5's handle on the file holding segment s (file: its path;
 * name: the segment group's), opened with flags. */
static hid_t open_holding(const char *path, const char *mode, int s, unsigned flags, char file[1024],
                          char name[64]) {
  file_of_last(path, mode, file, 1024);
  snprintf(name, 64, "/segments/%08d", s);
  hid_t f = H5Fopen(file, flags, H5P_DEFAULT);
  CHECK(f >= 0);
  return f;
}

/* Rank 0: bytes 6..13 of K's group header flipped (past its signature,
 * version and flags: its checksum fails), as a write cut midway leaves it. */
static void damage_last_segment(const char *path, const char *mode) {
  if (rank == 0) {
    char file[1024], name[64];
    hid_t f = open_holding(path, mode, kSegments, H5F_ACC_RDONLY, file, name);
    H5O_info_t info; /* HDF5 1.10: its addr is the header's */
    const herr_t got = f >= 0 ? H5Oget_info_by_name1(f, name, &info, H5P_DEFAULT) : -1;
    CHECK(got >= 0);
    if (f >= 0) H5Fclose(f);
    int fd = open(file, O_RDWR);
    CHECK(fd >= 0);
    unsigned char b[8];
    if (got >= 0 && fd >= 0) {
      CHECK(pread(fd, b, sizeof b, (off_t)info.addr + 6) == (ssize_t)sizeof b);
      for (size_t i = 0; i < sizeof b; ++i) b[i] ^= 0x5a;
      CHECK(pwrite(fd, b, sizeof b, (off_t)info.addr + 6) == (ssize_t)sizeof b);
    }
    if (fd >= 0) close(fd);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Rank 0: segment s's end mark (pario_ended) deleted. */
static void unmark_segment(const char *path, const char *mode, int s) {
  if (rank == 0) {
    char file[1024], name[64];
    hid_t f = open_holding(path, mode, s, H5F_ACC_RDWR, file, name);
    hid_t g = f >= 0 ? H5Oopen(f, name, H5P_DEFAULT) : -1;
    CHECK(g >= 0 && H5Adelete(g, "pario_ended") >= 0);
    if (g >= 0) H5Oclose(g);
    if (f >= 0) H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Rank 0, after close: whether the read-write open set /segments aside. */
static int segments_set_aside(const char *path, const char *mode) {
  int aside = 0;
  if (rank == 0) {
    char file[1024];
    file_of_last(path, mode, file, sizeof file);
    hid_t f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
    aside = f >= 0 && H5Lexists(f, "/segments.torn", H5P_DEFAULT) > 0;
    if (f >= 0) H5Fclose(f);
  }
  MPI_Bcast(&aside, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return aside;
}

/* Rank 0, after close: the file holding K ends where its superblock
 * (version 2: end-of-file address at byte 28) says, no room left over
 * from a write-out. */
static void check_trimmed(const char *path, const char *mode) {
  if (rank == 0) {
    char file[1024];
    file_of_last(path, mode, file, sizeof file);
    unsigned char b[48];
    const int fd = open(file, O_RDONLY);
    CHECK(fd >= 0 && pread(fd, b, sizeof b, 0) == (ssize_t)sizeof b && b[8] == 2);
    uint64_t end = 0;
    for (int i = 7; i >= 0; --i) end = (end << 8) | b[28 + i];
    const off_t size = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
    CHECK(size > 0 && (uint64_t)size == end);
    if (fd >= 0) close(fd);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: dataset_crash_test write|recover one|step|two PATH\n");
    return 2;
  }
  const int write = strcmp(argv[1], "write") == 0;
  pario_dataset_create_options_t o = {PARIO_DATASET_ONE_FILE, 0};
  if (strcmp(argv[2], "step") == 0) o.file_mode = PARIO_DATASET_FILE_PER_STEP;
  if (strcmp(argv[2], "two") == 0) {
    o.file_mode = PARIO_DATASET_STEPS_PER_FILE;
    o.steps_per_file = 2;
  }
  const char *path = argv[3];
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&rank);
  pario_world_size(&size);
  CHECK(pario_group_world(&world) == PARIO_OK);
  pario_dataset_t ds = PARIO_DATASET_NULL;
  int64_t n = -1;
  if (write) {
    CHECK(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &ds) == PARIO_OK);
    const int64_t two[1] = {2};
    int v = -1;
    CHECK(pario_dataset_variable_register(ds, "temp", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK);
    CHECK(pario_dataset_variable_register(ds, "vel", PARIO_ITEM_VECTOR, two, PARIO_TYPE_INT32, &v) == PARIO_OK);
    CHECK(pario_dataset_variable_register(ds, "late", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK);
    for (int64_t s = 0; s < kSegments; ++s) append_whole(ds, s);
    write_late(ds);
    const char *which = getenv("PARIO_TEST_KILL");
    if (which && strcmp(which, "writeout") == 0) {
      /* 32 KB on K-1, which stays in HDF5's cache until K's append:
       * that write-out then ends past the file's end. */
      static double big[4000];
      CHECK(pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, kSegments - 1, "big", PARIO_TYPE_DOUBLE, 4000, big) ==
            PARIO_OK);
      mark_killed(path);
      snprintf(hooked_marker, sizeof hooked_marker, "%s.hooked", path);
      drop_writes = 1;
      pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, kSegments, (double)kSegments, NULL);
      drop_writes = 0;
      fprintf(stderr, "dataset_crash_test: rank %d: K's append wrote no superblock\n", rank);
      abort(); /* no PATH.hooked: the recovery fails */
    }
    CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, kSegments, (double)kSegments, NULL) == PARIO_OK);
    write_temp(ds, kSegments);
    /* PARIO_TEST_INFOS=N,V: N infos of V doubles on segment K first (a
     * segment info is written out at once, and past the 2 MiB metadata
     * cache HDF5 evicts): K's group reaches the file, without its end. */
    const char *infos = getenv("PARIO_TEST_INFOS");
    if (infos) {
      const int count = atoi(infos), values = strchr(infos, ',') ? atoi(strchr(infos, ',') + 1) : 1;
      double *big = calloc((size_t)values, sizeof(double));
      CHECK(big != NULL);
      for (int i = 0; big && i < count; ++i) {
        char name[32];
        snprintf(name, sizeof name, "info%04d", i);
        big[0] = i;
        CHECK(pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, kSegments, name, PARIO_TYPE_DOUBLE, values, big) ==
              PARIO_OK);
      }
      free(big);
    }
    /* Killed mid-segment, as by kill -9: nothing is closed or flushed. */
    mark_killed(path);
    /* PARIO_TEST_KILL=last: only the last rank dies; the others go on
     * into vel's collective write and are killed there by the launcher
     * (mpiexec ends a job one of whose processes died), mid-call. */
    if (which && strcmp(which, "last") == 0 && rank != size - 1) {
      write_vel(ds, kSegments);
      pario_dataset_close(&ds);
    }
    raise(SIGKILL);
    return 1;
  }
  const char *damage = getenv("PARIO_TEST_DAMAGE");
  const int damaged = damage && strstr(damage, "header") != NULL;
  /* unmark: K-1's end mark gone too, as a kill inside the write-out of
   * K's append can leave it (K's group there, K-1's mark not): both cut. */
  const char *kill_mode = getenv("PARIO_TEST_KILL");
  const int in_writeout = kill_mode && strcmp(kill_mode, "writeout") == 0;
  const int unmark = damage && strstr(damage, "unmark") != NULL;
  const int kept = unmark || in_writeout ? kSegments - 1 : kSegments;
  if (in_writeout) {
    char marker[1024];
    snprintf(marker, sizeof marker, "%s.hooked", path);
    CHECK(access(marker, F_OK) == 0); /* killed by the hook, at the superblock's share */
  }
  if (damaged) damage_last_segment(path, argv[2]);
  if (unmark) unmark_segment(path, argv[2], kept);
  if (damage || in_writeout) {
    /* Read-only: the cut segments are not listed; the others are whole. */
    CHECK(pario_dataset_open(world, path, PARIO_MODE_READ, &ds) == PARIO_OK);
    CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == kept);
    for (int64_t s = 0; s < kept && s < n; ++s) check_segment(ds, s);
    CHECK(pario_dataset_close(&ds) == PARIO_OK);
  }
  CHECK(pario_dataset_open(world, path, PARIO_MODE_RDWR, &ds) == PARIO_OK);
  int m = -1;
  CHECK(pario_dataset_file_mode(ds, &m, NULL, NULL) == PARIO_OK && m == o.file_mode);
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == kept);
  for (int64_t s = 0; s < kept && s < n; ++s) check_segment(ds, s);
  if (n > 0) check_late(ds);
  /* Writable again: the cut segments appended anew (the cut ones are gone). */
  for (int64_t s = n; n == kept && s <= kSegments; ++s) append_whole(ds, s);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  CHECK(pario_dataset_open(world, path, PARIO_MODE_READ, &ds) == PARIO_OK);
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK && n == kSegments + 1);
  for (int64_t s = 0; s <= kSegments && s < n; ++s) check_segment(ds, s);
  if (n > 0) check_late(ds);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  /* PARIO_TEST_ASIDE: K-1's header did not read (the writeout run whose
   * dropped share held it): cut short all the same, /segments set aside. */
  if (damaged || getenv("PARIO_TEST_ASIDE")) CHECK(segments_set_aside(path, argv[2]));
  check_trimmed(path, argv[2]);
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("dataset_crash_test");
}
