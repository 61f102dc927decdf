#include "collective/transfer.h"

#include <algorithm>
#include <cstring>
#include <ctime>
#include <new>
#include <string>

#include "base/checked.h"
#include "base/convert.h"
#include "base/stats.h"

namespace pario::collective {
namespace {

// Elements converted at a time between the caller's buffer and the packed
// copy: the temporary stays small (at most 1 MiB of complex doubles).
constexpr int64_t kChunk = int64_t{1} << 16;

LargeBuffer allocate(int64_t bytes, const char* what, Status* status) {
  if (bytes <= 0 || !status->ok()) return LargeBuffer();
  LargeBuffer p = LargeBuffer::allocate(static_cast<size_t>(bytes));
  if (!p) *status = Status(Code::kNoMemory, std::string(what) + " (" + std::to_string(bytes) + " bytes)");
  return p;
}

// One finished transfer into the process's statistics (PARIO_STATS).
void record(device::IoKind kind, const TransferCounts& c) {
  StatsRegistry& stats = StatsRegistry::global();
  if (!stats.enabled()) return;
  CollectiveSnapshot one;
  one.transfers = 1;
  one.messages_sent = c.messages_sent;
  one.messages_received = c.messages_received;
  one.bytes_sent = c.bytes_sent;
  one.bytes_received = c.bytes_received;
  one.rounds = c.rounds;
  one.file_requests = c.io_requests;
  one.file_bytes = c.io_bytes;
  one.largest_request = c.largest_request;
  one.exchange_nanos = c.exchange_nanos;
  one.io_nanos = c.io_nanos;
  one.peak_buffer_bytes = c.buffer_bytes;
  stats.collective().record(kind == device::IoKind::kWrite ? IoDir::kWrite : IoDir::kRead, one);
}

}  // namespace

Transfer::Transfer(Decomposition& d, Target& target, uint64_t offset, device::IoKind kind, ElementType mem_type,
                   void* buf)
    : d_(d),
      target_(target),
      offset_(offset),
      kind_(kind),
      mem_type_(mem_type),
      buf_(buf),
      file_size_(element_size(d.file_type())),
      wire_size_(file_size_) {}

Transfer::~Transfer() {
  // A transfer dropped without wait() (only after a failed start, or by a
  // program error): complete what is in flight before the buffers go.
  if (!waited_) {
    for (auto* list : {&own_messages_, &round_recvs_, &window_sends_[0], &window_sends_[1], &staging_sends_,
                       &send_requests_[0], &send_requests_[1]}) {
      if (!list->empty()) MPI_Waitall(static_cast<int>(list->size()), list->data(), MPI_STATUSES_IGNORE);
    }
    for (auto& slot : io_)
      for (auto& r : slot) device::wait(*r);
  }
  if (buffers_) d_.give_back(std::move(buffers_));  // e.g. prepared, then the agreement failed
}

namespace {

// Whether the aggregators convert, by the options and, for auto, the rule.
bool aggregator_converts(ConvertAt at, ElementType mem, ElementType file, ByteOrder order, device::IoKind kind) {
  if (mem == file && !needs_swap(order)) return false;  // nothing to convert
  switch (at) {
    case ConvertAt::kSender:
      return false;
    case ConvertAt::kAggregator:
      return true;
    case ConvertAt::kAuto:
      break;
  }
  // Measured (bench/run collective, docs/performance.md "Where the
  // conversion happens"): int32 in memory, int64 or double big endian in
  // the file, at 2 and 4 ranks, the aggregator converting wrote 2.0-2.7x
  // and read 1.7-2.7x as fast as the sender (blocks; 1.0-1.8x unstructured,
  // where both sides pack): messages carry the smaller elements, and memory
  // already in file order needs no packed copy. So the aggregator converts
  // when the memory type is the smaller one, except a write whose
  // conversion can fail (the senders would check every value as well; not
  // measured). Equal sizes (byte order alone) stay on the sender: not
  // measured.
  if (element_size(mem) >= element_size(file)) return false;
  return kind == device::IoKind::kRead || !conversion_can_fail(mem, file);
}

}  // namespace

// The arguments this rank can check alone.
Status Transfer::check() const {
  if (!valid_element_type(static_cast<int>(mem_type_))) {
    return Status(Code::kInvalidArgument, "mem_type " + std::to_string(static_cast<int>(mem_type_)) +
                                              " is not a PARIO_TYPE_*");
  }
  if (d_.local_count() > 0 && buf_ == nullptr) return Status(Code::kInvalidArgument, "buf is NULL");
  int64_t bytes = 0, end = 0;
  if (!checked_mul(d_.global_size(), static_cast<int64_t>(file_size_), &bytes) ||
      offset_ > static_cast<uint64_t>(INT64_MAX) || !checked_add(static_cast<int64_t>(offset_), bytes, &end)) {
    return Status(Code::kOutOfRange, "offset " + std::to_string(offset_) + " + the global space passes 2^63 bytes");
  }
  if (kind_ == device::IoKind::kWrite && d_.overlaps()) {
    return Status(Code::kInvalidArgument,
                  "the decomposition's indices overlap (two ranks, or one rank twice, hold one index): "
                  "it can be read but not written");
  }
  return Status::Ok();
}

// Where the conversion happens, as this rank sees it: the options and, for
// auto, the rule, for its own memory type. The aggregators must convert
// to or from one memory type, so the start agreement also compares the
// memory types (go_ahead()).
void Transfer::choose_side() {
  aggregator_converts_ = !d_.direct_io() &&
                         aggregator_converts(d_.convert_at(), mem_type_, d_.file_type(), d_.byte_order(), kind_);
  wire_size_ = aggregator_converts_ ? element_size(mem_type_) : file_size_;
}

void Transfer::agreement_values(int64_t values[kAgreementValues]) const {
  values[0] = static_cast<int64_t>(mem_type_);  // max
  values[1] = -static_cast<int64_t>(mem_type_);  // -min
}

// After the start agreement (every rank's status of its checks, buffers
// and (write) packed copy, and in the same allreduce the memory types).
// Ranks whose memory types differ all convert on the sender side: those
// that prepared for the aggregator prepare again, and the ranks agree once
// more (only then: the common case costs no allreduce beyond the one).
Status Transfer::go_ahead(const int64_t agreed[kAgreementValues]) {
  // Direct: every rank converts its own elements, whatever the others' types.
  if (agreed[0] == -agreed[1] || d_.convert_at() == ConvertAt::kSender || d_.direct_io()) return Status::Ok();
  Status local;
  if (aggregator_converts_) {
    aggregator_converts_ = false;
    wire_size_ = file_size_;
    packed_storage_.reset();
    if (buffers_) d_.give_back(std::move(buffers_));
    counts_.buffer_bytes = 0;
    local = prepare();
    if (local.ok() && kind_ == device::IoKind::kWrite) local = pack();
  }
  return comm::agree(d_.comm(), local);
}

// Every buffer, before the ranks agree to go ahead.
Status Transfer::prepare() {
  Status s;
  // No packed copy where nothing converts on this rank (go_ahead() may
  // move the conversion here and prepare again).
  const bool by_slot_unconverted =
      !d_.own_memory().empty() &&
      (aggregator_converts_ || (mem_type_ == d_.file_type() && d_.byte_order() == ByteOrder::kNative));
  from_caller_ = kind_ == device::IoKind::kWrite && by_slot_unconverted;
  to_caller_ = kind_ == device::IoKind::kRead && by_slot_unconverted;
  if ((from_caller_ || to_caller_) && !d_.direct_io()) {
    // Sent from (write) or received into (read) two kept send buffers
    // (send_from_caller, receive_to_caller), taken with the aggregator's
    // windows below.
  } else if (from_caller_ || to_caller_) {
    // No packed copy: chunk by chunk through the decomposition's kept
    // buffers (write_chunks, read_chunks).
    Result<std::unique_ptr<AggregatorBuffers>> b = d_.take_buffers(file_size_, wire_size_, 0);
    if (!b.ok()) return b.status();
    buffers_ = std::move(b).value();
    counts_.buffer_bytes += buffers_->window_bytes[0] + buffers_->window_bytes[1];
  } else if (direct() && (kind_ == device::IoKind::kRead || borrow_)) {
    packed_ = static_cast<char*>(buf_);  // sent from / received into the caller's buffer
  } else {
    packed_storage_ = allocate(d_.local_count() * static_cast<int64_t>(wire_size_),
                               "the packed copy of this rank's elements", &s);
    packed_ = packed_storage_.get();
    counts_.buffer_bytes += d_.local_count() * wire_size_;
  }
  find_direct();
  const bool windows = d_.is_aggregator() && !d_.direct_io() && uses_windows();
  const bool sends = (from_caller_ || to_caller_) && !d_.direct_io() && d_.send_buffers() > 0;
  if (s.ok() && (windows || sends)) {
    const int wire_windows = aggregator_converts_ ? (kind_ == device::IoKind::kWrite ? 1 : 2) : 0;
    Result<std::unique_ptr<AggregatorBuffers>> b = d_.take_buffers(file_size_, wire_size_, wire_windows, sends);
    if (!b.ok()) return b.status();
    buffers_ = std::move(b).value();
    int64_t window = 0;
    for (const RoundPlan& r : d_.rounds()) window = std::max(window, r.end - r.begin);
    if (windows) {
      counts_.buffer_bytes += static_cast<uint64_t>(window) * file_size_ * (d_.rounds().size() > 1 ? 2 : 1) +
                              d_.staging_elements() * wire_size_ +
                              static_cast<uint64_t>(window) * wire_size_ * wire_windows;
    }
    if (sends) counts_.buffer_bytes += static_cast<uint64_t>(d_.send_buffers() * d_.send_buffer_elements()) * wire_size_;
  }
  const bool reads_target = d_.direct_io() ? !d_.direct_runs().empty() : d_.is_aggregator() && !d_.rounds().empty();
  if (s.ok() && kind_ == device::IoKind::kRead && reads_target) {
    Result<uint64_t> size = target_.size();
    if (!size.ok()) return size.status();
    target_size_ = *size;
  }
  return s;
}

// Which of this aggregator's own pieces move straight between the packed
// copy and the file (see direct_ in transfer.h). A write's own piece in
// place in its window, held by no other rank around it, is exactly one of
// the round's held ranges; the copy into the window is then the only
// thing the window would add.
void Transfer::find_direct() {
  direct_.clear();
  direct_runs_.clear();
  if (d_.direct_io()) {  // every rank: its own runs, one request each
    if (!packed_) return;  // its allocation failed
    int64_t packed = 0;
    for (const auto& [global, length] : d_.direct_runs()) {
      direct_runs_.push_back({offset_ + static_cast<uint64_t>(global) * file_size_, packed_ + packed * file_size_,
                               static_cast<size_t>(length) * file_size_});
      packed += length;
    }
    return;
  }
  // From or to the caller's buffer there is no packed copy to move.
  if (!d_.is_aggregator() || aggregator_converts_ || from_caller_ || to_caller_) return;
  const std::vector<RoundPlan>& rounds = d_.rounds();
  direct_.assign(rounds.size(), -1);
  const bool write = kind_ == device::IoKind::kWrite;
  for (size_t r = 0; r < rounds.size(); ++r) {
    const RoundPlan& round = rounds[r];
    for (size_t i = 0; i < round.pieces.size(); ++i) {
      const RoundPlan::Piece& p = round.pieces[i];
      if (p.sender != d_.rank()) continue;
      if (!p.in_place) break;
      const std::pair<int64_t, int64_t> range{p.at, p.count};
      bool alone = false;
      if (write) {
        auto it = std::lower_bound(round.covered.begin(), round.covered.end(), range,
                                   [](const auto& a, const auto& b) { return a.first < b.first; });
        alone = it != round.covered.end() && *it == range;
      } else {
        alone = round.pieces.size() == 1 && round.covered.size() == 1 && round.covered.front() == range;
      }
      if (alone) direct_[r] = static_cast<int32_t>(i);
      break;
    }
    if (!write && direct_[r] >= 0 && packed_) {  // (no packed copy: its allocation failed)
      const RoundPlan::Piece& p = round.pieces[direct_[r]];
      const uint64_t at = offset_ + static_cast<uint64_t>(round.begin + p.at) * file_size_;
      char* to = packed_ + p.self_offset * file_size_;
      const size_t bytes = static_cast<size_t>(p.count) * file_size_;
      DirectRun* last = direct_runs_.empty() ? nullptr : &direct_runs_.back();
      if (last && last->at + last->bytes == at && last->buf + last->bytes == to) {
        last->bytes += bytes;
      } else {
        direct_runs_.push_back({at, to, bytes});
      }
    }
  }
}

// Whether any round needs a window: one whose only piece is direct does not.
bool Transfer::uses_windows() const {
  const std::vector<RoundPlan>& rounds = d_.rounds();
  for (size_t r = 0; r < rounds.size(); ++r) {
    if (direct_.empty() || direct_[r] < 0 || rounds[r].pieces.size() > 1) return true;
  }
  return false;
}

bool Transfer::direct() const {
  if (!d_.memory_in_file_order()) return false;
  return aggregator_converts_ || (mem_type_ == d_.file_type() && d_.byte_order() == ByteOrder::kNative);
}

// Packed copy, in file order: converted to the file type and byte order,
// or as it is where the aggregators convert. Then the values are checked
// there too, if the conversion can fail, so that a value that does not fit
// is refused before anything is written. Elements kept one per entry
// (memory_slots(): an index list) are moved in memory order into their
// slots of the packed copy, the random side in the engine's buffer; runs
// are copied in file order. A value that does not fit is named by its
// memory index.
Status Transfer::pack() {
  const int64_t n = d_.local_count();
  auto refused = [&](const Status& s, int64_t memory_index) {
    return Status(s.code(), "buf[" + std::to_string(memory_index) + "] does not fit the file type: " + s.message());
  };
  if (from_caller_) {  // no packed copy (write_chunks, send_from_caller): the values checked where they are
    if (!aggregator_converts_ || !conversion_can_fail(mem_type_, d_.file_type())) return Status::Ok();
    size_t bad = 0;
    Status s = check_convertible(mem_type_, buf_, d_.file_type(), static_cast<size_t>(n), &bad);
    return s.ok() ? s : refused(s, static_cast<int64_t>(bad));
  }
  const PositionList& order = d_.memory_order();
  const PositionList& slots = d_.memory_slots();
  const bool by_slot = slots.elements() > 0;
  const size_t mem_size = element_size(mem_type_);
  const char* user = static_cast<const char*>(buf_);
  if (aggregator_converts_ || (mem_type_ == d_.file_type() && d_.byte_order() == ByteOrder::kNative)) {
    if (packed_ != buf_) {
      if (by_slot) slots.scatter(packed_, mem_size, 0, n, user);
      else order.gather(user, mem_size, 0, n, packed_);
    }
    if (!aggregator_converts_ || !conversion_can_fail(mem_type_, d_.file_type())) return Status::Ok();
    size_t bad = 0;
    Status s = check_convertible(mem_type_, packed_, d_.file_type(), static_cast<size_t>(n), &bad);
    if (s.ok()) return s;
    return refused(s, by_slot ? slots.find(static_cast<int64_t>(bad)) : order.at(static_cast<int64_t>(bad)));
  }
  // Converted chunk by chunk: from the caller's buffer where memory is in
  // file order, else through a temporary (gathered from memory before the
  // conversion, or converted in memory order and then moved to its slots).
  const bool in_order = !by_slot && order.identity();
  std::unique_ptr<char[]> temp;
  if (!in_order) {
    temp.reset(new (std::nothrow) char[static_cast<size_t>(std::min(n, kChunk)) * std::max(mem_size, file_size_) + 1]);
    if (!temp) return Status(Code::kNoMemory, "a conversion buffer");
  }
  for (int64_t k = 0; k < n; k += kChunk) {
    const int64_t count = std::min(kChunk, n - k);
    size_t bad = 0;
    Status s;
    if (by_slot) {
      s = convert(mem_type_, user + k * mem_size, d_.file_type(), temp.get(), count, d_.byte_order(), &bad);
      if (s.ok()) slots.scatter(packed_, file_size_, k, count, temp.get());
    } else {
      if (!in_order) order.gather(user, mem_size, k, count, temp.get());
      s = convert(mem_type_, in_order ? user + k * mem_size : temp.get(), d_.file_type(), packed_ + k * file_size_,
                  count, d_.byte_order(), &bad);
    }
    if (!s.ok()) return refused(s, by_slot ? k + static_cast<int64_t>(bad) : order.at(k + static_cast<int64_t>(bad)));
  }
  return Status::Ok();
}

// The caller's buffer from the packed copy (read): the reverse of pack().
Status Transfer::unpack() {
  if (to_caller_ || packed_ == buf_) return Status::Ok();  // moved there already, or read in place
  const PositionList& order = d_.memory_order();
  const PositionList& slots = d_.memory_slots();
  const bool by_slot = slots.elements() > 0;
  const int64_t n = d_.local_count();
  const size_t mem_size = element_size(mem_type_);
  char* user = static_cast<char*>(buf_);
  if (aggregator_converts_ || (mem_type_ == d_.file_type() && d_.byte_order() == ByteOrder::kNative)) {
    // converted by the aggregators, or nothing to convert
    if (by_slot) slots.gather(packed_, mem_size, 0, n, user);
    else order.scatter(user, mem_size, 0, n, packed_);
    return Status::Ok();
  }
  std::unique_ptr<char[]> temp(
      new (std::nothrow) char[static_cast<size_t>(std::min(n, kChunk)) * std::max(mem_size, file_size_) + 1]);
  if (!temp) return Status(Code::kNoMemory, "a conversion buffer");
  for (int64_t k = 0; k < n; k += kChunk) {
    const int64_t count = std::min(kChunk, n - k);
    size_t bad = 0;
    Status s;
    if (by_slot) {
      slots.gather(packed_, file_size_, k, count, temp.get());
      s = convert_from(d_.file_type(), temp.get(), d_.byte_order(), mem_type_, user + k * mem_size, count, &bad);
    } else {
      s = convert_from(d_.file_type(), packed_ + k * file_size_, d_.byte_order(), mem_type_, temp.get(), count, &bad);
      if (s.ok()) order.scatter(user, mem_size, k, count, temp.get());
    }
    if (!s.ok()) {
      const int64_t at = by_slot ? k + static_cast<int64_t>(bad) : order.at(k + static_cast<int64_t>(bad));
      return Status(s.code(), "buf[" + std::to_string(at) + "] cannot hold the value in the file: " + s.message());
    }
  }
  return Status::Ok();
}

// One message of `bytes` at `at` to (send) or from peer, counted;
// MPI_REQUEST_NULL after a failure, which is kept.
MPI_Request Transfer::post(bool send, char* at, size_t bytes, int peer, int tag) {
  MPI_Request req = MPI_REQUEST_NULL;
  const int count = static_cast<int>(bytes);
  const int rc = send ? MPI_Isend(at, count, MPI_BYTE, peer, tag, d_.comm().get(), &req)
                      : MPI_Irecv(at, count, MPI_BYTE, peer, tag, d_.comm().get(), &req);
  if (rc != MPI_SUCCESS) {
    fail(comm::mpi_status(rc, send ? "MPI_Isend" : "MPI_Irecv"));
    return MPI_REQUEST_NULL;
  }
  (send ? counts_.messages_sent : counts_.messages_received)++;
  (send ? counts_.bytes_sent : counts_.bytes_received) += bytes;
  return req;
}

// This rank's own messages, one per planned Send: its packed elements sent
// to their aggregators (write) or received from them (read). The buffers,
// counts and tags are the same either way; only the direction differs.
void Transfer::post_own_messages(device::IoKind direction) {
  if (from_caller_ || to_caller_) return;  // no packed copy: send_from_caller, receive_to_caller
  for (const Send& s : d_.sends()) {
    const int peer = d_.plan().aggregator_rank(s.aggregator);
    if (peer == d_.rank()) continue;  // the aggregator copies its own part
    const MPI_Request req = post(direction == device::IoKind::kWrite, packed_ + s.offset * wire_size_,
                                 s.count * wire_size_, peer, d_.tag(seq_, s.round));
    if (req != MPI_REQUEST_NULL) own_messages_.push_back(req);
  }
}

// An aggregator's piece p of round r, at `at` (a window or the staging
// buffer): received from its rank (write) or sent to it (read); this
// rank's own piece is copied from or to the packed copy instead.
MPI_Request Transfer::move_piece(const RoundPlan::Piece& p, char* at, int64_t r) {
  const bool write = kind_ == device::IoKind::kWrite;
  const size_t bytes = p.count * wire_size_;
  if (p.sender == d_.rank()) {
    char* own = packed_ + p.self_offset * wire_size_;
    std::memcpy(write ? at : own, write ? own : at, bytes);
    return MPI_REQUEST_NULL;
  }
  return post(!write, at, bytes, p.sender, d_.tag(seq_, r));
}

void Transfer::wait_requests(std::vector<MPI_Request>& requests) {
  if (requests.empty()) return;
  const uint64_t t0 = now_nanos();
  const int rc = MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) fail(comm::mpi_status(rc, "MPI_Waitall"));
  requests.clear();
  counts_.exchange_nanos += now_nanos() - t0;
}

void Transfer::wait_io(int slot) {
  const uint64_t t0 = now_nanos();
  for (auto& r : io_[slot]) {
    device::wait(*r);
    if (!r->status().ok()) {
      fail(r->status());
    } else if (kind_ == device::IoKind::kWrite && r->transferred() != r->len) {
      fail(Status(Code::kIo, "a short write at offset " + std::to_string(r->offset)));
    }
  }
  counts_.io_nanos += now_nanos() - t0;
}

// Write: round r's messages land in its window (in place) or the staging
// buffer; this rank's own part is copied.
void Transfer::receive_round(int64_t r) {
  const RoundPlan& round = d_.rounds()[r];
  char* win = landing(r);
  const int32_t direct = direct_.empty() ? -1 : direct_[r];
  for (size_t i = 0; i < round.pieces.size(); ++i) {
    const RoundPlan::Piece& p = round.pieces[i];
    if (static_cast<int32_t>(i) == direct) continue;  // written from the packed copy
    if (from_caller_ && p.sender == d_.rank()) {  // packed from the caller's buffer where it lands
      pack_send(p.self_send, (p.in_place ? win : staging()) + p.at * wire_size_);
      continue;
    }
    const MPI_Request req = move_piece(p, (p.in_place ? win : staging()) + p.at * wire_size_, r);
    if (req != MPI_REQUEST_NULL) round_recvs_.push_back(req);
  }
}

void Transfer::submit_writes(int64_t r) {
  if (!local_.ok()) return;  // after a failure: keep exchanging, write nothing more
  const RoundPlan& round = d_.rounds()[r];
  const RoundPlan::Piece* direct = direct_.empty() || direct_[r] < 0 ? nullptr : &round.pieces[direct_[r]];
  char* win = window(r);
  for (const auto& [pos, len] : round.covered) {
    const uint64_t at = offset_ + static_cast<uint64_t>(round.begin + pos) * file_size_;
    if (direct && pos == direct->at) {
      add_direct(at, packed_ + direct->self_offset * file_size_, len * file_size_);
      continue;
    }
    Result<std::shared_ptr<device::Request>> req =
        target_.start(device::IoKind::kWrite, at, win + pos * file_size_, len * file_size_);
    if (!req.ok()) {
      fail(req.status());
      return;
    }
    io_[r % 2].push_back(*req);
    counts_.io_requests++;
    counts_.io_bytes += len * file_size_;
    counts_.largest_request = std::max<uint64_t>(counts_.largest_request, len * file_size_);
  }
}

// A direct range of a write: joined to the pending one when it continues
// it in the file and in the packed copy, else the pending one is started.
void Transfer::add_direct(uint64_t at, char* from, size_t bytes) {
  auto& p = pending_direct_;
  if (p.bytes > 0 && p.at + p.bytes == at && p.from + p.bytes == from) {
    p.bytes += bytes;
    return;
  }
  flush_direct();
  p.at = at;
  p.from = from;
  p.bytes = bytes;
}

void Transfer::flush_direct(bool last) {
  auto& p = pending_direct_;
  const size_t bytes = p.bytes;
  p.bytes = 0;
  if (bytes == 0 || !local_.ok()) return;
  // nothing left to overlap in a blocking call's last one: on this thread
  direct_request(device::IoKind::kWrite, p.at, p.from, bytes, /*here=*/last && blocking_);
}

// One direct request (a write's joined pieces, a read's run), counted: on
// this thread (`here`, Target::run; a short read's rest reads as zeros, a
// short write fails) or started through the target's engine into io_[2].
// False when it could not be started.
bool Transfer::direct_request(device::IoKind kind, uint64_t at, char* buf, size_t bytes, bool here, int slot) {
  if (here) {
    const uint64_t t0 = now_nanos();
    size_t moved = 0;
    Status s = target_.run(kind, at, buf, bytes, &moved);
    if (s.ok() && moved < bytes) {
      if (kind == device::IoKind::kWrite) s = Status(Code::kIo, "a short write at offset " + std::to_string(at));
      else std::memset(buf + moved, 0, bytes - moved);  // the file shrank
    }
    fail(s);
    counts_.io_nanos += now_nanos() - t0;
  } else {
    Result<std::shared_ptr<device::Request>> req = target_.start(kind, at, buf, bytes);
    if (!req.ok()) {
      fail(req.status());
      return false;
    }
    io_[slot].push_back(*req);
  }
  counts_.io_requests++;
  counts_.io_bytes += bytes;
  counts_.largest_request = std::max<uint64_t>(counts_.largest_request, bytes);
  return true;
}

// The parts of this rank's file runs (d_.direct_runs(), in packed order)
// whose packed positions fall in [lo, hi): part(file offset, packed
// position, elements) for each, resuming where the chunk before stopped
// (chunks come in order). False as soon as part returns false.
template <typename Part>
bool Transfer::chunk_parts(int64_t lo, int64_t hi, Part&& part) {
  const std::vector<std::pair<int64_t, int64_t>>& runs = d_.direct_runs();
  while (chunk_run_ < runs.size() && chunk_run_packed_ < hi) {
    const auto [global, length] = runs[chunk_run_];
    const int64_t from = std::max(chunk_run_packed_, lo), to = std::min(chunk_run_packed_ + length, hi);
    if (!part(offset_ + static_cast<uint64_t>(global + from - chunk_run_packed_) * file_size_, from, to - from)) {
      return false;
    }
    if (chunk_run_packed_ + length > hi) break;  // the run goes on in the next chunk
    chunk_run_packed_ += length;
    ++chunk_run_;
  }
  return true;
}

// A direct write without a packed copy (from_caller_): chunk c of the
// packed positions is filled from the caller's buffer in its buffer
// (window c % 2, whose writes of chunk c - 2 are waited for first) by the
// decomposition's lists, and the parts of this rank's file runs that fall
// in it are written from there, through the engine (so chunk c's writes
// overlap chunk c + 1's filling), the last chunk on this thread when
// blocking.
void Transfer::write_chunks() {
  const std::vector<int64_t>& start = d_.own_chunk_start();
  const int64_t size = d_.chunk_elements(), n = d_.local_count();
  const int64_t chunks = static_cast<int64_t>(start.size()) - 1;
  for (int64_t c = 0; c < chunks && local_.ok(); ++c) {
    const int slot = static_cast<int>(c % 2);
    wait_io(slot);
    io_[slot].clear();
    char* chunk = buffers_->window[slot].get();
    const int64_t lo = c * size, hi = std::min(n, lo + size);
    d_.memory_slots().scatter_chosen(chunk, file_size_, lo, d_.own_memory().data() + start[c], start[c + 1] - start[c],
                                     static_cast<const char*>(buf_));
    const bool here = blocking_ && c + 1 == chunks;
    const bool sent = chunk_parts(lo, hi, [&](uint64_t at, int64_t packed, int64_t count) {
      return local_.ok() && direct_request(device::IoKind::kWrite, at, chunk + (packed - lo) * file_size_,
                                           static_cast<size_t>(count) * file_size_, here, slot);
    });
    if (!sent) return;
  }
}

// Message `send` of this rank, from the caller's buffer into `to` (as the
// packed copy would hold it): in memory order, into its slots.
void Transfer::pack_send(int32_t send, char* to) const {
  const Send& s = d_.sends()[send];
  const int64_t first = d_.own_chunk_start()[send];
  d_.memory_slots().scatter_chosen(to, wire_size_, s.offset, d_.own_memory().data() + first,
                                   d_.own_chunk_start()[send + 1] - first, static_cast<const char*>(buf_));
}

// A write from the caller's buffer through the aggregators: this rank's
// messages of rounds up to last_round, in d_.send_places()'s order, each
// packed into its send buffer and posted at once; a buffer is reused once
// its earlier messages are gone (waited without spinning where a rank
// that only sends shares its cores).
void Transfer::send_from_caller(int64_t last_round) {
  const std::vector<SendPlace>& places = d_.send_places();
  for (; next_place_ < places.size(); ++next_place_) {
    const SendPlace& p = places[next_place_];
    const Send& s = d_.sends()[p.send];
    if (s.round > last_round) return;
    std::vector<MPI_Request>& in_flight = send_requests_[p.buffer];
    if (p.at == 0 && !in_flight.empty()) {
      if (!d_.is_aggregator() && d_.oversubscribed()) wait_quietly(in_flight);
      wait_requests(in_flight);
    }
    char* to = buffers_->send[p.buffer].get() + p.at * wire_size_;
    pack_send(p.send, to);
    const MPI_Request req =
        post(true, to, s.count * wire_size_, d_.plan().aggregator_rank(s.aggregator), d_.tag(seq_, s.round));
    if (req != MPI_REQUEST_NULL) in_flight.push_back(req);
  }
}

// A direct read without a packed copy (to_caller_): the reverse of
// write_chunks. Chunk c's parts of this rank's file runs are read into
// its buffer (window c % 2) through the engine, two chunks ahead, and
// once read moved into the caller's buffer by the decomposition's lists
// (reads of chunk c + 2 start when chunk c is out). Without `block`,
// stops at the first read not yet done and resumes there.
bool Transfer::read_chunks(bool block) {
  const int64_t chunks = static_cast<int64_t>(d_.own_chunk_start().size()) - 1;
  const int64_t size = d_.chunk_elements();
  while (unpacked_chunks_ < chunks) {
    for (; next_chunk_ < chunks && next_chunk_ < unpacked_chunks_ + 2 && local_.ok(); ++next_chunk_) {
      start_chunk_reads(next_chunk_);
    }
    const int64_t c = unpacked_chunks_;
    const int slot = static_cast<int>(c % 2);
    if (!io_done(slot, block)) return false;
    zero_short_reads(slot);
    if (local_.ok()) {
      const int64_t first = d_.own_chunk_start()[c];
      d_.memory_slots().gather_chosen(buffers_->window[slot].get(), file_size_, c * size,
                                      d_.own_memory().data() + first, d_.own_chunk_start()[c + 1] - first,
                                      static_cast<char*>(buf_));
    }
    ++unpacked_chunks_;
  }
  return true;
}

// Chunk c's reads into its buffer (chunk_parts), ending at the target's end.
void Transfer::start_chunk_reads(int64_t c) {
  const int64_t lo = c * d_.chunk_elements(), hi = std::min(d_.local_count(), lo + d_.chunk_elements());
  const int slot = static_cast<int>(c % 2);
  char* chunk = buffers_->window[slot].get();
  chunk_parts(lo, hi, [&](uint64_t at, int64_t packed, int64_t count) {
    const uint64_t bytes = static_cast<uint64_t>(count) * file_size_;
    char* into = chunk + (packed - lo) * file_size_;
    const uint64_t have = at >= target_size_ ? 0 : std::min(bytes, target_size_ - at);
    std::memset(into + have, 0, bytes - have);
    return have == 0 || direct_request(device::IoKind::kRead, at, into, have, /*here=*/false, slot);
  });
}

// Message `send` of this rank as it arrived at `from` (packed order) into
// the caller's buffer, in memory order: the reverse of pack_send.
void Transfer::unpack_message(int32_t send, const char* from) const {
  const Send& s = d_.sends()[send];
  const int64_t first = d_.own_chunk_start()[send];
  d_.memory_slots().gather_chosen(from, wire_size_, s.offset, d_.own_memory().data() + first,
                                  d_.own_chunk_start()[send + 1] - first, static_cast<char*>(buf_));
}

// A read into the caller's buffer through the aggregators: this rank's
// messages of rounds up to last_round received in d_.send_places()'s
// order (the write's), each into its place in a send buffer; a buffer is
// reused once its earlier messages are in and moved out. With last_round
// INT64_MAX, also every message still in a buffer, in order. Without
// `block`, stops at the first wait and resumes there. Why this cannot
// hang: docs/architecture.md, "Reads into the caller's buffer".
bool Transfer::receive_to_caller(int64_t last_round, bool block) {
  const std::vector<SendPlace>& places = d_.send_places();
  for (; next_place_ < places.size(); ++next_place_) {
    const SendPlace& p = places[next_place_];
    const Send& s = d_.sends()[p.send];
    if (s.round > last_round) return true;
    if (p.at == 0 && !unpack_received(p.buffer, block)) return false;
    char* to = buffers_->send[p.buffer].get() + p.at * wire_size_;
    const MPI_Request req =
        post(false, to, s.count * wire_size_, d_.plan().aggregator_rank(s.aggregator), d_.tag(seq_, s.round));
    if (req != MPI_REQUEST_NULL) send_requests_[p.buffer].push_back(req);
    received_[p.buffer].push_back(next_place_);
  }
  if (last_round != INT64_MAX || places.empty()) return true;
  const int last = places.back().buffer;  // its messages came after the other's
  return unpack_received(last ^ 1, block) && unpack_received(last, block);
}

// The messages posted into send buffer b, once all are in: moved into
// the caller's buffer, and the buffer free again.
bool Transfer::unpack_received(int b, bool block) {
  if (received_[b].empty()) return true;
  std::vector<MPI_Request>& in_flight = send_requests_[b];
  // with nothing else to do on an oversubscribed node, without spinning
  if (block && !d_.is_aggregator() && d_.oversubscribed()) wait_quietly(in_flight);
  if (!requests_done(in_flight, block)) return false;
  if (local_.ok()) {
    for (size_t place : received_[b]) {
      const SendPlace& p = d_.send_places()[place];
      unpack_message(p.send, buffers_->send[b].get() + p.at * wire_size_);
    }
  }
  received_[b].clear();
  return true;
}

// Where the aggregator converts: round r's held ranges between the
// elements as they travel (landing) and the file's (window), one way or
// the other. A failure names the global element.
void Transfer::convert_round(int64_t r) {
  const RoundPlan& round = d_.rounds()[r];
  char* wire = landing(r);
  char* file = window(r);
  for (const auto& [pos, len] : round.covered) {
    size_t bad = 0;
    Status s = kind_ == device::IoKind::kWrite
                   ? convert(mem_type_, wire + pos * wire_size_, d_.file_type(), file + pos * file_size_,
                             static_cast<size_t>(len), d_.byte_order(), &bad)
                   : convert_from(d_.file_type(), file + pos * file_size_, d_.byte_order(), mem_type_,
                                  wire + pos * wire_size_, static_cast<size_t>(len), &bad);
    if (!s.ok()) {
      fail(Status(s.code(), "global element " + std::to_string(round.begin + pos + static_cast<int64_t>(bad)) +
                                (kind_ == device::IoKind::kWrite ? " does not fit the file type: "
                                                                 : " cannot be held in the memory type: ") +
                                s.message()));
      return;
    }
  }
}

void Transfer::write_rounds() {
  const auto& rounds = d_.rounds();
  const int64_t n = static_cast<int64_t>(rounds.size());
  if (n == 0) return;
  receive_round(0);
  for (int64_t r = 0; r < n; ++r) {
    // Its messages of round r sent before it waits for its own round r
    // (the order that cannot hang: place_sends in collective/plan.h).
    if (from_caller_) send_from_caller(r);
    wait_requests(round_recvs_);
    const RoundPlan& round = rounds[r];
    if (round.staged.elements() > 0) round.staged.scatter(landing(r), wire_size_, 0, round.staged.elements(), staging());
    if (aggregator_converts_) {
      // Converted into its window once that window's last writes (round r-2) are done.
      wait_io(r % 2);
      io_[r % 2].clear();
      convert_round(r);
    }
    // Round r's writes go out before round r+1 is received: Open MPI copies
    // a large message on the receiving side, often inside MPI_Irecv (its
    // header came early), so receiving first left the engine idle during
    // that copy and queued each write only once the previous one was done,
    // a hand-off to the I/O thread and back per round with nothing to
    // overlap (docs/performance.md, "Table 1's 1 MiB rows").
    submit_writes(r);
    counts_.rounds++;
    if (r + 1 < n) {
      if (!aggregator_converts_) {
        // Received into the other window once round r-1's writes are done.
        wait_io((r + 1) % 2);
        io_[(r + 1) % 2].clear();
      }
      receive_round(r + 1);
    }
  }
  flush_direct(/*last=*/true);
}

// Read: round r's held span into its window, ending at the target's end
// (a direct round's piece is one of direct_runs_).
void Transfer::submit_read(int64_t r) {
  const RoundPlan& round = d_.rounds()[r];
  if (round.covered.empty() || (!direct_.empty() && direct_[r] >= 0)) return;
  const int64_t first = round.covered.front().first;
  const int64_t stop = round.covered.back().first + round.covered.back().second;
  char* win = window(r) + first * file_size_;
  const uint64_t at = offset_ + static_cast<uint64_t>(round.begin + first) * file_size_;
  const uint64_t want = static_cast<uint64_t>(stop - first) * file_size_;
  const uint64_t have = at >= target_size_ ? 0 : std::min(want, target_size_ - at);
  std::memset(win + have, 0, want - have);
  if (have == 0 || !local_.ok()) return;
  Result<std::shared_ptr<device::Request>> req = target_.start(device::IoKind::kRead, at, win, have);
  if (!req.ok()) {
    fail(req.status());
    return;
  }
  io_[r % 2].push_back(*req);
  counts_.io_requests++;
  counts_.io_bytes += have;
  counts_.largest_request = std::max<uint64_t>(counts_.largest_request, have);
}

// The direct runs (direct_runs_: an aggregator's own read rounds, or
// every run of a direct transfer), on this thread (`here`) or through the
// target's engine; a read's end at the target's end.
void Transfer::move_direct(bool here) {
  direct_started_ = true;
  const bool read = kind_ == device::IoKind::kRead;
  for (const DirectRun& run : direct_runs_) {
    uint64_t have = run.bytes;
    if (read) {
      have = run.at >= target_size_ ? 0 : std::min<uint64_t>(run.bytes, target_size_ - run.at);
      std::memset(run.buf + have, 0, run.bytes - have);
    }
    if (have == 0 || !local_.ok()) continue;
    if (!direct_request(kind_, run.at, run.buf, have, here)) return;
  }
}

// Read: bytes short of what a completed request of io_[slot] asked (the
// file shrank) read as zeros.
void Transfer::zero_short_reads(int slot) {
  for (auto& req : io_[slot]) {
    if (req->status().ok() && req->transferred() < req->len) {
      std::memset(static_cast<char*>(req->buf) + req->transferred(), 0, req->len - req->transferred());
    }
  }
  io_[slot].clear();
}

// Read, aggregator: round r's window, once read, to the ranks that hold
// its elements (staged pieces gathered first), this rank's own part copied.
void Transfer::send_round(int64_t r) {
  const RoundPlan& round = d_.rounds()[r];
  const int slot = static_cast<int>(r % 2);
  char* win = landing(r);
  if (!direct_.empty() && direct_[r] >= 0) return;  // read into the packed copy already
  for (const RoundPlan::Piece& p : round.pieces) {
    char* from = win + p.at * wire_size_;
    if (!p.in_place) {
      from = staging() + p.at * wire_size_;
      round.staged.gather(win, wire_size_, p.at, p.count, from);
    }
    if (to_caller_ && p.sender == d_.rank()) {  // straight into the caller's buffer
      unpack_message(p.self_send, from);
      continue;
    }
    const MPI_Request req = move_piece(p, from, r);
    if (req != MPI_REQUEST_NULL) (p.in_place ? window_sends_[slot] : staging_sends_).push_back(req);
  }
}

bool Transfer::requests_done(std::vector<MPI_Request>& requests, bool block) {
  if (requests.empty()) return true;
  if (block) {
    wait_requests(requests);
    return true;
  }
  int done = 0;
  const int rc = MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
  if (rc != MPI_SUCCESS) {
    fail(comm::mpi_status(rc, "MPI_Testall"));  // an MPI error completes the requests it reports
    requests.clear();
    return true;
  }
  if (done) requests.clear();
  return done != 0;
}

// A sender of a write with nothing else to do, on an oversubscribed node:
// its messages complete when the aggregators take them (Open MPI's shared
// memory transport copies large messages on the receiving side), so it
// tests now and then and sleeps in between, rather than spin in
// MPI_Waitall on a core the aggregator and its I/O need. Measured in
// docs/performance.md ("Waiting without spinning").
void Transfer::wait_quietly(std::vector<MPI_Request>& requests) {
  const uint64_t t0 = now_nanos();
  long pause_ns = 20'000;
  while (!requests.empty()) {
    int done = 0;
    const int rc = MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS) {
      fail(comm::mpi_status(rc, "MPI_Testall"));  // an MPI error completes the requests it reports
      requests.clear();
      break;
    }
    if (done) {
      requests.clear();
      break;
    }
    const timespec pause{0, pause_ns};
    nanosleep(&pause, nullptr);
    pause_ns = std::min<long>(pause_ns * 2, 500'000);
  }
  counts_.exchange_nanos += now_nanos() - t0;
}

bool Transfer::io_done(int slot, bool block) {
  if (!block) {
    for (auto& r : io_[slot])
      if (!device::test(*r)) return false;
  }
  wait_io(slot);  // complete by now, or waited here: collects the statuses
  return true;
}

// Read, aggregator: for each round in turn, its read done, its pieces sent,
// and the read of the round two on started in its window once that
// window's sends have left. Without `block`, stops at the first step that
// would wait and resumes there at the next call.
bool Transfer::progress_read(bool block) {
  // Its sends complete as the owners copy them (CMA: the receiver copies):
  // on an oversubscribed node it waits for them without spinning, so the
  // owners get the cores (docs/performance.md, "Reads").
  auto requests_done = [&](std::vector<MPI_Request>& q, bool b) {
    if (b && d_.oversubscribed()) wait_quietly(q);
    return this->requests_done(q, b);
  };
  const int64_t n = static_cast<int64_t>(d_.rounds().size());
  while (next_round_ < n) {
    const int64_t r = next_round_;
    const int slot = static_cast<int>(r % 2);
    if (read_step_ == ReadStep::kRead) {
      if (!io_done(slot, block)) return false;
      zero_short_reads(slot);
      // Into its wire window, whose sends of two rounds ago have left (the
      // read into this window waited for them).
      if (aggregator_converts_) convert_round(r);
      read_step_ = ReadStep::kSend;
    }
    if (read_step_ == ReadStep::kSend) {
      if (!requests_done(staging_sends_, block)) return false;  // the staging buffer is reused
      send_round(r);
      counts_.rounds++;
      read_step_ = ReadStep::kNextRead;
    }
    // As an owner, its messages of rounds up to r, now that its own round
    // r is out (the order that cannot hang: receive_to_caller).
    if (to_caller_ && !receive_to_caller(r, block)) return false;
    if (next_read_ < n) {
      if (!requests_done(window_sends_[slot], block)) return false;
      submit_read(next_read_++);
    }
    ++next_round_;
    read_step_ = ReadStep::kRead;
  }
  // Every round that needed a window sent: the direct runs, on this
  // thread when blocking (nothing else is left for it to do), unless
  // begin() started them.
  if (!direct_started_) move_direct(/*here=*/block);
  // Its messages of later rounds, before it waits for its own sends.
  if (to_caller_ && !receive_to_caller(INT64_MAX, block)) return false;
  if (!io_done(2, block)) return false;
  zero_short_reads(2);
  return requests_done(staging_sends_, block) && requests_done(window_sends_[0], block) &&
         requests_done(window_sends_[1], block);
}

// Everything this rank can do towards completion; true once done: a
// write's file I/O and messages finished, a read's data in the caller's
// buffer. Without `block` it never waits.
bool Transfer::progress(bool block) {
  if (d_.direct_io()) {  // started in begin(): no message
    if (to_caller_ && !read_chunks(block)) return false;
    if (!io_done(0, block) || !io_done(1, block) || !io_done(2, block)) return false;
    if (kind_ == device::IoKind::kRead) {
      zero_short_reads(2);
      if (!unpacked_) {
        unpacked_ = true;
        if (local_.ok()) fail(unpack());
      }
    }
    return true;
  }
  if (kind_ == device::IoKind::kWrite) {
    if (block && !d_.is_aggregator() && d_.oversubscribed()) wait_quietly(own_messages_);
    return io_done(0, block) && io_done(1, block) && io_done(2, block) && requests_done(own_messages_, block);
  }
  // An aggregator copies its own part while sending its rounds: unpack after.
  if (d_.is_aggregator() && !progress_read(block)) return false;
  if (to_caller_) {
    if (!receive_to_caller(INT64_MAX, block)) return false;
    unpacked_ = true;
    return true;
  }
  // An owner with nothing else to do waits for its messages without
  // spinning on an oversubscribed node: the aggregator and its I/O need
  // the cores (docs/performance.md, "Reads").
  if (block && !d_.is_aggregator() && d_.oversubscribed()) wait_quietly(own_messages_);
  if (!requests_done(own_messages_, block)) return false;
  if (!unpacked_) {
    unpacked_ = true;
    if (local_.ok()) fail(unpack());
  }
  return true;
}

std::unique_ptr<Transfer> Transfer::prepare(Decomposition& d, Target& target, uint64_t offset, device::IoKind kind,
                                             ElementType mem_type, void* buf, Mode mode, Status* local) {
  std::unique_ptr<Transfer> t(new Transfer(d, target, offset, kind, mem_type, buf));
  t->borrow_ = mode != kNonblocking && kind == device::IoKind::kWrite;
  t->blocking_ = mode == kBlocking;
  t->waited_ = true;  // until it begins: nothing in flight to complete
  Status s = t->check();
  if (s.ok()) {
    t->choose_side();
    s = t->prepare();
  }
  if (s.ok() && kind == device::IoKind::kWrite) s = t->pack();
  *local = std::move(s);
  return t;
}

Status Transfer::begin(const int64_t agreed[kAgreementValues]) {
  PARIO_RETURN_IF_ERROR(go_ahead(agreed));
  waited_ = false;
  seq_ = d_.next_transfer();
  if (d_.direct_io()) {
    // Nothing to exchange: this rank's runs now, on this thread in a
    // blocking call (nothing is left to overlap), else through the engine.
    if (from_caller_) write_chunks();
    else if (to_caller_) read_chunks(/*block=*/false);  // the first chunks' reads
    else move_direct(/*here=*/blocking_);
    return Status::Ok();
  }
  post_own_messages(kind_);
  if (kind_ == device::IoKind::kWrite) {
    if (d_.is_aggregator()) write_rounds();
    if (from_caller_) {
      // The rest of its messages (a sender's all), then the last buffers'
      // requests are completed as the packed copy's would be.
      send_from_caller(INT64_MAX);
      for (auto& in_flight : send_requests_) {
        own_messages_.insert(own_messages_.end(), in_flight.begin(), in_flight.end());
        in_flight.clear();
      }
    }
  } else if (d_.is_aggregator()) {
    const int64_t n = static_cast<int64_t>(d_.rounds().size());
    for (; next_read_ < std::min<int64_t>(n, 2); ++next_read_) submit_read(next_read_);
    // Overlapping the caller's work: the direct runs now, behind the
    // first windows' reads. A blocking call reads them last (progress_read).
    if (!blocking_) move_direct(/*here=*/false);
  } else if (to_caller_) {
    receive_to_caller(INT64_MAX, /*block=*/false);  // the receives that fit its two buffers
  }
  return Status::Ok();
}

namespace {

// prepare(), the agreement, begin(): for callers with no agreement of their own.
Result<std::unique_ptr<Transfer>> prepare_agree_begin(Decomposition& d, Target& target, uint64_t offset,
                                                      device::IoKind kind, ElementType mem_type, void* buf,
                                                      bool borrow) {
  Status local;
  std::unique_ptr<Transfer> t = Transfer::prepare(d, target, offset, kind, mem_type, buf,
                                                  borrow ? Transfer::kBorrow : Transfer::kNonblocking, &local);
  int64_t values[Transfer::kAgreementValues];
  t->agreement_values(values);
  PARIO_RETURN_IF_ERROR(comm::agree_max(d.comm(), local, values, Transfer::kAgreementValues));
  PARIO_RETURN_IF_ERROR(t->begin(values));
  return t;
}

}  // namespace

Result<std::unique_ptr<Transfer>> Transfer::start_write(Decomposition& d, Target& target, uint64_t offset,
                                                        ElementType mem_type, const void* buf, bool borrow) {
  return prepare_agree_begin(d, target, offset, device::IoKind::kWrite, mem_type, const_cast<void*>(buf), borrow);
}

Result<std::unique_ptr<Transfer>> Transfer::start_read(Decomposition& d, Target& target, uint64_t offset,
                                                       ElementType mem_type, void* buf) {
  return prepare_agree_begin(d, target, offset, device::IoKind::kRead, mem_type, buf, false);
}

Status Transfer::wait(const Status& refusal) {
  if (waited_) return Status(Code::kState, "the transfer was already waited");
  progress(/*block=*/true);
  waited_ = true;
  if (buffers_) d_.give_back(std::move(buffers_));
  record(kind_, counts_);
  return comm::agree(d_.comm(), refusal.ok() ? local_ : refusal);
}

bool Transfer::test() { return waited_ || progress(/*block=*/false); }

}  // namespace pario::collective
