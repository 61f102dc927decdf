// The distributed id -> position lookup (directory.h).
#include "exodus/directory.h"

#include <algorithm>
#include <climits>
#include <string>
#include <unordered_map>

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
                std::vector<int>* from) {
  const int size = comm.size();
  std::vector<int> sc(size), sd(size), rc(size), rd(size);
  Status local;
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
    packed.reserve(static_cast<size_t>(total));
    for (const auto& b : out) packed.insert(packed.end(), b.begin(), b.end());
    in->assign(static_cast<size_t>(incoming), 0);
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  PARIO_RETURN_IF_ERROR(comm::mpi_status(MPI_Alltoallv(packed.data(), sc.data(), sd.data(), MPI_INT64_T, in->data(),
                                                       rc.data(), rd.data(), MPI_INT64_T, comm.get()),
                                         "MPI_Alltoallv"));
  *from = rc;
  return Status::Ok();
}

void IdTable::add(const int64_t* ids, const int64_t* positions, const bool* owned, size_t n) {
  const size_t old = entries_.size();
  entries_.reserve(old + n);
  for (size_t k = 0; k < n; ++k) {
    entries_.push_back(Entry{ids[k], positions[k] * 2 + ((!owned || owned[k]) ? 1 : 0)});
  }
  auto by_id = [](const Entry& a, const Entry& b) { return a.id < b.id; };
  const auto mid = entries_.begin() + static_cast<std::ptrdiff_t>(old);
  if (!std::is_sorted(mid, entries_.end(), by_id)) std::sort(mid, entries_.end(), by_id);
  std::inplace_merge(entries_.begin(), mid, entries_.end(), by_id);
  index();
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
// position fits).
template <typename T>
Result<std::vector<T>> resolve_as(const comm::Comm& comm, const IdTable& known, const int64_t* queries, size_t n) {
  std::vector<T> answer(n);
  std::unordered_map<int64_t, int64_t> missing;  // id -> its answer, once known
  for (size_t k = 0; k < n; ++k) {
    const int64_t found = known.find(queries[k]);
    answer[k] = static_cast<T>(found);
    if (found == kUnknownId) missing.emplace(queries[k], kUnknownId);
  }
  int64_t any = missing.empty() ? 0 : 1;
  PARIO_RETURN_IF_ERROR(comm::mpi_status(
      MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT64_T, MPI_MAX, comm.get()), "MPI_Allreduce"));
  if (!any) return answer;

  const int size = comm.size();
  // 1. The directory: owned pairs to their home ranks.
  std::vector<std::vector<int64_t>> out(size);
  known.for_each_owned([&](int64_t id, int64_t position) {
    auto& b = out[home(id, size)];
    b.push_back(id);
    b.push_back(position);
  });
  std::vector<int64_t> in;
  std::vector<int> from;
  PARIO_RETURN_IF_ERROR(exchange(comm, out, &in, &from));
  std::unordered_map<int64_t, int64_t> directory;
  directory.reserve(in.size() / 2);
  for (size_t k = 0; k + 1 < in.size(); k += 2) directory.emplace(in[k], in[k + 1]);
  in.clear();

  // 2. The misses to the ranks that keep them, and 3. the answers back.
  for (auto& b : out) b.clear();
  for (const auto& [id, unused] : missing) out[home(id, size)].push_back(id);
  PARIO_RETURN_IF_ERROR(exchange(comm, out, &in, &from));
  for (int64_t& id : in) {
    auto it = directory.find(id);
    id = it == directory.end() ? kUnknownId : it->second;
  }
  directory.clear();
  std::vector<std::vector<int64_t>> back(size);
  size_t at = 0;
  for (int r = 0; r < size; ++r) {
    back[r].assign(in.begin() + static_cast<std::ptrdiff_t>(at), in.begin() + static_cast<std::ptrdiff_t>(at + from[r]));
    at += static_cast<size_t>(from[r]);
  }
  std::vector<int64_t> answers;
  PARIO_RETURN_IF_ERROR(exchange(comm, back, &answers, &from));
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
