// What one blocking private-file call costs beyond the system call: a loop
// of random reads or writes of one size through pario_file_read/write or
// raw pread/pwrite on the same warm file, one implementation per process,
// so that `perf stat -e instructions:u,instructions:k,cycles` counts one
// of them alone (instruction counts hold on a loaded machine where times
// do not). Issue 30.
//
// Usage: call_cost --impl pario|posix --op read|write [--size B]
//                  [--calls N] [--file-bytes N] [--dir D]
// Prints one JSON line: calls, seconds, ns per call.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../common.h"
#include "pario/pario.h"

namespace {

[[noreturn]] void die(const std::string& what) { bench::fail("call_cost", what); }

}  // namespace

int main(int argc, char** argv) {
  std::string impl = "pario", op = "read", dir = "/tmp";
  size_t size = 1600;
  long calls = 1000000;
  uint64_t file_bytes = 16 << 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--impl") impl = v;
    else if (k == "--op") op = v;
    else if (k == "--size") size = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--calls") calls = std::atol(v.c_str());
    else if (k == "--file-bytes") file_bytes = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--dir") dir = v;
    else die("unknown argument " + k);
  }
  const bool pario = impl == "pario", write = op == "write";
  if (!pario && impl != "posix") die("--impl is pario or posix");
  // Both start pario (and with it MPI and its threads): in a process with
  // threads glibc's pread/pwrite take the cancellation-point path, in one
  // without they do not, and an MPI program always has threads.
  if (pario_init() != PARIO_OK) die("pario_init");
  const std::string path = dir + "/call_cost." + std::to_string(::getpid());
  std::vector<char> buf(size > 0 ? size : 1, 'x');
  const uint64_t slots = file_bytes / size;
  // The offsets in advance, so the loop holds only the calls.
  std::mt19937_64 rng(42);
  std::vector<int64_t> offsets(4096);
  for (auto& o : offsets) o = static_cast<int64_t>(rng() % slots * size);

  int fd = -1;
  pario_file_t f = PARIO_FILE_NULL;
  if (pario) {
    if (pario_file_open(path.c_str(), PARIO_MODE_READ | PARIO_MODE_WRITE | PARIO_MODE_CREATE, &f) != PARIO_OK) die("open");
  } else {
    fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) die("open " + path);
  }
  // Fill the file (warm page cache), with the implementation measured.
  std::vector<char> block(1 << 20, 'y');
  for (uint64_t at = 0; at < file_bytes; at += block.size()) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(block.size(), file_bytes - at));
    if (pario ? pario_file_write(f, static_cast<int64_t>(at), block.data(), n) != PARIO_OK
              : ::pwrite(fd, block.data(), n, static_cast<off_t>(at)) != static_cast<ssize_t>(n)) {
      die("fill");
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < calls; ++i) {
    const int64_t at = offsets[static_cast<size_t>(i) & 4095];
    bool ok;
    if (pario) {
      ok = (write ? pario_file_write(f, at, buf.data(), size) : pario_file_read(f, at, buf.data(), size)) ==
           PARIO_OK;
    } else {
      ok = (write ? ::pwrite(fd, buf.data(), size, at) : ::pread(fd, buf.data(), size, at)) ==
           static_cast<ssize_t>(size);
    }
    if (!ok) die(op);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"impl\": \"%s\", \"op\": \"%s\", \"size\": %zu, \"calls\": %ld, \"seconds\": %.4f, "
              "\"ns_per_call\": %.1f}\n",
              impl.c_str(), op.c_str(), size, calls, secs, secs / calls * 1e9);
  if (pario) {
    pario_file_close(&f);
  } else {
    ::close(fd);
    ::unlink(path.c_str());
  }
  if (pario) pario_file_delete(path.c_str());
  pario_finalize();
  return 0;
}
