// How fast the kernel copies page-cache bytes into memory, by where the
// destination lies against the source within a page: 1 MiB preads of a
// warm file into a buffer placed DISTANCE bytes past a page boundary (the
// file offsets are page-aligned, so destination - source = DISTANCE modulo
// 4096), and, for each distance, the same bytes read into a page-aligned
// buffer and then copied with memcpy. Issue 30: on an AMD EPYC (rep movsb
// in the kernel) distances 1-31 ran 2-5x slower, which made 1-rank
// nonaligned disk-array reads in place slow (diskarray/disk_array.cpp,
// copies_fast).
//
// Usage: copy_distance [--dir D] [--mib N] [--rounds R] [--distances 0,8,16,...]
// Prints one JSON line per round and distance: MB/s in place and bounced.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "copy_distance: %s\n", what.c_str());
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "/tmp";
  size_t mib = 128;
  int rounds = 3;
  std::vector<size_t> distances = {0, 8, 16, 24, 32, 40, 48, 56, 64, 128, 264, 2056, 4088};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--dir") dir = v;
    else if (k == "--mib") mib = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--rounds") rounds = std::atoi(v.c_str());
    else if (k == "--distances") {
      distances.clear();
      for (const char* p = v.c_str(); *p;) {
        char* end;
        distances.push_back(std::strtoull(p, &end, 10) % 4096);
        p = *end == ',' ? end + 1 : end;
      }
    } else die("unknown argument " + k);
  }
  constexpr size_t kCall = size_t{1} << 20;
  const size_t total = mib * kCall;
  const std::string path = dir + "/copy_distance." + std::to_string(::getpid());
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0) die("cannot create " + path);
  ::unlink(path.c_str());  // gone when the program ends
  char* mem = static_cast<char*>(std::aligned_alloc(4096, total + 4096));
  char* bounce = static_cast<char*>(std::aligned_alloc(4096, kCall));
  if (!mem || !bounce) die("out of memory");
  std::memset(mem, 1, total + 4096);  // touched: no page faults in the timing
  std::memset(bounce, 2, kCall);
  for (size_t at = 0; at < total; at += kCall) {
    if (::pwrite(fd, bounce, kCall, static_cast<off_t>(at)) != static_cast<ssize_t>(kCall)) die("pwrite");
  }
  for (int r = 0; r < rounds; ++r) {
    for (size_t d : distances) {
      double t0 = now();
      for (size_t at = 0; at < total; at += kCall) {
        if (::pread(fd, mem + d + at, kCall, static_cast<off_t>(at)) != static_cast<ssize_t>(kCall)) die("pread");
      }
      const double direct = static_cast<double>(total) / (now() - t0) / 1e6;
      t0 = now();
      for (size_t at = 0; at < total; at += kCall) {
        if (::pread(fd, bounce, kCall, static_cast<off_t>(at)) != static_cast<ssize_t>(kCall)) die("pread");
        std::memcpy(mem + d + at, bounce, kCall);
      }
      const double bounced = static_cast<double>(total) / (now() - t0) / 1e6;
      std::printf("{\"round\": %d, \"distance\": %zu, \"pread_mbps\": %.1f, \"bounced_mbps\": %.1f}\n", r, d, direct,
                  bounced);
      std::fflush(stdout);
    }
  }
  ::close(fd);
  return 0;
}
