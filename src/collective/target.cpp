#include "collective/target.h"

namespace pario::collective {

Result<std::shared_ptr<device::Request>> DeviceTarget::start(device::IoKind kind, uint64_t offset, void* buf,
                                                             size_t len) {
  auto request = std::make_shared<device::Request>(kind, device_, offset, buf, len, /*exact=*/false);
  engine_->submit(request);
  return request;
}

Status DeviceTarget::run(device::IoKind kind, uint64_t offset, void* buf, size_t len, size_t* moved) {
  device::Request request(kind, device_, offset, buf, len, /*exact=*/false);
  device::execute(request);
  *moved = request.transferred();
  return request.status();
}

Status Target::run(device::IoKind kind, uint64_t offset, void* buf, size_t len, size_t* moved) {
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<device::Request> request, start(kind, offset, buf, len));
  device::wait(*request);
  *moved = request->transferred();
  return request->status();
}

}  // namespace pario::collective
