// Where a disk array's chunks are kept, and moving one chunk's bytes.
//
// Two layouts (diskarray/zarr_meta.h):
//   - one file per chunk, "c/i/j" under the store;
//   - shards: the file "c/s/t" holds a block of chunks, and an index of
//     (offset, nbytes) per chunk slot (C order inside the shard), at its
//     start or end, optionally followed by its CRC-32C.
// pario makes a shard whole at once: every slot at a fixed offset
// (slot * chunk bytes) and the index written before the shard's name
// appears (a file made beside it, then linked into place), so many ranks
// write chunks of one shard side by side with plain pwrites, a crash never
// leaves a shard without its index, and slots never written are holes of
// a sparse file that read as the fill value 0. Any shard's chunk is read
// through its index, so shards that zarr-python packed (compressed, in
// another order, empty chunks left out) read too. Writes into pario's
// shards go in place; into packed ones (a store pario did not make), the
// shard is rebuilt whole and renamed over the old one (write_shard), and
// the caller makes sure one rank writes each shard at a time. A packed
// shard in pario's own store (another program rewrote it) is kUnsupported.
// A chunk never written (no file, an empty slot) reads as zeros; a short
// or damaged file is kCorrupt, never zeros.
//
// Calls are thread-safe. A store serves one transfer: it keeps the shards
// it has opened open, with their checked indexes, until close_files() (a
// 537 MB read otherwise opened a shard and read and checked its index 512
// times), 64 at most over all stores of the process.
#pragma once

#include <sys/uio.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "device/device.h"
#include "device/storage.h"
#include "diskarray/zarr_meta.h"

namespace pario::diskarray {

class ChunkStore {
 public:
  // Its files are opened and made through storage (O_DIRECT, MPI-IO or
  // RAM as the caller chose).
  ChunkStore(std::string dir, ZarrMeta meta, std::shared_ptr<device::Storage> storage);
  ~ChunkStore();
  size_t chunk_bytes() const;
  // The chunk at grid index `index` (one entry per dimension) into dst,
  // chunk_bytes() long, decompressed.
  Status read(const int64_t* index, char* dst) const;
  // Uncompressed chunks: the chunk's bytes scattered over v (chunk_bytes()
  // in all). *missing says it was never written (v is left untouched).
  Status readv(const int64_t* index, const iovec* v, int n, bool* missing) const;
  // The whole chunk (compressed here when the store says zstd), or
  // gathered from v.
  Status write(const int64_t* index, const char* chunk) const;
  Status writev(const int64_t* index, const iovec* v, int n) const;
  // Uncompressed shards: the part of a chunk that a write covers goes
  // straight to its bytes, and the rest of the slot stays as it is (a
  // slot always exists whole, so no read and merge is needed).
  bool writes_in_parts() const { return meta_.fixed_slots; }
  // Shards another program packed (zarr-python: compressed, empty chunks
  // left out): a write rewrites the whole shard, so one rank must write
  // all of a shard's chunks at once (write_shard).
  bool rewrites_shards() const { return meta_.sharded() && !meta_.fixed_slots; }
  struct NewChunk {
    const int64_t* index;  // in the chunk grid
    const char* bytes;     // the whole chunk, chunk_bytes(), uncompressed
  };
  // Chunks of one shard: the shard is rebuilt with them and its other
  // chunks as they were, as a new file (device::NewFile) put in its place.
  Status write_shard(const std::vector<NewChunk>& chunks) const;
  struct Run {
    uint64_t at;  // byte offset inside the chunk
    const char* src;
    size_t len;
  };
  // Parts of a chunk (writes_in_parts); runs that follow each other in the
  // file, in order, go in one vectored call.
  Status write_runs(const int64_t* index, const std::vector<Run>& runs) const;
  // Closes the shards kept open; the first error of closing any of them.
  Status close_files() const;

 private:
  struct Place;
  struct OpenShard;  // a shard file kept open, and its index
  struct CloseErrors;
  // The chunk file or shard at dir/key; on a first write there, its
  // directories (and a new shard) are made first. Null: never written.
  Result<std::unique_ptr<device::Device>> open_file(const std::string& key, bool for_write) const;
  Result<std::shared_ptr<const OpenShard>> open_shard(const std::string& key, bool for_write) const;
  Result<Place> locate(const int64_t* index, bool for_write) const;
  // A shard's index as (offset, nbytes) pairs, checked against the file.
  Result<std::vector<uint64_t>> read_index(device::Device& f, uint64_t size, const std::string& path) const;
  Status make_shard(const std::string& path) const;
  Status writev_bytes(const int64_t* index, const iovec* v, int n, size_t len) const;
  Status write_chunk_file(const int64_t* index, const iovec* v, int n, size_t len) const;
  size_t index_bytes() const;
  int64_t slots() const;

  std::string dir_;
  ZarrMeta meta_;
  std::shared_ptr<device::Storage> storage_;
  mutable std::mutex mu_;  // guards open_ and opening_
  mutable std::map<std::string, std::shared_ptr<const OpenShard>> open_;  // by path
  mutable std::map<std::string, std::shared_ptr<std::mutex>> opening_;    // held by the thread opening a path
  std::shared_ptr<CloseErrors> close_errors_;
};

// CRC-32C (Castagnoli), as Zarr's crc32c codec stores it (little-endian
// after the data).
uint32_t crc32c(const void* data, size_t n);

// A sharded store's shard index, ib bytes read from a shard file of `size`
// bytes, as (offset, nbytes) pairs (both ~0 for a slot the shard leaves
// out), each checked to lie in the shard's data; kCorrupt naming path
// otherwise. Pure: the bytes are untrusted (fuzzed in tests/fuzz).
Result<std::vector<uint64_t>> parse_shard_index(const ZarrMeta& meta, const char* idx, size_t ib,
                                                uint64_t size, const std::string& path);

}  // namespace pario::diskarray
