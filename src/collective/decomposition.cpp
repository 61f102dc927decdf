#include "collective/decomposition.h"

#include <algorithm>
#include <climits>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>

#include "base/stats.h"

namespace pario::collective {
namespace {

// The setup's wire format: what a sender tells an aggregator about its
// elements, in 32-bit words (a quarter of (global, length) int64 pairs for
// scattered indices, where nearly every run is one element). Per message
// (one per round of that aggregator the sender meets, in round order):
//   round (low word, high word), n = the words that follow for it, then
//   per run: its position in the round's window, or that position |
//   kLongRun followed by its length.
// A window holds at most kMaxBufferBytes elements (2^30), so positions and
// lengths leave the top bit free.
constexpr uint32_t kLongRun = uint32_t{1} << 31;
static_assert(kMaxBufferBytes <= (int64_t{1} << 31) - 1, "window positions must fit 31 bits");

Status check_options(const CollectiveOptions& o, ElementType file_type) {
  if (!valid_element_type(static_cast<int>(file_type))) {
    return Status(Code::kInvalidArgument, "file_type " + std::to_string(static_cast<int>(file_type)) +
                                              " is not a PARIO_TYPE_*");
  }
  if (o.buffer_bytes < 1 || o.buffer_bytes > kMaxBufferBytes) {
    return Status(Code::kInvalidArgument, "buffer_size " + std::to_string(o.buffer_bytes) +
                                              " is not in 1.." + std::to_string(kMaxBufferBytes));
  }
  if (o.align_bytes < 0) return Status(Code::kInvalidArgument, "align is negative");
  const int order = static_cast<int>(o.byte_order);
  if (order < 0 || order > 2) {
    return Status(Code::kInvalidArgument, "byte_order " + std::to_string(order) + " is not a PARIO_BYTE_ORDER_*");
  }
  return Status::Ok();
}

// Counts and displacements of an all-to-all-v, checked against int.
Status to_int(const std::vector<int64_t>& v, std::vector<int>* out, const char* what) {
  out->resize(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] > INT_MAX) {
      return Status(Code::kUnsupported, std::string(what) + " exceeds 2^31 values in one message");
    }
    (*out)[i] = static_cast<int>(v[i]);
  }
  return Status::Ok();
}

// Sets bits [pos, pos + len); true if any was set already (an index two
// ranks hold). Whole words at a time: blocks mark millions of bits.
bool mark(std::vector<uint64_t>& bits, int64_t pos, int64_t len) {
  bool seen = false;
  int64_t e = pos;
  const int64_t end = pos + len;
  while (e < end) {
    const int64_t in_word = std::min<int64_t>(64 - (e & 63), end - e);
    const uint64_t mask = in_word == 64 ? ~uint64_t{0} : ((uint64_t{1} << in_word) - 1) << (e & 63);
    uint64_t& word = bits[e >> 6];
    if (word & mask) seen = true;
    word |= mask;
    e += in_word;
  }
  return seen;
}

// Calls fn(position, length) for each run of n words of the setup's wire
// format; false if the words end inside a run.
template <typename Fn>
bool decode_runs(const uint32_t* w, int64_t n, Fn&& fn) {
  for (int64_t k = 0; k < n; ++k) {
    const uint32_t x = w[k];
    if (x & kLongRun) {
      if (++k == n) return false;
      fn(static_cast<int64_t>(x & ~kLongRun), static_cast<int64_t>(w[k]));
    } else {
      fn(static_cast<int64_t>(x), int64_t{1});
    }
  }
  return true;
}

// The first index >= e below limit whose bit is `value`, or limit.
int64_t next_bit(const std::vector<uint64_t>& bits, int64_t e, bool value, int64_t limit) {
  while (e < limit) {
    uint64_t word = bits[e >> 6];
    if (!value) word = ~word;
    word &= ~uint64_t{0} << (e & 63);
    if (word) return std::min(limit, (e & ~int64_t{63}) + __builtin_ctzll(word));
    e = (e & ~int64_t{63}) + 64;
  }
  return limit;
}

}  // namespace

Decomposition::~Decomposition() = default;

Status Decomposition::free() { return comm_.free(); }

int Decomposition::tag(uint64_t transfer, int64_t round) const {
  const int64_t slots = std::max<int64_t>(1, tag_ub_ / max_rounds_);
  return static_cast<int>(static_cast<int64_t>(transfer % slots) * max_rounds_ + round % max_rounds_);
}

size_t Decomposition::plan_bytes() const {
  size_t n = memory_order_.bytes() + memory_slots_.bytes() + sends_.size() * sizeof(Send) + direct_runs_.size() * 16 +
             own_memory_.size() * 4 + own_chunk_start_.size() * 8 + send_places_.size() * sizeof(SendPlace);
  for (const RoundPlan& r : rounds_) {
    n += r.pieces.size() * sizeof(RoundPlan::Piece) + r.staged.bytes() + r.covered.size() * 16;
  }
  return n;
}

Result<std::unique_ptr<AggregatorBuffers>> Decomposition::take_buffers(size_t file_size, size_t wire_size,
                                                                       int wire_windows, bool send_buffers) {
  int64_t window = 0;
  for (const RoundPlan& r : rounds_) window = std::max(window, r.end - r.begin);
  const bool chunks = direct_io_ && !own_memory_.empty();
  const bool two = chunks ? local_count_ > chunk_elements_ : rounds_.size() > 1;
  if (chunks) window = std::min(local_count_, chunk_elements_);  // direct: the chunks
  const size_t window_bytes = static_cast<size_t>(window) * file_size;
  const size_t wire_bytes = static_cast<size_t>(window) * wire_size;
  const size_t staging_bytes = static_cast<size_t>(staging_elements_) * wire_size;
  const size_t send_bytes = send_buffers ? static_cast<size_t>(send_buffer_elements_) * wire_size : 0;
  std::unique_ptr<AggregatorBuffers> b = spare().take();
  if (!b) b = std::make_unique<AggregatorBuffers>();
  bool ok = true;
  // A buffer too small goes before its replacement is made.
  auto fit = [&](LargeBuffer& p, size_t& capacity, size_t bytes) {
    if (bytes == 0 || (p && capacity >= bytes)) return;
    p.reset();
    capacity = 0;
    p = LargeBuffer::allocate(bytes);
    if (p) capacity = bytes;
    ok &= static_cast<bool>(p);
  };
  fit(b->window[0], b->window_bytes[0], window_bytes);
  if (two) fit(b->window[1], b->window_bytes[1], window_bytes);
  fit(b->staging, b->staging_bytes, staging_bytes);
  for (int w = 0; w < wire_windows && w < 2; ++w) fit(b->wire[w], b->wire_bytes[w], wire_bytes);
  for (int w = 0; send_buffers && w < send_buffers_; ++w) fit(b->send[w], b->send_bytes[w], send_bytes);
  if (!ok) {
    return Status(Code::kNoMemory, "an aggregator's buffers (" +
                                       std::to_string(2 * window_bytes + staging_bytes + wire_windows * wire_bytes +
                                                      send_buffers_ * send_bytes) +
                                       " bytes)");
  }
  return b;
}

void Decomposition::give_back(std::unique_ptr<AggregatorBuffers> buffers) { spare().give_back(std::move(buffers)); }

Result<std::unique_ptr<Decomposition>> Decomposition::create(const comm::Group& group, SortedRuns runs,
                                                             int64_t global_size, ElementType file_type,
                                                             const CollectiveOptions& options) {
  const uint64_t t0 = now_nanos();
  const int size = group.size();
  Status local = check_options(options, file_type);
  std::vector<int> node_of(size);
  for (int r = 0; r < size; ++r) node_of[r] = group.node_of(r);
  Result<std::vector<int>> aggregators = choose_aggregators(node_of, options.aggregators, options.aggregator_ranks);
  if (local.ok()) local = aggregators.status();
  if (local.ok() && global_size < 0) local = Status(Code::kInvalidArgument, "global_size is negative");
  if (local.ok() && !runs.runs.empty()) {
    const Run& last = runs.runs.back();
    if (runs.runs.front().global < 0 || last.global + last.length > global_size) {
      local = Status(Code::kOutOfRange, "an index is outside the global space");
    }
  }
  PARIO_RETURN_IF_ERROR(comm::agree(group.comm_object(), local));

  // From here on every rank makes the same MPI calls in the same order
  // whatever fails: an MPI error (MPI_ERRORS_RETURN) may be this rank's
  // alone, so it is carried, not returned, into the next agreement, and
  // nothing that depends on a failed call's result runs. Only an error of
  // an agreement itself returns at once; it cannot be agreed on.

  // Every rank's extent [first, last held index], runs, elements and
  // whether its own indices overlap: one allgather. From it every rank
  // computes the same held range, overlap flag and mode (direct_io_).
  constexpr int kFacts = 5;
  int64_t lo = global_size, hi = 0;
  if (!runs.runs.empty()) {
    lo = runs.runs.front().global;
    hi = runs.runs.back().global + runs.runs.back().length;  // sorted by start; check every end
    for (const Run& r : runs.runs) hi = std::max(hi, r.global + r.length);
  }
  // Runs of the file: sorted runs that continue each other in the file
  // are one, whatever their memory positions (packed, they are adjacent).
  // Counted here, kept only if the transfers go direct.
  auto file_runs = [&](auto&& emit) {
    int64_t at = -1, len = 0;
    for (const Run& r : runs.runs) {
      if (len > 0 && at + len == r.global) {
        len += r.length;
        continue;
      }
      if (len > 0) emit(at, len);
      at = r.global;
      len = r.length;
    }
    if (len > 0) emit(at, len);
  };
  int64_t my_file_runs = 0;
  file_runs([&](int64_t, int64_t) { ++my_file_runs; });
  const int64_t mine[kFacts] = {lo, hi, my_file_runs, runs.elements, runs.overlaps ? 1 : 0};
  std::vector<int64_t> facts(static_cast<size_t>(size) * kFacts);
  local = comm::mpi_status(
      MPI_Allgather(mine, kFacts, MPI_INT64_T, facts.data(), kFacts, MPI_INT64_T, group.comm()), "MPI_Allgather");
  std::unique_ptr<Decomposition> d;
  if (local.ok()) {
    const int64_t esize = static_cast<int64_t>(element_size(file_type));
    bool overlaps = false;
    double total_runs = 0, total_bytes = 0;
    std::vector<std::pair<int64_t, int64_t>> extents;  // of the ranks holding something
    for (int r = 0; r < size; ++r) {
      const int64_t* f = &facts[static_cast<size_t>(r) * kFacts];
      overlaps |= f[4] != 0;
      if (f[2] == 0) continue;
      extents.push_back({f[0], f[1]});
      total_runs += static_cast<double>(f[2]);
      total_bytes += static_cast<double>(f[3]) * static_cast<double>(esize);
    }
    std::sort(extents.begin(), extents.end());
    lo = extents.empty() ? global_size : extents.front().first;
    hi = 0;
    bool interleaved = false;
    for (const auto& [first, end] : extents) {
      interleaved |= first < hi;  // starts before an earlier extent ends
      hi = std::max(hi, end);
    }
    d.reset(new Decomposition(
        DomainPlan(lo, hi, esize, std::move(aggregators).value(), options.buffer_bytes, options.align_bytes)));
    d->rank_ = group.rank();
    d->size_ = size;
    d->global_size_ = global_size;
    d->local_count_ = runs.elements;
    d->file_type_ = file_type;
    d->options_ = options;
    d->overlaps_ = overlaps;
    d->interleaved_ = interleaved;
    // Direct where every rank's part is its own stretch of the file and
    // comes in long runs: the aggregators could only join a few runs
    // that meet at the extents' ends, at the price of the whole exchange
    // (docs/performance.md, "Collective I/O: direct transfers").
    d->direct_io_ = options.buffering == Buffering::kNever ||
                    (options.buffering == Buffering::kAuto && !interleaved &&
                     total_bytes >= total_runs * static_cast<double>(kDirectMinRunBytes));
    if (d->direct_io_) {
      d->direct_runs_.reserve(static_cast<size_t>(my_file_runs));
      file_runs([&](int64_t at, int64_t len) { d->direct_runs_.push_back({at, len}); });
    }
    d->my_aggregator_ = d->plan_.aggregator_index(d->rank_);
    const auto on_my_node = std::count(node_of.begin(), node_of.end(), node_of[d->rank_]);
    const unsigned cores = std::thread::hardware_concurrency();
    d->oversubscribed_ = cores > 0 && static_cast<unsigned>(on_my_node) > cores;
    for (int a = 0; a < d->plan_.aggregators(); ++a) d->max_rounds_ = std::max(d->max_rounds_, d->plan_.rounds(a));
  }

  Result<comm::Comm> dup = comm::Comm::duplicate(group.comm());  // every rank, even after a failure
  if (local.ok()) local = dup.status();
  if (local.ok()) {
    d->comm_ = std::move(dup).value();
    int* ub = nullptr;
    int found = 0;
    MPI_Comm_get_attr(d->comm_.get(), MPI_TAG_UB, &ub, &found);
    if (found && ub) d->tag_ub_ = *ub;
  }
  PARIO_RETURN_IF_ERROR(comm::agree(group.comm_object(), local));
  auto keep_memory_order = [&]() {
    d->memory_order_ = PositionList::of(runs.runs.size(), [&](size_t i) {
      return std::pair<int64_t, int64_t>{runs.runs[i].memory, runs.runs[i].length};
    });
    if (d->memory_order_.runs() == 0 && d->memory_order_.elements() > 0) {
      // One entry per element: kept inverted (decomposition.h, memory_slots()),
      // unless the memory positions leave holes (then there is no inverse).
      d->memory_slots_ = d->memory_order_.inverse();
      if (d->memory_slots_.elements() > 0) d->memory_order_ = PositionList();
    }
    runs.runs.clear();
    runs.runs.shrink_to_fit();
    d->build_own_memory();
  };
  auto record_setup = [&]() {
    if (StatsRegistry::global().enabled()) {
      StatsRegistry::global().collective().record_setup(now_nanos() - t0, d->plan_bytes());
    }
  };
  // Direct with the extents apart: no aggregator will see these runs, and
  // no two ranks hold one index (every rank knows both alike).
  if (d->direct_io_ && !d->interleaved_) {
    keep_memory_order();
    record_setup();
    return d;
  }

  // Messages of this rank, and in the same pass what each aggregator
  // learns of them (the setup's wire format above). Sends are in global
  // order, so in aggregator order: one buffer, each aggregator's part
  // contiguous in it.
  std::vector<int64_t> send_counts(size, 0), send_displs(size, 0);
  std::vector<uint32_t> outgoing;
  {
    outgoing.reserve(runs.runs.size() + 64);
    const DomainPlan& plan = d->plan_;
    int64_t round_lo = 0;
    size_t header = 0;  // where the current message's word count goes
    int last = -1;
    d->sends_ = plan_sends(plan, runs.runs, [&](const Send& s, const Run& piece) {
      if (s.count == piece.length) {  // the first piece of a new message
        if (last >= 0) outgoing[header] = static_cast<uint32_t>(outgoing.size() - header - 1);
        if (s.aggregator != last) {
          for (int a = last + 1; a <= s.aggregator; ++a) send_displs[plan.aggregator_rank(a)] = outgoing.size();
          last = s.aggregator;
        }
        round_lo = plan.round_begin(s.aggregator, s.round);
        outgoing.push_back(static_cast<uint32_t>(s.round));
        outgoing.push_back(static_cast<uint32_t>(static_cast<uint64_t>(s.round) >> 32));
        header = outgoing.size();
        outgoing.push_back(0);
      }
      const int64_t pos = piece.global - round_lo;  // < window <= 2^30
      if (piece.length == 1) {
        outgoing.push_back(static_cast<uint32_t>(pos));
      } else {
        outgoing.push_back(static_cast<uint32_t>(pos) | kLongRun);
        outgoing.push_back(static_cast<uint32_t>(piece.length));
      }
    });
    if (last >= 0) outgoing[header] = static_cast<uint32_t>(outgoing.size() - header - 1);
    for (int a = last + 1; a < plan.aggregators(); ++a) send_displs[plan.aggregator_rank(a)] = outgoing.size();
    // Counts from the aggregators' displacements (in aggregator order).
    for (int a = 0; a < plan.aggregators(); ++a) {
      const int64_t end = a + 1 < plan.aggregators() ? send_displs[plan.aggregator_rank(a + 1)]
                                                     : static_cast<int64_t>(outgoing.size());
      send_counts[plan.aggregator_rank(a)] = end - send_displs[plan.aggregator_rank(a)];
    }
  }
  keep_memory_order();
  std::vector<int64_t> recv_counts(size, 0);
  local = comm::mpi_status(
      MPI_Alltoall(send_counts.data(), 1, MPI_INT64_T, recv_counts.data(), 1, MPI_INT64_T, d->comm_.get()),
      "MPI_Alltoall");
  if (!local.ok()) std::fill(recv_counts.begin(), recv_counts.end(), 0);  // nothing trusted from it
  std::vector<int64_t> recv_displs(size + 1, 0);
  for (int r = 0; r < size; ++r) recv_displs[r + 1] = recv_displs[r] + recv_counts[r];
  std::vector<int> sc, sd, rc, rd;
  if (local.ok()) local = to_int(send_counts, &sc, "the runs sent");
  if (local.ok()) local = to_int(send_displs, &sd, "the runs sent");
  if (local.ok()) local = to_int(recv_counts, &rc, "the runs received");
  if (local.ok()) local = to_int(std::vector<int64_t>(recv_displs.begin(), recv_displs.end() - 1), &rd, "the runs received");
  std::vector<uint32_t> received;
  if (local.ok()) {
    try {
      received.resize(recv_displs[size]);
    } catch (const std::bad_alloc&) {
      local = Status(Code::kNoMemory, "the runs an aggregator receives (" + std::to_string(recv_displs[size] * 4) +
                                          " bytes)");
    }
  }
  PARIO_RETURN_IF_ERROR(comm::agree(d->comm_, local));
  local = comm::mpi_status(MPI_Alltoallv(outgoing.data(), sc.data(), sd.data(), MPI_UINT32_T, received.data(),
                                         rc.data(), rd.data(), MPI_UINT32_T, d->comm_.get()),
                           "MPI_Alltoallv");
  outgoing.clear();
  outgoing.shrink_to_fit();

  if (local.ok() && d->my_aggregator_ >= 0) {
    // One entry a round of the domain: a held range spread far apart (two
    // indices 2^62 apart) asks more than memory holds. Caught, so that the
    // aggregator reaches the allreduce below as every other rank does.
    try {
      local = d->build_rounds(recv_displs, received);
    } catch (const std::exception&) {  // bad_alloc, or length_error past a vector's max_size
      const int a = d->my_aggregator_;
      local = Status(Code::kNoMemory, "an aggregator's plan of " + std::to_string(d->plan_.rounds(a)) +
                                          " rounds (its domain spans " +
                                          std::to_string(d->plan_.domain_end(a) - d->plan_.domain_begin(a)) +
                                          " elements): a larger aggregator buffer, or indices closer together");
    }
  }
  // Whether any aggregator found an index held twice, reduced before the
  // agreement so that the agreement also covers this allreduce's error.
  int overlap = d->overlaps_ || d->overlaps_found_ ? 1 : 0;
  const Status reduced =
      comm::mpi_status(MPI_Allreduce(MPI_IN_PLACE, &overlap, 1, MPI_INT, MPI_MAX, d->comm_.get()), "MPI_Allreduce");
  if (local.ok()) local = reduced;
  PARIO_RETURN_IF_ERROR(comm::agree(d->comm_, local));
  d->overlaps_ = overlap != 0;
  record_setup();
  return d;
}

Status Decomposition::build_rounds(const std::vector<int64_t>& from, const std::vector<uint32_t>& received) {
  const int a = my_aggregator_;
  const int64_t nrounds = plan_.rounds(a);
  rounds_.resize(nrounds);
  for (int64_t r = 0; r < nrounds; ++r) {
    rounds_[r].begin = plan_.round_begin(a, r);
    rounds_[r].end = plan_.round_end(a, r);
  }
  // This rank's own messages: their packed offsets and indices, by round.
  std::vector<int64_t> self_offset(nrounds, -1);
  std::vector<int32_t> self_send(nrounds, -1);
  for (size_t i = 0; i < sends_.size(); ++i) {
    if (sends_[i].aggregator != a) continue;
    self_offset[sends_[i].round] = sends_[i].offset;
    self_send[sends_[i].round] = static_cast<int32_t>(i);
  }
  auto malformed = [](int s) {
    return Status(Code::kInternal, "the setup message from rank " + std::to_string(s) + " is malformed");
  };
  // Each sender's messages, by round: their headers only (the runs are
  // read per round below).
  struct Span {
    int sender;
    int64_t first, words;  // its runs: received[first .. first + words)
  };
  std::vector<std::vector<Span>> spans(nrounds);
  for (int s = 0; s < size_; ++s) {
    int64_t k = from[s], previous = -1;
    const int64_t end = from[s + 1];
    while (k < end) {
      if (end - k < 3) return malformed(s);
      const int64_t r = static_cast<int64_t>(received[k] | static_cast<uint64_t>(received[k + 1]) << 32);
      const int64_t n = received[k + 2];
      k += 3;
      if (r <= previous || r >= nrounds || n < 1 || n > end - k) return malformed(s);
      spans[r].push_back({s, k, n});
      previous = r;
      k += n;
    }
  }
  std::vector<uint64_t> held;      // one bit per element of the window
  std::vector<size_t> staged_spans;  // the round's spans whose runs are staged
  for (int64_t r = 0; r < nrounds; ++r) {
    RoundPlan& round = rounds_[r];
    const int64_t window = round.end - round.begin;
    held.assign(static_cast<size_t>((window + 63) / 64), 0);
    int64_t staged = 0, staged_runs = 0;
    for (size_t i = 0; i < spans[r].size(); ++i) {
      const Span& span = spans[r][i];
      int64_t count = 0, runs = 0, only_pos = 0;
      bool inside = true;
      const bool complete = decode_runs(received.data() + span.first, span.words, [&](int64_t pos, int64_t len) {
        if (len < 1 || pos + len > window) {
          inside = false;
          return;
        }
        if (len == 1) {  // scattered indices: nearly every run
          uint64_t& word = held[static_cast<size_t>(pos >> 6)];
          const uint64_t bit = uint64_t{1} << (pos & 63);
          if (word & bit) overlaps_found_ = true;
          word |= bit;
        } else if (mark(held, pos, len)) {
          overlaps_found_ = true;
        }
        if (runs == 0) only_pos = pos;
        count += len;
        ++runs;
      });
      if (!complete || !inside) return malformed(span.sender);
      RoundPlan::Piece piece;
      piece.sender = span.sender;
      piece.count = count;
      if (span.sender == rank_) {
        piece.self_offset = self_offset[r];
        piece.self_send = self_send[r];
      }
      if (runs == 1) {
        piece.in_place = true;
        piece.at = only_pos;
      } else {
        piece.at = staged;
        staged_spans.push_back(i);
        staged += count;
        staged_runs += runs;
      }
      round.pieces.push_back(piece);
    }
    round.staged = PositionList::of_sequence(static_cast<size_t>(staged_runs), staged, window, [&](auto&& emit) {
      for (size_t i : staged_spans) decode_runs(received.data() + spans[r][i].first, spans[r][i].words, emit);
    });
    staged_spans.clear();
    staging_elements_ = std::max(staging_elements_, staged);
    // The held parts of the window: the runs of set bits.
    for (int64_t e = next_bit(held, 0, true, window); e < window;) {
      const int64_t stop = next_bit(held, e, false, window);
      round.covered.push_back({e, stop - e});
      e = next_bit(held, stop, true, window);
    }
  }
  return Status::Ok();
}

// See own_memory() in decomposition.h: a counting pass, then the memory
// positions in order into their part. The parts are fixed-size chunks
// (direct) or the messages, whose packed ranges follow each other in
// sends_ (a binary search: a few dozen messages per rank).
void Decomposition::build_own_memory() {
  const int64_t n = memory_slots_.elements();
  if (n == 0 || n >= (int64_t{1} << 32)) return;
  chunk_elements_ = std::max<int64_t>(1, options_.buffer_bytes / static_cast<int64_t>(element_size(file_type_)));
  std::vector<int64_t> send_end;  // through the aggregators: each message's packed end
  for (const Send& s : sends_) send_end.push_back(s.offset + s.count);
  auto part_of = [&](int64_t packed) -> int64_t {
    if (direct_io_) return packed / chunk_elements_;
    return std::upper_bound(send_end.begin(), send_end.end(), packed) - send_end.begin();
  };
  const int64_t parts = direct_io_ ? (n + chunk_elements_ - 1) / chunk_elements_ : static_cast<int64_t>(sends_.size());
  own_chunk_start_.assign(static_cast<size_t>(parts) + 1, 0);
  memory_slots_.for_each([&](int64_t packed, int64_t) { ++own_chunk_start_[part_of(packed) + 1]; });
  for (int64_t c = 0; c < parts; ++c) own_chunk_start_[c + 1] += own_chunk_start_[c];
  own_memory_.resize(static_cast<size_t>(n));
  std::vector<int64_t> next(own_chunk_start_.begin(), own_chunk_start_.end() - 1);
  uint32_t m = 0;
  memory_slots_.for_each([&](int64_t packed, int64_t) { own_memory_[next[part_of(packed)]++] = m++; });
  if (direct_io_) return;
  send_buffer_elements_ = send_buffer_capacity(sends_, my_aggregator_, plan_.window_elements());
  send_places_ = place_sends(sends_, my_aggregator_, send_buffer_elements_);
  for (const SendPlace& p : send_places_) send_buffers_ = std::max(send_buffers_, p.buffer + 1);
}

}  // namespace pario::collective
