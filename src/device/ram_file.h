// Files in Memory: a file's bytes in node-shared RAM, under a RAM budget
// per node, spilling to disk when the budget is spent.
//
// RamBudget is the node's account: a limit and the bytes in use, in one
// shared segment that every rank of the node maps. RamFile is one file's
// shared segment: a header (logical size, where RAM ends, counters) and
// then the bytes. Every process that opens the file maps the same segment,
// so ranks of a node see each other's writes at memory speed.
//
// Layout of a file: bytes [0, ram_end) live in RAM, bytes from ram_end on
// live in the spill device (the disk file), at their own offsets. ram_end
// grows in 1 MiB steps as writes reach past it, each step reserved from the
// budget and allocated; the first step the budget (or the system) refuses
// freezes ram_end for good, so RAM and disk never hold the same offsets.
// Holes read as zeros on both sides.
//
// The budget gets a file's RAM back when the last process holding the file
// lets go of it (a count in the header).
//
// Thread safety: devices may be used concurrently; growth is serialized by
// a spin lock in the header (taken once per MiB).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "base/status.h"
#include "device/device.h"
#include "device/shm_segment.h"

namespace pario::device {

class RamBudget {
 public:
  static Result<std::shared_ptr<RamBudget>> create(uint64_t limit);
  static Result<std::shared_ptr<RamBudget>> attach(const std::string& name);
  const std::string& name() const { return segment_->name(); }
  void unlink_name() { segment_->unlink_name(); }
  uint64_t limit() const;
  uint64_t used() const;
  // Takes n bytes from the budget, or returns false (nothing taken).
  bool reserve(uint64_t n);
  void release(uint64_t n);

 private:
  struct Header;
  explicit RamBudget(std::unique_ptr<ShmSegment> s);
  Header* header() const;
  std::unique_ptr<ShmSegment> segment_;
};

class RamFile {
 public:
  // A new, empty file (its own segment).
  static Result<std::shared_ptr<RamFile>> create(std::shared_ptr<RamBudget> budget);
  // The file another process created, by its segment name.
  static Result<std::shared_ptr<RamFile>> attach(const std::string& name,
                                                 std::shared_ptr<RamBudget> budget);
  ~RamFile();

  const std::string& name() const { return segment_->name(); }
  void unlink_name() { segment_->unlink_name(); }
  uint64_t size() const;
  uint64_t ram_end() const;      // bytes [0, ram_end) are in RAM
  uint64_t spilled() const;      // bytes written to the spill device
  bool frozen() const;           // RAM stopped growing (budget spent)
  // The RAM part's bytes as mapped in this process (fixed for the file's
  // life): for the file layer, which writes them remotely with MPI.
  char* bytes() const;
  // Fixes the RAM part of a fresh file at exactly [0, end): reserved from
  // the budget and allocated now, and frozen there. A file copied on
  // several nodes needs the same RAM part on each. kNoSpace if the budget
  // or the system refuses (nothing is then taken).
  Status fix_ram(uint64_t end);
  // Sets the logical size (a copy whose writers kept the size elsewhere).
  void set_size(uint64_t size);
  // Counts bytes a writer put in the spill device itself.
  void count_spilled(uint64_t n);
  // A file that other processes find by a name of its own (a disk array's
  // file in RAM): published under `name` (ShmSegment::publish_as), with
  // `tag` telling which path it stands for, since names come from a hash.
  Status publish_as(const std::string& name, uint64_t tag, bool replace);
  uint64_t tag() const;
  // Random, fixed at create: files that stand for one path in turn (a
  // replaced one, its replacement) have different ids.
  uint64_t id() const;
  // Set on a published file when a newer one took its name.
  bool replaced() const;
  void mark_replaced();

 private:
  friend class RamDevice;
  struct Header;
  RamFile(std::unique_ptr<ShmSegment> s, std::shared_ptr<RamBudget> budget);
  Header* header() const;
  // Makes [0, end) RAM if the budget allows; never fails (RAM just stops).
  void extend_ram(uint64_t end);

  std::unique_ptr<ShmSegment> segment_;
  std::shared_ptr<RamBudget> budget_;
};

// Opens the spill device: creating it (first spilled write) or not (a
// read, where a missing file means nothing spilled yet: kNotFound).
using SpillOpener = std::function<Result<std::unique_ptr<Device>>(bool create)>;

// The disk side of a file in RAM: opened on first use, thread-safe.
class LazyDevice {
 public:
  explicit LazyDevice(SpillOpener open) : open_(std::move(open)) {}
  // The device; null when not creating and it does not exist (nothing
  // written there yet). Errors name `what`.
  Result<Device*> get(bool create, const std::string& what);
  Status sync();
  Status close();

 private:
  SpillOpener open_;
  std::mutex mu_;
  std::unique_ptr<Device> device_;
};

// A Device over a RamFile. `path` names it in messages and statistics.
std::unique_ptr<Device> make_ram_device(const std::string& path, std::shared_ptr<RamFile> file,
                                        SpillOpener spill);

}  // namespace pario::device
