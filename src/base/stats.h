// I/O statistics per file: calls, bytes, time, share of random accesses and
// a request-size histogram, per direction (read, write).
//
// Collection is off unless PARIO_STATS or PARIO_STATS_FILE is set: a page
// cache hit costs about a microsecond and two clock reads would be a visible
// share of it. When on, counters are relaxed atomics updated by whichever
// thread completes the operation (async completions included).
//
// A FileStats lives in the process-wide registry under the file's path and
// is shared by every open of that path, so reopening accumulates.
//
// Thread safety: all members are safe for concurrent use.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace pario {

enum class IoDir { kRead = 0, kWrite = 1 };

// Histogram buckets: [0] <= 512 B, [k] <= 512 B << k, last bucket open-ended.
constexpr int kSizeBuckets = 20;
int size_bucket(uint64_t bytes);
uint64_t size_bucket_upper(int bucket);  // 0 for the open-ended bucket

struct DirCounters {
  std::atomic<uint64_t> calls{0};
  std::atomic<uint64_t> async_calls{0};
  std::atomic<uint64_t> bytes{0};
  std::atomic<uint64_t> nanos{0};
  std::atomic<uint64_t> random{0};  // calls not starting where the last ended
  std::array<std::atomic<uint64_t>, kSizeBuckets> histogram{};
};

struct DirSnapshot {
  uint64_t calls = 0, async_calls = 0, bytes = 0, nanos = 0, random = 0;
  std::array<uint64_t, kSizeBuckets> histogram{};
};

class FileStats {
 public:
  explicit FileStats(std::string path) : path_(std::move(path)) {}

  // Records one completed transfer of `bytes` at `offset` that took `nanos`.
  void record(IoDir dir, bool async, uint64_t offset, uint64_t bytes,
              uint64_t nanos);
  void note_size(uint64_t size) { size_.store(size, std::memory_order_relaxed); }
  // Files in Memory: bytes the file holds in RAM, and bytes that spilled
  // to disk because the RAM budget was spent.
  void note_residence(uint64_t ram, uint64_t spilled) {
    ram_.store(ram, std::memory_order_relaxed);
    spilled_.store(spilled, std::memory_order_relaxed);
  }
  uint64_t ram_bytes() const { return ram_.load(std::memory_order_relaxed); }
  uint64_t spilled_bytes() const { return spilled_.load(std::memory_order_relaxed); }

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_.load(std::memory_order_relaxed); }
  DirSnapshot snapshot(IoDir dir) const;

 private:
  std::string path_;
  std::atomic<uint64_t> size_{0};
  std::atomic<uint64_t> ram_{0}, spilled_{0};
  std::atomic<uint64_t> last_end_{UINT64_MAX};
  std::array<DirCounters, 2> dirs_;
};

// Global-array traffic, like the DDI paper's Table 2: calls and bytes of
// get, put, accumulate and fetch-and-accumulate (DDI_GetAcc), split into node-local (plain memory copies) and
// remote (MPI RMA), plus the RMA messages the remote calls took (one per
// remote node a section touches, when coalescing works).
enum class RmaOp { kGet = 0, kPut = 1, kAcc = 2, kGetAcc = 3 };
inline constexpr RmaOp kRmaOps[] = {RmaOp::kGet, RmaOp::kPut, RmaOp::kAcc, RmaOp::kGetAcc};
const char* rma_op_name(RmaOp op);

struct RmaSnapshot {
  uint64_t local_calls = 0, local_bytes = 0, remote_calls = 0, remote_bytes = 0, messages = 0;
};

class RmaStats {
 public:
  // One call that moved local_bytes by memory copy and remote_bytes in
  // `messages` RMA operations.
  void record(RmaOp op, uint64_t local_bytes, uint64_t remote_bytes, uint64_t messages);
  RmaSnapshot snapshot(RmaOp op) const;
  void clear();

 private:
  struct Counters {
    std::atomic<uint64_t> local_calls{0}, local_bytes{0}, remote_calls{0}, remote_bytes{0},
        messages{0};
  };
  std::array<Counters, std::size(kRmaOps)> ops_;
};

// The counters that add up over processes (summed at pario_finalize): file
// I/O per direction, over all files and per path (a shared file's ranks all
// count under its one path), and global-array traffic per operation.
struct StatsTotals {
  static constexpr int kFileFields = 4;  // calls, async calls, bytes, nanoseconds
  static constexpr int kRmaFields = 5;   // as RmaSnapshot
  std::array<uint64_t, 2 * kFileFields + std::size(kRmaOps) * kRmaFields> v{};
  struct PathSums {
    uint64_t ranks = 0;  // processes that opened the path
    uint64_t size = 0;   // the largest size any of them saw
    // Files in Memory: bytes in RAM and spilled. A shared file's ranks all
    // report the one file's counts, so these take the largest, not the sum.
    uint64_t ram = 0, spilled = 0;
    std::array<uint64_t, 2 * kFileFields> v{};  // per direction, as above
  };
  std::map<std::string, PathSums> paths;

  // The per-path sums as bytes, and adding such bytes from another process
  // (MPI moves them; base has no MPI). merge_paths returns false on bytes
  // pack_paths did not make.
  std::string pack_paths() const;
  bool merge_paths(const char* data, size_t size);
  // Summed over `ranks` processes.
  std::string table(int ranks) const;
  std::string json(int ranks) const;
};

class StatsRegistry {
 public:
  static StatsRegistry& global();

  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }
  void set_enabled(bool on) { enabled_.store(on, std::memory_order_relaxed); }

  // The stats object of `path`, created on first use.
  std::shared_ptr<FileStats> for_path(const std::string& path);
  // Process-wide global-array counters.
  RmaStats& rma() { return rma_; }

  // Process-wide facts worth reporting (e.g. which I/O engine runs and why).
  void set_note(const std::string& key, const std::string& value);
  std::string note(const std::string& key) const;

  // A human-readable table, and the same data as one JSON object.
  std::string table() const;
  std::string json(int rank) const;
  // This process's share of the totals.
  StatsTotals totals() const;
  void clear();

 private:
  std::atomic<bool> enabled_{false};
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<FileStats>> files_;
  std::map<std::string, std::string> notes_;
  RmaStats rma_;
};

// Monotonic nanoseconds for timing operations.
uint64_t now_nanos();

// JSON string literal for s (quotes and escapes included).
std::string json_quote(const std::string& s);

}  // namespace pario
