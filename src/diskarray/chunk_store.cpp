#include "diskarray/chunk_store.h"

#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

#include "device/device.h"

namespace pario::diskarray {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "Zarr's bytes codec: pario writes little-endian");

constexpr uint64_t kEmptySlot = ~uint64_t{0};  // Zarr's mark of a chunk a shard does not hold

// A store's contents are untrusted (another program's, or a copy from
// elsewhere): a symbolic link planted at "c" would send pario's writes to
// files outside the store. So every directory between the store and a
// chunk or shard file must be a directory, not a link (the file itself is
// opened O_NOFOLLOW). *missing: nothing is at path yet.
Status check_dir(const std::string& path, bool* missing) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return *missing = true, Status::Ok();
    return errno_status(errno, path);
  }
  if (!S_ISDIR(st.st_mode)) {
    return Status(Code::kPermission, path + ": not a directory (a symbolic link?); pario reads and writes "
                                            "only inside the store");
  }
  return Status::Ok();
}

// The directories dir/a, dir/a/b, ... leading to the file at dir/rel:
// checked (check_dir), and with `make` made where missing, each 0700.
Status walk_dirs(const std::string& dir, const std::string& rel, bool make) {
  for (size_t slash = rel.find('/'); slash != std::string::npos; slash = rel.find('/', slash + 1)) {
    const std::string path = dir + "/" + rel.substr(0, slash);
    if (make && ::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) return errno_status(errno, path);
    bool missing = false;
    PARIO_RETURN_IF_ERROR(check_dir(path, &missing));
    if (missing && !make) return Status::Ok();  // the rest is missing too
  }
  return Status::Ok();
}

Status make_dirs(const std::string& dir, const std::string& rel) { return walk_dirs(dir, rel, true); }
Status check_dirs(const std::string& dir, const std::string& rel) { return walk_dirs(dir, rel, false); }

Status short_chunk(const std::string& where, size_t got, size_t size) {
  return Status(Code::kCorrupt, where + ": chunk is " + std::to_string(got) + " bytes, expected " +
                                    std::to_string(size) + " (truncated?)");
}

// The most bytes a stored chunk can take: its raw size, or what zstd can
// make of it (plus room for a frame's checksum and other encoders'
// headers). A file or an index claiming more is damaged, and is refused
// before a buffer of that size is made.
uint64_t max_stored_bytes(const ZarrMeta& meta) {
  const uint64_t raw = static_cast<uint64_t>(meta.chunk_elements()) * meta.element_bytes();  // checked by parse_meta
  return meta.zstd ? ZSTD_compressBound(raw) + 4096 : raw;
}

Status oversized_chunk(const std::string& where, uint64_t nbytes, const ZarrMeta& meta) {
  return Status(Code::kCorrupt, where + ": a stored chunk of " + std::to_string(nbytes) + " bytes, more than the " +
                                    std::to_string(max_stored_bytes(meta)) + " its shape can take (damaged?)");
}

uint64_t load_le64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

// Written by hand: a table-driven CRC over a shard's small index. Debian
// packages no C library for CRC-32C other than ISA-L, too large a
// dependency for a few bytes per shard.
uint32_t crc32c(const void* data, size_t n) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;  // reflected Castagnoli
      t[i] = c;
    }
    return t;
  }();
  const auto* p = static_cast<const unsigned char*>(data);
  uint32_t crc = ~0u;
  for (size_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

// The first error of closing a shard the store let go of.
struct ChunkStore::CloseErrors {
  std::mutex mu;
  Status first;
};

// Closed when the store and the last chunk call using it let go of it, so
// a shard is never closed under a thread's I/O.
struct ChunkStore::OpenShard {
  std::unique_ptr<device::Device> file;
  bool writable = false;
  std::vector<uint64_t> entries;  // (offset, nbytes) per slot
  std::shared_ptr<CloseErrors> errors;
  ~OpenShard() {
    if (!file) return;
    Status s = file->close();
    std::lock_guard<std::mutex> lock(errors->mu);
    if (errors->first.ok()) errors->first = s;
  }
};

// A chunk's bytes: file[offset, offset + nbytes); no file when never
// written. A chunk file is the caller's to close; a shard stays open in
// the store.
struct ChunkStore::Place {
  std::string where;  // the file, and the slot in a shard, for messages
  std::shared_ptr<device::Device> file;  // a shard's keeps its OpenShard open
  bool own = false;   // a chunk file, closed by done()
  uint64_t offset = 0;
  uint64_t nbytes = 0;
  Status done() { return own ? file->close() : Status::Ok(); }
};

ChunkStore::ChunkStore(std::string dir, ZarrMeta meta, std::shared_ptr<device::Storage> storage)
    : dir_(std::move(dir)),
      meta_(std::move(meta)),
      storage_(std::move(storage)),
      close_errors_(std::make_shared<CloseErrors>()) {}

ChunkStore::~ChunkStore() { (void)close_files(); }  // gives back its count of kept shards

size_t ChunkStore::chunk_bytes() const {
  return static_cast<size_t>(meta_.chunk_elements()) * meta_.element_bytes();
}

int64_t ChunkStore::slots() const {
  int64_t n = 1;
  for (size_t d = 0; d < meta_.shard.size(); ++d) n *= meta_.shard[d] / meta_.chunks[d];
  return n;
}

size_t ChunkStore::index_bytes() const {
  return static_cast<size_t>(slots()) * 16 + (meta_.index_crc32c ? 4 : 0);
}

// A new shard in pario's fixed layout, made whole and then linked into
// place; when several ranks race, the first link wins and the others'
// identical files are dropped.
Status ChunkStore::make_shard(const std::string& path) const {
  const size_t ib = index_bytes();
  const uint64_t data_at = meta_.index_at_end ? 0 : ib;
  const uint64_t total = static_cast<uint64_t>(slots()) * chunk_bytes() + ib;
  std::vector<char> index(ib);
  for (int64_t s = 0; s < slots(); ++s) {
    const uint64_t entry[2] = {data_at + static_cast<uint64_t>(s) * chunk_bytes(), chunk_bytes()};
    std::memcpy(index.data() + s * 16, entry, sizeof entry);
  }
  if (meta_.index_crc32c) {
    const uint32_t crc = crc32c(index.data(), ib - 4);
    std::memcpy(index.data() + ib - 4, &crc, 4);
  }
  Status s = storage_->write_whole(path, false, [&](device::Device& f) {
    PARIO_RETURN_IF_ERROR(f.write_at(meta_.index_at_end ? total - ib : 0, index.data(), ib));
    return meta_.index_at_end ? Status::Ok() : f.truncate(total);  // the slots: a hole
  });
  return s.code() == Code::kExists ? Status::Ok() : s;
}

Result<std::vector<uint64_t>> ChunkStore::read_index(device::Device& f, uint64_t size,
                                                      const std::string& path) const {
  const size_t ib = index_bytes();
  if (size < ib) {
    return Status(Code::kCorrupt, path + ": shard is " + std::to_string(size) + " bytes, shorter than its " +
                                      std::to_string(ib) + "-byte index (truncated?)");
  }
  std::vector<char> idx(ib);
  size_t got = 0;
  PARIO_RETURN_IF_ERROR(f.read_at(meta_.index_at_end ? size - ib : 0, idx.data(), ib, &got));
  if (got != ib) return Status(Code::kCorrupt, path + ": the shard index is cut short (truncated?)");
  return parse_shard_index(meta_, idx.data(), ib, size, path);
}

Result<std::vector<uint64_t>> parse_shard_index(const ZarrMeta& meta, const char* idx, size_t ib,
                                                uint64_t size, const std::string& path) {
  int64_t slots = 1;
  for (size_t d = 0; d < meta.shard.size(); ++d) slots *= meta.shard[d] / meta.chunks[d];  // checked by parse_meta
  if (ib != static_cast<size_t>(slots) * 16 + (meta.index_crc32c ? 4 : 0) || size < ib) {
    return Status(Code::kCorrupt, path + ": the shard index has " + std::to_string(ib) + " bytes, not " +
                                      std::to_string(slots * 16 + (meta.index_crc32c ? 4 : 0)));
  }
  if (meta.index_crc32c) {
    uint32_t stored;
    std::memcpy(&stored, idx + ib - 4, 4);
    if (stored != crc32c(idx, ib - 4)) {
      return Status(Code::kCorrupt, path + ": the shard index's checksum does not match (truncated or damaged?)");
    }
  }
  const uint64_t begin = meta.index_at_end ? 0 : ib, end = meta.index_at_end ? size - ib : size;
  std::vector<uint64_t> entries(static_cast<size_t>(2 * slots));
  for (size_t e = 0; e < entries.size(); e += 2) {
    const uint64_t offset = load_le64(idx + e * 8), nbytes = load_le64(idx + e * 8 + 8);
    if (offset == kEmptySlot && nbytes == kEmptySlot) {
      entries[e] = entries[e + 1] = kEmptySlot;
      continue;
    }
    if (offset < begin || offset > end || nbytes > end - offset) {
      return Status(Code::kCorrupt, path + " (chunk slot " + std::to_string(e / 2) +
                                        "): the index points past the shard's data (truncated?)");
    }
    if (nbytes > max_stored_bytes(meta)) {
      return oversized_chunk(path + " (chunk slot " + std::to_string(e / 2) + ")", nbytes, meta);
    }
    entries[e] = offset, entries[e + 1] = nbytes;
  }
  return entries;
}

// At most this many shards stay open in the process, over all stores (every
// transfer has one): far below the usual limit of 1024 descriptors, and
// transfers walk the chunks in order. Past it, a shard is opened for one
// chunk call and closed after it. Counted per store, eight requests in
// flight kept up to 512 open.
constexpr int kMaxOpenShards = 64;
static std::atomic<int> kept_open{0};  // shards in all stores' open_

Result<std::unique_ptr<device::Device>> ChunkStore::open_file(const std::string& key, bool for_write) const {
  const std::string path = dir_ + "/" + key;
  PARIO_RETURN_IF_ERROR(check_dirs(dir_, key));
  device::OpenOptions o;
  o.write = for_write;
  o.create = for_write && !meta_.sharded();
  Result<std::unique_ptr<device::Device>> f = storage_->open(path, o);
  if (!f.ok() && f.status().code() == Code::kNotFound && for_write) {  // the first write there
    PARIO_RETURN_IF_ERROR(make_dirs(dir_, key));
    if (meta_.sharded()) PARIO_RETURN_IF_ERROR(make_shard(path));
    f = storage_->open(path, o);
  }
  if (!f.ok() && f.status().code() == Code::kNotFound) return std::unique_ptr<device::Device>();  // never written
  return f;
}

Result<std::shared_ptr<const ChunkStore::OpenShard>> ChunkStore::open_shard(const std::string& key,
                                                                            bool for_write) const {
  const std::string path = dir_ + "/" + key;
  std::shared_ptr<std::mutex> opening;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = open_.find(path);
    if (it != open_.end() && (it->second->writable || !for_write)) return it->second;
    std::shared_ptr<std::mutex>& m = opening_[path];
    if (!m) m = std::make_shared<std::mutex>();
    opening = m;
  }
  // One thread opens a shard, the others wait for it and take its copy: a
  // transfer's I/O threads all start in the same shard, and each opened
  // it, stat'ed it twice and read its index (a 4-rank warm read of 32 MB:
  // 16 opens of the one shard where 4 do; issue 30).
  std::lock_guard<std::mutex> once(*opening);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = open_.find(path);
    if (it != open_.end() && (it->second->writable || !for_write)) return it->second;
  }
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<device::Device> f, open_file(key, for_write));
  if (!f) return std::shared_ptr<const OpenShard>();  // never written
  auto shard = std::make_shared<OpenShard>();
  shard->file = std::move(f);
  shard->writable = for_write;
  shard->errors = close_errors_;
  PARIO_ASSIGN_OR_RETURN(uint64_t size, shard->file->size());
  PARIO_ASSIGN_OR_RETURN(shard->entries, read_index(*shard->file, size, path));
  // When full, the shards no thread is using are let go of and close here,
  // under the lock: closed outside it, the other threads opened as many
  // again meanwhile (past the limit of a test's 80 descriptors).
  std::lock_guard<std::mutex> lock(mu_);
  if (kept_open.load() >= kMaxOpenShards) {
    for (auto it = open_.begin(); it != open_.end();) {
      if (it->second.use_count() > 1) {
        ++it;  // in use: kept
      } else {
        it = open_.erase(it);
        --kept_open;
      }
    }
  }
  auto it = open_.find(path);
  if (it != open_.end()) {
    it->second = shard;  // a read-only one it replaces closes when its last user is done
  } else if (kept_open.fetch_add(1) < kMaxOpenShards) {
    open_.emplace(path, shard);
  } else {
    --kept_open;  // no room: closed when this chunk call is done
  }
  return std::shared_ptr<const OpenShard>(shard);
}

Status ChunkStore::close_files() const {
  std::map<std::string, std::shared_ptr<const OpenShard>> dropped;
  {
    std::lock_guard<std::mutex> lock(mu_);
    dropped.swap(open_);
    opening_.clear();
  }
  // Closed before they are counted out, so that other transfers' threads
  // cannot open as many again while these are still open.
  const int n = static_cast<int>(dropped.size());
  dropped.clear();
  kept_open -= n;
  std::lock_guard<std::mutex> lock(close_errors_->mu);
  return std::exchange(close_errors_->first, Status::Ok());
}

Result<ChunkStore::Place> ChunkStore::locate(const int64_t* index, bool for_write) const {
  std::vector<int64_t> file_index(index, index + meta_.chunks.size());
  int64_t slot = 0;
  if (meta_.sharded()) file_index = meta_.shard_index(file_index, &slot);
  const std::string key = meta_.chunk_key(file_index);
  const std::string path = dir_ + "/" + key;
  Place p;
  if (!meta_.sharded()) {
    p.where = path;
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<device::Device> f, open_file(key, for_write));
    if (!f) return p;  // never written
    PARIO_ASSIGN_OR_RETURN(uint64_t size, f->size());
    p.file = std::move(f);
    p.own = true;
    p.nbytes = meta_.zstd ? size : chunk_bytes();
    if (p.nbytes > max_stored_bytes(meta_)) return oversized_chunk(path, p.nbytes, meta_);
    return p;
  }
  p.where = path + " (chunk slot " + std::to_string(slot) + ")";
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<const OpenShard> shard, open_shard(key, for_write));
  if (!shard) return p;  // never written
  p.offset = shard->entries[2 * slot];
  p.nbytes = shard->entries[2 * slot + 1];
  if (p.offset == kEmptySlot) {
    if (!for_write) return p;  // the shard does not hold this chunk: fill value
    return Status(Code::kUnsupported, p.where + ": the shard leaves this chunk out (rewritten by another "
                                                "program?); pario writes only into chunks a shard holds");
  }
  if (for_write && (meta_.zstd || p.nbytes != chunk_bytes())) {
    return Status(Code::kUnsupported, p.where + ": pario writes uncompressed chunks in place only");
  }
  if (!meta_.zstd && p.nbytes != chunk_bytes()) return short_chunk(p.where, p.nbytes, chunk_bytes());
  p.file = std::shared_ptr<device::Device>(shard, shard->file.get());  // holds the shard open
  return p;
}

Status ChunkStore::read(const int64_t* index, char* dst) const {
  PARIO_ASSIGN_OR_RETURN(Place p, locate(index, false));
  const size_t size = chunk_bytes();
  if (!p.file) {
    std::memset(dst, 0, size);
    return Status::Ok();
  }
  size_t got = 0;
  Status s;
  if (meta_.zstd) {
    std::vector<char> packed(p.nbytes);
    s = p.file->read_at(p.offset, packed.data(), packed.size(), &got);
    if (s.ok()) {
      got = ZSTD_decompress(dst, size, packed.data(), got);
      if (ZSTD_isError(got)) {
        s = Status(Code::kCorrupt, p.where + ": zstd chunk does not decompress (" + ZSTD_getErrorName(got) +
                                       "; truncated or damaged?)");
      }
    }
  } else {
    s = p.file->read_at(p.offset, dst, size, &got);
  }
  Status closed = p.done();
  PARIO_RETURN_IF_ERROR(s);
  PARIO_RETURN_IF_ERROR(closed);
  return got == size ? Status::Ok() : short_chunk(p.where, got, size);
}

Status ChunkStore::readv(const int64_t* index, const iovec* v, int n, bool* missing) const {
  PARIO_ASSIGN_OR_RETURN(Place p, locate(index, false));
  *missing = !p.file;
  if (!p.file) return Status::Ok();
  size_t got = 0;
  Status s = p.file->readv_at(p.offset, v, n, &got);
  Status closed = p.done();
  PARIO_RETURN_IF_ERROR(s);
  PARIO_RETURN_IF_ERROR(closed);
  return got == chunk_bytes() ? Status::Ok() : short_chunk(p.where, got, chunk_bytes());
}

// A chunk file is rewritten in place. Not O_TRUNC: truncating freed the
// file's cached pages and the rewrite then paid for fresh zeroed ones
// (perf: a quarter of the write time in clear_page); only a longer file
// (a foreign one, or a zstd chunk that shrank) is cut back.
Status ChunkStore::write(const int64_t* index, const char* chunk) const {
  std::vector<char> packed;
  const char* bytes = chunk;
  size_t n = chunk_bytes();
  if (meta_.zstd && !meta_.sharded()) {
    packed.resize(ZSTD_compressBound(n));
    n = ZSTD_compress(packed.data(), packed.size(), chunk, n, meta_.zstd_level);
    if (ZSTD_isError(n)) return Status(Code::kIo, dir_ + ": zstd: " + ZSTD_getErrorName(n));
    bytes = packed.data();
  }
  const iovec v{const_cast<char*>(bytes), n};
  return writev_bytes(index, &v, 1, n);
}

Status ChunkStore::writev(const int64_t* index, const iovec* v, int n) const {
  return writev_bytes(index, v, n, chunk_bytes());
}

namespace {

// A kernel copy into the page cache runs 3-5x slower when its destination
// lies 1-31 bytes past its source, modulo a page, on the AMD EPYC of issue
// 30 (1 MiB pwrites of a warm file: 1.6 GB/s at 8, 16 and 24 bytes, 8-10
// GB/s at 0 and from 32 on; reads, the other way round, slow alike: see
// copies_fast in disk_array.cpp). It is `rep movsb`'s, and glibc's memcpy
// of more than a few KiB is `rep movsb` too, equally slow at such a
// distance. Global-array patches lie half a page into their pages
// (global_array.cpp), so small shifts stay clear of it, but a shift near
// 2 KiB, or rows whose length is not a multiple of a page, still land
// there: such writes are first copied with vector moves to the file's page
// offset in a small buffer (a section shifted by one element from a
// page-aligned patch, 65528-byte rows at load 7: 2.7-3.7 GB/s, against
// 1.0-1.4 straight from the patch and 2.8-5.8 at distance 0).
// Distances 1-63 count as short, as in copies_fast: a margin over the
// measured 1-31 costs only a cached copy.
bool short_write_distance(uint64_t offset, const iovec* v, int n) {
  for (int i = 0; i < n; ++i) {
    const uint64_t distance = (offset - reinterpret_cast<uintptr_t>(v[i].iov_base)) % 4096;
    if (distance > 0 && distance < 64) return true;
    offset += v[i].iov_len;
  }
  return false;
}

// n bytes with 64-byte vector moves, never `rep movsb` (above).
void copy_by_vectors(char* to, const char* from, size_t n) {
  size_t k = 0;
  for (; k + 64 <= n; k += 64) std::memcpy(to + k, from + k, 64);
  std::memcpy(to + k, from + k, n - k);
}

// v's bytes, in order, at offset. At a short distance they are copied in
// slices of kBounceBytes to the file's page offset in a buffer of the
// calling thread's (an I/O thread's, or the caller's under
// PARIO_IO_ENGINE=sync), small enough to stay in a core's L2 until the
// kernel loads it. O_DIRECT and RAM devices make no such kernel copy.
Status write_gathered(device::Device& file, uint64_t offset, const iovec* v, int n) {
  if ((file.caps() & (device::kCapDirect | device::kCapMemory)) != 0 || !short_write_distance(offset, v, n)) {
    return file.writev_at(offset, v, n);
  }
  constexpr size_t kBounceBytes = 256 << 10, kPage = 4096;
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  thread_local std::unique_ptr<char, Free> bounce(static_cast<char*>(std::aligned_alloc(kPage, kBounceBytes + kPage)));
  if (!bounce) return Status(Code::kNoMemory, file.path() + ": no buffer for a write");
  char* to = bounce.get() + offset % kPage;
  int i = 0;
  size_t done_in_piece = 0;
  while (i < n) {
    size_t filled = 0;
    while (i < n && filled < kBounceBytes) {
      const size_t take = std::min(v[i].iov_len - done_in_piece, kBounceBytes - filled);
      copy_by_vectors(to + filled, static_cast<const char*>(v[i].iov_base) + done_in_piece, take);
      filled += take;
      done_in_piece += take;
      if (done_in_piece == v[i].iov_len) ++i, done_in_piece = 0;
    }
    PARIO_RETURN_IF_ERROR(file.write_at(offset, to, filled));
    offset += filled;
  }
  return Status::Ok();
}

}  // namespace

Status ChunkStore::write_runs(const int64_t* index, const std::vector<Run>& runs) const {
  PARIO_ASSIGN_OR_RETURN(Place p, locate(index, true));
  Status s;
  std::vector<iovec> v;
  for (size_t first = 0, end = 0; s.ok() && first < runs.size(); first = end) {
    v.clear();  // the runs [first, end) follow each other in the file: one call
    do {
      v.push_back({const_cast<char*>(runs[end].src), runs[end].len});
      ++end;
    } while (end < runs.size() && runs[end].at == runs[end - 1].at + runs[end - 1].len);
    s = write_gathered(*p.file, p.offset + runs[first].at, v.data(), static_cast<int>(v.size()));
  }
  Status closed = p.done();
  return s.ok() ? closed : s;
}

Status ChunkStore::writev_bytes(const int64_t* index, const iovec* v, int n, size_t len) const {
  if (!meta_.sharded()) return write_chunk_file(index, v, n, len);
  PARIO_ASSIGN_OR_RETURN(Place p, locate(index, true));
  Status s = write_gathered(*p.file, p.offset, v, n);
  Status closed = p.done();
  return s.ok() ? closed : s;
}

// One file per chunk. An uncompressed chunk that exists is overwritten in
// place: its blocks are allocated, so a full disk cannot stop it midway
// (and truncating first cost a quarter of the time, above). A new chunk,
// or a zstd one (whose size changes), is written whole under no name and
// then takes its name (device::NewFile): a full disk or a crash leaves the
// old chunk or none, never a truncated one that neither pario nor zarr
// could read.
Status ChunkStore::write_chunk_file(const int64_t* index, const iovec* v, int n, size_t len) const {
  const std::string key = meta_.chunk_key(std::vector<int64_t>(index, index + meta_.chunks.size()));
  const std::string path = dir_ + "/" + key;
  PARIO_RETURN_IF_ERROR(check_dirs(dir_, key));
  if (!meta_.zstd) {
    device::OpenOptions o;
    o.write = true;
    Result<std::unique_ptr<device::Device>> f = storage_->open(path, o);
    if (f.ok()) {
      Status s = write_gathered(**f, 0, v, n);
      Result<uint64_t> size = (*f)->size();
      if (s.ok()) s = size.status();
      if (s.ok() && *size > len) s = (*f)->truncate(len);  // a longer foreign file
      Status closed = (*f)->close();
      return s.ok() ? closed : s;
    }
    if (f.status().code() != Code::kNotFound) return f.status();
  }
  PARIO_RETURN_IF_ERROR(make_dirs(dir_, key));
  return storage_->write_whole(path, true, [&](device::Device& f) { return write_gathered(f, 0, v, n); });
}

// The new shard is built in memory: its old chunks that stay (raw, as
// they were), the new ones encoded, packed in slot order after or before
// the index as the store says, like zarr-python's own shards.
Status ChunkStore::write_shard(const std::vector<NewChunk>& chunks) const {
  if (chunks.empty()) return Status::Ok();
  int64_t slot = 0;
  const std::vector<int64_t> shard = meta_.shard_index(
      std::vector<int64_t>(chunks[0].index, chunks[0].index + meta_.chunks.size()), &slot);
  const std::string key = meta_.chunk_key(shard), path = dir_ + "/" + key;
  std::vector<const char*> fresh(static_cast<size_t>(slots()), nullptr);
  for (const NewChunk& c : chunks) {
    std::vector<int64_t> ci(c.index, c.index + meta_.chunks.size());
    if (meta_.shard_index(ci, &slot) != shard) return Status(Code::kInternal, path + ": chunks of several shards");
    fresh[static_cast<size_t>(slot)] = c.bytes;
  }
  // The old shard's chunks that stay, one after the other in `old`, each
  // entry's offset made one into `old` (none: every slot starts empty).
  // Only the chunks its index names are read, each at most a chunk's
  // stored size (parse_shard_index): never a buffer as large as whatever
  // the file claims to be.
  std::vector<char> old;
  std::vector<uint64_t> entries(fresh.size() * 2, kEmptySlot);
  PARIO_RETURN_IF_ERROR(check_dirs(dir_, key));
  device::OpenOptions ro;
  Result<std::unique_ptr<device::Device>> f = storage_->open(path, ro);
  if (f.ok()) {
    Result<uint64_t> size = (*f)->size();
    Status s = size.status();
    Result<std::vector<uint64_t>> e = s.ok() ? read_index(**f, *size, path) : Result<std::vector<uint64_t>>(s);
    s = e.status();
    if (s.ok()) entries = std::move(e).value();
    for (size_t slot = 0; s.ok() && slot < fresh.size(); ++slot) {
      uint64_t& offset = entries[2 * slot];
      if (fresh[slot] || offset == kEmptySlot) continue;
      const size_t n = static_cast<size_t>(entries[2 * slot + 1]), at = old.size();
      if (n > *size - at) {  // more than the file holds: chunks that overlap
        s = Status(Code::kCorrupt, path + ": the shard index's chunks overlap (damaged?)");
        break;
      }
      old.resize(at + n);
      size_t got = 0;
      s = (*f)->read_at(offset, old.data() + at, n, &got);
      if (s.ok() && got != n) s = Status(Code::kCorrupt, path + ": shard shrank while read");
      offset = at;
    }
    Status closed = (*f)->close();
    PARIO_RETURN_IF_ERROR(s);
    PARIO_RETURN_IF_ERROR(closed);
  } else if (f.status().code() != Code::kNotFound) {
    return f.status();
  } else {
    PARIO_RETURN_IF_ERROR(make_dirs(dir_, key));
  }
  const size_t ib = index_bytes();
  const uint64_t data_at = meta_.index_at_end ? 0 : ib;
  std::vector<char> data, packed;
  std::vector<char> index(ib);
  for (size_t s = 0; s < fresh.size(); ++s) {
    const char* bytes = nullptr;
    size_t n = 0;
    if (fresh[s]) {
      bytes = fresh[s], n = chunk_bytes();
      if (meta_.zstd) {
        packed.resize(ZSTD_compressBound(n));
        n = ZSTD_compress(packed.data(), packed.size(), bytes, n, meta_.zstd_level);
        if (ZSTD_isError(n)) return Status(Code::kIo, path + ": zstd: " + ZSTD_getErrorName(n));
        bytes = packed.data();
      }
    } else if (entries[2 * s] != kEmptySlot) {
      bytes = old.data() + entries[2 * s], n = entries[2 * s + 1];
    }
    const uint64_t entry[2] = {bytes ? data_at + data.size() : kEmptySlot, bytes ? n : kEmptySlot};
    std::memcpy(index.data() + s * 16, entry, sizeof entry);
    if (bytes) data.insert(data.end(), bytes, bytes + n);
  }
  if (meta_.index_crc32c) {
    const uint32_t crc = crc32c(index.data(), ib - 4);
    std::memcpy(index.data() + ib - 4, &crc, 4);
  }
  // Made whole, then put in place: a reader sees the old shard or the new.
  Status s = storage_->write_whole(path, true, [&](device::Device& f) {
    PARIO_RETURN_IF_ERROR(f.write_at(meta_.index_at_end ? data.size() : 0, index.data(), ib));
    return f.write_at(data_at, data.data(), data.size());
  });
  std::lock_guard<std::mutex> lock(mu_);
  if (open_.erase(path)) --kept_open;  // the old shard, if read here: its index is stale now
  return s;
}

}  // namespace pario::diskarray
