// The collective engine's permutation alone, serially (issue 25: what a
// random permutation of 32 Mi doubles costs, and what makes it cheaper).
// Not a test. Run: permute_bench [--elements N] [--size S] [--reps R]
// [--cases a,b,...] [--region-kib K] [--chunk C]
//
// Element k of the packed copy (file order) is element p[k] of the
// caller's buffer (memory order), p a seeded random permutation of [0, N);
// q is its inverse (q[p[k]] = k). The cases, each into a buffer the engine
// owns ("eng") from or to the caller's ("user", ordinary 4 KiB pages):
//
//   gather        eng[k] = user[p[k]]       the engine's pack until now
//                                           (random reads in the caller's buffer)
//   scatter       user[p[k]] = eng[k]       its unpack until now (random writes there)
//   slot-scatter  eng[q[m]] = user[m]       the pack by the inverse: the random
//                                           side in the engine's buffer
//   slot-gather   user[m] = eng[q[m]]       the unpack by the inverse
//   blocked-scatter, blocked-gather         the same two as a cache-blocked
//                                           (radix-partitioned) permutation: the
//                                           elements first grouped by the region of
//                                           --region-kib of eng they fall in, then
//                                           moved region by region; --chunk elements
//                                           of the caller's buffer at a time (0: all),
//                                           (S + 4) bytes of temporary per element
//   fresh-gather, fresh-slot-scatter        gather / slot-scatter into an engine
//                                           buffer allocated inside the timing (first
//                                           touch: page faults and zeroing), as a
//                                           transfer's packed copy is
//
// each with the engine's buffers on 4 KiB pages ("/4k": the heap) and on
// transparent huge pages ("/huge": base/large_buffer.h, 2 MiB aligned,
// MADV_HUGEPAGE), and "gather/both-huge": the caller's buffer on huge
// pages too (what the random side costs once neither buffer misses the
// TLB). Every case is checked against the expected result once. Prints
// one JSON line per case: the medians over --reps of wall ns per element,
// this thread's user and system CPU seconds and minor page faults, and
// how much of the engine's buffer the kernel backed with huge pages
// (AnonHugePages of its mapping, /proc/self/smaps). Wall time on a loaded
// machine is a trend; CPU seconds are the evidence.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/large_buffer.h"
#include "collective/positions.h"

namespace {

using pario::LargeBuffer;
using pario::collective::PositionList;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "permute_bench: %s\n", what.c_str());
  std::exit(1);
}

struct Usage {
  double wall = 0, user = 0, sys = 0;
  long faults = 0;
};

Usage now() {
  Usage u;
  u.wall = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  rusage r{};
  getrusage(RUSAGE_THREAD, &r);
  u.user = r.ru_utime.tv_sec + 1e-6 * r.ru_utime.tv_usec;
  u.sys = r.ru_stime.tv_sec + 1e-6 * r.ru_stime.tv_usec;
  u.faults = r.ru_minflt;
  return u;
}

// AnonHugePages (KiB) of the mapping holding `addr`.
long huge_kib(const void* addr) {
  FILE* f = std::fopen("/proc/self/smaps", "r");
  if (!f) return -1;
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  char line[512];
  bool inside = false;
  long kib = -1;
  while (std::fgets(line, sizeof line, f)) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2) {  // a mapping's first line
      inside = a >= lo && a < hi;
      continue;
    }
    if (inside && std::strncmp(line, "AnonHugePages:", 14) == 0) {
      kib = std::atol(line + 14);
      break;
    }
  }
  std::fclose(f);
  return kib;
}

// A buffer on 4 KiB pages (the heap) or on huge pages (LargeBuffer).
struct Buf {
  LargeBuffer large;
  std::unique_ptr<char[]> heap;
  char* p = nullptr;
  static Buf make(size_t bytes, bool huge) {
    Buf b;
    if (huge) {
      b.large = LargeBuffer::allocate(bytes);
      b.p = b.large.get();
    } else {
      b.heap.reset(new char[bytes]);
      b.p = b.heap.get();
    }
    if (!b.p) die("out of memory");
    return b;
  }
};

// The cache-blocked permutation: eng[q[m]] = user[m] (kScatter) or
// user[m] = eng[q[m]], through temporaries grouped by the region of eng
// (1 << shift elements) each element falls in.
template <size_t kSize, bool kScatter>
void blocked(char* eng, char* user, const uint32_t* q, int64_t n, int shift, int64_t chunk, char* tv, uint32_t* tp) {
  const int64_t buckets = ((n - 1) >> shift) + 1;
  std::vector<int64_t> start(buckets + 1), cur(buckets);
  for (int64_t c0 = 0; c0 < n; c0 += chunk) {
    const int64_t c = std::min(chunk, n - c0);
    const uint32_t* qc = q + c0;
    char* uc = user + c0 * kSize;
    std::fill(start.begin(), start.end(), 0);
    for (int64_t m = 0; m < c; ++m) ++start[(qc[m] >> shift) + 1];
    for (int64_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
    std::copy(start.begin(), start.end() - 1, cur.begin());
    if (kScatter) {
      for (int64_t m = 0; m < c; ++m) {
        const int64_t j = cur[qc[m] >> shift]++;
        std::memcpy(tv + j * kSize, uc + m * kSize, kSize);
        tp[j] = qc[m];
      }
      for (int64_t j = 0; j < c; ++j) std::memcpy(eng + int64_t{tp[j]} * kSize, tv + j * kSize, kSize);
    } else {
      for (int64_t m = 0; m < c; ++m) tp[cur[qc[m] >> shift]++] = qc[m];
      for (int64_t j = 0; j < c; ++j) std::memcpy(tv + j * kSize, eng + int64_t{tp[j]} * kSize, kSize);
      std::copy(start.begin(), start.end() - 1, cur.begin());
      for (int64_t m = 0; m < c; ++m) std::memcpy(uc + m * kSize, tv + cur[qc[m] >> shift]++ * kSize, kSize);
    }
  }
}

template <bool kScatter>
void blocked_any(size_t size, char* eng, char* user, const uint32_t* q, int64_t n, int shift, int64_t chunk,
                 char* tv, uint32_t* tp) {
  switch (size) {
    case 4: return blocked<4, kScatter>(eng, user, q, n, shift, chunk, tv, tp);
    case 8: return blocked<8, kScatter>(eng, user, q, n, shift, chunk, tv, tp);
    case 16: return blocked<16, kScatter>(eng, user, q, n, shift, chunk, tv, tp);
    default: die("--size 4, 8 or 16");
  }
}

}  // namespace

int main(int argc, char** argv) {
  int64_t n = int64_t{1} << 25;
  size_t size = 8;
  int reps = 5;
  int64_t region_kib = 512, chunk = 0;
  std::string cases_arg =
      "gather,scatter,slot-scatter,slot-gather,blocked-scatter,blocked-gather,fresh-gather,fresh-slot-scatter,"
      "gather-both-huge";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--elements") n = std::atoll(v.c_str());
    else if (a == "--size") size = static_cast<size_t>(std::atoi(v.c_str()));
    else if (a == "--reps") reps = std::atoi(v.c_str());
    else if (a == "--cases") cases_arg = v;
    else if (a == "--region-kib") region_kib = std::atoll(v.c_str());
    else if (a == "--chunk") chunk = std::atoll(v.c_str());
    else die("unknown option " + a);
  }
  if (n <= 1 || n > (int64_t{1} << 32) || reps < 1 || region_kib < 1) die("bad arguments");
  if (size != 4 && size != 8 && size != 16) die("--size 4, 8 or 16");
  if (chunk <= 0 || chunk > n) chunk = n;
  int shift = 0;
  while ((static_cast<int64_t>(size) << (shift + 1)) <= region_kib * 1024) ++shift;

  // p: a random permutation (the engine's memory_order: packed k <- memory p[k]); q its inverse.
  std::vector<uint32_t> p(static_cast<size_t>(n)), q(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) p[k] = static_cast<uint32_t>(k);
  std::shuffle(p.begin(), p.end(), std::mt19937_64(2025));
  for (int64_t k = 0; k < n; ++k) q[p[k]] = static_cast<uint32_t>(k);
  const PositionList forward = PositionList::of(static_cast<size_t>(n), [&](size_t k) {
    return std::pair<int64_t, int64_t>{p[k], 1};
  });
  const PositionList inverse = PositionList::of(static_cast<size_t>(n), [&](size_t m) {
    return std::pair<int64_t, int64_t>{q[m], 1};
  });
  if (forward.runs() != 0 || inverse.runs() != 0) die("expected the one-per-element form");

  const size_t bytes = static_cast<size_t>(n) * size;
  // The caller's data: element m holds m in its first 4 bytes (8 or 16: the rest m's complement).
  Buf user = Buf::make(bytes, false), user_huge = Buf::make(bytes, true), back = Buf::make(bytes, false);
  auto fill = [&](char* u) {
    for (int64_t m = 0; m < n; ++m) {
      const uint32_t v = static_cast<uint32_t>(m), w = ~v;
      std::memcpy(u + m * size, &v, 4);
      for (size_t o = 4; o < size; o += 4) std::memcpy(u + m * size + o, &w, 4);
    }
  };
  fill(user.p);
  fill(user_huge.p);
  // packed[k] must hold user[p[k]]; user (scatter / gather back) must hold m at m.
  auto check_packed = [&](const char* eng, const char* what) {
    for (int64_t k = 0; k < n; ++k) {
      uint32_t v;
      std::memcpy(&v, eng + k * size, 4);
      if (v != p[k]) die(std::string(what) + ": wrong packed element");
    }
  };
  auto check_user = [&](const char* u, const char* what) {
    for (int64_t m = 0; m < n; ++m) {
      uint32_t v;
      std::memcpy(&v, u + m * size, 4);
      if (v != static_cast<uint32_t>(m)) die(std::string(what) + ": wrong unpacked element");
    }
  };
  const int64_t temp_elems = chunk;
  std::vector<std::string> cases;
  for (size_t a = 0, b; a <= cases_arg.size(); a = b + 1) {
    b = cases_arg.find(',', a);
    if (b == std::string::npos) b = cases_arg.size();
    if (b > a) cases.push_back(cases_arg.substr(a, b - a));
  }
  std::printf("{\"elements\": %" PRId64 ", \"size\": %zu, \"reps\": %d, \"region_kib\": %" PRId64
              ", \"chunk\": %" PRId64 ", \"user_huge_kib\": %ld}\n",
              n, size, reps, region_kib, chunk, huge_kib(user.p));
  for (const std::string& name : cases) {
    for (int huge = 0; huge < 2; ++huge) {
      if (name == "gather-both-huge" && !huge) continue;
      const std::string label = name + (huge ? "/huge" : "/4k");
      Buf eng = Buf::make(bytes, huge);
      std::memset(eng.p, 0, bytes);  // faulted in once (except the fresh cases)
      Buf tv, tp;
      if (name.rfind("blocked", 0) == 0) {
        tv = Buf::make(static_cast<size_t>(temp_elems) * size, huge);
        tp = Buf::make(static_cast<size_t>(temp_elems) * 4, huge);
        std::memset(tv.p, 0, static_cast<size_t>(temp_elems) * size);
        std::memset(tp.p, 0, static_cast<size_t>(temp_elems) * 4);
      }
      // The packed copy for the unpacking cases.
      const bool unpacking = name == "scatter" || name == "slot-gather" || name == "blocked-gather";
      if (unpacking) forward.gather(user.p, size, 0, n, eng.p);
      std::vector<double> wall, usr, sys, flt;
      long hk = -1;
      for (int r = 0; r < reps; ++r) {
        if (unpacking) std::memset(back.p, 0xff, bytes);
        Buf fresh;
        const Usage t0 = now();
        char* into = eng.p;
        if (name == "gather") {
          forward.gather(user.p, size, 0, n, eng.p);
        } else if (name == "gather-both-huge") {
          forward.gather(user_huge.p, size, 0, n, eng.p);
        } else if (name == "scatter") {
          forward.scatter(back.p, size, 0, n, eng.p);
        } else if (name == "slot-scatter") {
          inverse.scatter(eng.p, size, 0, n, user.p);
        } else if (name == "slot-gather") {
          inverse.gather(eng.p, size, 0, n, back.p);
        } else if (name == "blocked-scatter") {
          blocked_any<true>(size, eng.p, user.p, q.data(), n, shift, chunk, tv.p, reinterpret_cast<uint32_t*>(tp.p));
        } else if (name == "blocked-gather") {
          blocked_any<false>(size, eng.p, back.p, q.data(), n, shift, chunk, tv.p, reinterpret_cast<uint32_t*>(tp.p));
        } else if (name == "fresh-gather" || name == "fresh-slot-scatter") {
          fresh = Buf::make(bytes, huge);
          into = fresh.p;
          if (name == "fresh-gather") forward.gather(user.p, size, 0, n, into);
          else inverse.scatter(into, size, 0, n, user.p);
        } else {
          die("unknown case " + name);
        }
        const Usage t1 = now();
        wall.push_back((t1.wall - t0.wall) * 1e9 / static_cast<double>(n));
        usr.push_back(t1.user - t0.user);
        sys.push_back(t1.sys - t0.sys);
        flt.push_back(static_cast<double>(t1.faults - t0.faults));
        if (r == 0) {
          hk = huge_kib(into);
          if (unpacking) check_user(back.p, label.c_str());
          else check_packed(into, label.c_str());
        }
      }
      auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
      };
      std::printf("{\"case\": \"%s\", \"ns_per_element\": %.2f, \"min_ns\": %.2f, \"user_s\": %.3f, \"sys_s\": %.3f, "
                  "\"minor_faults\": %.0f, \"engine_huge_kib\": %ld}\n",
                  label.c_str(), median(wall), *std::min_element(wall.begin(), wall.end()), median(usr), median(sys),
                  median(flt), hk);
      std::fflush(stdout);
    }
  }
  return 0;
}
