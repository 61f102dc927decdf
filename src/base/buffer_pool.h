// Reused byte buffers, so memory the process has already touched serves
// the next buffer instead of fresh pages.
//
// Why: a freed buffer of a MiB or more goes back to the kernel (malloc
// unmaps it or trims its heap), and the next one pays a page fault and a
// page clearing per 4 KiB. A 2-rank nonaligned write of a 512 MB disk
// array, staging each 1 MiB chunk in a fresh buffer, took about 34,000
// page faults per rank and write.
//
// take() hands out a buffer of at least the asked size whose contents are
// unspecified (not zeroed). When a Buffer is destroyed it returns to the
// pool, which keeps idle buffers up to `cap` bytes and frees the rest;
// trim() frees all idle ones.
//
// Thread safety: take(), trim() and a Buffer's destruction may run on any
// thread at once. The pool must outlive its buffers.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace pario {

class BufferPool {
 public:
  explicit BufferPool(size_t cap) : cap_(cap) {}
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // A buffer of size() bytes; empty when default-made or moved from.
  class Buffer {
   public:
    Buffer() = default;
    Buffer(Buffer&& other) noexcept { *this = std::move(other); }
    Buffer& operator=(Buffer&& other) noexcept;
    ~Buffer() { reset(); }

    char* data() const { return bytes_.get(); }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    void reset();  // back to the pool now

   private:
    friend class BufferPool;
    BufferPool* pool_ = nullptr;
    std::unique_ptr<char[]> bytes_;
    size_t capacity_ = 0, size_ = 0;
  };

  Buffer take(size_t size);
  void trim();
  size_t idle_bytes();

 private:
  void give_back(std::unique_ptr<char[]> bytes, size_t capacity);

  struct Idle {
    std::unique_ptr<char[]> bytes;
    size_t capacity;
  };
  std::mutex mu_;
  std::vector<Idle> idle_;
  size_t idle_bytes_ = 0;
  const size_t cap_;
};

}  // namespace pario
