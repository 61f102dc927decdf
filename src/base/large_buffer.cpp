#include "base/large_buffer.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <utility>

namespace pario {

LargeBuffer& LargeBuffer::operator=(LargeBuffer&& other) noexcept {
  if (this != &other) {
    reset();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, 0);
  }
  return *this;
}

LargeBuffer LargeBuffer::allocate(size_t bytes) {
  LargeBuffer b;
  if (bytes == 0) return b;
  if (bytes < kHugePage) {
    b.data_ = new (std::nothrow) char[bytes];
    if (b.data_) b.size_ = bytes;
    return b;
  }
  if (bytes > SIZE_MAX - 2 * kHugePage) return b;
  const size_t mapped = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  // Map one huge page more than needed and cut the unaligned head and tail
  // off, so that the buffer starts on a huge page boundary.
  const size_t over = mapped + kHugePage;
  void* p = mmap(nullptr, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return b;
  char* base = static_cast<char*>(p);
  char* aligned = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(base) + kHugePage - 1) & ~(kHugePage - 1));
  if (aligned > base) munmap(base, static_cast<size_t>(aligned - base));
  char* end = aligned + mapped;
  if (base + over > end) munmap(end, static_cast<size_t>(base + over - end));
#ifdef MADV_HUGEPAGE
  madvise(aligned, mapped, MADV_HUGEPAGE);  // advice only: without THP the mapping serves as it is
#endif
  b.data_ = aligned;
  b.size_ = bytes;
  b.mapped_ = mapped;
  return b;
}

void LargeBuffer::reset() {
  if (data_) {
    if (mapped_ > 0) {
      munmap(data_, mapped_);
    } else {
      delete[] data_;
    }
  }
  data_ = nullptr;
  size_ = mapped_ = 0;
}

}  // namespace pario
