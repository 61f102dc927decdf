// A device striped round-robin over several component devices (e.g. files
// on several local disks): byte b of the logical device lives in component
// (b / stripe) % n at offset (b / stripe / n) * stripe + b % stripe.
//
// The logical size is not stored anywhere: it is recomputed from the
// components' sizes (the furthest logical byte any of them holds), so
// several processes may share one striped file, each extending it, with no
// metadata to keep in step. A component that ends before the logical end of
// file holds a hole there, which reads as zeros, as in one plain file.
#include <algorithm>
#include <cstring>
#include <vector>

#include "device/device.h"

namespace pario::device {
namespace {

class StripedDevice final : public Device {
 public:
  StripedDevice(std::string name, std::vector<std::unique_ptr<Device>> parts, uint64_t stripe)
      : Device(std::move(name)), parts_(std::move(parts)), stripe_(stripe) {}
  ~StripedDevice() override { (void)close(); }

  Status sync() override {
    return each([](Device& d) { return d.sync(); });
  }

  Result<uint64_t> size() override {
    if (closed_) return closed_error();
    const uint64_t n = parts_.size();
    uint64_t end = 0;
    for (uint64_t i = 0; i < n; ++i) {
      PARIO_ASSIGN_OR_RETURN(uint64_t s, parts_[i]->size());
      if (s == 0) continue;
      const uint64_t last = s - 1;  // the component's last byte, as a logical offset
      end = std::max(end, ((last / stripe_) * n + i) * stripe_ + last % stripe_ + 1);
    }
    return end;
  }

  Status truncate(uint64_t length) override {
    if (closed_) return closed_error();
    const uint64_t n = parts_.size(), row = stripe_ * n;
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t rest = length % row;
      const uint64_t in_last = std::min(stripe_, rest > i * stripe_ ? rest - i * stripe_ : 0);
      PARIO_RETURN_IF_ERROR(parts_[i]->truncate(length / row * stripe_ + in_last));
    }
    return Status::Ok();
  }

  Status close() override {
    if (closed_) return Status::Ok();
    closed_ = true;
    Status first;
    for (auto& p : parts_) {
      Status s = p->close();
      if (first.ok()) first = s;
    }
    return first;
  }

 protected:
  // One call moves at most the rest of one stripe; Device's loop does the rest.
  Result<size_t> read_some(uint64_t offset, void* buf, size_t len) override {
    if (closed_) return closed_error();
    const Place at = place(offset, len);
    size_t got = 0;
    PARIO_RETURN_IF_ERROR(parts_[at.part]->read_at(at.offset, buf, at.len, &got));
    if (got == at.len) return got;
    // The component ends early: a hole, if the logical file goes further.
    PARIO_ASSIGN_OR_RETURN(uint64_t end, size());
    const uint64_t want = end > offset ? std::min<uint64_t>(at.len, end - offset) : 0;
    if (want > got) std::memset(static_cast<char*>(buf) + got, 0, want - got);
    return std::max<size_t>(got, want);
  }

  Result<size_t> write_some(uint64_t offset, const void* buf, size_t len) override {
    if (closed_) return closed_error();
    const Place at = place(offset, len);
    PARIO_RETURN_IF_ERROR(parts_[at.part]->write_at(at.offset, buf, at.len));
    return at.len;
  }

 private:
  struct Place {
    size_t part;
    uint64_t offset;
    size_t len;
  };

  Place place(uint64_t offset, size_t len) const {
    const uint64_t stripe = offset / stripe_, within = offset % stripe_;
    const size_t n = parts_.size();
    return {static_cast<size_t>(stripe % n), (stripe / n) * stripe_ + within,
            static_cast<size_t>(std::min<uint64_t>(len, stripe_ - within))};
  }

  template <typename Fn>
  Status each(Fn&& fn) {
    if (closed_) return closed_error();
    for (auto& p : parts_) PARIO_RETURN_IF_ERROR(fn(*p));
    return Status::Ok();
  }

  Status closed_error() const { return Status(Code::kState, path() + ": device is closed"); }

  std::vector<std::unique_ptr<Device>> parts_;
  const uint64_t stripe_;
  bool closed_ = false;
};

}  // namespace

Result<std::unique_ptr<Device>> open_striped(const std::vector<std::string>& paths,
                                             uint64_t stripe_size, const OpenOptions& options) {
  if (paths.empty()) return Status(Code::kInvalidArgument, "striping needs at least one path");
  if (stripe_size == 0) return Status(Code::kInvalidArgument, "stripe size is 0");
  std::vector<std::unique_ptr<Device>> parts;
  for (const std::string& p : paths) {
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Device> d, open_posix(p, options));
    parts.push_back(std::move(d));
  }
  const std::string name = paths[0] + " (+" + std::to_string(paths.size() - 1) + " stripes)";
  return std::unique_ptr<Device>(new StripedDevice(name, std::move(parts), stripe_size));
}

}  // namespace pario::device
