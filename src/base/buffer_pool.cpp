#include "base/buffer_pool.h"

#include <utility>

namespace pario {

BufferPool::Buffer& BufferPool::Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    reset();
    pool_ = std::exchange(other.pool_, nullptr);
    bytes_ = std::move(other.bytes_);
    capacity_ = std::exchange(other.capacity_, 0);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void BufferPool::Buffer::reset() {
  if (bytes_ && pool_) pool_->give_back(std::move(bytes_), capacity_);
  bytes_.reset();
  pool_ = nullptr;
  capacity_ = size_ = 0;
}

BufferPool::Buffer BufferPool::take(size_t size) {
  Buffer b;
  if (size == 0) return b;
  b.pool_ = this;
  b.size_ = size;
  {
    // The smallest idle buffer that fits and wastes at most half of itself.
    std::lock_guard<std::mutex> lock(mu_);
    size_t best = idle_.size();
    for (size_t i = 0; i < idle_.size(); ++i) {
      const size_t c = idle_[i].capacity;
      if (c >= size && c / 2 <= size && (best == idle_.size() || c < idle_[best].capacity)) best = i;
    }
    if (best < idle_.size()) {
      b.bytes_ = std::move(idle_[best].bytes);
      b.capacity_ = idle_[best].capacity;
      idle_bytes_ -= b.capacity_;
      idle_[best] = std::move(idle_.back());
      idle_.pop_back();
      return b;
    }
  }
  b.bytes_.reset(new char[size]);  // default-initialized: not zeroed
  b.capacity_ = size;
  return b;
}

void BufferPool::give_back(std::unique_ptr<char[]> bytes, size_t capacity) {
  std::lock_guard<std::mutex> lock(mu_);
  if (idle_bytes_ + capacity > cap_) return;  // freed on return
  idle_bytes_ += capacity;
  idle_.push_back({std::move(bytes), capacity});
}

void BufferPool::trim() {
  std::vector<Idle> freed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    freed.swap(idle_);
    idle_bytes_ = 0;
  }
}  // freed outside the lock

size_t BufferPool::idle_bytes() {
  std::lock_guard<std::mutex> lock(mu_);
  return idle_bytes_;
}

}  // namespace pario
