// MFDn's wave-function file executed on parallel HDF5 (layout and rules in
// wavefunction.h).
//
// Every collective step has the shape of the PDS's (pds.cpp): what can
// fail on one rank alone, then one agreement; then the metadata calls all
// ranks make alike (parallel HDF5 wants identical metadata calls; HDF5's
// collective metadata writes put them on disk once, its collective
// metadata reads read once and broadcast), then one agreement.
//
// A write first gathers every rank's slice (16 bytes per rank, one
// allgather) so that every rank checks the same tiling and, with the
// aggregators, decides alike whether the kept decomposition still fits:
// MFDn writes its ~15 vectors with one distribution, so the plan (who
// sends what to which aggregator) is made once per file, not per vector.
// Values then move in one of three ways: an independent H5Dwrite of this
// rank's hyperslab (no communication), one collective H5Dwrite (MPI-IO's
// two-phase I/O), or pario's collective engine into a DatasetTarget.
// `pario_written` is set only after every rank's slice is in, so a vector
// cut short by a failure is never read back as if it were whole.
#include "dataset/wavefunction.h"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "base/checked.h"
#include "collective/layout.h"
#include "collective/transfer.h"
#include "dataset/target.h"

namespace pario::dataset {

namespace {

constexpr const char* kBasisGroup = "/basis";
constexpr const char* kVectorsGroup = "/vectors";
constexpr const char* kWrittenAttr = "pario_written";
constexpr const char* kObservableNames[3] = {"energy", "J", "T"};

Status damaged(const std::string& path, const std::string& what) {
  return Status(Code::kCorrupt, path + ": not a readable pario wave-function file: " + what);
}

// A field read back (int64_t or double), any failure to read it being damage.
template <typename T>
Result<T> field(File& f, const std::string& object, const char* name) {
  Result<AttrValue> v = f.attribute(object, name);
  if (!v.ok()) return damaged(f.path(), object + " has no readable attribute " + name);
  const std::string what = object + " attribute " + name;
  Result<T> x = [&]() -> Result<T> {
    if constexpr (std::is_same_v<T, double>) return v->as_double(what);
    else return v->as_int64(what);
  }();
  if (!x.ok()) return damaged(f.path(), x.status().message());
  return x;
}

Box slice_box(int64_t start, int64_t count) {
  Box b;
  b.ndim = 1;
  b.start[0] = start;
  b.count[0] = count;
  return b;
}

// Whether a file at path is there and is not a pario wave-function file
// (then create refuses to replace it). Collective.
Status refuse_foreign(const comm::Comm& comm, const std::string& path) {
  int there = 0;
  if (comm.rank() == 0) there = ::access(path.c_str(), F_OK) == 0 ? 1 : 0;
  const int rc = MPI_Bcast(&there, 1, MPI_INT, 0, comm.get());
  if (rc != MPI_SUCCESS) return comm::mpi_status(rc, "MPI_Bcast");
  if (!there) return Status::Ok();
  const std::string refused = "dataset::Wavefunction::create: " + path + ": a file that is not a pario "
                              "wave-function file is there; it is not replaced";
  Result<File> old = File::open(comm, path, FileMode::kReadOnly);
  if (!old.ok()) return old.status().code() == Code::kCorrupt ? Status(Code::kExists, refused) : old.status();
  Result<AttrValue> marker = old->attribute("/", "pario_format");
  Status local = marker.ok() && marker->is_string && marker->text == kWavefunctionFormat
                     ? Status::Ok()
                     : Status(Code::kExists, refused);
  local = comm::agree(old->comm(), local);
  const Status closed = old->close();
  return local.ok() ? closed : local;
}

}  // namespace

const char* transfer_name(WavefunctionTransfer t) {
  switch (t) {
    case WavefunctionTransfer::kIndependent: return "independent";
    case WavefunctionTransfer::kCollective: return "collective";
    case WavefunctionTransfer::kAggregators: return "aggregators";
  }
  return "unknown";
}

Status check_basis(const Basis& b) {
  auto bad = [](const std::string& what) { return Status(Code::kInvalidArgument, "basis: " + what); };
  if (b.dimension < 1) return bad("dimension " + std::to_string(b.dimension) + " is < 1");
  if (b.protons < 0 || b.neutrons < 0 || b.protons > INT32_MAX || b.neutrons > INT32_MAX) {
    return bad("protons " + std::to_string(b.protons) + " or neutrons " + std::to_string(b.neutrons) +
               " is negative or too large");
  }
  if (b.protons + b.neutrons < 1) return bad("no nucleons (protons + neutrons is 0)");
  if (b.nmax < 0 || b.nmax > INT32_MAX) return bad("nmax " + std::to_string(b.nmax) + " is negative or too large");
  if (b.parity != 1 && b.parity != -1) return bad("parity " + std::to_string(b.parity) + " is not +1 or -1");
  if (b.two_mj < INT32_MIN || b.two_mj > INT32_MAX || ((b.two_mj % 2 != 0) != ((b.protons + b.neutrons) % 2 != 0))) {
    return bad("two_mj " + std::to_string(b.two_mj) + " does not have the parity of A = " +
               std::to_string(b.protons + b.neutrons) + " (2 M_J is odd exactly when A is)");
  }
  if (!std::isfinite(b.hbar_omega) || b.hbar_omega <= 0) {
    return bad("hbar_omega " + std::to_string(b.hbar_omega) + " is not a finite positive energy");
  }
  return Status::Ok();
}

Status check_vector_count(int64_t n) {
  if (n < 1 || n > kMaxWavefunctionVectors) {
    return Status(Code::kInvalidArgument, "nvectors " + std::to_string(n) + " is not in 1.." +
                                              std::to_string(kMaxWavefunctionVectors));
  }
  return Status::Ok();
}

std::string vector_path(int k) {
  std::string digits = std::to_string(k);
  if (digits.size() < 5) digits.insert(0, 5 - digits.size(), '0');
  return std::string(kVectorsGroup) + "/" + digits;
}

std::string describe_basis(const Basis& b) {
  return "M-scheme many-body basis of " + std::to_string(b.dimension) + " states: Z = " + std::to_string(b.protons) +
         " protons, N = " + std::to_string(b.neutrons) + " neutrons, N_max = " + std::to_string(b.nmax) +
         ", parity " + (b.parity > 0 ? "+" : "-") + ", 2M_J = " + std::to_string(b.two_mj) +
         ", hbar*omega = " + std::to_string(b.hbar_omega) + " MeV";
}

Status check_slice(int64_t start, int64_t count, int64_t dimension) {
  if (start < 0 || count < 0 || !inside(start, count, dimension)) {
    return Status(Code::kOutOfRange, "slice [" + std::to_string(start) + ", +" + std::to_string(count) +
                                         ") is not inside the vector's " + std::to_string(dimension) + " elements");
  }
  return Status::Ok();
}

Status check_tiling(const std::vector<std::pair<int64_t, int64_t>>& slices, int64_t dimension) {
  std::vector<int> order;
  for (size_t r = 0; r < slices.size(); ++r) {
    if (slices[r].second > 0) order.push_back(static_cast<int>(r));
  }
  std::sort(order.begin(), order.end(), [&](int a, int b) { return slices[a].first < slices[b].first; });
  int64_t next = 0;
  for (int r : order) {
    const auto [start, count] = slices[static_cast<size_t>(r)];
    const std::string mine = "rank " + std::to_string(r) + "'s slice [" + std::to_string(start) + ", +" +
                             std::to_string(count) + ")";
    if (start < next) {
      return Status(Code::kInvalidArgument, mine + " overlaps another rank's (the ranks' slices must tile the "
                                                   "vector: every element written once)");
    }
    if (start > next) {
      return Status(Code::kInvalidArgument, mine + " leaves elements " + std::to_string(next) + ".." +
                                                std::to_string(start - 1) + " unwritten");
    }
    next = start + count;
  }
  if (next != dimension) {
    return Status(Code::kInvalidArgument, "the ranks' slices cover elements 0.." + std::to_string(next - 1) +
                                              " of the vector's " + std::to_string(dimension) + ": wrong slice sizes");
  }
  return Status::Ok();
}

Wavefunction::Wavefunction(std::shared_ptr<const comm::Group> group, File file, const WavefunctionOptions& options)
    : group_(std::move(group)), file_(std::move(file)), options_(options) {}

Wavefunction::~Wavefunction() = default;

Result<std::unique_ptr<Wavefunction>> Wavefunction::create(std::shared_ptr<const comm::Group> group,
                                                           const std::string& path, bool replace, const Basis& basis,
                                                           int nvectors, const WavefunctionOptions& options) {
  const comm::Comm& comm = group->comm_object();
  Status local = check_basis(basis);
  if (local.ok()) local = check_vector_count(nvectors);
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  if (replace) PARIO_RETURN_IF_ERROR(refuse_foreign(comm, path));
  PARIO_ASSIGN_OR_RETURN(File f, File::open(comm, path, replace ? FileMode::kCreateTruncate
                                                                 : FileMode::kCreateExclusive));
  std::unique_ptr<Wavefunction> w(new Wavefunction(std::move(group), std::move(f), options));
  File& file = w->file_;
  w->basis_ = basis;
  local = file.set_attribute("/", "pario_format", AttrValue::string(kWavefunctionFormat));
  if (local.ok()) local = file.set_attribute("/", "pario_format_version", AttrValue::int64(kWavefunctionVersion));
  if (local.ok()) local = file.create_group(kBasisGroup);
  const std::pair<const char*, int64_t> ints[] = {{"dimension", basis.dimension}, {"protons", basis.protons},
                                                  {"neutrons", basis.neutrons},   {"nmax", basis.nmax},
                                                  {"parity", basis.parity},       {"two_mj", basis.two_mj}};
  for (const auto& [name, v] : ints) {
    if (local.ok()) local = file.set_attribute(kBasisGroup, name, AttrValue::int64(v));
  }
  if (local.ok()) local = file.set_attribute(kBasisGroup, "hbar_omega", AttrValue::float64(basis.hbar_omega));
  if (local.ok()) local = file.set_attribute(kBasisGroup, "description", AttrValue::string(describe_basis(basis)));
  if (local.ok()) local = file.create_group(kVectorsGroup);
  if (local.ok()) local = file.set_attribute(kVectorsGroup, "count", AttrValue::int64(nvectors));
  local = comm::agree(comm, local);
  Shape dims{};
  dims[0] = basis.dimension;
  for (int k = 0; k < nvectors && local.ok(); ++k) {
    Result<Dataset> ds = Dataset::create(file, vector_path(k), ElementType::kDouble, 1, dims);  // agreed
    local = ds.status();
    if (ds.ok()) w->vectors_.push_back(std::move(ds).value());
  }
  // Every vector's attributes in one step (one agreement, not one a vector).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int k = 0; k < nvectors && local.ok(); ++k) {
    for (const char* name : kObservableNames) {
      if (local.ok()) local = file.set_attribute(vector_path(k), name, AttrValue::float64(nan));
    }
    if (local.ok()) local = file.set_attribute(vector_path(k), kWrittenAttr, AttrValue::int64(0));
  }
  if (w->vectors_.size() == static_cast<size_t>(nvectors)) local = comm::agree(comm, local);  // else agreed already
  if (!local.ok()) {
    (void)w->close();
    return local;
  }
  w->observables_.assign(static_cast<size_t>(nvectors), Observables{nan, nan, nan});
  w->written_.assign(static_cast<size_t>(nvectors), false);
  return w;
}

Result<std::unique_ptr<Wavefunction>> Wavefunction::open(std::shared_ptr<const comm::Group> group,
                                                         const std::string& path, bool writable,
                                                         const WavefunctionOptions& options) {
  const comm::Comm& comm = group->comm_object();
  PARIO_ASSIGN_OR_RETURN(File f, File::open(comm, path, writable ? FileMode::kReadWrite : FileMode::kReadOnly));
  std::unique_ptr<Wavefunction> w(new Wavefunction(std::move(group), std::move(f), options));
  const Status local = w->load();
  if (!local.ok()) {
    (void)w->close();
    return local;
  }
  return w;
}

// Reads and checks everything, in agreed steps: the marker, version, basis
// and vector names; the vectors (each open agrees); their attributes.
Status Wavefunction::load() {
  File& f = file_;
  const std::string& path = f.path();
  const comm::Comm& comm = f.comm();
  int64_t count = 0;
  Status local = [&]() -> Status {
    Result<AttrValue> marker = f.attribute("/", "pario_format");
    if (!marker.ok() || !marker->is_string || marker->text != kWavefunctionFormat) {
      return damaged(path, "the root group has no pario_format attribute \"" + std::string(kWavefunctionFormat) + "\"");
    }
    PARIO_ASSIGN_OR_RETURN(int64_t version, field<int64_t>(f, "/", "pario_format_version"));
    if (version > kWavefunctionVersion) {
      return Status(Code::kUnsupported, path + ": pario wave-function format version " + std::to_string(version) +
                                            "; this pario reads version " + std::to_string(kWavefunctionVersion));
    }
    if (version < 1) return damaged(path, "pario_format_version " + std::to_string(version));
    Basis& b = basis_;
    int64_t* fields[] = {&b.dimension, &b.protons, &b.neutrons, &b.nmax, &b.parity, &b.two_mj};
    const char* names[] = {"dimension", "protons", "neutrons", "nmax", "parity", "two_mj"};
    for (int i = 0; i < 6; ++i) {
      PARIO_ASSIGN_OR_RETURN(*fields[i], field<int64_t>(f, kBasisGroup, names[i]));
    }
    PARIO_ASSIGN_OR_RETURN(b.hbar_omega, field<double>(f, kBasisGroup, "hbar_omega"));
    const Status basis_ok = check_basis(b);
    if (!basis_ok.ok()) return damaged(path, "/basis: " + basis_ok.message());
    PARIO_ASSIGN_OR_RETURN(count, field<int64_t>(f, kVectorsGroup, "count"));
    if (!check_vector_count(count).ok()) return damaged(path, "/vectors count " + std::to_string(count));
    Result<std::vector<std::string>> links = f.links(kVectorsGroup);
    if (!links.ok()) return damaged(path, "/vectors is not a readable group");
    if (static_cast<int64_t>(links->size()) != count) {
      return damaged(path, "/vectors holds " + std::to_string(links->size()) + " links for count " +
                               std::to_string(count));
    }
    for (int64_t k = 0; k < count; ++k) {
      const std::string want = vector_path(static_cast<int>(k)).substr(sizeof "/vectors");
      if ((*links)[static_cast<size_t>(k)] != want) {
        return damaged(path, "/vectors/" + (*links)[static_cast<size_t>(k)] + " where vector " + want +
                                 " should be (vectors are numbered 00000, 00001, ... with none missing)");
      }
    }
    return Status::Ok();
  }();
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  for (int k = 0; k < count; ++k) {
    Result<Dataset> ds = Dataset::open(f, vector_path(k), ElementType::kDouble);  // agreed
    if (!ds.ok()) {
      return ds.status().code() == Code::kIo ? ds.status() : damaged(path, ds.status().message());
    }
    if (local.ok() && (ds->ndim() != 1 || ds->dims()[0] != basis_.dimension)) {
      local = damaged(path, vector_path(k) + " is not a vector of the basis dimension " +
                                std::to_string(basis_.dimension));
    }
    vectors_.push_back(std::move(ds).value());
  }
  observables_.assign(static_cast<size_t>(count), Observables{0, 0, 0});
  written_.assign(static_cast<size_t>(count), false);
  for (int k = 0; k < count && local.ok(); ++k) {
    Observables& o = observables_[static_cast<size_t>(k)];
    double* values[] = {&o.energy, &o.j, &o.t};
    for (int i = 0; i < 3 && local.ok(); ++i) {
      Result<double> v = field<double>(f, vector_path(k), kObservableNames[i]);
      if (v.ok()) *values[i] = *v;
      local = v.status();
    }
    Result<int64_t> w = field<int64_t>(f, vector_path(k), kWrittenAttr);
    if (local.ok()) local = w.status();
    if (local.ok() && *w != 0 && *w != 1) local = damaged(path, vector_path(k) + " pario_written is neither 0 nor 1");
    if (local.ok()) written_[static_cast<size_t>(k)] = *w == 1;
  }
  return comm::agree(comm, local);
}

Status Wavefunction::close() {
  // The vectors written whole since the open, marked in one step.
  Status local;
  for (size_t k = 0; k < unmarked_.size() && local.ok(); ++k) {
    if (unmarked_[k]) local = file_.set_attribute(vector_path(static_cast<int>(k)), kWrittenAttr, AttrValue::int64(1));
  }
  unmarked_.clear();
  // And those a failed rewrite left neither old nor new (Wavefunction::write).
  for (size_t k = 0; k < unwritten_.size() && local.ok(); ++k) {
    if (unwritten_[k]) local = file_.set_attribute(vector_path(static_cast<int>(k)), kWrittenAttr, AttrValue::int64(0));
  }
  unwritten_.clear();
  // No H5Fflush: with the MPI-IO driver it is MPI_File_sync, an fsync
  // (measured: two of them made a 36 MB write 3x slower than parallel HDF5
  // alone); H5Fclose writes the metadata. Durability is the caller's.
  local = comm::agree(file_.comm(), local);
  if (decomp_) {
    const Status freed = decomp_->free();
    if (local.ok()) local = freed;
    decomp_.reset();
  }
  for (Dataset& ds : vectors_) {
    const Status closed = ds.close();
    if (local.ok()) local = closed;
  }
  vectors_.clear();
  const Status closed = file_.close();
  return local.ok() ? closed : local;
}

Status Wavefunction::check_vector(int k) const {
  if (k < 0 || k >= count()) {
    return Status(Code::kInvalidArgument, path() + ": vector " + std::to_string(k) + " is not in 0.." +
                                              std::to_string(count() - 1));
  }
  return Status::Ok();
}

Status Wavefunction::check_writable() const {
  if (!file_.writable()) return Status(Code::kState, path() + ": the wave-function file is open read-only");
  return Status::Ok();
}

Result<collective::Decomposition*> Wavefunction::decomposition(
    const std::vector<std::pair<int64_t, int64_t>>& slices) {
  if (decomp_ && slices == decomp_slices_) return decomp_.get();  // every rank decides alike
  if (decomp_) {
    const Status freed = decomp_->free();
    decomp_.reset();
    PARIO_RETURN_IF_ERROR(freed);
  }
  const auto [start, count] = slices[static_cast<size_t>(group_->rank())];
  Shape dims{};
  dims[0] = basis_.dimension;
  std::vector<Box> blocks;
  if (count > 0) blocks.push_back(slice_box(start, count));
  Result<collective::SortedRuns> runs = collective::runs_of_blocks(1, dims, collective::IndexOrder::kC, blocks);
  PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), runs.status()));
  PARIO_ASSIGN_OR_RETURN(decomp_, collective::Decomposition::create(*group_, std::move(runs).value(),
                                                                    basis_.dimension, ElementType::kDouble,
                                                                    options_.collective));
  decomp_slices_ = slices;
  return decomp_.get();
}

// Every rank's slice and whether its own checks passed, in one allgather;
// a failure on any rank is then agreed on (its message to every rank).
Result<std::vector<std::pair<int64_t, int64_t>>> Wavefunction::gather_slices(const Status& local, int64_t start,
                                                                             int64_t count) {
  const comm::Comm& comm = file_.comm();
  const int64_t mine[3] = {start, count, local.ok() ? 0 : 1};
  std::vector<int64_t> all(3 * static_cast<size_t>(group_->size()));
  const int rc = MPI_Allgather(mine, 3, MPI_INT64_T, all.data(), 3, MPI_INT64_T, comm.get());
  if (rc != MPI_SUCCESS) return comm::agree(comm, comm::mpi_status(rc, "MPI_Allgather"));
  std::vector<std::pair<int64_t, int64_t>> slices;
  bool failed = false;
  for (size_t r = 0; r < all.size(); r += 3) {
    slices.emplace_back(all[r], all[r + 1]);
    failed |= all[r + 2] != 0;
  }
  if (failed) return comm::agree(comm, local.ok() ? Status(Code::kInternal, "unreachable") : local);
  return slices;
}

// Moves this rank's slice. Independent reads need no step before the
// transfer (no rank waits for another): a rank whose checks failed skips
// it and the one agreement after reports it. Everything else first
// gathers the slices with the checks' outcome.
Status Wavefunction::move(bool write, int k, int64_t start, int64_t count, void* buf, const Status& checked,
                          bool* moved) {
  const comm::Comm& comm = file_.comm();
  const bool independent = options_.transfer == WavefunctionTransfer::kIndependent;
  std::vector<std::pair<int64_t, int64_t>> slices;
  if (write || !independent) {
    PARIO_ASSIGN_OR_RETURN(slices, gather_slices(checked, start, count));
  } else if (!checked.ok()) {
    return comm::agree(comm, checked);
  }
  if (write) {
    const Status tiled = check_tiling(slices, basis_.dimension);  // the same on every rank
    if (!tiled.ok()) return Status(tiled.code(), path() + ": vector " + std::to_string(k) + ": " + tiled.message());
  }
  Dataset& ds = vectors_[static_cast<size_t>(k)];
  if (moved) *moved = true;
  switch (options_.transfer) {
    case WavefunctionTransfer::kIndependent:
    case WavefunctionTransfer::kCollective: {
      const XferMode mode = independent ? XferMode::kIndependent : XferMode::kCollective;
      const Box b = slice_box(start, count);
      return comm::agree(comm, write ? ds.write(b, buf, mode) : ds.read(b, buf, mode));
    }
    case WavefunctionTransfer::kAggregators: {
      PARIO_ASSIGN_OR_RETURN(collective::Decomposition * d, decomposition(slices));
      DatasetTarget target(&ds);
      Result<std::unique_ptr<collective::Transfer>> t =
          write ? collective::Transfer::start_write(*d, target, 0, ElementType::kDouble, buf, /*borrow=*/true)
                : collective::Transfer::start_read(*d, target, 0, ElementType::kDouble, buf);
      return t.ok() ? (*t)->wait() : t.status();  // both agreed by the engine
    }
  }
  return Status(Code::kInternal, "unknown wave-function transfer");
}

Status Wavefunction::write(int k, int64_t start, int64_t count, const double* buf) {
  Status local = check_writable();
  if (local.ok()) local = check_vector(k);
  if (local.ok()) local = check_slice(start, count, basis_.dimension);
  bool moved = false;
  const Status s = move(true, k, start, count, const_cast<double*>(buf), local, &moved);
  if (!s.ok()) {
    // Agreed, and `moved` the same everywhere: a write that failed once
    // data moved leaves the vector part old, part new, so it reads back
    // as never written whole (pario_written cleared at close).
    if (moved && written_[static_cast<size_t>(k)]) {
      written_[static_cast<size_t>(k)] = false;
      if (unmarked_.size() > static_cast<size_t>(k)) unmarked_[static_cast<size_t>(k)] = false;
      if (unwritten_.size() < written_.size()) unwritten_.resize(written_.size(), false);
      unwritten_[static_cast<size_t>(k)] = true;
    }
    return s;
  }
  if (unwritten_.size() > static_cast<size_t>(k)) unwritten_[static_cast<size_t>(k)] = false;  // whole again
  if (!written_[static_cast<size_t>(k)]) {
    written_[static_cast<size_t>(k)] = true;
    if (unmarked_.size() < written_.size()) unmarked_.resize(written_.size(), false);
    unmarked_[static_cast<size_t>(k)] = true;  // pario_written is set at close
  }
  return Status::Ok();
}

Status Wavefunction::read(int k, int64_t start, int64_t count, double* buf) {
  Status local = check_vector(k);
  if (local.ok()) local = check_slice(start, count, basis_.dimension);
  if (local.ok() && !written_[static_cast<size_t>(k)]) {
    local = Status(Code::kNotFound, path() + ": vector " + std::to_string(k) + " was never written whole");
  }
  return move(false, k, start, count, buf, local);
}

Status Wavefunction::set_observables(int k, const Observables& o) {
  Status local = check_writable();
  if (local.ok()) local = check_vector(k);
  PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), local));
  const double values[3] = {o.energy, o.j, o.t};
  for (int i = 0; i < 3 && local.ok(); ++i) {
    local = file_.set_attribute(vector_path(k), kObservableNames[i], AttrValue::float64(values[i]));
  }
  PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), local));
  observables_[static_cast<size_t>(k)] = o;
  return Status::Ok();
}

}  // namespace pario::dataset
