#include "device/fault_device.h"

#include <algorithm>
#include <cerrno>

namespace pario::device {
namespace {

// Each injected fault happens in this device's single attempt
// (read_some/write_some), so the retry loop being tested is the one in
// Device::read_at/write_at, the same code every real backend runs through.
class FaultDevice final : public Device {
 public:
  FaultDevice(std::unique_ptr<Device> inner, const FaultPlan& plan)
      : Device(inner->path()), inner_(std::move(inner)), plan_(plan) {}

  Status sync() override { return inner_->sync(); }
  Result<uint64_t> size() override { return inner_->size(); }
  Status truncate(uint64_t length) override { return inner_->truncate(length); }
  Status close() override { return inner_->close(); }
  // Never native: every transfer must pass through the injection points.
  uint32_t caps() const override { return inner_->caps() & ~kCapNativeFd; }

 protected:
  Result<size_t> read_some(uint64_t offset, void* buf, size_t len) override {
    size_t n = 0;
    PARIO_RETURN_IF_ERROR(inject(&len, plan_.fail_reads));
    PARIO_RETURN_IF_ERROR(inner_->read_at(offset, buf, len, &n));
    bytes_.fetch_add(n);
    return n;
  }
  Result<size_t> write_some(uint64_t offset, const void* buf, size_t len) override {
    PARIO_RETURN_IF_ERROR(inject(&len, true));
    PARIO_RETURN_IF_ERROR(inner_->write_at(offset, buf, len));
    bytes_.fetch_add(len);
    return len;
  }
  int64_t free_bytes() const override { return 0; }

 private:
  // Decides this attempt's fault; may shorten *len.
  Status inject(size_t* len, bool budgeted) {
    uint64_t call = calls_.fetch_add(1) + 1;
    if (plan_.eintr_every > 0 && call % plan_.eintr_every == 0) {
      return Status(Code::kIo, "injected EINTR", EINTR);
    }
    if (plan_.max_transfer > 0) *len = std::min(*len, plan_.max_transfer);
    if (budgeted && plan_.fail_errno != 0) {
      uint64_t used = bytes_.load();
      if (used >= plan_.fail_after_bytes) {
        return errno_status(plan_.fail_errno, "injected");
      }
      // Let exactly the budget through: the caller sees a short transfer,
      // then the failure on its next attempt.
      *len = std::min<uint64_t>(*len, plan_.fail_after_bytes - used);
    }
    return Status::Ok();
  }

  std::unique_ptr<Device> inner_;
  const FaultPlan plan_;
  std::atomic<uint64_t> calls_{0};
  std::atomic<uint64_t> bytes_{0};
};

}  // namespace

std::unique_ptr<Device> make_fault_device(std::unique_ptr<Device> inner,
                                          const FaultPlan& plan) {
  return std::make_unique<FaultDevice>(std::move(inner), plan);
}

}  // namespace pario::device
