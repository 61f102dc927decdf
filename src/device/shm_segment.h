// Named POSIX shared memory for Files in Memory: the node-shared RAM that a
// file's bytes (or the node's RAM budget) live in.
//
// Names are /dev/shm/pario.<uid>.<pid>.<64 random bits in hex>, created
// 0600 with O_EXCL (shm_open never follows links), so nobody else can guess,
// read or pre-create them. The creator unlinks the name as soon as every
// process that needs it has attached (unlink_name), after which the memory
// goes away with the last process that maps it, kill -9 included. A name
// can outlive its creator only between create and unlink_name;
// remove_stale_segments deletes those of dead processes at start-up.
//
// The object grows only through grow(), which allocates the pages
// (fallocate): running out of RAM is then an error there, never a SIGBUS
// on a later store. The mapping is `capacity` bytes of address space from
// the start, so it never moves and any number of processes can grow it.
//
// Thread safety: grow() may run concurrently with loads and stores below
// the current size; everything else from one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/status.h"

namespace pario::device {

class ShmSegment {
 public:
  // A new object of size 0 that can grow to `capacity` bytes.
  static Result<std::unique_ptr<ShmSegment>> create(uint64_t capacity);
  // Maps an object another process created (same capacity). Refused
  // (kPermission) unless this user owns it and nobody else may open it.
  static Result<std::unique_ptr<ShmSegment>> attach(const std::string& name, uint64_t capacity);
  ~ShmSegment();
  ShmSegment(const ShmSegment&) = delete;
  ShmSegment& operator=(const ShmSegment&) = delete;

  char* data() const { return base_; }
  uint64_t capacity() const { return capacity_; }
  const std::string& name() const { return name_; }
  // Allocates [0, size) (no-op below the current size). kNoMemory when the
  // system has no more RAM for it, kOutOfRange past capacity.
  Status grow(uint64_t size);
  // Removes the name (the memory stays while mapped). Idempotent.
  void unlink_name();
  // Gives the object a lasting name of this user's prefix: atomically over
  // an object of that name (replace), or kExists when it is taken. The new
  // name is not this object's to remove (unlink_segment does).
  Status publish_as(const std::string& name, bool replace);

 private:
  ShmSegment() = default;
  static Result<std::unique_ptr<ShmSegment>> attach_mapping(std::unique_ptr<ShmSegment> s,
                                                           uint64_t capacity);
  std::string name_;
  int fd_ = -1;
  char* base_ = nullptr;
  uint64_t capacity_ = 0;
  bool named_ = false;  // this process still owns the name
};

// Deletes this user's segments whose creating process is gone. Returns how
// many it removed.
Result<int> remove_stale_segments();

// The /dev/shm prefix of this user's segments ("pario.<uid>.").
std::string segment_prefix();
// Removes a published name; false if there was none.
bool unlink_segment(const std::string& name);

}  // namespace pario::device
