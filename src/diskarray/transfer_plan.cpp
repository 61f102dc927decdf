#include "diskarray/transfer_plan.h"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "base/checked.h"

namespace pario::diskarray {
namespace {

// The section's chunks, row-major over the grid.
std::vector<PlannedChunk> touched(const ZarrMeta& meta, const Box& section) {
  std::vector<PlannedChunk> plan;
  const int nd = section.ndim;
  for_each_index(chunks_touched(meta, section), [&](const Shape& at) {
    PlannedChunk c;
    c.index.assign(at.begin(), at.begin() + nd);
    c.chunk = chunk_box(meta, c.index);
    c.part = c.chunk.intersect(section);
    plan.push_back(std::move(c));
  });
  return plan;
}

// Writes into shards: slot by slot across the shards, or shard by shard
// where by_shard; row-major within either.
void order_by_shard(const ZarrMeta& meta, bool by_shard, std::vector<PlannedChunk>* plan) {
  const size_t nd = meta.shape.size();
  std::vector<std::array<int64_t, 3>> key(plan->size());  // sort key, then the row-major position
  for (size_t i = 0; i < plan->size(); ++i) {
    int64_t slot = 0, shard = 0;
    const std::vector<int64_t> at = meta.shard_index((*plan)[i].index, &slot);
    for (size_t d = 0; d < nd; ++d) shard = shard * (meta.shape[d] / meta.shard[d] + 1) + at[d];
    key[i] = by_shard ? std::array<int64_t, 3>{shard, slot, static_cast<int64_t>(i)}
                      : std::array<int64_t, 3>{slot, shard, static_cast<int64_t>(i)};
  }
  std::sort(key.begin(), key.end());
  std::vector<PlannedChunk> sorted;
  sorted.reserve(plan->size());
  for (const auto& k : key) sorted.push_back(std::move((*plan)[static_cast<size_t>(k[2])]));
  *plan = std::move(sorted);
}

// The movers, by the rule in the header.
void choose_movers(int ranks, const Holdings& holdings, std::vector<PlannedChunk>* plan) {
  std::vector<PlannedChunk>& p = *plan;
  struct Group {
    size_t begin, end;            // its chunks in the plan
    int64_t elements = 0;         // of its parts: the work it is
    std::vector<int> candidates;  // ranks holding at least half as much as the one holding most
  };
  std::vector<Group> groups;
  for (size_t i = 0; i < p.size();) {
    Group g;
    g.begin = i;
    g.end = i + 1;
    while (g.end < p.size() && p[g.end].group == p[i].group) ++g.end;
    std::map<int, int64_t> held;  // rank: elements of the group's parts in its memory
    for (size_t k = i; k < g.end; ++k) {
      g.elements += p[k].part.elements();
      holdings(p[k].part, [&](int rank, int64_t n) { held[rank] += n; });
    }
    int64_t most = 0;
    for (const auto& [rank, n] : held) most = std::max(most, n);
    for (const auto& [rank, n] : held) {
      if (n > 0 && 2 * n >= most && rank >= 0 && rank < ranks) g.candidates.push_back(rank);
    }
    i = g.end;
    groups.push_back(std::move(g));
  }
  std::vector<size_t> by_number(groups.size());
  for (size_t k = 0; k < groups.size(); ++k) by_number[k] = k;
  std::sort(by_number.begin(), by_number.end(),
            [&](size_t a, size_t b) { return p[groups[a].begin].group < p[groups[b].begin].group; });
  std::vector<int64_t> load(static_cast<size_t>(std::max(1, ranks)));
  for (size_t k : by_number) {
    const Group& g = groups[k];
    const int64_t number = p[g.begin].group;
    int mover = 0;
    if (!g.candidates.empty()) {
      const size_t n = g.candidates.size(), first = static_cast<size_t>(number) % n;
      mover = g.candidates[first];
      for (size_t c = 1; c < n; ++c) {
        const int r = g.candidates[(first + c) % n];
        if (load[static_cast<size_t>(r)] < load[static_cast<size_t>(mover)]) mover = r;
      }
    }
    load[static_cast<size_t>(mover)] += g.elements;
    for (size_t i = g.begin; i < g.end; ++i) p[i].mover = mover;
  }
}

}  // namespace

Box chunks_touched(const ZarrMeta& meta, const Box& section) {
  Box grid;
  grid.ndim = section.ndim;
  if (section.empty()) return grid;  // all counts 0
  for (int d = 0; d < section.ndim; ++d) {
    grid.start[d] = section.start[d] / meta.chunks[d];
    grid.count[d] = (section.start[d] + section.count[d] - 1) / meta.chunks[d] - grid.start[d] + 1;
  }
  return grid;
}

Box chunk_box(const ZarrMeta& meta, const std::vector<int64_t>& index) {
  Box chunk;
  chunk.ndim = static_cast<int>(index.size());
  for (int d = 0; d < chunk.ndim; ++d) {
    chunk.start[d] = index[d] * meta.chunks[d];
    chunk.count[d] = std::min(meta.chunks[d], meta.shape[d] - chunk.start[d]);
  }
  return chunk;
}

int64_t group_number(const ZarrMeta& meta, const std::vector<int64_t>& index, bool by_shard) {
  int64_t slot = 0, n = 0;
  const std::vector<int64_t> at = by_shard ? meta.shard_index(index, &slot) : index;
  for (size_t d = 0; d < at.size(); ++d) {
    n = n * ceil_div(meta.shape[d], by_shard ? meta.shard[d] : meta.chunks[d]) + at[d];
  }
  return n;
}

std::vector<PlannedChunk> plan_transfer(const ZarrMeta& meta, const Box& section, bool write,
                                        bool rewrites_shards, int ranks, const Holdings& holdings) {
  const bool by_shard = write && rewrites_shards;
  std::vector<PlannedChunk> plan = touched(meta, section);
  if (write && meta.sharded()) order_by_shard(meta, by_shard, &plan);
  for (PlannedChunk& c : plan) c.group = group_number(meta, c.index, by_shard);
  choose_movers(ranks, holdings, &plan);
  return plan;
}

}  // namespace pario::diskarray
