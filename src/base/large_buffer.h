// A large byte buffer the library owns, laid out so that the kernel can
// back it with transparent huge pages.
//
// Why: the collective engine permutes elements through its own buffers
// (the packed copy, the aggregator's windows and staging buffer). A random
// permutation of 32 Mi doubles touches a new 4 KiB page at almost every
// element, so with 4 KiB pages nearly every access is also a TLB miss and
// a page walk (two-dimensional in a virtual machine); with 2 MiB pages the
// 256 MiB fit the TLB (docs/performance.md, "Collective I/O: permuting
// elements"). A buffer of at least kHugePage bytes is therefore mapped on
// its own, aligned to kHugePage and rounded up to a multiple of it, and
// marked MADV_HUGEPAGE (the kernel's "madvise" mode backs only such
// ranges). Smaller buffers come from the heap. Where the kernel has no
// transparent huge pages the mapping is used as it is.
//
// The contents are unspecified on allocation (fresh mappings read as
// zeros, heap memory does not). A buffer is freed by its destructor.
//
// Thread safety: a value (move-only); distinct buffers may be used from
// any threads.
#pragma once

#include <cstddef>

namespace pario {

class LargeBuffer {
 public:
  static constexpr size_t kHugePage = size_t{2} << 20;

  LargeBuffer() = default;
  LargeBuffer(LargeBuffer&& other) noexcept { *this = static_cast<LargeBuffer&&>(other); }
  LargeBuffer& operator=(LargeBuffer&& other) noexcept;
  LargeBuffer(const LargeBuffer&) = delete;
  LargeBuffer& operator=(const LargeBuffer&) = delete;
  ~LargeBuffer() { reset(); }

  // A buffer of at least `bytes` (> 0) bytes; empty when the memory is not
  // there (the caller reports kNoMemory).
  static LargeBuffer allocate(size_t bytes);

  char* get() const { return data_; }
  size_t size() const { return size_; }  // as asked
  explicit operator bool() const { return data_ != nullptr; }
  // Whether the buffer is its own huge-page-aligned mapping marked for huge pages.
  bool huge() const { return mapped_ > 0; }
  void reset();

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
  size_t mapped_ = 0;  // bytes of the own mapping; 0: from the heap
};

}  // namespace pario
