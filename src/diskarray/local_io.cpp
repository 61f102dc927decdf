// Independent section I/O on a disk array, its sync, and create modes.
//
// read_local and write_local move one rank's section between a dense C
// order buffer and the store, with no other rank taking part: each chunk
// the section touches is read whole through a ChunkStore over the array's
// own storage (so O_DIRECT, MPI-IO and Files in Memory apply as they do to
// transfers), and the section's part is copied out; a chunk never written
// reads as 0. Writes by the store's layout:
//   - pario's fixed-slot shards (ChunkStore::writes_in_parts): the part's
//     rows go straight to their bytes in the slot (write_runs), nothing
//     read;
//   - chunk files (raw or zstd): a whole chunk is written as it is, a
//     partly covered one read, merged and written whole;
//   - shards another program packed (rewrites_shards): each shard the
//     section touches is rebuilt with its chunks merged (write_shard).
//
// The rule that makes this safe without a lock: between two syncs,
// independent writes of different ranks touch disjoint chunks (shards, for
// packed shards). A chunk's merge is read-modify-write, and a packed
// shard's rewrite replaces the whole file, so two ranks merging into one
// unit would each write back the other's old bytes. Within pario's shards,
// ranks write different slots of one file side by side, as collective
// transfers do. A lock was the alternative: fcntl range locks are unreliable
// on the parallel and network file systems scratch lives on and mean nothing
// to files in RAM, and a lock server over MPI would cost a message per chunk.
// Instead each rank remembers the units it wrote, and sync compares them
// (one allgather), so a program that breaks the rule is told where.
//
// sync agrees on one status (its allreduce is also the barrier: every
// rank's writes have returned before any rank leaves it). The files are
// closed at the end of every independent call, which is what MPI-IO's
// consistency needs and leaves no stale shard index cached.
#include <mpi.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <utility>

#include "base/checked.h"
#include "comm/comm.h"
#include "diskarray/chunk_store.h"
#include "diskarray/disk_array.h"
#include "diskarray/transfer_plan.h"

namespace pario::diskarray {
namespace {

// Units checked against each other at sync, per rank; past it the check is
// skipped (a sync must not cost more than the writes it follows).
constexpr int64_t kMaxCheckedUnits = int64_t{1} << 20;

std::string dims_text(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// A section of a dense C-order buffer and a chunk's part of it: calls
// row(buffer offset, chunk offset, bytes) for each row of the part, the
// offsets in bytes, the chunk's in its padded shape (meta.chunks).
template <typename Row>
void for_each_part_row(const ZarrMeta& m, const Box& section, const Box& chunk, const Box& part, Row&& row) {
  const int nd = part.ndim, last = nd - 1;
  const int64_t esize = static_cast<int64_t>(m.element_bytes());
  std::array<int64_t, kMaxDims> sec_stride{}, chunk_stride{};
  sec_stride[last] = chunk_stride[last] = 1;
  for (int d = last - 1; d >= 0; --d) {
    sec_stride[d] = sec_stride[d + 1] * section.count[d + 1];
    chunk_stride[d] = chunk_stride[d + 1] * m.chunks[d + 1];
  }
  for_each_row(part, [&](const Shape& at, int64_t n) {
    int64_t b = 0, c = 0;
    for (int d = 0; d < nd; ++d) {
      b += (at[d] - section.start[d]) * sec_stride[d];
      c += (at[d] - chunk.start[d]) * chunk_stride[d];
    }
    row(static_cast<size_t>(b * esize), static_cast<uint64_t>(c * esize), static_cast<size_t>(n * esize));
  });
}

// Calls f(index, chunk box, part) for every chunk the section touches, in
// row-major order; stops at the first error.
template <typename F>
Status for_each_chunk(const ZarrMeta& m, const Box& section, F&& f) {
  Status s;
  for_each_index(chunks_touched(m, section), [&](const Shape& at) {
    const std::vector<int64_t> index(at.begin(), at.begin() + section.ndim);
    const Box chunk = chunk_box(m, index);
    s = f(index, chunk, chunk.intersect(section));
    return s.ok();
  });
  return s;
}

bool covers(const Box& part, const Box& chunk) {
  for (int d = 0; d < part.ndim; ++d) {
    if (part.count[d] != chunk.count[d]) return false;
  }
  return true;
}

std::string unit_name(const ZarrMeta& m, int64_t unit, bool by_shard) {
  std::vector<int64_t> at(m.shape.size());
  for (size_t d = at.size(); d-- > 0;) {
    const int64_t n = std::max<int64_t>(1, ceil_div(m.shape[d], by_shard ? m.shard[d] : m.chunks[d]));
    at[d] = unit % n;
    unit /= n;
  }
  return std::string(by_shard ? "shard " : "chunk ") + m.chunk_key(at);
}

// A section of the array (this rank's argument to an independent call).
Status check_section(const ZarrMeta& m, const std::string& dir, const Box& section) {
  const int nd = static_cast<int>(m.shape.size());
  if (section.ndim != nd) {
    return Status(Code::kInvalidArgument, dir + ": the section has " + std::to_string(section.ndim) +
                                              " dimensions, the array " + std::to_string(nd));
  }
  for (int d = 0; d < nd; ++d) {
    if (!inside(section.start[d], section.count[d], m.shape[d])) {
      return Status(Code::kOutOfRange, dir + ": section of start " + std::to_string(section.start[d]) +
                                           " and count " + std::to_string(section.count[d]) + " in dimension " +
                                           std::to_string(d) + " is outside [0, " + std::to_string(m.shape[d]) +
                                           ")");
    }
  }
  return Status::Ok();
}

}  // namespace

Status DiskArray::read_local(const Box& section, void* buf) {
  if (closed_) return Status(Code::kState, dir_ + ": the disk array is closed");
  PARIO_RETURN_IF_ERROR(check_section(meta_, dir_, section));
  if (section.empty()) return Status::Ok();
  for (const auto& w : in_flight_) {
    if (std::shared_ptr<Transfer> t = w.lock()) t->drain();
  }
  ChunkStore store(dir_, meta_, options_.storage);
  std::vector<char> chunk_buf(store.chunk_bytes());
  char* out = static_cast<char*>(buf);
  Status s = for_each_chunk(meta_, section, [&](const std::vector<int64_t>& index, const Box& chunk, const Box& part) {
    PARIO_RETURN_IF_ERROR(store.read(index.data(), chunk_buf.data()));
    for_each_part_row(meta_, section, chunk, part, [&](size_t b, uint64_t c, size_t len) {
      std::memcpy(out + b, chunk_buf.data() + c, len);
    });
    return Status::Ok();
  });
  Status closed = store.close_files();
  return s.ok() ? closed : s;
}

Status DiskArray::write_local(const Box& section, const void* buf) {
  if (closed_) return Status(Code::kState, dir_ + ": the disk array is closed");
  if (!writable_) return Status(Code::kState, dir_ + ": opened read-only");
  PARIO_RETURN_IF_ERROR(check_section(meta_, dir_, section));
  if (section.empty()) return Status::Ok();
  for (const auto& w : in_flight_) {
    if (std::shared_ptr<Transfer> t = w.lock()) t->drain();
  }
  ChunkStore store(dir_, meta_, options_.storage);
  const bool by_shard = store.rewrites_shards();
  const char* in = static_cast<const char*>(buf);
  std::vector<char> chunk_buf;  // chunk files: one chunk at a time
  // A chunk's new bytes: the old ones (or zeros) with the part merged in.
  auto merged = [&](const std::vector<int64_t>& index, const Box& chunk, const Box& part, char* dst) {
    if (!covers(part, chunk)) {
      PARIO_RETURN_IF_ERROR(store.read(index.data(), dst));
    } else if (chunk.elements() < meta_.chunk_elements()) {
      std::memset(dst, 0, store.chunk_bytes());  // an edge chunk's padding
    }
    for_each_part_row(meta_, section, chunk, part, [&](size_t b, uint64_t c, size_t len) {
      std::memcpy(dst + c, in + b, len);
    });
    return Status::Ok();
  };
  std::map<int64_t, std::vector<std::vector<int64_t>>> shards;  // by_shard: each shard's chunks
  Status s = for_each_chunk(meta_, section, [&](const std::vector<int64_t>& index, const Box& chunk, const Box& part) {
    written_.push_back(group_number(meta_, index, by_shard));
    if (by_shard) {
      shards[written_.back()].push_back(index);
      return Status::Ok();
    }
    if (store.writes_in_parts()) {
      std::vector<ChunkStore::Run> runs;
      for_each_part_row(meta_, section, chunk, part, [&](size_t b, uint64_t c, size_t len) {
        ChunkStore::Run* back = runs.empty() ? nullptr : &runs.back();
        if (back && back->at + back->len == c && back->src + back->len == in + b) {
          back->len += len;  // contiguous in the buffer and the slot: one run
        } else {
          runs.push_back({c, in + b, len});
        }
      });
      return store.write_runs(index.data(), runs);
    }
    chunk_buf.resize(store.chunk_bytes());
    PARIO_RETURN_IF_ERROR(merged(index, chunk, part, chunk_buf.data()));
    return store.write(index.data(), chunk_buf.data());
  });
  // Packed shards: one at a time, rebuilt with all of its chunks merged.
  for (auto& [unit, indexes] : shards) {
    if (!s.ok()) break;
    std::vector<std::vector<char>> bytes(indexes.size(), std::vector<char>(store.chunk_bytes()));
    std::vector<ChunkStore::NewChunk> chunks;
    for (size_t k = 0; s.ok() && k < indexes.size(); ++k) {
      const Box chunk = chunk_box(meta_, indexes[k]);
      s = merged(indexes[k], chunk, chunk.intersect(section), bytes[k].data());
      chunks.push_back({indexes[k].data(), bytes[k].data()});
    }
    if (s.ok()) s = store.write_shard(chunks);
  }
  Status closed = store.close_files();
  return s.ok() ? closed : s;
}

Status DiskArray::sync(const Status& local) {
  const comm::Comm& c = group_->comm_object();
  Status s = local;
  if (s.ok() && closed_) s = Status(Code::kState, dir_ + ": the disk array is closed");
  std::vector<int64_t> mine = std::exchange(written_, {});
  // The allreduce is the barrier too: every rank's writes have returned.
  PARIO_RETURN_IF_ERROR(comm::agree(c, s));
  std::sort(mine.begin(), mine.end());
  mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
  const int n = c.size();
  if (n == 1) return Status::Ok();
  int64_t count = static_cast<int64_t>(mine.size());
  std::vector<int64_t> counts(static_cast<size_t>(n));
  PARIO_RETURN_IF_ERROR(comm::mpi_status(
      MPI_Allgather(&count, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, c.get()), "MPI_Allgather"));
  std::vector<int> sizes(static_cast<size_t>(n)), offsets(static_cast<size_t>(n));
  int64_t total = 0;
  for (int r = 0; r < n; ++r) {
    if (counts[r] > kMaxCheckedUnits) return Status::Ok();  // too many to check (the same on every rank)
    sizes[r] = static_cast<int>(counts[r]);
    offsets[r] = static_cast<int>(total);
    total += counts[r];
  }
  if (total == 0) return Status::Ok();
  std::vector<int64_t> all(static_cast<size_t>(total));
  PARIO_RETURN_IF_ERROR(comm::mpi_status(MPI_Allgatherv(mine.data(), sizes[c.rank()], MPI_INT64_T, all.data(),
                                                        sizes.data(), offsets.data(), MPI_INT64_T, c.get()),
                                         "MPI_Allgatherv"));
  // Every rank finds the same first unit two ranks wrote, so all return
  // the same status.
  std::vector<std::pair<int64_t, int>> by_unit;
  by_unit.reserve(all.size());
  for (int r = 0; r < n; ++r) {
    for (int64_t k = 0; k < counts[r]; ++k) by_unit.push_back({all[static_cast<size_t>(offsets[r] + k)], r});
  }
  std::sort(by_unit.begin(), by_unit.end());
  for (size_t k = 1; k < by_unit.size(); ++k) {
    if (by_unit[k].first != by_unit[k - 1].first) continue;
    const bool by_shard = meta_.sharded() && !meta_.fixed_slots;
    return Status(Code::kInvalidArgument,
                  dir_ + ": ranks " + std::to_string(by_unit[k - 1].second) + " and " +
                      std::to_string(by_unit[k].second) + " both wrote " +
                      unit_name(meta_, by_unit[k].first, by_shard) +
                      " since the last sync; independent writes of different ranks between syncs must touch "
                      "disjoint " + (by_shard ? "shards" : "chunks") + " (its contents may be either's)");
  }
  return Status::Ok();
}

Result<std::unique_ptr<DiskArray>> DiskArray::create_or_open(std::shared_ptr<const comm::Group> group,
                                                             const std::string& dir, ElementType type,
                                                             const std::vector<int64_t>& shape,
                                                             const std::vector<int64_t>& chunk, CreateMode mode,
                                                             const DiskArrayOptions& options) {
  const comm::Comm& c = group->comm_object();
  // Rank 0 looks at what is there, never through a symbolic link, and
  // tells the others: {what, errno}, so that all decide alike.
  enum : int64_t { kMissing, kStore, kOther, kLink, kError };
  int64_t seen[2] = {kMissing, 0};
  if (c.rank() == 0) {
    struct stat st, meta;
    if (::lstat(dir.c_str(), &st) != 0) {
      seen[0] = errno == ENOENT ? kMissing : kError, seen[1] = errno;
    } else if (S_ISLNK(st.st_mode)) {
      seen[0] = kLink;
    } else if (S_ISDIR(st.st_mode) && ::lstat((dir + "/zarr.json").c_str(), &meta) == 0 && S_ISREG(meta.st_mode)) {
      seen[0] = kStore;
    } else {
      seen[0] = kOther;
    }
  }
  PARIO_RETURN_IF_ERROR(group->broadcast(seen, sizeof seen, 0));
  if (seen[0] == kError) return errno_status(static_cast<int>(seen[1]), dir);
  // Every rank refuses an existing path alike (only a path made between
  // the look and create's mkdir is rank 0's kExists, kRemote elsewhere).
  if (mode == CreateMode::kExclusive && seen[0] != kMissing) return errno_status(EEXIST, dir);
  if (seen[0] == kLink) {
    return Status(Code::kExists, dir + ": is a symbolic link; pario neither replaces nor opens a store through one");
  }
  if (seen[0] == kOther) return Status(Code::kExists, dir + ": exists and is not a disk array (no zarr.json)");
  if (seen[0] == kMissing) return create(std::move(group), dir, type, shape, chunk, options);
  if (mode == CreateMode::kReplace) {
    std::shared_ptr<device::Storage> storage = options.storage ? options.storage : device::posix_storage();
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<DiskArray> a,
                           create(std::move(group), dir, type, shape, chunk, options, true));
    storage->forget(dir);  // the old store's files in RAM go too
    return a;
  }
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<DiskArray> a, open(std::move(group), dir, true, options));
  if (a->meta_.type != type || a->meta_.shape != shape) {
    return Status(Code::kExists, dir + ": exists with shape " + dims_text(a->meta_.shape) + " of " +
                                     element_name(a->meta_.type) + ", not " + dims_text(shape) + " of " +
                                     element_name(type));
  }
  return a;
}

}  // namespace pario::diskarray
