// A distributed lookup from global ids to file positions (a distributed
// directory, as Zoltan's DD): how the writer turns the global node ids of
// a connectivity, or the global element ids of a side set, into positions
// in the file without any rank holding all ids.
//
// Every rank knows the positions of the ids it passed itself (its nodes,
// its elements). A query is answered from that table first; what no rank
// misses never travels. Only when some rank asks for an id it does not
// know (a side-set entry on a rank that does not hold the element, a
// connectivity naming a node the rank did not pass) is the directory
// built: each owner sends its (id, position) pairs to the rank
// hash(id) mod P, the askers send their misses there and get the
// positions back: three all-to-all-v exchanges of 16, 8 and 8 bytes per
// entry. Memory per rank: its table, plus its share of the directory
// (owned ids / P on average) while a lookup runs.
//
// Thread safety: collectives, one at a time per communicator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "comm/comm.h"

namespace pario::exodus {

// Answer for an id that no rank holds.
constexpr int64_t kUnknownId = -1;

// A rank's own ids with their file positions, and whether this rank owns
// each (writes it, and answers for it in the directory). Sorted by id: 16
// bytes an entry, where an unordered_map<int64_t, int64_t> took about 40
// and the owned pairs another 16 (issue 27: 2 x 56 MB of the writer's peak
// for a 10^6-node mesh on one rank). A lookup starts in a bucket of ids
// ((id - first id) >> shift, at most one bucket per two entries, 4 bytes
// each for the bucket's first entry): a connectivity's 8 * 10^6 lookups
// took a binary search of ~20 steps, most of them cache misses, each
// (issue 27, the profile in docs/performance.md).
//
// Runs: kMinRun or more entries in a row (by id) whose ids step by one
// stride and whose positions by one, with one owned flag, are kept as one
// Run of 40 bytes. A rank's ids usually come so (a partition numbered by
// rank: 2 x 10^6 nodes and as many elements of issue 27's size L per rank
// took 64 MB of entries, the writer's largest table, now a few runs); ids
// in no order cost 16 bytes each as before. Local; not thread-safe.
class IdTable {
 public:
  // Adds n entries (positions >= 0; owned may be null: all owned). The
  // writer's ids do not repeat (it checks that first); a reader's map may
  // repeat one, and find then answers one of its positions. Merges with
  // what is there, in O(size + n log n).
  void add(const int64_t* ids, const int64_t* positions, const bool* owned, size_t n);
  // The position of id, or kUnknownId.
  int64_t find(int64_t id) const;
  size_t size() const { return size_; }
  size_t runs() const { return runs_.size(); }  // for tests and measurements
  // Calls f(id, position) for each owned entry, in id order.
  template <typename F>
  void for_each_owned(F&& f) const {
    size_t e = 0;
    auto entries_before = [&](int64_t id, bool all) {
      for (; e < entries_.size() && (all || entries_[e].id < id); ++e) {
        if (entries_[e].owned_position & 1) f(entries_[e].id, entries_[e].owned_position >> 1);
      }
    };
    for (const Run& r : runs_) {
      for (int64_t k = 0; k < r.count; ++k) {
        const int64_t id = r.id_at(k);
        entries_before(id, false);
        if (r.owned) f(id, r.position + k);
      }
    }
    entries_before(0, true);
  }

  static constexpr size_t kMinRun = 16;

 private:
  struct Entry {
    int64_t id;
    int64_t owned_position;  // position * 2 + owned (positions are below 2^62)
  };
  // Ids id + k * stride, positions position + k, k < count (stride > 0;
  // the last id is a real id, so no sum overflows).
  struct Run {
    int64_t id, stride, position, count;
    bool owned;
    int64_t id_at(int64_t k) const {
      return static_cast<int64_t>(static_cast<uint64_t>(id) + static_cast<uint64_t>(stride) * static_cast<uint64_t>(k));
    }
    int64_t last() const { return id_at(count - 1); }
  };
  void index();  // bucket_ for entries_
  // Runs of at least kMinRun out of sorted, into runs_ (appended) and the
  // rest into rest.
  void split_runs(const std::vector<Entry>& sorted, std::vector<Entry>* rest);
  std::vector<Run> runs_;  // by id, their [id, last] ranges disjoint
  std::vector<Entry> entries_;
  size_t size_ = 0;
  // Bucket b holds the entries [bucket_[b], bucket_[b + 1]) whose ids have
  // (id - base_) >> shift_ == b; empty (binary search) for small tables
  // and tables of 2^32 entries or more.
  std::vector<uint32_t> bucket_;
  int64_t base_ = 0;
  int shift_ = 0;
};

// The finalizer of splitmix64: a bijection of 64-bit words whose every
// output bit depends on every input bit.
uint64_t mix64(uint64_t x);

// The rank keeping an id in the directory (or any other key spread over
// the ranks): a mix of its bits (ids are often multiples of a stride,
// e.g. 2*(n+1)), modulo size.
int home(int64_t id, int size);

// Collective over comm: bucket r of `out` to rank r; *in gets what every
// rank sent here, rank after rank, and *from the count from each (one
// MPI_Alltoall and one MPI_Alltoallv). Same status everywhere: kOutOfRange
// for more than 2^31 entries in or out of a rank, kNoMemory, kMpi, or
// `carried`: this rank's failure in the work before (joined to the first
// agreement, so no rank is left in the exchange).
Status exchange(const comm::Comm& comm, const std::vector<std::vector<int64_t>>& out, std::vector<int64_t>* in,
                std::vector<int>* from, Status carried = Status::Ok());

// Collective over comm: the position of each of the n queries, from
// `known` (this rank's table) or, for the rest, from the directory of
// every rank's owned entries (each id owned by one rank). kUnknownId where
// no rank owns the id. Every rank returns the same status (kNoMemory,
// kMpi, kOutOfRange for a message beyond 2^31 entries; kRemote elsewhere).
Result<std::vector<int64_t>> resolve(const comm::Comm& comm, const IdTable& known, const int64_t* queries, size_t n);
// The same as 32-bit positions (kUnknownId is -1 there too), 4 bytes a
// query instead of 8: for lookups whose positions all fit (a
// connectivity of a file with 32-bit integers, fewer than 2^31 nodes).
Result<std::vector<int32_t>> resolve32(const comm::Comm& comm, const IdTable& known, const int64_t* queries,
                                       size_t n);

}  // namespace pario::exodus
