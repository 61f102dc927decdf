// What collective I/O writes into and reads from: anything that moves
// contiguous byte ranges at offsets.
//
// Aggregators call a Target only from the thread running the collective
// call, so a target that is not thread-safe (Debian's parallel HDF5) may do
// its work inside start() and return a completed request; a device with an
// asynchronous engine returns at once and the aggregator goes on with the
// next round's exchange while the bytes move (the pipeline of
// collective/transfer.h).
//
// Ownership: the caller owns the Target and keeps it alive until every
// transfer using it has been waited.
#pragma once

#include <cstdint>
#include <memory>

#include "base/status.h"
#include "device/async.h"
#include "device/device.h"

namespace pario::collective {

class Target {
 public:
  virtual ~Target() = default;
  // Starts moving len bytes between buf and the target at offset; buf is
  // borrowed until the request is done (device::wait / device::test). A
  // read may end early at the end of the target (request->transferred()).
  virtual Result<std::shared_ptr<device::Request>> start(device::IoKind kind, uint64_t offset, void* buf,
                                                         size_t len) = 0;
  // The current end of the target in bytes (reads stop there).
  virtual Result<uint64_t> size() = 0;
  // Moves len bytes on the calling thread and returns when they have
  // moved: for the last request of a blocking transfer, which has nothing
  // left to overlap, so the bytes need no hand-off to an I/O thread (on
  // the EPYC VMs a buffered write from another thread than the one that
  // freed the pages ran 4-10x slower: docs/performance.md). A read stops
  // early at the end of the target (*moved). By default start() and wait.
  virtual Status run(device::IoKind kind, uint64_t offset, void* buf, size_t len, size_t* moved);
};

// A device through an asynchronous engine (both borrowed).
class DeviceTarget final : public Target {
 public:
  DeviceTarget(device::Device* device, device::AsyncEngine* engine) : device_(device), engine_(engine) {}
  Result<std::shared_ptr<device::Request>> start(device::IoKind kind, uint64_t offset, void* buf,
                                                 size_t len) override;
  Result<uint64_t> size() override { return device_->size(); }
  Status run(device::IoKind kind, uint64_t offset, void* buf, size_t len, size_t* moved) override;

 private:
  device::Device* device_;
  device::AsyncEngine* engine_;
};

}  // namespace pario::collective
