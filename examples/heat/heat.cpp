// examples/heat: heat diffusion on an unstructured tetrahedral mesh, its
// results written by all ranks into one Exodus II file through pario, and a
// restart from that file on any number of ranks (issue 27's application).
//
//   heat run [--n N] [--steps S] [--every K] [--out FILE] [--baseline FILE]
//            [--restart FILE] [--steps-per-file F]           (under mpiexec)
//   heat check FILE TOL_T TOL_Q      the physics, read with libexodusii
//   heat compare A B RTOL [--all]    two files' values, read with libexodusii
//
// The problem. The box [0,2]x[0,1]x[0,1] is cut into 2N x N x N cubes and
// every cube into 6 tetrahedra (Kuhn's split, conforming); node and element
// ids are scrambled by an affine bijection so they are sparse and not
// contiguous. The heat equation dT/dt = kappa lap T with T = 0 at x = 0,
// T = 1 at x = 2 and no flux through the other faces has the solution
//   T = x/2 + A sin(pi x/2) cos(pi y) cos(pi z) exp(-lambda t),
//   lambda = kappa pi^2 (1/4 + 1 + 1),
// which is also the initial condition (t = 0). Linear finite elements with
// a lumped mass matrix and explicit Euler steps; dt is 0.9 of the stability
// limit bounded element by element (Irons: the global spectral radius is at
// most the largest element one), so it is the same on any number of ranks.
// Every K steps the nodal temperature and the element heat flux
// q = -kappa grad T are written.
//
// Parallelism. METIS partitions the elements on rank 0 (Debian has no
// ParMETIS); rank 0 holds only the connectivity for that. Each rank then
// holds its elements and the nodes they use; a node on several ranks sums
// its partial values from all of them in rank order, so every holder gets
// the same bits. Output goes through pario's exodus writer, each rank
// passing its own part, and, for comparison in the same run, through the
// gather-to-rank-0 way: every rank sends its part to rank 0, which writes
// the same file with Debian's serial libexodusii. A restart reads the last
// step back through pario's exodus reader (position ranges and id maps),
// partitions again for the current number of ranks and moves elements and
// nodes to their new ranks with MPI, then appends its steps to the same
// file (or series: --steps-per-file) through pario_exodus_open_append.
#include <exodusII.h>
#include <fcntl.h>
#include <metis.h>
#include <mpi.h>
#include <pario/pario.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kLx = 2.0, kLy = 1.0, kLz = 1.0;
constexpr double kKappa = 1.0;
constexpr double kAmplitude = 0.5;
constexpr int64_t kBlockId = 7;
const double kLambda = kKappa * kPi * kPi * (1 / (kLx * kLx) + 1 / (kLy * kLy) + 1 / (kLz * kLz));

int rank_ = 0, size_ = 1;
double metis_seconds = 0;  // rank 0's time in METIS

[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "heat: rank %d: %s\n", rank_, what);
  int started = 0;
  MPI_Initialized(&started);
  if (started) MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

// A pario call: on failure, the call, the status and the library's message.
void check_pario(int rc, const char *call) {
  if (rc == PARIO_OK) return;
  char msg[512];
  pario_last_error_message(msg, sizeof msg);
  std::string s = std::string(call) + ": " + pario_status_string(rc) + " (" + msg + ")";
  fail(s.c_str());
}
#define PARIO(call) check_pario((call), #call)

void check_ex(int rc, const char *call) {
  if (rc < 0) fail((std::string(call) + " failed (libexodusii)").c_str());
}
#define EXII(call) check_ex((call), #call)

double exact_temperature(double x, double y, double z, double t) {
  return x / kLx + kAmplitude * std::sin(kPi * x / kLx) * std::cos(kPi * y / kLy) * std::cos(kPi * z / kLz) *
                       std::exp(-kLambda * t);
}

void exact_flux(double x, double y, double z, double t, double q[3]) {
  const double a = kAmplitude * std::exp(-kLambda * t);
  const double sx = std::sin(kPi * x / kLx), cx = std::cos(kPi * x / kLx);
  const double sy = std::sin(kPi * y / kLy), cy = std::cos(kPi * y / kLy);
  const double sz = std::sin(kPi * z / kLz), cz = std::cos(kPi * z / kLz);
  q[0] = -kKappa * (1 / kLx + a * kPi / kLx * cx * cy * cz);
  q[1] = kKappa * a * kPi / kLy * sx * sy * cz;
  q[2] = kKappa * a * kPi / kLz * sx * cy * sz;
}

// An affine bijection of [0, n) scaled to sparse ids: stride * ((a i + b) mod n) + offset.
struct Scramble {
  int64_t n, a, b, stride, offset;
  Scramble(int64_t n_, int64_t stride_, int64_t offset_) : n(n_), a(0), b(n_ / 3), stride(stride_), offset(offset_) {
    a = std::max<int64_t>(1, (int64_t)(0.618 * (double)n_)) | 1;
    while (std::gcd(a, n) != 1) a += 2;
  }
  int64_t operator()(int64_t i) const { return stride * ((a * i + b) % n) + offset; }
};

// One exchange of variable-length lists with every rank.
template <class T>
std::vector<std::vector<T>> exchange_lists(const std::vector<std::vector<T>> &send, MPI_Datatype type) {
  std::vector<int> scount(size_), rcount(size_), sdisp(size_), rdisp(size_);
  for (int q = 0; q < size_; ++q) scount[q] = (int)send[q].size();
  MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<T> sbuf, rbuf;
  for (int q = 0; q < size_; ++q) {
    sdisp[q] = (int)sbuf.size();
    sbuf.insert(sbuf.end(), send[q].begin(), send[q].end());
  }
  int total = 0;
  for (int q = 0; q < size_; ++q) {
    rdisp[q] = total;
    total += rcount[q];
  }
  rbuf.resize(total);
  MPI_Alltoallv(sbuf.data(), scount.data(), sdisp.data(), type, rbuf.data(), rcount.data(), rdisp.data(), type,
                MPI_COMM_WORLD);
  std::vector<std::vector<T>> recv(size_);
  for (int q = 0; q < size_; ++q) recv[q].assign(rbuf.begin() + rdisp[q], rbuf.begin() + rdisp[q] + rcount[q]);
  return recv;
}

// Gathers every rank's list on rank 0 (in rank order; elsewhere empty).
template <class T>
std::vector<T> gather_to_root(const std::vector<T> &mine, MPI_Datatype type) {
  int n = (int)mine.size();
  std::vector<int> counts(size_), disp(size_);
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int q = 0; q < size_; ++q) {
    disp[q] = total;
    total += counts[q];
  }
  std::vector<T> all(rank_ == 0 ? total : 0);
  MPI_Gatherv(mine.data(), n, type, all.data(), counts.data(), disp.data(), type, 0, MPI_COMM_WORLD);
  return all;
}

int64_t range_begin(int64_t n, int r) { return n * r / size_; }

// The mesh as held before partitioning: a contiguous range of elements
// (ids, 4 node keys each) and of nodes (keys [node0, node0 + n)), with the
// temperature. Node keys are 0..N-1 (mesh index or file position).
struct Source {
  int64_t num_nodes = 0, num_elem = 0, node0 = 0;
  std::vector<int64_t> elem_ids, elem_keys;
  std::vector<int64_t> node_ids;
  std::vector<double> x, y, z, temp;
  int64_t first_step = 0;  // time steps already done
};

// This rank's part after partitioning.
struct Part {
  int64_t num_nodes = 0, num_elem = 0;
  std::vector<int64_t> elem_ids, conn;  // conn: local node indices
  std::vector<int64_t> node_ids, keys;  // local nodes, sorted by key
  std::vector<double> x, y, z, temp;
  std::vector<std::vector<int>> holders;  // ranks holding each local node (sorted; includes this rank)
  // Shared-node sums: per neighbor, its rank and the local nodes shared with it (in key order).
  std::vector<int> neighbors;
  std::vector<std::vector<int64_t>> shared;
  // Per shared node (in local order), where each holder's partial lies: -1 this rank's, else an offset in the receive buffer.
  std::vector<int64_t> sum_nodes, sum_begin, sum_src;
  std::vector<char> owned, dirichlet;
  std::vector<double> mass, ke, grad;  // lumped mass; per element 16 stiffness entries and 12 gradient components
  double dt = 0;
};

// The box's mesh, generated in ranges: no rank holds it all.
Source generate(int n) {
  const int64_t nx = 2 * n, ny = n, nz = n;
  Source s;
  s.num_nodes = (nx + 1) * (ny + 1) * (nz + 1);
  s.num_elem = 6 * nx * ny * nz;
  const Scramble node_id(s.num_nodes, 3, 5), elem_id(s.num_elem, 2, 11);
  static const int tet[6][4] = {{0, 1, 2, 6}, {0, 1, 6, 5}, {0, 3, 6, 2}, {0, 3, 7, 6}, {0, 4, 5, 6}, {0, 4, 6, 7}};
  static const int corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                   {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const int64_t e0 = range_begin(s.num_elem, rank_), e1 = range_begin(s.num_elem, rank_ + 1);
  for (int64_t e = e0; e < e1; ++e) {
    const int64_t c = e / 6, i = c % nx, j = (c / nx) % ny, k = c / (nx * ny);
    s.elem_ids.push_back(elem_id(e));
    for (int a = 0; a < 4; ++a) {
      const int *d = corner[tet[e % 6][a]];
      s.elem_keys.push_back((i + d[0]) + (nx + 1) * ((j + d[1]) + (ny + 1) * (k + d[2])));
    }
  }
  s.node0 = range_begin(s.num_nodes, rank_);
  for (int64_t v = s.node0; v < range_begin(s.num_nodes, rank_ + 1); ++v) {
    const double x = kLx * (double)(v % (nx + 1)) / (double)nx;
    const double y = kLy * (double)((v / (nx + 1)) % (ny + 1)) / (double)ny;
    const double z = kLz * (double)(v / ((nx + 1) * (ny + 1))) / (double)nz;
    s.node_ids.push_back(node_id(v));
    s.x.push_back(x);
    s.y.push_back(y);
    s.z.push_back(z);
    s.temp.push_back(exact_temperature(x, y, z, 0));
  }
  return s;
}

// The last step of a file, or of the last file of a series with
// steps_per_file steps per file, read back through pario's reader: each
// rank a range of nodes and of elements (by file position).
Source read_restart(const char *path, int steps_per_file, double *time_out) {
  pario_group_t world;
  PARIO(pario_group_world(&world));
  pario_exodus_t ex = PARIO_EXODUS_NULL;
  pario_exodus_options options;
  pario_exodus_options_init(&options);
  options.steps_per_file = steps_per_file;
  PARIO(pario_exodus_open(world, path, &options, &ex));
  int num_dim = 0, num_blocks = 0, num_steps = 0;
  Source s;
  PARIO(pario_exodus_get_info(ex, nullptr, 0, &num_dim, &s.num_nodes, &s.num_elem, &num_blocks, nullptr, nullptr,
                              &num_steps));
  if (num_dim != 3 || num_blocks != 1 || num_steps < 1)
    fail("restart: the file is not a heat result (3-D, one block, at least one step)");
  int64_t block_id = 0, count = 0;
  int npe = 0;
  char type[33];
  PARIO(pario_exodus_get_block(ex, 0, &block_id, nullptr, 0, type, sizeof type, &count, &npe));
  if (npe != 4 || count != s.num_elem || std::strncmp(type, "TETRA", 5) != 0)
    fail("restart: the block is not all the elements as TETRA4");
  char name[64];
  int num_vars = 0;
  PARIO(pario_exodus_get_variable(ex, PARIO_EXODUS_NODAL, 1, name, sizeof name, &num_vars));
  if (std::strcmp(name, "temperature") != 0) fail("restart: nodal variable 1 is not 'temperature'");
  PARIO(pario_exodus_get_time(ex, num_steps, time_out));

  s.node0 = range_begin(s.num_nodes, rank_);
  const int64_t nn = range_begin(s.num_nodes, rank_ + 1) - s.node0;
  s.node_ids.resize(nn);
  s.x.resize(nn);
  s.y.resize(nn);
  s.z.resize(nn);
  s.temp.resize(nn);
  PARIO(pario_exodus_read_coords(ex, s.node0, nn, PARIO_TYPE_DOUBLE, s.x.data(), s.y.data(), s.z.data()));
  PARIO(pario_exodus_read_node_ids(ex, s.node0, nn, s.node_ids.data()));
  PARIO(pario_exodus_read_nodal_values(ex, num_steps, 1, s.node0, nn, PARIO_TYPE_DOUBLE, s.temp.data()));
  const int64_t e0 = range_begin(s.num_elem, rank_), ne = range_begin(s.num_elem, rank_ + 1) - e0;
  s.elem_ids.resize(ne);
  s.elem_keys.resize(4 * ne);
  PARIO(pario_exodus_read_block(ex, block_id, e0, ne, s.elem_ids.data(), s.elem_keys.data()));
  for (int64_t &k : s.elem_keys) {
    if (k < 1 || k > s.num_nodes) fail("restart: connectivity names a node position outside the file");
    k -= 1;  // 1-based positions -> keys
  }
  PARIO(pario_exodus_close(&ex));
  PARIO(pario_group_free(&world));
  return s;
}

// METIS on rank 0 over the connectivity alone; each rank gets the parts of its range.
std::vector<int> partition(const Source &s) {
  // METIS's idx_t is 32-bit here, and the gather counts are ints.
  if (s.num_nodes > INT32_MAX || s.num_elem > INT32_MAX / 4)
    fail("partition: more than 2^31 nodes or 2^29 elements: too large for one rank's METIS");
  std::vector<idx_t> keys(s.elem_keys.begin(), s.elem_keys.end());
  std::vector<idx_t> all = gather_to_root(keys, MPI_INT32_T);
  std::vector<idx_t> epart;
  if (rank_ == 0) {
    idx_t ne = (idx_t)s.num_elem, nn = (idx_t)s.num_nodes, ncommon = 3, nparts = size_, objval = 0;
    std::vector<idx_t> eptr(ne + 1), npart(nn);
    for (idx_t e = 0; e <= ne; ++e) eptr[e] = 4 * e;
    epart.assign(ne, 0);
    if (size_ > 1) {
      idx_t options[METIS_NOPTIONS];
      METIS_SetDefaultOptions(options);
      const double t0 = MPI_Wtime();
      const int rc = METIS_PartMeshDual(&ne, &nn, eptr.data(), all.data(), nullptr, nullptr, &ncommon, &nparts,
                                        nullptr, options, &objval, epart.data(), npart.data());
      metis_seconds = MPI_Wtime() - t0;
      if (rc != METIS_OK) fail("METIS_PartMeshDual failed");
    }
  }
  std::vector<int> counts(size_), disp(size_);
  for (int q = 0; q < size_; ++q) {
    disp[q] = (int)range_begin(s.num_elem, q);
    counts[q] = (int)(range_begin(s.num_elem, q + 1) - disp[q]);
  }
  std::vector<idx_t> mine(counts[rank_]);
  MPI_Scatterv(epart.data(), counts.data(), disp.data(), MPI_INT32_T, mine.data(), counts[rank_], MPI_INT32_T, 0,
               MPI_COMM_WORLD);
  return std::vector<int>(mine.begin(), mine.end());
}

// Moves elements to their parts and brings each rank the nodes they use.
Part distribute(const Source &s) {
  const std::vector<int> parts = partition(s);
  std::vector<std::vector<int64_t>> send(size_);
  for (size_t e = 0; e < s.elem_ids.size(); ++e) {
    auto &out = send[parts[e]];
    out.push_back(s.elem_ids[e]);
    out.insert(out.end(), s.elem_keys.begin() + 4 * e, s.elem_keys.begin() + 4 * e + 4);
  }
  const auto got = exchange_lists(send, MPI_INT64_T);
  Part p;
  p.num_nodes = s.num_nodes;
  p.num_elem = s.num_elem;
  std::vector<int64_t> elem_keys;
  for (const auto &from : got)
    for (size_t i = 0; i < from.size(); i += 5) {
      p.elem_ids.push_back(from[i]);
      elem_keys.insert(elem_keys.end(), from.begin() + i + 1, from.begin() + i + 5);
    }
  p.keys = elem_keys;
  std::sort(p.keys.begin(), p.keys.end());
  p.keys.erase(std::unique(p.keys.begin(), p.keys.end()), p.keys.end());
  p.conn.resize(elem_keys.size());
  for (size_t i = 0; i < elem_keys.size(); ++i)
    p.conn[i] = std::lower_bound(p.keys.begin(), p.keys.end(), elem_keys[i]) - p.keys.begin();

  // Ask each node's home (the rank whose range holds it) for its id,
  // coordinates, temperature and holders.
  std::vector<int64_t> node0(size_ + 1);
  for (int q = 0; q <= size_; ++q) node0[q] = range_begin(s.num_nodes, q);
  auto home = [&](int64_t key) { return int(std::upper_bound(node0.begin(), node0.end(), key) - node0.begin()) - 1; };
  std::vector<std::vector<int64_t>> ask(size_);
  for (int64_t k : p.keys) ask[home(k)].push_back(k);
  const auto asked = exchange_lists(ask, MPI_INT64_T);
  std::vector<std::vector<int>> holders(s.node_ids.size());
  for (int q = 0; q < size_; ++q)
    for (int64_t k : asked[q]) holders[k - s.node0].push_back(q);
  std::vector<std::vector<int64_t>> reply_i(size_);
  std::vector<std::vector<double>> reply_d(size_);
  for (int q = 0; q < size_; ++q)
    for (int64_t k : asked[q]) {
      const int64_t v = k - s.node0;
      reply_i[q].push_back(s.node_ids[v]);
      reply_i[q].push_back((int64_t)holders[v].size());
      reply_i[q].insert(reply_i[q].end(), holders[v].begin(), holders[v].end());
      reply_d[q].insert(reply_d[q].end(), {s.x[v], s.y[v], s.z[v], s.temp[v]});
    }
  const auto ri = exchange_lists(reply_i, MPI_INT64_T);
  const auto rd = exchange_lists(reply_d, MPI_DOUBLE);
  // Replies come back per home rank in the order asked, i.e. in key order.
  for (int q = 0; q < size_; ++q) {
    size_t i = 0;
    for (size_t a = 0; a < ask[q].size(); ++a) {
      p.node_ids.push_back(ri[q][i]);
      const int64_t c = ri[q][i + 1];
      p.holders.emplace_back(ri[q].begin() + i + 2, ri[q].begin() + i + 2 + c);
      i += 2 + c;
      p.x.push_back(rd[q][4 * a]);
      p.y.push_back(rd[q][4 * a + 1]);
      p.z.push_back(rd[q][4 * a + 2]);
      p.temp.push_back(rd[q][4 * a + 3]);
    }
  }

  // Neighbors and the plan of the shared-node sums.
  const size_t nn = p.keys.size();
  p.owned.resize(nn);
  std::vector<int> slot(size_, -1);
  for (size_t v = 0; v < nn; ++v) {
    p.owned[v] = p.holders[v][0] == rank_;
    for (int q : p.holders[v]) {
      if (q == rank_) continue;
      if (slot[q] < 0) {
        slot[q] = (int)p.neighbors.size();
        p.neighbors.push_back(q);
        p.shared.emplace_back();
      }
      p.shared[slot[q]].push_back((int64_t)v);
    }
  }
  std::vector<int64_t> offset(p.neighbors.size());
  for (size_t b = 0, o = 0; b < p.neighbors.size(); o += p.shared[b].size(), ++b) offset[b] = (int64_t)o;
  std::vector<size_t> cursor(p.neighbors.size(), 0);
  for (size_t v = 0; v < nn; ++v) {
    if (p.holders[v].size() < 2) continue;
    p.sum_nodes.push_back((int64_t)v);
    p.sum_begin.push_back((int64_t)p.sum_src.size());
    for (int q : p.holders[v]) {
      if (q == rank_) {
        p.sum_src.push_back(-1);
      } else {
        const int b = slot[q];
        p.sum_src.push_back(offset[b] + (int64_t)cursor[b]++);
      }
    }
  }
  p.sum_begin.push_back((int64_t)p.sum_src.size());
  return p;
}

// Sums every shared node's partial values over its holders, in rank order.
void assemble(const Part &p, std::vector<double> &v) {
  const size_t nb = p.neighbors.size();
  std::vector<std::vector<double>> out(nb);
  size_t total = 0;
  for (size_t b = 0; b < nb; ++b) {
    for (int64_t i : p.shared[b]) out[b].push_back(v[i]);
    total += p.shared[b].size();
  }
  std::vector<double> in(total);
  std::vector<MPI_Request> req(2 * nb);
  for (size_t b = 0, o = 0; b < nb; o += p.shared[b].size(), ++b) {
    MPI_Irecv(in.data() + o, (int)p.shared[b].size(), MPI_DOUBLE, p.neighbors[b], 1, MPI_COMM_WORLD, &req[b]);
    MPI_Isend(out[b].data(), (int)out[b].size(), MPI_DOUBLE, p.neighbors[b], 1, MPI_COMM_WORLD, &req[nb + b]);
  }
  MPI_Waitall((int)req.size(), req.data(), MPI_STATUSES_IGNORE);
  for (size_t s = 0; s < p.sum_nodes.size(); ++s) {
    const int64_t v_index = p.sum_nodes[s];
    double sum = 0;
    for (int64_t k = p.sum_begin[s]; k < p.sum_begin[s + 1]; ++k)
      sum += p.sum_src[k] < 0 ? v[v_index] : in[p.sum_src[k]];
    v[v_index] = sum;
  }
}

// Element matrices, the lumped mass, the boundary nodes and dt.
void setup(Part &p) {
  const size_t ne = p.elem_ids.size(), nn = p.keys.size();
  p.ke.resize(16 * ne);
  p.grad.resize(12 * ne);
  p.mass.assign(nn, 0);
  double rate = 0;  // the largest element bound of the spectral radius of M^-1 K
  for (size_t e = 0; e < ne; ++e) {
    const int64_t *c = &p.conn[4 * e];
    double j[3][3];
    for (int a = 0; a < 3; ++a) {
      j[0][a] = p.x[c[a + 1]] - p.x[c[0]];
      j[1][a] = p.y[c[a + 1]] - p.y[c[0]];
      j[2][a] = p.z[c[a + 1]] - p.z[c[0]];
    }
    const double det = j[0][0] * (j[1][1] * j[2][2] - j[1][2] * j[2][1]) -
                       j[0][1] * (j[1][0] * j[2][2] - j[1][2] * j[2][0]) +
                       j[0][2] * (j[1][0] * j[2][1] - j[1][1] * j[2][0]);
    if (!(std::fabs(det) > 0)) fail("a degenerate tetrahedron");
    const double vol = std::fabs(det) / 6;
    // Rows of J^-1 are the gradients of the barycentric coordinates 1..3.
    double g[4][3];
    for (int a = 0; a < 3; ++a) {
      const int a1 = (a + 1) % 3, a2 = (a + 2) % 3;
      g[a + 1][0] = (j[1][a1] * j[2][a2] - j[1][a2] * j[2][a1]) / det;
      g[a + 1][1] = (j[0][a2] * j[2][a1] - j[0][a1] * j[2][a2]) / det;
      g[a + 1][2] = (j[0][a1] * j[1][a2] - j[0][a2] * j[1][a1]) / det;
    }
    for (int d = 0; d < 3; ++d) g[0][d] = -(g[1][d] + g[2][d] + g[3][d]);
    for (int a = 0; a < 4; ++a) {
      double row = 0;
      for (int b = 0; b < 4; ++b) {
        const double k = kKappa * vol * (g[a][0] * g[b][0] + g[a][1] * g[b][1] + g[a][2] * g[b][2]);
        p.ke[16 * e + 4 * a + b] = k;
        row += std::fabs(k);
      }
      rate = std::max(rate, row / (vol / 4));
      for (int d = 0; d < 3; ++d) p.grad[12 * e + 3 * a + d] = g[a][d];
      p.mass[c[a]] += vol / 4;
    }
  }
  assemble(p, p.mass);
  MPI_Allreduce(MPI_IN_PLACE, &rate, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  p.dt = 0.9 * 2 / rate;
  p.dirichlet.resize(nn);
  for (size_t v = 0; v < nn; ++v) p.dirichlet[v] = p.x[v] <= 1e-12 * kLx || p.x[v] >= kLx * (1 - 1e-12);
}

// One explicit Euler step.
void step(Part &p, std::vector<double> &r) {
  r.assign(p.keys.size(), 0);
  for (size_t e = 0; e < p.elem_ids.size(); ++e) {
    const int64_t *c = &p.conn[4 * e];
    const double *k = &p.ke[16 * e];
    for (int a = 0; a < 4; ++a)
      r[c[a]] -= k[4 * a] * p.temp[c[0]] + k[4 * a + 1] * p.temp[c[1]] + k[4 * a + 2] * p.temp[c[2]] +
                 k[4 * a + 3] * p.temp[c[3]];
  }
  assemble(p, r);
  for (size_t v = 0; v < p.keys.size(); ++v)
    if (!p.dirichlet[v]) p.temp[v] += p.dt * r[v] / p.mass[v];
}

// Heat flux -kappa grad T per element, as three arrays.
void flux(const Part &p, std::vector<double> q[3]) {
  const size_t ne = p.elem_ids.size();
  for (int d = 0; d < 3; ++d) q[d].assign(ne, 0);
  for (size_t e = 0; e < ne; ++e)
    for (int a = 0; a < 4; ++a)
      for (int d = 0; d < 3; ++d) q[d][e] -= kKappa * p.temp[p.conn[4 * e + a]] * p.grad[12 * e + 3 * a + d];
}

const char *const kNodalNames[] = {"temperature"};
const char *const kElemNames[] = {"flux_x", "flux_y", "flux_z"};
const char *const kCoordNames[] = {"x", "y", "z"};

// The values of the nodes this rank owns (the lowest rank holding a node owns it).
template <class T>
std::vector<T> owned_only(const Part &p, const std::vector<T> &v) {
  std::vector<T> out;
  for (size_t i = 0; i < v.size(); ++i)
    if (p.owned[i]) out.push_back(v[i]);
  return out;
}
std::vector<double> owned_values(const Part &p, const std::vector<double> &v) { return owned_only(p, v); }
std::vector<int64_t> owned_ids(const Part &p) { return owned_only(p, p.node_ids); }

// The results through pario: each rank passes what it owns, with global
// ids: its elements and its nodes (a node on several ranks by the lowest).
struct ParioOut {
  pario_exodus_t ex = PARIO_EXODUS_NULL;
  pario_group_t world = nullptr;
  int steps = 0, written = 0;
  int steps_per_file = 0;  // > 0: a series, a new file every that many steps
  pario_exodus_options options() const {
    pario_exodus_options o;
    pario_exodus_options_init(&o);
    o.steps_per_file = steps_per_file;
    return o;
  }
  void open(const char *path, const Part &p) {
    PARIO(pario_group_world(&world));
    const pario_exodus_options o = options();
    PARIO(pario_exodus_create(world, path, &o, &ex));
    PARIO(pario_exodus_init(ex, "heat: tetrahedral box, pario", 3, p.num_nodes, p.num_elem, 1, 0, 0));
    PARIO(pario_exodus_put_coord_names(ex, kCoordNames));
    PARIO(pario_exodus_define_block(ex, kBlockId, "box", "TETRA4", p.num_elem, 4, 0));
    PARIO(pario_exodus_define_variables(ex, PARIO_EXODUS_NODAL, 1, kNodalNames));
    PARIO(pario_exodus_define_variables(ex, PARIO_EXODUS_ELEMENT, 3, kElemNames));
    PARIO(pario_exodus_end_define(ex));
    const auto ids = owned_ids(p);
    const auto x = owned_values(p, p.x), y = owned_values(p, p.y), z = owned_values(p, p.z);
    PARIO(pario_exodus_put_nodes(ex, (int64_t)ids.size(), ids.data(), PARIO_TYPE_DOUBLE, x.data(), y.data(), z.data()));
    std::vector<int64_t> conn(p.conn.size());
    for (size_t i = 0; i < conn.size(); ++i) conn[i] = p.node_ids[p.conn[i]];
    PARIO(pario_exodus_put_block(ex, kBlockId, (int64_t)p.elem_ids.size(), p.elem_ids.data(), conn.data()));
  }
  // A restart: the run's file (or series) opened to append, this rank
  // naming what it now owns by global id; the steps go on after its last.
  void append(const char *path, const Part &p) {
    PARIO(pario_group_world(&world));
    const pario_exodus_options o = options();
    PARIO(pario_exodus_open_append(world, path, &o, &ex));
    PARIO(pario_exodus_get_series(ex, nullptr, nullptr, &steps));
    const auto ids = owned_ids(p);
    PARIO(pario_exodus_attach_nodes(ex, (int64_t)ids.size(), ids.data()));
    PARIO(pario_exodus_attach_block(ex, kBlockId, (int64_t)p.elem_ids.size(), p.elem_ids.data()));
  }
  void write(const Part &p, double t, const std::vector<double> q[3]) {
    ++steps;
    ++written;
    PARIO(pario_exodus_put_time(ex, steps, t));
    const auto temp = owned_values(p, p.temp);
    PARIO(pario_exodus_put_nodal_values(ex, steps, 1, PARIO_TYPE_DOUBLE, temp.data()));
    for (int d = 0; d < 3; ++d)
      PARIO(pario_exodus_put_element_values(ex, steps, d + 1, kBlockId, PARIO_TYPE_DOUBLE, q[d].data()));
    PARIO(pario_exodus_flush(ex));
  }
  void close() {
    PARIO(pario_exodus_close(&ex));
    PARIO(pario_group_free(&world));
  }
};

// Positions of ids in increasing-id order (rank 0's side of the gather).
std::vector<int64_t> positions_by_id(const std::vector<int64_t> &ids) {
  std::vector<int64_t> order(ids.size()), pos(ids.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return ids[a] < ids[b]; });
  for (size_t i = 0; i < order.size(); ++i) pos[order[i]] = (int64_t)i;
  return pos;
}

// The gather-to-rank-0 way: every rank sends its part (owned nodes, all its
// elements) to rank 0, which writes the same file with serial libexodusii.
struct RootOut {
  int exoid = -1, steps = 0;
  std::string path;
  std::vector<int64_t> node_pos, elem_pos;  // rank 0: file position of each gathered entry
  std::vector<double> node_buf, elem_buf;

  void open(const char *file, const Part &p) {
    path = file;
    std::vector<int64_t> conn;
    for (int64_t c : p.conn) conn.push_back(p.node_ids[c]);
    const auto all_ids = gather_to_root(owned_ids(p), MPI_INT64_T);
    const auto x = gather_to_root(owned_values(p, p.x), MPI_DOUBLE);
    const auto y = gather_to_root(owned_values(p, p.y), MPI_DOUBLE);
    const auto z = gather_to_root(owned_values(p, p.z), MPI_DOUBLE);
    const auto all_elem = gather_to_root(p.elem_ids, MPI_INT64_T);
    const auto all_conn = gather_to_root(conn, MPI_INT64_T);
    if (rank_ != 0) return;
    const size_t nn = all_ids.size(), ne = all_elem.size();
    if ((int64_t)nn != p.num_nodes || (int64_t)ne != p.num_elem) fail("gather: counts do not add up");
    node_pos = positions_by_id(all_ids);
    elem_pos = positions_by_id(all_elem);
    std::vector<int> map(nn), emap(ne), econn(4 * ne);
    std::vector<double> fx(nn), fy(nn), fz(nn);
    for (size_t i = 0; i < nn; ++i) {
      map[node_pos[i]] = (int)all_ids[i];
      fx[node_pos[i]] = x[i];
      fy[node_pos[i]] = y[i];
      fz[node_pos[i]] = z[i];
    }
    std::vector<int64_t> sorted_ids(all_ids);
    std::sort(sorted_ids.begin(), sorted_ids.end());
    for (size_t e = 0; e < ne; ++e) {
      emap[elem_pos[e]] = (int)all_elem[e];
      for (int a = 0; a < 4; ++a)
        econn[4 * elem_pos[e] + a] =
            1 + (int)(std::lower_bound(sorted_ids.begin(), sorted_ids.end(), all_conn[4 * e + a]) - sorted_ids.begin());
    }
    int cpu = 8, io = 8;
    exoid = ex_create(file, EX_CLOBBER | EX_LARGE_MODEL, &cpu, &io);
    if (exoid < 0) fail("ex_create of the gather-to-root file failed");
    EXII(ex_put_init(exoid, "heat: tetrahedral box, gathered to rank 0", 3, (int64_t)nn, (int64_t)ne, 1, 0, 0));
    EXII(ex_put_coord_names(exoid, const_cast<char **>(kCoordNames)));
    EXII(ex_put_coord(exoid, fx.data(), fy.data(), fz.data()));
    EXII(ex_put_node_num_map(exoid, map.data()));
    EXII(ex_put_elem_num_map(exoid, emap.data()));
    EXII(ex_put_elem_block(exoid, kBlockId, "TETRA4", (int64_t)ne, 4, 0));
    EXII(ex_put_elem_conn(exoid, kBlockId, econn.data()));
    EXII(ex_put_variable_param(exoid, EX_NODAL, 1));
    EXII(ex_put_variable_names(exoid, EX_NODAL, 1, const_cast<char **>(kNodalNames)));
    EXII(ex_put_variable_param(exoid, EX_ELEM_BLOCK, 3));
    EXII(ex_put_variable_names(exoid, EX_ELEM_BLOCK, 3, const_cast<char **>(kElemNames)));
    node_buf.resize(nn);
    elem_buf.resize(ne);
    sync();
  }
  // Makes the step durable, as pario does before raising the step count.
  void sync() {
    EXII(ex_update(exoid));
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0 || fdatasync(fd) != 0) fail("fdatasync of the gather-to-root file failed");
    ::close(fd);
  }
  void write(const Part &p, double t, const std::vector<double> q[3]) {
    ++steps;
    const auto temp = gather_to_root(owned_values(p, p.temp), MPI_DOUBLE);
    std::vector<double> flux[3];
    for (int d = 0; d < 3; ++d) flux[d] = gather_to_root(q[d], MPI_DOUBLE);
    if (rank_ != 0) return;
    EXII(ex_put_time(exoid, steps, &t));
    for (size_t i = 0; i < temp.size(); ++i) node_buf[node_pos[i]] = temp[i];
    EXII(ex_put_nodal_var(exoid, steps, 1, (int64_t)node_buf.size(), node_buf.data()));
    for (int d = 0; d < 3; ++d) {
      for (size_t e = 0; e < flux[d].size(); ++e) elem_buf[elem_pos[e]] = flux[d][e];
      EXII(ex_put_elem_var(exoid, steps, d + 1, kBlockId, (int64_t)elem_buf.size(), elem_buf.data()));
    }
    sync();
  }
  void close() {
    if (rank_ == 0) EXII(ex_close(exoid));
  }
};

// Wall time of a collective region, all ranks included.
struct Clock {
  double total = 0, t0 = 0;
  void start() {
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
  }
  void stop() {
    MPI_Barrier(MPI_COMM_WORLD);
    total += MPI_Wtime() - t0;
  }
};

// A whole decimal int, or a message naming the option.
int parse_int(const std::string &option, const char *text) {
  char *end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < INT32_MIN || v > INT32_MAX)
    fail(("run: " + option + " '" + text + "' is not an integer").c_str());
  return (int)v;
}

int run(int argc, char **argv) {
  int n = 4, steps = 20, every = 10, steps_per_file = 0;
  const char *out = nullptr, *baseline = nullptr, *restart = nullptr;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) fail(("run: option " + a + " needs a value").c_str());
    const char *v = argv[++i];
    if (a == "--n") n = parse_int(a, v);
    else if (a == "--steps") steps = parse_int(a, v);
    else if (a == "--every") every = parse_int(a, v);
    else if (a == "--out") out = v;
    else if (a == "--baseline") baseline = v;
    else if (a == "--restart") restart = v;
    else if (a == "--steps-per-file") steps_per_file = parse_int(a, v);
    else fail(("run: unknown option " + a).c_str());
  }
  if (restart && out) fail("run: --restart appends to its file; --out names a new run's file");
  if (steps_per_file < 0) fail("run: --steps-per-file must be >= 0");
  if (!out) out = restart ? restart : "heat.e";
  if (n < 1 || n > 300 || steps < 0 || every < 1) fail("run: --n must be 1..300, --steps >= 0, --every >= 1");

  Clock total, setup_clock, mesh_pario, io_pario, mesh_root, io_root;  // I/O: the mesh, then the steps and close
  double compute_time = 0;  // this rank's, without barriers: the slowest rank's is printed
  total.start();
  setup_clock.start();
  double restart_time = 0;
  Clock read_clock, partition_clock;
  read_clock.start();
  Source src = restart ? read_restart(restart, steps_per_file, &restart_time) : generate(n);
  read_clock.stop();
  partition_clock.start();
  Part p = distribute(src);
  partition_clock.stop();
  src = Source();
  setup(p);
  int64_t first = 0;
  if (restart) {
    first = std::llround(restart_time / p.dt);
    if (std::fabs((double)first * p.dt - restart_time) > 1e-9 * std::max(1.0, restart_time))
      fail("restart: the file's last time is not a whole number of steps of this mesh's dt");
  }
  setup_clock.stop();

  ParioOut po;
  RootOut ro;
  std::vector<double> q[3], r;
  // One step's output by one way (the file and its mesh first), timed.
  auto output_to = [&](auto &writer, const char *path, Clock &mesh, Clock &io, int64_t k, double t) {
    if (k == first) {
      mesh.start();
      writer.open(path, p);
      mesh.stop();
    }
    io.start();
    writer.write(p, t, q);
    io.stop();
  };
  auto output = [&](int64_t k) {
    flux(p, q);
    const double t = (double)k * p.dt;
    // A restart's first state is the file's last step: pario appends after it.
    if (!(restart && k == first)) output_to(po, out, mesh_pario, io_pario, k, t);
    if (baseline) output_to(ro, baseline, mesh_root, io_root, k, t);
  };
  po.steps_per_file = steps_per_file;
  if (restart) {
    mesh_pario.start();
    po.append(restart, p);
    mesh_pario.stop();
  }
  output(first);
  for (int64_t k = first + 1; k <= first + steps; ++k) {
    const double t0 = MPI_Wtime();
    step(p, r);
    compute_time += MPI_Wtime() - t0;
    if ((k - first) % every == 0) output(k);
  }
  io_pario.start();
  po.close();
  io_pario.stop();
  if (baseline) {
    io_root.start();
    ro.close();
    io_root.stop();
  }
  total.stop();

  // The error against the exact solution, over the owned nodes.
  const double t = (double)(first + steps) * p.dt;
  double err = 0;
  for (size_t v = 0; v < p.keys.size(); ++v)
    if (p.owned[v]) err = std::max(err, std::fabs(p.temp[v] - exact_temperature(p.x[v], p.y[v], p.z[v], t)));
  int64_t counts[3] = {(int64_t)p.elem_ids.size(), (int64_t)p.elem_ids.size(), (int64_t)p.keys.size()};
  MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &compute_time, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &counts[0], 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &counts[1], 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &counts[2], 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (rank_ == 0) {
    std::printf("heat: %d ranks, %" PRId64 " nodes, %" PRId64 " tetrahedra (%" PRId64 "..%" PRId64
                " per rank, %" PRId64 " node copies)%s\n",
                size_, p.num_nodes, p.num_elem, counts[0], counts[1], counts[2],
                restart ? ", restarted" : "");
    std::printf("heat: steps %" PRId64 "..%" PRId64 ", dt %.6e, t %.6e, output every %d steps (%d written)\n", first,
                first + steps, p.dt, t, every, po.written);
    std::printf("heat: max |T - exact| = %.3e (mode amplitude now %.3e)\n", err,
                kAmplitude * std::exp(-kLambda * t));
    std::printf("heat: time setup %.3f s (%s %.3f s, partition %.3f s of which METIS %.3f s, distribution), compute %.3f s, "
                "total %.3f s\n",
                setup_clock.total, restart ? "read back by pario" : "mesh generated", read_clock.total,
                partition_clock.total, metis_seconds, compute_time, total.total);
    const double pario_s = mesh_pario.total + io_pario.total, root_s = mesh_root.total + io_root.total;
    std::printf("heat: I/O pario %.3f s (%s %.3f s, steps %.3f s) -> %s%s\n", pario_s,
                restart ? "opened to append" : "mesh", mesh_pario.total, io_pario.total, out,
                restart ? (steps_per_file ? " (series, appended)" : " (appended)") : "");
    if (baseline)
      std::printf("heat: I/O gather to rank 0 + libexodusii %.3f s (mesh %.3f s, steps %.3f s) -> %s\n"
                  "heat: gather-to-root time / pario time = %.2f\n",
                  root_s, mesh_root.total, io_root.total, baseline, root_s / pario_s);
  }
  return 0;
}

// ---- the independent checks: serial libexodusii, no pario ----

struct ExFile {
  int id = -1, num_dim = 0, blocks = 0, steps = 0;
  int64_t nn = 0, ne = 0;
  std::vector<double> x, y, z;
  std::vector<int> node_map, elem_map, conn;
  explicit ExFile(const char *path) {
    int cpu = 8, io = 0;
    float vers = 0;
    id = ex_open(path, EX_READ, &cpu, &io, &vers);
    if (id < 0) fail((std::string("ex_open ") + path + " failed").c_str());
    char title[MAX_LINE_LENGTH + 1];
    int nns = 0, nss = 0;
    int nn_i = 0, ne_i = 0;
    EXII(ex_get_init(id, title, &num_dim, &nn_i, &ne_i, &blocks, &nns, &nss));
    nn = nn_i;
    ne = ne_i;
    if (num_dim != 3 || blocks != 1) fail("check: not a heat result");
    steps = (int)ex_inquire_int(id, EX_INQ_TIME);
    x.resize(nn);
    y.resize(nn);
    z.resize(nn);
    node_map.resize(nn);
    elem_map.resize(ne);
    conn.resize(4 * ne);
    EXII(ex_get_coord(id, x.data(), y.data(), z.data()));
    EXII(ex_get_node_num_map(id, node_map.data()));
    EXII(ex_get_elem_num_map(id, elem_map.data()));
    EXII(ex_get_elem_conn(id, kBlockId, conn.data()));
  }
  ~ExFile() {
    if (id >= 0) ex_close(id);
  }
  double time(int step) const {
    double t = 0;
    EXII(ex_get_time(id, step, &t));
    return t;
  }
  std::vector<double> temperature(int step) const {
    std::vector<double> v(nn);
    EXII(ex_get_nodal_var(id, step, 1, nn, v.data()));
    return v;
  }
  std::vector<double> flux(int step, int d) const {
    std::vector<double> v(ne);
    EXII(ex_get_elem_var(id, step, d + 1, kBlockId, ne, v.data()));
    return v;
  }
};

int check(int argc, char **argv) {
  if (argc != 5) fail("usage: heat check FILE TOL_T TOL_Q");
  const ExFile f(argv[2]);
  const double tol_t = std::atof(argv[3]), tol_q = std::atof(argv[4]);
  if (f.steps < 1) fail("check: no steps");
  const double t = f.time(f.steps);
  const auto temp = f.temperature(f.steps);
  double et = 0, eq = 0, qscale = 0;
  for (int64_t v = 0; v < f.nn; ++v)
    et = std::max(et, std::fabs(temp[v] - exact_temperature(f.x[v], f.y[v], f.z[v], t)));
  std::vector<double> q[3];
  for (int d = 0; d < 3; ++d) q[d] = f.flux(f.steps, d);
  for (int64_t e = 0; e < f.ne; ++e) {
    double c[3] = {0, 0, 0}, qe[3];
    for (int a = 0; a < 4; ++a) {
      const int v = f.conn[4 * e + a] - 1;
      if (v < 0 || v >= f.nn) fail("check: connectivity out of range");
      c[0] += f.x[v] / 4;
      c[1] += f.y[v] / 4;
      c[2] += f.z[v] / 4;
    }
    exact_flux(c[0], c[1], c[2], t, qe);
    for (int d = 0; d < 3; ++d) {
      eq = std::max(eq, std::fabs(q[d][e] - qe[d]));
      qscale = std::max(qscale, std::fabs(qe[d]));
    }
  }
  const bool ok = et <= tol_t && eq <= tol_q * qscale;
  std::printf("heat check: %s (libexodusii): %d steps, t %.6e, max |T - exact| %.3e (tolerance %.3e), "
              "max |q - exact(centroid)| %.3e = %.3f of max |q| (tolerance %.3f): %s\n",
              argv[2], f.steps, t, et, tol_t, eq, eq / qscale, tol_q, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}

// The largest difference between two arrays relative to the larger magnitude.
double rel_diff(const std::vector<double> &a, const std::vector<double> &b) {
  double d = 0, m = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::fabs(a[i] - b[i]));
    m = std::max({m, std::fabs(a[i]), std::fabs(b[i])});
  }
  return m > 0 ? d / m : d;
}

int compare(int argc, char **argv) {
  if (argc != 5 && !(argc == 6 && std::strcmp(argv[5], "--all") == 0))
    fail("usage: heat compare A B RTOL [--all]");
  const ExFile a(argv[2]), b(argv[3]);
  const double rtol = std::atof(argv[4]);
  const bool all = argc == 6;
  int bad = 0;
  if (a.nn != b.nn || a.ne != b.ne || a.x != b.x || a.y != b.y || a.z != b.z || a.node_map != b.node_map ||
      a.elem_map != b.elem_map || a.conn != b.conn) {
    std::printf("heat compare: the meshes differ\n");
    return 1;
  }
  if (all && a.steps != b.steps) {
    std::printf("heat compare: %d steps against %d\n", a.steps, b.steps);
    return 1;
  }
  const int first = all ? 1 : a.steps;
  double worst = 0;
  for (int s = first; s <= a.steps; ++s) {
    const int sb = all ? s : b.steps;
    if (a.time(s) != b.time(sb)) {
      std::printf("heat compare: step %d: time %.17g against %.17g\n", s, a.time(s), b.time(sb));
      ++bad;
    }
    worst = std::max(worst, rel_diff(a.temperature(s), b.temperature(sb)));
    for (int d = 0; d < 3; ++d) worst = std::max(worst, rel_diff(a.flux(s, d), b.flux(sb, d)));
  }
  const bool ok = bad == 0 && worst <= rtol;
  std::printf("heat compare: %s vs %s (libexodusii): same mesh, %s, max relative difference %.3e "
              "(tolerance %.1e): %s\n",
              argv[2], argv[3], all ? "every step" : "last steps", worst, rtol, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: heat run|check|compare ... (see the top of heat.cpp)\n");
    return 2;
  }
  const std::string mode = argv[1];
  if (mode == "check") return check(argc, argv);
  if (mode == "compare") return compare(argc, argv);
  if (mode != "run") {
    std::fprintf(stderr, "heat: unknown mode '%s' (run, check, compare)\n", argv[1]);
    return 2;
  }
  PARIO(pario_init());
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  const int rc = run(argc, argv);
  PARIO(pario_finalize());
  return rc;
}
