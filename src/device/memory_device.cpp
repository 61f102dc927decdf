// The heap-memory backend: the simplest correct Device, and the reference
// the conformance suite compares every other backend against.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include "device/device.h"

namespace pario::device {
namespace {

class MemoryDevice final : public Device {
 public:
  explicit MemoryDevice(std::string name) : Device(std::move(name)) {}

  Status sync() override { return open_or_error(); }
  Result<uint64_t> size() override {
    PARIO_RETURN_IF_ERROR(open_or_error());
    std::shared_lock<std::shared_mutex> lock(mu_);
    return static_cast<uint64_t>(bytes_.size());
  }
  Status truncate(uint64_t length) override {
    PARIO_RETURN_IF_ERROR(open_or_error());
    std::unique_lock<std::shared_mutex> lock(mu_);
    return resize(length);
  }
  Status close() override {
    std::unique_lock<std::shared_mutex> lock(mu_);
    closed_ = true;
    std::vector<char>().swap(bytes_);
    return Status::Ok();
  }
  uint32_t caps() const override { return kCapMemory; }

 protected:
  Result<size_t> read_some(uint64_t offset, void* buf, size_t len) override {
    std::shared_lock<std::shared_mutex> lock(mu_);
    if (closed_) return Status(Code::kState, "device is closed");
    if (offset >= bytes_.size()) return size_t{0};
    size_t n = std::min<uint64_t>(len, bytes_.size() - offset);
    std::memcpy(buf, bytes_.data() + offset, n);
    return n;
  }
  Result<size_t> write_some(uint64_t offset, const void* buf, size_t len) override {
    std::unique_lock<std::shared_mutex> lock(mu_);
    if (closed_) return Status(Code::kState, "device is closed");
    if (offset + len > bytes_.size()) PARIO_RETURN_IF_ERROR(resize(offset + len));
    std::memcpy(bytes_.data() + offset, buf, len);
    return len;
  }

 private:
  Status open_or_error() const {
    return closed_ ? Status(Code::kState, "device is closed") : Status::Ok();
  }
  Status resize(uint64_t length) {
    try {
      bytes_.resize(length);  // zero-fills growth: holes read as zeros
    } catch (const std::bad_alloc&) {
      return Status(Code::kNoMemory, "memory device: cannot grow to " +
                                         std::to_string(length) + " bytes");
    } catch (const std::length_error&) {
      return Status(Code::kNoMemory, "memory device: " + std::to_string(length) +
                                         " bytes is too large");
    }
    return Status::Ok();
  }

  std::shared_mutex mu_;
  std::vector<char> bytes_;
  bool closed_ = false;
};

}  // namespace

std::unique_ptr<Device> make_memory_device(const std::string& name) {
  return std::make_unique<MemoryDevice>(name);
}

}  // namespace pario::device
