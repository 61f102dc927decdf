// Opaque C handles that can tell a live object from a stale one.
//
// A handle is (generation << 32 | slot + 1) disguised as a pointer. The
// slot's generation changes when the object is removed, so a copy of a
// closed file's handle, or a request handle waited twice, is recognised and
// rejected with a clear error instead of touching freed memory.
//
// Lookup is lock-free (two atomic loads): slots live in fixed chunks that
// never move. Insert and remove take a mutex. Removing an object while
// another thread still uses its handle is the caller's error, as with
// close() on a file descriptor another thread reads.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace pario::capi {

template <typename T>
class HandleTable {
 public:
  // remember_removed: keep each slot's last removed object for removed()
  // (tables of objects with collective calls).
  explicit HandleTable(bool remember_removed = false) : remember_removed_(remember_removed) {}
  ~HandleTable() {
    for (auto& c : chunks_) delete[] c.load();
  }

  // Returns 0 if the table is full (kChunks * kChunkSize live objects).
  uint64_t insert(std::shared_ptr<T> object) {
    std::lock_guard<std::mutex> lock(mu_);
    uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      if (next_ == kChunks * kChunkSize) return 0;
      index = next_++;
      auto& chunk = chunks_[index / kChunkSize];
      if (!chunk.load()) chunk.store(new Slot[kChunkSize]);
    }
    Slot& s = slot(index);
    s.owner = std::move(object);
    s.ptr.store(s.owner.get(), std::memory_order_release);
    uint64_t gen = s.gen.load(std::memory_order_relaxed);
    return (gen << 32) | (uint64_t{index} + 1);
  }

  // The live object behind id, or nullptr if id is 0, unknown or stale.
  T* find(uint64_t id) const {
    Slot* s = lookup(id);
    return s ? s->ptr.load(std::memory_order_acquire) : nullptr;
  }

  // Another owner of the live object behind id (nullptr if not live).
  std::shared_ptr<T> share(uint64_t id) {
    std::lock_guard<std::mutex> lock(mu_);
    Slot* s = lookup(id);
    return s && s->ptr.load() ? s->owner : nullptr;
  }

  // Removes and returns the object (nullptr if id is not live). The slot
  // keeps it as its last removed object (see removed()).
  std::shared_ptr<T> remove(uint64_t id) {
    std::lock_guard<std::mutex> lock(mu_);
    Slot* s = lookup(id);
    if (!s || !s->ptr.load()) return nullptr;
    s->ptr.store(nullptr, std::memory_order_release);
    s->gen.fetch_add(1, std::memory_order_release);
    free_.push_back(static_cast<uint32_t>((id & 0xffffffffu) - 1));
    if (remember_removed_) s->last_removed = s->owner;
    return std::move(s->owner);
  }

  // The object a stale id named, while its slot remembers it: until the
  // next object in that slot is removed in turn. Collectives use it to
  // find the group of a handle a rank already freed, so that rank still
  // meets the others (capi/collective.h).
  std::shared_ptr<T> removed(uint64_t id) {
    std::lock_guard<std::mutex> lock(mu_);
    const uint64_t low = id & 0xffffffffu;
    if (low == 0 || low > next_) return nullptr;
    Slot& s = slot(static_cast<uint32_t>(low - 1));
    return s.gen.load() == (id >> 32) + 1 ? s.last_removed : nullptr;
  }

 private:
  static constexpr uint32_t kChunkSize = 4096;
  static constexpr uint32_t kChunks = 1024;
  struct Slot {
    std::atomic<uint32_t> gen{1};
    std::atomic<T*> ptr{nullptr};
    std::shared_ptr<T> owner;
    std::shared_ptr<T> last_removed;  // the object of generation gen - 1
  };

  Slot& slot(uint32_t index) const {
    return chunks_[index / kChunkSize].load(std::memory_order_acquire)[index % kChunkSize];
  }

  Slot* lookup(uint64_t id) const {
    uint64_t low = id & 0xffffffffu;
    if (low == 0 || low > kChunks * kChunkSize) return nullptr;
    uint32_t index = static_cast<uint32_t>(low - 1);
    Slot* chunk = chunks_[index / kChunkSize].load(std::memory_order_acquire);
    if (!chunk) return nullptr;
    Slot* s = &chunk[index % kChunkSize];
    if (s->gen.load(std::memory_order_acquire) != (id >> 32)) return nullptr;
    return s;
  }

  mutable std::array<std::atomic<Slot*>, kChunks> chunks_{};
  const bool remember_removed_;
  std::mutex mu_;
  std::vector<uint32_t> free_;
  uint32_t next_ = 0;
};

}  // namespace pario::capi
