// C API: pario_request_wait/test/waitall over every kind of request.
#include "capi/request.h"

#include <string>

#include "capi/boundary.h"
#include "capi/handles.h"

namespace pario::capi {
namespace {

HandleTable<Pending>& requests() {
  static auto* t = new HandleTable<Pending>();  // outlives static teardown
  return *t;
}

uint64_t id_of(pario_request_t r) { return reinterpret_cast<uintptr_t>(r); }

Result<Pending*> live_request(const pario_request_t* req) {
  if (!req) return invalid("request pointer is null");
  if (*req == PARIO_REQUEST_NULL) return invalid("request is null (already waited, or never started)");
  Pending* p = requests().find(id_of(*req));
  if (!p) return invalid("request is stale (already waited)");
  return p;
}

Status wait_one(pario_request_t* req) {
  PARIO_ASSIGN_OR_RETURN(Pending * p, live_request(req));
  Status s = p->wait();
  requests().remove(id_of(*req));
  *req = PARIO_REQUEST_NULL;
  return s;
}

}  // namespace

Status publish_request(std::shared_ptr<Pending> p, pario_request_t* req_out) {
  uint64_t id = requests().insert(p);
  if (id == 0) {
    (void)p->wait();  // cannot hand it out: finish it here, report why
    return Status(Code::kNoMemory, "too many outstanding requests (handle table full)");
  }
  *req_out = reinterpret_cast<pario_request_t>(static_cast<uintptr_t>(id));
  return Status::Ok();
}

}  // namespace pario::capi

using namespace pario;        // NOLINT: this file is the C boundary
using namespace pario::capi;  // NOLINT

extern "C" {

int pario_request_wait(pario_request_t* req) {
  return guarded("pario_request_wait", [&]() -> Status { return wait_one(req); });
}

int pario_request_test(pario_request_t* req, int* done_out) {
  return guarded("pario_request_test", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(Pending * p, live_request(req));
    if (!done_out) return invalid("done_out is null");
    *done_out = p->test() ? 1 : 0;
    return Status::Ok();
  });
}

int pario_request_waitall(size_t count, pario_request_t* reqs) {
  return guarded("pario_request_waitall", [&]() -> Status {
    if (count > 0 && !reqs) return invalid("request array is null");
    // Check every handle first, so a bad one is reported before any wait
    // frees the others.
    for (size_t i = 0; i < count; ++i) {
      Status s = live_request(&reqs[i]).status();
      if (!s.ok()) return s.with_context("request " + std::to_string(i));
    }
    Status first;
    for (size_t i = 0; i < count; ++i) {
      Status s = wait_one(&reqs[i]);
      if (first.ok() && !s.ok()) first = s.with_context("request " + std::to_string(i));
    }
    return first;
  });
}

}  // extern "C"
