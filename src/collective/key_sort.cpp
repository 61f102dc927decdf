// The sample sort of key_sort.h.
//
// Why weighted samples: with plain regular sampling (s keys per rank,
// whatever its size) a rank with few keys gets as many votes as one with
// millions, and with all keys on one rank the splitters would crowd around
// the empty ranks' padding, sending everything to one bucket. Each sample
// here carries the number of distinct keys it stands for (the keys of its
// rank after the previous sample, up to and including it), and splitters
// are cut where the cumulative weight passes j*U/P, so a bucket gets about
// U/P keys whoever holds them.
//
// Why duplicates are dropped before the exchange: every copy of a key must
// meet the others in one bucket to be numbered once, so a key repeated a
// million times would otherwise put a million entries into one bucket that
// no splitter can cut. Sent once per rank, it costs at most P entries.
//
// Why (position << 1 | owner) travels back: the owner flag rides along with
// the position in one int64 instead of a second exchange; positions are
// below 2^62 (checked), so the shift never overflows.
//
// Failures: every allocation happens before the agree() that ends step 1
// (the sender's side and the samples) or before the Allreduce of step 3
// (the bucket's side), which carries a failure flag, so a rank that ran
// out of memory never leaves the others inside a collective; after that
// flag all ranks call comm::agree together to share its message.
#include "collective/key_sort.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <new>
#include <string>
#include <utility>

#include "base/checked.h"
#include "collective/sort_pairs.h"

namespace pario::collective {
namespace {

constexpr int kMinSamples = 64;
constexpr int kMaxSamples = 256;
constexpr int kExchangeTag = 2517;     // split exchanges only; collectives never match it
constexpr int64_t kMaxDistinct = int64_t{1} << 62;

struct Sample {
  int64_t key;
  int64_t weight;  // distinct keys of its rank it stands for; 0 for padding
};

// The MPI_Alltoallv of int64 values, or, when split (some count or
// displacement above max_message on some rank: every rank agreed on
// it), point-to-point messages of at most max_message elements; messages
// between two ranks arrive in order, so one tag serves every piece.
Status exchange(const comm::Comm& comm, const int64_t* send, const std::vector<int64_t>& scount,
                const std::vector<int64_t>& sdispl, int64_t* recv, const std::vector<int64_t>& rcount,
                const std::vector<int64_t>& rdispl, bool split, int64_t max_message) {
  const int size = comm.size(), me = comm.rank();
  if (!split) {
    std::vector<int> sc(size), sd(size), rc(size), rd(size);
    for (int p = 0; p < size; ++p) {
      sc[p] = static_cast<int>(scount[p]);
      sd[p] = static_cast<int>(sdispl[p]);
      rc[p] = static_cast<int>(rcount[p]);
      rd[p] = static_cast<int>(rdispl[p]);
    }
    return comm::mpi_status(MPI_Alltoallv(send, sc.data(), sd.data(), MPI_INT64_T, recv, rc.data(), rd.data(),
                                          MPI_INT64_T, comm.get()),
                            "MPI_Alltoallv");
  }
  std::copy_n(send + sdispl[me], scount[me], recv + rdispl[me]);
  std::vector<MPI_Request> requests;
  // Receives are posted first, so no piece waits for its receive.
  auto post = [&](bool sending, const std::vector<int64_t>& count, const std::vector<int64_t>& displ) {
    for (int p = 0; p < size; ++p) {
      for (int64_t off = 0; p != me && off < count[p]; off += max_message) {
        const int c = static_cast<int>(std::min(max_message, count[p] - off));
        requests.emplace_back();
        MPI_Request* r = &requests.back();
        int rc = sending ? MPI_Isend(send + displ[p] + off, c, MPI_INT64_T, p, kExchangeTag, comm.get(), r)
                         : MPI_Irecv(recv + displ[p] + off, c, MPI_INT64_T, p, kExchangeTag, comm.get(), r);
        if (rc != MPI_SUCCESS) return comm::mpi_status(rc, sending ? "MPI_Isend" : "MPI_Irecv");
      }
    }
    return Status::Ok();
  };
  PARIO_RETURN_IF_ERROR(post(false, rcount, rdispl));
  PARIO_RETURN_IF_ERROR(post(true, scount, sdispl));
  return comm::mpi_status(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE),
                          "MPI_Waitall");
}

// Numbers the bucket: bucket[rdispl[p] .. rdispl[p+1]) are rank p's keys,
// increasing. A P-way merge (a heap of the runs' heads, ties to the lower
// rank, so the first of equal keys comes from the lowest rank holding it)
// replaces each key by its local position << 1 | first-holder flag (in
// place: a slot is written only once its key is in the heap, and the heap
// reads only slots not yet written) and returns the bucket's distinct
// count; *dup tells whether two ranks sent one key.
// m log P comparisons and no memory beyond the heap. Against a radix sort
// of (key, slot) pairs (32 more bytes per key), for 2.5M random keys: 3x
// less CPU time at P = 4, 1.2x at P = 64, 1.2x more at P = 1024; a bucket
// there is usually far smaller, but measure before scaling this up.
// With a payload (width words per slot, beside the bucket), each copy of a
// key after the first is compared with the first holder's words; *conflict
// gets the first (smallest) key where they differ.
int64_t number_bucket(int64_t* bucket, const std::vector<int64_t>& rdispl, bool* dup, const int64_t* payload,
                      int width, KeyConflict* conflict) {
  struct Head {
    int64_t key;
    int rank;
  };
  // std heaps keep the largest on top: "after" puts the smallest (key, rank) there.
  auto after = [](const Head& a, const Head& b) { return a.key > b.key || (a.key == b.key && a.rank > b.rank); };
  const int size = static_cast<int>(rdispl.size()) - 1;
  std::vector<int64_t> next(rdispl.begin(), rdispl.end() - 1);
  std::vector<Head> heap;
  heap.reserve(size);
  for (int p = 0; p < size; ++p) {
    if (rdispl[p] < rdispl[p + 1]) heap.push_back(Head{bucket[rdispl[p]], p});
  }
  int64_t distinct = 0, last = 0, first_slot = 0;
  int first_rank = 0;
  // One rank's run (one rank, or a bucket only it fills): no merge, and no
  // payload to compare (a rank sends each key once).
  if (heap.size() == 1) {
    const int p = heap[0].rank;
    for (int64_t slot = rdispl[p]; slot < rdispl[p + 1]; ++slot) {
      const int64_t key = bucket[slot];
      const bool first = distinct == 0 || key != last;
      distinct += first;
      *dup |= !first;
      last = key;
      bucket[slot] = (distinct - 1) << 1 | (first ? 1 : 0);
    }
    return distinct;
  }
  std::make_heap(heap.begin(), heap.end(), after);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), after);
    const Head h = heap.back();
    const bool first = distinct == 0 || h.key != last;
    distinct += first;
    *dup |= !first;
    last = h.key;
    const int64_t slot = next[h.rank]++;
    if (first) {
      first_slot = slot;
      first_rank = h.rank;
    } else if (width > 0 && !conflict->found() &&
               !std::equal(payload + slot * width, payload + (slot + 1) * width, payload + first_slot * width)) {
      *conflict = KeyConflict{h.key, first_rank, h.rank};
    }
    bucket[slot] = (distinct - 1) << 1 | (first ? 1 : 0);
    if (next[h.rank] < rdispl[h.rank + 1]) {
      heap.back() = Head{bucket[next[h.rank]], h.rank};
      std::push_heap(heap.begin(), heap.end(), after);
    } else {
      heap.pop_back();
    }
  }
  return distinct;
}

// Every rank learned from a flag that some rank failed: all of them meet in
// agree(), which returns that rank's status there and kRemote elsewhere.
Status shared_failure(const comm::Comm& comm, const Status& local) {
  Status all = comm::agree(comm, local);
  return all.ok() ? Status(Code::kInternal, "rank_keys: a failure flag without a failing rank") : all;
}

// s regular samples of the distinct sorted keys uniq[0 .. u), weighted.
void take_samples(const int64_t* uniq, int64_t u, int s, Sample* out) {
  if (u <= s) {
    for (int i = 0; i < s; ++i) out[i] = i < u ? Sample{uniq[i], 1} : Sample{0, 0};
    return;
  }
  int64_t prev = -1;
  for (int i = 0; i < s; ++i) {
    const int64_t at = static_cast<int64_t>((static_cast<__int128>(i + 1) * u) / s) - 1;
    out[i] = Sample{uniq[at], at - prev};
    prev = at;
  }
}

// P-1 splitters from all ranks' samples: bucket j holds the keys in
// (splitter[j-1], splitter[j]]. Every rank computes the same ones from the
// same samples (sorted by key and weight: a total order, so the result
// does not depend on the sort's treatment of ties). Fails when the total
// weight reaches kMaxDistinct.
Result<std::vector<int64_t>> splitters(std::vector<Sample> all, int size, int64_t* total) {
  all.erase(std::remove_if(all.begin(), all.end(), [](const Sample& x) { return x.weight == 0; }), all.end());
  std::sort(all.begin(), all.end(), [](const Sample& a, const Sample& b) {
    return a.key < b.key || (a.key == b.key && a.weight < b.weight);
  });
  int64_t sum = 0;
  for (const Sample& x : all) {
    if (!checked_add(sum, x.weight, &sum) || sum >= kMaxDistinct) {
      return Status(Code::kOutOfRange, "rank_keys: 2^62 keys or more");
    }
  }
  *total = sum;
  std::vector<int64_t> out;
  if (sum == 0) return out;
  out.reserve(size - 1);
  size_t i = 0;
  int64_t cum = 0;
  for (int j = 1; j < size; ++j) {
    // The first sample at which the cumulative weight reaches j*U/P
    // (compared as cum*P >= j*U, in 128 bits).
    const __int128 target = static_cast<__int128>(j) * sum;
    while (i < all.size() && static_cast<__int128>(cum) * size < target) cum += all[i++].weight;
    out.push_back(all[i - 1].key);  // i >= 1: target > 0
  }
  return out;
}

}  // namespace

namespace detail {

Result<KeyRanks> rank_keys(const comm::Comm& comm, const int64_t* keys, size_t n, const KeySortOptions& options,
                           KeySortStats* stats, const int64_t* payload, int width) {
  const int size = comm.size();
  const int s = options.samples > 0 ? std::min(options.samples, 1 << 16) : std::clamp(size, kMinSamples, kMaxSamples);
  const int64_t max_message = options.max_message > 0 ? std::min<int64_t>(options.max_message, INT_MAX) : INT_MAX;
  const double t0 = MPI_Wtime();

  // Step 1, local: sort, drop repeats, sample. Everything the sender side
  // needs is allocated here, before the first collective.
  KeyRanks out;
  // Keys already in increasing order (a mesh's ids, usually) are their own
  // sorted order: no (key, index) pairs, no radix sort (32 bytes a key and
  // a third of the local step's time for 10^6 ids).
  const bool in_order = keys != nullptr && std::is_sorted(keys, keys + n);
  std::vector<Pair> sorted;    // (key, caller's index) by key, then index; empty when in_order
  std::vector<int64_t> uniq;   // the distinct keys, increasing; after step 6 their position << 1 | owner
  std::vector<int64_t> upay;   // their payloads (first occurrence's), width words each
  // Keys in increasing order with no repeat (a mesh's ids, usually) are
  // their own distinct keys: they and their payloads travel from the
  // caller's arrays, and step 6 answers into out.positions, so neither
  // uniq nor upay is made (16 bytes a key with a payload of one word: 32
  // MB of the Exodus writer's peak for 2 x 10^6 nodes on a rank).
  bool direct = false;
  const int64_t* send_keys = nullptr;  // uniq's data, or keys when direct
  const int64_t* send_payload = nullptr;
  int64_t u = 0;
  std::vector<Sample> mine, all;  // this rank's samples, every rank's
  KeyConflict own_conflict;       // a key this rank holds twice with different words
  Status local;
  if (n > 0 && keys == nullptr) {
    local = Status(Code::kInvalidArgument, "rank_keys: null keys with n = " + std::to_string(n));
  } else if (width < 0 || width > 16 || (n > 0 && width > 0 && payload == nullptr)) {
    local = Status(Code::kInvalidArgument, "rank_keys: payload of width " + std::to_string(width) + " (0..16, not null)");
  } else if (n >= static_cast<size_t>(kMaxDistinct)) {
    local = Status(Code::kOutOfRange, "rank_keys: n = " + std::to_string(n) + " keys on one rank");
  } else {
    try {
      out.positions.resize(n);
      out.owner.assign(n, false);
      if (!in_order) {
        sorted.resize(n);
        for (size_t i = 0; i < n; ++i) sorted[i] = Pair{keys[i], static_cast<int64_t>(i)};
        std::vector<Pair> scratch(n);
        sort_pairs(sorted.data(), scratch.data(), n);
      }
      auto key_at = [&](size_t i) { return in_order ? keys[i] : sorted[i].key; };
      u = n > 0 ? 1 : 0;
      for (size_t i = 1; i < n; ++i) u += key_at(i) != key_at(i - 1);
      direct = in_order && static_cast<size_t>(u) == n;
      if (!direct) {
        uniq.reserve(static_cast<size_t>(u));
        for (size_t i = 0; i < n; ++i) {
          if (i == 0 || key_at(i) != key_at(i - 1)) uniq.push_back(key_at(i));
        }
      }
      send_keys = direct ? keys : uniq.data();
      if (width > 0 && direct) {
        send_payload = payload;
      } else if (width > 0) {
        // A key this rank holds twice travels with its first occurrence's
        // words; a later copy's words are compared with those here (the
        // bucket sees only one copy per rank).
        upay.reserve(u * static_cast<size_t>(width));
        for (size_t i = 0; i < n; ++i) {
          const int64_t* w = payload + (in_order ? static_cast<int64_t>(i) : sorted[i].index) * width;
          if (i > 0 && key_at(i) == key_at(i - 1)) {
            if (!own_conflict.found() && !std::equal(w, w + width, upay.end() - width)) {
              own_conflict = KeyConflict{key_at(i), comm.rank(), comm.rank()};  // keys ascend: the smallest
            }
            continue;
          }
          upay.insert(upay.end(), w, w + width);
        }
        send_payload = upay.data();
      }
      mine.resize(s);
      all.resize(static_cast<size_t>(size) * s);
      take_samples(send_keys, u, s, mine.data());
    } catch (const std::bad_alloc&) {
      local = Status(Code::kNoMemory, "rank_keys: " + std::to_string(n) + " keys on this rank");
    }
  }
  const double t1 = MPI_Wtime();
  // One Allreduce (two collectives more only on failure): a rank that
  // could not allocate the samples' buffer cannot join the Allgather.
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));

  // Step 2: all samples everywhere, then the splitters.
  PARIO_RETURN_IF_ERROR(comm::mpi_status(
      MPI_Allgather(mine.data(), 2 * s, MPI_INT64_T, all.data(), 2 * s, MPI_INT64_T, comm.get()), "MPI_Allgather"));
  int64_t total = 0;
  PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> split_at, splitters(std::move(all), size, &total));
  if (total == 0) {  // no keys anywhere: every rank knows it from the same samples
    if (stats) *stats = KeySortStats{};
    return out;
  }
  if (width > 0 && total > kMaxDistinct / 16) {  // every rank knows it from the same samples
    return Status(Code::kOutOfRange, "rank_keys: 2^58 keys or more with a payload");
  }

  // Step 3: counts, then the buffers of this rank's bucket, then one
  // Allreduce that tells every rank whether some rank failed and whether
  // some count needs the split exchange.
  std::vector<int64_t> scount(size), sdispl(size + 1), rcount(size), rdispl(size + 1);
  sdispl[0] = 0;
  for (int p = 0; p + 1 < size; ++p) {
    sdispl[p + 1] = std::upper_bound(send_keys, send_keys + u, split_at[p]) - send_keys;
  }
  sdispl[size] = u;
  for (int p = 0; p < size; ++p) scount[p] = sdispl[p + 1] - sdispl[p];
  PARIO_RETURN_IF_ERROR(comm::mpi_status(
      MPI_Alltoall(scount.data(), 1, MPI_INT64_T, rcount.data(), 1, MPI_INT64_T, comm.get()), "MPI_Alltoall"));
  rdispl[0] = 0;
  for (int p = 0; p < size; ++p) rdispl[p + 1] = rdispl[p] + rcount[p];  // <= total < 2^62
  const int64_t m = rdispl[size];
  // Payload words travel in messages `width` times as long (n < 2^62 / 16
  // keys here: the products fit).
  const int64_t words = std::max(width, 1);
  bool split = sdispl[size] * words > max_message || m * words > max_message;  // also bounds every displacement
  for (int p = 0; p < size; ++p) split |= scount[p] * words > max_message || rcount[p] * words > max_message;
  std::vector<int64_t> bucket;  // received keys; after step 4, per slot: position << 1 | owner
  std::vector<int64_t> bpay;    // their payloads
  try {
    bucket.resize(m);
    bpay.resize(static_cast<size_t>(m) * static_cast<size_t>(width));
  } catch (const std::bad_alloc&) {
    local = Status(Code::kNoMemory, "rank_keys: a bucket of " + std::to_string(m) + " keys");
  }
  int64_t flags[2] = {local.ok() ? 0 : 1, split ? 1 : 0}, any[2] = {0, 0};
  PARIO_RETURN_IF_ERROR(
      comm::mpi_status(MPI_Allreduce(flags, any, 2, MPI_INT64_T, MPI_MAX, comm.get()), "MPI_Allreduce"));
  if (any[0]) return shared_failure(comm, local);
  split = any[1] != 0;

  // Step 4: keys to their buckets; number the bucket's distinct keys.
  PARIO_RETURN_IF_ERROR(exchange(comm, send_keys, scount, sdispl, bucket.data(), rcount, rdispl, split,
                                 max_message));
  if (width > 0) {
    auto scaled = [width](std::vector<int64_t> v) {
      for (int64_t& x : v) x *= width;
      return v;
    };
    PARIO_RETURN_IF_ERROR(exchange(comm, send_payload, scaled(scount), scaled(sdispl), bpay.data(), scaled(rcount),
                                   scaled(rdispl), split, max_message));
  }
  const double t2 = MPI_Wtime();
  bool bucket_dup = false;
  KeyConflict conflict;
  const int64_t distinct = number_bucket(bucket.data(), rdispl, &bucket_dup, bpay.data(), width, &conflict);
  if (own_conflict.found() && (!conflict.found() || own_conflict.key < conflict.key)) conflict = own_conflict;
  const int64_t dup = static_cast<size_t>(u) < n || bucket_dup ? 1 : 0;
  const double t3 = MPI_Wtime();

  // Step 5: global offsets, the total, the duplicate and conflict flags.
  int64_t offset = 0, sums[3] = {distinct, dup, conflict.found() ? 1 : 0}, totals[3] = {0, 0, 0};
  PARIO_RETURN_IF_ERROR(
      comm::mpi_status(MPI_Exscan(&distinct, &offset, 1, MPI_INT64_T, MPI_SUM, comm.get()), "MPI_Exscan"));
  if (comm.rank() == 0) offset = 0;  // MPI leaves rank 0's result undefined
  PARIO_RETURN_IF_ERROR(
      comm::mpi_status(MPI_Allreduce(sums, totals, 3, MPI_INT64_T, MPI_SUM, comm.get()), "MPI_Allreduce"));
  if (totals[2] > 0) {  // some bucket found a conflict: every rank learns the smallest key's
    const int64_t mine[3] = {conflict.found() ? conflict.key : INT64_MAX, conflict.first_rank, conflict.other_rank};
    std::vector<int64_t> all(3 * static_cast<size_t>(size));
    PARIO_RETURN_IF_ERROR(comm::mpi_status(
        MPI_Allgather(mine, 3, MPI_INT64_T, all.data(), 3, MPI_INT64_T, comm.get()), "MPI_Allgather"));
    for (int p = 0; p < size; ++p) {
      const int64_t* c = &all[3 * static_cast<size_t>(p)];
      if (c[1] >= 0 && (!out.conflict.found() || c[0] < out.conflict.key)) {
        out.conflict = KeyConflict{c[0], static_cast<int>(c[1]), static_cast<int>(c[2])};
      }
    }
  }
  for (int64_t& r : bucket) r += offset << 1;

  // Step 6: positions back to the senders, then to the caller's order.
  PARIO_RETURN_IF_ERROR(exchange(comm, bucket.data(), rcount, rdispl, direct ? out.positions.data() : uniq.data(),
                                 scount, sdispl, split, max_message));
  for (size_t i = 0; direct && i < n; ++i) {
    out.owner[i] = (out.positions[i] & 1) != 0;
    out.positions[i] >>= 1;
  }
  int64_t k = -1;
  for (size_t i = 0; !direct && i < n; ++i) {
    const size_t at = in_order ? i : static_cast<size_t>(sorted[i].index);
    const bool first = i == 0 || (in_order ? keys[i] != keys[i - 1] : sorted[i].key != sorted[i - 1].key);
    k += first;
    out.positions[at] = uniq[k] >> 1;
    if (first && (uniq[k] & 1)) out.owner[at] = true;
  }
  out.distinct = totals[0];
  out.duplicates = totals[1] != 0;
  if (stats) {
    *stats = KeySortStats{u, m, split};
    stats->local_seconds = t1 - t0;
    stats->bucket_seconds = t3 - t2;
    stats->other_seconds = MPI_Wtime() - t0 - stats->local_seconds - stats->bucket_seconds;
  }
  return out;
}

}  // namespace detail

Result<KeyRanks> rank_keys(const comm::Comm& comm, const int64_t* keys, size_t n) {
  return detail::rank_keys(comm, keys, n, detail::KeySortOptions{}, nullptr);
}

Result<KeyRanks> rank_keys(const comm::Comm& comm, const int64_t* keys, size_t n, const int64_t* payload, int width) {
  return detail::rank_keys(comm, keys, n, detail::KeySortOptions{}, nullptr, payload, width);
}

}  // namespace pario::collective
