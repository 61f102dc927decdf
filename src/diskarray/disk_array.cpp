#include "diskarray/disk_array.h"

#include <fcntl.h>  // AT_FDCWD
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>  // renameat2, RENAME_EXCHANGE (glibc 2.28)

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "base/buffer_pool.h"
#include "base/checked.h"
#include "base/stats.h"
#include "base/status_of.h"
#include "base/thread_pool.h"
#include "comm/comm.h"
#include "diskarray/chunk_store.h"
#include "diskarray/transfer_plan.h"

namespace pario::diskarray {
namespace {

constexpr int64_t kTargetChunkBytes = int64_t{1} << 20;

// Element strides of a dense C-order buffer with the given extents.
Strides dense_strides(int nd, const int64_t* extent) {
  Strides s{};
  int64_t step = 1;
  for (int d = nd - 1; d >= 0; --d) {
    s[d] = step;
    step *= extent[d];
  }
  return s;
}

// The ld (leading dimensions after the first) of a C-order buffer with
// these element strides.
std::vector<int64_t> ld_of(int nd, const Strides& stride) {
  std::vector<int64_t> ld;
  for (int d = 1; d < nd; ++d) ld.push_back(stride[d - 1] / stride[d]);
  return ld;
}

template <typename T>
void copy_run(char* dst, int64_t dst_step, const char* src, int64_t src_step, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(dst + i * dst_step, src + i * src_step, sizeof(T));
  }
}

// dst[i] = src[i] for every index i of box (relative to box.start), each
// side with its own element strides: permuted strides make this a
// transpose.
void copy_strided(const Box& box, char* dst, const Strides& dst_stride, const char* src,
                  const Strides& src_stride, size_t esize) {
  const int nd = box.ndim;
  const int64_t e = static_cast<int64_t>(esize);
  const int64_t dst_step = dst_stride[nd - 1] * e;
  const int64_t src_step = src_stride[nd - 1] * e;
  for_each_row(box, [&](const Shape& row, int64_t n) {
    int64_t d_off = 0, s_off = 0;
    for (int d = 0; d < nd - 1; ++d) {
      d_off += (row[d] - box.start[d]) * dst_stride[d];
      s_off += (row[d] - box.start[d]) * src_stride[d];
    }
    char* to = dst + d_off * e;
    const char* from = src + s_off * e;
    if (dst_step == e && src_step == dst_step) {
      std::memcpy(to, from, static_cast<size_t>(n) * esize);
    } else if (esize == 8) {
      copy_run<uint64_t>(to, dst_step, from, src_step, n);
    } else if (esize == 4) {
      copy_run<uint32_t>(to, dst_step, from, src_step, n);
    } else {
      for (int64_t i = 0; i < n; ++i) std::memcpy(to + i * dst_step, from + i * src_step, esize);
    }
  });
}

// Whether the kernel can copy a chunk read straight into `scatter` (the
// chunk's bytes in file order; a null base is a run read into the discard
// buffer) at full speed: no memory piece lies 1-63 bytes past its bytes'
// offset in the file, modulo 4096 (a chunk starts at a multiple of its
// size in pario's stores). The copy out of the page cache (`rep movsb`)
// slows down at such short distances between source and destination: on
// the AMD EPYC of issue 30, 1 MiB preads of a warm file ran at 2413-2953
// MB/s at distance 0, 420-571 at 8, 1169-1706 at 16 and 24, and 2151-3382
// from 32 on, 264 and 4088 included (load 17). A 1-rank nonaligned
// disk-array read (the section shifted by one column) puts every row at 8,
// and ran at 0.73x raw pread. Such chunks go through the chunk buffer: the
// kernel fills it at distance 0, and memcpy into the array aligns its own
// stores. At 4 ranks the patches lie 264 bytes into their pages (where
// Open MPI's shared window puts them), so the distances are 264 and 256,
// and reads stay in place: through the buffer, 8192^2 aligned reads at 4
// ranks ran at 710-759 MB/s there against 2467-2594 in place (2 runs
// each, load 17).
bool copies_fast(const std::vector<iovec>& scatter) {
  uint64_t at = 0;
  for (const iovec& v : scatter) {
    const uint64_t distance = (reinterpret_cast<uintptr_t>(v.iov_base) - at) % 4096;
    if (v.iov_base && distance > 0 && distance < 64) return false;
    at += v.iov_len;
  }
  return true;
}

// Shards of about `bytes`, grown from the innermost dimension out so a
// shard holds whole rows of chunks; empty (no sharding) when a shard
// would hold one chunk.
std::vector<int64_t> shard_shape(const ZarrMeta& m, uint64_t bytes) {
  const size_t nd = m.shape.size();
  std::vector<int64_t> shard = m.chunks;
  uint64_t size = static_cast<uint64_t>(m.chunk_elements()) * m.element_bytes();
  bool grown = false;
  for (size_t d = nd; d-- > 0;) {
    const int64_t chunks_along = ceil_div(m.shape[d], m.chunks[d]);
    const int64_t k = std::max<int64_t>(1, std::min<int64_t>(chunks_along, static_cast<int64_t>(bytes / size)));
    shard[d] *= k;
    size *= static_cast<uint64_t>(k);
    grown |= k > 1;
    if (k < chunks_along) break;
  }
  return grown ? shard : std::vector<int64_t>{};
}

}  // namespace

// A chunk this rank moves.
struct Transfer::Job {
  std::vector<int64_t> index;  // in the chunk grid
  Box chunk;  // the chunk's elements inside the array
  Box part;   // the part of the disk section in it
  int64_t at = 0;    // element offset of the part in the chunk buffer
  bool whole = false;
  bool in_parts = false;  // a partial chunk written straight to its bytes (ChunkStore::writes_in_parts)
  // In place: each byte of the chunk file, in order, in the owners' memory
  // (the part) or in `discard`, as long as the longest run outside the part
  // (zeros: a write's padding).
  std::vector<iovec> scatter;
  std::vector<char> discard;
  BufferPool::Buffer buf;     // the chunk, in C order
  BufferPool::Buffer staged;  // writes of a partial chunk: the part, dense
  size_t bytes = 0;          // of buf and staged, counted in bytes_held_
  bool done = false;         // the I/O thread has finished it
  Status status;
};

Transfer::~Transfer() { drain(); }

void Transfer::drain() {
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [&] { return running_ == 0; });
}

bool Transfer::test() {
  std::lock_guard<std::mutex> lock(mu_);
  return running_ == 0;
}

bool Transfer::overlaps(const Transfer& other) const {
  if (grid_.empty() || other.grid_.empty()) return false;
  // Where writes rewrite whole shards, a shard in common is a conflict.
  const bool by_shard = store_->rewrites_shards();
  for (int d = 0; d < grid_.ndim; ++d) {
    const int64_t per = by_shard ? meta_.shard[d] / meta_.chunks[d] : 1;
    const int64_t first = grid_.start[d] / per, last = (grid_.start[d] + grid_.count[d] - 1) / per;
    const int64_t other_first = other.grid_.start[d] / per;
    const int64_t other_last = (other.grid_.start[d] + other.grid_.count[d] - 1) / per;
    if (last < other_first || other_last < first) return false;
  }
  return true;
}

Box Transfer::mem_box(const Box& part) const {
  Box m;
  m.ndim = part.ndim;
  for (int d = 0; d < part.ndim; ++d) {
    const int k = perm_[d];
    m.start[k] = mem_section_.start[k] + (part.start[d] - disk_.start[d]);
    m.count[k] = part.count[d];
  }
  return m;
}

// Permuted axes: the memory section a part maps to, through a dense copy
// (its strides, and the same strides taken in disk order).
struct Transfer::Staging {
  Box mem;
  std::vector<char> dense;
  Strides mem_stride{}, in_disk_order{};
};

Transfer::Staging Transfer::staging(const Box& part) const {
  Staging s;
  s.mem = mem_box(part);
  s.dense.resize(static_cast<size_t>(s.mem.elements()) * meta_.element_bytes());
  s.mem_stride = dense_strides(part.ndim, s.mem.count.data());
  for (int d = 0; d < part.ndim; ++d) s.in_disk_order[d] = s.mem_stride[perm_[d]];
  return s;
}

Status Transfer::copy_out(const Box& part, char* dst, const Strides& dst_stride) {
  if (identity_) return mem_->get(mem_box(part), dst, ld_of(part.ndim, dst_stride));
  Staging s = staging(part);
  PARIO_RETURN_IF_ERROR(mem_->get(s.mem, s.dense.data(), ld_of(part.ndim, s.mem_stride)));
  copy_strided(part, dst, dst_stride, s.dense.data(), s.in_disk_order, meta_.element_bytes());
  return Status::Ok();
}

Status Transfer::copy_in(const Box& part, const char* src, const Strides& src_stride) {
  if (identity_) return mem_->put(mem_box(part), src, ld_of(part.ndim, src_stride));
  Staging s = staging(part);
  copy_strided(part, s.dense.data(), s.in_disk_order, src, src_stride, meta_.element_bytes());
  return mem_->put(s.mem, s.dense.data(), ld_of(part.ndim, s.mem_stride));
}

std::unique_ptr<Transfer::Job> Transfer::make_job(const PlannedChunk& planned) const {
  auto job = std::make_unique<Job>();
  job->index = planned.index;
  job->chunk = planned.chunk;
  job->part = planned.part;
  job->whole = true;
  for (int d = 0; d < disk_.ndim; ++d) {
    job->whole &= job->part.count[d] == job->chunk.count[d];
    job->at = job->at * meta_.chunks[d] + (job->part.start[d] - job->chunk.start[d]);
  }
  return job;
}

std::vector<PlannedChunk> Transfer::plan() const {
  const Holdings holdings = [this](const Box& part, const std::function<void(int, int64_t)>& add) {
    mem_->for_each_owner(mem_box(part), [&](int rank, const Box& piece) { add(rank, piece.elements()); });
  };
  return plan_transfer(meta_, disk_, write_, store_->rewrites_shards(), group_->size(), holdings);
}

void Transfer::start_jobs(const std::vector<PlannedChunk>& plan, bool blocking) {
  const bool by_shard = write_ && store_->rewrites_shards();
  std::vector<std::unique_ptr<Job>> shard;  // by_shard: a shard's, queued together
  Status s;
  for (size_t i = 0; i < plan.size() && s.ok(); ++i) {
    if (plan[i].mover != group_->rank()) continue;
    std::unique_ptr<Job> job = make_job(plan[i]);
    if (!by_shard) {
      s = queue_chunk(std::move(job), blocking);
      continue;
    }
    shard.push_back(std::move(job));
    if (i + 1 < plan.size() && plan[i + 1].group == plan[i].group) continue;  // not the shard's last chunk
    s = queue_shard(std::move(shard));
    shard.clear();
  }
  if (!s.ok()) start_status_ = s;  // reported by wait, on every rank
  submit_queued();
}

Status Transfer::queue_chunk(std::unique_ptr<Job> job, bool blocking) {
  // In place: reads always; writes when the caller waits at once (iwrite
  // lets the array change on return), of whole chunks or, where the store
  // writes chunks in parts, of the part's bytes alone.
  job->in_parts = write_ && !job->whole && store_->writes_in_parts();
  const bool in_place = (!write_ || (blocking && (job->whole || job->in_parts))) && plan_in_place(job.get());
  if (!in_place) {  // through a chunk buffer (or, in parts, just the staged part)
    job->bytes = buffer_bytes(*job);
    make_room(job->bytes);
    Status s = fill_buffers(job.get());
    if (!s.ok()) {
      std::lock_guard<std::mutex> lock(mu_);
      bytes_held_ -= job->bytes;
      return s;
    }
  }
  Job* raw = job.get();
  jobs_.push_back(std::move(job));
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++running_;
  }
  queue([this, raw] { run(raw); });
  return Status::Ok();
}

Status Transfer::queue_shard(std::vector<std::unique_ptr<Job>> shard) {
  // Through chunk buffers, room made for the whole shard at once.
  size_t bytes = 0;
  for (auto& j : shard) bytes += j->bytes = buffer_bytes(*j);
  make_room(bytes);
  Status s;
  for (auto& j : shard) {
    if (s.ok()) s = fill_buffers(j.get());
  }
  if (!s.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    bytes_held_ -= bytes;
    return s;
  }
  std::vector<Job*> raw;
  for (auto& j : shard) raw.push_back(j.get()), jobs_.push_back(std::move(j));
  {
    std::lock_guard<std::mutex> lock(mu_);
    running_ += static_cast<int>(raw.size());
  }
  queue([this, raw] { run_shard(raw); });
  return Status::Ok();
}

size_t Transfer::buffer_bytes(const Job& job) const {
  const size_t esize = meta_.element_bytes();
  size_t n = job.in_parts ? 0 : static_cast<size_t>(meta_.chunk_elements()) * esize;
  if (write_ && !job.whole) n += static_cast<size_t>(job.part.elements()) * esize;
  return n;
}

Status Transfer::fill_buffers(Job* job) {
  const int nd = job->part.ndim;
  const size_t esize = meta_.element_bytes();
  if (!job->in_parts) job->buf = buffers_->take(static_cast<size_t>(meta_.chunk_elements()) * esize);
  if (!write_) return Status::Ok();
  if (job->whole) {
    if (job->chunk.elements() < meta_.chunk_elements()) std::memset(job->buf.data(), 0, job->buf.size());  // the padding
    return copy_out(job->part, job->buf.data() + job->at * esize, dense_strides(nd, meta_.chunks.data()));
  }
  job->staged = buffers_->take(static_cast<size_t>(job->part.elements()) * esize);
  return copy_out(job->part, job->staged.data(), dense_strides(nd, job->part.count.data()));
}

// The chunk read straight into its scatter list; a chunk never written
// puts zeros in the memory part.
Status Transfer::read_chunk_in_place(const Job& job) {
  bool missing = false;
  PARIO_RETURN_IF_ERROR(store_->readv(job.index.data(), job.scatter.data(), static_cast<int>(job.scatter.size()),
                                      &missing));
  if (!missing) return Status::Ok();
  for (const iovec& v : job.scatter) {
    if (v.iov_base != job.discard.data()) std::memset(v.iov_base, 0, v.iov_len);
  }
  return Status::Ok();
}

bool Transfer::plan_in_place(Job* job) {
  if (!identity_ || meta_.zstd) return false;  // compressed chunks go through a buffer
  std::vector<array::MemoryArray::LocalPiece> pieces;
  if (!mem_->local_pieces(mem_box(job->part), &pieces)) return false;
  const int nd = job->chunk.ndim, last = nd - 1;
  const int64_t esize = static_cast<int64_t>(meta_.element_bytes());
  const int64_t row = meta_.chunks[last];  // elements per row of the file
  std::vector<iovec>& v = job->scatter;
  // File bytes outside the part go to `discard`, sized to the longest such
  // run and made once the plan is known (null until then): a row-sized
  // buffer zeroed for every chunk cost each 2-rank aligned read of 512 MB
  // about 3200 page faults per rank, and reads ran at 0.8x raw pread.
  size_t discard_bytes = 0;
  bool back_discarded = false;
  auto add = [&](char* p, int64_t n, bool discarded) {
    if (n == 0) return;
    const size_t len = static_cast<size_t>(n * esize);
    if (discarded) discard_bytes = std::max(discard_bytes, len);
    if (!v.empty() && !discarded && !back_discarded &&
        static_cast<char*>(v.back().iov_base) + v.back().iov_len == p) {
      v.back().iov_len += len;  // contiguous in memory too: one buffer
    } else {
      v.push_back({p, len});
    }
    back_discarded = discarded;
  };
  // The file, row by row, in the chunk's padded shape.
  Box padded = job->chunk;
  for (int d = 0; d < nd; ++d) padded.count[d] = meta_.chunks[d];
  bool covered = true;
  for_each_row(padded, [&](const Shape& g, int64_t) {
    bool inside = true;
    std::array<int64_t, kMaxDims> m{};  // the row's memory index
    for (int d = 0; d < last; ++d) {
      inside &= g[d] >= job->part.start[d] && g[d] < job->part.start[d] + job->part.count[d];
      m[d] = mem_section_.start[d] + (g[d] - disk_.start[d]);
    }
    if (!inside) {
      add(nullptr, row, true);
    } else {
      const int64_t before = job->part.start[last] - job->chunk.start[last], n = job->part.count[last];
      add(nullptr, before, true);
      const int64_t first = mem_section_.start[last] + (job->part.start[last] - disk_.start[last]);
      for (int64_t col = first; col < first + n;) {
        const array::MemoryArray::LocalPiece* p = nullptr;
        for (const auto& q : pieces) {
          bool holds = col >= q.piece.start[last] && col < q.piece.start[last] + q.piece.count[last];
          for (int d = 0; holds && d < last; ++d) {
            holds = m[d] >= q.piece.start[d] && m[d] < q.piece.start[d] + q.piece.count[d];
          }
          if (holds) p = &q;
        }
        if (!p) {  // not covered: let get/put handle it
          covered = false;
          break;
        }
        int64_t offset = 0;
        for (int d = 0; d < last; ++d) offset = offset * p->patch.count[d] + (m[d] - p->patch.start[d]);
        offset = offset * p->patch.count[last] + (col - p->patch.start[last]);
        const int64_t take = std::min(p->piece.start[last] + p->piece.count[last], first + n) - col;
        add(p->base + offset * esize, take, false);
        col += take;
      }
      add(nullptr, row - before - n, true);
    }
    return covered;
  });
  // Many tiny pieces cost more in the kernel than one copy here.
  if (!covered || static_cast<int64_t>(v.size()) * 512 > meta_.chunk_elements() * esize ||
      (!write_ && !copies_fast(v))) {
    std::vector<iovec>().swap(job->scatter);
    return false;
  }
  job->discard.assign(discard_bytes, 0);  // zeros: a write's padding
  for (iovec& piece : v) {
    if (!piece.iov_base) piece.iov_base = job->discard.data();
  }
  job->bytes = job->discard.size();
  make_room(job->bytes);
  return true;
}

Status Transfer::write_part(const Job& job) {
  std::vector<ChunkStore::Run> runs;
  if (!job.scatter.empty()) {  // in place: the chunk's bytes but the ones outside the part
    uint64_t at = 0;
    for (const iovec& v : job.scatter) {
      if (v.iov_base != job.discard.data()) runs.push_back({at, static_cast<const char*>(v.iov_base), v.iov_len});
      at += v.iov_len;
    }
    return store_->write_runs(job.index.data(), runs);
  }
  const int nd = job.part.ndim, last = nd - 1;
  const size_t esize = meta_.element_bytes();
  const size_t row = static_cast<size_t>(job.part.count[last]) * esize;
  const Strides chunk_stride = dense_strides(nd, meta_.chunks.data());
  const char* src = job.staged.data();
  for_each_row(job.part, [&](const Shape& first, int64_t) {
    int64_t at = 0;
    for (int d = 0; d < nd; ++d) at += (first[d] - job.chunk.start[d]) * chunk_stride[d];
    const uint64_t offset = static_cast<uint64_t>(at) * esize;
    ChunkStore::Run* back = runs.empty() ? nullptr : &runs.back();
    if (back && back->at + back->len == offset && back->src + back->len == src) {
      back->len += row;  // whole rows of the chunk: one run
    } else {
      runs.push_back({offset, src, row});
    }
    src += row;
  });
  return store_->write_runs(job.index.data(), runs);
}

void Transfer::merge_staged(Job* job) {
  const int nd = job->part.ndim;
  copy_strided(job->part, job->buf.data() + job->at * meta_.element_bytes(),
               dense_strides(nd, meta_.chunks.data()), job->staged.data(), dense_strides(nd, job->part.count.data()),
               meta_.element_bytes());
  job->staged.reset();
}

// On an I/O thread (or the caller's, under PARIO_IO_ENGINE=sync): an
// exception (a buffer sized by a damaged file) becomes the job's status,
// so that the caller is woken and every rank learns of it at wait.
void Transfer::run_shard(const std::vector<Job*>& group) {
  const Status s = status_of("a disk array's shard write", [&] {
    Status moved;
    std::vector<ChunkStore::NewChunk> chunks;
    for (Job* job : group) {
      if (moved.ok() && !job->whole) {  // merge the new part into the chunk's old bytes
        moved = store_->read(job->index.data(), job->buf.data());
        if (moved.ok()) merge_staged(job);
      }
      chunks.push_back({job->index.data(), job->buf.data()});
    }
    return moved.ok() ? store_->write_shard(chunks) : moved;
  });
  size_t bytes = 0;
  for (Job* job : group) {
    job->buf.reset();
    job->staged.reset();
    job->status = s;
    bytes += job->bytes;
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (Job* job : group) job->done = true;
  bytes_held_ -= bytes;
  running_ -= static_cast<int>(group.size());
  wake_caller();
}

void Transfer::run(Job* job) {
  job->status = status_of("a disk array's chunk transfer", [&] { return move_chunk(job); });
  if (write_) {  // written: the buffers can go (a read's chunk buffer is copied out by wait)
    job->buf.reset();
    job->staged.reset();
    std::vector<char>().swap(job->discard);
  }
  std::lock_guard<std::mutex> lock(mu_);
  job->done = true;
  if (write_) bytes_held_ -= job->bytes;
  --running_;
  wake_caller();
}

Status Transfer::move_chunk(Job* job) {
  Status s;
  if (!write_ && !job->scatter.empty()) {
    s = read_chunk_in_place(*job);
  } else if ((!write_ || !job->whole) && !job->in_parts) {
    s = store_->read(job->index.data(), job->buf.data());
  }
  if (s.ok() && job->in_parts) {
    s = write_part(*job);
  } else if (s.ok() && write_) {
    if (!job->whole) merge_staged(job);  // the new part into the chunk's old bytes
    s = job->scatter.empty()
            ? store_->write(job->index.data(), job->buf.data())
            : store_->writev(job->index.data(), job->scatter.data(), static_cast<int>(job->scatter.size()));
  }
  return s;
}

// Under mu_. Only when what the caller waits for may have come, not at
// every chunk: a caller woken for nothing only takes a core from the I/O
// threads.
void Transfer::wake_caller() {
  if (running_ == 0 || room_wanted_) done_.notify_all();
}

// Jobs are submitted this many at a time: one by one, each woken I/O
// thread took the core of the caller, which planned the next job, and the
// threads slept in between (2-rank reads of 512 MB: 65-262 voluntary
// context switches per rank, 9-14 in batches).
constexpr size_t kSubmitBatch = 16;

void Transfer::queue(std::function<void()> task) {
  queued_.push_back(std::move(task));
  if (queued_.size() >= kSubmitBatch) submit_queued();
}

void Transfer::submit_queued() {
  if (queued_.empty()) return;
  if (io_threads_) {
    io_threads_->submit_all(std::exchange(queued_, {}));
  } else {
    for (auto& task : std::exchange(queued_, {})) task();  // PARIO_IO_ENGINE=sync
  }
}

void Transfer::make_room(size_t bytes) {
  std::unique_lock<std::mutex> lock(mu_);
  auto room = [&] { return bytes_held_ == 0 || bytes_held_ + bytes <= budget_; };
  if (!room()) {  // what frees it must be running
    lock.unlock();
    submit_queued();
    lock.lock();
  }
  room_wanted_ = true;
  if (write_) {
    done_.wait(lock, room);
  } else {
    while (!room() && put_next_ < jobs_.size()) {
      Job* job = jobs_[put_next_++].get();
      done_.wait(lock, [&] { return job->done; });
      lock.unlock();
      put_chunk(job);
      lock.lock();
    }
  }
  room_wanted_ = false;
  bytes_held_ += bytes;
}

void Transfer::put_chunk(Job* job) {
  if (job->status.ok() && job->scatter.empty()) {
    const Strides chunk_stride = dense_strides(static_cast<int>(meta_.chunks.size()), meta_.chunks.data());
    job->status = copy_in(job->part, job->buf.data() + job->at * meta_.element_bytes(), chunk_stride);
  }
  job->buf.reset();
  std::vector<char>().swap(job->discard);
  std::lock_guard<std::mutex> lock(mu_);
  bytes_held_ -= job->bytes;
}

Status Transfer::wait(const Status& refusal) {
  if (waited_) return Status(Code::kState, dir_ + ": transfer already waited");
  drain();
  waited_ = true;
  Status closed = store_->close_files();
  if (!write_) {
    for (; put_next_ < jobs_.size(); ++put_next_) put_chunk(jobs_[put_next_].get());
  }
  Status s = refusal.ok() ? start_status_ : refusal;
  for (const auto& job : jobs_) {
    if (s.ok()) s = job->status;
  }
  if (s.ok()) s = closed;
  jobs_.clear();
  if (!write_) {
    // Every rank's puts visible everywhere, then one status for all. A
    // global array's sync is split around the agreement (its barrier);
    // another library's is collective itself, so it needs no agreement
    // before it.
    if (mem_->splits_sync()) {
      Status arrived = mem_->sync_arrive();
      if (s.ok()) s = arrived;
      PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), s));
      return mem_->sync_leave();  // a local Win_sync, as pario_array_sync's
    }
    Status synced = mem_->sync();
    if (s.ok()) s = synced;
  }
  return comm::agree(group_->comm_object(), s);
}

DiskArray::~DiskArray() { (void)close(); }

void DiskArray::use(const DiskArrayOptions& options) {
  options_ = options;
  if (!options_.storage) options_.storage = device::posix_storage();
  if (!options_.buffers) {
    options_.buffers = std::make_shared<BufferPool>(static_cast<size_t>(std::min<uint64_t>(options_.buffer_bytes, SIZE_MAX)));
  }
}

namespace {

// A store's directory and zarr.json at dir, which must not exist; never
// half made (remove refuses a directory without zarr.json).
Status make_store(const std::string& dir, const ZarrMeta& m) {
  if (::mkdir(dir.c_str(), 0700) != 0) return errno_status(errno, dir);
  Status s = write_meta(dir, m);
  if (!s.ok()) ::rmdir(dir.c_str());
  return s;
}

// The store at dir replaced so that the name always holds one store whole,
// the old or the new: the new one is made beside it under a fresh name,
// the two names are swapped with renameat2(RENAME_EXCHANGE) (rename(2)
// cannot put a directory over a non-empty one), and the old store, now
// under the fresh name, is removed. A failure before the swap leaves the
// old store as it was. Where the file system cannot exchange names
// (EINVAL, ENOSYS: some network file systems) the old store is renamed
// aside and put back if the new one cannot take its name: the name is
// missing for that moment, the old store is never lost. renameat2 never
// follows a symbolic link at either name.
Status replace_store(const std::string& dir, const ZarrMeta& m) {
  // The fresh name: the pid alone collided with a leftover of an earlier
  // process of the same pid (an MPICH CI run, pids wrapping at 32768), so
  // a per-process count and the clock too, and another try if it exists.
  static std::atomic<uint64_t> made{0};
  std::string fresh;
  Status s;
  for (int attempt = 0; attempt < 8; ++attempt) {
    fresh = dir + ".pario-new-" + std::to_string(::getpid()) + "-" + std::to_string(made++) + "-" +
            std::to_string(now_nanos() % 1000000007);
    s = make_store(fresh, m);
    if (s.code() != Code::kExists) break;
  }
  PARIO_RETURN_IF_ERROR(s);
  std::string old = fresh;  // where the old store is once the new one has its name
  int err = ::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) == 0 ? 0 : errno;
  if (err == EINVAL || err == ENOSYS) {
    old = fresh + ".old";
    err = ::rename(dir.c_str(), old.c_str()) == 0 ? 0 : errno;
    if (!err && ::rename(fresh.c_str(), dir.c_str()) != 0) {
      err = errno;
      ::rename(old.c_str(), dir.c_str());
    }
  }
  std::error_code ec;
  if (err) {
    std::filesystem::remove_all(fresh, ec);
    return errno_status(err, dir + ": putting the new store in the old one's place");
  }
  std::filesystem::remove_all(old, ec);  // never follows the links inside
  if (ec) return errno_status(ec.value(), old + ": removing the store replaced (the new one is in place)");
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<DiskArray>> DiskArray::create(std::shared_ptr<const comm::Group> group,
                                                     const std::string& dir, ElementType type,
                                                     const std::vector<int64_t>& shape,
                                                     const std::vector<int64_t>& chunk,
                                                     const DiskArrayOptions& options, bool replace) {
  const comm::Comm& c = group->comm_object();
  Status s;
  if (dir.empty()) s = Status(Code::kInvalidArgument, "path is empty");
  else if (Status shaped = check_shape(shape.data(), shape.size(), type); !shaped.ok()) {
    s = std::move(shaped).with_context(dir);
  } else if (!chunk.empty() && chunk.size() != shape.size()) {
    s = Status(Code::kInvalidArgument, dir + ": the chunk hint has " + std::to_string(chunk.size()) +
                                           " dimensions, the array " + std::to_string(shape.size()));
  }
  for (size_t d = 0; s.ok() && d < chunk.size(); ++d) {
    if (chunk[d] < 0) {
      s = Status(Code::kInvalidArgument, dir + ": negative chunk hint in dimension " + std::to_string(d));
    }
  }
  PARIO_RETURN_IF_ERROR(comm::agree(c, s));
  std::unique_ptr<DiskArray> a(new DiskArray());
  a->group_ = group;
  a->dir_ = dir;
  a->writable_ = true;
  a->use(options);
  ZarrMeta& m = a->meta_;
  m.type = type;
  m.shape = shape;
  m.chunks.resize(shape.size());
  const bool hinted = !chunk.empty() && std::all_of(chunk.begin(), chunk.end(), [](int64_t x) { return x > 0; });
  for (size_t d = 0; d < shape.size(); ++d) {
    m.chunks[d] = std::max<int64_t>(1, std::min(shape[d], hinted ? chunk[d] : shape[d]));
  }
  // At most about 1 MiB per chunk. No hint: halve the outermost dimensions
  // first, so that chunks keep whole rows. A larger hinted request shape is
  // cut into near-square tiles of it, halving its longest dimension: GA
  // programs pass the whole array as the typical request (one 512 MB chunk
  // had one rank move it all), and a tile falls inside one patch of GA's
  // block distributions where whole rows span the ranks of a grid row
  // (pario's DRA on GA handles, 4096 x 4096 doubles at 2 ranks: reads
  // 2273-2848 MB/s with whole rows, 4894-7711 with 256 x 512 tiles).
  while (m.chunk_elements() > kTargetChunkBytes / static_cast<int64_t>(m.element_bytes())) {
    size_t d = 0;
    if (hinted) {
      d = static_cast<size_t>(std::max_element(m.chunks.begin(), m.chunks.end()) - m.chunks.begin());
    } else {
      while (m.chunks[d] == 1) ++d;  // the outermost that can still be halved
    }
    m.chunks[d] = m.chunks[d] / 2 + m.chunks[d] % 2;  // (c + 1) / 2 would wrap at INT64_MAX
  }
  m.zstd = options.zstd_level >= 0;
  if (m.zstd) m.zstd_level = options.zstd_level;
  if (!m.zstd) m.shard = shard_shape(m, options.shard_bytes);
  m.fixed_slots = m.sharded();
  m.attributes_json = std::string(R"({"pario": {"writer": "pario", "layout": ")") +
                      (m.sharded() ? "shards of fixed-offset chunks, " : "chunk files, ") + "C order, " +
                      (m.zstd ? "zstd" : "uncompressed") + "\"}}";
  // Rank 0 makes the directory (new, or replacing a store) and the metadata.
  if (c.rank() == 0) s = replace ? replace_store(dir, m) : make_store(dir, m);
  PARIO_RETURN_IF_ERROR(comm::agree(c, s));
  if (replace) {
    // The old store's files in RAM (Files in Memory) are not under the
    // name on disk: each rank drops those it published, and no rank looks
    // for a file until all have, or it would find an old one.
    a->options_.storage->forget(dir);
    PARIO_RETURN_IF_ERROR(c.barrier());
  }
  return a;
}

Result<std::unique_ptr<DiskArray>> DiskArray::open(std::shared_ptr<const comm::Group> group,
                                                   const std::string& dir, bool writable,
                                                   const DiskArrayOptions& options) {
  // Rank 0 reads zarr.json and every rank parses that one text: all plan
  // with the same shape and chunks even if the store is replaced while
  // they open it (read on each rank, they could differ), and one rank
  // reads the file, not all.
  const comm::Comm& c = group->comm_object();
  std::string text;
  Status read;
  if (c.rank() == 0) {
    Result<std::string> t = read_meta_text(dir);
    read = t.status();
    if (t.ok()) text = std::move(t).value();
  }
  PARIO_RETURN_IF_ERROR(comm::agree(c, read));
  PARIO_RETURN_IF_ERROR(comm::broadcast_string(c, &text, 0));
  Result<ZarrMeta> m = Status(Code::kInternal, dir + "/zarr.json: not parsed");
  const Status parsed = status_of("parsing zarr.json", [&] {
    m = parse_meta(text, dir);
    return m.status();
  });
  PARIO_RETURN_IF_ERROR(comm::agree(c, parsed));
  std::unique_ptr<DiskArray> a(new DiskArray());
  a->group_ = group;
  a->dir_ = dir;
  a->meta_ = std::move(m).value();
  a->writable_ = writable;
  a->use(options);
  return a;
}

Status DiskArray::set_attribute(const std::string& name, const std::string& value) {
  const comm::Comm& c = group_->comm_object();
  Status s;
  if (closed_) s = Status(Code::kState, dir_ + ": closed");
  else if (!writable_) s = Status(Code::kState, dir_ + ": opened read-only");
  ZarrMeta updated = meta_;
  if (s.ok()) s = diskarray::set_attribute(&updated, name, value);
  PARIO_RETURN_IF_ERROR(comm::agree(c, s));
  if (c.rank() == 0) s = write_meta(dir_, updated);
  PARIO_RETURN_IF_ERROR(comm::agree(c, s));
  meta_ = std::move(updated);
  return Status::Ok();
}

Status DiskArray::remove(const comm::Group& group, const std::string& dir, device::Storage& storage) {
  Status s;
  if (group.rank() == 0) {
    // Only a store: a directory with a zarr.json.
    struct stat st;
    if (::stat((dir + "/zarr.json").c_str(), &st) != 0) {
      s = Status(Code::kNotFound, dir + ": not a disk array (no zarr.json)");
    } else {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
      if (ec) s = errno_status(ec.value(), dir);
    }
  }
  s = comm::agree(group.comm_object(), s);
  if (s.ok()) storage.forget(dir);  // its files in RAM go too
  return s;
}

Status DiskArray::check_transfer(bool write, const array::MemoryArray& mem, const Box& mem_section,
                                 const std::vector<int64_t>& disk_start, const std::vector<int>& perm,
                                 Box* disk) const {
  if (closed_) return Status(Code::kState, dir_ + ": the disk array is closed");
  if (write && !writable_) return Status(Code::kState, dir_ + ": opened read-only");
  const int nd = static_cast<int>(meta_.shape.size());
  if (mem.type() != meta_.type) {
    return Status(Code::kInvalidArgument, dir_ + ": array " + mem.name() + " holds " +
                                              element_name(mem.type()) + ", the disk array " +
                                              element_name(meta_.type));
  }
  Status s = mem.check_group(*group_);
  if (!s.ok()) return s.with_context(dir_);
  if (static_cast<int>(mem.dims().size()) != nd || mem_section.ndim != nd ||
      static_cast<int>(disk_start.size()) != nd) {
    return Status(Code::kInvalidArgument, dir_ + ": the arrays and sections need " + std::to_string(nd) +
                                              " dimensions");
  }
  if (!perm.empty()) {
    std::vector<int> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (int d = 0; d < nd; ++d) {
      if (static_cast<int>(perm.size()) != nd || sorted[d] != d) {
        return Status(Code::kInvalidArgument, dir_ + ": the axis permutation is not one of 0.." +
                                                  std::to_string(nd - 1));
      }
    }
  }
  disk->ndim = nd;
  for (int d = 0; d < nd; ++d) {
    const int64_t lo = mem_section.start[d], n = mem_section.count[d];
    if (!inside(lo, n, mem.dims()[d])) {
      return Status(Code::kOutOfRange, dir_ + ": section of start " + std::to_string(lo) + " and count " +
                                           std::to_string(n) + " in dimension " + std::to_string(d) + " of " +
                                           mem.name() + " is outside [0, " + std::to_string(mem.dims()[d]) + ")");
    }
  }
  for (int d = 0; d < nd; ++d) {
    disk->start[d] = disk_start[d];
    disk->count[d] = mem_section.count[perm.empty() ? d : perm[d]];
    if (!inside(disk->start[d], disk->count[d], meta_.shape[d])) {
      return Status(Code::kOutOfRange, dir_ + ": disk section of start " + std::to_string(disk->start[d]) +
                                           " and count " + std::to_string(disk->count[d]) + " in dimension " +
                                           std::to_string(d) + " is outside [0, " +
                                           std::to_string(meta_.shape[d]) + ")");
    }
  }
  return Status::Ok();
}

void DiskArray::drain_conflicts(const Transfer& t) {
  std::vector<std::weak_ptr<Transfer>> live;
  for (const auto& w : in_flight_) {
    std::shared_ptr<Transfer> u = w.lock();
    if (!u || u->waited()) continue;
    live.push_back(u);
    if ((u->write_ || t.write_) && u->overlaps(t)) u->drain();
  }
  in_flight_ = std::move(live);
}

std::shared_ptr<Transfer> DiskArray::new_transfer(bool write, std::shared_ptr<array::MemoryArray> mem,
                                                  const Box& mem_section, const Box& disk,
                                                  const std::vector<int>& perm) const {
  std::shared_ptr<Transfer> t(new Transfer());
  t->write_ = write;
  t->dir_ = dir_;
  t->meta_ = meta_;
  t->store_ = std::make_unique<ChunkStore>(dir_, meta_, options_.storage);
  t->io_threads_ = options_.io_threads;
  t->buffers_ = options_.buffers;
  t->group_ = group_;
  t->mem_ = std::move(mem);
  t->mem_section_ = mem_section;
  t->disk_ = disk;
  t->identity_ = true;
  t->budget_ = static_cast<size_t>(std::min<uint64_t>(options_.buffer_bytes, SIZE_MAX));
  for (int d = 0; d < disk.ndim; ++d) {
    t->perm_.push_back(perm.empty() ? d : perm[d]);
    t->identity_ &= t->perm_[d] == d;
  }
  t->grid_ = chunks_touched(meta_, disk);
  return t;
}

Result<std::shared_ptr<Transfer>> DiskArray::start(bool write, std::shared_ptr<array::MemoryArray> mem,
                                                   const Box& mem_section,
                                                   const std::vector<int64_t>& disk_start,
                                                   const std::vector<int>& perm, bool blocking) {
  Box disk;
  Status s = mem ? check_transfer(write, *mem, mem_section, disk_start, perm, &disk)
                 : Status(Code::kInvalidArgument, dir_ + ": no memory array");
  std::shared_ptr<Transfer> t;
  if (s.ok()) {
    t = new_transfer(write, mem, mem_section, disk, perm);
    drain_conflicts(*t);  // the agreement below: drained on every rank
  }
  // The memory array's sync orders the transfer after every rank's earlier
  // access (writes: every put before this call is visible; reads: no rank
  // still reads what the wait will overwrite). A global array's sync is
  // split around the agreement, whose all-rank reduction stands for its
  // barrier (one collective call, not two); the agreement is checked
  // first, so every rank has checked its arguments before any syncs.
  const bool split = s.ok() && mem->splits_sync();
  if (split) s = mem->sync_arrive();
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), s));
  // A sync that fails on one rank (a Win_sync after the agreement, another
  // library's callback) is reported by the wait, on every rank: returning
  // here would leave the others waiting in it.
  t->start_status_ = split ? mem->sync_leave() : mem->sync();
  in_flight_.push_back(t);
  if (disk.empty() || !t->start_status_.ok()) return t;
  t->start_jobs(t->plan(), blocking);
  return t;
}

Result<std::shared_ptr<Transfer>> DiskArray::start_write(std::shared_ptr<array::MemoryArray> mem,
                                                         const Box& mem_section,
                                                         const std::vector<int64_t>& disk_start,
                                                         const std::vector<int>& perm) {
  return start(true, std::move(mem), mem_section, disk_start, perm);
}

Result<std::shared_ptr<Transfer>> DiskArray::start_read(std::shared_ptr<array::MemoryArray> mem,
                                                        const Box& mem_section,
                                                        const std::vector<int64_t>& disk_start,
                                                        const std::vector<int>& perm) {
  return start(false, std::move(mem), mem_section, disk_start, perm);
}

Status DiskArray::write(std::shared_ptr<array::MemoryArray> mem, const Box& mem_section,
                        const std::vector<int64_t>& disk_start, const std::vector<int>& perm) {
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<Transfer> t,
                         start(true, std::move(mem), mem_section, disk_start, perm, /*blocking=*/true));
  return t->wait();
}

Status DiskArray::read(std::shared_ptr<array::MemoryArray> mem, const Box& mem_section,
                       const std::vector<int64_t>& disk_start, const std::vector<int>& perm) {
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<Transfer> t, start_read(std::move(mem), mem_section, disk_start, perm));
  return t->wait();
}

Status DiskArray::close() {
  for (const auto& w : in_flight_) {
    if (std::shared_ptr<Transfer> t = w.lock()) t->drain();
  }
  in_flight_.clear();
  options_.buffers->trim();
  closed_ = true;
  return Status::Ok();
}

}  // namespace pario::diskarray
