#include "collective/sort_pairs.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace pario::collective {
namespace {

constexpr size_t kRadixMinimum = 512;  // below this, std::sort is faster

// Signed keys as unsigned, in the same order.
inline uint64_t ordered(int64_t k) { return static_cast<uint64_t>(k) ^ (uint64_t{1} << 63); }

}  // namespace

// One counting pass for all eight digits; digits that are the same in
// every key (small or clustered keys) are skipped.
void sort_pairs(Pair* v, Pair* scratch, size_t n) {
  if (n < kRadixMinimum) {
    std::sort(v, v + n, [](const Pair& a, const Pair& b) {
      return a.key < b.key || (a.key == b.key && a.index < b.index);
    });
    return;
  }
  size_t count[8][256] = {};
  for (size_t i = 0; i < n; ++i) {
    const uint64_t u = ordered(v[i].key);
    for (int d = 0; d < 8; ++d) ++count[d][(u >> (8 * d)) & 0xff];
  }
  Pair* src = v;
  Pair* dst = scratch;
  for (int d = 0; d < 8; ++d) {
    size_t* c = count[d];
    if (c[(ordered(src[0].key) >> (8 * d)) & 0xff] == n) continue;  // one digit value: no reorder
    size_t offset = 0;
    for (int b = 0; b < 256; ++b) offset += std::exchange(c[b], offset);
    for (size_t i = 0; i < n; ++i) dst[c[(ordered(src[i].key) >> (8 * d)) & 0xff]++] = src[i];
    std::swap(src, dst);
  }
  if (src != v) std::memcpy(v, src, n * sizeof(Pair));
}

void sort_packed(uint64_t* v, uint64_t* scratch, size_t n, int key_bytes) {
  if (n < kRadixMinimum) {
    std::sort(v, v + n);  // the index in the low half keeps equal keys in order
    return;
  }
  constexpr int kMaxKeyBytes = 4;
  key_bytes = std::clamp(key_bytes, 0, kMaxKeyBytes);
  size_t count[kMaxKeyBytes][256] = {};
  for (size_t i = 0; i < n; ++i) {
    const uint64_t key = v[i] >> 32;
    for (int d = 0; d < key_bytes; ++d) ++count[d][(key >> (8 * d)) & 0xff];
  }
  uint64_t* src = v;
  uint64_t* dst = scratch;
  for (int d = 0; d < key_bytes; ++d) {
    const int shift = 32 + 8 * d;
    size_t* c = count[d];
    if (c[(src[0] >> shift) & 0xff] == n) continue;  // one digit value: no reorder
    size_t offset = 0;
    for (int b = 0; b < 256; ++b) offset += std::exchange(c[b], offset);
    for (size_t i = 0; i < n; ++i) dst[c[(src[i] >> shift) & 0xff]++] = src[i];
    std::swap(src, dst);
  }
  if (src != v) std::memcpy(v, src, n * sizeof(uint64_t));
}

}  // namespace pario::collective
