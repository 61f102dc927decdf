#include "collective/transfer.h"

#include <algorithm>
#include <cstring>
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

std::unique_ptr<char[]> allocate(int64_t bytes, const char* what, Status* status) {
  if (bytes <= 0 || !status->ok()) return nullptr;
  std::unique_ptr<char[]> p(new (std::nothrow) char[static_cast<size_t>(bytes)]);
  if (!p) *status = Status(Code::kNoMemory, std::string(what) + " (" + std::to_string(bytes) + " bytes)");
  return p;
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
      file_size_(element_size(d.file_type())) {}

Transfer::~Transfer() {
  // A transfer dropped without wait() (only after a failed start, or by a
  // program error): complete what is in flight before the buffers go.
  if (!waited_) {
    for (auto* list : {&sends_, &round_recvs_, &window_sends_[0], &window_sends_[1], &staging_sends_}) {
      if (!list->empty()) MPI_Waitall(static_cast<int>(list->size()), list->data(), MPI_STATUSES_IGNORE);
    }
    for (auto& slot : io_)
      for (auto& r : slot) device::wait(*r);
  }
}

// Local checks and every buffer, before the ranks agree to go ahead.
Status Transfer::prepare() {
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
  Status s;
  if (in_file_order() && (kind_ == device::IoKind::kRead || borrow_)) {
    packed_ = static_cast<char*>(buf_);  // sent from / received into the caller's buffer
  } else {
    packed_storage_ = allocate(d_.local_count() * static_cast<int64_t>(file_size_),
                               "the packed copy of this rank's elements", &s);
    packed_ = packed_storage_.get();
    }
  if (s.ok() && d_.is_aggregator() && !d_.rounds().empty()) {
    Result<std::unique_ptr<AggregatorBuffers>> b = d_.take_buffers(file_size_);
    if (!b.ok()) return b.status();
    buffers_ = std::move(b).value();
    int64_t window = 0;
    for (const RoundPlan& r : d_.rounds()) window = std::max(window, r.end - r.begin);
    counts_.buffer_bytes += static_cast<uint64_t>(window) * file_size_ * (d_.rounds().size() > 1 ? 2 : 1) +
                            d_.staging_elements() * file_size_;
  }
  counts_.buffer_bytes += d_.local_count() * file_size_;
  if (s.ok() && kind_ == device::IoKind::kRead && d_.is_aggregator() && !d_.rounds().empty()) {
    Result<uint64_t> size = target_.size();
    if (!size.ok()) return size.status();
    target_size_ = *size;
  }
  return s;
}

bool Transfer::in_file_order() const {
  return mem_type_ == d_.file_type() && d_.byte_order() == ByteOrder::kNative && d_.memory_order().identity();
}

// Packed copy, in file order, converted to the file type and byte order.
Status Transfer::pack() {
  if (packed_ == buf_) return Status::Ok();
  const PositionList& order = d_.memory_order();
  const int64_t n = d_.local_count();
  const size_t mem_size = element_size(mem_type_);
  const char* user = static_cast<const char*>(buf_);
  if (mem_type_ == d_.file_type() && d_.byte_order() == ByteOrder::kNative) {
    order.gather(user, mem_size, 0, n, packed_);
    return Status::Ok();
  }
  std::unique_ptr<char[]> temp(new (std::nothrow) char[static_cast<size_t>(std::min(n, kChunk)) * mem_size + 1]);
  if (!temp) return Status(Code::kNoMemory, "a conversion buffer");
  for (int64_t k = 0; k < n; k += kChunk) {
    const int64_t count = std::min(kChunk, n - k);
    order.gather(user, mem_size, k, count, temp.get());
    size_t bad = 0;
    Status s = convert(mem_type_, temp.get(), d_.file_type(), packed_ + k * file_size_, count,
                       d_.byte_order(), &bad);
    if (!s.ok()) {
      return Status(s.code(), "buf[" + std::to_string(order.at(k + static_cast<int64_t>(bad))) +
                                  "] does not fit the file type: " + s.message());
    }
  }
  return Status::Ok();
}

// The caller's buffer from the packed copy (read).
Status Transfer::unpack() {
  if (packed_ == buf_) return Status::Ok();
  const PositionList& order = d_.memory_order();
  const int64_t n = d_.local_count();
  const size_t mem_size = element_size(mem_type_);
  char* user = static_cast<char*>(buf_);
  if (mem_type_ == d_.file_type() && d_.byte_order() == ByteOrder::kNative) {
    order.scatter(user, mem_size, 0, n, packed_);
    return Status::Ok();
  }
  std::unique_ptr<char[]> temp(new (std::nothrow) char[static_cast<size_t>(std::min(n, kChunk)) * mem_size + 1]);
  if (!temp) return Status(Code::kNoMemory, "a conversion buffer");
  for (int64_t k = 0; k < n; k += kChunk) {
    const int64_t count = std::min(kChunk, n - k);
    size_t bad = 0;
    Status s = convert_from(d_.file_type(), packed_ + k * file_size_, d_.byte_order(), mem_type_, temp.get(),
                            count, &bad);
    if (!s.ok()) {
      return Status(s.code(), "buf[" + std::to_string(order.at(k + static_cast<int64_t>(bad))) +
                                  "] cannot hold the value in the file: " + s.message());
    }
    order.scatter(user, mem_size, k, count, temp.get());
  }
  return Status::Ok();
}

void Transfer::post_sends() {
  for (const Send& s : d_.sends()) {
    const int to = d_.plan().aggregator_rank(s.aggregator);
    if (to == d_.rank()) continue;  // the aggregator copies its own part
    MPI_Request req;
    const int rc = MPI_Isend(packed_ + s.offset * file_size_, static_cast<int>(s.count * file_size_), MPI_BYTE,
                             to, d_.tag(seq_, s.round), d_.comm().get(), &req);
    if (rc != MPI_SUCCESS) {
      fail(comm::mpi_status(rc, "MPI_Isend"));
      continue;
    }
    sends_.push_back(req);
    counts_.messages_sent++;
    counts_.bytes_sent += s.count * file_size_;
  }
}

void Transfer::post_owner_receives() {
  for (const Send& s : d_.sends()) {
    const int from = d_.plan().aggregator_rank(s.aggregator);
    if (from == d_.rank()) continue;
    MPI_Request req;
    const int rc = MPI_Irecv(packed_ + s.offset * file_size_, static_cast<int>(s.count * file_size_), MPI_BYTE,
                             from, d_.tag(seq_, s.round), d_.comm().get(), &req);
    if (rc != MPI_SUCCESS) {
      fail(comm::mpi_status(rc, "MPI_Irecv"));
      continue;
    }
    sends_.push_back(req);
    counts_.messages_received++;
    counts_.bytes_received += s.count * file_size_;
  }
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
  char* win = window(r);
  for (const RoundPlan::Piece& p : round.pieces) {
    char* dest = (p.in_place ? win : staging()) + p.at * file_size_;
    if (p.sender == d_.rank()) {
      std::memcpy(dest, packed_ + p.self_offset * file_size_, p.count * file_size_);
      continue;
    }
    MPI_Request req;
    const int rc = MPI_Irecv(dest, static_cast<int>(p.count * file_size_), MPI_BYTE, p.sender, d_.tag(seq_, r),
                             d_.comm().get(), &req);
    if (rc != MPI_SUCCESS) {
      fail(comm::mpi_status(rc, "MPI_Irecv"));
      continue;
    }
    round_recvs_.push_back(req);
    counts_.messages_received++;
    counts_.bytes_received += p.count * file_size_;
  }
}

void Transfer::submit_writes(int64_t r) {
  if (!local_.ok()) return;  // after a failure: keep exchanging, write nothing more
  const RoundPlan& round = d_.rounds()[r];
  char* win = window(r);
  for (const auto& [pos, len] : round.covered) {
    const uint64_t at = offset_ + static_cast<uint64_t>(round.begin + pos) * file_size_;
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

void Transfer::write_rounds() {
  const auto& rounds = d_.rounds();
  const int64_t n = static_cast<int64_t>(rounds.size());
  if (n == 0) return;
  receive_round(0);
  for (int64_t r = 0; r < n; ++r) {
    wait_requests(round_recvs_);
    const RoundPlan& round = rounds[r];
    round.staged.scatter(window(r), file_size_, 0, round.staged.elements(), staging());
    if (r + 1 < n) {
      // The other window is free once round r-1's writes are done.
      wait_io((r + 1) % 2);
      io_[(r + 1) % 2].clear();
      receive_round(r + 1);
    }
    submit_writes(r);
    counts_.rounds++;
  }
}

// Read: round r's held span into its window, ending at the target's end.
void Transfer::submit_read(int64_t r) {
  const RoundPlan& round = d_.rounds()[r];
  if (round.covered.empty()) return;
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

void Transfer::read_rounds() {
  const auto& rounds = d_.rounds();
  const int64_t n = static_cast<int64_t>(rounds.size());
  for (int64_t r = 0; r < n; ++r) {
    const int slot = static_cast<int>(r % 2);
    wait_io(slot);
    for (auto& req : io_[slot]) {
      // Bytes short of what was asked (the file shrank) read as zeros.
      if (req->status().ok() && req->transferred() < req->len) {
        std::memset(static_cast<char*>(req->buf) + req->transferred(), 0, req->len - req->transferred());
      }
    }
    io_[slot].clear();
    wait_requests(staging_sends_);
    const RoundPlan& round = rounds[r];
    char* win = window(r);
    for (const RoundPlan::Piece& p : round.pieces) {
      char* from = win + p.at * file_size_;
      if (!p.in_place) {
        from = staging() + p.at * file_size_;
        round.staged.gather(win, file_size_, p.at, p.count, from);
      }
      if (p.sender == d_.rank()) {
        std::memcpy(packed_ + p.self_offset * file_size_, from, p.count * file_size_);
        continue;
      }
      MPI_Request req;
      const int rc = MPI_Isend(from, static_cast<int>(p.count * file_size_), MPI_BYTE, p.sender, d_.tag(seq_, r),
                               d_.comm().get(), &req);
      if (rc != MPI_SUCCESS) {
        fail(comm::mpi_status(rc, "MPI_Isend"));
        continue;
      }
      (p.in_place ? window_sends_[slot] : staging_sends_).push_back(req);
      counts_.messages_sent++;
      counts_.bytes_sent += p.count * file_size_;
    }
    counts_.rounds++;
    // This window again, two rounds on, once its sends have left.
    if (next_read_ < n) {
      wait_requests(window_sends_[slot]);
      submit_read(next_read_++);
    }
  }
  wait_requests(staging_sends_);
  wait_requests(window_sends_[0]);
  wait_requests(window_sends_[1]);
}

Result<std::unique_ptr<Transfer>> Transfer::start_write(Decomposition& d, Target& target, uint64_t offset,
                                                        ElementType mem_type, const void* buf, bool borrow) {
  std::unique_ptr<Transfer> t(new Transfer(d, target, offset, device::IoKind::kWrite, mem_type, const_cast<void*>(buf)));
  t->borrow_ = borrow;
  Status local = t->prepare();
  if (local.ok()) local = t->pack();
  Status agreed = comm::agree(d.comm(), local);
  if (!agreed.ok()) {
    t->waited_ = true;
    return agreed;
  }
  t->seq_ = d.next_transfer();
  t->post_sends();
  if (d.is_aggregator()) t->write_rounds();
  return t;
}

Result<std::unique_ptr<Transfer>> Transfer::start_read(Decomposition& d, Target& target, uint64_t offset,
                                                       ElementType mem_type, void* buf) {
  std::unique_ptr<Transfer> t(new Transfer(d, target, offset, device::IoKind::kRead, mem_type, buf));
  Status agreed = comm::agree(d.comm(), t->prepare());
  if (!agreed.ok()) {
    t->waited_ = true;
    return agreed;
  }
  t->seq_ = d.next_transfer();
  t->post_owner_receives();
  if (d.is_aggregator()) {
    const int64_t n = static_cast<int64_t>(d.rounds().size());
    for (; t->next_read_ < std::min<int64_t>(n, 2); ++t->next_read_) t->submit_read(t->next_read_);
  }
  return t;
}

Status Transfer::wait() {
  if (waited_) return Status(Code::kState, "the transfer was already waited");
  if (kind_ == device::IoKind::kWrite) {
    wait_io(0);
    wait_io(1);
    wait_requests(sends_);
  } else {
    if (d_.is_aggregator()) read_rounds();
    wait_requests(sends_);
    if (local_.ok()) fail(unpack());
  }
  waited_ = true;
  if (buffers_) d_.give_back(std::move(buffers_));
  return comm::agree(d_.comm(), local_);
}

bool Transfer::test() {
  for (auto& slot : io_)
    for (auto& r : slot)
      if (!device::test(*r)) return false;
  if (kind_ == device::IoKind::kRead) return false;
  if (sends_.empty()) return true;
  int done = 0;
  MPI_Testall(static_cast<int>(sends_.size()), sends_.data(), &done, MPI_STATUSES_IGNORE);
  if (done) sends_.clear();
  return done != 0;
}

}  // namespace pario::collective
