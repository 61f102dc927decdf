#include "base/stats.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <vector>

namespace pario {
namespace {

// A path cut to its last `width` characters, for table columns.
std::string shorten(const std::string& path, size_t width) {
  return path.size() > width ? "..." + path.substr(path.size() - (width - 3)) : path;
}

}  // namespace

int size_bucket(uint64_t bytes) {
  int b = 0;
  uint64_t upper = 512;
  while (bytes > upper && b < kSizeBuckets - 1) {
    upper <<= 1;
    ++b;
  }
  return b;
}

uint64_t size_bucket_upper(int bucket) {
  return bucket >= kSizeBuckets - 1 ? 0 : (uint64_t{512} << bucket);
}

void FileStats::record(IoDir dir, bool async, uint64_t offset, uint64_t bytes,
                       uint64_t nanos) {
  auto& d = dirs_[static_cast<int>(dir)];
  constexpr auto r = std::memory_order_relaxed;
  d.calls.fetch_add(1, r);
  if (async) d.async_calls.fetch_add(1, r);
  d.bytes.fetch_add(bytes, r);
  d.nanos.fetch_add(nanos, r);
  // Sequential means "starts where the previous access of either direction
  // ended"; a concurrent interleaving can only make this look more random.
  if (last_end_.exchange(offset + bytes, r) != offset) d.random.fetch_add(1, r);
  d.histogram[size_bucket(bytes)].fetch_add(1, r);
  if (dir == IoDir::kWrite) {
    uint64_t end = offset + bytes, cur = size_.load(r);
    while (end > cur && !size_.compare_exchange_weak(cur, end, r)) {
    }
  }
}

DirSnapshot FileStats::snapshot(IoDir dir) const {
  const auto& d = dirs_[static_cast<int>(dir)];
  constexpr auto r = std::memory_order_relaxed;
  DirSnapshot s;
  s.calls = d.calls.load(r);
  s.async_calls = d.async_calls.load(r);
  s.bytes = d.bytes.load(r);
  s.nanos = d.nanos.load(r);
  s.random = d.random.load(r);
  for (int i = 0; i < kSizeBuckets; ++i) s.histogram[i] = d.histogram[i].load(r);
  return s;
}

StatsRegistry& StatsRegistry::global() {
  static StatsRegistry* registry = new StatsRegistry();  // never destroyed:
  return *registry;  // async completions may record during static teardown
}

std::shared_ptr<FileStats> StatsRegistry::for_path(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& slot = files_[path];
  if (!slot) slot = std::make_shared<FileStats>(path);
  return slot;
}

void StatsRegistry::set_note(const std::string& key, const std::string& value) {
  std::lock_guard<std::mutex> lock(mu_);
  notes_[key] = value;
}

std::string StatsRegistry::note(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = notes_.find(key);
  return it == notes_.end() ? std::string() : it->second;
}

void StatsRegistry::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  files_.clear();
  rma_.clear();
  collective_.clear();
}

namespace {

double mb_per_s(const DirSnapshot& s) {
  return s.nanos ? (s.bytes / 1e6) / (s.nanos / 1e9) : 0.0;
}

double random_share(const DirSnapshot& s) {
  return s.calls ? static_cast<double>(s.random) / s.calls : 0.0;
}

}  // namespace

const char* rma_op_name(RmaOp op) {
  switch (op) {
    case RmaOp::kGet: return "get";
    case RmaOp::kPut: return "put";
    case RmaOp::kAcc: return "acc";
    case RmaOp::kGetAcc: return "getacc";
  }
  return "?";
}

void RmaStats::record(RmaOp op, uint64_t local_bytes, uint64_t remote_bytes, uint64_t messages) {
  Counters& c = ops_[static_cast<int>(op)];
  const auto relaxed = std::memory_order_relaxed;
  if (local_bytes || !remote_bytes) {
    c.local_calls.fetch_add(1, relaxed);
    c.local_bytes.fetch_add(local_bytes, relaxed);
  }
  if (remote_bytes) {
    c.remote_calls.fetch_add(1, relaxed);
    c.remote_bytes.fetch_add(remote_bytes, relaxed);
    c.messages.fetch_add(messages, relaxed);
  }
}

RmaSnapshot RmaStats::snapshot(RmaOp op) const {
  const Counters& c = ops_[static_cast<int>(op)];
  const auto relaxed = std::memory_order_relaxed;
  return {c.local_calls.load(relaxed), c.local_bytes.load(relaxed), c.remote_calls.load(relaxed),
          c.remote_bytes.load(relaxed), c.messages.load(relaxed)};
}

void RmaStats::clear() {
  for (Counters& c : ops_) {
    for (auto* a : {&c.local_calls, &c.local_bytes, &c.remote_calls, &c.remote_bytes, &c.messages}) {
      a->store(0, std::memory_order_relaxed);
    }
  }
}

void CollectiveStats::record(IoDir dir, const CollectiveSnapshot& one) {
  auto& d = dirs_[static_cast<int>(dir)];
  const auto relaxed = std::memory_order_relaxed;
  for (int i = 0; i < kCollectiveFieldCount; ++i) {
    const uint64_t x = one.*kCollectiveFields[i].member;
    if (!kCollectiveFields[i].largest) {
      d[i].fetch_add(x, relaxed);
      continue;
    }
    uint64_t cur = d[i].load(relaxed);
    while (x > cur && !d[i].compare_exchange_weak(cur, x, relaxed)) {
    }
  }
}

void CollectiveStats::record_setup(uint64_t nanos, uint64_t plan_bytes) {
  const auto relaxed = std::memory_order_relaxed;
  setup_[0].fetch_add(1, relaxed);
  setup_[1].fetch_add(nanos, relaxed);
  setup_[2].fetch_add(plan_bytes, relaxed);
}

CollectiveSnapshot CollectiveStats::snapshot(IoDir dir) const {
  const auto& d = dirs_[static_cast<int>(dir)];
  CollectiveSnapshot s;
  for (int i = 0; i < kCollectiveFieldCount; ++i) s.*kCollectiveFields[i].member = d[i].load(std::memory_order_relaxed);
  return s;
}

SetupSnapshot CollectiveStats::setup() const {
  const auto relaxed = std::memory_order_relaxed;
  return {setup_[0].load(relaxed), setup_[1].load(relaxed), setup_[2].load(relaxed)};
}

void CollectiveStats::clear() {
  for (auto& d : dirs_)
    for (auto& a : d) a.store(0, std::memory_order_relaxed);
  for (auto& a : setup_) a.store(0, std::memory_order_relaxed);
}

namespace {

// The collective I/O rows of a table: one per field, one column per
// snapshot (headed by heads[k]), then the setups. Empty when nothing ran.
std::string collective_rows(const std::vector<const char*>& heads, const std::vector<CollectiveSnapshot>& cols,
                            const SetupSnapshot& setup) {
  bool any = setup.decompositions > 0;
  for (const CollectiveSnapshot& c : cols) any = any || c.transfers > 0;
  if (!any) return "";
  std::ostringstream out;
  char line[256];
  std::snprintf(line, sizeof line, "  %-26s", "collective I/O");
  out << line;
  for (const char* h : heads) {
    std::snprintf(line, sizeof line, " %14s", h);
    out << line;
  }
  out << "\n";
  for (const CollectiveField& f : kCollectiveFields) {
    std::snprintf(line, sizeof line, "  %-26s", f.label);
    out << line;
    for (const CollectiveSnapshot& c : cols) {
      if (f.nanos) {
        std::snprintf(line, sizeof line, " %14.6f", (c.*f.member) / 1e9);
      } else {
        std::snprintf(line, sizeof line, " %14" PRIu64, c.*f.member);
      }
      out << line;
    }
    out << "\n";
  }
  std::snprintf(line, sizeof line,
                "  decompositions made: %" PRIu64 " in %.6f s, keeping %" PRIu64 " bytes of plan\n",
                setup.decompositions, setup.nanos / 1e9, setup.plan_bytes);
  out << line;
  return out.str();
}

// {"transfers": .., ..., "peak_buffer_bytes": ..} of one direction.
std::string collective_json(const CollectiveSnapshot& c) {
  std::ostringstream out;
  out << "{";
  for (const CollectiveField& f : kCollectiveFields) {
    out << (&f == kCollectiveFields ? "" : ", ") << "\"" << f.name << "\": ";
    if (f.nanos) {
      out << (c.*f.member) / 1e9;
    } else {
      out << c.*f.member;
    }
  }
  out << "}";
  return out.str();
}

std::string setup_json(const SetupSnapshot& s) {
  std::ostringstream out;
  out << "{\"decompositions\": " << s.decompositions << ", \"seconds\": " << s.nanos / 1e9
      << ", \"plan_bytes\": " << s.plan_bytes << "}";
  return out.str();
}

// StatsTotals's collective values: read (0) and write (1), then the setup.
void put_collective(const CollectiveSnapshot (&dirs)[2], const SetupSnapshot& setup,
                    std::array<uint64_t, StatsTotals::kCollectiveValues>* v) {
  for (int d = 0; d < 2; ++d) {
    for (int i = 0; i < kCollectiveFieldCount; ++i) (*v)[d * kCollectiveFieldCount + i] = dirs[d].*kCollectiveFields[i].member;
  }
  uint64_t* s = &(*v)[2 * kCollectiveFieldCount];
  s[0] = setup.decompositions;
  s[1] = setup.nanos;
  s[2] = setup.plan_bytes;
}

CollectiveSnapshot get_collective(const std::array<uint64_t, StatsTotals::kCollectiveValues>& sum,
                                  const std::array<uint64_t, StatsTotals::kCollectiveValues>& most, int dir,
                                  bool largest_only) {
  CollectiveSnapshot c;
  for (int i = 0; i < kCollectiveFieldCount; ++i) {
    const int at = dir * kCollectiveFieldCount + i;
    c.*kCollectiveFields[i].member = largest_only || kCollectiveFields[i].largest ? most[at] : sum[at];
  }
  return c;
}

SetupSnapshot get_setup(const std::array<uint64_t, StatsTotals::kCollectiveValues>& v) {
  const uint64_t* s = &v[2 * kCollectiveFieldCount];
  return {s[0], s[1], s[2]};
}

}  // namespace

std::string StatsRegistry::table() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::ostringstream out;
  char line[512];
  out << "pario I/O statistics\n";
  for (const auto& [k, v] : notes_) out << "  " << k << ": " << v << "\n";
  std::snprintf(line, sizeof line, "  %-40s %5s %10s %12s %10s %8s %7s\n", "file",
                "dir", "calls", "bytes", "MB/s", "random", "async");
  out << line;
  for (const auto& [path, fs] : files_) {
    for (IoDir dir : {IoDir::kRead, IoDir::kWrite}) {
      DirSnapshot s = fs->snapshot(dir);
      if (!s.calls) continue;
      const std::string shown = shorten(path, 40);
      std::snprintf(line, sizeof line,
                    "  %-40s %5s %10" PRIu64 " %12" PRIu64 " %10.1f %7.0f%% %7" PRIu64 "\n",
                    shown.c_str(), dir == IoDir::kRead ? "read" : "write", s.calls,
                    s.bytes, mb_per_s(s), 100.0 * random_share(s), s.async_calls);
      out << line;
    }
    if (fs->ram_bytes() || fs->spilled_bytes()) {
      std::snprintf(line, sizeof line, "  %-40s in RAM %" PRIu64 " bytes, spilled to disk %" PRIu64 " bytes%s\n",
                    "", fs->ram_bytes(), fs->spilled_bytes(),
                    fs->spilled_bytes() ? " (the RAM budget was spent)" : "");
      out << line;
    }
  }
  bool header = false;
  for (RmaOp op : kRmaOps) {
    RmaSnapshot r = rma_.snapshot(op);
    if (!r.local_calls && !r.remote_calls) continue;
    if (!header) {
      std::snprintf(line, sizeof line, "  %-8s %12s %14s %12s %14s %10s\n", "array op",
                    "local calls", "local bytes", "remote calls", "remote bytes", "messages");
      out << line;
      header = true;
    }
    std::snprintf(line, sizeof line,
                  "  %-8s %12" PRIu64 " %14" PRIu64 " %12" PRIu64 " %14" PRIu64 " %10" PRIu64 "\n",
                  rma_op_name(op), r.local_calls, r.local_bytes, r.remote_calls, r.remote_bytes,
                  r.messages);
    out << line;
  }
  out << collective_rows({"write", "read"},
                         {collective_.snapshot(IoDir::kWrite), collective_.snapshot(IoDir::kRead)},
                         collective_.setup());
  return out.str();
}

std::string json_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char esc[8];
          std::snprintf(esc, sizeof esc, "\\u%04x", c);
          out += esc;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string StatsRegistry::json(int rank) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::ostringstream out;
  out << "{\"rank\": " << rank << ", \"notes\": {";
  bool first = true;
  for (const auto& [k, v] : notes_) {
    out << (first ? "" : ", ") << json_quote(k) << ": " << json_quote(v);
    first = false;
  }
  out << "}, \"files\": [";
  first = true;
  for (const auto& [path, fs] : files_) {
    out << (first ? "" : ", ") << "{\"path\": " << json_quote(path)
        << ", \"size\": " << fs->size() << ", \"ram_bytes\": " << fs->ram_bytes()
        << ", \"spilled_bytes\": " << fs->spilled_bytes();
    first = false;
    for (IoDir dir : {IoDir::kRead, IoDir::kWrite}) {
      DirSnapshot s = fs->snapshot(dir);
      out << ", \"" << (dir == IoDir::kRead ? "read" : "write") << "\": {"
          << "\"calls\": " << s.calls << ", \"async_calls\": " << s.async_calls
          << ", \"bytes\": " << s.bytes << ", \"seconds\": " << s.nanos / 1e9
          << ", \"random_share\": " << random_share(s) << ", \"histogram\": [";
      for (int i = 0; i < kSizeBuckets; ++i) {
        out << (i ? ", " : "") << "[" << size_bucket_upper(i) << ", "
            << s.histogram[i] << "]";
      }
      out << "]}";
    }
    out << "}";
  }
  out << "], \"arrays\": {";
  first = true;
  for (RmaOp op : kRmaOps) {
    RmaSnapshot r = rma_.snapshot(op);
    out << (first ? "" : ", ") << "\"" << rma_op_name(op) << "\": {\"local_calls\": "
        << r.local_calls << ", \"local_bytes\": " << r.local_bytes
        << ", \"remote_calls\": " << r.remote_calls << ", \"remote_bytes\": " << r.remote_bytes
        << ", \"messages\": " << r.messages << "}";
    first = false;
  }
  out << "}, \"collective\": {\"write\": " << collective_json(collective_.snapshot(IoDir::kWrite))
      << ", \"read\": " << collective_json(collective_.snapshot(IoDir::kRead))
      << ", \"setup\": " << setup_json(collective_.setup()) << "}}";
  return out.str();
}

StatsTotals StatsRegistry::totals() const {
  std::lock_guard<std::mutex> lock(mu_);
  StatsTotals t;
  for (const auto& [path, fs] : files_) {
    StatsTotals::PathSums& p = t.paths[path];
    p.ranks = 1;
    p.size = fs->size();
    p.ram = fs->ram_bytes();
    p.spilled = fs->spilled_bytes();
    for (IoDir dir : {IoDir::kRead, IoDir::kWrite}) {
      const DirSnapshot d = fs->snapshot(dir);
      const int at = static_cast<int>(dir) * StatsTotals::kFileFields;
      for (auto [i, x] : {std::pair{0, d.calls}, {1, d.async_calls}, {2, d.bytes}, {3, d.nanos}}) {
        p.v[at + i] = x;
        t.v[at + i] += x;
      }
    }
  }
  for (RmaOp op : kRmaOps) {
    const RmaSnapshot r = rma_.snapshot(op);
    uint64_t* a = &t.v[2 * StatsTotals::kFileFields + static_cast<int>(op) * StatsTotals::kRmaFields];
    a[0] = r.local_calls;
    a[1] = r.local_bytes;
    a[2] = r.remote_calls;
    a[3] = r.remote_bytes;
    a[4] = r.messages;
  }
  const CollectiveSnapshot dirs[2] = {collective_.snapshot(IoDir::kRead), collective_.snapshot(IoDir::kWrite)};
  put_collective(dirs, collective_.setup(), &t.collective);
  t.collective_most = t.collective;
  return t;
}

namespace {

// Packed record: path length, path bytes, ranks, size, RAM, spilled, the 8
// counters; all numbers as native uint64 (both ends are processes of one job).
void put_u64(std::string* out, uint64_t x) { out->append(reinterpret_cast<const char*>(&x), sizeof x); }

bool get_u64(const char*& at, const char* end, uint64_t* x) {
  if (end - at < static_cast<ptrdiff_t>(sizeof *x)) return false;
  std::memcpy(x, at, sizeof *x);
  at += sizeof *x;
  return true;
}

// {"calls": .., "async_calls": .., "bytes": .., "seconds": ..} of one direction.
std::string dir_json(const uint64_t* f) {
  std::ostringstream out;
  out << "{\"calls\": " << f[0] << ", \"async_calls\": " << f[1] << ", \"bytes\": " << f[2]
      << ", \"seconds\": " << f[3] / 1e9 << "}";
  return out.str();
}

}  // namespace

std::string StatsTotals::pack_paths() const {
  std::string out;
  for (const auto& [path, p] : paths) {
    put_u64(&out, path.size());
    out += path;
    put_u64(&out, p.ranks);
    for (uint64_t x : {p.size, p.ram, p.spilled}) put_u64(&out, x);
    for (uint64_t x : p.v) put_u64(&out, x);
  }
  return out;
}

bool StatsTotals::merge_paths(const char* data, size_t size) {
  const char* at = data;
  const char* end = data + size;
  while (at < end) {
    uint64_t len = 0, ranks = 0, bytes = 0;
    if (!get_u64(at, end, &len) || static_cast<uint64_t>(end - at) < len) return false;
    PathSums& p = paths[std::string(at, len)];
    at += len;
    uint64_t ram = 0, spilled = 0;
    if (!get_u64(at, end, &ranks) || !get_u64(at, end, &bytes) || !get_u64(at, end, &ram) ||
        !get_u64(at, end, &spilled)) {
      return false;
    }
    p.ranks += ranks;
    p.size = std::max(p.size, bytes);
    p.ram = std::max(p.ram, ram);
    p.spilled = std::max(p.spilled, spilled);
    for (uint64_t& x : p.v) {
      uint64_t add = 0;
      if (!get_u64(at, end, &add)) return false;
      x += add;
    }
  }
  return true;
}

std::string StatsTotals::table(int ranks) const {
  std::ostringstream out;
  char line[256];
  out << "pario statistics summed over " << ranks << " ranks\n";
  std::snprintf(line, sizeof line, "  %-8s %12s %12s %16s %14s\n", "file I/O", "calls", "async calls",
                "bytes", "seconds in");
  out << line;
  for (int d = 0; d < 2; ++d) {
    const uint64_t* f = &v[d * kFileFields];
    std::snprintf(line, sizeof line, "  %-8s %12" PRIu64 " %12" PRIu64 " %16" PRIu64 " %14.3f\n",
                  d == 0 ? "read" : "write", f[0], f[1], f[2], f[3] / 1e9);
    out << line;
  }
  if (!paths.empty()) {
    std::snprintf(line, sizeof line, "  %-40s %5s %10s %14s %10s %14s\n", "file", "ranks",
                  "reads", "bytes read", "writes", "bytes written");
    out << line;
  }
  for (const auto& [path, p] : paths) {
    std::snprintf(line, sizeof line,
                  "  %-40s %5" PRIu64 " %10" PRIu64 " %14" PRIu64 " %10" PRIu64 " %14" PRIu64 "\n",
                  shorten(path, 40).c_str(), p.ranks, p.v[0], p.v[2], p.v[kFileFields],
                  p.v[kFileFields + 2]);
    out << line;
  }
  std::snprintf(line, sizeof line, "  %-8s %12s %14s %12s %14s %10s\n", "array op", "local calls",
                "local bytes", "remote calls", "remote bytes", "messages");
  out << line;
  for (RmaOp op : kRmaOps) {
    const uint64_t* a = &v[2 * kFileFields + static_cast<int>(op) * kRmaFields];
    std::snprintf(line, sizeof line,
                  "  %-8s %12" PRIu64 " %14" PRIu64 " %12" PRIu64 " %14" PRIu64 " %10" PRIu64 "\n",
                  rma_op_name(op), a[0], a[1], a[2], a[3], a[4]);
    out << line;
  }
  out << collective_rows({"write", "read", "write, most", "read, most"},
                         {get_collective(collective, collective_most, 1, false),
                          get_collective(collective, collective_most, 0, false),
                          get_collective(collective, collective_most, 1, true),
                          get_collective(collective, collective_most, 0, true)},
                         get_setup(collective));
  return out.str();
}

std::string StatsTotals::json(int ranks) const {
  std::ostringstream out;
  out << "{\"ranks\": " << ranks << ", \"files\": {\"read\": " << dir_json(&v[0])
      << ", \"write\": " << dir_json(&v[kFileFields]) << "}, \"paths\": [";
  bool first = true;
  for (const auto& [path, p] : paths) {
    out << (first ? "" : ", ") << "{\"path\": " << json_quote(path) << ", \"ranks\": " << p.ranks
        << ", \"size\": " << p.size << ", \"ram_bytes\": " << p.ram
        << ", \"spilled_bytes\": " << p.spilled << ", \"read\": " << dir_json(&p.v[0])
        << ", \"write\": " << dir_json(&p.v[kFileFields]) << "}";
    first = false;
  }
  out << "], \"arrays\": {";
  for (RmaOp op : kRmaOps) {
    const uint64_t* a = &v[2 * kFileFields + static_cast<int>(op) * kRmaFields];
    out << (op == RmaOp::kGet ? "" : ", ") << "\"" << rma_op_name(op)
        << "\": {\"local_calls\": " << a[0] << ", \"local_bytes\": " << a[1]
        << ", \"remote_calls\": " << a[2] << ", \"remote_bytes\": " << a[3]
        << ", \"messages\": " << a[4] << "}";
  }
  out << "}, \"collective\": {\"write\": " << collective_json(get_collective(collective, collective_most, 1, false))
      << ", \"read\": " << collective_json(get_collective(collective, collective_most, 0, false))
      << ", \"setup\": " << setup_json(get_setup(collective))
      << ", \"most\": {\"write\": " << collective_json(get_collective(collective, collective_most, 1, true))
      << ", \"read\": " << collective_json(get_collective(collective, collective_most, 0, true))
      << ", \"setup\": " << setup_json(get_setup(collective_most)) << "}}}";
  return out.str();
}

uint64_t now_nanos() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace pario
