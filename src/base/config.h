// Run-time configuration: environment variables read once per process.
//
// Every run-time choice (where scratch goes, which I/O engine, statistics)
// is parsed here and nowhere else, so that all languages see the same names.
// Only the C boundary calls config(): capi/options.h turns it into the
// options structs the layers below take as arguments. The table of
// variables is in the README; keep the two in step.
//
// Thread safety: config() parses on first use under std::call_once and is
// read-only afterwards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace pario {

enum class IoEngineChoice { kAuto, kUring, kThreads, kSync };
// How global arrays build their RMA windows (see array/global_array.cpp).
enum class ArrayWindowChoice { kAuto, kShared, kCreate };
// Where scratch files' bytes live (see file/backend.h).
enum class FileBackendChoice { kPosix, kStriped, kMpiio };
// Where collective I/O converts between memory and file types (see
// collective/transfer.h).
enum class CollectiveConvertChoice { kAuto, kSender, kAggregator };
// How MFDn wave-function vectors reach their file (see dataset/wavefunction.h).
enum class WavefunctionTransferChoice { kIndependent = 1, kCollective = 2, kAggregators = 3 };

struct Config {
  std::vector<std::string> scratch_dirs;  // PARIO_SCRATCH (':'-separated)
  IoEngineChoice io_engine = IoEngineChoice::kAuto;  // PARIO_IO_ENGINE
  int async_threads = 4;         // PARIO_ASYNC_THREADS
  uint64_t disk_array_buffer = uint64_t{64} << 20;  // PARIO_DISK_ARRAY_BUFFER (per rank and transfer)
  // PARIO_DISK_ARRAY_CODEC: new disk arrays' chunks uncompressed ("none",
  // -1 here) or zstd ("zstd" or "zstd:LEVEL", the level here).
  int disk_array_zstd_level = -1;
  // PARIO_DISK_ARRAY_SHARD: new uncompressed disk arrays group their chunks
  // into shard files of about this many bytes (0: one file per chunk).
  uint64_t disk_array_shard = uint64_t{64} << 20;
  unsigned uring_depth = 128;    // PARIO_URING_DEPTH
  bool direct_io = false;        // PARIO_DIRECT
  bool stats = false;            // PARIO_STATS (table at finalize)
  std::string stats_file;        // PARIO_STATS_FILE (JSON at finalize)
  int ranks_per_node = 0;        // PARIO_RANKS_PER_NODE (0 = real nodes)
  ArrayWindowChoice array_window = ArrayWindowChoice::kAuto;  // PARIO_ARRAY_WINDOW
  FileBackendChoice file_backend = FileBackendChoice::kPosix;  // PARIO_FILE_BACKEND
  uint64_t stripe_size = 0;      // PARIO_STRIPE_SIZE (0: chosen from the file's hints)
  // Files in Memory (see file/fim.h): file-name patterns that go to RAM,
  // the RAM budget per node in bytes, and what a spent budget means.
  std::vector<std::string> fim_patterns;  // PARIO_FIM_RULES file, then PARIO_FIM (':' or ',' globs)
  uint64_t fim_budget = 0;                // PARIO_FIM_BUDGET (bytes, K/M/G/T or N% of RAM)
  bool fim_spill = true;                  // PARIO_FIM_SPILL=disk (true) or error
  // Collective I/O (collective/decomposition.h): aggregators per group
  // (0: one per node), or exactly these group ranks, and each one's buffer.
  int aggregators = 0;                    // PARIO_AGGREGATORS
  std::vector<int> aggregator_ranks;      // PARIO_AGGREGATOR_RANKS (comma list)
  uint64_t aggregator_buffer = uint64_t{16} << 20;  // PARIO_AGGREGATOR_BUFFER (bytes, K/M/G)
  CollectiveConvertChoice collective_convert = CollectiveConvertChoice::kAuto;  // PARIO_COLLECTIVE_CONVERT
  // The wave-function file's transfer when a call passes no hint.
  WavefunctionTransferChoice wavefunction_transfer = WavefunctionTransferChoice::kIndependent;  // PARIO_WAVEFUNCTION_TRANSFER
};

// Whether a file's path matches one of the PARIO_FIM patterns: a pattern
// with a '/' is matched against the whole path, others against the name.
bool fim_matches(const std::vector<std::string>& patterns, const std::string& path);

// Parses the environment. A malformed value is an error naming the variable
// and what was expected; nothing is guessed.
Result<Config> parse_config_from_env();

// The process-wide configuration, parsed once. If parsing failed, every
// later call returns the same error.
Result<const Config*> config();

const char* io_engine_choice_name(IoEngineChoice choice);

}  // namespace pario
