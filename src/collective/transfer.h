// One collective write or read of a decomposition's elements: the
// two-phase step of collective I/O.
//
// Write: every rank packs its elements in file order and sends each
// aggregator its part, one message per round. The memory type becomes the
// file's type and byte order on the sender (packed converted; the work is
// spread over all ranks) or on the aggregator (messages carry memory-typed
// elements, converted into the window; smaller messages when the memory
// type is smaller), as the options say (CollectiveOptions::convert; auto:
// the aggregator when the memory type is the smaller, as measured). An aggregator assembles
// round after round in one of two window buffers and hands each round's
// held ranges to the target while the next round's messages arrive (the
// pipeline: exchange of round r+1 overlaps the file I/O of round r, the
// I/O going through the target's asynchronous engine). Elements no rank
// holds are never written.
// Read: the reverse. Aggregators read each round's held span (two rounds
// ahead), send each owner its part, and owners unpack; the conversion
// happens on the owner or on the aggregator before it sends.
//
// Direct (Decomposition::direct_io(): collective buffering off, chosen
// once for the decomposition): no exchange at all. Every rank packs (and
// converts) its elements in file order as above and moves each of its
// runs of the file as one request between the packed copy (the caller's
// buffer when it is in file order and type) and the target: in begin()
// on the calling thread for a blocking call, else through the target's
// engine. The start and end agreements are the same as in two phases.
//
// Failures never hang: arguments and buffers are checked and allocated on
// every rank, then one agreement decides whether the transfer goes ahead
// (nothing is written when any rank fails here, e.g. a value that does
// not fit the file type); after that every message is still exchanged
// whatever fails, and the wait agrees on the final status.
//
// An aggregator's own piece skips the window where the window would only
// add a copy: a write's own piece that alone makes one of a round's held
// ranges is written from the packed copy, consecutive ones as one request,
// and a round whose only piece is its own is read into the packed copy,
// consecutive ones as one request (so one rank writes or reads a
// contiguous slab from or into the caller's buffer in one request; in a
// blocking call on the calling thread, Target::run).
//
// Memory beyond the caller's data: every rank a packed copy of its own
// elements as they travel (none when its buffer is in file order and
// travels as it is; in a write of elements kept by slot that this rank
// does not convert, two buffers instead, kept between transfers as an
// aggregator's windows are: a direct write's two chunk buffers of the
// aggregator buffer's size, or through the aggregators two send buffers
// of at most that size, each holding about one round's messages:
// Decomposition::own_memory(), send_places(); a read of such elements
// that this rank does not convert the same way back, read_chunks and
// receive_to_caller); an aggregator also two window buffers, a staging
// buffer of at most one window each and, where it converts, one (write)
// or two (read) windows of memory-typed elements (no windows where no
// round needs one).
//
// A write from two send buffers packs and sends its messages in round
// order (collective/plan.h, place_sends: why this cannot hang), an
// aggregator its messages of round r before it waits for its own round r,
// so a rank's start call returns only once at most two buffers' worth of
// its messages are still in flight (the caller's buffer is read by then,
// as the contract says).
//
// Thread safety: one thread per rank drives a transfer.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <mpi.h>

#include "base/element_type.h"
#include "base/large_buffer.h"
#include "base/status.h"
#include "collective/decomposition.h"
#include "collective/target.h"

namespace pario::collective {

// What one rank did in a transfer (PARIO_STATS and docs/scaling.md).
struct TransferCounts {
  uint64_t messages_sent = 0, bytes_sent = 0;
  uint64_t messages_received = 0, bytes_received = 0;
  uint64_t rounds = 0;          // aggregator rounds
  uint64_t io_requests = 0, io_bytes = 0, largest_request = 0;
  uint64_t exchange_nanos = 0;  // waiting on messages
  uint64_t io_nanos = 0;        // waiting on the target
  uint64_t buffer_bytes = 0;    // packed, window and staging buffers held
};

class Transfer {
 public:
  // Collective over the decomposition's group: starts writing this rank's
  // d.local_count() elements of mem_type at buf to the target, global
  // element i at byte offset + i * size(file type). The exchange and most
  // of the file I/O happen here; wait() finishes it. Every rank gets the
  // same status. buf is copied before the call returns, unless `borrow`:
  // then buf must stay unchanged until wait(), and elements already in
  // file order and type are sent from it without a copy (a blocking write).
  static Result<std::unique_ptr<Transfer>> start_write(Decomposition& d, Target& target, uint64_t offset,
                                                       ElementType mem_type, const void* buf, bool borrow = false);
  // Collective: starts reading into buf (filled by wait(), or by the test()
  // that returns true). Aggregators start reading their first rounds; the
  // exchange happens in test() and wait().
  static Result<std::unique_ptr<Transfer>> start_read(Decomposition& d, Target& target, uint64_t offset,
                                                      ElementType mem_type, void* buf);

  // The same in two steps, for a caller that already has an agreement of
  // its own to make (the C boundary's entry agreement): prepare() is local
  // (this rank's checks, buffers and, for a write, the packed copy; no
  // message), and its status and agreement_values() go into the caller's
  // one agreement; begin() then starts the transfer on every rank with the
  // agreed values. Collective use: every rank calls begin() once the
  // agreement succeeded, or none does.
  // kBlocking: begin() is followed at once by wait() on this thread, and
  // buf stays unchanged until then (a write sends its elements from it
  // where they are in file order and type, as `borrow` does); the
  // aggregator's last write, with nothing left to overlap, then runs on
  // this thread (Target::run) instead of going to an I/O thread.
  enum Mode { kNonblocking, kBorrow, kBlocking };
  static std::unique_ptr<Transfer> prepare(Decomposition& d, Target& target, uint64_t offset, device::IoKind kind,
                                           ElementType mem_type, void* buf, Mode mode, Status* local);
  // What the agreement reduces by maximum over the ranks, kAgreementValues
  // int64s: the memory type and its negation (so the ranks learn whether
  // they all pass the same one).
  static constexpr int kAgreementValues = 2;
  void agreement_values(int64_t values[kAgreementValues]) const;
  // Collective, after an agreement that succeeded: `agreed` are the
  // maxima of every rank's agreement_values(). Only where the ranks pass
  // different memory types and the aggregators were to convert does it
  // agree once more (on buffers prepared again).
  Status begin(const int64_t agreed[kAgreementValues]);
  ~Transfer();

  // Collective: completes the transfer; the same status on every rank.
  // A failed `refusal` is this rank's outcome whatever its own part did
  // (the C boundary's wait with a bad handle completes the transfer the
  // group's other ranks are waiting for, so they get kRemote, not a hang).
  Status wait(const Status& refusal = Status::Ok());
  // Local, never blocks: moves the transfer on as far as it can without
  // waiting (a read's rounds, its unpacking) and returns true once this
  // rank's part is complete, as MPI_Test does: a write's file I/O and
  // messages done, a read's data in buf. wait() is still needed, on every
  // rank, for the agreed status; until then a read's buf may hold values
  // of a transfer that failed elsewhere.
  bool test();
  const TransferCounts& counts() const { return counts_; }

 private:
  Transfer(Decomposition& d, Target& target, uint64_t offset, device::IoKind kind, ElementType mem_type, void* buf);
  Status check() const;
  void choose_side();
  Status go_ahead(const int64_t agreed[kAgreementValues]);
  Status prepare();
  void find_direct();
  bool uses_windows() const;
  void add_direct(uint64_t at, char* from, size_t bytes);
  void flush_direct(bool last = false);
  Status pack();
  Status unpack();
  MPI_Request post(bool send, char* at, size_t bytes, int peer, int tag);
  void post_own_messages(device::IoKind direction);
  MPI_Request move_piece(const RoundPlan::Piece& p, char* at, int64_t r);
  void convert_round(int64_t r);
  void write_rounds();
  void receive_round(int64_t r);
  void submit_writes(int64_t r);
  void submit_read(int64_t r);
  void move_direct(bool here);
  bool direct_request(device::IoKind kind, uint64_t at, char* buf, size_t bytes, bool here, int slot = 2);
  void write_chunks();
  void pack_send(int32_t send, char* to) const;
  void send_from_caller(int64_t last_round);
  bool read_chunks(bool block);
  void start_chunk_reads(int64_t c);
  template <typename Part>
  bool chunk_parts(int64_t lo, int64_t hi, Part&& part);
  void unpack_message(int32_t send, const char* from) const;
  bool receive_to_caller(int64_t last_round, bool block);
  bool unpack_received(int buffer, bool block);
  void zero_short_reads(int slot);
  void send_round(int64_t r);
  bool progress_read(bool block);
  bool progress(bool block);
  bool requests_done(std::vector<MPI_Request>& requests, bool block);
  bool io_done(int slot, bool block);
  void wait_io(int slot);
  void wait_requests(std::vector<MPI_Request>& requests);
  void wait_quietly(std::vector<MPI_Request>& requests);
  // The buffers are null where no round uses a window (uses_windows()).
  char* window(int64_t r) { return buffers_ ? buffers_->window[r % 2].get() : nullptr; }
  // Where round r's elements are as they travel: its window, or where the
  // aggregator converts, a window of memory-typed elements.
  char* landing(int64_t r) {
    return aggregator_converts_ ? buffers_->wire[kind_ == device::IoKind::kWrite ? 0 : r % 2].get() : window(r);
  }
  char* staging() { return buffers_ ? buffers_->staging.get() : nullptr; }
  // Whether the caller's buffer can be the packed copy: the elements are in
  // file order, and travel as they are in memory.
  bool direct() const;
  void fail(const Status& s) {
    if (local_.ok() && !s.ok()) local_ = s;
  }

  Decomposition& d_;
  Target& target_;
  const uint64_t offset_;
  const device::IoKind kind_;
  const ElementType mem_type_;
  void* const buf_;
  const size_t file_size_;  // bytes per element in the file
  size_t wire_size_;        // bytes per element in messages and the packed copy
  bool aggregator_converts_ = false;  // else the sender (write) or owner (read) converts
  // A write with no packed copy (elements kept by slot; no conversion on
  // this rank): the elements go from the caller's buffer into two kept
  // buffers in turn (Decomposition::own_memory()): direct, chunks written
  // from there (write_chunks); through the aggregators, messages sent from
  // there (send_from_caller), this rank's own part packed straight into
  // its window or staging buffer.
  bool from_caller_ = false;
  // A read with no packed copy, the reverse (elements kept by slot; no
  // conversion on this rank): direct, chunks read into the two buffers in
  // turn and moved from there into the caller's buffer (read_chunks);
  // through the aggregators, messages received into the two send buffers
  // in the same round order and moved from there (receive_to_caller),
  // this rank's own part straight from its window or staging buffer.
  bool to_caller_ = false;
  size_t next_place_ = 0;                   // the next of d_.send_places() to pack and send, or receive into
  std::vector<MPI_Request> send_requests_[2];  // out of (write) or into (read) each send buffer
  std::vector<size_t> received_[2];            // read: the places (of send_places()) posted into each, in order
  int64_t next_chunk_ = 0, unpacked_chunks_ = 0;  // direct read: chunks started, chunks moved out
  size_t chunk_run_ = 0;                        // direct transfer: the run the next chunk starts in
  int64_t chunk_run_packed_ = 0;                // and that run's packed position
  uint64_t seq_ = 0;
  Status local_;            // this rank's first failure after the start agreement
  bool waited_ = false;
  bool borrow_ = false;
  bool blocking_ = false;

  // This rank's elements in file order and type: packed_storage_, or the
  // caller's buffer itself when nothing moves or converts.
  char* packed_ = nullptr;
  LargeBuffer packed_storage_;  // huge pages where it is large: the random side of a permutation
  std::unique_ptr<AggregatorBuffers> buffers_;  // aggregators: from the decomposition
  std::vector<MPI_Request> own_messages_;          // this rank as a sender (write) or owner receives (read)
  std::vector<MPI_Request> round_recvs_;    // aggregator: the current round's receives (write)
  std::vector<MPI_Request> window_sends_[2];  // aggregator: sends out of a window buffer (read)
  std::vector<MPI_Request> staging_sends_;    // aggregator: sends out of the staging buffer (read)
  // File I/O of the round in each window, and [2] the direct requests
  // (a write's pieces, a read's runs).
  std::vector<std::shared_ptr<device::Request>> io_[3];
  // Aggregator: per round, the index of its own piece when that piece
  // moves straight between the packed copy and the file (no window): -1
  // where it does not. A write's piece qualifies when it alone makes one
  // of the round's held ranges, a read's when it is the round's only piece
  // and range; neither where the aggregator converts. Consecutive direct
  // pieces of a write that continue each other in the file and in the
  // packed copy become one request (pending_direct_), so one rank writing
  // a contiguous slab writes it from the caller's buffer in one request.
  std::vector<int32_t> direct_;
  struct {
    uint64_t at = 0;
    char* from = nullptr;
    size_t bytes = 0;
  } pending_direct_;
  // Read, aggregator: the direct rounds' pieces as file ranges, those that
  // continue each other in the file and in the packed copy joined into one
  // (one rank reading a contiguous slab: one request of all of it, into
  // the caller's buffer when it is the packed copy). They need no window
  // and no message, so they are read after the rounds that do, while the
  // owners unpack: a blocking call on the calling thread (Target::run),
  // else through the target's engine, started in begin().
  // A direct transfer (Decomposition::direct_io), every rank, either way:
  // its runs of the file, each one request between the packed copy and
  // the target, moved in begin() (on this thread when blocking).
  struct DirectRun {
    uint64_t at = 0;
    char* buf = nullptr;  // in the packed copy
    size_t bytes = 0;
  };
  std::vector<DirectRun> direct_runs_;
  bool direct_started_ = false;
  uint64_t target_size_ = 0;                // read: the target's end
  int64_t next_read_ = 0;                   // read: the next round to submit
  int64_t next_round_ = 0;                  // read: the next round to send out
  enum class ReadStep { kRead, kSend, kNextRead } read_step_ = ReadStep::kRead;  // within next_round_
  bool unpacked_ = false;                   // read: buf filled
  TransferCounts counts_;
};

}  // namespace pario::collective
