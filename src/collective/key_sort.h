// The parallel key sort behind decompositions by key (remap by value, issue
// 25): every rank holds some int64 keys (sparse global node ids, say); each
// key gets its dense position among the distinct keys of all ranks, in
// increasing order, without any rank ever holding all keys.
//
// Algorithm (a sample sort with weighted regular samples), P ranks, n keys
// on this rank, u <= n of them distinct, U = sum of u over the ranks:
//  1. Local: sort (key, index) pairs (LSD radix sort, stable; nothing to
//     sort when the keys come in increasing order), drop repeats:
//     only the u distinct keys travel. Pick s regular samples of them, each
//     weighted by the number of keys it stands for, s = clamp(P, 64, 256).
//     comm::agree (one MPI_Allreduce) tells every rank whether all could
//     allocate what they need.
//  2. MPI_Allgather of the s samples: every rank sorts the P*s samples the
//     same way and cuts P-1 splitters at weighted quantiles j*U/P.
//  3. MPI_Alltoall of the per-destination counts, then one MPI_Allreduce
//     (failure and split flags, so every rank takes the same path).
//  4. MPI_Alltoallv: each distinct key to the rank owning its bucket. The
//     bucket owner merges the P sorted runs it got (ties to the lower
//     rank), numbers its distinct keys and marks the first holder of each.
//  5. MPI_Exscan of the distinct counts gives each bucket its global offset;
//     one MPI_Allreduce gives the total and the duplicate flag.
//  6. The reverse MPI_Alltoallv returns (position << 1 | owner) per key sent.
//
// Cost per rank: 8 collectives (2 Alltoallv, 1 Alltoall, 1 Allgather,
// 1 Exscan, 3 Allreduce), plus a broadcast of the message when a rank
// failed. Bytes per rank: 16*P*s received by the Allgather, 8*P each way
// by the Alltoall, 8*u sent and 8*m received by the keys' Alltoallv and
// the same back, where m, the bucket, holds at most U/P + 2*(U/s + P)
// keys (each rank's share of a bucket is off its weighted share by at most
// two sample gaps of ceil(u_r/s) keys): about 3U/P for s >= P, also when
// all keys sit on one rank. Memory per rank: about 40 bytes per local key
// (32 after the local sort; 16 when the keys come in order; 8, the
// positions returned, when they come in increasing order with no repeat:
// then they and their payload travel from the caller's arrays), 8 per
// bucket key (positions overwrite the keys in place) and 16*P*s for the
// samples; with a payload, 8 per word per local key (none when the keys
// come increasing) and per bucket key.
// Repeated keys leave a rank once, so many equal keys do not overload a
// bucket; many distinct keys in a narrow range are split by the samples
// like any others.
//
// Counts above INT_MAX (Open MPI 4 has no large-count Alltoallv) switch
// every rank to point-to-point messages of at most INT_MAX elements.
//
// A payload (w words per key: a hash of a node's coordinates, say) travels
// with each distinct key in step 4, where every copy of a key meets the
// others, and is compared there word by word with the first holder's; a
// key one rank holds twice is compared with its own first copy in step 1
// (only one copy per rank travels). The smallest key whose copies
// disagree comes back to every rank, riding on step 5's Allreduce (one
// MPI_Allgather more only when some key disagrees). It costs 8w bytes per
// distinct key sent in step 4 and no collective more.
//
// Thread safety: a collective; one call at a time per communicator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "comm/comm.h"

namespace pario::collective {

// Two copies of one key came with different payloads (found() false: none
// did): from two ranks, or twice from one rank (first_rank == other_rank).
struct KeyConflict {
  int64_t key = 0;
  int first_rank = -1;  // the lowest rank holding the key (a rank's own repeat: that rank)
  int other_rank = -1;  // the lowest rank whose payload differs from first_rank's (or first_rank itself)
  bool found() const { return first_rank >= 0; }
};

struct KeyRanks {
  // For each local key, in the caller's order: its dense position,
  // 0 .. distinct - 1, the rank of the key among the distinct keys of all
  // ranks in increasing order.
  std::vector<int64_t> positions;
  // For each local key: true for exactly one holder of each distinct key
  // (the lowest rank holding it, and there its first occurrence).
  std::vector<bool> owner;
  int64_t distinct = 0;      // the same on every rank
  bool duplicates = false;   // the same on every rank: some key occurs more than once anywhere
  KeyConflict conflict;      // the same on every rank: the smallest key whose payloads differ
};

// Collective over comm, blocking: ranks the keys of all ranks together
// (keys[0 .. n), borrowed for the call; n may be 0 on any or all ranks, and
// keys may then be null). Every rank returns the same status:
// kInvalidArgument (null keys with n > 0), kNoMemory, kOutOfRange (more
// than 2^62 distinct keys), kMpi; ranks that did not fail themselves get
// kRemote naming the rank that did. Nothing is returned on failure.
Result<KeyRanks> rank_keys(const comm::Comm& comm, const int64_t* keys, size_t n);
// The same, each key with `width` payload words (payload[i * width ..],
// borrowed for the call; width 0..16, the same on every rank; a key a rank
// holds twice travels with its first occurrence's payload, and its other
// copies are compared with it on that rank): conflict names the smallest
// key passed with different words, by two ranks or twice by one.
Result<KeyRanks> rank_keys(const comm::Comm& comm, const int64_t* keys, size_t n, const int64_t* payload, int width);

namespace detail {

// Knobs and observations for tests and measurements.
struct KeySortOptions {
  int samples = 0;               // per rank; 0: clamp(P, 64, 256)
  int64_t max_message = 0;       // elements per MPI message; 0: INT_MAX
};
struct KeySortStats {
  int64_t unique = 0;            // distinct local keys sent (u)
  int64_t bucket = 0;            // keys received for this rank's bucket (m)
  bool split = false;            // point-to-point messages instead of Alltoallv
  // Where the time went on this rank (MPI_Wtime): step 1, the bucket's
  // sort and numbering in step 4, and everything else (collectives,
  // waiting for slower ranks, the final scatter to the caller's order).
  double local_seconds = 0, bucket_seconds = 0, other_seconds = 0;
};

// rank_keys with the knobs above; stats (may be null) is filled on success.
Result<KeyRanks> rank_keys(const comm::Comm& comm, const int64_t* keys, size_t n,
                           const KeySortOptions& options, KeySortStats* stats, const int64_t* payload = nullptr,
                           int width = 0);

}  // namespace detail
}  // namespace pario::collective
