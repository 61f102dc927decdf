#include "collective/positions.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace pario::collective {
namespace {

// One element of `size` bytes, with a fixed-size copy for the common sizes
// (a memcpy call per 8-byte element costs more than the move).
inline void move_element(char* to, const char* from, size_t size) {
  switch (size) {
    case 1: *to = *from; break;
    case 2: std::memcpy(to, from, 2); break;
    case 4: std::memcpy(to, from, 4); break;
    case 8: std::memcpy(to, from, 8); break;
    case 16: std::memcpy(to, from, 16); break;
    default: std::memcpy(to, from, size);
  }
}

// A run's bytes: short runs (a vector item of 2-4 words) with fixed-size
// moves rather than a memcpy call each (a dataset's vector variable made
// 2 million such calls per write series, 10 instructions each).
inline void move_run(char* to, const char* from, size_t bytes) {
  switch (bytes) {
    case 8: std::memcpy(to, from, 8); break;
    case 12: std::memcpy(to, from, 12); break;
    case 16: std::memcpy(to, from, 16); break;
    case 24: std::memcpy(to, from, 24); break;
    case 32: std::memcpy(to, from, 32); break;
    default: std::memcpy(to, from, bytes);
  }
}

template <size_t kSize, bool kGather, typename Index>
void copy_dense(char* base, const Index* pos, int64_t count, char* other) {
  for (int64_t k = 0; k < count; ++k) {
    char* at = base + static_cast<int64_t>(pos[k]) * static_cast<int64_t>(kSize);
    if (kGather) {
      std::memcpy(other + k * kSize, at, kSize);
    } else {
      std::memcpy(at, other + k * kSize, kSize);
    }
  }
}

template <bool kGather, typename Index>
void copy_dense_any(char* base, size_t size, const Index* pos, int64_t count, char* other) {
  switch (size) {
    case 1: return copy_dense<1, kGather>(base, pos, count, other);
    case 2: return copy_dense<2, kGather>(base, pos, count, other);
    case 4: return copy_dense<4, kGather>(base, pos, count, other);
    case 8: return copy_dense<8, kGather>(base, pos, count, other);
    case 16: return copy_dense<16, kGather>(base, pos, count, other);
    default:
      for (int64_t k = 0; k < count; ++k) {
        char* at = base + static_cast<int64_t>(pos[k]) * static_cast<int64_t>(size);
        if (kGather) {
          move_element(other + k * size, at, size);
        } else {
          move_element(at, other + k * size, size);
        }
      }
  }
}

// The chosen elements k = which[0 .. count): base[pos(k) - shift] = other[k]
// (scatter) or other[k] = base[pos(k) - shift] (gather).
template <size_t kSize, bool kGather, typename Index>
void copy_chosen_sized(char* base, size_t size, const Index* pos, int64_t shift, const uint32_t* which,
                       int64_t count, char* other) {
  const size_t s = kSize ? kSize : size;
  for (int64_t i = 0; i < count; ++i) {
    const uint32_t k = which[i];
    char* at = base + (static_cast<int64_t>(pos[k]) - shift) * static_cast<int64_t>(s);
    char* mine = other + static_cast<size_t>(k) * s;
    char* to = kGather ? mine : at;
    const char* from = kGather ? at : mine;
    if (kSize) std::memcpy(to, from, kSize);
    else move_element(to, from, s);
  }
}

template <bool kGather, typename Index>
void copy_chosen_any(char* base, size_t size, const Index* pos, int64_t shift, const uint32_t* which, int64_t count,
                     char* other) {
  switch (size) {
    case 4: return copy_chosen_sized<4, kGather>(base, size, pos, shift, which, count, other);
    case 8: return copy_chosen_sized<8, kGather>(base, size, pos, shift, which, count, other);
    default: return copy_chosen_sized<0, kGather>(base, size, pos, shift, which, count, other);
  }
}

}  // namespace

void PositionList::finish() {
  if (dense_is_smaller(runs_.size(), elements_, limit_)) {
    if (limit_ <= (int64_t{1} << 32)) {
      dense32_.reserve(elements_);
      for (const auto& r : runs_)
        for (int64_t k = 0; k < r.second; ++k) dense32_.push_back(static_cast<uint32_t>(r.first + k));
    } else {
      dense64_.reserve(elements_);
      for (const auto& r : runs_)
        for (int64_t k = 0; k < r.second; ++k) dense64_.push_back(r.first + k);
    }
    runs_.clear();
    runs_.shrink_to_fit();
    return;
  }
  runs_.shrink_to_fit();
  index_runs();
}

void PositionList::index_runs() {
  run_start_.resize(runs_.size());
  int64_t at = 0;
  for (size_t i = 0; i < runs_.size(); ++i) {
    run_start_[i] = at;
    at += runs_[i].second;
  }
}

int64_t PositionList::at(int64_t k) const {
  if (!dense32_.empty()) return dense32_[k];
  if (!dense64_.empty()) return dense64_[k];
  const size_t i = std::upper_bound(run_start_.begin(), run_start_.end(), k) - run_start_.begin() - 1;
  return runs_[i].first + (k - run_start_[i]);
}

int64_t PositionList::find(int64_t pos) const {
  int64_t k = 0, found = -1;
  for_each([&](int64_t p, int64_t length) {
    if (found < 0 && pos >= p && pos < p + length) found = k + (pos - p);
    k += length;
  });
  return found;
}

PositionList PositionList::inverse() const {
  PositionList inv;
  if (limit_ != elements_ || elements_ == 0) return inv;  // not a permutation of [0, elements)
  // Each slot is written once: a slot found written already (a position
  // twice) leaves the list empty too.
  bool twice = false;
  auto fill = [&](auto& dense, auto unset) {
    using T = typename std::decay_t<decltype(dense)>::value_type;
    dense.assign(static_cast<size_t>(elements_), unset);
    T* out = dense.data();
    int64_t k = 0;
    for_each([&](int64_t p, int64_t length) {
      for (int64_t i = 0; i < length; ++i, ++k) {
        twice |= out[p + i] != unset;
        out[p + i] = static_cast<T>(k);
      }
    });
  };
  if (elements_ < (int64_t{1} << 32)) {
    fill(inv.dense32_, UINT32_MAX);
  } else {
    fill(inv.dense64_, int64_t{-1});
  }
  if (twice) return PositionList();
  inv.elements_ = inv.limit_ = elements_;
  return inv;
}

template <bool kGather>
void PositionList::copy(char* base, size_t size, int64_t first, int64_t count, char* other) const {
  if (count <= 0) return;
  if (!dense32_.empty()) return copy_dense_any<kGather>(base, size, dense32_.data() + first, count, other);
  if (!dense64_.empty()) return copy_dense_any<kGather>(base, size, dense64_.data() + first, count, other);
  // The run holding element `first`, then run by run.
  size_t i = std::upper_bound(run_start_.begin(), run_start_.end(), first) - run_start_.begin() - 1;
  int64_t done = 0;
  while (done < count) {
    const int64_t skip = first + done - run_start_[i];
    const int64_t n = std::min(runs_[i].second - skip, count - done);
    char* at = base + (runs_[i].first + skip) * static_cast<int64_t>(size);
    if (kGather) {
      move_run(other + done * size, at, n * size);
    } else {
      move_run(at, other + done * size, n * size);
    }
    done += n;
    ++i;
  }
}

void PositionList::gather(const char* base, size_t size, int64_t first, int64_t count, char* out) const {
  copy<true>(const_cast<char*>(base), size, first, count, out);
}

void PositionList::scatter(char* base, size_t size, int64_t first, int64_t count, const char* in) const {
  copy<false>(base, size, first, count, const_cast<char*>(in));
}

void PositionList::scatter_chosen(char* base, size_t size, int64_t shift, const uint32_t* which, int64_t count,
                                  const char* in) const {
  char* other = const_cast<char*>(in);  // only read: kGather is false
  if (!dense32_.empty()) return copy_chosen_any<false>(base, size, dense32_.data(), shift, which, count, other);
  if (!dense64_.empty()) return copy_chosen_any<false>(base, size, dense64_.data(), shift, which, count, other);
}

void PositionList::gather_chosen(const char* base, size_t size, int64_t shift, const uint32_t* which, int64_t count,
                                 char* out) const {
  char* from = const_cast<char*>(base);  // only read: kGather is true
  if (!dense32_.empty()) return copy_chosen_any<true>(from, size, dense32_.data(), shift, which, count, out);
  if (!dense64_.empty()) return copy_chosen_any<true>(from, size, dense64_.data(), shift, which, count, out);
}

}  // namespace pario::collective
