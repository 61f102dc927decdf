// C API: MFDn's wave-function file (pario/wavefunction.h).
//
// Each collective checks its arguments on this rank (handles, the basis,
// counts, the vector index and slice), digests those that must match, and
// agrees (capi/collective.h); dataset::Wavefunction then does the work and
// agrees on its outcome. The transfer comes from the call's hint or, for
// PARIO_WF_TRANSFER_DEFAULT, from PARIO_WAVEFUNCTION_TRANSFER, and the
// aggregators' engine options from the call's hints over the environment's
// (capi/options.h: the only place the configuration is read); both are
// agreed at create and open and handed down in WavefunctionOptions.
//
// Without parallel HDF5 (PARIO_HAVE_HDF5 0) every call returns
// PARIO_ERR_UNSUPPORTED, on every rank alike and without communicating.
#include "pario/wavefunction.h"

#include <memory>
#include <string>

#include "capi/boundary.h"
#include "pario/status.h"

#if PARIO_HAVE_HDF5
#include "capi/collective.h"
#include "capi/handle_publish.h"
#include "capi/options.h"
#include "capi/runtime.h"
#include "dataset/wavefunction.h"
#else
// Every call is one line that ignores its arguments.
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif

#define PARIO_WF_UNSUPPORTED(call)                                                                           \
  fail(call, pario::Status(pario::Code::kUnsupported,                                                         \
                           "this pario was built without parallel HDF5: no wave-function files"))

namespace pario::capi {
namespace {

#if PARIO_HAVE_HDF5

using dataset::Wavefunction;

struct WavefunctionHandle {
  std::unique_ptr<Wavefunction> wf;
  std::shared_ptr<const comm::Group> group_;
  const comm::Group& group() const { return *group_; }
};

HandleTable<WavefunctionHandle>& wavefunctions() {
  static auto* t = new HandleTable<WavefunctionHandle>(/*remember_removed=*/true);
  return *t;
}

WavefunctionHandle* entry_wf(Entry& e, pario_wavefunction_t w) {
  return entry_object(e, wavefunctions(), w, "wavefunction");
}

Status publish(Result<std::unique_ptr<Wavefunction>> wf, std::shared_ptr<const comm::Group> group,
               pario_wavefunction_t* out) {
  PARIO_RETURN_IF_ERROR(wf.status());
  auto h = std::make_shared<WavefunctionHandle>(WavefunctionHandle{std::move(wf).value(), std::move(group)});
  return publish_handle(wavefunctions(), std::move(h), out, "wave-function files",
                        [](WavefunctionHandle& made) { (void)made.wf->close(); });
}

// The options of a create or open, checked (into e) and digested: the
// transfer and the engine's hints (capi/options.h), the byte order native
// (HDF5's type says the file's).
dataset::WavefunctionOptions entry_options(Entry& e, const pario_wavefunction_options_t* options) {
  const pario_wavefunction_options_t o = options ? *options : pario_wavefunction_options_t{};
  dataset::WavefunctionOptions out;
  Result<WavefunctionTransferChoice> t = wavefunction_transfer(o.transfer);
  e.check(t);
  if (t.ok()) out.transfer = static_cast<dataset::WavefunctionTransfer>(*t);
  e.args().add("transfer", o.transfer);
  Result<collective::CollectiveOptions> c = entry_collective_options(e, o.hints);
  if (c.ok()) out.collective = std::move(c).value();
  out.collective.byte_order = ByteOrder::kNative;
  return out;
}

dataset::Basis basis_of(const pario_wavefunction_basis_t& b) {
  dataset::Basis out;
  out.dimension = b.dimension;
  out.protons = b.protons;
  out.neutrons = b.neutrons;
  out.nmax = b.nmax;
  out.parity = b.parity;
  out.two_mj = b.two_mj;
  out.hbar_omega = b.hbar_omega;
  return out;
}

// The checks of a call naming a vector of an open file, and its digest.
WavefunctionHandle* entry_vector(Entry& e, pario_wavefunction_t w, int vector) {
  WavefunctionHandle* h = entry_wf(e, w);
  if (h) e.check(h->wf->check_vector(vector));
  e.args().add("vector", vector);
  return h;
}

// write and read: the vector, this rank's slice (may differ between ranks).
int slice_call(const char* call, bool write, pario_wavefunction_t w, int vector, int64_t start, int64_t count,
               void* buf) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    WavefunctionHandle* h = entry_vector(e, w, vector);
    if (h && write) e.check(h->wf->check_writable());
    if (h) {
      const Status s = dataset::check_slice(start, count, h->wf->basis().dimension);
      if (!s.ok()) e.check(Status(s.code(), "start, count: " + s.message()));
    }
    if (!buf && count > 0) e.check(invalid("buf is null"));
    PARIO_RETURN_IF_ERROR(e.agree());
    return write ? h->wf->write(vector, start, count, static_cast<const double*>(buf))
                 : h->wf->read(vector, start, count, static_cast<double*>(buf));
  });
}

int create_file(const char* call, pario_group_t group, const char* path, int mode,
                const pario_wavefunction_basis_t* basis, int nvectors, const pario_wavefunction_options_t* options,
                pario_wavefunction_t* wf_out) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    entry_group(e, group);
    if (!path || !*path) e.check(invalid("path is null or empty"));
    if (!wf_out) e.check(invalid("wf_out is null"));
    const int base = mode & ~PARIO_MODE_RDWR;
    const bool exclusive = base == (PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE);
    if (!exclusive && base != (PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE)) {
      e.check(invalid("mode " + std::to_string(mode) +
                      " is not PARIO_MODE_CREATE with PARIO_MODE_EXCLUSIVE or PARIO_MODE_TRUNCATE"));
    }
    dataset::Basis b;
    if (!basis) {
      e.check(invalid("basis is null"));
    } else {
      b = basis_of(*basis);
      e.check(dataset::check_basis(b));
      e.args().add_bytes("basis", basis, sizeof *basis);
    }
    e.check(dataset::check_vector_count(nvectors));
    if (path) e.args().add("path", path);
    e.args().add("mode", mode).add("nvectors", nvectors);
    const dataset::WavefunctionOptions o = entry_options(e, options);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<comm::Group> g, shared_group(group));
    return publish(Wavefunction::create(g, path, !exclusive, b, nvectors, o), g, wf_out);
  });
}

int open_file(const char* call, pario_group_t group, const char* path, int mode,
              const pario_wavefunction_options_t* options, pario_wavefunction_t* wf_out) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    entry_group(e, group);
    if (!path || !*path) e.check(invalid("path is null or empty"));
    if (!wf_out) e.check(invalid("wf_out is null"));
    if (mode != PARIO_MODE_READ && mode != PARIO_MODE_RDWR) {
      e.check(invalid("mode " + std::to_string(mode) + " is not PARIO_MODE_READ or PARIO_MODE_RDWR"));
    }
    if (path) e.args().add("path", path);
    e.args().add("mode", mode);
    const dataset::WavefunctionOptions o = entry_options(e, options);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<comm::Group> g, shared_group(group));
    return publish(Wavefunction::open(g, path, mode == PARIO_MODE_RDWR, o), g, wf_out);
  });
}

#endif  // PARIO_HAVE_HDF5

}  // namespace
}  // namespace pario::capi

using namespace pario;        // NOLINT: this file is the C boundary
using namespace pario::capi;  // NOLINT

#if PARIO_HAVE_HDF5
#define PARIO_WF_BODY(call, ...) return guarded(call, [&]() -> Status __VA_ARGS__)
#else
#define PARIO_WF_BODY(call, ...) return PARIO_WF_UNSUPPORTED(call)
#endif

extern "C" {

int pario_wavefunction_create_with(pario_group_t group, const char* path, int mode,
                                   const pario_wavefunction_basis_t* basis, int nvectors,
                                   const pario_wavefunction_options_t* options, pario_wavefunction_t* wf_out) {
#if PARIO_HAVE_HDF5
  return create_file("pario_wavefunction_create_with", group, path, mode, basis, nvectors, options, wf_out);
#else
  return PARIO_WF_UNSUPPORTED("pario_wavefunction_create_with");
#endif
}

int pario_wavefunction_create(pario_group_t group, const char* path, int mode, const pario_wavefunction_basis_t* basis,
                              int nvectors, int transfer, pario_wavefunction_t* wf_out) {
#if PARIO_HAVE_HDF5
  const pario_wavefunction_options_t options{transfer, nullptr};
  return create_file("pario_wavefunction_create", group, path, mode, basis, nvectors, &options, wf_out);
#else
  return PARIO_WF_UNSUPPORTED("pario_wavefunction_create");
#endif
}

int pario_wavefunction_open_with(pario_group_t group, const char* path, int mode,
                                 const pario_wavefunction_options_t* options, pario_wavefunction_t* wf_out) {
#if PARIO_HAVE_HDF5
  return open_file("pario_wavefunction_open_with", group, path, mode, options, wf_out);
#else
  return PARIO_WF_UNSUPPORTED("pario_wavefunction_open_with");
#endif
}

int pario_wavefunction_open(pario_group_t group, const char* path, int mode, int transfer,
                            pario_wavefunction_t* wf_out) {
#if PARIO_HAVE_HDF5
  const pario_wavefunction_options_t options{transfer, nullptr};
  return open_file("pario_wavefunction_open", group, path, mode, &options, wf_out);
#else
  return PARIO_WF_UNSUPPORTED("pario_wavefunction_open");
#endif
}

int pario_wavefunction_close(pario_wavefunction_t* wf) {
  PARIO_WF_BODY("pario_wavefunction_close", {
    Entry e("pario_wavefunction_close");
    if (!wf) {
      e.check(invalid("wf is null"));
    } else {
      entry_wf(e, *wf);
    }
    PARIO_RETURN_IF_ERROR(e.agree());
    std::shared_ptr<WavefunctionHandle> h = wavefunctions().remove(id_of(*wf));
    *wf = PARIO_WAVEFUNCTION_NULL;
    return h->wf->close();
  });
}

int pario_wavefunction_info(pario_wavefunction_t wf, pario_wavefunction_basis_t* basis_out, int* nvectors_out,
                            int* transfer_out) {
  PARIO_WF_BODY("pario_wavefunction_info", {
    PARIO_ASSIGN_OR_RETURN(WavefunctionHandle * h, live(wavefunctions(), wf, "wf"));
    const dataset::Basis& b = h->wf->basis();
    if (basis_out) {
      *basis_out = pario_wavefunction_basis_t{b.dimension, b.protons, b.neutrons, b.nmax,
                                              b.parity,    b.two_mj,  b.hbar_omega};
    }
    if (nvectors_out) *nvectors_out = h->wf->count();
    if (transfer_out) *transfer_out = static_cast<int>(h->wf->transfer());
    return Status::Ok();
  });
}

int pario_wavefunction_write(pario_wavefunction_t wf, int vector, int64_t start, int64_t count, const double* buf) {
#if PARIO_HAVE_HDF5
  return slice_call("pario_wavefunction_write", true, wf, vector, start, count, const_cast<double*>(buf));
#else
  return PARIO_WF_UNSUPPORTED("pario_wavefunction_write");
#endif
}

int pario_wavefunction_read(pario_wavefunction_t wf, int vector, int64_t start, int64_t count, double* buf) {
#if PARIO_HAVE_HDF5
  return slice_call("pario_wavefunction_read", false, wf, vector, start, count, buf);
#else
  return PARIO_WF_UNSUPPORTED("pario_wavefunction_read");
#endif
}

int pario_wavefunction_set_observables(pario_wavefunction_t wf, int vector, double energy, double j, double t) {
  PARIO_WF_BODY("pario_wavefunction_set_observables", {
    Entry e("pario_wavefunction_set_observables");
    WavefunctionHandle* h = entry_vector(e, wf, vector);
    if (h) e.check(h->wf->check_writable());
    const double values[3] = {energy, j, t};
    e.args().add_bytes("observables", values, sizeof values);
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->wf->set_observables(vector, dataset::Observables{energy, j, t});
  });
}

int pario_wavefunction_observables(pario_wavefunction_t wf, int vector, double* energy_out, double* j_out,
                                   double* t_out, int* written_out) {
  PARIO_WF_BODY("pario_wavefunction_observables", {
    PARIO_ASSIGN_OR_RETURN(WavefunctionHandle * h, live(wavefunctions(), wf, "wf"));
    PARIO_RETURN_IF_ERROR(h->wf->check_vector(vector));
    const dataset::Observables& o = h->wf->observables(vector);
    if (energy_out) *energy_out = o.energy;
    if (j_out) *j_out = o.j;
    if (t_out) *t_out = o.t;
    if (written_out) *written_out = h->wf->written(vector) ? 1 : 0;
    return Status::Ok();
  });
}

}  // extern "C"
