// A Device that wraps another and injects the failures real storage
// produces: short transfers, EINTR, ENOSPC, EIO, and failure after a given
// number of bytes. Tests use it to prove that the retry loops in Device and
// the error paths above it behave; it is never chosen at run time.
//
// Thread safety: as the wrapped device; the fault plan is fixed at creation.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "device/device.h"

namespace pario::device {

struct FaultPlan {
  size_t max_transfer = 0;   // cap each attempt at this many bytes (0: off)
  int eintr_every = 0;       // every Nth attempt fails with EINTR (0: off)
  int fail_errno = 0;        // errno for the failure below (ENOSPC, EIO, ...)
  uint64_t fail_after_bytes = UINT64_MAX;  // writes past this many bytes
                                           // in total fail with fail_errno
  bool fail_reads = false;   // apply fail_after_bytes to reads as well
};

std::unique_ptr<Device> make_fault_device(std::unique_ptr<Device> inner,
                                          const FaultPlan& plan);

}  // namespace pario::device
