#include "device/ram_file.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>

namespace pario::device {
namespace {

constexpr uint64_t kHeaderBytes = 4096;  // the data starts page-aligned
constexpr uint64_t kStep = uint64_t{1} << 20;
constexpr uint64_t kBudgetMagic = 0x7061726961627564ull;  // "pariabud"
constexpr uint64_t kFileMagic = 0x7061726961666d31ull;    // "pariafm1"

static_assert(std::atomic<uint64_t>::is_always_lock_free, "atomics in shared memory must be lock-free");

}  // namespace

// ---- budget ----

struct RamBudget::Header {
  uint64_t magic;
  uint64_t limit;
  std::atomic<uint64_t> used;
};

RamBudget::RamBudget(std::unique_ptr<ShmSegment> s) : segment_(std::move(s)) {}
RamBudget::Header* RamBudget::header() const { return reinterpret_cast<Header*>(segment_->data()); }
uint64_t RamBudget::limit() const { return header()->limit; }
uint64_t RamBudget::used() const { return header()->used.load(std::memory_order_relaxed); }

Result<std::shared_ptr<RamBudget>> RamBudget::create(uint64_t limit) {
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<ShmSegment> s, ShmSegment::create(kHeaderBytes));
  PARIO_RETURN_IF_ERROR(s->grow(kHeaderBytes));
  Header* h = new (s->data()) Header{kBudgetMagic, limit, {0}};
  (void)h;
  return std::shared_ptr<RamBudget>(new RamBudget(std::move(s)));
}

Result<std::shared_ptr<RamBudget>> RamBudget::attach(const std::string& name) {
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<ShmSegment> s, ShmSegment::attach(name, kHeaderBytes));
  if (reinterpret_cast<Header*>(s->data())->magic != kBudgetMagic) {
    return Status(Code::kCorrupt, name + " is not a pario RAM budget");
  }
  return std::shared_ptr<RamBudget>(new RamBudget(std::move(s)));
}

bool RamBudget::reserve(uint64_t n) {
  Header* h = header();
  uint64_t used = h->used.load(std::memory_order_relaxed);
  do {
    if (n > h->limit - std::min(used, h->limit)) return false;
  } while (!h->used.compare_exchange_weak(used, used + n, std::memory_order_relaxed));
  return true;
}

void RamBudget::release(uint64_t n) { header()->used.fetch_sub(n, std::memory_order_relaxed); }

// ---- one file ----

struct RamFile::Header {
  uint64_t magic;
  std::atomic<uint64_t> size;      // logical size
  std::atomic<uint64_t> ram_end;   // [0, ram_end) in RAM
  std::atomic<uint64_t> frozen;    // 1: RAM stopped growing
  std::atomic<uint64_t> spilled;   // bytes written to the spill device
  std::atomic<uint64_t> holders;   // processes holding the file
  std::atomic<uint32_t> growing;   // spin lock of extend_ram
  std::atomic<uint64_t> tag;       // published files: which path the name stands for
  std::atomic<uint64_t> replaced;  // 1: another file took its name
  uint64_t id;                     // random, fixed at create: tells files of one path apart
};

RamFile::RamFile(std::unique_ptr<ShmSegment> s, std::shared_ptr<RamBudget> budget)
    : segment_(std::move(s)), budget_(std::move(budget)) {
  header()->holders.fetch_add(1);
}

RamFile::~RamFile() {
  // The last holder gives the file's RAM back (the segment's name is gone
  // by now, so the pages go with the last mapping).
  if (header()->holders.fetch_sub(1) == 1) budget_->release(ram_end());
}

RamFile::Header* RamFile::header() const { return reinterpret_cast<Header*>(segment_->data()); }
char* RamFile::bytes() const { return segment_->data() + kHeaderBytes; }
uint64_t RamFile::size() const { return header()->size.load(); }
uint64_t RamFile::ram_end() const { return header()->ram_end.load(); }
uint64_t RamFile::spilled() const { return header()->spilled.load(); }
bool RamFile::frozen() const { return header()->frozen.load() != 0; }

Result<std::shared_ptr<RamFile>> RamFile::create(std::shared_ptr<RamBudget> budget) {
  if (!budget) return Status(Code::kInvalidArgument, "RAM file without a budget");
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<ShmSegment> s,
                         ShmSegment::create(kHeaderBytes + std::max<uint64_t>(budget->limit(), 1)));
  PARIO_RETURN_IF_ERROR(s->grow(kHeaderBytes));
  std::random_device random;
  const uint64_t id = (uint64_t{random()} << 32) ^ random();
  new (s->data()) Header{kFileMagic, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, id};
  return std::shared_ptr<RamFile>(new RamFile(std::move(s), std::move(budget)));
}

Result<std::shared_ptr<RamFile>> RamFile::attach(const std::string& name,
                                                 std::shared_ptr<RamBudget> budget) {
  if (!budget) return Status(Code::kInvalidArgument, "RAM file without a budget");
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<ShmSegment> s,
                         ShmSegment::attach(name, kHeaderBytes + std::max<uint64_t>(budget->limit(), 1)));
  if (reinterpret_cast<Header*>(s->data())->magic != kFileMagic) {
    return Status(Code::kCorrupt, name + " is not a pario RAM file");
  }
  return std::shared_ptr<RamFile>(new RamFile(std::move(s), std::move(budget)));
}

void RamFile::extend_ram(uint64_t end) {
  Header* h = header();
  if (end <= h->ram_end.load() || h->frozen.load()) return;
  while (h->growing.exchange(1, std::memory_order_acquire)) std::this_thread::yield();
  const uint64_t cur = h->ram_end.load();
  if (end > cur && !h->frozen.load()) {
    const uint64_t want = std::min((end + kStep - 1) / kStep * kStep, budget_->limit());
    if (want <= cur || !budget_->reserve(want - cur)) {
      h->frozen.store(1);
    } else if (!segment_->grow(kHeaderBytes + want).ok()) {  // the system is out of RAM
      budget_->release(want - cur);
      h->frozen.store(1);
    } else {
      h->ram_end.store(want);
    }
  }
  h->growing.store(0, std::memory_order_release);
}

Status RamFile::fix_ram(uint64_t end) {
  Header* h = header();
  if (h->ram_end.load() != 0 || h->frozen.load()) {
    return Status(Code::kState, name() + ": the RAM part is already set");
  }
  if (end > budget_->limit() || !budget_->reserve(end)) {
    return Status(Code::kNoSpace, "the RAM budget cannot hold " + std::to_string(end) + " more bytes");
  }
  Status grown = segment_->grow(kHeaderBytes + end);
  if (!grown.ok()) {
    budget_->release(end);
    return grown;
  }
  h->ram_end.store(end);
  h->frozen.store(1);
  return Status::Ok();
}

void RamFile::set_size(uint64_t size) { header()->size.store(size); }
uint64_t RamFile::tag() const { return header()->tag.load(); }
uint64_t RamFile::id() const { return header()->id; }
bool RamFile::replaced() const { return header()->replaced.load() != 0; }
void RamFile::mark_replaced() { header()->replaced.store(1); }

Status RamFile::publish_as(const std::string& name, uint64_t tag, bool replace) {
  header()->tag.store(tag);
  return segment_->publish_as(name, replace);
}
void RamFile::count_spilled(uint64_t n) { header()->spilled.fetch_add(n); }

// ---- the device ----

class RamDevice final : public Device {
 public:
  RamDevice(std::string path, std::shared_ptr<RamFile> file, SpillOpener spill)
      : Device(std::move(path)), file_(std::move(file)), spill_(std::move(spill)) {}

  Status sync() override {
    PARIO_RETURN_IF_ERROR(open_or_error());
    return spill_.sync();
  }
  Result<uint64_t> size() override {
    PARIO_RETURN_IF_ERROR(open_or_error());
    return file_->size();
  }
  Status truncate(uint64_t length) override {
    PARIO_RETURN_IF_ERROR(open_or_error());
    RamFile::Header* h = file_->header();
    const uint64_t ram = h->ram_end.load();
    const uint64_t in_ram = std::min(ram, h->size.load());
    // Bytes cut off must read as zeros if the file grows again.
    if (length < in_ram) std::memset(file_->bytes() + length, 0, in_ram - length);
    if (h->spilled.load()) {
      PARIO_ASSIGN_OR_RETURN(Device * d, spill(true));
      PARIO_RETURN_IF_ERROR(d->truncate(std::max(length, ram)));
    }
    h->size.store(length);
    return Status::Ok();
  }
  Status close() override {
    if (!file_) return Status::Ok();
    file_.reset();
    return spill_.close();
  }
  uint32_t caps() const override { return kCapMemory; }
  uint64_t ram_bytes() const override { return file_ ? std::min(file_->size(), file_->ram_end()) : 0; }
  uint64_t spilled_bytes() const override { return file_ ? file_->spilled() : 0; }

 protected:
  Result<size_t> read_some(uint64_t offset, void* buf, size_t len) override {
    PARIO_RETURN_IF_ERROR(open_or_error());
    const uint64_t size = file_->size();
    if (offset >= size) return size_t{0};
    len = std::min<uint64_t>(len, size - offset);
    const uint64_t ram = file_->ram_end();
    if (offset < ram) {
      const size_t n = std::min<uint64_t>(len, ram - offset);
      std::memcpy(buf, file_->bytes() + offset, n);
      return n;
    }
    // On the disk side: what the spill file lacks is a hole.
    size_t got = 0;
    if (file_->spilled()) {
      PARIO_ASSIGN_OR_RETURN(Device * d, spill(false));
      if (d) PARIO_RETURN_IF_ERROR(d->read_at(offset, buf, len, &got));
    }
    std::memset(static_cast<char*>(buf) + got, 0, len - got);
    return len;
  }

  Result<size_t> write_some(uint64_t offset, const void* buf, size_t len) override {
    PARIO_RETURN_IF_ERROR(open_or_error());
    file_->extend_ram(offset + len);
    const uint64_t ram = file_->ram_end();
    size_t n = len;
    if (offset < ram) {
      n = std::min<uint64_t>(len, ram - offset);
      std::memcpy(file_->bytes() + offset, buf, n);
    } else {
      PARIO_ASSIGN_OR_RETURN(Device * d, spill(true));
      PARIO_RETURN_IF_ERROR(d->write_at(offset, buf, len));
      file_->count_spilled(len);
    }
    std::atomic<uint64_t>& size = file_->header()->size;
    uint64_t cur = size.load();
    while (offset + n > cur && !size.compare_exchange_weak(cur, offset + n)) {
    }
    return n;
  }

 private:
  Status open_or_error() const {
    return file_ ? Status::Ok() : Status(Code::kState, "device is closed");
  }
  // The spill device; null if reading and nothing was spilled yet.
  Result<Device*> spill(bool create) { return spill_.get(create, path() + ": spill to disk"); }

  std::shared_ptr<RamFile> file_;
  LazyDevice spill_;
};

Result<Device*> LazyDevice::get(bool create, const std::string& what) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!device_) {
    Result<std::unique_ptr<Device>> d = open_(create);
    if (!d.ok()) {
      if (!create && d.status().code() == Code::kNotFound) return nullptr;
      return std::move(d).status().with_context(what);
    }
    device_ = std::move(d).value();
  }
  return device_.get();
}

Status LazyDevice::sync() {
  std::lock_guard<std::mutex> lock(mu_);
  return device_ ? device_->sync() : Status::Ok();
}

Status LazyDevice::close() {
  std::lock_guard<std::mutex> lock(mu_);
  Status s = device_ ? device_->close() : Status::Ok();
  device_.reset();
  return s;
}

std::unique_ptr<Device> make_ram_device(const std::string& path, std::shared_ptr<RamFile> file,
                                        SpillOpener spill) {
  return std::make_unique<RamDevice>(path, std::move(file), std::move(spill));
}

}  // namespace pario::device
