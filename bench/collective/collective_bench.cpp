// Collective I/O benchmark (issue 25; PDS/PIO Table 1 on this machine).
//
// Patterns, each a global index space of doubles whose value at global
// index g is g + 0.25, so any rank count can check what any other wrote:
//   slabs      a 3-D array (--dims nz,ny,nx, C order) cut along z: each
//              rank's piece is one contiguous range of the file
//   blocks     the same array cut px x py over x and y (--px, --py; by
//              default 1x1, 2x1, 2x2 for 1, 2, 4 ranks): each rank's piece
//              is nz*ny/py runs of nx/px doubles in the file
//   unstructured  --elements N doubles; a seeded permutation of [0, N)
//              (a bijection computed per index, no rank holds it whole) is
//              cut into P equal slices, rank r holding slice r in memory;
//              the file holds them in global-id order
//   decomp     no I/O: the time to set up a decomposition of --elements
//              indices (unstructured's slices): pario's, the hand-written
//              two-phase's owner map, and one MPI_Alltoallv of the indices
// Implementations (--impl, a comma list):
//   mpiio      MPI_File_write_all/read_all through a file view (subarray,
//              or an indexed-block type of the sorted ids: the memory is
//              packed into sorted order inside the timing); which MPI-IO
//              (ROMIO or OMPIO) is the launcher's choice (--mca io ...);
//              --label names its rows
//   write_at   MPI_File_write_at/read_at, independent, through the same view
//   hdf5       parallel HDF5, one contiguous 3-D dataset, collective
//              hyperslab H5Dwrite/H5Dread (3-D patterns only)
//   twophase   hand-written two-phase: MPI_Alltoallv of the values to P
//              contiguous owner ranges of the global index space, each
//              rank pwrites its range; the owner map (who sends which
//              run where) is computed once, outside the timing
//   gather     MPI_Gatherv to rank 0, which writes the whole file
//   fpp        one file per rank, pwrite of the rank's memory as it is (the
//              limit; with one rank: one process writing the whole file)
//   pario      pario_decomp_write/read on a pario shared file (compiled in
//              when PARIO_BENCH_HAVE_COLLECTIVE: the engine is on the branch)
// --convert sender,aggregator (pario only): int32 in memory to --file-types
// (int64, double) big endian in the file, converted by the sender or by
// the aggregator, --passes interleaved passes (run_convert).
// Each case (pattern x implementation x ranks x buffer x --flushed 0|1)
// writes the pattern to a fresh file (with --flushed, fdatasync or
// MPI_File_sync inside the timing), then reads it back and checks every
// element (dies on a wrong one). The time runs from a barrier before the
// open to a barrier after the close; MB/s = total bytes / time / 1e6.
// Before each write the dirty pages of the file system are flushed, and
// (--warm-pages 1, the default) each rank writes and deletes a scratch file
// of its own bytes, so the page cache comes from recently freed pages
// (warm_page_cache: why). Both untimed. --read-only reads the file an
// implementation left earlier (--keep) at another rank count instead:
// N-to-M reads.
// Memory: each rank resets its peak RSS (/proc/self/clear_refs) after the
// setup, and reports VmHWM minus the RSS at the reset: what the case
// itself needed beyond the caller's data and the decomposition.
// One JSON object per measurement on rank 0's stdout (with "cpu_s": the
// CPU seconds of the timed call summed over the ranks); bench/run collects.
// Several --impl and --flushed values run in one job (the quick run does
// so: a job costs ~0.7 s to start here); each case is isolated as above.
#include <fcntl.h>
#include <mpi.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#ifndef PARIO_BENCH_HAVE_HDF5
#define PARIO_BENCH_HAVE_HDF5 0
#endif
#ifndef PARIO_BENCH_HAVE_COLLECTIVE
#define PARIO_BENCH_HAVE_COLLECTIVE 0
#endif
#if PARIO_BENCH_HAVE_HDF5
#include <hdf5.h>
#endif
#if PARIO_BENCH_HAVE_COLLECTIVE
#include "pario/collective_io.h"
#include "pario/pario.h"
#endif

namespace {

int rank = 0, nranks = 1;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "collective_bench (rank %d): %s\n", rank, what.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

void check_mpi(int rc, const char* what) {
  if (rc != MPI_SUCCESS) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    die(std::string(what) + ": " + msg);
  }
}

double value_of(int64_t g) { return static_cast<double>(g) + 0.25; }

// ------------------------------------------------------------- layout ------

// A seeded permutation of [0, n): xor, odd multiply and xorshift are each
// a bijection of [0, 2^bits); walking the cycle until the value falls
// below n makes it one of [0, n).
struct Permutation {
  uint64_t n, mask;
  int bits;
  uint64_t seed;
  Permutation(uint64_t n_, uint64_t seed_) : n(n_), seed(seed_) {
    bits = 1;
    while ((uint64_t{1} << bits) < n) ++bits;
    mask = (uint64_t{1} << bits) - 1;
  }
  uint64_t step(uint64_t x) const {
    static const uint64_t kMul[4] = {0x9E3779B97F4A7C15ull, 0xBF58476D1CE4E5B9ull, 0x94D049BB133111EBull,
                                     0xD6E8FEB86659FD93ull};
    for (int r = 0; r < 4; ++r) {
      x = (x ^ ((seed * (r + 1) * 0x2545F4914F6CDD1Dull) >> 7)) & mask;
      x = (x * kMul[r]) & mask;
      x ^= x >> (bits / 2 + 1);
    }
    return x;
  }
  uint64_t operator()(uint64_t k) const {
    uint64_t x = step(k);
    while (x >= n) x = step(x);
    return x;
  }
};

int64_t share_lo(int64_t total, int parts, int i) { return total / parts * i + std::min<int64_t>(i, total % parts); }

// This rank's piece of a pattern: runs of consecutive global indices, in
// memory order (3-D), or one index per element (unstructured).
struct Layout {
  std::string name;
  int64_t global = 0;  // elements in the global space
  int64_t local = 0;   // elements on this rank
  bool is3d = false;
  int64_t dims[3] = {0, 0, 0}, start[3] = {0, 0, 0}, count[3] = {0, 0, 0};
  std::vector<int64_t> ids;  // unstructured: global id of each local element

  // f(global start, memory offset, length) for each run in memory order.
  template <class F>
  void for_each_run(F&& f) const {
    if (!is3d) {
      for (int64_t k = 0; k < local; ++k) f(ids[k], k, int64_t{1});
      return;
    }
    int64_t mem = 0;
    for (int64_t z = 0; z < count[0]; ++z)
      for (int64_t y = 0; y < count[1]; ++y) {
        f(((start[0] + z) * dims[1] + start[1] + y) * dims[2] + start[2], mem, count[2]);
        mem += count[2];
      }
  }
};

Layout make_layout(const std::string& pattern, const int64_t dims[3], int px, int py, int64_t elements,
                   uint64_t seed) {
  Layout l;
  if (pattern == "slabs" || pattern == "blocks") {
    l.is3d = true;
    std::copy(dims, dims + 3, l.dims);
    l.global = dims[0] * dims[1] * dims[2];
    if (pattern == "slabs") {
      l.start[0] = share_lo(dims[0], nranks, rank);
      l.count[0] = share_lo(dims[0], nranks, rank + 1) - l.start[0];
      l.count[1] = dims[1];
      l.count[2] = dims[2];
      l.name = "slabs";
    } else {
      if (px * py != nranks) die("blocks: px * py must be the number of ranks");
      const int ix = rank % px, iy = rank / px;
      l.start[2] = share_lo(dims[2], px, ix);
      l.count[2] = share_lo(dims[2], px, ix + 1) - l.start[2];
      l.start[1] = share_lo(dims[1], py, iy);
      l.count[1] = share_lo(dims[1], py, iy + 1) - l.start[1];
      l.count[0] = dims[0];
      l.name = "blocks " + std::to_string(px) + "x" + std::to_string(py);
    }
    l.local = l.count[0] * l.count[1] * l.count[2];
  } else {
    l.global = elements;
    const int64_t lo = share_lo(elements, nranks, rank), hi = share_lo(elements, nranks, rank + 1);
    l.local = hi - lo;
    l.ids.resize(l.local);
    const Permutation perm(elements, seed);
    for (int64_t k = lo; k < hi; ++k) l.ids[k - lo] = static_cast<int64_t>(perm(k));
    l.name = pattern;
  }
  return l;
}

void fill(const Layout& l, double* buf) {
  l.for_each_run([&](int64_t g, int64_t m, int64_t n) {
    for (int64_t i = 0; i < n; ++i) buf[m + i] = value_of(g + i);
  });
}

void verify(const Layout& l, const double* buf, const std::string& what) {
  int64_t bad = -1;
  l.for_each_run([&](int64_t g, int64_t m, int64_t n) {
    if (bad >= 0) return;
    for (int64_t i = 0; i < n; ++i)
      if (buf[m + i] != value_of(g + i)) {
        bad = g + i;
        std::fprintf(stderr, "collective_bench (rank %d): %s: element %" PRId64 " reads %.17g, wrote %.17g\n",
                     rank, what.c_str(), g + i, buf[m + i], value_of(g + i));
        return;
      }
  });
  int64_t worst = 0, mine = bad >= 0 ? 1 : 0;
  MPI_Allreduce(&mine, &worst, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  if (worst) die(what + ": read back differs from what was written");
}

// Sorts (id, position) pairs by id: an LSD radix sort over the id bits
// (ids < 2^32 here), positions carried in the low 32 bits.
std::vector<uint64_t> sorted_pairs(const Layout& l) {
  if (l.global > (int64_t{1} << 32) || l.local > (int64_t{1} << 32)) die("unstructured: more than 2^32 elements");
  std::vector<uint64_t> a(l.local), b(l.local);
  for (int64_t k = 0; k < l.local; ++k) a[k] = (static_cast<uint64_t>(l.ids[k]) << 32) | static_cast<uint64_t>(k);
  int bits = 1;
  while ((int64_t{1} << bits) < l.global) ++bits;
  for (int shift = 32; shift < 32 + bits; shift += 16) {
    std::vector<int64_t> counts(65537, 0);
    for (uint64_t v : a) ++counts[((v >> shift) & 0xFFFF) + 1];
    for (int i = 0; i < 65536; ++i) counts[i + 1] += counts[i];
    for (uint64_t v : a) b[counts[(v >> shift) & 0xFFFF]++] = v;
    a.swap(b);
  }
  return a;
}

// ------------------------------------------------------------- memory ------

int64_t status_kib(const char* key) {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  int64_t v = -1;
  const size_t n = std::strlen(key);
  while (std::fgets(line, sizeof line, f))
    if (!std::strncmp(line, key, n) && line[n] == ':') v = std::atoll(line + n + 1);
  std::fclose(f);
  return v;
}

// Resets this process's peak RSS (Linux >= 4.0); returns the RSS now.
int64_t reset_peak_kib() {
  if (FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
    std::fputs("5", f);
    std::fclose(f);
  }
  return status_kib("VmRSS");
}

// ------------------------------------------------------------ file I/O -----

void pwrite_all(int fd, const void* buf, int64_t bytes, int64_t off) {
  const char* p = static_cast<const char*>(buf);
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd, p, static_cast<size_t>(std::min<int64_t>(bytes, 1 << 30)), off);
    if (n <= 0) die("pwrite: " + std::string(std::strerror(errno)));
    p += n;
    off += n;
    bytes -= n;
  }
}

void pread_all(int fd, void* buf, int64_t bytes, int64_t off) {
  char* p = static_cast<char*>(buf);
  while (bytes > 0) {
    const ssize_t n = ::pread(fd, p, static_cast<size_t>(std::min<int64_t>(bytes, 1 << 30)), off);
    if (n <= 0) die("pread: " + std::string(n == 0 ? "end of file" : std::strerror(errno)));
    p += n;
    off += n;
    bytes -= n;
  }
}

int open_or_die(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0600);
  if (fd < 0) die("open " + path + ": " + std::strerror(errno));
  return fd;
}

void sync_or_die(int fd) {
  if (::fdatasync(fd) != 0) die(std::string("fdatasync: ") + std::strerror(errno));
}

// Untimed, before each timed write: every rank writes its own bytes to a
// scratch file and deletes it again, so that the page cache the timed write
// fills comes from pages the guest freed a moment ago. On a virtual machine
// whose balloon reports free pages to the host (virtio-balloon
// free page reporting, on in the EPYC VMs), a page freed and left idle
// for a few seconds goes back to the host, and the first touch of it
// costs a host fault: a 512 MiB buffered write then runs at 0.25-0.4 GB/s
// instead of 3.5-4.7 GB/s (fio, same command, idle 10 s or not before it),
// whichever program writes. Without this step page-cache rows measured
// how long the job had been idle, not the implementation.
void warm_page_cache(const std::string& dir, int rank, const double* data, int64_t bytes) {
  const std::string path = dir + "/collective_bench.warm." + std::to_string(rank);
  const int fd = open_or_die(path, O_WRONLY | O_CREAT | O_TRUNC);
  pwrite_all(fd, data, bytes, 0);
  ::close(fd);
  ::unlink(path.c_str());  // dirty pages of a deleted file are dropped, not written
}

// ------------------------------------------------------- implementations ---

// A staging buffer of doubles, not zero-filled (std::vector would write
// every element once more inside the timing).
struct Staging {
  std::unique_ptr<double[]> p;
  void make(int64_t n) { p.reset(n > 0 ? new double[n] : nullptr); }
  void drop() { p.reset(); }
  double* data() { return p.get(); }
};


struct Case {
  const Layout* layout;
  std::string path;  // the shared file (fpp: a prefix)
  bool flushed = false;
  int64_t buffer = 0;    // aggregator buffer hint (bytes), 0: the implementation's default
  int aggregators = 0;   // aggregator count hint, 0: default
};

// One implementation: setup (untimed, may be empty), write and read
// (timed), teardown (untimed).
struct Impl {
  std::function<void(const Case&)> setup;
  std::function<void(const Case&, const double*)> write;
  std::function<void(const Case&, double*)> read;
  std::function<void()> teardown;
};

MPI_Info hints_info(const Case& c) {
  MPI_Info info = MPI_INFO_NULL;
  if (c.buffer || c.aggregators) {
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "romio_cb_read", "enable");
    if (c.buffer) MPI_Info_set(info, "cb_buffer_size", std::to_string(c.buffer).c_str());
    if (c.aggregators) MPI_Info_set(info, "cb_nodes", std::to_string(c.aggregators).c_str());
  }
  return info;
}

// MPI-IO through a file view; collective (write_all) or independent
// (write_at). Unstructured: the file type lists the sorted ids, so the
// memory is packed into that order on the way (inside the timing).
Impl mpiio_impl(bool collective) {
  struct State {
    MPI_Datatype ftype = MPI_DATATYPE_NULL;
    std::vector<uint32_t> order;  // unstructured: memory position of the k-th smallest id
    Staging packed;               // unstructured: the values in id order
  };
  auto s = std::make_shared<State>();
  Impl impl;
  impl.setup = [s](const Case& c) {
    const Layout& l = *c.layout;
    if (l.is3d) {
      int g[3], sub[3], st[3];
      for (int d = 0; d < 3; ++d) {
        g[d] = static_cast<int>(l.dims[d]);
        sub[d] = static_cast<int>(l.count[d]);
        st[d] = static_cast<int>(l.start[d]);
      }
      if (l.local == 0) die("mpiio: an empty block");
      check_mpi(MPI_Type_create_subarray(3, g, sub, st, MPI_ORDER_C, MPI_DOUBLE, &s->ftype), "subarray");
    } else {
      const std::vector<uint64_t> pairs = sorted_pairs(l);
      std::vector<int> displs(l.local);
      s->order.resize(l.local);
      for (int64_t k = 0; k < l.local; ++k) {
        displs[k] = static_cast<int>(pairs[k] >> 32);
        s->order[k] = static_cast<uint32_t>(pairs[k]);
      }
      check_mpi(MPI_Type_create_indexed_block(static_cast<int>(l.local), 1, displs.data(), MPI_DOUBLE, &s->ftype),
                "indexed_block");
    }
    MPI_Type_commit(&s->ftype);
  };
  auto open_view = [s](const Case& c, int amode) {
    MPI_File fh;
    MPI_Info info = hints_info(c);
    check_mpi(MPI_File_open(MPI_COMM_WORLD, c.path.c_str(), amode, info, &fh), "MPI_File_open");
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    check_mpi(MPI_File_set_view(fh, 0, MPI_DOUBLE, s->ftype, "native", MPI_INFO_NULL), "MPI_File_set_view");
    return fh;
  };
  impl.write = [s, open_view, collective](const Case& c, const double* buf) {
    const Layout& l = *c.layout;
    if (!l.is3d) {
      s->packed.make(l.local);
      double* p = s->packed.data();
      for (int64_t k = 0; k < l.local; ++k) p[k] = buf[s->order[k]];
      buf = p;
    }
    MPI_File fh = open_view(c, MPI_MODE_CREATE | MPI_MODE_WRONLY);
    MPI_Status st;
    const int n = static_cast<int>(l.local);
    check_mpi(collective ? MPI_File_write_all(fh, buf, n, MPI_DOUBLE, &st)
                         : MPI_File_write_at(fh, 0, buf, n, MPI_DOUBLE, &st),
              "MPI_File_write");
    if (c.flushed) check_mpi(MPI_File_sync(fh), "MPI_File_sync");
    check_mpi(MPI_File_close(&fh), "MPI_File_close");
    s->packed.drop();
  };
  impl.read = [s, open_view, collective](const Case& c, double* buf) {
    const Layout& l = *c.layout;
    if (!l.is3d) s->packed.make(l.local);
    double* into = l.is3d ? buf : s->packed.data();
    MPI_File fh = open_view(c, MPI_MODE_RDONLY);
    MPI_Status st;
    const int n = static_cast<int>(l.local);
    check_mpi(collective ? MPI_File_read_all(fh, into, n, MPI_DOUBLE, &st)
                         : MPI_File_read_at(fh, 0, into, n, MPI_DOUBLE, &st),
              "MPI_File_read");
    check_mpi(MPI_File_close(&fh), "MPI_File_close");
    if (!l.is3d) {
      const double* p = s->packed.data();
      for (int64_t k = 0; k < l.local; ++k) buf[s->order[k]] = p[k];
      s->packed.drop();
    }
  };
  impl.teardown = [s] {
    if (s->ftype != MPI_DATATYPE_NULL) MPI_Type_free(&s->ftype);
    s->order = {};
  };
  return impl;
}

#if PARIO_BENCH_HAVE_HDF5
void check_h5(herr_t rc, const char* what) {
  if (rc < 0) die(std::string("HDF5: ") + what);
}

Impl hdf5_impl() {
  Impl impl;
  impl.setup = [](const Case& c) {
    if (!c.layout->is3d) die("hdf5: 3-D patterns only");
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors are reported here, not printed by HDF5
  };
  auto selection = [](const Layout& l, hid_t* mem, hid_t* file) {
    hsize_t dims[3], st[3], cnt[3];
    for (int d = 0; d < 3; ++d) {
      dims[d] = static_cast<hsize_t>(l.dims[d]);
      st[d] = static_cast<hsize_t>(l.start[d]);
      cnt[d] = static_cast<hsize_t>(l.count[d]);
    }
    *file = H5Screate_simple(3, dims, nullptr);
    check_h5(H5Sselect_hyperslab(*file, H5S_SELECT_SET, st, nullptr, cnt, nullptr), "select_hyperslab");
    *mem = H5Screate_simple(3, cnt, nullptr);
  };
  auto collective_dxpl = [] {
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    check_h5(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), "set_dxpl_mpio");
    return dxpl;
  };
  impl.write = [selection, collective_dxpl](const Case& c, const double* buf) {
    const Layout& l = *c.layout;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    check_h5(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL), "set_fapl_mpio");
    hid_t f = H5Fcreate(c.path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    check_h5(f, "H5Fcreate");
    hid_t mem, file;
    selection(l, &mem, &file);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    check_h5(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), "set_fill_time");
    hid_t dset = H5Dcreate2(f, "a", H5T_NATIVE_DOUBLE, file, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    check_h5(dset, "H5Dcreate2");
    hid_t dxpl = collective_dxpl();
    check_h5(H5Dwrite(dset, H5T_NATIVE_DOUBLE, mem, file, dxpl, buf), "H5Dwrite");
    if (c.flushed) check_h5(H5Fflush(f, H5F_SCOPE_GLOBAL), "H5Fflush");  // MPI_File_sync
    H5Pclose(dxpl);
    H5Dclose(dset);
    H5Pclose(dcpl);
    H5Sclose(mem);
    H5Sclose(file);
    check_h5(H5Fclose(f), "H5Fclose");
    H5Pclose(fapl);
  };
  impl.read = [selection, collective_dxpl](const Case& c, double* buf) {
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    check_h5(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL), "set_fapl_mpio");
    hid_t f = H5Fopen(c.path.c_str(), H5F_ACC_RDONLY, fapl);
    check_h5(f, "H5Fopen");
    hid_t dset = H5Dopen2(f, "a", H5P_DEFAULT);
    check_h5(dset, "H5Dopen2");
    hid_t mem, file;
    selection(*c.layout, &mem, &file);
    hid_t dxpl = collective_dxpl();
    check_h5(H5Dread(dset, H5T_NATIVE_DOUBLE, mem, file, dxpl, buf), "H5Dread");
    H5Pclose(dxpl);
    H5Sclose(mem);
    H5Sclose(file);
    H5Dclose(dset);
    check_h5(H5Fclose(f), "H5Fclose");
    H5Pclose(fapl);
  };
  impl.teardown = [] {};
  return impl;
}
#endif

// Runs as (offset, length) in elements; `runs` of one side of an exchange.
struct Seg {
  int64_t off, len;
};

// The hand-written two-phase: the global space cut into P contiguous owner
// ranges; the owner map (which runs of this rank's memory go to which
// owner, and where each received run lands in the owner's range) is built
// once in setup, with one MPI_Alltoallv of the runs' global starts.
struct TwoPhaseMap {
  int64_t range_lo = 0, range_n = 0;
  std::vector<Seg> send;  // runs of local memory, grouped by owner
  std::vector<Seg> recv;  // runs of the owner range, in arrival order
  std::vector<int> scount, sdispl, rcount, rdispl;  // in elements

  void build(const Layout& l) {
    const int p = nranks;
    range_lo = share_lo(l.global, p, rank);
    range_n = share_lo(l.global, p, rank + 1) - range_lo;
    // Split runs at owner boundaries; count segments per owner, then place
    // them (a counting sort by owner, memory order kept within one).
    auto owner_of = [&](int64_t g) {
      int lo = 0, hi = p - 1;
      while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (share_lo(l.global, p, mid) <= g) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    std::vector<int64_t> nseg(p, 0), nel(p, 0);
    auto split = [&](auto&& emit) {
      l.for_each_run([&](int64_t g, int64_t m, int64_t n) {
        while (n > 0) {
          const int o = owner_of(g);
          const int64_t take = std::min(n, share_lo(l.global, p, o + 1) - g);
          emit(o, g, m, take);
          g += take;
          m += take;
          n -= take;
        }
      });
    };
    split([&](int o, int64_t, int64_t, int64_t n) {
      ++nseg[o];
      nel[o] += n;
    });
    std::vector<int64_t> at(p + 1, 0);
    for (int o = 0; o < p; ++o) at[o + 1] = at[o] + nseg[o];
    send.resize(at[p]);
    std::vector<int64_t> gstart(at[p]);
    {
      std::vector<int64_t> next(at.begin(), at.end() - 1);
      split([&](int o, int64_t g, int64_t m, int64_t n) {
        send[next[o]] = {m, n};
        gstart[next[o]++] = g;
      });
    }
    // The owners learn each incoming run's global start and length.
    std::vector<int> sc(p), sd(p), rc(p), rd(p);
    for (int o = 0; o < p; ++o) {
      if (nseg[o] * 2 > INT32_MAX || nel[o] > INT32_MAX) die("twophase: counts beyond int");
      sc[o] = static_cast<int>(nseg[o] * 2);
      sd[o] = static_cast<int>(at[o] * 2);
    }
    MPI_Alltoall(sc.data(), 1, MPI_INT, rc.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int64_t rtotal = 0;
    for (int o = 0; o < p; ++o) {
      if (rtotal > INT32_MAX) die("twophase: counts beyond int");
      rd[o] = static_cast<int>(rtotal);
      rtotal += rc[o];
    }
    std::vector<int64_t> out(at[p] * 2), in(rtotal);
    for (int64_t i = 0; i < at[p]; ++i) {
      out[2 * i] = gstart[i];
      out[2 * i + 1] = send[i].len;
    }
    check_mpi(MPI_Alltoallv(out.data(), sc.data(), sd.data(), MPI_INT64_T, in.data(), rc.data(), rd.data(),
                            MPI_INT64_T, MPI_COMM_WORLD),
              "MPI_Alltoallv (owner map)");
    recv.resize(rtotal / 2);
    for (int64_t i = 0; i < rtotal / 2; ++i) recv[i] = {in[2 * i] - range_lo, in[2 * i + 1]};
    // Element counts and displacements of the value exchange.
    scount.assign(p, 0);
    sdispl.assign(p, 0);
    rcount.assign(p, 0);
    rdispl.assign(p, 0);
    for (int o = 0; o < p; ++o) scount[o] = static_cast<int>(nel[o]);
    MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int64_t s = 0, r = 0;
    for (int o = 0; o < p; ++o) {
      sdispl[o] = static_cast<int>(s);
      rdispl[o] = static_cast<int>(r);
      s += scount[o];
      r += rcount[o];
    }
    if (r != range_n) die("twophase: the ranks do not cover the global space exactly once");
  }
};

// Runs `segs` (offsets in `spread`, one after the other in `packed`):
// pack copies spread -> packed, unpack packed -> spread.
void pack(const std::vector<Seg>& segs, const double* spread, double* packed) {
  for (const Seg& s : segs) {
    if (s.len == 1) *packed = spread[s.off];
    else std::memcpy(packed, spread + s.off, s.len * sizeof(double));
    packed += s.len;
  }
}

void unpack(const std::vector<Seg>& segs, const double* packed, double* spread) {
  for (const Seg& s : segs) {
    if (s.len == 1) spread[s.off] = *packed;
    else std::memcpy(spread + s.off, packed, s.len * sizeof(double));
    packed += s.len;
  }
}

Impl twophase_impl() {
  struct State {
    TwoPhaseMap map;
    Staging sendbuf, recvbuf, range;
  };
  auto s = std::make_shared<State>();
  Impl impl;
  impl.setup = [s](const Case& c) { s->map.build(*c.layout); };
  impl.write = [s](const Case& c, const double* buf) {
    TwoPhaseMap& m = s->map;
    s->sendbuf.make(c.layout->local);
    s->recvbuf.make(m.range_n);
    s->range.make(m.range_n);
    double* sb = s->sendbuf.data();
    pack(m.send, buf, sb);
    check_mpi(MPI_Alltoallv(sb, m.scount.data(), m.sdispl.data(), MPI_DOUBLE, s->recvbuf.data(), m.rcount.data(),
                            m.rdispl.data(), MPI_DOUBLE, MPI_COMM_WORLD),
              "MPI_Alltoallv");
    double* rg = s->range.data();
    unpack(m.recv, s->recvbuf.data(), rg);
    const int fd = open_or_die(c.path, O_WRONLY | O_CREAT);
    pwrite_all(fd, rg, m.range_n * 8, m.range_lo * 8);
    if (c.flushed) sync_or_die(fd);
    ::close(fd);
    s->sendbuf.drop();
    s->recvbuf.drop();
    s->range.drop();
  };
  impl.read = [s](const Case& c, double* buf) {
    TwoPhaseMap& m = s->map;
    s->sendbuf.make(c.layout->local);
    s->recvbuf.make(m.range_n);
    s->range.make(m.range_n);
    const int fd = open_or_die(c.path, O_RDONLY);
    pread_all(fd, s->range.data(), m.range_n * 8, m.range_lo * 8);
    ::close(fd);
    double* rb = s->recvbuf.data();
    pack(m.recv, s->range.data(), rb);
    check_mpi(MPI_Alltoallv(rb, m.rcount.data(), m.rdispl.data(), MPI_DOUBLE, s->sendbuf.data(), m.scount.data(),
                            m.sdispl.data(), MPI_DOUBLE, MPI_COMM_WORLD),
              "MPI_Alltoallv");
    unpack(m.send, s->sendbuf.data(), buf);
    s->sendbuf.drop();
    s->recvbuf.drop();
    s->range.drop();
  };
  impl.teardown = [s] { s->map = {}; };
  return impl;
}

// Rank 0 gathers every rank's values (MPI_Gatherv), places them by the
// runs it gathered once in setup, and writes the whole file.
Impl gather_impl() {
  struct State {
    std::vector<Seg> runs;  // rank 0: every rank's runs (global start, length), rank after rank
    std::vector<int> counts, displs;
    Staging gathered, whole;
  };
  auto s = std::make_shared<State>();
  Impl impl;
  impl.setup = [s](const Case& c) {
    const Layout& l = *c.layout;
    std::vector<int64_t> mine;
    l.for_each_run([&](int64_t g, int64_t, int64_t n) {
      if (!mine.empty() && mine[mine.size() - 2] + mine.back() == g) {
        mine.back() += n;  // adjacent in the file and in memory: one run
      } else {
        mine.push_back(g);
        mine.push_back(n);
      }
    });
    if (mine.size() > INT32_MAX || l.local > INT32_MAX) die("gather: counts beyond int");
    int nmine = static_cast<int>(mine.size()), nlocal = static_cast<int>(l.local);
    std::vector<int> nruns(nranks), rd(nranks);
    s->counts.assign(nranks, 0);
    s->displs.assign(nranks, 0);
    MPI_Gather(&nmine, 1, MPI_INT, nruns.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Gather(&nlocal, 1, MPI_INT, s->counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int64_t total = 0, el = 0;
    for (int r = 0; r < nranks; ++r) {
      rd[r] = static_cast<int>(total);
      s->displs[r] = static_cast<int>(el);
      total += nruns[r];
      el += s->counts[r];
    }
    if (rank == 0 && (total > INT32_MAX || el > INT32_MAX)) die("gather: counts beyond int");
    std::vector<int64_t> all(rank == 0 ? total : 0);
    MPI_Gatherv(mine.data(), nmine, MPI_INT64_T, all.data(), nruns.data(), rd.data(), MPI_INT64_T, 0,
                MPI_COMM_WORLD);
    if (rank == 0) {
      s->runs.resize(total / 2);
      for (int64_t i = 0; i < total / 2; ++i) s->runs[i] = {all[2 * i], all[2 * i + 1]};
    }
  };
  impl.write = [s](const Case& c, const double* buf) {
    const int64_t global = c.layout->global;
    if (rank == 0) {
      s->gathered.make(global);
      s->whole.make(global);
    }
    check_mpi(MPI_Gatherv(buf, static_cast<int>(c.layout->local), MPI_DOUBLE, s->gathered.data(),
                          s->counts.data(), s->displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD),
              "MPI_Gatherv");
    if (rank == 0) {
      double* w = s->whole.data();
      unpack(s->runs, s->gathered.data(), w);
      const int fd = open_or_die(c.path, O_WRONLY | O_CREAT);
      pwrite_all(fd, w, global * 8, 0);
      if (c.flushed) sync_or_die(fd);
      ::close(fd);
    }
    s->gathered.drop();
    s->whole.drop();
  };
  impl.read = [s](const Case& c, double* buf) {
    const int64_t global = c.layout->global;
    if (rank == 0) {
      s->gathered.make(global);
      s->whole.make(global);
      const int fd = open_or_die(c.path, O_RDONLY);
      pread_all(fd, s->whole.data(), global * 8, 0);
      ::close(fd);
      pack(s->runs, s->whole.data(), s->gathered.data());
    }
    check_mpi(MPI_Scatterv(s->gathered.data(), s->counts.data(), s->displs.data(), MPI_DOUBLE, buf,
                           static_cast<int>(c.layout->local), MPI_DOUBLE, 0, MPI_COMM_WORLD),
              "MPI_Scatterv");
    s->gathered.drop();
    s->whole.drop();
  };
  impl.teardown = [s] { s->runs = {}; };
  return impl;
}

// The limit: each rank writes its memory as it is to its own file.
Impl fpp_impl() {
  Impl impl;
  impl.setup = [](const Case&) {};
  auto mine = [](const Case& c) { return c.path + "." + std::to_string(rank); };
  impl.write = [mine](const Case& c, const double* buf) {
    const int fd = open_or_die(mine(c), O_WRONLY | O_CREAT | O_TRUNC);
    pwrite_all(fd, buf, c.layout->local * 8, 0);
    if (c.flushed) sync_or_die(fd);
    ::close(fd);
  };
  impl.read = [mine](const Case& c, double* buf) {
    const int fd = open_or_die(mine(c), O_RDONLY);
    pread_all(fd, buf, c.layout->local * 8, 0);
    ::close(fd);
  };
  impl.teardown = [] {};
  return impl;
}

#if PARIO_BENCH_HAVE_COLLECTIVE
void check_pario(int rc, const char* what) {
  if (rc != PARIO_OK) {
    char msg[512] = "";
    pario_last_error_message(msg, sizeof msg);
    die(std::string(what) + ": " + pario_status_string(rc) + ": " + msg);
  }
}

pario_decomp_t make_decomp(const Layout& l, int file_type, const pario_decomp_hints& hints) {
  pario_group_t world;
  check_pario(pario_group_world(&world), "pario_group_world");
  pario_decomp_t d = PARIO_DECOMP_NULL;
  if (l.is3d)
    check_pario(pario_decomp_create_blocks(world, file_type, 3, l.dims, PARIO_ORDER_C, l.local ? 1 : 0, l.start,
                                           l.count, &hints, &d),
                "pario_decomp_create_blocks");
  else
    check_pario(pario_decomp_create_indices(world, file_type, l.global, l.local, l.ids.data(), &hints, &d),
                "pario_decomp_create_indices");
  return d;
}

pario_decomp_t make_decomp(const Layout& l, int64_t buffer, int aggregators) {
  pario_decomp_hints hints;
  pario_decomp_hints_init(&hints);
  hints.buffer_size = buffer;
  hints.aggregators = aggregators;
  return make_decomp(l, PARIO_TYPE_DOUBLE, hints);
}

// pario's engine on a pario shared file: created and closed around the
// write, opened (pario_shared_file_open) around the read, so the read can
// also be an N-to-M read of a file an earlier job left.
Impl pario_impl() {
  struct State {
    pario_decomp_t decomp = PARIO_DECOMP_NULL;
  };
  auto s = std::make_shared<State>();
  Impl impl;
  impl.setup = [s](const Case& c) { s->decomp = make_decomp(*c.layout, c.buffer, c.aggregators); };
  impl.write = [s](const Case& c, const double* buf) {
    pario_group_t world;
    check_pario(pario_group_world(&world), "pario_group_world");
    pario_shared_file_t file = PARIO_SHARED_FILE_NULL;
    check_pario(pario_shared_file_create(world, c.path.c_str(), PARIO_SIZE_UNKNOWN, c.layout->global * 8,
                                         c.buffer ? c.buffer : (16 << 20), &file),
                "pario_shared_file_create");
    check_pario(pario_decomp_write(s->decomp, file, 0, PARIO_TYPE_DOUBLE, buf), "pario_decomp_write");
    if (c.flushed) check_pario(pario_shared_file_sync(file), "pario_shared_file_sync");
    check_pario(pario_shared_file_close(&file), "pario_shared_file_close");
  };
  impl.read = [s](const Case& c, double* buf) {
    pario_group_t world;
    check_pario(pario_group_world(&world), "pario_group_world");
    pario_shared_file_t file = PARIO_SHARED_FILE_NULL;
    check_pario(pario_shared_file_open(world, c.path.c_str(), PARIO_MODE_READ, &file), "pario_shared_file_open");
    check_pario(pario_decomp_read(s->decomp, file, 0, PARIO_TYPE_DOUBLE, buf), "pario_decomp_read");
    check_pario(pario_shared_file_close(&file), "pario_shared_file_close");
  };
  impl.teardown = [s] {
    if (s->decomp != PARIO_DECOMP_NULL) check_pario(pario_decomp_free(&s->decomp), "pario_decomp_free");
  };
  return impl;
}
#endif

Impl make_impl(const std::string& name) {
  if (name == "mpiio") return mpiio_impl(true);
  if (name == "write_at") return mpiio_impl(false);
  if (name == "twophase") return twophase_impl();
  if (name == "gather") return gather_impl();
  if (name == "fpp") return fpp_impl();
#if PARIO_BENCH_HAVE_HDF5
  if (name == "hdf5") return hdf5_impl();
#endif
#if PARIO_BENCH_HAVE_COLLECTIVE
  if (name == "pario") return pario_impl();
#endif
  die("implementation '" + name + "' is unknown or not built in");
}

// ------------------------------------------------------------- driver ------

struct Memory {
  double max_mib = 0, sum_mib = 0;
  std::vector<double> per_rank;
};

Memory gather_memory(int64_t base_kib) {
  const double extra = (status_kib("VmHWM") - base_kib) / 1024.0;
  Memory m;
  m.per_rank.resize(nranks);
  MPI_Gather(&extra, 1, MPI_DOUBLE, m.per_rank.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (double v : m.per_rank) {
    m.max_mib = std::max(m.max_mib, v);
    m.sum_mib += v;
  }
  return m;
}

std::string json_list(const std::vector<double>& v) {
  std::string s = "[";
  char num[32];
  for (size_t i = 0; i < v.size(); ++i) {
    std::snprintf(num, sizeof num, "%s%.1f", i ? ", " : "", v[i]);
    s += num;
  }
  return s + "]";
}

struct Report {
  std::string impl, label, pattern, op;
  bool flushed;
  int64_t buffer;
  int aggregators, rep, writer_ranks;
  double seconds;
  int64_t bytes, local_bytes_max;
  Memory mem;
};

// The CPU seconds of the last timed() call, summed over the ranks: on a
// machine shared with other work, the evidence where wall time is a trend.
double last_cpu_seconds = 0;

void emit(const Report& r) {
  if (rank != 0) return;
  std::printf(
      "{\"impl\": \"%s\", \"pattern\": \"%s\", \"op\": \"%s\", \"ranks\": %d, \"writer_ranks\": %d, "
      "\"flushed\": %s, \"buffer\": %" PRId64 ", \"aggregators\": %d, \"rep\": %d, \"bytes\": %" PRId64
      ", \"seconds\": %.6f, \"mbps\": %.2f, \"data_mib_per_rank\": %.1f, \"extra_mib_max\": %.1f, "
      "\"extra_mib\": %s, \"cpu_s\": %.3f, \"verified\": true}\n",
      r.label.c_str(), r.pattern.c_str(), r.op.c_str(), nranks, r.writer_ranks, r.flushed ? "true" : "false",
      r.buffer, r.aggregators, r.rep, r.bytes, r.seconds, r.bytes / r.seconds / 1e6, r.local_bytes_max / 1048576.0,
      r.mem.max_mib, json_list(r.mem.per_rank).c_str(), last_cpu_seconds);
  std::fflush(stdout);
}

// User + system CPU seconds of this process so far (its I/O threads too).
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// Times f between two barriers (the slowest rank's time).
double timed(const std::function<void()>& f) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double c0 = cpu_seconds();
  const double t0 = MPI_Wtime();
  f();
  const double mine = cpu_seconds() - c0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;
  MPI_Allreduce(&mine, &last_cpu_seconds, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return seconds;
}

void remove_files(const std::string& path) {
  if (rank == 0) ::unlink(path.c_str());
  ::unlink((path + "." + std::to_string(rank)).c_str());
  MPI_Barrier(MPI_COMM_WORLD);
}

// decomp: setup times of 10^7 indices, no I/O.
void run_decomp(const Layout& l, const std::vector<std::string>& impls, int rep) {
  for (const std::string& name : impls) {
    double seconds = 0;
    if (name == "alltoallv") {
      // One exchange of the index array itself to the owner ranges: what
      // a decomposition cannot avoid moving.
      std::vector<int> sc(nranks, 0), sd(nranks), rc(nranks), rd(nranks);
      seconds = timed([&] {
        std::vector<int64_t> sorted(l.ids);
        std::vector<int> owner(l.local);
        for (int64_t k = 0; k < l.local; ++k) {
          owner[k] = static_cast<int>(static_cast<__int128>(l.ids[k]) * nranks / l.global);
          while (owner[k] + 1 < nranks && share_lo(l.global, nranks, owner[k] + 1) <= l.ids[k]) ++owner[k];
          while (share_lo(l.global, nranks, owner[k]) > l.ids[k]) --owner[k];
          ++sc[owner[k]];
        }
        int64_t at = 0;
        for (int o = 0; o < nranks; ++o) {
          sd[o] = static_cast<int>(at);
          at += sc[o];
        }
        std::vector<int> next(sd);
        for (int64_t k = 0; k < l.local; ++k) sorted[next[owner[k]]++] = l.ids[k];
        MPI_Alltoall(sc.data(), 1, MPI_INT, rc.data(), 1, MPI_INT, MPI_COMM_WORLD);
        int64_t r = 0;
        for (int o = 0; o < nranks; ++o) {
          rd[o] = static_cast<int>(r);
          r += rc[o];
        }
        std::vector<int64_t> in(r);
        MPI_Alltoallv(sorted.data(), sc.data(), sd.data(), MPI_INT64_T, in.data(), rc.data(), rd.data(),
                      MPI_INT64_T, MPI_COMM_WORLD);
      });
    } else if (name == "twophase") {
      TwoPhaseMap m;
      seconds = timed([&] { m.build(l); });
#if PARIO_BENCH_HAVE_COLLECTIVE
    } else if (name == "pario") {
      pario_decomp_t d = PARIO_DECOMP_NULL;
      seconds = timed([&] { d = make_decomp(l, 0, 0); });
      check_pario(pario_decomp_free(&d), "pario_decomp_free");
#endif
    } else {
      die("decomp: implementation '" + name + "' is unknown or not built in");
    }
    if (rank == 0) {
      std::printf("{\"impl\": \"%s\", \"pattern\": \"decomp\", \"op\": \"setup\", \"ranks\": %d, \"rep\": %d, "
                  "\"indices\": %" PRId64 ", \"seconds\": %.6f}\n",
                  name.c_str(), nranks, rep, l.global, seconds);
      std::fflush(stdout);
    }
  }
}

#if PARIO_BENCH_HAVE_COLLECTIVE
// --convert: where pario converts (pario_decomp_hints.convert: the sender,
// or the aggregator), int32 in memory to each --file-types type (int64,
// double) big endian in the file, page cache. `passes` passes over every
// (file type, side), the order turning with each pass; every write is
// read back into int32 and checked. MB/s count the file's bytes.
void run_convert(const Layout& l, const std::vector<std::string>& file_types, const std::vector<std::string>& sides,
                 int passes, int rep, const std::string& dir) {
  if (l.global > INT32_MAX) die("convert: more than 2^31 elements");
  std::vector<int32_t> mine(l.local), back(l.local);
  l.for_each_run([&](int64_t g, int64_t m, int64_t n) {
    for (int64_t i = 0; i < n; ++i) mine[m + i] = static_cast<int32_t>(g + i);
  });
  std::vector<std::pair<std::string, std::string>> combos;  // (file type, side)
  for (const std::string& t : file_types)
    for (const std::string& side : sides) combos.push_back({t, side});
  for (int pass = 0; pass < passes; ++pass) {
    for (size_t c = 0; c < combos.size(); ++c) {
      const auto& [type, side] = combos[(c + pass + rep) % combos.size()];
      if (type != "int64" && type != "double") die("convert: file type " + type + " (int64 or double)");
      if (side != "sender" && side != "aggregator") die("convert: side " + side + " (sender or aggregator)");
      pario_decomp_hints h;
      pario_decomp_hints_init(&h);
      h.byte_order = PARIO_BYTE_ORDER_BIG;
      h.convert = side == "sender" ? PARIO_CONVERT_SENDER : PARIO_CONVERT_AGGREGATOR;
      pario_decomp_t d = make_decomp(l, type == "int64" ? PARIO_TYPE_INT64 : PARIO_TYPE_DOUBLE, h);
      const std::string path = dir + "/collective_bench.convert." + type + "." + side;
      remove_files(path);
      if (rank == 0) ::sync();
      pario_group_t world;
      check_pario(pario_group_world(&world), "pario_group_world");
      auto report = [&](const char* op, double seconds) {
        if (rank != 0) return;
        std::printf("{\"impl\": \"pario\", \"pattern\": \"%s\", \"op\": \"%s\", \"kind\": \"convert\", "
                    "\"ranks\": %d, \"convert\": \"%s\", \"mem_type\": \"int32\", \"file_type\": \"%s\", "
                    "\"byte_order\": \"big\", \"rep\": %d, \"pass\": %d, \"bytes\": %" PRId64
                    ", \"seconds\": %.6f, \"mbps\": %.2f}\n",
                    l.name.c_str(), op, nranks, side.c_str(), type.c_str(), rep, pass, l.global * 8, seconds,
                    l.global * 8 / seconds / 1e6);
        std::fflush(stdout);
      };
      report("write", timed([&] {
        pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
        check_pario(pario_shared_file_create(world, path.c_str(), PARIO_SIZE_UNKNOWN, l.global * 8, 16 << 20, &f),
                    "pario_shared_file_create");
        check_pario(pario_decomp_write(d, f, 0, PARIO_TYPE_INT32, mine.data()), "pario_decomp_write");
        check_pario(pario_shared_file_close(&f), "pario_shared_file_close");
      }));
      std::fill(back.begin(), back.end(), -1);
      report("read", timed([&] {
        pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
        check_pario(pario_shared_file_open(world, path.c_str(), PARIO_MODE_READ, &f), "pario_shared_file_open");
        check_pario(pario_decomp_read(d, f, 0, PARIO_TYPE_INT32, back.data()), "pario_decomp_read");
        check_pario(pario_shared_file_close(&f), "pario_shared_file_close");
      }));
      int64_t wrong = back == mine ? 0 : 1, any = 0;
      MPI_Allreduce(&wrong, &any, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
      if (any) die("convert " + type + " " + side + ": read back differs from what was written");
      check_pario(pario_decomp_free(&d), "pario_decomp_free");
      remove_files(path);
    }
  }
}
#endif

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= s.size()) {
    const size_t comma = s.find(',', at);
    const std::string item = s.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  std::string dir = "/tmp", pattern = "slabs", impls_arg = "fpp", label, flushed_arg = "0", buffers_arg = "0",
              aggregators_arg = "0", convert_arg, file_types_arg = "int64,double";
  int64_t dims[3] = {16, 512, 512}, elements = int64_t{1} << 21;
  int px = 0, py = 0, rep = 0, writer_ranks = 0, passes = 3;
  uint64_t seed = 25;
  bool keep = false, read_only = false, warm = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--keep" || a == "--read-only") {
      (a == "--keep" ? keep : read_only) = true;
      continue;
    }
    if (a == "--impls-built") {  // what this binary can run, and on which MPI
      char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
      int len = 0;
      MPI_Get_library_version(version, &len);
      for (char& ch : version)
        if (ch == '"' || ch == '\\' || (ch > 0 && ch < ' ')) ch = ' ';
      if (rank == 0)
        std::printf("{\"impls\": [\"mpiio\", \"write_at\", \"twophase\", \"gather\", \"fpp\"%s%s], \"mpi\": \"%s\"}\n",
                    PARIO_BENCH_HAVE_HDF5 ? ", \"hdf5\"" : "", PARIO_BENCH_HAVE_COLLECTIVE ? ", \"pario\"" : "",
                    version);
      MPI_Finalize();
      return 0;
    }
    if (i + 1 >= argc) die("no value after " + a);
    const std::string v = argv[++i];
    if (a == "--dir") dir = v;
    else if (a == "--pattern") pattern = v;
    else if (a == "--impl") impls_arg = v;
    else if (a == "--label") label = v;
    else if (a == "--flushed") flushed_arg = v;
    else if (a == "--dims") {
      const auto d = split_list(v);
      if (d.size() != 3) die("--dims nz,ny,nx");
      for (int k = 0; k < 3; ++k) dims[k] = std::atoll(d[k].c_str());
    } else if (a == "--elements") elements = std::atoll(v.c_str());
    else if (a == "--px") px = std::atoi(v.c_str());
    else if (a == "--py") py = std::atoi(v.c_str());
    else if (a == "--buffer") buffers_arg = v;
    else if (a == "--aggregators") aggregators_arg = v;
    else if (a == "--rep") rep = std::atoi(v.c_str());
    else if (a == "--warm-pages") warm = v != "0";  // warm_page_cache before each write (default 1)
    else if (a == "--seed") seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (a == "--writer-ranks") writer_ranks = std::atoi(v.c_str());
    else if (a == "--convert") convert_arg = v;
    else if (a == "--file-types") file_types_arg = v;
    else if (a == "--passes") passes = std::atoi(v.c_str());
    else die("unknown argument " + a);
  }
#if PARIO_BENCH_HAVE_COLLECTIVE
  if (pario_init() != PARIO_OK) die("pario_init");
#endif
  if (!px) {
    px = nranks >= 2 ? 2 : 1;
    py = nranks / px;
  }
  const Layout layout = make_layout(pattern, dims, px, py, elements, seed);
  std::vector<std::string> impls = split_list(impls_arg);
  if (pattern == "decomp") {
    run_decomp(layout, impls, rep);
  } else if (!convert_arg.empty()) {
#if PARIO_BENCH_HAVE_COLLECTIVE
    run_convert(layout, split_list(file_types_arg), split_list(convert_arg), passes, rep, dir);
#else
    die("--convert needs pario's collective engine");
#endif
  } else {
    // The order turns with the repetition, so no implementation always
    // follows the same one.
    std::rotate(impls.begin(), impls.begin() + rep % impls.size(), impls.end());
    std::vector<double> data(layout.local), back(layout.local);
    fill(layout, data.data());
    int64_t local_bytes = layout.local * 8, local_max = 0;
    MPI_Allreduce(&local_bytes, &local_max, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    for (const std::string& name : impls)
      for (const std::string& fl : split_list(flushed_arg))
        for (const std::string& b : split_list(buffers_arg))
          for (const std::string& ag : split_list(aggregators_arg)) {
            Case c;
            c.layout = &layout;
            c.flushed = fl == "1";
            c.buffer = std::atoll(b.c_str());
            c.aggregators = std::atoi(ag.c_str());
            const std::string shown = name == "mpiio" && !label.empty() ? label : name;
            // Named by what wrote it, so an N-to-M read finds the file its
            // implementation left (--keep) at another rank count.
            c.path = dir + "/collective_bench." + shown + "." + pattern + "." + std::to_string(layout.global);
            if (!read_only) remove_files(c.path);
            Impl impl = make_impl(name);
            impl.setup(c);
            Report r{name, shown, layout.name, "write", c.flushed, c.buffer, c.aggregators, rep,
                     writer_ranks ? writer_ranks : nranks, 0.0, layout.global * 8, local_max, {}};
            if (!read_only) {
              if (rank == 0) ::sync();  // untimed: earlier cases' dirty pages out of the way
              if (warm) warm_page_cache(dir, rank, data.data(), layout.local * 8);
              MPI_Barrier(MPI_COMM_WORLD);
              const int64_t base = reset_peak_kib();
              r.seconds = timed([&] { impl.write(c, data.data()); });
              r.mem = gather_memory(base);
              emit(r);
            }
            std::fill(back.begin(), back.end(), -1.0);
            const int64_t base = reset_peak_kib();
            r.op = "read";
            r.seconds = timed([&] { impl.read(c, back.data()); });
            r.mem = gather_memory(base);
            verify(layout, back.data(), r.label + " " + layout.name);
            emit(r);
            impl.teardown();
            if (!keep && !read_only) remove_files(c.path);
          }
  }
#if PARIO_BENCH_HAVE_COLLECTIVE
  if (pario_finalize() != PARIO_OK) die("pario_finalize");  // MPI stays: this program started it
#endif
  MPI_Finalize();
  return 0;
}
