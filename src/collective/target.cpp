#include "collective/target.h"

namespace pario::collective {

Result<std::shared_ptr<device::Request>> DeviceTarget::start(device::IoKind kind, uint64_t offset, void* buf,
                                                             size_t len) {
  auto request = std::make_shared<device::Request>(kind, device_, offset, buf, len, /*exact=*/false);
  engine_->submit(request);
  return request;
}

}  // namespace pario::collective
