#include "diskarray/transfer_plan.h"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "base/checked.h"
#include "collective/plan.h"

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

// The movers, by the rule in the header (collective::choose_movers): each
// group of consecutive chunks is one unit, with what each rank holds of it.
void choose_movers(int ranks, const Holdings& holdings, std::vector<PlannedChunk>* plan) {
  std::vector<PlannedChunk>& p = *plan;
  std::vector<collective::MoveUnit> units;
  std::vector<std::pair<size_t, size_t>> spans;  // each unit's chunks in the plan
  for (size_t i = 0; i < p.size();) {
    size_t end = i + 1;
    while (end < p.size() && p[end].group == p[i].group) ++end;
    collective::MoveUnit u;
    u.number = p[i].group;
    std::map<int, int64_t> held;  // rank: elements of the group's parts in its memory
    for (size_t k = i; k < end; ++k) {
      u.elements += p[k].part.elements();
      holdings(p[k].part, [&](int rank, int64_t n) { held[rank] += n; });
    }
    u.held.assign(held.begin(), held.end());
    units.push_back(std::move(u));
    spans.push_back({i, end});
    i = end;
  }
  const std::vector<int> movers = collective::choose_movers(ranks, units);
  for (size_t u = 0; u < units.size(); ++u)
    for (size_t i = spans[u].first; i < spans[u].second; ++i) p[i].mover = movers[u];
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
