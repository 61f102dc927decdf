/* Peer (iv) of bench/run exodus: the slices through parallel netCDF-4
 * (every sliced variable NC_COLLECTIVE; peers.h). libexodusii 6.02 has no
 * parallel create, so rank 0 writes its header with ex_create(EX_NETCDF4)
 * into a template file; every rank then makes the real file with
 * nc_create_par, defines in it what the template holds (dimensions,
 * variables, attributes, in the same order, so the ids match) and rank 0
 * copies the template's small variables: the header is libexodusii's, the
 * file parallel netCDF-4's from its creation. The file used to be
 * libexodusii's own, opened with nc_open_par: the first write of a record
 * variable then failed with "NetCDF: HDF error" (docs/performance.md,
 * "Peer (iv)"). Built without the parallel netCDF-C as a stub that says
 * so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peers.h"

#ifndef PARIO_BENCH_HAVE_NC_PAR
const char *const peer_ncpar_missing =
    "parallel netCDF-4 was not found when bench/ was configured (libnetcdf-mpi-dev, Open MPI only)";
int peer_ncpar_write(const exo_workload *w, const peer_slices *s, const char *path, const char *template) {
  (void)w, (void)s, (void)path, (void)template;
  return 1;
}
#else
#include <netcdf.h>
#include <netcdf_par.h>

const char *const peer_ncpar_missing = NULL;

#define NCT(call)                                                                  \
  do {                                                                             \
    const int e_ = (call);                                                         \
    if (e_ != NC_NOERR) {                                                          \
      fprintf(stderr, "peer_ncpar: %s: %s\n", #call, nc_strerror(e_));             \
      return 1;                                                                    \
    }                                                                              \
  } while (0)


static int var(int nc, const char *name, int *id) {
  NCT(nc_inq_varid(nc, name, id));
  NCT(nc_var_par_access(nc, *id, NC_COLLECTIVE));
  return 0;
}

/* The variables every rank writes its slices of; the rest come from the
 * template. */
static int sliced(const char *name) {
  static const char *const names[] = {"coordx", "coordy", "coordz", "node_num_map", "elem_num_map", "connect1",
                                      "connect2", "time_whole", "vals_glo_var", "vals_nod_var1", "vals_nod_var2",
                                      "vals_elem_var1eb1", "vals_elem_var1eb2"};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k)
    if (!strcmp(name, names[k])) return 1;
  return 0;
}

/* Collective: the file at path made with nc_create_par, its definition
 * (dimensions, variables, attributes) that of the serial file at
 * template (libexodusii's), and the template's small variables copied in
 * by rank 0; left in data mode, open as *nc. */
static int create_from(const char *template, const char *path, int *nc) {
  int rank, in;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  NCT(nc_open(template, NC_NOWRITE, &in));
  NCT(nc_create_par(path, NC_CLOBBER | NC_NETCDF4, MPI_COMM_WORLD, MPI_INFO_NULL, nc));
  int ndims, nvars, natts, unlim;
  NCT(nc_inq(in, &ndims, &nvars, &natts, &unlim));
  for (int d = 0; d < ndims; ++d) {
    char name[NC_MAX_NAME + 1];
    size_t len;
    int id;
    NCT(nc_inq_dim(in, d, name, &len));
    NCT(nc_def_dim(*nc, name, d == unlim ? NC_UNLIMITED : len, &id));
    if (id != d) {
      fprintf(stderr, "peer_ncpar: dimension %s is %d, was %d\n", name, id, d);
      return 1;
    }
  }
  for (int a = 0; a < natts; ++a) {
    char name[NC_MAX_NAME + 1];
    NCT(nc_inq_attname(in, NC_GLOBAL, a, name));
    NCT(nc_copy_att(in, NC_GLOBAL, name, *nc, NC_GLOBAL));
  }
  for (int v = 0; v < nvars; ++v) {
    char name[NC_MAX_NAME + 1];
    nc_type type;
    int nd, dims[NC_MAX_VAR_DIMS], na, id;
    NCT(nc_inq_var(in, v, name, &type, &nd, dims, &na));
    NCT(nc_def_var(*nc, name, type, nd, dims, &id));
    for (int a = 0; a < na; ++a) {
      char att[NC_MAX_NAME + 1];
      NCT(nc_inq_attname(in, v, a, att));
      NCT(nc_copy_att(in, v, att, *nc, id));
    }
  }
  NCT(nc_enddef(*nc));
  /* The small variables (ids, names, status, QA, info, the two sets, the
   * truth table): rank 0, independent access (the default for them). */
  for (int v = 0; v < nvars && rank == 0; ++v) {
    char name[NC_MAX_NAME + 1];
    nc_type type;
    int nd, dims[NC_MAX_VAR_DIMS], na;
    NCT(nc_inq_var(in, v, name, &type, &nd, dims, &na));
    if (sliced(name)) continue;
    size_t n = 1, type_size;
    for (int d = 0; d < nd; ++d) {
      size_t len;
      NCT(nc_inq_dimlen(in, dims[d], &len));
      n *= len;
    }
    NCT(nc_inq_type(in, type, NULL, &type_size));
    if (n == 0) continue;
    void *buf = malloc(n * type_size);
    if (!buf) return 1;
    const int e = nc_get_var(in, v, buf);
    const int f = e == NC_NOERR ? nc_put_var(*nc, v, buf) : e;
    free(buf);
    NCT(f);
  }
  NCT(nc_close(in));
  return 0;
}

int peer_ncpar_write(const exo_workload *w, const peer_slices *s, const char *path, const char *template) {
  int rank, nc;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (create_from(template, path, &nc)) return 1;
  int vx, vy, vz, vnmap, vemap, vc1, vc2, vt, vg, vn1, vn2, ve1, ve2;
  if (var(nc, "coordx", &vx) || var(nc, "coordy", &vy) || var(nc, "coordz", &vz) ||
      var(nc, "node_num_map", &vnmap) || var(nc, "elem_num_map", &vemap) || var(nc, "connect1", &vc1) ||
      var(nc, "connect2", &vc2) || var(nc, "time_whole", &vt) || var(nc, "vals_glo_var", &vg) ||
      var(nc, "vals_nod_var1", &vn1) || var(nc, "vals_nod_var2", &vn2) || var(nc, "vals_elem_var1eb1", &ve1) ||
      var(nc, "vals_elem_var1eb2", &ve2))
    return 1;
  const int64_t e2 = s->ne - s->e1, b2 = s->c0 + s->e1 - w->cells1;
  size_t ns[1] = {s->nn ? (size_t)s->n0 : 0}, nk[1] = {(size_t)s->nn};
  size_t es[1] = {s->ne ? (size_t)s->c0 : 0}, ek[1] = {(size_t)s->ne};
  NCT(nc_put_vara_double(nc, vx, ns, nk, s->x));
  NCT(nc_put_vara_double(nc, vy, ns, nk, s->y));
  NCT(nc_put_vara_double(nc, vz, ns, nk, s->z));
  NCT(nc_put_vara_int(nc, vnmap, ns, nk, s->nid));
  NCT(nc_put_vara_int(nc, vemap, es, ek, s->eid));
  size_t c1s[2] = {s->e1 ? (size_t)s->c0 : 0, 0}, c1k[2] = {(size_t)s->e1, 8};
  size_t c2s[2] = {e2 ? (size_t)b2 : 0, 0}, c2k[2] = {(size_t)e2, 8};
  NCT(nc_put_vara_int(nc, vc1, c1s, c1k, s->conn));
  NCT(nc_put_vara_int(nc, vc2, c2s, c2k, s->conn + 8 * s->e1));
  for (int step = 1; step <= w->steps; ++step) {
    const double t = exo_time(step), energy = t * t;
    size_t ts[2] = {(size_t)step - 1, 0}, tk[2] = {1, 1}; /* every rank the same value: a count of 0 on some ranks extending the record dimension fails in HDF5 */
    NCT(nc_put_vara_double(nc, vt, ts, tk, &t));
    NCT(nc_put_vara_double(nc, vg, ts, tk, &energy));
    size_t vs[2] = {(size_t)step - 1, ns[0]}, vk[2] = {1, (size_t)s->nn};
    for (int v = 1; v <= 2; ++v) {
      exo_nodal_values(v, s->nn, s->x, s->y, s->z, t, s->buf);
      NCT(nc_put_vara_double(nc, v == 1 ? vn1 : vn2, vs, vk, s->buf));
    }
    for (int64_t e = 0; e < s->ne; ++e) s->buf[e] = exo_stress(s->cen + 3 * e, t);
    size_t s1[2] = {(size_t)step - 1, c1s[0]}, k1[2] = {1, (size_t)s->e1};
    size_t s2[2] = {(size_t)step - 1, c2s[0]}, k2[2] = {1, (size_t)e2};
    NCT(nc_put_vara_double(nc, ve1, s1, k1, s->buf));
    NCT(nc_put_vara_double(nc, ve2, s2, k2, s->buf + s->e1));
  }
  NCT(nc_close(nc));
  return 0;
}
#endif
