// hf_kernel: the compiled part of the Hartree-Fock example (examples/hf).
//
// NumPy is too slow for the two jobs that scale with the number of
// integrals, so they live here:
//   - computing the unique shell quartets (ij|kl) of one bra shell pair,
//     i >= j, k >= l, (k,l) <= (i,j), that pass Schwarz's bound, with
//     PySCF's libcint (the function and optimizer PySCF hands out, so the
//     integrals are exactly PySCF's), packed one after another into a block;
//   - contracting such a block with a density into J and K, each quartet
//     standing for its up to 8 permutations.
// The contraction writes only "half" matrices Jh and Kh: the caller forms
// J = Jh + Jh^T and K = Kh + Kh^T. That lets every update run along a
// contiguous row (the density is symmetric, and so is the result).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;

namespace {

// libcint's 2-electron integral entry point (e.g. int2e_sph): out is
// column-major (the first index fastest); returns 0 when all are zero; with
// out == nullptr it returns the cache size in doubles.
using Int2e = int (*)(double* out, int* dims, int* shls, int* atm, int natm, int* bas, int nbas,
                      double* env, void* opt, double* cache);

using IntArray = nb::ndarray<const int32_t, nb::c_contig, nb::device::cpu>;
using Vector = nb::ndarray<double, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Matrix = nb::ndarray<double, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using ConstMatrix = nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu>;

constexpr int kPrimitivesOf = 2;  // libcint's bas slots
constexpr int kAngularOf = 1;

class Eri {
 public:
  Eri(IntArray atm, IntArray bas, nb::ndarray<const double, nb::c_contig, nb::device::cpu> env,
      IntArray ao_loc, std::uintptr_t int2e, std::uintptr_t optimizer, double schwarz_threshold)
      : atm_(atm.data(), atm.data() + atm.size()),
        bas_(bas.data(), bas.data() + bas.size()),
        env_(env.data(), env.data() + env.size()),
        ao_loc_(ao_loc.data(), ao_loc.data() + ao_loc.size()),
        int2e_(reinterpret_cast<Int2e>(int2e)),
        optimizer_(reinterpret_cast<void*>(optimizer)),
        threshold_(schwarz_threshold) {
    if (atm.ndim() != 2 || atm.shape(1) != 6 || bas.ndim() != 2 || bas.shape(1) != 8)
      throw std::invalid_argument("Eri: atm must be (natm, 6) and bas (nbas, 8), as in PySCF's mol._atm/_bas");
    if (int2e == 0) throw std::invalid_argument("Eri: no integral function");
    natm_ = static_cast<int>(atm.shape(0));
    nsh_ = static_cast<int>(bas.shape(0));
    if (ao_loc_.size() != static_cast<size_t>(nsh_) + 1)
      throw std::invalid_argument("Eri: ao_loc must have nbas + 1 entries");
    nao_ = ao_loc_.back();
    // PySCF sizes libcint's cache as the largest over the diagonal quartets.
    size_t cache = 0;
    for (int s = 0; s < nsh_; ++s) {
      int shls[4] = {s, s, s, s};
      cache = std::max(cache, static_cast<size_t>(call(nullptr, shls, nullptr)));
    }
    cache_.resize(cache + 1);
    size_t biggest = 0;
    for (int s = 0; s < nsh_; ++s) biggest = std::max(biggest, static_cast<size_t>(width(s)));
    quartet_.resize(biggest * biggest * biggest * biggest);
    compute_schwarz();
    sizes_.assign(size_t(nsh_) * (nsh_ + 1) / 2, -1);
  }

  int shells() const { return nsh_; }
  int nao() const { return nao_; }

  // Q[i,j] = sqrt(max |(ij|ij)|), the Schwarz bound of shell pair ij.
  nb::ndarray<nb::numpy, double, nb::ndim<2>> schwarz() const {
    auto* copy = new std::vector<double>(q_);
    nb::capsule owner(copy, [](void* p) noexcept { delete static_cast<std::vector<double>*>(p); });
    return {copy->data(), {static_cast<size_t>(nsh_), static_cast<size_t>(nsh_)}, owner};
  }

  // Doubles in bra pair ij's packed block, and an estimate of the work to
  // compute it: primitive quartets weighted by the total angular momentum
  // (more Rys roots and components per primitive).
  std::pair<int64_t, double> block_info(int i, int j) const {
    check_pair(i, j);
    return {block_size(i, j), block_cost(i, j)};
  }

  // Fills `out` with bra pair ij's packed block.
  void compute(int i, int j, Vector out) {
    check_pair(i, j);
    if (static_cast<int64_t>(out.shape(0)) != block_size(i, j))
      throw std::invalid_argument("Eri.compute: out has " + std::to_string(out.shape(0)) +
                                  " doubles, the block " + std::to_string(block_size(i, j)));
    nb::gil_scoped_release unlocked;
    double* p = out.data();
    for_each_ket(i, j, [&](int k, int l) {
      int shls[4] = {i, j, k, l};
      size_t n = size_t(width(i)) * width(j) * width(k) * width(l);
      if (!call(p, shls, cache_.data())) std::fill(p, p + n, 0.0);
      p += n;
    });
  }

  // Jh, Kh += the contributions of bra pair ij's packed block with density dm.
  void contract(int i, int j, nb::ndarray<const double, nb::ndim<1>, nb::c_contig, nb::device::cpu> block,
                ConstMatrix dm, Matrix jh, Matrix kh) {
    check_pair(i, j);
    check_matrices(dm, jh, kh);
    if (static_cast<int64_t>(block.shape(0)) != block_size(i, j))
      throw std::invalid_argument("Eri.contract: the block has the wrong size for this shell pair");
    nb::gil_scoped_release unlocked;
    const double* p = block.data();
    for_each_ket(i, j, [&](int k, int l) {
      add_quartet(p, i, j, k, l, dm.data(), jh.data(), kh.data());
      p += size_t(width(i)) * width(j) * width(k) * width(l);
    });
  }

  // Direct SCF: computes and contracts bra pair ij's quartets, skipping
  // those whose Schwarz bound times the largest density element they meet
  // (dmax: per shell pair, from shell_max) is below density_threshold.
  // Returns the quartets computed.
  int64_t direct(int i, int j, ConstMatrix dm, ConstMatrix dmax, double density_threshold, Matrix jh,
                 Matrix kh) {
    check_pair(i, j);
    check_matrices(dm, jh, kh);
    if (dmax.shape(0) != size_t(nsh_) || dmax.shape(1) != size_t(nsh_))
      throw std::invalid_argument("Eri.direct: dmax must be (nbas, nbas)");
    nb::gil_scoped_release unlocked;
    const double* dm_s = dmax.data();
    auto d = [&](int a, int b) { return dm_s[size_t(a) * nsh_ + b]; };
    int64_t computed = 0;
    for_each_ket(i, j, [&](int k, int l) {
      double dens = std::max({d(i, j), d(k, l), d(i, k), d(i, l), d(j, k), d(j, l)});
      if (q(i, j) * q(k, l) * dens < density_threshold) return;
      int shls[4] = {i, j, k, l};
      if (!call(quartet_.data(), shls, cache_.data())) return;
      add_quartet(quartet_.data(), i, j, k, l, dm.data(), jh.data(), kh.data());
      ++computed;
    });
    return computed;
  }

  // max |dm| over each shell pair's block: the density screening's input.
  nb::ndarray<nb::numpy, double, nb::ndim<2>> shell_max(ConstMatrix dm) const {
    if (dm.shape(0) != size_t(nao_) || dm.shape(1) != size_t(nao_))
      throw std::invalid_argument("Eri.shell_max: dm must be (nao, nao)");
    auto* out = new std::vector<double>(size_t(nsh_) * nsh_, 0.0);
    for (int a = 0; a < nsh_; ++a)
      for (int b = 0; b < nsh_; ++b) {
        double m = 0;
        for (int x = ao_loc_[a]; x < ao_loc_[a + 1]; ++x)
          for (int y = ao_loc_[b]; y < ao_loc_[b + 1]; ++y) m = std::max(m, std::fabs(dm.data()[size_t(x) * nao_ + y]));
        (*out)[size_t(a) * nsh_ + b] = m;
      }
    nb::capsule owner(out, [](void* p) noexcept { delete static_cast<std::vector<double>*>(p); });
    return {out->data(), {static_cast<size_t>(nsh_), static_cast<size_t>(nsh_)}, owner};
  }

 private:
  double block_cost(int i, int j) const {
    double cost = 0;
    for_each_ket(i, j, [&](int k, int l) {
      double prims = double(prim(i)) * prim(j) * prim(k) * prim(l);
      int lsum = ang(i) + ang(j) + ang(k) + ang(l);
      cost += prims * (1 + lsum) * (1 + lsum);
    });
    return cost;
  }

  // Doubles in bra pair ij's block, counted once per pair (contract checks
  // every block against it in every iteration).
  int64_t block_size(int i, int j) const {
    int64_t& n = sizes_[size_t(i) * (i + 1) / 2 + j];
    if (n >= 0) return n;
    n = 0;
    for_each_ket(i, j, [&](int k, int l) { n += int64_t{width(i)} * width(j) * width(k) * width(l); });
    return n;
  }

  int width(int s) const { return ao_loc_[s + 1] - ao_loc_[s]; }
  int prim(int s) const { return bas_[size_t(s) * 8 + kPrimitivesOf]; }
  int ang(int s) const { return bas_[size_t(s) * 8 + kAngularOf]; }
  double q(int a, int b) const { return q_[size_t(a) * nsh_ + b]; }

  int call(double* out, int* shls, double* cache) {
    return int2e_(out, nullptr, shls, atm_.data(), natm_, bas_.data(), nsh_, env_.data(), optimizer_, cache);
  }

  void check_pair(int i, int j) const {
    if (i < 0 || i >= nsh_ || j < 0 || j > i)
      throw std::out_of_range("Eri: shell pair (" + std::to_string(i) + ", " + std::to_string(j) +
                              ") is not 0 <= j <= i < " + std::to_string(nsh_));
  }

  void check_matrices(const ConstMatrix& dm, const Matrix& jh, const Matrix& kh) const {
    for (size_t n : {dm.shape(0), dm.shape(1), jh.shape(0), jh.shape(1), kh.shape(0), kh.shape(1)})
      if (n != size_t(nao_)) throw std::invalid_argument("Eri: dm, jh and kh must be (nao, nao)");
  }

  // The unique kets of bra pair ij: k >= l, (k,l) <= (i,j), and above the
  // Schwarz threshold together with ij. Block layout and contraction both
  // walk this list, in this order.
  template <class F>
  void for_each_ket(int i, int j, F&& f) const {
    double qij = q(i, j);
    for (int k = 0; k <= i; ++k)
      for (int l = 0; l <= (k == i ? j : k); ++l)
        if (qij * q(k, l) >= threshold_) f(k, l);
  }

  void compute_schwarz() {
    q_.assign(size_t(nsh_) * nsh_, 0.0);
    for (int i = 0; i < nsh_; ++i)
      for (int j = 0; j <= i; ++j) {
        int shls[4] = {i, j, i, j};
        size_t n = size_t(width(i)) * width(j) * width(i) * width(j);
        double m = 0;
        if (call(quartet_.data(), shls, cache_.data()))
          for (size_t x = 0; x < n; ++x) m = std::max(m, std::fabs(quartet_[x]));
        q_[size_t(i) * nsh_ + j] = q_[size_t(j) * nsh_ + i] = std::sqrt(m);
      }
  }

  // One quartet V (column-major, a fastest) standing for its permutations.
  // Weight s halves once for each coincidence (i == j, k == l, ij == kl),
  // since the block then holds both orders of the coinciding indices.
  //   Jh[b][a] += 2s V D[c][d]   Jh[d][c] += 2s V D[a][b]
  //   Kh[c][a] += s V D[b][d]    Kh[d][a] += s V D[b][c]
  //   Kh[c][b] += s V D[a][d]    Kh[d][b] += s V D[a][c]
  // which, with J = Jh + Jh^T and K = Kh + Kh^T, adds all eight.
  void add_quartet(const double* v, int i, int j, int k, int l, const double* dm, double* jh,
                   double* kh) const {
    double s = 1.0;
    if (i == j) s *= 0.5;
    if (k == l) s *= 0.5;
    if (i == k && j == l) s *= 0.5;
    const size_t n = nao_;
    const int a0 = ao_loc_[i], na = width(i), b0 = ao_loc_[j], nb_ = width(j);
    const int c0 = ao_loc_[k], nc = width(k), d0 = ao_loc_[l], nd = width(l);
    for (int d = d0; d < d0 + nd; ++d)
      for (int c = c0; c < c0 + nc; ++c) {
        const double dcd = 2 * s * dm[c * n + d];
        const double* drow_c = dm + c * n + a0;
        const double* drow_d = dm + d * n + a0;
        double* krow_c = kh + c * n + a0;
        double* krow_d = kh + d * n + a0;
        double jcd = 0;
        for (int b = b0; b < b0 + nb_; ++b) {
          const double dbd = s * dm[b * n + d], dbc = s * dm[b * n + c];
          const double* drow_b = dm + b * n + a0;
          double* jrow_b = jh + b * n + a0;
          double kcb = 0, kdb = 0;
          for (int a = 0; a < na; ++a) {
            const double x = *v++;
            jcd += x * drow_b[a];
            jrow_b[a] += x * dcd;
            krow_c[a] += x * dbd;
            krow_d[a] += x * dbc;
            kcb += x * drow_d[a];
            kdb += x * drow_c[a];
          }
          kh[c * n + b] += s * kcb;
          kh[d * n + b] += s * kdb;
        }
        jh[d * n + c] += 2 * s * jcd;
      }
  }

  std::vector<int> atm_, bas_;
  std::vector<double> env_;
  std::vector<int> ao_loc_;
  Int2e int2e_;
  void* optimizer_;
  double threshold_;
  int natm_ = 0, nsh_ = 0, nao_ = 0;
  std::vector<double> q_, cache_, quartet_;
  mutable std::vector<int64_t> sizes_;  // per bra pair (i >= j), -1 until counted
};

}  // namespace

NB_MODULE(hf_kernel, m) {
  m.doc() = "Compiled integral packing and J/K contraction of pario's Hartree-Fock example";
  nb::class_<Eri>(m, "Eri")
      .def(nb::init<IntArray, IntArray, nb::ndarray<const double, nb::c_contig, nb::device::cpu>, IntArray,
                    std::uintptr_t, std::uintptr_t, double>(),
           nb::arg("atm"), nb::arg("bas"), nb::arg("env"), nb::arg("ao_loc"), nb::arg("int2e"),
           nb::arg("optimizer"), nb::arg("schwarz_threshold"))
      .def_prop_ro("shells", &Eri::shells)
      .def_prop_ro("nao", &Eri::nao)
      .def("schwarz", &Eri::schwarz)
      .def("block_info", &Eri::block_info, nb::arg("i"), nb::arg("j"))
      .def("compute", &Eri::compute, nb::arg("i"), nb::arg("j"), nb::arg("out"))
      .def("contract", &Eri::contract, nb::arg("i"), nb::arg("j"), nb::arg("block"), nb::arg("dm"),
           nb::arg("jh"), nb::arg("kh"))
      .def("direct", &Eri::direct, nb::arg("i"), nb::arg("j"), nb::arg("dm"), nb::arg("dmax"),
           nb::arg("density_threshold"), nb::arg("jh"), nb::arg("kh"))
      .def("shell_max", &Eri::shell_max, nb::arg("dm"));
}
