// C API: pario_request_wait/test/waitall over every kind of request.
#include "capi/request.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

#include "capi/boundary.h"
#include "capi/handles.h"

namespace pario::capi {
namespace {

HandleTable<Pending>& requests() {
  static auto* t = new HandleTable<Pending>();  // outlives static teardown
  return *t;
}

uint64_t id_of(pario_request_t r) { return reinterpret_cast<uintptr_t>(r); }

// The live collective requests in the order this rank started them, which
// is the order the group waits them in; and those a wait with a bad handle
// completed (refuse()), with that wait's error.
struct CollectiveOrder {
  std::mutex mu;
  std::deque<uint64_t> live;
  std::unordered_map<uint64_t, std::string> refused;
};

CollectiveOrder& collective_order() {
  static auto* o = new CollectiveOrder();  // outlives static teardown
  return *o;
}

size_t live_collective_requests() {
  CollectiveOrder& o = collective_order();
  std::lock_guard<std::mutex> lock(o.mu);
  return o.live.size();
}

// Takes id out of the live order; false if it was no longer there (a
// refusal on another thread completed it first).
bool forget_collective(uint64_t id) {
  CollectiveOrder& o = collective_order();
  std::lock_guard<std::mutex> lock(o.mu);
  auto it = std::find(o.live.begin(), o.live.end(), id);
  if (it == o.live.end()) return false;
  o.live.erase(it);
  return true;
}

Result<Pending*> live_request(const pario_request_t* req) {
  if (!req) return invalid("request pointer is null");
  if (*req == PARIO_REQUEST_NULL) return invalid("request is null (already waited, or never started)");
  Pending* p = requests().find(id_of(*req));
  if (!p) return invalid("request is stale (already waited)");
  return p;
}

// A wait whose handle is bad (`why`). Waits on collective requests are
// collective, so the group's other ranks may be in the end agreement of
// this rank's oldest one: it is completed here with `why` as this rank's
// outcome, and they get PARIO_ERR_REMOTE instead of waiting for ever.
// Waiting that request's own handle later reports this, nulls the handle,
// and joins nothing.
Status refuse(pario_request_t* req, Status why) {
  CollectiveOrder& o = collective_order();
  uint64_t oldest = 0;
  {
    std::lock_guard<std::mutex> lock(o.mu);
    if (req && *req != PARIO_REQUEST_NULL) {
      auto it = o.refused.find(id_of(*req));
      if (it != o.refused.end()) {
        Status earlier = invalid("request was completed by an earlier wait with a bad handle (" + it->second + ")");
        o.refused.erase(it);
        *req = PARIO_REQUEST_NULL;
        return earlier;
      }
    }
    if (o.live.empty()) return why;
    oldest = o.live.front();
    o.live.pop_front();
    o.refused[oldest] = why.message();
  }
  if (std::shared_ptr<Pending> p = requests().remove(oldest)) (void)p->wait_refusing(why);
  return Status(why.code(), why.message() +
                                " (this rank's oldest collective request was completed with this error, so that "
                                "the group's ranks waiting for it get PARIO_ERR_REMOTE)");
}

Status wait_one(pario_request_t* req) {
  Status checked = live_request(req).status();
  // Shared, not borrowed: a refusal on another thread may remove it.
  std::shared_ptr<Pending> p = checked.ok() ? requests().share(id_of(*req)) : nullptr;
  if (checked.ok() && !p) checked = invalid("request is stale (already waited)");
  // A collective one that a refusal on another thread took first is
  // reported as refused (refuse() finds it among those).
  if (checked.ok() && p->collective() && !forget_collective(id_of(*req))) {
    checked = invalid("request was completed by a wait with a bad handle");
  }
  if (!checked.ok()) return refuse(req, checked);
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
  if (p->collective()) {
    CollectiveOrder& o = collective_order();
    std::lock_guard<std::mutex> lock(o.mu);
    o.live.push_back(id);
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
    PARIO_RETURN_IF_ERROR(live_request(req).status());
    std::shared_ptr<Pending> p = requests().share(id_of(*req));  // kept alive while tested
    if (!p) return invalid("request is stale (already waited)");
    if (!done_out) return invalid("done_out is null");
    *done_out = p->test() ? 1 : 0;
    return Status::Ok();
  });
}

int pario_request_waitall(size_t count, pario_request_t* reqs) {
  return guarded("pario_request_waitall", [&]() -> Status {
    if (count > 0 && !reqs) {
      // Each missing handle stands for a request the group may be waiting
      // (no more of them than this rank has: count is the caller's).
      const Status why = invalid("request array is null");
      Status first = why;
      for (size_t i = 0; i < count && live_collective_requests() > 0; ++i) {
        Status s = refuse(nullptr, why);
        if (i == 0) first = s;
      }
      return first;
    }
    // Every request waited in order, a bad one as pario_request_wait
    // takes it, so that collective waits still meet the other ranks'.
    Status first;
    for (size_t i = 0; i < count; ++i) {
      Status s = wait_one(&reqs[i]);
      if (first.ok() && !s.ok()) first = s.with_context("request " + std::to_string(i));
    }
    return first;
  });
}

}  // extern "C"
