// C API: collective I/O through aggregators (pario/collective_io.h).
#include <memory>
#include <string>
#include <vector>

#include "base/checked.h"
#include "capi/array_handles.h"
#include "capi/boundary.h"
#include "capi/collective.h"
#include "capi/decomp_handles.h"
#include "capi/file_handles.h"
#include "capi/handles.h"
#include "capi/options.h"
#include "capi/request.h"
#include "capi/runtime.h"
#include "collective/decomposition.h"
#include "collective/key_sort.h"
#include "collective/layout.h"
#include "collective/transfer.h"
#include "pario/collective_io.h"

namespace pario::capi {

HandleTable<DecompHandle>& decomps() {
  static auto* t = new HandleTable<DecompHandle>(/*remember_removed=*/true);
  return *t;
}

DecompHandle* entry_decomp(Entry& e, pario_decomp_t d) {
  Result<DecompHandle*> h = live(decomps(), d, "decomposition");
  e.check(h);
  if (!h.ok()) {
    if (std::shared_ptr<DecompHandle> gone = decomps().removed(id_of(d))) e.over_removed(gone, gone->group.get());
    return nullptr;
  }
  e.over((*h)->group.get());
  return *h;
}

namespace {

using collective::CollectiveOptions;
using collective::Decomposition;
using collective::SortedRuns;
using collective::Transfer;

// The checks and digest every create shares; then, once all agree, makes
// the decomposition from this rank's runs.
Status create(Entry& e, pario_group_t group, int file_type, const pario_decomp_hints* hints, Result<SortedRuns> runs,
              int64_t global_size, pario_decomp_t* out, int shape_ndim = 0, const Shape& shape = Shape{}) {
  if (!out) e.check(invalid("decomp_out is null"));
  if (!valid_element_type(file_type)) e.check(invalid("file_type " + std::to_string(file_type) + " is not a PARIO_TYPE_*"));
  e.args().add("file_type", file_type);
  Result<CollectiveOptions> options = entry_collective_options(e, hints);
  e.check(runs);
  if (options.ok()) e.args().add("byte_order", static_cast<int64_t>(options->byte_order));
  PARIO_RETURN_IF_ERROR(e.agree());
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<comm::Group> g, shared_group(group));
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Decomposition> d,
                         Decomposition::create(*g, std::move(runs).value(), global_size,
                                               static_cast<ElementType>(file_type), *options));
  auto handle = std::make_shared<DecompHandle>(DecompHandle{std::move(d), g, shape_ndim, shape});
  const uint64_t id = decomps().insert(handle);
  if (id == 0) {
    (void)handle->decomp->free();  // every rank's table is full alike
    return Status(Code::kNoMemory, "too many decompositions");
  }
  *out = handle_of<pario_decomp_t>(id);
  return Status::Ok();
}

// What a collective write or read writes into: a shared file.
class SharedFileTarget final : public collective::Target {
 public:
  explicit SharedFileTarget(std::shared_ptr<SharedFileHandle> file) : file_(std::move(file)) {}
  Result<std::shared_ptr<device::Request>> start(device::IoKind kind, uint64_t offset, void* buf,
                                                 size_t len) override {
    return kind == device::IoKind::kWrite ? file_->file->iwrite(offset, buf, len) : file_->file->iread(offset, buf, len);
  }
  Result<uint64_t> size() override { return file_->file->length(); }
  // On the calling thread. A read that the file's end cuts short (it
  // shrank since the transfer asked its size) goes through start(),
  // which reports the bytes there were.
  Status run(device::IoKind kind, uint64_t offset, void* buf, size_t len, size_t* moved) override {
    if (kind != device::IoKind::kWrite) {
      Status s = file_->file->read(offset, buf, len);
      if (s.code() == Code::kOutOfRange) return Target::run(kind, offset, buf, len, moved);
      *moved = s.ok() ? len : 0;
      return s;
    }
    PARIO_RETURN_IF_ERROR(file_->file->write(offset, buf, len));
    *moved = len;
    return Status::Ok();
  }

 private:
  std::shared_ptr<SharedFileHandle> file_;
};

// A transfer with everything it uses kept alive until it is waited.
class DecompTransfer final : public Pending {
 public:
  DecompTransfer(std::shared_ptr<DecompHandle> decomp, std::shared_ptr<SharedFileHandle> file)
      : decomp_(std::move(decomp)), target_(std::move(file)) {}
  // Local: this rank's checks, buffers and (write) packed copy, before the
  // entry agreement; `values` what that agreement must reduce (their
  // maxima are begin()'s). blocking: buf stays unchanged until the wait,
  // so a write need not copy it.
  Status prepare(bool write, uint64_t offset, ElementType mem_type, void* buf, bool blocking,
                 int64_t values[Transfer::kAgreementValues]) {
    Status local;
    transfer_ = Transfer::prepare(*decomp_->decomp, target_, offset,
                                  write ? device::IoKind::kWrite : device::IoKind::kRead, mem_type, buf,
                                  blocking ? Transfer::kBlocking : Transfer::kNonblocking, &local);
    transfer_->agreement_values(values);
    return local;
  }
  // Collective, after the entry agreement succeeded.
  Status begin(const int64_t agreed[Transfer::kAgreementValues]) { return transfer_->begin(agreed); }
  Status wait() override { return transfer_->wait(); }
  bool test() override { return transfer_->test(); }
  bool collective() const override { return true; }
  Status wait_refusing(const Status& refusal) override { return transfer_->wait(refusal); }

 private:
  std::shared_ptr<DecompHandle> decomp_;
  SharedFileTarget target_;
  std::unique_ptr<Transfer> transfer_;
};

// One entry agreement (the arguments' digest, every rank's checks and the
// transfer's own preparation, and the memory types), the transfer, and for
// a blocking call one end agreement of the outcome (Transfer::wait): two
// allreduces in all (docs/scaling.md).
int transfer(const char* call, bool write, pario_decomp_t decomp, pario_shared_file_t file, int64_t offset,
             int mem_type, const void* buf, pario_request_t* req_out, bool blocking) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    DecompHandle* d = entry_decomp(e, decomp);
    Result<SharedFileHandle*> f = live_shared_handle(file);
    e.check(f);
    if (f.ok()) e.over((*f)->group.get());
    if (offset < 0) e.check(invalid("offset " + std::to_string(offset) + " is negative"));
    if (!valid_element_type(mem_type)) e.check(invalid("mem_type " + std::to_string(mem_type) + " is not a PARIO_TYPE_*"));
    if (!blocking && !req_out) e.check(invalid("request_out is null"));
    if (f.ok()) e.args().add("file", (*f)->file->path().c_str());
    e.args().add("offset", offset);
    std::shared_ptr<DecompTransfer> pending;
    int64_t values[Transfer::kAgreementValues] = {};
    if (e.ok() && d) {
      pending = std::make_shared<DecompTransfer>(decomps().share(id_of(decomp)),
                                                 shared_files().share(reinterpret_cast<uintptr_t>(file)));
      e.check(pending->prepare(write, static_cast<uint64_t>(offset), static_cast<ElementType>(mem_type),
                               const_cast<void*>(buf), blocking, values));
    }
    e.carry_max(values, Transfer::kAgreementValues);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_RETURN_IF_ERROR(pending->begin(values));
    if (blocking) return pending->wait();
    return publish_request(std::move(pending), req_out);
  });
}

}  // namespace
}  // namespace pario::capi

using namespace pario;        // NOLINT: this file is the C boundary
using namespace pario::capi;  // NOLINT

extern "C" {

void pario_decomp_hints_init(pario_decomp_hints* hints) {
  if (hints) *hints = pario_decomp_hints{};
}

int pario_decomp_create_blocks(pario_group_t group, int file_type, int ndim, const int64_t dims[], int order,
                               int nblocks, const int64_t starts[], const int64_t counts[],
                               const pario_decomp_hints* hints, pario_decomp_t* decomp_out) {
  static const char* call = "pario_decomp_create_blocks";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    entry_group(e, group);
    Result<SortedRuns> runs = invalid("no blocks described");
    int64_t global_size = 0;
    Shape c_shape{};  // the global shape in the C order of the flat index
    if (ndim < 1 || ndim > PARIO_ARRAY_MAX_DIMS) {
      runs = invalid("ndim " + std::to_string(ndim) + " is not in 1..7");
    } else if (!dims) {
      runs = invalid("dims is null");
    } else if (order != PARIO_ORDER_C && order != PARIO_ORDER_FORTRAN) {
      runs = invalid("order " + std::to_string(order) + " is not PARIO_ORDER_C or PARIO_ORDER_FORTRAN");
    } else if (nblocks < 0) {
      runs = invalid("nblocks is negative");
    } else if (nblocks > 0 && (!starts || !counts)) {
      runs = invalid("starts or counts is null");
    } else {
      Shape shape{};
      std::copy(dims, dims + ndim, shape.begin());
      std::vector<Box> blocks(static_cast<size_t>(nblocks));
      for (int b = 0; b < nblocks; ++b) {
        blocks[b].ndim = ndim;
        for (int k = 0; k < ndim; ++k) {
          blocks[b].start[k] = starts[static_cast<size_t>(b) * ndim + k];
          blocks[b].count[k] = counts[static_cast<size_t>(b) * ndim + k];
        }
      }
      runs = collective::runs_of_blocks(ndim, shape, order == PARIO_ORDER_C ? collective::IndexOrder::kC
                                                                           : collective::IndexOrder::kFortran,
                                        blocks);
      if (runs.ok() && !checked_product(dims, static_cast<size_t>(ndim), &global_size)) {
        runs = invalid("the global shape has more than 2^63 elements");
      }
      e.args().add("dims", dims, static_cast<size_t>(ndim)).add("order", order);
      for (int k = 0; k < ndim; ++k) c_shape[k] = order == PARIO_ORDER_C ? dims[k] : dims[ndim - 1 - k];
    }
    const int shape_ndim = runs.ok() ? ndim : 0;
    return create(e, group, file_type, hints, std::move(runs), global_size, decomp_out, shape_ndim, c_shape);
  });
}

int pario_decomp_create_indices(pario_group_t group, int file_type, int64_t global_size, int64_t n,
                                const int64_t indices[], const pario_decomp_hints* hints,
                                pario_decomp_t* decomp_out) {
  static const char* call = "pario_decomp_create_indices";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    entry_group(e, group);
    Result<SortedRuns> runs = global_size < 0 ? Result<SortedRuns>(invalid("global_size is negative"))
                                              : collective::runs_of_indices(global_size, indices, n);
    e.args().add("global_size", global_size);
    return create(e, group, file_type, hints, std::move(runs), global_size, decomp_out);
  });
}

int pario_decomp_create_keys(pario_group_t group, int file_type, int64_t n, const int64_t keys[],
                             const pario_decomp_hints* hints, int64_t positions_out[], int64_t* global_size_out,
                             pario_decomp_t* decomp_out) {
  static const char* call = "pario_decomp_create_keys";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    entry_group(e, group);
    if (n < 0) e.check(invalid("n is negative"));
    if (n > 0 && !keys) e.check(invalid("keys is null"));
    if (!decomp_out) e.check(invalid("decomp_out is null"));
    if (!valid_element_type(file_type)) e.check(invalid("file_type " + std::to_string(file_type) + " is not a PARIO_TYPE_*"));
    Result<CollectiveOptions> options = collective_options(hints);
    e.check(options);
    PARIO_RETURN_IF_ERROR(e.agree());
    // The keys' dense positions (collective), then an index decomposition
    // of them, created through the same checks as the others.
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<comm::Group> g, shared_group(group));
    PARIO_ASSIGN_OR_RETURN(collective::KeyRanks ranked,
                           collective::rank_keys(g->comm_object(), keys, static_cast<size_t>(n)));
    Entry second(call);
    second.over(g.get());
    second.args().add("global_size", ranked.distinct);
    Result<SortedRuns> runs = collective::runs_of_indices(ranked.distinct, ranked.positions.data(), n);
    PARIO_RETURN_IF_ERROR(create(second, group, file_type, hints, std::move(runs), ranked.distinct, decomp_out));
    if (positions_out) std::copy(ranked.positions.begin(), ranked.positions.end(), positions_out);
    if (global_size_out) *global_size_out = ranked.distinct;
    return Status::Ok();
  });
}

int pario_decomp_free(pario_decomp_t* decomp) {
  static const char* call = "pario_decomp_free";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    if (!decomp) {
      e.check(invalid("decomp is null"));
    } else {
      entry_decomp(e, *decomp);
    }
    PARIO_RETURN_IF_ERROR(e.agree());
    std::shared_ptr<DecompHandle> h = decomps().remove(id_of(*decomp));
    *decomp = PARIO_DECOMP_NULL;
    return h->decomp->free();
  });
}

int pario_decomp_info(pario_decomp_t decomp, int64_t* global_size_out, int64_t* local_count_out,
                      int* aggregators_out, int* is_aggregator_out) {
  return guarded("pario_decomp_info", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(DecompHandle * h, live(decomps(), decomp, "decomposition"));
    const Decomposition& d = *h->decomp;
    if (global_size_out) *global_size_out = d.global_size();
    if (local_count_out) *local_count_out = d.local_count();
    if (aggregators_out) *aggregators_out = d.plan().aggregators();
    if (is_aggregator_out) *is_aggregator_out = d.is_aggregator() ? 1 : 0;
    return Status::Ok();
  });
}

int pario_decomp_write(pario_decomp_t decomp, pario_shared_file_t file, int64_t offset, int mem_type,
                       const void* buf) {
  return transfer("pario_decomp_write", true, decomp, file, offset, mem_type, buf, nullptr, true);
}

int pario_decomp_read(pario_decomp_t decomp, pario_shared_file_t file, int64_t offset, int mem_type, void* buf) {
  return transfer("pario_decomp_read", false, decomp, file, offset, mem_type, buf, nullptr, true);
}

int pario_decomp_iwrite(pario_decomp_t decomp, pario_shared_file_t file, int64_t offset, int mem_type,
                        const void* buf, pario_request_t* request_out) {
  return transfer("pario_decomp_iwrite", true, decomp, file, offset, mem_type, buf, request_out, false);
}

int pario_decomp_iread(pario_decomp_t decomp, pario_shared_file_t file, int64_t offset, int mem_type, void* buf,
                       pario_request_t* request_out) {
  return transfer("pario_decomp_iread", false, decomp, file, offset, mem_type, buf, request_out, false);
}

}  // extern "C"
