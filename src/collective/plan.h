// The plan of collective I/O: which ranks aggregate, which part of the file
// each one owns (its file domain), how a domain is cut into rounds of one
// buffer, and what each rank sends to each aggregator in each round.
//
// Pure: no MPI, no I/O. Every rank computes the same domains from the same
// few numbers (the held index range, the element size, the aggregators and
// the buffer), so no rank ever needs another's index list to know where its
// elements go, and tests check plans for any number of simulated ranks.
//
// Domains are balanced by bytes over the range of global indices any rank
// holds (not assigned by rank id) and their bounds are aligned to `align`
// bytes of the file (the buffer size, or a stripe size), so aggregators
// write whole stripes and never share one. Rounds are aligned the same
// way: round r of a domain is the r-th buffer-sized window of the file
// that the domain meets.
//
// Thread safety: pure functions and immutable values.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "collective/layout.h"

namespace pario::collective {

// Which group ranks aggregate. `requested` > 0 asks for that many (at most
// the ranks); 0 means one per node. Explicit `ranks` win over both and are
// checked (distinct, in range). node_of[r] is rank r's node; ranks of the
// default choice are each node's first rank, then second ranks round the
// nodes, so k aggregators spread over min(k, nodes) nodes.
Result<std::vector<int>> choose_aggregators(const std::vector<int>& node_of, int requested,
                                            const std::vector<int>& ranks);

class DomainPlan {
 public:
  // The global range [lo, hi) that some rank holds, element size in the
  // file, the aggregators (group ranks), the buffer and the alignment in
  // bytes (align 0: the buffer). window elements = max(1, buffer / esize).
  DomainPlan(int64_t lo, int64_t hi, int64_t esize, std::vector<int> aggregators, int64_t buffer_bytes,
             int64_t align_bytes);

  int aggregators() const { return static_cast<int>(aggregators_.size()); }
  int aggregator_rank(int a) const { return aggregators_[a]; }
  // Index of the aggregator a group rank is, or -1.
  int aggregator_index(int rank) const;
  // Domain a: global indices [domain_begin(a), domain_end(a)), maybe empty.
  int64_t domain_begin(int a) const { return bounds_[a]; }
  int64_t domain_end(int a) const { return bounds_[a + 1]; }
  int64_t window_elements() const { return window_; }
  // Rounds of domain a (0 for an empty domain).
  int64_t rounds(int a) const;
  // Round r of domain a: global indices [begin, end).
  int64_t round_begin(int a, int64_t r) const;
  int64_t round_end(int a, int64_t r) const;
  // The aggregator whose domain holds global index g (lo <= g < hi).
  int aggregator_of(int64_t g) const;
  // The round of domain a holding global index g.
  int64_t round_of(int a, int64_t g) const;

 private:
  int64_t lo_, hi_, window_;
  std::vector<int> aggregators_;
  std::vector<int64_t> bounds_;  // aggregators + 1
};

// One message of a transfer: `count` elements of a sender's packed data,
// starting at `offset` (elements, in the sender's sorted order), for round
// `round` of aggregator `aggregator` (an index into the plan's list).
struct Send {
  int aggregator = 0;
  int64_t round = 0;
  int64_t offset = 0;
  int64_t count = 0;
};

// The messages of one sender: its sorted runs cut at domain and round
// bounds, one Send per (aggregator, round) met, in sorted order. Runs
// outside [lo, hi) are not allowed (they cannot occur: lo and hi bound
// every rank's runs). visit(send, piece) is called for each piece in
// order: the Send it belongs to (as built so far) and the piece (global,
// length; memory is its offset in the packed data). A template: a setup
// visits one piece per element of a scattered index list.
template <typename Visit>
std::vector<Send> plan_sends(const DomainPlan& plan, const std::vector<Run>& runs, Visit&& visit) {
  std::vector<Send> sends;
  int64_t packed = 0;
  // The round met last, [round_lo, round_hi) of aggregator a: runs start
  // in increasing order, so a run starting below round_hi (and not below
  // round_lo) is in it, and the search and division are made once per
  // round, not per run (10^7 scattered indices are 10^7 runs).
  int a = 0;
  int64_t r = 0, round_lo = 0, round_hi = INT64_MIN;
  for (const Run& run : runs) {
    int64_t g = run.global;
    const int64_t end = run.global + run.length;
    while (g < end) {
      if (g >= round_hi || g < round_lo) {
        a = plan.aggregator_of(g);
        r = plan.round_of(a, g);
        round_lo = plan.round_begin(a, r);
        round_hi = plan.round_end(a, r);
      }
      const int64_t stop = std::min(end, round_hi);
      const int64_t n = stop - g;
      if (sends.empty() || sends.back().aggregator != a || sends.back().round != r) {
        sends.push_back({a, r, packed, 0});
      }
      sends.back().count += n;
      visit(sends.back(), Run{g, n, packed});
      packed += n;
      g = stop;
    }
  }
  return sends;
}
inline std::vector<Send> plan_sends(const DomainPlan& plan, const std::vector<Run>& runs) {
  return plan_sends(plan, runs, [](const Send&, const Run&) {});
}

// Where a sender packs its messages when it sends them from two kept
// buffers instead of from a packed copy of all its elements (a write of
// elements kept by slot: Decomposition::send_places()): by round, then
// aggregator, each after the previous one in the current buffer, or at
// the start of the other buffer when it does not fit (the sender first
// waits for that buffer's earlier messages). The round order keeps this
// from hanging: a rank placing a message of round r waits only for its
// messages of rounds <= r, and every aggregator has posted the receives
// of round r once every rank has sent its messages of the rounds before.
// Messages to aggregator `self` (this rank's own part, copied, not sent;
// -1: none) are left out. `capacity` (elements of one buffer) must be at
// least the largest message.
struct SendPlace {
  int32_t send = 0;    // index into the sends
  int32_t buffer = 0;  // 0 or 1
  int64_t at = 0;      // elements into that buffer
};
std::vector<SendPlace> place_sends(const std::vector<Send>& sends, int self, int64_t capacity);
// The capacity place_sends is given: the most elements the sender sends in
// one round (all aggregators), so that a buffer holds a round and two
// rounds are in flight, but at least its largest message and at most
// `window` (the aggregator buffer in elements): memory bounded by two
// buffers, not by the rank's data.
int64_t send_buffer_capacity(const std::vector<Send>& sends, int self, int64_t window);

// The other policy of who moves what: when the unit of I/O is fixed by the
// file (a disk array's chunk or shard, which one rank must move whole)
// rather than cut into domains, each unit goes to a rank holding much of
// it in memory. Disk arrays use it (diskarray/transfer_plan.h, where the
// rule and its measurements are described); they move data by RMA, so only
// the choice is shared.
struct MoveUnit {
  int64_t number = 0;    // units are taken in this order (and ties broken by it)
  int64_t elements = 0;  // the work it is
  std::vector<std::pair<int, int64_t>> held;  // (rank, elements of it in that rank's memory)
};
// The mover of each unit: of the ranks holding at least half as much of
// it as the one holding most, the one with the least work so far, units
// taken by number, ties going round by number; a unit no rank (in 0 ..
// ranks - 1) holds goes to rank 0.
std::vector<int> choose_movers(int ranks, const std::vector<MoveUnit>& units);

}  // namespace pario::collective
