#include "base/config.h"

#include <fnmatch.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>

#include "base/stats.h"

namespace pario {
namespace {

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return (v && *v) ? v : nullptr;
}

Status bad_value(const char* name, const char* value, const char* expected) {
  return Status(Code::kInvalidArgument,
                std::string(name) + "=" + value + ": expected " + expected);
}

Status parse_int(const char* name, long lo, long hi, long* out) {
  const char* v = env(name);
  if (!v) return Status::Ok();
  char* end = nullptr;
  errno = 0;
  long x = std::strtol(v, &end, 10);
  if (errno != 0 || end == v || *end != '\0' || x < lo || x > hi) {
    std::string expected =
        "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
    return bad_value(name, v, expected.c_str());
  }
  *out = x;
  return Status::Ok();
}

// A byte count: digits with an optional K, M, G or T (powers of 1024), or
// a percentage of this machine's physical memory ("25%").
bool parse_size(const char* v, uint64_t* out) {
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(v, &end);
  const std::string unit = end ? end : "";
  double scale = 0;
  if (unit.empty()) scale = 1;
  else if (unit == "K" || unit == "k") scale = 1024.0;
  else if (unit == "M") scale = 1024.0 * 1024;
  else if (unit == "G") scale = 1024.0 * 1024 * 1024;
  else if (unit == "T") scale = 1024.0 * 1024 * 1024 * 1024;
  else if (unit == "%" && x <= 100) {
    scale = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE) / 100;
  }
  if (errno != 0 || end == v || x < 0 || scale == 0 || x * scale > 9.2e18) return false;
  *out = static_cast<uint64_t>(x * scale);
  return true;
}
constexpr const char* kSizeExpected = "a size in bytes, with K, M, G or T, or a percentage of RAM like 25%";

Status parse_bytes(const char* name, uint64_t* out) {
  const char* v = env(name);
  if (v && !parse_size(v, out)) return bad_value(name, v, kSizeExpected);
  return Status::Ok();
}

// "none" (-1), "zstd" (zstd's default level, 3) or "zstd:LEVEL".
bool parse_codec(const char* v, int* zstd_level) {
  if (!strcmp(v, "none") || !strcmp(v, "zstd")) {
    *zstd_level = v[0] == 'n' ? -1 : 3;
    return true;
  }
  if (strncmp(v, "zstd:", 5) != 0) return false;
  char* end = nullptr;
  const long level = std::strtol(v + 5, &end, 10);
  if (end == v + 5 || *end != '\0' || level < 1 || level > 22) return false;
  *zstd_level = static_cast<int>(level);
  return true;
}

bool parse_spill(const std::string& v, bool* spill) {
  if (v == "disk") *spill = true;
  else if (v == "error") *spill = false;
  else return false;
  return true;
}

// PARIO_FIM_RULES: a file of Files-in-Memory rules, one per line:
//   # a comment
//   *.int.*            a file-name pattern that goes to RAM
//   budget = 8G        the RAM budget per node
//   spill = disk       or error
// The environment's PARIO_FIM patterns add to the file's; its
// PARIO_FIM_BUDGET and PARIO_FIM_SPILL override the file's.
Status parse_fim_rules(const char* path, Config* c) {
  std::ifstream in(path);
  if (!in) return Status(Code::kInvalidArgument, std::string("PARIO_FIM_RULES=") + path + ": cannot read it");
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const auto trim = [](std::string t) {
      const size_t a = t.find_first_not_of(" \t\r"), b = t.find_last_not_of(" \t\r");
      return a == std::string::npos ? std::string() : t.substr(a, b - a + 1);
    };
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    const std::string where = std::string("PARIO_FIM_RULES=") + path + ":" + std::to_string(n) + ": ";
    const size_t eq = line.find('=');
    if (eq == std::string::npos) {
      c->fim_patterns.push_back(line);
      continue;
    }
    const std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    if (key == "budget") {
      if (!parse_size(value.c_str(), &c->fim_budget)) {
        return Status(Code::kInvalidArgument, where + "budget " + value + ": expected " + kSizeExpected);
      }
    } else if (key == "spill") {
      if (!parse_spill(value, &c->fim_spill)) {
        return Status(Code::kInvalidArgument, where + "spill " + value + ": expected disk or error");
      }
    } else {
      return Status(Code::kInvalidArgument, where + "unknown setting '" + key + "' (budget or spill)");
    }
  }
  return Status::Ok();
}

Status parse_bool(const char* name, bool* out) {
  const char* v = env(name);
  if (!v) return Status::Ok();
  if (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") ||
      !strcasecmp(v, "on")) {
    *out = true;
  } else if (!strcmp(v, "0") || !strcasecmp(v, "no") ||
             !strcasecmp(v, "false") || !strcasecmp(v, "off")) {
    *out = false;
  } else {
    return bad_value(name, v, "0 or 1");
  }
  return Status::Ok();
}

std::vector<std::string> split_dirs(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(':', start);
    if (end == std::string::npos) end = s.size();
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// "0,4,8": non-negative ints separated by commas, at least one.
bool parse_rank_list(const char* v, std::vector<int>* out) {
  out->clear();
  const char* p = v;
  while (true) {
    char* end = nullptr;
    errno = 0;
    const long r = std::strtol(p, &end, 10);
    if (end == p || errno != 0 || r < 0 || r > (1L << 24)) return false;
    out->push_back(static_cast<int>(r));
    if (*end == '\0') return true;
    if (*end != ',') return false;
    p = end + 1;
  }
}

}  // namespace

const char* io_engine_choice_name(IoEngineChoice choice) {
  switch (choice) {
    case IoEngineChoice::kAuto: return "auto";
    case IoEngineChoice::kUring: return "io_uring";
    case IoEngineChoice::kThreads: return "threads";
    case IoEngineChoice::kSync: return "sync";
  }
  return "?";
}

Result<Config> parse_config_from_env() {
  Config c;
  if (const char* v = env("PARIO_SCRATCH")) {
    c.scratch_dirs = split_dirs(v);
    if (c.scratch_dirs.empty()) {
      return bad_value("PARIO_SCRATCH", v, "one or more directories separated by ':'");
    }
  } else {
    c.scratch_dirs.push_back(env("TMPDIR") ? env("TMPDIR") : "/tmp");
  }
  if (const char* v = env("PARIO_IO_ENGINE")) {
    if (!strcmp(v, "auto")) c.io_engine = IoEngineChoice::kAuto;
    else if (!strcmp(v, "io_uring") || !strcmp(v, "uring")) c.io_engine = IoEngineChoice::kUring;
    else if (!strcmp(v, "threads")) c.io_engine = IoEngineChoice::kThreads;
    else if (!strcmp(v, "sync")) c.io_engine = IoEngineChoice::kSync;
    else return bad_value("PARIO_IO_ENGINE", v, "auto, io_uring, threads or sync");
  }
  long x = c.async_threads;
  PARIO_RETURN_IF_ERROR(parse_int("PARIO_ASYNC_THREADS", 1, 256, &x));
  c.async_threads = static_cast<int>(x);
  x = c.uring_depth;
  PARIO_RETURN_IF_ERROR(parse_int("PARIO_URING_DEPTH", 1, 4096, &x));
  c.uring_depth = static_cast<unsigned>(x);
  PARIO_RETURN_IF_ERROR(parse_bool("PARIO_DIRECT", &c.direct_io));
  PARIO_RETURN_IF_ERROR(parse_bool("PARIO_STATS", &c.stats));
  if (const char* v = env("PARIO_STATS_FILE")) c.stats_file = v;
  x = 0;
  PARIO_RETURN_IF_ERROR(parse_int("PARIO_RANKS_PER_NODE", 0, 1 << 20, &x));
  c.ranks_per_node = static_cast<int>(x);
  if (const char* v = env("PARIO_ARRAY_WINDOW")) {
    if (!strcmp(v, "auto")) c.array_window = ArrayWindowChoice::kAuto;
    else if (!strcmp(v, "shared")) c.array_window = ArrayWindowChoice::kShared;
    else if (!strcmp(v, "create")) c.array_window = ArrayWindowChoice::kCreate;
    else return bad_value("PARIO_ARRAY_WINDOW", v, "auto, shared or create");
  }
  if (const char* v = env("PARIO_FILE_BACKEND")) {
    if (!strcmp(v, "posix")) c.file_backend = FileBackendChoice::kPosix;
    else if (!strcmp(v, "striped")) c.file_backend = FileBackendChoice::kStriped;
    else if (!strcmp(v, "mpiio")) c.file_backend = FileBackendChoice::kMpiio;
    else return bad_value("PARIO_FILE_BACKEND", v, "posix, striped or mpiio");
  }
  x = 0;
  PARIO_RETURN_IF_ERROR(parse_int("PARIO_STRIPE_SIZE", 0, 1L << 30, &x));
  c.stripe_size = static_cast<uint64_t>(x);
  c.fim_budget = static_cast<uint64_t>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE) / 4;
  if (const char* v = env("PARIO_FIM_RULES")) PARIO_RETURN_IF_ERROR(parse_fim_rules(v, &c));
  if (const char* v = env("PARIO_FIM")) {
    const std::string list = v;
    const size_t before = c.fim_patterns.size();
    size_t at = 0;
    while (at <= list.size()) {
      size_t next = list.find_first_of(":,", at);
      if (next == std::string::npos) next = list.size();
      if (next > at) c.fim_patterns.push_back(list.substr(at, next - at));
      at = next + 1;
    }
    if (c.fim_patterns.size() == before) return bad_value("PARIO_FIM", v, "file-name patterns like '*.int:ERI*'");
  }
  PARIO_RETURN_IF_ERROR(parse_bytes("PARIO_FIM_BUDGET", &c.fim_budget));
  PARIO_RETURN_IF_ERROR(parse_bytes("PARIO_DISK_ARRAY_BUFFER", &c.disk_array_buffer));
  PARIO_RETURN_IF_ERROR(parse_bytes("PARIO_DISK_ARRAY_SHARD", &c.disk_array_shard));
  if (const char* v = env("PARIO_DISK_ARRAY_CODEC")) {
    if (!parse_codec(v, &c.disk_array_zstd_level)) {
      return bad_value("PARIO_DISK_ARRAY_CODEC", v, "none, zstd or zstd:LEVEL (1 to 22)");
    }
  }
  if (const char* v = env("PARIO_FIM_SPILL")) {
    if (!parse_spill(v, &c.fim_spill)) return bad_value("PARIO_FIM_SPILL", v, "disk or error");
  }
  x = 0;
  PARIO_RETURN_IF_ERROR(parse_int("PARIO_AGGREGATORS", 0, 1 << 24, &x));
  c.aggregators = static_cast<int>(x);
  if (const char* v = env("PARIO_AGGREGATOR_RANKS")) {
    if (!parse_rank_list(v, &c.aggregator_ranks)) {
      return bad_value("PARIO_AGGREGATOR_RANKS", v, "group ranks separated by commas, like 0,4,8");
    }
  }
  PARIO_RETURN_IF_ERROR(parse_bytes("PARIO_AGGREGATOR_BUFFER", &c.aggregator_buffer));
  if (c.aggregator_buffer < 1 || c.aggregator_buffer > (uint64_t{1} << 30)) {
    return bad_value("PARIO_AGGREGATOR_BUFFER", env("PARIO_AGGREGATOR_BUFFER"), "1 byte to 1 GiB");
  }
  if (const char* v = env("PARIO_COLLECTIVE_CONVERT")) {
    if (!strcmp(v, "auto")) c.collective_convert = CollectiveConvertChoice::kAuto;
    else if (!strcmp(v, "sender")) c.collective_convert = CollectiveConvertChoice::kSender;
    else if (!strcmp(v, "aggregator")) c.collective_convert = CollectiveConvertChoice::kAggregator;
    else return bad_value("PARIO_COLLECTIVE_CONVERT", v, "auto, sender or aggregator");
  }
  if (const char* v = env("PARIO_WAVEFUNCTION_TRANSFER")) {
    if (!strcmp(v, "independent")) c.wavefunction_transfer = WavefunctionTransferChoice::kIndependent;
    else if (!strcmp(v, "collective")) c.wavefunction_transfer = WavefunctionTransferChoice::kCollective;
    else if (!strcmp(v, "aggregators")) c.wavefunction_transfer = WavefunctionTransferChoice::kAggregators;
    else return bad_value("PARIO_WAVEFUNCTION_TRANSFER", v, "independent, collective or aggregators");
  }
  return c;
}

bool fim_matches(const std::vector<std::string>& patterns, const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  for (const std::string& p : patterns) {
    const bool whole = p.find('/') != std::string::npos;
    if (::fnmatch(p.c_str(), (whole ? path : name).c_str(), 0) == 0) return true;
  }
  return false;
}

Result<const Config*> config() {
  static std::once_flag once;
  static Config parsed;
  static Status error;
  std::call_once(once, [] {
    Result<Config> r = parse_config_from_env();
    if (r.ok()) {
      parsed = std::move(r).value();
      StatsRegistry::global().set_enabled(parsed.stats || !parsed.stats_file.empty());
    } else {
      error = std::move(r).status().with_context("pario configuration");
    }
  });
  if (!error.ok()) return error;
  return &parsed;
}

}  // namespace pario
