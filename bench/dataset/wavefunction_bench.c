/* bench/run dataset, case 1 (issue 26): MFDn's wave-function file, V
 * vectors of DIM doubles, each rank holding a contiguous slice of each
 * (pario_dataset_even_split), written and read by one implementation:
 *
 *   pario              pario_wavefunction_* with its default transfer
 *   pario-collective   ... with PARIO_WF_TRANSFER_COLLECTIVE
 *   pario-aggregators  ... with PARIO_WF_TRANSFER_AGGREGATORS
 *   gather             the seed's baseline: MPI_Gatherv of each vector to
 *                      rank 0, which pwrites raw binary (reads: rank 0
 *                      preads and MPI_Scatterv)
 *   h5-independent     parallel HDF5 directly: the same layout (a group of
 *   h5-collective      V float64 datasets), each rank one hyperslab per
 *                      vector, H5FD_MPIO_INDEPENDENT / _COLLECTIVE
 *   mpiio              MPI_File_write_at / read_at at computed offsets
 *                      into one raw file: the limit for one shared file
 *
 * One job (one mpiexec) per implementation and rank count does, in order:
 * a write into the page cache (timed: create to close on every rank), a
 * check, a flushed write (timed: create to close and then fdatasync of the
 * file), a check, a warm read, then every rank evicts the file
 * (posix_fadvise DONTNEED, after its pages are clean) and a cold read.
 * Every write is verified by reading this rank's slices back with the same
 * implementation (untimed) and comparing every value; every read compares
 * every value. Values: x_k[i] = k + i * 1e-9 (exact to the bit, known
 * without the writer).
 *
 * Rank 0 prints one JSON line per phase: impl, op, seconds (the slowest
 * rank's, between barriers), bytes, peak resident MiB of each rank
 * (getrusage; the process's whole life) and its MiB before the data were
 * made. Exit status 1 on a failed check.
 *   wavefunction_bench --impl NAME --dir DIR --dim N --vectors V */
#define _GNU_SOURCE
#include <fcntl.h>
#include <hdf5.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench_check.h"

const char *bench_program = "wavefunction_bench", *bench_impl = "pario";
int bench_rank;
static int rank, nranks;
static const char *dir = "/tmp";
static int64_t dim = 1 << 20, start, count;
static int vectors = 15;
static double **x;
static int *counts, *displs;
static char path[1024];

static double value(int k, int64_t i) { return (double)k + (double)i * 1e-9; }

static double peak_mib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0;
}

static int is(const char *name) { return strcmp(bench_impl, name) == 0; }

/* ---- pario ---- */

static int pario_transfer(void) {
  if (is("pario-collective")) return PARIO_WF_TRANSFER_COLLECTIVE;
  if (is("pario-aggregators")) return PARIO_WF_TRANSFER_AGGREGATORS;
  return PARIO_WF_TRANSFER_DEFAULT;
}

static void pario_io(int write, double **buf) {
  pario_group_t world;
  OK(pario_group_world(&world));
  pario_wavefunction_t wf = PARIO_WAVEFUNCTION_NULL;
  if (write) {
    const pario_wavefunction_basis_t b = {dim, 3, 3, 6, 1, 0, 20.0};
    OK(pario_wavefunction_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &b, vectors, pario_transfer(),
                                 &wf));
    for (int k = 0; k < vectors; ++k) OK(pario_wavefunction_write(wf, k, start, count, buf[k]));
  } else {
    OK(pario_wavefunction_open(world, path, PARIO_MODE_READ, pario_transfer(), &wf));
    for (int k = 0; k < vectors; ++k) OK(pario_wavefunction_read(wf, k, start, count, buf[k]));
  }
  OK(pario_wavefunction_close(&wf));
}

/* ---- parallel HDF5 directly, the same layout ---- */

static void h5_io(int write, double **buf) {
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5OK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
  H5OK(H5Pset_all_coll_metadata_ops(fapl, 1));
  H5OK(H5Pset_coll_metadata_write(fapl, 1));
  const hid_t file = write ? H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : H5Fopen(path, H5F_ACC_RDONLY, fapl);
  H5OK(file);
  const hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5OK(H5Pset_dxpl_mpio(dxpl, is("h5-collective") ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT));
  const hid_t group = write ? H5Gcreate2(file, "vectors", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
                            : H5Gopen2(file, "vectors", H5P_DEFAULT);
  H5OK(group);
  const hsize_t dims[1] = {(hsize_t)dim}, s[1] = {(hsize_t)start}, c[1] = {(hsize_t)count};
  const hid_t mem = H5Screate_simple(1, c, NULL);
  for (int k = 0; k < vectors; ++k) {
    char name[16];
    snprintf(name, sizeof name, "%05d", k);
    hid_t ds;
    if (write) {
      const hid_t space = H5Screate_simple(1, dims, NULL);
      const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
      H5OK(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY));
      H5OK(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER));
      ds = H5Dcreate2(group, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
      H5Pclose(dcpl);
      H5Sclose(space);
    } else {
      ds = H5Dopen2(group, name, H5P_DEFAULT);
    }
    H5OK(ds);
    const hid_t fs = H5Dget_space(ds);
    if (count > 0) {
      H5OK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, s, NULL, c, NULL));
    } else {
      H5Sselect_none(fs);
      H5Sselect_none(mem);
    }
    if (count > 0 || is("h5-collective")) {
      H5OK(write ? H5Dwrite(ds, H5T_NATIVE_DOUBLE, mem, fs, dxpl, buf[k])
                 : H5Dread(ds, H5T_NATIVE_DOUBLE, mem, fs, dxpl, buf[k]));
    }
    H5Sclose(fs);
    H5Dclose(ds);
  }
  H5Sclose(mem);
  H5Gclose(group);
  H5Pclose(dxpl);
  H5OK(H5Fclose(file));
  H5Pclose(fapl);
}

/* ---- raw: rank 0 gathers, or MPI-IO at computed offsets ---- */

static void gather_io(int write, double **buf) {
  const size_t bytes = (size_t)dim * sizeof(double);
  double *all = NULL;
  int fd = -1;
  if (rank == 0) {
    all = malloc(bytes);
    fd = write ? open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644) : open(path, O_RDONLY);
    if (!all || fd < 0) die("gather: open or malloc");
  }
  for (int k = 0; k < vectors; ++k) {
    if (write) {
      MPI_Gatherv(buf[k], (int)count, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      if (rank == 0) {
        for (size_t done = 0; done < bytes;) {
          const ssize_t n = pwrite(fd, (char *)all + done, bytes - done, (off_t)k * (off_t)bytes + (off_t)done);
          if (n <= 0) die("pwrite");
          done += (size_t)n;
        }
      }
    } else {
      if (rank == 0) {
        for (size_t done = 0; done < bytes;) {
          const ssize_t n = pread(fd, (char *)all + done, bytes - done, (off_t)k * (off_t)bytes + (off_t)done);
          if (n <= 0) die("pread");
          done += (size_t)n;
        }
      }
      MPI_Scatterv(all, counts, displs, MPI_DOUBLE, buf[k], (int)count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
  }
  if (rank == 0) {
    close(fd);
    free(all);
  }
}

static void mpiio_io(int write, double **buf) {
  MPI_File f;
  if (MPI_File_open(MPI_COMM_WORLD, path, write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY, MPI_INFO_NULL,
                    &f) != MPI_SUCCESS) {
    die("MPI_File_open");
  }
  if (write) MPI_File_set_size(f, 0);
  for (int k = 0; k < vectors; ++k) {
    const MPI_Offset at = ((MPI_Offset)k * dim + start) * (MPI_Offset)sizeof(double);
    /* in pieces of at most 2^27 doubles: MPI counts are int */
    for (int64_t done = 0; done < count;) {
      const int n = (int)(count - done < (1 << 27) ? count - done : (1 << 27));
      const int rc = write ? MPI_File_write_at(f, at + done * 8, buf[k] + done, n, MPI_DOUBLE, MPI_STATUS_IGNORE)
                           : MPI_File_read_at(f, at + done * 8, buf[k] + done, n, MPI_DOUBLE, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) die("MPI_File_write_at/read_at");
      done += n;
    }
  }
  MPI_File_close(&f);
}

static void io(int write, double **buf) {
  if (!strncmp(bench_impl, "pario", 5)) pario_io(write, buf);
  else if (!strncmp(bench_impl, "h5-", 3)) h5_io(write, buf);
  else if (is("gather")) gather_io(write, buf);
  else if (is("mpiio")) mpiio_io(write, buf);
  else die("unknown --impl");
}

/* ---- phases ---- */

static void sync_file(void) {
  if (rank == 0) {
    const int fd = open(path, O_RDONLY);
    if (fd < 0 || fdatasync(fd) != 0) die("fdatasync");
    close(fd);
  }
}

static void evict(void) {
  sync_file();
  MPI_Barrier(MPI_COMM_WORLD);
  const int fd = open(path, O_RDONLY);
  if (fd < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0) die("posix_fadvise");
  close(fd);
  MPI_Barrier(MPI_COMM_WORLD);
}

static void verify(double **buf, const char *what) {
  int bad = 0, any = 0;
  for (int k = 0; k < vectors && !bad; ++k) {
    for (int64_t i = 0; i < count; ++i) {
      if (buf[k][i] != value(k, start + i)) {
        bad = 1;
        break;
      }
    }
  }
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any) {
    if (rank == 0) fprintf(stderr, "wavefunction_bench: %s: %s read back wrong values\n", bench_impl, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

static double *mib_all;
static double start_mib;

static void report(const char *op, double seconds) {
  double mib = peak_mib();
  MPI_Gather(&mib, 1, MPI_DOUBLE, mib_all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double s0[64];
  MPI_Gather(&start_mib, 1, MPI_DOUBLE, s0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  printf("{\"impl\": \"%s\", \"op\": \"%s\", \"ranks\": %d, \"seconds\": %.6f, \"bytes\": %lld, \"peak_mib\": [", bench_impl,
         op, nranks, seconds, (long long)(dim * vectors * 8));
  for (int r = 0; r < nranks; ++r) printf("%s%.1f", r ? ", " : "", mib_all[r]);
  printf("], \"start_mib\": [");
  for (int r = 0; r < nranks; ++r) printf("%s%.1f", r ? ", " : "", s0[r]);
  printf("]}\n");
  fflush(stdout);
}

static double timed(int write, int flushed, double **buf) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  io(write, buf);
  if (flushed) sync_file();
  MPI_Barrier(MPI_COMM_WORLD);
  return MPI_Wtime() - t0;
}

int main(int argc, char **argv) {
  OK(pario_init()); /* MPI_Init too */
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  bench_rank = rank;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--impl")) bench_impl = argv[i + 1];
    else if (!strcmp(argv[i], "--dir")) dir = argv[i + 1];
    else if (!strcmp(argv[i], "--dim")) dim = atoll(argv[i + 1]);
    else if (!strcmp(argv[i], "--vectors")) vectors = atoi(argv[i + 1]);
  }
  if (dim < 1 || dim > INT32_MAX || vectors < 1 || vectors > 1000 || nranks > 64) die("arguments");
  snprintf(path, sizeof path, "%s/wf-%s.%s", dir, bench_impl, strncmp(bench_impl, "h5", 2) && strncmp(bench_impl, "pario", 5) ? "raw" : "h5");
  start_mib = peak_mib();
  mib_all = malloc(64 * sizeof(double));
  counts = malloc((size_t)nranks * sizeof(int));
  displs = malloc((size_t)nranks * sizeof(int));
  for (int r = 0; r < nranks; ++r) {
    int64_t s, c;
    pario_dataset_even_split(dim, nranks, r, &s, &c);
    counts[r] = (int)c;
    displs[r] = (int)s;
  }
  pario_dataset_even_split(dim, nranks, rank, &start, &count);
  x = malloc((size_t)vectors * sizeof *x);
  double **back = malloc((size_t)vectors * sizeof *back);
  for (int k = 0; k < vectors; ++k) {
    x[k] = malloc((size_t)(count ? count : 1) * sizeof(double));
    back[k] = malloc((size_t)(count ? count : 1) * sizeof(double));
    if (!x[k] || !back[k]) die("malloc");
    for (int64_t i = 0; i < count; ++i) x[k][i] = value(k, start + i);
  }
  /* Warm-up, untimed: one vector written and read, so the first timed
   * phase does not pay for the libraries' first use (MPI-IO, HDF5). */
  {
    const int all = vectors;
    vectors = 1;
    io(1, x);
    io(0, back);
    vectors = all;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  double t = timed(1, 0, x);
  report("write page cache", t);
  io(0, back);
  verify(back, "write page cache");
  for (int k = 0; k < vectors; ++k) memset(back[k], 0, (size_t)count * sizeof(double));
  sync_file(); /* the first write's dirty pages are not the flushed write's */
  MPI_Barrier(MPI_COMM_WORLD);
  t = timed(1, 1, x);
  report("write flushed", t);
  t = timed(0, 0, back);
  report("read warm", t);
  verify(back, "flushed write, then warm read");
  for (int k = 0; k < vectors; ++k) memset(back[k], 0, (size_t)count * sizeof(double));
  evict();
  t = timed(0, 0, back);
  report("read cold", t);
  verify(back, "cold read");
  if (rank == 0) unlink(path);
  for (int k = 0; k < vectors; ++k) {
    free(x[k]);
    free(back[k]);
  }
  free(x);
  free(back);
  OK(pario_finalize()); /* MPI_Finalize too */
  return 0;
}
