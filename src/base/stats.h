// I/O statistics per file: calls, bytes, time, share of random accesses and
// a request-size histogram, per direction (read, write); global-array
// traffic per operation; collective I/O per direction (messages, bytes,
// rounds, file requests, time in exchange and in file I/O, buffers) and
// the decompositions made.
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
#include <iterator>
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

// Collective I/O (collective/transfer.h), one direction: the transfers a
// rank finished and, summed over them, what it did as a sender and, where
// it aggregates, as an aggregator. largest_request and peak_buffer_bytes
// are the largest over the transfers (over ranks too, in StatsTotals).
struct CollectiveSnapshot {
  uint64_t transfers = 0;
  uint64_t messages_sent = 0, messages_received = 0, bytes_sent = 0, bytes_received = 0;
  uint64_t rounds = 0;                                            // aggregator rounds
  uint64_t file_requests = 0, file_bytes = 0, largest_request = 0;  // the aggregator's I/O
  uint64_t exchange_nanos = 0;  // waiting on messages
  uint64_t io_nanos = 0;        // waiting on the file
  uint64_t peak_buffer_bytes = 0;  // packed copy, windows and staging held at once
};

// The fields of CollectiveSnapshot in the order tables, JSON and
// StatsTotals use: JSON key, table label, whether it is a largest (folded
// by max, not sum) and whether it counts nanoseconds (shown as seconds,
// the key then ends in "_seconds").
struct CollectiveField {
  const char* name;
  const char* label;
  uint64_t CollectiveSnapshot::*member;
  bool largest;
  bool nanos;
};
inline constexpr CollectiveField kCollectiveFields[] = {
    {"transfers", "transfers", &CollectiveSnapshot::transfers, false, false},
    {"messages_sent", "messages sent", &CollectiveSnapshot::messages_sent, false, false},
    {"messages_received", "messages received", &CollectiveSnapshot::messages_received, false, false},
    {"bytes_sent", "bytes sent", &CollectiveSnapshot::bytes_sent, false, false},
    {"bytes_received", "bytes received", &CollectiveSnapshot::bytes_received, false, false},
    {"rounds", "aggregator rounds", &CollectiveSnapshot::rounds, false, false},
    {"file_requests", "file requests", &CollectiveSnapshot::file_requests, false, false},
    {"file_bytes", "file bytes", &CollectiveSnapshot::file_bytes, false, false},
    {"largest_request", "largest request (bytes)", &CollectiveSnapshot::largest_request, true, false},
    {"exchange_seconds", "seconds in exchange", &CollectiveSnapshot::exchange_nanos, false, true},
    {"io_seconds", "seconds in file I/O", &CollectiveSnapshot::io_nanos, false, true},
    {"peak_buffer_bytes", "peak buffer bytes", &CollectiveSnapshot::peak_buffer_bytes, true, false},
};
inline constexpr int kCollectiveFieldCount = static_cast<int>(std::size(kCollectiveFields));

// Decompositions made (Decomposition::create): how many, the time they
// took, and the bytes of plan they keep (summed over them).
struct SetupSnapshot {
  uint64_t decompositions = 0, nanos = 0, plan_bytes = 0;
};

class CollectiveStats {
 public:
  // Adds `one` (a finished transfer: transfers = 1) to direction dir.
  void record(IoDir dir, const CollectiveSnapshot& one);
  // One decomposition made in `nanos`, keeping plan_bytes of plan.
  void record_setup(uint64_t nanos, uint64_t plan_bytes);
  CollectiveSnapshot snapshot(IoDir dir) const;
  SetupSnapshot setup() const;
  void clear();

 private:
  std::array<std::array<std::atomic<uint64_t>, kCollectiveFieldCount>, 2> dirs_{};
  std::array<std::atomic<uint64_t>, 3> setup_{};  // as SetupSnapshot
};

// The counters that add up over processes (summed at pario_finalize): file
// I/O per direction, over all files and per path (a shared file's ranks all
// count under its one path), global-array traffic per operation, and
// collective I/O per direction.
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
  // Collective I/O: per direction (read, write) the fields of
  // kCollectiveFields, then the setups' three. collective is summed over
  // processes, collective_most takes each one's largest (the busiest rank:
  // an aggregator); a table or JSON shows a largest field's sum as its
  // largest.
  static constexpr int kSetupFields = 3;
  static constexpr int kCollectiveValues = 2 * kCollectiveFieldCount + kSetupFields;
  std::array<uint64_t, kCollectiveValues> collective{}, collective_most{};

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
  // Process-wide collective I/O counters.
  CollectiveStats& collective() { return collective_; }

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
  CollectiveStats collective_;
};

// Monotonic nanoseconds for timing operations.
uint64_t now_nanos();

// JSON string literal for s (quotes and escapes included).
std::string json_quote(const std::string& s);

}  // namespace pario
