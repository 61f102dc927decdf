// Files-in-Memory benchmark (the MOLCAS FiM comparison on this machine).
//
// A CASPT2-like scratch workload: a file of --file-bytes is written once,
// then read and written at random aligned offsets in fixed-size requests
// (half reads, half writes) for --seconds; MB/s of the random phase. The
// implementations, interleaved in one process in a rotating order:
//   ram      pario private file in RAM (its name matches PARIO_FIM, which
//            bench/run sets, with a budget that holds the whole file)
//   buffered pario private file on disk, through the page cache
//   direct   pario private file on disk, O_DIRECT
//   tmpfs    raw pread/pwrite on a file in /dev/shm
// Then large sequential transfers: the whole RAM file read and written in
// 64 MiB requests, against memcpy of the same bytes between two buffers.
//
// One JSON object per measurement on stdout; bench/run aggregates.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../common.h"
#include "pario/pario.h"

namespace {

[[noreturn]] void die(const std::string& what) { bench::fail("fim_bench", what); }

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Impl {
  const char* name;
  std::string path;
  std::function<void(uint64_t, const void*, size_t)> write;
  std::function<void(uint64_t, void*, size_t)> read;
  std::function<void()> close;
};

Impl pario_impl(const char* name, const std::string& path, int extra_mode) {
  auto f = std::make_shared<pario_file_t>(PARIO_FILE_NULL);
  if (pario_file_open(path.c_str(), PARIO_MODE_RDWR | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE | extra_mode,
                      f.get()) != PARIO_OK) {
    die("open " + path);
  }
  return {name, path,
          [f](uint64_t off, const void* buf, size_t n) {
            if (pario_file_write(*f, off, buf, n) != PARIO_OK) die("write");
          },
          [f](uint64_t off, void* buf, size_t n) {
            if (pario_file_read(*f, off, buf, n) != PARIO_OK) die("read");
          },
          [f, path] {
            if (pario_file_close(f.get()) != PARIO_OK) die("close");
            if (pario_file_delete(path.c_str()) != PARIO_OK) die("delete " + path);
          }};
}

Impl tmpfs_impl(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) die("open " + path);
  return {"tmpfs", path,
          [fd](uint64_t off, const void* buf, size_t n) {
            if (::pwrite(fd, buf, n, static_cast<off_t>(off)) != static_cast<ssize_t>(n)) die("pwrite");
          },
          [fd](uint64_t off, void* buf, size_t n) {
            if (::pread(fd, buf, n, static_cast<off_t>(off)) != static_cast<ssize_t>(n)) die("pread");
          },
          [fd, path] {
            ::close(fd);
            ::unlink(path.c_str());
          }};
}

void emit(const char* impl, const char* op, size_t size, int rep, double mbps) {
  std::printf("{\"impl\": \"%s\", \"op\": \"%s\", \"size\": %zu, \"rep\": %d, \"mbps\": %.2f}\n", impl, op,
              size, rep, mbps);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "/tmp";
  uint64_t file_bytes = 64 << 20;
  double seconds = 0.5;
  int rep = 0;
  std::vector<size_t> sizes = {4096, 16384, 65536};
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--dir")) dir = argv[i + 1];
    else if (!std::strcmp(argv[i], "--file-bytes")) file_bytes = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--seconds")) seconds = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--rep")) rep = std::atoi(argv[i + 1]);
    else die(std::string("unknown argument ") + argv[i]);
  }
  if (pario_init() != PARIO_OK) die("pario_init");
  const size_t chunk = 64 << 20;
  char* buf = static_cast<char*>(std::aligned_alloc(4096, chunk));
  char* other = static_cast<char*>(std::aligned_alloc(4096, chunk));
  std::memset(buf, 7, chunk);
  std::memset(other, 1, chunk);

  std::vector<std::function<Impl()>> makers = {
      [&] { return pario_impl("ram", dir + "/fim_bench.fim", 0); },
      [&] { return pario_impl("buffered", dir + "/fim_bench.dat", 0); },
      [&] { return pario_impl("direct", dir + "/fim_bench_direct.dat", PARIO_MODE_DIRECT); },
      [&] { return tmpfs_impl("/dev/shm/fim_bench." + std::to_string(::getpid())); },
  };
  std::mt19937_64 rng(rep);
  for (size_t k = 0; k < makers.size(); ++k) {
    Impl impl = makers[(k + rep) % makers.size()]();
    for (uint64_t at = 0; at < file_bytes; at += chunk) impl.write(at, buf, std::min<uint64_t>(chunk, file_bytes - at));
    for (size_t size : sizes) {
      const uint64_t slots = file_bytes / size;
      uint64_t ops = 0;
      const double t0 = now();
      double t = t0;
      while (t - t0 < seconds) {
        for (int i = 0; i < 64; ++i, ++ops) {
          const uint64_t off = (rng() % slots) * size;
          if (ops & 1) impl.write(off, buf, size);
          else impl.read(off, other, size);
        }
        t = now();
      }
      emit(impl.name, "random", size, rep, static_cast<double>(ops * size) / (t - t0) / 1e6);
    }
    if (!std::strcmp(impl.name, "ram")) {
      // Large sequential transfers out of and into the RAM file.
      for (const char* op : {"read", "write"}) {
        const double t0 = now();
        for (uint64_t at = 0; at < file_bytes; at += chunk) {
          const size_t n = std::min<uint64_t>(chunk, file_bytes - at);
          if (*op == 'r') impl.read(at, other, n);
          else impl.write(at, buf, n);
        }
        emit("ram", op[0] == 'r' ? "sequential read" : "sequential write", chunk, rep,
             static_cast<double>(file_bytes) / (now() - t0) / 1e6);
        // memcpy of the same bytes in the same pieces, right after: the limit.
        const double t1 = now();
        for (uint64_t at = 0; at < file_bytes; at += chunk) {
          std::memcpy(other, buf, std::min<uint64_t>(chunk, file_bytes - at));
        }
        emit("memcpy", op[0] == 'r' ? "sequential read" : "sequential write", chunk, rep,
             static_cast<double>(file_bytes) / (now() - t1) / 1e6);
      }
    }
    impl.close();
  }
  std::free(buf);
  std::free(other);
  if (pario_finalize() != PARIO_OK) die("pario_finalize");
  return 0;
}
