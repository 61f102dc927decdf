// C API: MFDn's wave-function file (pario/wavefunction.h).
//
// Each collective checks its arguments on this rank (handles, the basis,
// counts, the vector index and slice), digests those that must match, and
// agrees (capi/collective.h); dataset::Wavefunction then does the work and
// agrees on its outcome. The transfer comes from the call's hint or, for
// PARIO_WF_TRANSFER_DEFAULT, from PARIO_WAVEFUNCTION_TRANSFER
// (capi/options.h): the only place the configuration is read.
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

// The transfer hint checked, and the options it makes.
Result<dataset::WavefunctionOptions> options_for(int hint) {
  PARIO_ASSIGN_OR_RETURN(WavefunctionTransferChoice t, wavefunction_transfer(hint));
  dataset::WavefunctionOptions o;
  o.transfer = static_cast<dataset::WavefunctionTransfer>(t);
  PARIO_ASSIGN_OR_RETURN(o.collective, collective_options(nullptr));
  return o;
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

int pario_wavefunction_create(pario_group_t group, const char* path, int mode, const pario_wavefunction_basis_t* basis,
                              int nvectors, int transfer, pario_wavefunction_t* wf_out) {
  PARIO_WF_BODY("pario_wavefunction_create", {
    Entry e("pario_wavefunction_create");
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
    Result<dataset::WavefunctionOptions> o = options_for(transfer);
    e.check(o);
    if (path) e.args().add("path", path);
    e.args().add("mode", mode).add("nvectors", nvectors).add("transfer", transfer);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<comm::Group> g, shared_group(group));
    return publish(Wavefunction::create(g, path, !exclusive, b, nvectors, *o), g, wf_out);
  });
}

int pario_wavefunction_open(pario_group_t group, const char* path, int mode, int transfer,
                            pario_wavefunction_t* wf_out) {
  PARIO_WF_BODY("pario_wavefunction_open", {
    Entry e("pario_wavefunction_open");
    entry_group(e, group);
    if (!path || !*path) e.check(invalid("path is null or empty"));
    if (!wf_out) e.check(invalid("wf_out is null"));
    if (mode != PARIO_MODE_READ && mode != PARIO_MODE_RDWR) {
      e.check(invalid("mode " + std::to_string(mode) + " is not PARIO_MODE_READ or PARIO_MODE_RDWR"));
    }
    Result<dataset::WavefunctionOptions> o = options_for(transfer);
    e.check(o);
    if (path) e.args().add("path", path);
    e.args().add("mode", mode).add("transfer", transfer);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<comm::Group> g, shared_group(group));
    return publish(Wavefunction::open(g, path, mode == PARIO_MODE_RDWR, *o), g, wf_out);
  });
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
