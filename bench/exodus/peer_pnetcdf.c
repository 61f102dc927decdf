/* Peer (iii) of bench/run exodus: the slices through PnetCDF's collective
 * calls (peers.h). Built without PnetCDF as a stub that says so. */
#include <stdio.h>
#include <stdlib.h>

#include "peers.h"

#ifndef PARIO_BENCH_HAVE_PNETCDF
const char *const peer_pnetcdf_missing = "PnetCDF was not found when bench/ was configured (libpnetcdf-dev, Open MPI only)";
int peer_pnetcdf_write(const exo_workload *w, const peer_slices *s, const char *path) {
  (void)w, (void)s, (void)path;
  return 1;
}
#else
#include <pnetcdf.h>

const char *const peer_pnetcdf_missing = NULL;

#define NCT(call)                                                                  \
  do {                                                                             \
    const int e_ = (call);                                                         \
    if (e_ != NC_NOERR) {                                                          \
      fprintf(stderr, "peer_pnetcdf: %s: %s\n", #call, ncmpi_strerror(e_));        \
      return 1;                                                                    \
    }                                                                              \
  } while (0)


int peer_pnetcdf_write(const exo_workload *w, const peer_slices *s, const char *path) {
  int rank, nc;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  NCT(ncmpi_open(MPI_COMM_WORLD, path, NC_WRITE, MPI_INFO_NULL, &nc));
  int vx, vy, vz, vnmap, vemap, vc1, vc2, vt, vg, vn1, vn2, ve1, ve2;
  const char *names[13] = {"coordx", "coordy", "coordz", "node_num_map", "elem_num_map", "connect1", "connect2",
                           "time_whole", "vals_glo_var", "vals_nod_var1", "vals_nod_var2", "vals_elem_var1eb1",
                           "vals_elem_var1eb2"};
  int *ids[13] = {&vx, &vy, &vz, &vnmap, &vemap, &vc1, &vc2, &vt, &vg, &vn1, &vn2, &ve1, &ve2};
  for (int k = 0; k < 13; ++k) NCT(ncmpi_inq_varid(nc, names[k], ids[k]));
  /* A count of 0 starts at 0: a start past the end is an error even then. */
  const int64_t e2 = s->ne - s->e1, b2 = s->c0 + s->e1 - w->cells1;
  MPI_Offset ns[1] = {s->nn ? s->n0 : 0}, nk[1] = {s->nn}, es[1] = {s->ne ? s->c0 : 0}, ek[1] = {s->ne};
  NCT(ncmpi_put_vara_double_all(nc, vx, ns, nk, s->x));
  NCT(ncmpi_put_vara_double_all(nc, vy, ns, nk, s->y));
  NCT(ncmpi_put_vara_double_all(nc, vz, ns, nk, s->z));
  NCT(ncmpi_put_vara_int_all(nc, vnmap, ns, nk, s->nid));
  NCT(ncmpi_put_vara_int_all(nc, vemap, es, ek, s->eid));
  MPI_Offset c1s[2] = {s->e1 ? s->c0 : 0, 0}, c1k[2] = {s->e1, 8}, c2s[2] = {e2 ? b2 : 0, 0}, c2k[2] = {e2, 8};
  NCT(ncmpi_put_vara_int_all(nc, vc1, c1s, c1k, s->conn));
  NCT(ncmpi_put_vara_int_all(nc, vc2, c2s, c2k, s->conn + 8 * s->e1));
  for (int step = 1; step <= w->steps; ++step) {
    const double t = exo_time(step), energy = t * t;
    MPI_Offset ts[2] = {step - 1, 0}, tk[2] = {rank == 0, 1};
    NCT(ncmpi_put_vara_double_all(nc, vt, ts, tk, &t));
    NCT(ncmpi_put_vara_double_all(nc, vg, ts, tk, &energy));
    MPI_Offset vs[2] = {step - 1, ns[0]}, vk[2] = {1, s->nn};
    for (int var = 1; var <= 2; ++var) {
      exo_nodal_values(var, s->nn, s->x, s->y, s->z, t, s->buf);
      NCT(ncmpi_put_vara_double_all(nc, var == 1 ? vn1 : vn2, vs, vk, s->buf));
    }
    for (int64_t e = 0; e < s->ne; ++e) s->buf[e] = exo_stress(s->cen + 3 * e, t);
    MPI_Offset s1[2] = {step - 1, c1s[0]}, k1[2] = {1, s->e1}, s2[2] = {step - 1, c2s[0]}, k2[2] = {1, e2};
    NCT(ncmpi_put_vara_double_all(nc, ve1, s1, k1, s->buf));
    NCT(ncmpi_put_vara_double_all(nc, ve2, s2, k2, s->buf + s->e1));
  }
  NCT(ncmpi_close(nc));
  return 0;
}
#endif
