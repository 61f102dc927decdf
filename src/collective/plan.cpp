#include "collective/plan.h"

#include <algorithm>
#include <string>

namespace pario::collective {

Result<std::vector<int>> choose_aggregators(const std::vector<int>& node_of, int requested,
                                            const std::vector<int>& ranks) {
  const int size = static_cast<int>(node_of.size());
  if (!ranks.empty()) {
    std::vector<bool> seen(size, false);
    for (size_t i = 0; i < ranks.size(); ++i) {
      const int r = ranks[i];
      if (r < 0 || r >= size) {
        return Status(Code::kInvalidArgument, "aggregator rank " + std::to_string(r) +
                                                  " is not in the group (0.." + std::to_string(size - 1) + ")");
      }
      if (seen[r]) return Status(Code::kInvalidArgument, "aggregator rank " + std::to_string(r) + " is listed twice");
      seen[r] = true;
    }
    return ranks;
  }
  if (requested < 0) return Status(Code::kInvalidArgument, "the aggregator count is negative");
  // Ranks of each node, in rank order.
  std::vector<std::vector<int>> by_node;
  for (int r = 0; r < size; ++r) {
    if (node_of[r] >= static_cast<int>(by_node.size())) by_node.resize(node_of[r] + 1);
    by_node[node_of[r]].push_back(r);
  }
  by_node.erase(std::remove_if(by_node.begin(), by_node.end(), [](const auto& v) { return v.empty(); }),
                by_node.end());
  const int want = requested == 0 ? static_cast<int>(by_node.size()) : std::min(requested, size);
  std::vector<int> chosen;
  for (size_t level = 0; static_cast<int>(chosen.size()) < want; ++level) {
    for (const auto& ranks_of_node : by_node) {
      if (level < ranks_of_node.size() && static_cast<int>(chosen.size()) < want) {
        chosen.push_back(ranks_of_node[level]);
      }
    }
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

DomainPlan::DomainPlan(int64_t lo, int64_t hi, int64_t esize, std::vector<int> aggregators,
                       int64_t buffer_bytes, int64_t align_bytes)
    : lo_(lo), hi_(std::max(lo, hi)), aggregators_(std::move(aggregators)) {
  window_ = std::max<int64_t>(1, buffer_bytes / std::max<int64_t>(1, esize));
  const int64_t unit =
      std::max<int64_t>(1, (align_bytes > 0 ? align_bytes : buffer_bytes) / std::max<int64_t>(1, esize));
  const int count = std::max(1, aggregators_.size() > 0 ? static_cast<int>(aggregators_.size()) : 1);
  bounds_.assign(count + 1, lo_);
  bounds_[count] = hi_;
  for (int k = 1; k < count; ++k) {
    // The k-th share of the bytes, to the nearest aligned index (aligned
    // in the element space: on stripe bounds of the file when the
    // transfer's offset is a multiple of the alignment), kept in order.
    const __int128 share = static_cast<__int128>(hi_ - lo_) * k / count;
    int64_t b = lo_ + static_cast<int64_t>(share);
    b = (b + unit / 2) / unit * unit;
    bounds_[k] = std::clamp(b, bounds_[k - 1], hi_);
  }
}

int DomainPlan::aggregator_index(int rank) const {
  for (size_t a = 0; a < aggregators_.size(); ++a) {
    if (aggregators_[a] == rank) return static_cast<int>(a);
  }
  return -1;
}

int64_t DomainPlan::rounds(int a) const {
  const int64_t b = bounds_[a], e = bounds_[a + 1];
  return b >= e ? 0 : (e - 1) / window_ - b / window_ + 1;
}

int64_t DomainPlan::round_begin(int a, int64_t r) const {
  return std::max(bounds_[a], (bounds_[a] / window_ + r) * window_);
}

int64_t DomainPlan::round_end(int a, int64_t r) const {
  return std::min(bounds_[a + 1], (bounds_[a] / window_ + r + 1) * window_);
}

int DomainPlan::aggregator_of(int64_t g) const {
  return static_cast<int>(std::upper_bound(bounds_.begin() + 1, bounds_.end(), g) - (bounds_.begin() + 1));
}

int64_t DomainPlan::round_of(int a, int64_t g) const { return g / window_ - bounds_[a] / window_; }

namespace {

// The sends to other aggregators, by round, then aggregator (stable: a
// sender has one message per aggregator and round).
std::vector<int32_t> by_round(const std::vector<Send>& sends, int self) {
  std::vector<int32_t> order;
  for (size_t i = 0; i < sends.size(); ++i) {
    if (sends[i].aggregator != self) order.push_back(static_cast<int32_t>(i));
  }
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return sends[a].round < sends[b].round; });
  return order;
}

}  // namespace

std::vector<SendPlace> place_sends(const std::vector<Send>& sends, int self, int64_t capacity) {
  std::vector<SendPlace> places;
  int32_t buffer = 0;
  int64_t at = 0;
  for (int32_t i : by_round(sends, self)) {
    if (at > 0 && at + sends[i].count > capacity) {
      buffer ^= 1;
      at = 0;
    }
    places.push_back({i, buffer, at});
    at += sends[i].count;
  }
  return places;
}

int64_t send_buffer_capacity(const std::vector<Send>& sends, int self, int64_t window) {
  int64_t largest = 0, round_total = 0, most = 0, round = -1;
  for (int32_t i : by_round(sends, self)) {
    const Send& s = sends[i];
    if (s.round != round) round_total = 0;
    round = s.round;
    round_total += s.count;
    largest = std::max(largest, s.count);
    most = std::max(most, round_total);
  }
  return std::max(largest, std::min(most, window));
}

std::vector<int> choose_movers(int ranks, const std::vector<MoveUnit>& units) {
  std::vector<int> mover(units.size(), 0);
  std::vector<size_t> by_number(units.size());
  for (size_t k = 0; k < units.size(); ++k) by_number[k] = k;
  std::sort(by_number.begin(), by_number.end(),
            [&](size_t a, size_t b) { return units[a].number < units[b].number; });
  std::vector<int64_t> load(static_cast<size_t>(std::max(1, ranks)));
  std::vector<int> candidates;
  for (size_t k : by_number) {
    const MoveUnit& u = units[k];
    int64_t most = 0;
    for (const auto& [rank, n] : u.held) most = std::max(most, n);
    candidates.clear();
    for (const auto& [rank, n] : u.held) {
      if (n > 0 && 2 * n >= most && rank >= 0 && rank < ranks) candidates.push_back(rank);
    }
    int chosen = 0;
    if (!candidates.empty()) {
      const size_t n = candidates.size(), first = static_cast<size_t>(u.number) % n;
      chosen = candidates[first];
      for (size_t c = 1; c < n; ++c) {
        const int r = candidates[(first + c) % n];
        if (load[static_cast<size_t>(r)] < load[static_cast<size_t>(chosen)]) chosen = r;
      }
    }
    load[static_cast<size_t>(chosen)] += u.elements;
    mover[k] = chosen;
  }
  return mover;
}

}  // namespace pario::collective
