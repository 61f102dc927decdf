// Private-file benchmark (ChemIO Figures 3 and 4 on this machine).
//
// Random-access write, then read, of a whole file in fixed-size requests,
// with several implementations interleaved in one process: pario's private
// files (native C API), raw pread/pwrite (the limit) and, when built with
// it, GA's EAF from Debian's libglobalarrays-dev. The order of the
// implementations rotates with the repetition, so none always runs first.
// Also: asynchronous random reads with a fixed number in flight (pario's
// iread/wait window), to compare with fio at the same queue depth.
//
// Prints one JSON object per measurement on stdout; bench/run aggregates.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "pario/pario.h"

#if PARIO_BENCH_HAVE_GA
extern "C" {
#include <eaf.h>
}
#endif

namespace {

struct Impl {
  const char* name;
  std::function<bool(const std::string&, bool direct)> open;
  std::function<bool(uint64_t, const void*, size_t)> write;
  std::function<bool(uint64_t, void*, size_t)> read;
  std::function<void()> close;
};

[[noreturn]] void die(const std::string& what) {
  char msg[512];
  pario_last_error_message(msg, sizeof msg);
  std::fprintf(stderr, "eaf_bench: %s (%s)\n", what.c_str(), msg);
  std::exit(1);
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::vector<Impl> make_impls(bool with_ga) {
  std::vector<Impl> impls;
  static pario_file_t pf = PARIO_FILE_NULL;
  impls.push_back({"pario",
                   [](const std::string& p, bool direct) {
                     int mode = PARIO_MODE_RDWR | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE |
                                (direct ? PARIO_MODE_DIRECT : 0);
                     return pario_file_open(p.c_str(), mode, &pf) == PARIO_OK;
                   },
                   [](uint64_t off, const void* b, size_t n) {
                     return pario_file_write(pf, static_cast<int64_t>(off), b, n) == PARIO_OK;
                   },
                   [](uint64_t off, void* b, size_t n) {
                     return pario_file_read(pf, static_cast<int64_t>(off), b, n) == PARIO_OK;
                   },
                   [] { pario_file_close(&pf); }});
  static int fd = -1;
  impls.push_back({"posix",
                   [](const std::string& p, bool direct) {
                     fd = ::open(p.c_str(), O_RDWR | O_CREAT | O_TRUNC | (direct ? O_DIRECT : 0), 0600);
                     return fd >= 0;
                   },
                   [](uint64_t off, const void* b, size_t n) {
                     const char* p = static_cast<const char*>(b);
                     while (n > 0) {
                       ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(off));
                       if (w <= 0) return false;
                       p += w, off += w, n -= w;
                     }
                     return true;
                   },
                   [](uint64_t off, void* b, size_t n) {
                     char* p = static_cast<char*>(b);
                     while (n > 0) {
                       ssize_t r = ::pread(fd, p, n, static_cast<off_t>(off));
                       if (r <= 0) return false;
                       p += r, off += r, n -= r;
                     }
                     return true;
                   },
                   [] { ::close(fd); }});
#if PARIO_BENCH_HAVE_GA
  static int eaf = -1;
  if (with_ga) {
    impls.push_back({"ga",
                     [](const std::string& p, bool direct) {
                       if (direct) return false;  // GA's ELIO has no O_DIRECT mode
                       return EAF_Open(p.c_str(), EAF_RW, &eaf) == 0;
                     },
                     [](uint64_t off, const void* b, size_t n) {
                       return EAF_Write(eaf, static_cast<double>(off), b, n) == 0;
                     },
                     [](uint64_t off, void* b, size_t n) {
                       return EAF_Read(eaf, static_cast<double>(off), b, n) == 0;
                     },
                     [] { EAF_Close(eaf); }});
  }
#else
  (void)with_ga;
#endif
  return impls;
}

struct Options {
  std::string dir = "/tmp";
  uint64_t file_bytes = 80'000'000;
  std::vector<size_t> sizes;
  bool direct = false;
  int rep = 0;
  int passes = 3;  // samples per implementation and size
  std::vector<int> queue_depths;  // non-empty: the async test instead
  size_t async_size = 16384;
  bool with_ga = true;
};

std::vector<size_t> parse_list(const char* s) {
  std::vector<size_t> v;
  for (const char* p = s; *p;) {
    v.push_back(std::strtoull(p, const_cast<char**>(&p), 10));
    if (*p == ',') ++p;
  }
  return v;
}

void emit(const char* impl, const char* op, const Options& o, size_t size, double mbps) {
  std::printf("{\"impl\": \"%s\", \"op\": \"%s\", \"mode\": \"%s\", \"size\": %zu, \"rep\": %d, \"mbps\": %.3f}\n",
              impl, op, o.direct ? "direct" : "buffered", size, o.rep, mbps);
  std::fflush(stdout);
}

// Samples of one write pass and one read pass, in random order, over the
// whole file. Each size takes `passes` samples per implementation, the
// implementations taking turns (A B C B C A ...). Dirty pages are flushed
// between samples, outside the timed region, so one implementation's
// writeback is never charged to the next.
void run_sync(const Options& o) {
  std::vector<Impl> impls = make_impls(o.with_ga);
  int dir_fd = ::open(o.dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir_fd < 0) die("open " + o.dir);
  for (size_t size : o.sizes) {
    size_t blocks = o.file_bytes / size;
    std::vector<size_t> order(blocks);
    std::iota(order.begin(), order.end(), 0);
    void* buf = nullptr;
    if (posix_memalign(&buf, 4096, size) != 0) die("out of memory");
    std::memset(buf, 0x5a, size);
    for (int pass = 0; pass < o.passes; ++pass) {
      std::rotate(impls.begin(), impls.begin() + 1, impls.end());
      for (Impl& impl : impls) {
        if (o.direct && std::strcmp(impl.name, "ga") == 0) continue;
        std::string path = o.dir + "/eaf_bench." + impl.name + "." + std::to_string(getpid());
        ::syncfs(dir_fd);
        if (!impl.open(path, o.direct)) die(std::string(impl.name) + ": open " + path);
        std::mt19937_64 rng(1234 + o.rep * 100 + pass);
        std::shuffle(order.begin(), order.end(), rng);
        double t0 = now();
        for (size_t b : order) {
          if (!impl.write(uint64_t(b) * size, buf, size)) die(std::string(impl.name) + ": write");
        }
        double t1 = now();
        std::shuffle(order.begin(), order.end(), rng);
        for (size_t b : order) {
          if (!impl.read(uint64_t(b) * size, buf, size)) die(std::string(impl.name) + ": read");
        }
        double t2 = now();
        impl.close();
        ::unlink(path.c_str());
        double mb = double(blocks) * size / 1e6;
        emit(impl.name, "write", o, size, mb / (t1 - t0));
        emit(impl.name, "read", o, size, mb / (t2 - t1));
      }
    }
    std::free(buf);
  }
  ::close(dir_fd);
}

// Random O_DIRECT reads of async_size bytes with `qd` requests in flight
// over an existing file (written by fio, so both read the same bytes).
void run_async(const Options& o, const std::string& path) {
  pario_file_t f;
  if (pario_file_open(path.c_str(), PARIO_MODE_READ | PARIO_MODE_DIRECT, &f) != PARIO_OK) die("open " + path);
  int64_t len = 0;
  pario_file_length(f, &len);
  size_t blocks = static_cast<size_t>(len) / o.async_size;
  if (blocks == 0) die(path + " is too small");
  for (int qd : o.queue_depths) {
    std::vector<char*> bufs(qd);
    for (auto& b : bufs) {
      if (posix_memalign(reinterpret_cast<void**>(&b), 4096, o.async_size) != 0) die("out of memory");
    }
    std::vector<pario_request_t> reqs(qd, PARIO_REQUEST_NULL);
    std::mt19937_64 rng(99 + o.rep);
    std::uniform_int_distribution<size_t> pick(0, blocks - 1);
    size_t total = blocks;  // as many reads as the file has blocks, like fio's size
    double t0 = now();
    size_t issued = 0;
    for (; issued < std::min<size_t>(qd, total); ++issued) {
      if (pario_file_iread(f, int64_t(pick(rng) * o.async_size), bufs[issued], o.async_size, &reqs[issued]) != PARIO_OK) die("iread");
    }
    for (size_t done = 0; done < total; ++done) {
      size_t slot = done % qd;
      if (pario_request_wait(&reqs[slot]) != PARIO_OK) die("wait");
      if (issued < total) {
        if (pario_file_iread(f, int64_t(pick(rng) * o.async_size), bufs[slot], o.async_size, &reqs[slot]) != PARIO_OK) die("iread");
        ++issued;
      }
    }
    double t1 = now();
    char name[32];
    std::snprintf(name, sizeof name, "async_qd%d", qd);
    emit("pario", name, o, o.async_size, double(total) * o.async_size / 1e6 / (t1 - t0));
    for (auto b : bufs) std::free(b);
  }
  pario_file_close(&f);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::string async_file;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) die("missing value after " + a);
      return argv[++i];
    };
    if (a == "--dir") o.dir = next();
    else if (a == "--file-bytes") o.file_bytes = std::strtoull(next(), nullptr, 10);
    else if (a == "--sizes") o.sizes = parse_list(next());
    else if (a == "--direct") o.direct = true;
    else if (a == "--rep") o.rep = std::atoi(next());
    else if (a == "--passes") o.passes = std::atoi(next());
    else if (a == "--no-ga") o.with_ga = false;
    else if (a == "--async-file") async_file = next();
    else if (a == "--queue-depths") for (size_t q : parse_list(next())) o.queue_depths.push_back(int(q));
    else if (a == "--async-size") o.async_size = std::strtoull(next(), nullptr, 10);
    else die("unknown argument " + a);
  }
  if (!async_file.empty()) {
    o.direct = true;
    run_async(o, async_file);
  } else {
    if (o.sizes.empty()) die("--sizes is required");
    run_sync(o);
  }
  return 0;
}
