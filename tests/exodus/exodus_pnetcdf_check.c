/* pario's Exodus files read by PnetCDF (Open MPI builds with
 * libpnetcdf-dev), every rank its slice of nodes and of block 10 through
 * PnetCDF's collective calls, checked against the workload's formulas
 * (docs/architecture.md, "The workload and the pario exodus commands"):
 *   exodus_pnetcdf_check FILE NX NY NZ T     (the HEX variant)
 * Exit status 0 when every value matches. */
#include <mpi.h>
#include <pnetcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NCT(call)                                                                     \
  do {                                                                                \
    const int e_ = (call);                                                            \
    if (e_ != NC_NOERR) {                                                             \
      fprintf(stderr, "exodus_pnetcdf_check: %s: %s\n", #call, ncmpi_strerror(e_));   \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                   \
    }                                                                                 \
  } while (0)

static int failures;
static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "exodus_pnetcdf_check: %s differs\n", what);
    ++failures;
  }
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) MPI_Abort(MPI_COMM_WORLD, 1);
  return p;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc != 6) {
    fprintf(stderr, "usage: %s FILE NX NY NZ T\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int64_t NX = atoll(argv[2]), NY = atoll(argv[3]), NZ = atoll(argv[4]), T = atoll(argv[5]);
  const int64_t N = (NX + 1) * (NY + 1) * (NZ + 1), C1 = NX * NY * (NZ / 2);
  int nc, format;
  NCT(ncmpi_open(MPI_COMM_WORLD, argv[1], NC_NOWRITE, MPI_INFO_NULL, &nc));
  NCT(ncmpi_inq_format(nc, &format));
  check(format == NC_FORMAT_CDF2, "the format (CDF-2)");
  int dim;
  MPI_Offset len;
  NCT(ncmpi_inq_dimid(nc, "num_nodes", &dim));
  NCT(ncmpi_inq_dimlen(nc, dim, &len));
  check(len == N, "num_nodes");
  NCT(ncmpi_inq_dimid(nc, "time_step", &dim));
  NCT(ncmpi_inq_dimlen(nc, dim, &len));
  check(len == T, "the steps (numrecs)");

  /* This rank's nodes: coordinates, ids, temperature at every step. */
  const int64_t n0 = N * rank / size, nn = N * (rank + 1) / size - n0;
  double *x = xmalloc(sizeof(double) * (size_t)nn), *y = xmalloc(sizeof(double) * (size_t)nn),
         *z = xmalloc(sizeof(double) * (size_t)nn), *v = xmalloc(sizeof(double) * (size_t)nn);
  int *ids = xmalloc(sizeof(int) * (size_t)nn);
  const char *coords[3] = {"coordx", "coordy", "coordz"};
  double *xyz[3] = {x, y, z};
  MPI_Offset start[2] = {n0, 0}, count[2] = {nn, 0};
  for (int d = 0; d < 3; ++d) {
    int var;
    NCT(ncmpi_inq_varid(nc, coords[d], &var));
    NCT(ncmpi_get_vara_double_all(nc, var, start, count, xyz[d]));
  }
  int var;
  NCT(ncmpi_inq_varid(nc, "node_num_map", &var));
  NCT(ncmpi_get_vara_int_all(nc, var, start, count, ids));
  int good = 1;
  for (int64_t k = 0; k < nn; ++k) {
    const int64_t n = n0 + k, i = n % (NX + 1), j = (n / (NX + 1)) % (NY + 1), kk = n / ((NX + 1) * (NY + 1));
    good &= x[k] == (double)i / NX && y[k] == (double)j / NY && z[k] == (double)kk / NZ && ids[k] == 2 * (n + 1);
  }
  check(good, "coordinates and node ids");
  NCT(ncmpi_inq_varid(nc, "vals_nod_var1", &var));
  for (int64_t s = 1; s <= T; ++s) {
    const MPI_Offset at[2] = {s - 1, n0}, cnt[2] = {1, nn};
    NCT(ncmpi_get_vara_double_all(nc, var, at, cnt, v));
    const double t = 0.25 * (double)s;
    good = 1;
    for (int64_t k = 0; k < nn; ++k) good &= v[k] == 300 + 10 * x[k] + 20 * y[k] + 30 * z[k] + t;
    check(good, "temperature");
  }

  /* This rank's elements of block 10: HEX8 corners as 1-based positions. */
  const int64_t e0 = C1 * rank / size, ne = C1 * (rank + 1) / size - e0;
  int *conn = xmalloc(sizeof(int) * 8 * (size_t)ne);
  NCT(ncmpi_inq_varid(nc, "connect1", &var));
  const MPI_Offset cs[2] = {e0, 0}, cc[2] = {ne, 8};
  NCT(ncmpi_get_vara_int_all(nc, var, cs, cc, conn));
  static const int d[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  good = 1;
  for (int64_t e = 0; e < ne; ++e) {
    const int64_t c = e0 + e, i = c % NX, j = (c / NX) % NY, k = c / (NX * NY);
    for (int q = 0; q < 8; ++q) {
      good &= conn[e * 8 + q] == 1 + (i + d[q][0]) + (NX + 1) * ((j + d[q][1]) + (NY + 1) * (k + d[q][2]));
    }
  }
  check(good, "block 10's connectivity");
  NCT(ncmpi_close(nc));
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("exodus_pnetcdf_check: %s %s on %d ranks\n", argv[1], all ? "FAILED" : "reads as the workload", size);
  free(x), free(y), free(z), free(v), free(ids), free(conn);
  MPI_Finalize();
  return all ? 1 : 0;
}
