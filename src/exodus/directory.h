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
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "comm/comm.h"

namespace pario::exodus {

// Answer for an id that no rank holds.
constexpr int64_t kUnknownId = -1;

// Collective over comm: the position of each of the n queries, from
// `known` (this rank's table: id -> position) or, for the rest, from the
// directory of every rank's owned pairs (owned_ids[k] -> owned_positions[k];
// each id owned by one rank). kUnknownId where no rank owns the id. Every
// rank returns the same status (kNoMemory, kMpi, kOutOfRange for a message
// beyond 2^31 entries; kRemote elsewhere).
Result<std::vector<int64_t>> resolve(const comm::Comm& comm, const std::unordered_map<int64_t, int64_t>& known,
                                     const std::vector<int64_t>& owned_ids,
                                     const std::vector<int64_t>& owned_positions, const int64_t* queries, size_t n);

}  // namespace pario::exodus
