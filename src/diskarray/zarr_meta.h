// Zarr v3 array metadata (zarr.json) as pario writes and reads it.
//
// pario writes: a regular chunk grid, the default chunk key encoding with
// "/" ("c/i/j/..."), a "bytes" codec, little-endian, C order inside a
// chunk, optionally followed by a "zstd" codec, fill value 0; or the
// chunks grouped into shards: the grid's chunk shape is the shard's, and
// one "sharding_indexed" codec holds the inner chunk shape, the chunk
// codecs above, and an index of (offset, nbytes) per inner chunk encoded
// as "bytes" then "crc32c", at the shard's start or end. Reading accepts
// what zarr-python writes in these layouts (its default is bytes then
// zstd), and names what it does not support (other codecs, nested
// sharding, big endian, "." keys, more than kMaxDims dimensions, chunks
// over kMaxChunkBytes are refused with kUnsupported; a malformed file,
// including sizes that overflow, is kCorrupt). Everything is checked
// before use: a zarr.json is untrusted input. The file is replaced atomically: written
// as a new file (device::NewFile), synced, renamed over.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/box.h"
#include "base/element_type.h"
#include "base/status.h"

namespace pario::diskarray {

struct ZarrMeta {
  ElementType type = ElementType::kDouble;
  std::vector<int64_t> shape;
  std::vector<int64_t> chunks;  // the chunk: the unit pario moves (inner chunk when sharded)
  std::vector<int64_t> shard;   // empty: one file per chunk; else a multiple of chunks
  bool index_at_end = true;     // sharded: where the index sits in a shard file
  bool index_crc32c = true;     // sharded: the index ends with its CRC-32C
  // Sharded: pario made the shards, every chunk at a fixed offset, so
  // chunks are written in place; otherwise (zarr-python packs its shards)
  // a write rewrites the whole shard.
  bool fixed_slots = false;
  std::string attributes_json = "{}";  // kept as written
  bool zstd = false;    // chunks zstd-compressed
  int zstd_level = 3;   // the level pario compresses with (0: zstd's default)

  size_t element_bytes() const { return element_size(type); }
  int64_t chunk_elements() const;
  bool sharded() const { return !shard.empty(); }
  // "c/1/0/3" for chunk grid index {1, 0, 3} ("c" for a 0-d array).
  std::string chunk_key(const std::vector<int64_t>& index) const;
  // Sharded: the shard grid index holding a chunk, and the chunk's slot
  // in it (C order over the chunks of a shard).
  std::vector<int64_t> shard_index(const std::vector<int64_t>& chunk_index, int64_t* slot) const;
};

const char* zarr_data_type(ElementType t);

// The largest chunk pario moves (an inner chunk when sharded): a chunk is
// one buffer in memory, so a file cannot ask for more.
constexpr int64_t kMaxChunkBytes = int64_t{1} << 31;

// kInvalidArgument unless an array of n (1 .. kMaxDims) extents, each
// >= 0, of this element type has at most 2^63 - 1 bytes in all.
Status check_shape(const int64_t* shape, size_t n, ElementType type);

// User attributes in zarr.json's "attributes": a string value is returned
// as it is, any other as its JSON text; kNotFound when absent. "pario" is
// pario's own entry and cannot be set.
Result<std::string> get_attribute(const ZarrMeta& meta, const std::string& name);
Status set_attribute(ZarrMeta* meta, const std::string& name, const std::string& value);

// dir/zarr.json's text: a regular file, never through a link, at most
// 64 MiB.
Result<std::string> read_meta_text(const std::string& dir);
// The checks of zarr.json's text (dir names it in messages).
// Pure: the text is untrusted (fuzzed in tests/fuzz).
Result<ZarrMeta> parse_meta(const std::string& text, const std::string& dir);
Status write_meta(const std::string& dir, const ZarrMeta& meta);

}  // namespace pario::diskarray
