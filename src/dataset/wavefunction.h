// MFDn's wave-function file (issue 26; the seed's sections 1.3-4): about
// 15 eigenvectors of a many-body Hamiltonian, each an HDF5 dataset of
// doubles in one group, every rank writing its own contiguous slice (a
// hyperslab), with per-vector observables (energy, J, T) reserved when the
// file is made and written later, and a self-contained description of the
// many-body basis beside them. Read back slice by slice on any number of
// ranks.
//
// On-disk layout (format "pario wavefunction", version 1; what h5py sees):
//
//   /                     attributes pario_format = "pario wavefunction"
//                         (string), pario_format_version = 1 (int64)
//   /basis                group: the many-body basis, self-contained:
//                         dimension (int64, the number of basis states =
//                         every vector's length), protons (Z), neutrons
//                         (N), nmax (N_max truncation), parity (+1/-1),
//                         two_mj (2 M_J) (all int64 scalars), hbar_omega
//                         (float64 scalar, MeV), description (string:
//                         "M-scheme many-body basis: Z protons, N
//                         neutrons, N_max, parity, 2M_J, hbar*omega"
//                         spelled out with the values)
//   /vectors              group; attribute count (int64)
//   /vectors/<KKKKK>      vector k (five digits, zero padded: name order is
//                         vector order): float64 [dimension], contiguous,
//                         allocated when the file is made; attributes
//                         energy, J, T (float64 scalars, NaN until written),
//                         pario_written (int64: 0 until the vector has
//                         been written whole and the file closed; a read
//                         of an unwritten vector is refused, so a writer
//                         killed before close leaves vectors that are
//                         not trusted; a rewrite that fails once data
//                         moved clears it, in the open and at close. A
//                         writer killed during a rewrite of a vector
//                         marked whole by an earlier close leaves it
//                         marked: rewrites are the caller's to redo)
//
// Plan apart from execution: the rules (basis, counts, names, slices, the
// tiling of a vector by the ranks' slices, the transfer choice) are pure
// functions here, unit-tested serially; class Wavefunction executes them
// through dataset/h5.h.
//
// Transfers (WavefunctionTransfer): independent (each rank one H5Dwrite
// of its hyperslab, the default: issue 26 measured independent transfers
// faster than collective ones on this machine class), collective (one
// MPI-IO collective H5Dwrite, every rank in it) or through pario's
// aggregators (collective/transfer.h into a DatasetTarget: each slice is
// sent to the aggregator that owns its file domain, which writes large
// contiguous hyperslabs). The C boundary picks one from the call's hint or
// PARIO_WAVEFUNCTION_TRANSFER.
//
// Collective calls: every non-const call is made by every rank of the
// file's group after the C boundary has checked and agreed on the
// arguments, and returns the same status on every rank (comm::agree).
//
// Thread safety: none (HDF5; one thread per rank drives the collectives).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "collective/decomposition.h"
#include "comm/group.h"
#include "dataset/h5.h"

namespace pario::dataset {

constexpr const char* kWavefunctionFormat = "pario wavefunction";
constexpr int64_t kWavefunctionVersion = 1;
constexpr int kMaxWavefunctionVectors = 99999;  // five-digit names

// The many-body basis the vectors are expanded in (MFDn's M-scheme basis).
struct Basis {
  int64_t dimension = 0;  // basis states (every vector's length), >= 1
  int64_t protons = 0;    // Z >= 0
  int64_t neutrons = 0;   // N >= 0, Z + N >= 1
  int64_t nmax = 0;       // N_max >= 0
  int64_t parity = 1;     // +1 or -1
  int64_t two_mj = 0;     // 2 M_J: odd exactly when Z + N is odd
  double hbar_omega = 0;  // > 0, finite
};

enum class WavefunctionTransfer { kIndependent = 1, kCollective = 2, kAggregators = 3 };
const char* transfer_name(WavefunctionTransfer t);

// Per-vector observables; NaN where not written yet.
struct Observables {
  double energy, j, t;
};

// ---- the rules (pure) ----

// kInvalidArgument naming the field that breaks a rule above.
Status check_basis(const Basis& b);
// 1 .. kMaxWavefunctionVectors, else kInvalidArgument.
Status check_vector_count(int64_t n);
// "/vectors/00003".
std::string vector_path(int k);
// The basis's description attribute.
std::string describe_basis(const Basis& b);
// A slice [start, start + count) inside [0, dimension): kOutOfRange naming
// it otherwise (count 0 is fine anywhere in 0..dimension).
Status check_slice(int64_t start, int64_t count, int64_t dimension);
// Whether the ranks' slices (slices[r] = rank r's start, count) tile
// [0, dimension) exactly: every element written by exactly one rank.
// kInvalidArgument naming the first rank whose slice overlaps another,
// leaves a gap before it, or the total that falls short.
Status check_tiling(const std::vector<std::pair<int64_t, int64_t>>& slices, int64_t dimension);

// ---- execution ----

struct WavefunctionOptions {
  WavefunctionTransfer transfer = WavefunctionTransfer::kIndependent;
  collective::CollectiveOptions collective;  // the aggregators' transfer
};

class Wavefunction {
 public:
  ~Wavefunction();

  // Collective over group: makes the file (replace: over an existing
  // pario wave-function file only; any other file there is kExists and
  // left alone), the basis, and n vectors with their reserved attributes.
  static Result<std::unique_ptr<Wavefunction>> create(std::shared_ptr<const comm::Group> group,
                                                      const std::string& path, bool replace, const Basis& basis,
                                                      int nvectors, const WavefunctionOptions& options);
  // Collective: opens and checks a file (kCorrupt for a file that is not a
  // pario wave-function file or is damaged, naming what; kUnsupported for
  // a newer version).
  static Result<std::unique_ptr<Wavefunction>> open(std::shared_ptr<const comm::Group> group,
                                                    const std::string& path, bool writable,
                                                    const WavefunctionOptions& options);
  // Collective: closes every vector and the file.
  Status close();

  // Collective: writes this rank's slice of vector k (the ranks' slices
  // tile the vector: checked, kInvalidArgument naming the rank otherwise)
  // and marks the vector written.
  Status write(int k, int64_t start, int64_t count, const double* buf);
  // Collective: reads this rank's slice (any, overlapping others or empty).
  Status read(int k, int64_t start, int64_t count, double* buf);
  // Collective: writes vector k's observables (the same on every rank).
  Status set_observables(int k, const Observables& o);

  // Local checks and queries.
  Status check_vector(int k) const;
  Status check_writable() const;
  const Basis& basis() const { return basis_; }
  int count() const { return static_cast<int>(vectors_.size()); }
  const Observables& observables(int k) const { return observables_[static_cast<size_t>(k)]; }
  bool written(int k) const { return written_[static_cast<size_t>(k)]; }
  WavefunctionTransfer transfer() const { return options_.transfer; }
  const std::string& path() const { return file_.path(); }

 private:
  Wavefunction(std::shared_ptr<const comm::Group> group, File file, const WavefunctionOptions& options);
  Status load();
  // The aggregators' decomposition of this rank's slice (kept while every
  // rank keeps its slice: MFDn writes 15 vectors with one distribution).
  Result<collective::Decomposition*> decomposition(const std::vector<std::pair<int64_t, int64_t>>& slices);
  Result<std::vector<std::pair<int64_t, int64_t>>> gather_slices(const Status& local, int64_t start, int64_t count);
  // moved: set once the data began to move (the same on every rank), so a
  // failure after it may have left part of the vector overwritten.
  Status move(bool write, int k, int64_t start, int64_t count, void* buf, const Status& checked,
              bool* moved = nullptr);

  std::shared_ptr<const comm::Group> group_;
  File file_;
  WavefunctionOptions options_;
  Basis basis_;
  std::vector<Dataset> vectors_;
  std::vector<Observables> observables_;
  std::vector<bool> written_;
  std::vector<bool> unmarked_;  // written since the open; pario_written set at close
  std::vector<bool> unwritten_;  // a rewrite failed since the open; pario_written cleared at close
  std::vector<std::pair<int64_t, int64_t>> decomp_slices_;
  std::unique_ptr<collective::Decomposition> decomp_;
};

}  // namespace pario::dataset
