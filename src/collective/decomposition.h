// A decomposition: which elements of a flat global index space each rank
// of a group holds, and the plan that moves them to and from aggregators.
// Built once, collectively, then reused by every transfer of that layout
// (collective/transfer.h), as ParallelIO reuses its decomposition maps.
//
// Setup (create):
//   1. each rank sorts its runs (collective/layout.h) and checks them;
//   2. one allgather of every rank's extent [first, last held index],
//      run count, element count and whether its own indices overlap gives
//      every rank the held range [lo, hi) and the same verdict on whether
//      transfers skip the aggregators (Buffering: kAuto goes direct where
//      no two extents interleave and runs average kDirectMinRunBytes or
//      more); direct with extents apart, no two ranks can hold one index
//      and the setup ends here: no plan, no messages;
//   3. every rank computes the same domains (collective/plan.h) and cuts
//      its runs into messages, one per (aggregator, round) it meets;
//   4. an all-to-all of counts and an all-to-all-v of the runs
//      themselves (32-bit positions in a round's window, and lengths of
//      the runs longer than one element) tell each aggregator what it
//      will receive; it keeps, per round, each sender's element count and
//      where those elements go in its buffer, finds the parts of each round
//      some rank holds (the only bytes it writes) and whether two ranks
//      hold one index.
// No rank holds another's index list beyond what its domain receives; the
// memory and message counts are in docs/scaling.md.
//
// The decomposition owns a duplicate of the group's communicator, so its
// messages never match the application's or another pario object's.
//
// Thread safety: transfers from one thread per rank, as every collective.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "base/convert.h"
#include "base/element_type.h"
#include "base/large_buffer.h"
#include "base/status.h"
#include "collective/layout.h"
#include "collective/plan.h"
#include "collective/positions.h"
#include "comm/comm.h"
#include "comm/group.h"

namespace pario::collective {

// Where a transfer converts between the memory type and the file's type
// and byte order (PARIO_COLLECTIVE_CONVERT, pario_decomp_hints.convert):
// on the rank that holds the elements (the sender of a write, the owner of
// a read), on the aggregator, or as the rule of transfer.h decides.
enum class ConvertAt { kAuto = 0, kSender = 1, kAggregator = 2 };

// Whether transfers go through the aggregators (collective buffering,
// ROMIO's cb_write/cb_read; PARIO_COLLECTIVE_BUFFERING,
// pario_decomp_hints.buffering): always, never (every rank writes and
// reads its own runs of the target directly: no exchange, no windows), or
// as create() decides once for the decomposition (kAuto: direct where the
// ranks' extents of the file do not interleave and their runs average at
// least kDirectMinRunBytes).
enum class Buffering { kAuto = 0, kAlways = 1, kNever = 2 };
// kAuto's least average run, in bytes of the file (docs/performance.md,
// "Collective I/O: direct transfers").
constexpr int64_t kDirectMinRunBytes = int64_t{64} << 10;

// What capi hands down (PARIO_AGGREGATORS, PARIO_AGGREGATOR_RANKS,
// PARIO_AGGREGATOR_BUFFER, PARIO_COLLECTIVE_CONVERT,
// PARIO_COLLECTIVE_BUFFERING, and the per-call hints over them).
struct CollectiveOptions {
  int aggregators = 0;                 // 0: one per node
  std::vector<int> aggregator_ranks;   // explicit choice (group ranks)
  int64_t buffer_bytes = 16 << 20;     // per aggregator round
  int64_t align_bytes = 0;             // file domain alignment; 0: buffer_bytes
  ByteOrder byte_order = ByteOrder::kNative;
  ConvertAt convert = ConvertAt::kAuto;
  Buffering buffering = Buffering::kAuto;
};
// Largest buffer: one round's message must fit an MPI int count of bytes.
constexpr int64_t kMaxBufferBytes = int64_t{1} << 30;

// What an aggregator receives in one round.
struct RoundPlan {
  int64_t begin = 0, end = 0;  // global indices of the round's window
  struct Piece {
    int sender = 0;       // group rank
    int64_t count = 0;    // elements
    // Where the piece lands: at window position `at` when it is one run
    // there (received in place), else at staging offset `at`.
    int64_t at = 0;
    bool in_place = false;
    int32_t self_send = -1;    // the sender is this rank: its message's index in sends()
    int64_t self_offset = -1;  // and its packed offset
  };
  std::vector<Piece> pieces;        // by sender rank
  PositionList staged;              // window positions of the staged elements, in order
  std::vector<std::pair<int64_t, int64_t>> covered;  // window ranges some rank holds (pos, length)
};

// An aggregator's buffers for one transfer: two windows of the file's
// elements, the staging buffer, and where the aggregator converts, one
// (write) or two (read) windows of the elements as they travel (the
// memory type). Raw bytes: a set serves any transfer whose buffers fit in
// its capacities, whatever its element sizes. One set is kept between
// transfers (SpareBuffers), so the pages are not faulted in again on
// every call.
// The buffers are LargeBuffers: huge pages back them where the kernel
// allows, so the staged elements' scatter into a window (and a read's
// gather out of it) does not miss the TLB at every element.
// A write from the caller's buffer through the aggregators adds two send
// buffers (every rank, Decomposition::send_places()).
struct AggregatorBuffers {
  LargeBuffer window[2];
  LargeBuffer staging;
  LargeBuffer wire[2];
  LargeBuffer send[2];
  size_t window_bytes[2] = {0, 0}, staging_bytes = 0, wire_bytes[2] = {0, 0}, send_bytes[2] = {0, 0};  // capacities
  size_t bytes() const {
    return window_bytes[0] + window_bytes[1] + staging_bytes + wire_bytes[0] + wire_bytes[1] + send_bytes[0] +
           send_bytes[1];
  }
};

// The aggregator buffers kept between transfers: at most one set, given
// back by the last transfer and taken by the next, which grows what is too
// small for it. A decomposition keeps its own; an object that makes
// several decompositions used one after the other (the Exodus writer's
// nodes and blocks) owns one and lends it to all of them
// (Decomposition::share_buffers), so the rank holds the largest set any
// of them needs, not one set each. Borrowers must not outlive it.
// Thread safety: one thread per rank, as the transfers.
class SpareBuffers {
 public:
  std::unique_ptr<AggregatorBuffers> take() { return std::move(set_); }
  // Keeps the larger of the set held and `buffers` (the other is freed).
  void give_back(std::unique_ptr<AggregatorBuffers> buffers) {
    if (!set_ || (buffers && buffers->bytes() > set_->bytes())) set_ = std::move(buffers);
  }
  size_t bytes() const { return set_ ? set_->bytes() : 0; }
  void clear() { set_.reset(); }

 private:
  std::unique_ptr<AggregatorBuffers> set_;
};

class Decomposition {
 public:
  // Collective over group: runs are this rank's elements (from
  // runs_of_blocks or runs_of_indices over the same global size on every
  // rank), file_type the type in the file. Every rank gets the same status.
  static Result<std::unique_ptr<Decomposition>> create(const comm::Group& group, SortedRuns runs,
                                                       int64_t global_size, ElementType file_type,
                                                       const CollectiveOptions& options);
  ~Decomposition();
  // Collective release of the communicator (a destructor frees it locally).
  Status free();

  int64_t global_size() const { return global_size_; }
  int64_t local_count() const { return local_count_; }
  ElementType file_type() const { return file_type_; }
  ByteOrder byte_order() const { return options_.byte_order; }
  ConvertAt convert_at() const { return options_.convert; }
  const DomainPlan& plan() const { return plan_; }
  // Whether two ranks (or one twice) hold one index: writes are refused.
  bool overlaps() const { return overlaps_; }
  bool is_aggregator() const { return my_aggregator_ >= 0; }
  // Whether transfers skip the aggregators: every rank moves its own runs
  // (direct_runs()) between its packed copy and the target, with no
  // exchange (Buffering; the same on every rank).
  bool direct_io() const { return direct_io_; }
  // Whether some ranks' extents of the file [first, last held index]
  // interleave (or overlap): found in create(), whatever the mode.
  bool interleaved() const { return interleaved_; }
  // Direct transfers: this rank's runs of the file in increasing order
  // (global index, length), one request each; run k starts in the packed
  // copy where runs 0..k-1 end. Empty in the aggregators' mode.
  const std::vector<std::pair<int64_t, int64_t>>& direct_runs() const { return direct_runs_; }
  const comm::Comm& comm() const { return comm_; }
  int rank() const { return rank_; }
  // Whether this rank's node runs more of the group's ranks than it has
  // hardware threads (4 ranks on the 2-core EPYC VMs): ranks with nothing
  // to do then wait without spinning (transfer.cpp, wait_quietly).
  bool oversubscribed() const { return oversubscribed_; }

  // Sender side: where each packed element (sorted global order) is in
  // memory, as runs: memory_order() gives the memory position of packed
  // element k. Where the runs are short (one entry per element, e.g. an
  // unstructured mesh's index list) and the memory positions are all of
  // [0, local_count()) (no holes: the Exodus writer's can skip elements),
  // the list is kept the other way round instead, memory_slots(): the
  // packed position of memory element m, so
  // that packing and unpacking read and write the caller's buffer in
  // order and the random accesses fall in the packed copy, which the
  // engine owns and backs with huge pages (base/large_buffer.h;
  // docs/performance.md, "Collective I/O: permuting elements"). Exactly
  // one of the two is non-empty where the rank holds elements.
  const PositionList& memory_order() const { return memory_order_; }
  const PositionList& memory_slots() const { return memory_slots_; }
  // Whether the packed copy is the caller's elements as they are.
  bool memory_in_file_order() const { return memory_slots_.elements() == 0 && memory_order_.identity(); }
  // The messages.
  const std::vector<Send>& sends() const { return sends_; }
  // Aggregator side: one plan per round of this rank's domain.
  const std::vector<RoundPlan>& rounds() const { return rounds_; }
  int64_t staging_elements() const { return staging_elements_; }
  // Elements kept by slot (memory_slots(): one entry per element, e.g. an
  // unstructured mesh's index list): a write moves them from the caller's
  // buffer into small kept buffers a part at a time, with no packed copy
  // of them all. own_memory() holds the memory positions of part c's
  // elements, ascending, at [own_chunk_start()[c], own_chunk_start()[c + 1]),
  // so the caller's buffer is read forward and the random writes fall in
  // one small buffer. The parts: in a direct transfer, chunks of
  // chunk_elements() packed positions (the buffer options' size), each
  // moved into one of two chunk buffers and written from there
  // (docs/performance.md, "Collective I/O: the unstructured write at full
  // size"); through the aggregators, the messages (part c is sends()[c]),
  // each packed into one of two send buffers as send_places() says and
  // sent from there (docs/performance.md, "Collective I/O: the
  // unstructured write at 4 ranks"). 4 bytes per element; empty otherwise
  // (and from 2^32 elements on).
  const std::vector<uint32_t>& own_memory() const { return own_memory_; }
  const std::vector<int64_t>& own_chunk_start() const { return own_chunk_start_; }
  int64_t chunk_elements() const { return chunk_elements_; }
  // Through the aggregators, with own_memory(): where each message to
  // another rank is packed (collective/plan.h, place_sends), in the order
  // it is sent; send_buffers() buffers (0-2) of send_buffer_elements()
  // elements each.
  const std::vector<SendPlace>& send_places() const { return send_places_; }
  int64_t send_buffer_elements() const { return send_buffer_elements_; }
  int send_buffers() const { return send_buffers_; }
  // An MPI tag for round r of the transfer numbered `transfer`, unique
  // among the transfers that can be in flight at once.
  int tag(uint64_t transfer, int64_t round) const;
  // Numbers each transfer started on this decomposition (same on every rank).
  uint64_t next_transfer() { return transfers_++; }
  // Bytes of index data this rank keeps (for statistics and docs/scaling.md).
  size_t plan_bytes() const;
  // An aggregator's buffers for elements of file_size bytes in the file
  // and wire_size bytes in messages (staging), with wire_windows windows of
  // wire elements, and where `send_buffers` (a write from the caller's
  // buffer through the aggregators) send_buffers() send buffers of wire
  // elements: the kept set, its buffers that are too small replaced
  // (kNoMemory when an allocation fails). give_back keeps one set for the
  // next transfer.
  Result<std::unique_ptr<AggregatorBuffers>> take_buffers(size_t file_size, size_t wire_size, int wire_windows,
                                                          bool send_buffers = false);
  void give_back(std::unique_ptr<AggregatorBuffers> buffers);
  // From now on the transfers' buffers are kept in `spare` (borrowed: it
  // must outlive every transfer on this decomposition), shared with the
  // other decompositions that borrow it; the set kept here so far is freed.
  void share_buffers(SpareBuffers* spare) {
    own_spare_.clear();
    shared_spare_ = spare;
  }

 private:
  Decomposition(DomainPlan plan) : plan_(std::move(plan)) {}
  // The aggregator's rounds from the messages received (sender s's at
  // received[from[s] .. from[s + 1]), in the wire format of decomposition.cpp).
  Status build_rounds(const std::vector<int64_t>& from, const std::vector<uint32_t>& received);
  void build_own_memory();

  comm::Comm comm_;
  int rank_ = 0, size_ = 1;
  int64_t global_size_ = 0, local_count_ = 0;
  ElementType file_type_ = ElementType::kDouble;
  CollectiveOptions options_;
  DomainPlan plan_;
  bool overlaps_ = false;
  bool overlaps_found_ = false;  // by this aggregator, before the agreement
  bool direct_io_ = false, interleaved_ = false;
  std::vector<std::pair<int64_t, int64_t>> direct_runs_;
  bool oversubscribed_ = false;
  int my_aggregator_ = -1;
  PositionList memory_order_;  // runs form
  PositionList memory_slots_;  // or the one-per-element form, inverted
  std::vector<Send> sends_;
  std::vector<RoundPlan> rounds_;
  int64_t staging_elements_ = 0;
  std::vector<uint32_t> own_memory_;
  std::vector<int64_t> own_chunk_start_;
  int64_t chunk_elements_ = 0;
  std::vector<SendPlace> send_places_;
  int64_t send_buffer_elements_ = 0;
  int send_buffers_ = 0;
  int tag_ub_ = 32767;
  int64_t max_rounds_ = 1;
  uint64_t transfers_ = 0;
  SpareBuffers own_spare_;                // kept between transfers
  SpareBuffers* shared_spare_ = nullptr;  // or there (share_buffers)
  SpareBuffers& spare() { return shared_spare_ ? *shared_spare_ : own_spare_; }
};

}  // namespace pario::collective
