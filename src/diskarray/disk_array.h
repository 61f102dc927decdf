// Disk resident arrays (ChemIO's DRA): N-d arrays on disk as Zarr v3 stores,
// moved section by section to and from distributed arrays in memory.
//
// A store is a directory: zarr.json (diskarray/zarr_meta.h) and shard
// files of fixed-offset chunks (diskarray/chunk_store.h; one file per chunk
// with PARIO_DISK_ARRAY_SHARD=0), uncompressed by default, so a chunk's
// bytes are its elements in C order; or zstd-compressed chunk files
// (PARIO_DISK_ARRAY_CODEC at create, or a zarr-python store), when each
// chunk goes through a buffer.
// Transfers are collective over the array's group and work for any pair of
// sections of the same shape, optionally with the axes permuted (perm[d]
// is the memory array's dimension that disk dimension d runs along; {1, 0}
// transposes a matrix):
//   - each chunk a disk section touches is moved by one rank, of those
//     holding most of its part in memory the least busy, so no two ranks
//     ever write one chunk, and aligned layouts move by local memory
//     copies; writes into shards another program packed (zarr-python's)
//     rewrite each shard whole, so there one rank moves all of a shard's
//     chunks (the plan, diskarray/transfer_plan.h);
//   - a chunk the section covers only in part is read first and merged, or
//     where chunks sit at fixed offsets (pario's own stores) only the
//     part's bytes are written (nothing outside the section is lost; a
//     missing chunk reads as 0);
//   - each rank moves its chunks' parts to or from memory with one-sided
//     get/put, whatever the distribution (this is what makes restart on a
//     different number of ranks work).
// A chunk file shorter than a full chunk (or a compressed one that does not
// decompress to one) is reported as corrupt, never read as zeros.
//
// Asynchronous transfers: the chunk files are read or written by I/O
// threads while the caller computes. start_write copies the section out of
// memory before returning, and start_read puts chunks into memory as they
// arrive. Each rank holds at most PARIO_DISK_ARRAY_BUFFER bytes of chunk
// buffers per transfer (always at least one chunk, or a whole shard's
// chunks where writes rewrite shards): past that, start waits for the I/O
// threads (writes) or puts finished chunks into memory (reads), so a
// transfer is asynchronous for its last buffer's worth. Transfer::wait
// (collective) ends a write by agreeing on its outcome, and a read by
// putting the remaining chunks into memory. A transfer whose chunks (or
// shards, where writes rewrite them whole) overlap an earlier unwaited one
// where either writes first lets that one's I/O finish on every rank (so
// overlapping requests take effect in the order they were started); the
// others run side by side.
//
// Thread safety: one calling thread per rank; calls are collective. The
// I/O threads touch only chunk files and the transfer's own buffers.
#pragma once

#include <array>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "array/memory_array.h"
#include "base/buffer_pool.h"
#include "base/status.h"
#include "base/thread_pool.h"
#include "comm/group.h"
#include "device/storage.h"
#include "diskarray/chunk_store.h"
#include "diskarray/transfer_plan.h"
#include "diskarray/zarr_meta.h"

namespace pario::diskarray {

class Transfer;

// What the C boundary hands a disk array: the configuration's choices
// (their defaults and variables are in base/config.h) and the
// process-wide resources it built from them.
struct DiskArrayOptions {
  uint64_t buffer_bytes = 0;  // chunk buffers per rank and transfer (at least one chunk)
  int zstd_level = -1;        // new arrays: zstd chunks at this level; -1 uncompressed
  uint64_t shard_bytes = 0;   // new uncompressed arrays: shards of about this size; 0 chunk files
  // Where chunk and shard files are opened; null: plain POSIX files.
  std::shared_ptr<device::Storage> storage;
  // The I/O threads chunks move on; null: on the calling thread inside
  // start (PARIO_IO_ENGINE=sync), so transfers are not asynchronous.
  std::shared_ptr<ThreadPool> io_threads;
  std::shared_ptr<BufferPool> buffers;  // chunk buffers; null: a pool of the array's own
};

// Element strides of a buffer, per dimension.
using Strides = std::array<int64_t, kMaxDims>;

// What DiskArray::create_or_open does when the store exists (h5py's file
// modes): refuse ("w-", what create does), replace it ("w"), or open it
// if its type and shape match ("a").
enum class CreateMode { kExclusive, kReplace, kOpenOrCreate };

class DiskArray {
 public:
  ~DiskArray();
  // Collective. Creates the store at `dir`, which must not exist, or with
  // `replace` must be a store, which the new one replaces atomically (made
  // beside it, then swapped in: see replace_store). chunk is the typical
  // request shape (empty or zeros: chosen, about 1 MiB per chunk, whole
  // rows first).
  static Result<std::unique_ptr<DiskArray>> create(std::shared_ptr<const comm::Group> group,
                                                   const std::string& dir, ElementType type,
                                                   const std::vector<int64_t>& shape,
                                                   const std::vector<int64_t>& chunk,
                                                   const DiskArrayOptions& options, bool replace = false);
  // Collective. Opens an existing store (pario's, or zarr-python's in a
  // supported layout).
  static Result<std::unique_ptr<DiskArray>> open(std::shared_ptr<const comm::Group> group,
                                                 const std::string& dir, bool writable,
                                                 const DiskArrayOptions& options);
  // Collective (diskarray/local_io.cpp). create with a mode for an
  // existing `dir`: kReplace replaces it atomically (create with replace),
  // but only a store (a directory, not a symbolic link, holding zarr.json;
  // anything else is kExists); kOpenOrCreate opens it writable when its type and shape are
  // these (chunk is then ignored), else kExists naming the difference.
  static Result<std::unique_ptr<DiskArray>> create_or_open(std::shared_ptr<const comm::Group> group,
                                                           const std::string& dir, ElementType type,
                                                           const std::vector<int64_t>& shape,
                                                           const std::vector<int64_t>& chunk, CreateMode mode,
                                                           const DiskArrayOptions& options);
  // Collective: removes a store (its chunks, zarr.json, the directory),
  // and what storage keeps of its files beside the disk.
  static Status remove(const comm::Group& group, const std::string& dir, device::Storage& storage);

  const ZarrMeta& meta() const { return meta_; }
  const std::string& dir() const { return dir_; }
  const comm::Group& group() const { return *group_; }

  // Collective: starts disk[disk_start + i] = mem[mem_section.start + P(i)]
  // for every index i of the disk section, whose extents are
  // mem_section.count permuted (disk extent d = count[perm[d]]); empty
  // perm is the identity. start_read is the reverse; the memory section
  // must not be touched until its wait.
  Result<std::shared_ptr<Transfer>> start_write(std::shared_ptr<array::MemoryArray> mem, const Box& mem_section,
                                                const std::vector<int64_t>& disk_start,
                                                const std::vector<int>& perm = {});
  Result<std::shared_ptr<Transfer>> start_read(std::shared_ptr<array::MemoryArray> mem, const Box& mem_section,
                                               const std::vector<int64_t>& disk_start,
                                               const std::vector<int>& perm = {});
  // Blocking forms: start, then wait (a write then gathers whole chunks
  // straight from node-local memory, with no staging copy).
  Status write(std::shared_ptr<array::MemoryArray> mem, const Box& mem_section,
               const std::vector<int64_t>& disk_start, const std::vector<int>& perm = {});
  Status read(std::shared_ptr<array::MemoryArray> mem, const Box& mem_section,
              const std::vector<int64_t>& disk_start, const std::vector<int>& perm = {});
  // Collective: stores a string attribute in zarr.json (rank 0 rewrites it
  // atomically); needs a writable array. attribute() is local.
  Status set_attribute(const std::string& name, const std::string& value);
  Result<std::string> attribute(const std::string& name) const { return get_attribute(meta_, name); }
  // Local, independent of the other ranks (diskarray/local_io.cpp): the
  // disk section into buf, dense in C order, and back; chunks never
  // written read as 0, partly covered chunks are merged. Between two
  // sync() calls, independent writes of different ranks must touch
  // disjoint chunks (disjoint shards where writes rewrite whole shards,
  // ChunkStore::rewrites_shards): a chunk is read, merged and written
  // whole, so two ranks merging into one chunk lose one's part. What one
  // rank wrote is read by another after a sync. This rank's I/O of
  // unwaited transfers finishes first.
  Status read_local(const Box& section, void* buf);
  Status write_local(const Box& section, const void* buf);
  // Collective: every rank's independent writes before it are visible to
  // every rank after it; one status for all, where `local` is this rank's
  // own failure to report (kRemote elsewhere). Independent writes that
  // broke the rule above are kInvalidArgument, naming a chunk and two of
  // its writers.
  Status sync(const Status& local = Status::Ok());
  // Collective; idempotent. Lets unwaited transfers' I/O finish (they
  // still need their wait).
  Status close();

 private:
  DiskArray() = default;
  void use(const DiskArrayOptions& options);  // fills in what options left null
  // The steps of every transfer: check the arguments and agree on them,
  // make the transfer, order it after conflicting ones, plan its chunks
  // (Transfer::plan), fill this rank's jobs' buffers and queue them
  // (Transfer::start_jobs). blocking: the caller waits at once, so the
  // memory cannot change under the I/O threads and writes may gather
  // straight from it.
  Result<std::shared_ptr<Transfer>> start(bool write, std::shared_ptr<array::MemoryArray> mem,
                                          const Box& mem_section, const std::vector<int64_t>& disk_start,
                                          const std::vector<int>& perm, bool blocking = false);
  Status check_transfer(bool write, const array::MemoryArray& mem, const Box& mem_section,
                        const std::vector<int64_t>& disk_start, const std::vector<int>& perm,
                        Box* disk) const;
  std::shared_ptr<Transfer> new_transfer(bool write, std::shared_ptr<array::MemoryArray> mem,
                                         const Box& mem_section, const Box& disk,
                                         const std::vector<int>& perm) const;
  // Lets the I/O of earlier unwaited transfers that conflict with t finish
  // on this rank (start's agreement then orders them on every rank).
  void drain_conflicts(const Transfer& t);

  std::shared_ptr<const comm::Group> group_;
  std::string dir_;
  ZarrMeta meta_;
  DiskArrayOptions options_;
  bool writable_ = false;
  bool closed_ = false;
  std::vector<std::weak_ptr<Transfer>> in_flight_;  // started, not yet waited
  // Chunks (shards, where writes rewrite them whole) this rank wrote
  // independently since the last sync, by row-major number; sync checks
  // them against the other ranks'.
  std::vector<int64_t> written_;
};

// One collective transfer in flight.
class Transfer {
 public:
  ~Transfer();  // lets the I/O finish (buffers are never freed under it)
  // Collective: completes the transfer; the same outcome on every rank. A
  // failed `refusal` is this rank's outcome whatever its chunk I/O did
  // (see collective::Transfer::wait).
  Status wait(const Status& refusal = Status::Ok());
  // Local: true once this rank's chunk I/O is done (wait will not block on
  // the disk).
  bool test();
  bool waited() const { return waited_; }

 private:
  friend class DiskArray;
  struct Job;
  Transfer() = default;
  void drain();  // local: blocks until this rank's chunk I/O is done
  void run(Job* job);  // on an I/O thread
  Status move_chunk(Job* job);  // run's I/O
  // Before a job of `bytes` is started: waits until the transfer's
  // buffers have room (see above), then counts them.
  void make_room(size_t bytes);
  void wake_caller();  // under mu_, from an I/O thread
  // Jobs go to the I/O threads in batches (the caller's thread only).
  void queue(std::function<void()> task);
  void submit_queued();
  // Writes that rewrite whole shards: a shard's jobs, merged where partial,
  // written as one new shard.
  void run_shard(const std::vector<Job*>& group);
  void merge_staged(Job* job);  // a partial write's new part into the chunk's old bytes
  // Reads: puts a finished job's chunk into memory and frees its buffer.
  void put_chunk(Job* job);
  // Every chunk the disk section touches, in order, and its mover; the
  // same on every rank.
  std::vector<PlannedChunk> plan() const;
  // This rank's chunks of the plan: a job each, its buffers filled (writes
  // copy their part out of memory) and queued for the I/O threads; a
  // failure stops there and is kept for wait.
  void start_jobs(const std::vector<PlannedChunk>& plan, bool blocking);
  // One chunk's job, in place or through a buffer; or a shard's jobs
  // (writes that rewrite whole shards), room made for all at once.
  Status queue_chunk(std::unique_ptr<Job> job, bool blocking);
  Status queue_shard(std::vector<std::unique_ptr<Job>> shard);
  std::unique_ptr<Job> make_job(const PlannedChunk& planned) const;
  // A job moved through buffers: their bytes (the chunk, none when written
  // in parts; a partial write's staged part), and making them (writes copy
  // their part out of memory).
  size_t buffer_bytes(const Job& job) const;
  Status fill_buffers(Job* job);
  // In place, when the chunk's part lies in memory on this node and the
  // axes are not permuted: plans the job's list of buffers, the chunk file
  // in order (reads scatter into them, blocking writes of whole chunks
  // gather from them; a scratch row stands for padding and bytes outside
  // the section) and counts the row; false leaves the job to a chunk buffer.
  bool plan_in_place(Job* job);
  Status read_chunk_in_place(const Job& job);
  // A partial chunk's staged part written straight to its runs of bytes
  // (ChunkStore::writes_in_parts).
  Status write_part(const Job& job);
  bool overlaps(const Transfer& other) const;
  // The memory section that a part of the disk section maps to.
  Box mem_box(const Box& disk_part) const;
  // Memory to a buffer laid out in disk order with the given strides, and
  // back (through a dense copy when the axes are permuted).
  struct Staging;
  Staging staging(const Box& disk_part) const;
  Status copy_out(const Box& disk_part, char* dst, const Strides& dst_stride);
  Status copy_in(const Box& disk_part, const char* src, const Strides& src_stride);

  bool write_ = false;
  bool waited_ = false;
  std::string dir_;
  ZarrMeta meta_;
  std::unique_ptr<ChunkStore> store_;
  std::shared_ptr<ThreadPool> io_threads_;  // null: jobs run on the caller's thread
  std::shared_ptr<BufferPool> buffers_;
  std::shared_ptr<const comm::Group> group_;
  std::shared_ptr<array::MemoryArray> mem_;
  Box mem_section_, disk_;
  std::vector<int> perm_;  // always filled (the identity when none was given)
  bool identity_ = true;
  Box grid_;  // the chunk grid indices the disk section touches
  std::vector<std::unique_ptr<Job>> jobs_;  // the chunks this rank moves
  Status start_status_;                     // a failure while copying out of memory

  size_t budget_ = 0;    // bytes of chunk buffers this rank may hold
  size_t put_next_ = 0;  // reads: jobs_[0, put_next_) are in memory already

  std::mutex mu_;
  std::condition_variable done_;
  int running_ = 0;       // jobs not yet finished by the I/O threads
  size_t bytes_held_ = 0;  // chunk buffers allocated and not yet freed
  bool room_wanted_ = false;  // the caller waits for a job to free buffers
  std::vector<std::function<void()>> queued_;  // counted in running_, not yet submitted
};

}  // namespace pario::diskarray
