// A sequence of element positions, stored as runs or one per element,
// whichever is smaller: how a decomposition remembers where each element
// of a message goes (a window position at an aggregator, a memory position
// at a sender) without 24 bytes per element when the elements are
// scattered one by one (an unstructured mesh) or one entry per element
// when they come in long runs (blocks).
//
// Thread safety: a value; const methods may be called from any thread.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace pario::collective {

class PositionList {
 public:
  // Appends positions pos .. pos + length - 1 (pos >= 0, length > 0).
  void add(int64_t pos, int64_t length) {
    if (!runs_.empty() && runs_.back().first + runs_.back().second == pos) {
      runs_.back().second += length;
    } else {
      runs_.push_back({pos, length});
    }
    elements_ += length;
    if (pos + length > limit_) limit_ = pos + length;
  }
  // Chooses the compact form; call once after the last add().
  void finish();
  // The list of `count` runs at(i) -> (pos, length), in the compact form
  // chosen before filling it (no second pass: a 10^7-index setup builds
  // millions of one-element runs).
  template <typename At>
  static PositionList of(size_t count, At&& at) {
    int64_t elements = 0, limit = 0;
    for (size_t i = 0; i < count; ++i) {
      const auto [pos, length] = at(i);
      elements += length;
      if (pos + length > limit) limit = pos + length;
    }
    return of_sequence(count, elements, limit, [&](auto&& emit) {
      for (size_t i = 0; i < count; ++i) {
        const auto [pos, length] = at(i);
        emit(pos, length);
      }
    });
  }
  // The same from a producer that knows its totals: visit(emit) calls
  // emit(pos, length) `count` times in order, for `elements` elements, all
  // below `limit`. No random access: the aggregator decodes its setup
  // messages straight into it.
  template <typename Visit>
  static PositionList of_sequence(size_t count, int64_t elements, int64_t limit, Visit&& visit) {
    PositionList l;
    l.limit_ = limit;
    if (dense_is_smaller(count, elements, limit)) {
      if (limit <= (int64_t{1} << 32)) {
        l.dense32_.resize(static_cast<size_t>(elements));
        uint32_t* out = l.dense32_.data();
        visit([&](int64_t pos, int64_t length) {
          for (int64_t k = 0; k < length; ++k) *out++ = static_cast<uint32_t>(pos + k);
        });
      } else {
        l.dense64_.resize(static_cast<size_t>(elements));
        int64_t* out = l.dense64_.data();
        visit([&](int64_t pos, int64_t length) {
          for (int64_t k = 0; k < length; ++k) *out++ = pos + k;
        });
      }
      l.elements_ = elements;
      return l;
    }
    l.runs_.reserve(count);
    visit([&](int64_t pos, int64_t length) { l.add(pos, length); });
    l.elements_ = elements;
    l.index_runs();
    return l;
  }

  // Whether `count` runs of `elements` in all, below `limit`, take less
  // room one per element (4 bytes each, 8 from 2^32 on) than as runs (24
  // bytes a run: its position and length, and where it starts): runs of
  // fewer than 6 elements on average (3 from 2^32 on), e.g. a 3-vector
  // item's words. The one-per-element form also lets a decomposition keep
  // its memory order inverted (Decomposition::memory_slots()).
  static bool dense_is_smaller(size_t count, int64_t elements, int64_t limit) {
    const size_t entry = limit <= (int64_t{1} << 32) ? 4 : 8;
    return count > 1 && static_cast<size_t>(elements) * entry < count * 24;
  }

  int64_t elements() const { return elements_; }
  // Runs, or 0 in the one-per-element form.
  size_t runs() const { return runs_.size(); }
  size_t bytes() const { return runs_.size() * 16 + dense32_.size() * 4 + dense64_.size() * 8; }
  // The single run when the whole list is one (pos, true), else (0, false).
  std::pair<int64_t, bool> single_run() const {
    if (runs_.size() == 1) return {runs_[0].first, true};
    return {0, false};
  }

  // Calls fn(pos, length) for each run in order (length 1 per element in
  // the dense form).
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (const auto& r : runs_) fn(r.first, r.second);
    for (uint32_t p : dense32_) fn(static_cast<int64_t>(p), int64_t{1});
    for (int64_t p : dense64_) fn(p, int64_t{1});
  }

  // Whether element k is at position k for every k (nothing moves).
  bool identity() const {
    return dense32_.empty() && dense64_.empty() && (runs_.empty() || (runs_.size() == 1 && runs_[0].first == 0));
  }
  // The position of element k (0 <= k < elements()); for messages.
  int64_t at(int64_t k) const;
  // The k with at(k) == pos, or -1: a linear search, for messages.
  int64_t find(int64_t pos) const;
  // The inverse of a list whose positions are a permutation of
  // [0, elements()) (a decomposition's memory order): element m of the
  // result is the k with at(k) == m, one entry per element. Empty where
  // the positions are not such a permutation (a position outside it, or
  // one twice: a caller's buffer with holes).
  PositionList inverse() const;

  // Copies elements of `size` bytes: out[k] = base[pos(k)] (gather) or
  // base[pos(k)] = in[k] (scatter), for the positions k in [first, first + count)
  // of this list. Per-element forms are specialised by element size.
  void gather(const char* base, size_t size, int64_t first, int64_t count, char* out) const;
  void scatter(char* base, size_t size, int64_t first, int64_t count, const char* in) const;
  // base[pos(k) - shift] = in[k] for the elements k = which[0 .. count)
  // (one-per-element form only): a scatter of chosen elements, e.g. one
  // aggregator round's share of the caller's buffer into its window.
  void scatter_chosen(char* base, size_t size, int64_t shift, const uint32_t* which, int64_t count,
                      const char* in) const;
  // out[k] = base[pos(k) - shift] for the same chosen elements: the
  // reverse, e.g. a read's message from its receive buffer into the
  // caller's buffer.
  void gather_chosen(const char* base, size_t size, int64_t shift, const uint32_t* which, int64_t count,
                     char* out) const;

 private:
  void index_runs();  // run_start_ for the runs form
  template <bool kGather>
  void copy(char* base, size_t size, int64_t first, int64_t count, char* other) const;

  std::vector<std::pair<int64_t, int64_t>> runs_;
  std::vector<uint32_t> dense32_;
  std::vector<int64_t> dense64_;
  std::vector<int64_t> run_start_;  // element index where each run starts (runs form)
  int64_t elements_ = 0;
  int64_t limit_ = 0;
};

}  // namespace pario::collective
