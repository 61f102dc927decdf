// A device whose transfers go through an asynchronous engine: for callers
// that move bytes on threads of their own (a disk array's I/O threads) but
// are to use the engine the configuration chose, io_uring above all.
//
// Each transfer is submitted and waited for; a vectored one is submitted
// as one request per buffer, all at once, so that the engine (the kernel's
// ring) has them in flight together.
#pragma once

#include <memory>

#include "device/async.h"
#include "device/device.h"

namespace pario::device {

// engine must outlive the device.
std::unique_ptr<Device> through_engine(std::unique_ptr<Device> device, AsyncEngine* engine);

}  // namespace pario::device
