// One handle table for every kind of nonblocking operation, so that
// pario_request_wait/test/waitall complete file and array requests alike.
#pragma once

#include <memory>

#include "base/status.h"
#include "pario/request.h"

namespace pario::capi {

// A nonblocking operation as the C API sees it.
class Pending {
 public:
  virtual ~Pending() = default;
  // Blocks until complete; returns the operation's outcome.
  virtual Status wait() = 0;
  // True once complete.
  virtual bool test() = 0;
  // True when wait() is collective: the group's ranks wait such requests
  // in the order they started them (disk-array and decomposition
  // transfers).
  virtual bool collective() const { return false; }
  // Completes the operation with `refusal` as this rank's outcome; a
  // collective one still takes part in its end agreement, so the other
  // ranks get kRemote instead of waiting for this one.
  virtual Status wait_refusing(const Status& refusal) {
    (void)wait();
    return refusal;
  }
};

// Hands out a handle for p. If the table is full, p is completed here and
// kNoMemory returned (nothing is left running without a handle).
Status publish_request(std::shared_ptr<Pending> p, pario_request_t* req_out);

}  // namespace pario::capi
