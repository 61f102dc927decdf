#include "device/engine_device.h"

#include <vector>

namespace pario::device {
namespace {

class EngineDevice final : public Device {
 public:
  EngineDevice(std::unique_ptr<Device> inner, AsyncEngine* engine)
      : Device(inner->path()), inner_(std::move(inner)), engine_(engine) {}

  Status sync() override { return inner_->sync(); }
  Result<uint64_t> size() override { return inner_->size(); }
  Status truncate(uint64_t length) override { return inner_->truncate(length); }
  Status close() override { return inner_->close(); }
  uint32_t caps() const override { return inner_->caps(); }
  uint64_t ram_bytes() const override { return inner_->ram_bytes(); }
  uint64_t spilled_bytes() const override { return inner_->spilled_bytes(); }

 protected:
  Result<size_t> read_some(uint64_t offset, void* buf, size_t len) override {
    iovec v{buf, len};
    return transfer(IoKind::kRead, offset, &v, 1);
  }
  Result<size_t> write_some(uint64_t offset, const void* buf, size_t len) override {
    iovec v{const_cast<void*>(buf), len};
    return transfer(IoKind::kWrite, offset, &v, 1);
  }
  Result<size_t> readv_some(uint64_t offset, const iovec* iov, int count) override {
    return transfer(IoKind::kRead, offset, iov, count);
  }
  Result<size_t> writev_some(uint64_t offset, const iovec* iov, int count) override {
    return transfer(IoKind::kWrite, offset, iov, count);
  }

 private:
  // The buffers at consecutive offsets, all submitted, then waited for:
  // the bytes moved before the first short or failed one.
  Result<size_t> transfer(IoKind kind, uint64_t offset, const iovec* iov, int count) {
    std::vector<std::shared_ptr<Request>> requests;
    requests.reserve(static_cast<size_t>(count));
    uint64_t at = offset;
    for (int i = 0; i < count; ++i) {
      requests.push_back(std::make_shared<Request>(kind, inner_.get(), at, iov[i].iov_base, iov[i].iov_len, false));
      engine_->submit(requests.back());
      at += iov[i].iov_len;
    }
    size_t done = 0;
    Status first;
    bool whole = true;
    for (size_t i = 0; i < requests.size(); ++i) {
      wait(*requests[i]);  // by the engine that took it; every request ends before its buffer may go
      if (!whole) continue;
      if (!requests[i]->status().ok()) {
        first = requests[i]->status();
        whole = false;
        continue;
      }
      done += requests[i]->transferred();
      whole = requests[i]->transferred() == iov[i].iov_len;
    }
    if (done == 0 && !first.ok()) return first;
    return done;
  }

  std::unique_ptr<Device> inner_;
  AsyncEngine* const engine_;
};

}  // namespace

std::unique_ptr<Device> through_engine(std::unique_ptr<Device> device, AsyncEngine* engine) {
  return std::make_unique<EngineDevice>(std::move(device), engine);
}

}  // namespace pario::device
