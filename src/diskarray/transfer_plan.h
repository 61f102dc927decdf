// The plan of a disk array transfer: which chunks a disk section touches,
// in what order, what part of the section each holds, and which rank
// moves each. The pure half of DiskArray::start (diskarray/disk_array.h):
// no MPI and no I/O, so every rank computes the same plan from the same
// inputs, and tests check it serially. Like TensorStore's grid partition
// (google/tensorstore:tensorstore/internal/grid_partition.h): a section
// partitioned over a regular chunk grid, then each piece given a mover.
//
// Thread safety: pure functions of their arguments.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "base/box.h"
#include "diskarray/zarr_meta.h"

namespace pario::diskarray {

// One chunk a disk section touches.
struct PlannedChunk {
  std::vector<int64_t> index;  // in the chunk grid
  Box chunk;                   // its elements in the array (an edge chunk is cut at the array's edge)
  Box part;                    // the part of the section in it (never empty)
  // What one rank moves whole: the chunk, or where writes rewrite shards
  // the shard holding it, named by its row-major number in the array (the
  // chunk or shard grid). Chunks of one group are consecutive in a plan.
  int64_t group = 0;
  int mover = 0;  // the rank that reads or writes it (0 .. ranks - 1)
};

// Adds, for each rank holding part of `part` (a box of the disk section)
// in memory, the elements it holds: add(rank, elements), any number of
// calls per rank. Ranks outside 0 .. ranks - 1 are ignored.
using Holdings =
    std::function<void(const Box& part, const std::function<void(int rank, int64_t elements)>& add)>;

// The block of chunk grid indices that `section` touches (empty when the
// section is).
Box chunks_touched(const ZarrMeta& meta, const Box& section);
// The chunk at a grid index: its elements in the array.
Box chunk_box(const ZarrMeta& meta, const std::vector<int64_t>& index);
// The row-major number of the chunk at a grid index, or where by_shard of
// the shard holding it (in the shard grid): a PlannedChunk's group, and
// the unit independent writes of different ranks must not share.
int64_t group_number(const ZarrMeta& meta, const std::vector<int64_t>& index, bool by_shard);

// The plan of a transfer of `section` (a box of the disk array) among
// `ranks` ranks, one entry per chunk the section touches (none for an
// empty section), in this order:
//   - row-major over the chunk grid;
//   - writes into shards: slot by slot across the shards, so the I/O
//     threads write different shard files at once (writers of one file
//     queue on its inode lock: perf of a 1-rank write into one shard at a
//     time showed a fifth of the time spinning on it);
//   - writes that rewrite whole shards (rewrites_shards: another program
//     packed them): shard by shard, each shard one group, so one rank
//     moves all of a shard's chunks.
// The mover of each group (collective::choose_movers, the collective
// layer's policy for units a file fixes): of the ranks holding at least half as much of
// the group's parts in memory as the one holding most, the one that has
// the least work (elements) so far, the groups taken in the order of
// their numbers whatever the transfer's order; ties go round by number,
// starting at a different candidate for each group. Not simply the one
// holding most: a 4-rank nonaligned section of whole-row chunks over a
// 2 x 2 grid of patches then fell all to the two left ranks (4095 of 8191
// columns are on the right), and the other two did no I/O. Taken by
// number, a read of what a write wrote picks the same movers and fills
// the pages of other ranks' memory this rank has already mapped (4 ranks,
// 8192 x 8192 doubles in a 2 x 2 grid of patches, whole-row chunks, the
// first read after a write, medians of 4: 7957 MB/s with ties by position
// in the transfer, 11095 by number). A group no rank holds any of goes
// to rank 0.
std::vector<PlannedChunk> plan_transfer(const ZarrMeta& meta, const Box& section, bool write,
                                        bool rewrites_shards, int ranks, const Holdings& holdings);

}  // namespace pario::diskarray
