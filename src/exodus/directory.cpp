// The distributed id -> position lookup (directory.h).
#include "exodus/directory.h"

#include <algorithm>
#include <climits>
#include <string>
#include <unordered_map>

#include "base/status_of.h"

namespace pario::exodus {

uint64_t mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

int home(int64_t id, int size) {
  return static_cast<int>(mix64(static_cast<uint64_t>(id) + 0x9e3779b97f4a7c15ull) % static_cast<uint64_t>(size));
}

Status exchange(const comm::Comm& comm, const std::vector<std::vector<int64_t>>& out, std::vector<int64_t>* in,
                std::vector<int>* from, Status carried) {
  const int size = comm.size();
  std::vector<int> sc(size), sd(size), rc(size), rd(size);
  Status local = std::move(carried);
  int64_t total = 0;
  for (int r = 0; r < size; ++r) {
    if (out[r].size() > static_cast<size_t>(INT_MAX) || total + static_cast<int64_t>(out[r].size()) > INT_MAX) {
      local = Status(Code::kOutOfRange, "an exchange of more than 2^31 entries");
      break;
    }
    sd[r] = static_cast<int>(total);
    sc[r] = static_cast<int>(out[r].size());
    total += sc[r];
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  PARIO_RETURN_IF_ERROR(
      comm::mpi_status(MPI_Alltoall(sc.data(), 1, MPI_INT, rc.data(), 1, MPI_INT, comm.get()), "MPI_Alltoall"));
  int64_t incoming = 0;
  for (int r = 0; r < size; ++r) {
    rd[r] = static_cast<int>(std::min<int64_t>(incoming, INT_MAX));
    incoming += rc[r];
  }
  if (incoming > INT_MAX) local = Status(Code::kOutOfRange, "an exchange of more than 2^31 entries");
  std::vector<int64_t> packed;
  if (local.ok()) {
    local = status_of("the directory's exchange", [&] {
      packed.reserve(static_cast<size_t>(total));
      for (const auto& b : out) packed.insert(packed.end(), b.begin(), b.end());
      in->assign(static_cast<size_t>(incoming), 0);
      return Status::Ok();
    });
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  PARIO_RETURN_IF_ERROR(comm::mpi_status(MPI_Alltoallv(packed.data(), sc.data(), sd.data(), MPI_INT64_T, in->data(),
                                                       rc.data(), rd.data(), MPI_INT64_T, comm.get()),
                                         "MPI_Alltoallv"));
  *from = rc;
  return Status::Ok();
}

void IdTable::add(const int64_t* ids, const int64_t* positions, const bool* owned, size_t n) {
  auto by_id = [](const Entry& a, const Entry& b) { return a.id < b.id; };
  std::vector<Entry> fresh;
  fresh.reserve(n);
  for (size_t k = 0; k < n; ++k) fresh.push_back(Entry{ids[k], positions[k] * 2 + ((!owned || owned[k]) ? 1 : 0)});
  if (!std::is_sorted(fresh.begin(), fresh.end(), by_id)) std::sort(fresh.begin(), fresh.end(), by_id);
  std::vector<Entry> rest;
  const size_t old_runs = runs_.size();
  split_runs(fresh, &rest);
  std::vector<Entry>().swap(fresh);
  if (old_runs > 0 && runs_.size() > old_runs) {
    // Runs of two adds may interleave (ids 2, 4, ... and 3, 5, ...): those
    // that overlap a neighbour go back to entries, so that the runs left
    // are disjoint and one binary search finds an id's only candidate.
    std::sort(runs_.begin(), runs_.end(), [](const Run& a, const Run& b) { return a.id < b.id; });
    std::vector<bool> overlaps(runs_.size(), false);
    for (size_t r = 1; r < runs_.size(); ++r) {
      if (runs_[r - 1].last() >= runs_[r].id) overlaps[r - 1] = overlaps[r] = true;
    }
    std::vector<Run> kept;
    for (size_t r = 0; r < runs_.size(); ++r) {
      const Run& x = runs_[r];
      if (!overlaps[r]) {
        kept.push_back(x);
        continue;
      }
      for (int64_t k = 0; k < x.count; ++k) rest.push_back(Entry{x.id_at(k), (x.position + k) * 2 + (x.owned ? 1 : 0)});
    }
    runs_.swap(kept);
    std::sort(rest.begin(), rest.end(), by_id);
  }
  const size_t old = entries_.size();
  entries_.reserve(old + rest.size());
  entries_.insert(entries_.end(), rest.begin(), rest.end());
  std::inplace_merge(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(old), entries_.end(), by_id);
  size_ += n;
  index();
}

void IdTable::split_runs(const std::vector<Entry>& sorted, std::vector<Entry>* rest) {
  const size_t n = sorted.size();
  size_t i = 0;
  while (i < n) {
    // The longest run from i: ids rising by the first step (a positive one
    // that fits an int64), positions by one, one owned flag (owned_position
    // rises by exactly 2).
    size_t j = i + 1;
    uint64_t stride = 0;
    if (j < n && sorted[j].id > sorted[i].id) {
      stride = static_cast<uint64_t>(sorted[j].id) - static_cast<uint64_t>(sorted[i].id);
      while (stride <= static_cast<uint64_t>(INT64_MAX) && j < n && sorted[j].id > sorted[j - 1].id &&
             static_cast<uint64_t>(sorted[j].id) - static_cast<uint64_t>(sorted[j - 1].id) == stride &&
             sorted[j].owned_position == sorted[j - 1].owned_position + 2) {
        ++j;
      }
    }
    if (j - i >= kMinRun) {
      runs_.push_back(Run{sorted[i].id, static_cast<int64_t>(stride), sorted[i].owned_position >> 1,
                          static_cast<int64_t>(j - i), (sorted[i].owned_position & 1) != 0});
      i = j;
    } else {
      rest->push_back(sorted[i]);
      ++i;
    }
  }
}

void IdTable::index() {
  constexpr size_t kPerBucket = 2, kMinEntries = 64;
  bucket_.clear();
  const size_t n = entries_.size();
  if (n < kMinEntries || n >= (size_t{1} << 32)) {
    bucket_.shrink_to_fit();
    return;
  }
  base_ = entries_.front().id;
  const uint64_t span = static_cast<uint64_t>(entries_.back().id) - static_cast<uint64_t>(base_);
  // The smallest shift giving at most n / kPerBucket buckets.
  shift_ = 0;
  while ((span >> shift_) >= n / kPerBucket) ++shift_;
  const size_t buckets = static_cast<size_t>(span >> shift_) + 1;
  bucket_.resize(buckets + 1);
  size_t e = 0;
  for (size_t b = 0; b <= buckets; ++b) {
    while (e < n && ((static_cast<uint64_t>(entries_[e].id) - static_cast<uint64_t>(base_)) >> shift_) < b) ++e;
    bucket_[b] = static_cast<uint32_t>(e);
  }
  bucket_.shrink_to_fit();
}

int64_t IdTable::find(int64_t id) const {
  if (!runs_.empty()) {
    auto after = std::upper_bound(runs_.begin(), runs_.end(), id, [](int64_t v, const Run& r) { return v < r.id; });
    if (after != runs_.begin()) {
      const Run& r = *(after - 1);
      const uint64_t d = static_cast<uint64_t>(id) - static_cast<uint64_t>(r.id);
      if (id <= r.last() && d % static_cast<uint64_t>(r.stride) == 0) {
        return r.position + static_cast<int64_t>(d / static_cast<uint64_t>(r.stride));
      }
    }
  }
  auto first = entries_.begin(), last = entries_.end();
  if (!bucket_.empty()) {
    if (id < base_) return kUnknownId;
    const uint64_t b = (static_cast<uint64_t>(id) - static_cast<uint64_t>(base_)) >> shift_;
    if (b + 1 >= bucket_.size()) return kUnknownId;
    last = entries_.begin() + bucket_[b + 1];
    first = entries_.begin() + bucket_[b];
  }
  if (last - first > 8) {  // a crowded bucket (ids bunched together), or no index
    first = std::lower_bound(first, last, id, [](const Entry& e, int64_t v) { return e.id < v; });
  } else {
    while (first != last && first->id < id) ++first;
  }
  return first != last && first->id == id ? first->owned_position >> 1 : kUnknownId;
}

namespace {

// resolve() into positions of type T (int64_t, or int32_t where every
// position fits). Each step's allocations are statuses (status_of) carried
// into the next agreement, so a rank short of memory never leaves the
// others waiting in an exchange.
template <typename T>
Result<std::vector<T>> resolve_as(const comm::Comm& comm, const IdTable& known, const int64_t* queries, size_t n) {
  std::vector<T> answer;
  std::unordered_map<int64_t, int64_t> missing;  // id -> its answer, once known
  Status local = status_of("resolving ids", [&] {
    answer.resize(n);
    for (size_t k = 0; k < n; ++k) {
      const int64_t found = known.find(queries[k]);
      answer[k] = static_cast<T>(found);
      if (found == kUnknownId) missing.emplace(queries[k], kUnknownId);
    }
    return Status::Ok();
  });
  int64_t any = missing.empty() ? 0 : 1;
  PARIO_RETURN_IF_ERROR(comm::agree_max(comm, local, &any, 1));
  if (!any) return answer;

  const int size = comm.size();
  // 1. The directory: owned pairs to their home ranks.
  std::vector<std::vector<int64_t>> out(size);
  local = status_of("the directory's entries", [&] {
    known.for_each_owned([&](int64_t id, int64_t position) {
      auto& b = out[home(id, size)];
      b.push_back(id);
      b.push_back(position);
    });
    return Status::Ok();
  });
  std::vector<int64_t> in;
  std::vector<int> from;
  PARIO_RETURN_IF_ERROR(exchange(comm, out, &in, &from, local));
  std::unordered_map<int64_t, int64_t> directory;
  local = status_of("the directory", [&] {
    directory.reserve(in.size() / 2);
    for (size_t k = 0; k + 1 < in.size(); k += 2) directory.emplace(in[k], in[k + 1]);
    in.clear();
    // 2. The misses to the ranks that keep them, and 3. the answers back.
    for (auto& b : out) b.clear();
    for (const auto& [id, unused] : missing) out[home(id, size)].push_back(id);
    return Status::Ok();
  });
  PARIO_RETURN_IF_ERROR(exchange(comm, out, &in, &from, local));
  for (int64_t& id : in) {
    auto it = directory.find(id);
    id = it == directory.end() ? kUnknownId : it->second;
  }
  directory.clear();
  std::vector<std::vector<int64_t>> back(size);
  local = status_of("the directory's answers", [&] {
    size_t at = 0;
    for (int r = 0; r < size; ++r) {
      back[r].assign(in.begin() + static_cast<std::ptrdiff_t>(at),
                     in.begin() + static_cast<std::ptrdiff_t>(at + from[r]));
      at += static_cast<size_t>(from[r]);
    }
    return Status::Ok();
  });
  std::vector<int64_t> answers;
  PARIO_RETURN_IF_ERROR(exchange(comm, back, &answers, &from, local));
  // The answers come back per home rank, in the order the misses were sent.
  std::vector<size_t> next(size, 0), start(size, 0);
  for (int r = 1; r < size; ++r) start[r] = start[r - 1] + static_cast<size_t>(from[r - 1]);
  for (auto& [id, value] : missing) {
    const int r = home(id, size);
    value = answers[start[r] + next[r]++];
  }
  for (size_t k = 0; k < n; ++k) {
    if (answer[k] == kUnknownId) answer[k] = static_cast<T>(missing[queries[k]]);
  }
  return answer;
}

}  // namespace

Result<std::vector<int64_t>> resolve(const comm::Comm& comm, const IdTable& known, const int64_t* queries, size_t n) {
  return resolve_as<int64_t>(comm, known, queries, n);
}

Result<std::vector<int32_t>> resolve32(const comm::Comm& comm, const IdTable& known, const int64_t* queries,
                                       size_t n) {
  return resolve_as<int32_t>(comm, known, queries, n);
}

}  // namespace pario::exodus
