// GA ChemIO's DRA API over pario disk arrays (the public C API only).
//
// DRA names disk arrays and requests by small integers; two tables map
// them to pario handles. They agree across ranks because every call is
// collective and made in the same order everywhere.
#include "pario/compat/dra.h"

#include <fcntl.h>  // AT_FDCWD
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>  // renameat2, RENAME_EXCHANGE (glibc 2.28)

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <ctime>
#include <string>
#include <vector>

#include "compat/classic.h"
#include "compat/dra_internal.h"

namespace pario::dra {
namespace {

using compat::fail;
using compat::from_pario;

struct Disk {
  pario_disk_array_t handle = PARIO_DISK_ARRAY_NULL;
  std::string name, filename;
  int type = 0;  // as given at creation (an MA code); 0: derive from the store's type
};

// GA keeps a disk array's name and MA type in its metadata file; pario
// keeps them as attributes of the Zarr store.
constexpr const char* kNameAttribute = "dra_name";
constexpr size_t kInquireRoom = 1024;  // NDRA_Inquire's name buffer for an opened array (dra.h)
constexpr const char* kTypeAttribute = "dra_type";

struct Request {
  pario_request_t request = PARIO_REQUEST_NULL;
  MemorySide memory;  // kept alive until the request ends
  bool live = false;
  bool finished = false;  // completed by DRA_Probe; status holds the outcome
  int status = PARIO_OK;
};

struct State {
  std::mutex mu;
  bool started_pario = false;
  pario_group_t world = PARIO_GROUP_NULL;
  std::vector<Disk> disks;
  std::vector<Request> requests;
};

State& state() {
  static State s;
  return s;
}

// pario started (DRA_Init does it; the other calls accept a program that
// started pario itself) and the world group.
int ready(const char* call) {
  State& s = state();
  if (s.world) return PARIO_OK;
  int up = 0;
  pario_initialized(&up);
  if (!up) return fail(PARIO_ERR_STATE, "%s: call DRA_Init first", call);
  return from_pario(pario_group_world(&s.world));
}

int disk_of(const char* call, int d_a, Disk** out) {
  auto& disks = state().disks;
  if (d_a < 0 || d_a >= static_cast<int>(disks.size()) || !disks[d_a].handle) {
    return fail(PARIO_ERR_INVALID_ARGUMENT, "%s: %d is not an open disk array", call, d_a);
  }
  *out = &disks[d_a];
  return PARIO_OK;
}

int request_of(const char* call, int id, Request** out) {
  auto& requests = state().requests;
  if (id < 0 || id >= static_cast<int>(requests.size()) || !requests[id].live) {
    return fail(PARIO_ERR_INVALID_ARGUMENT, "%s: %d is not a pending request", call, id);
  }
  *out = &requests[id];
  return PARIO_OK;
}

// A request number handed out and already waited for (its slot free, or
// reused by a later request, which a wait then completes early): GA treats
// it as complete.
bool waited_for(int id) {
  const auto& requests = state().requests;
  return id >= 0 && id < static_cast<int>(requests.size()) && !requests[id].live;
}

// Puts item in the first slot `in_use` says is free; its index is the
// number handed to the caller.
template <typename T, typename InUse>
int take_slot(std::vector<T>& slots, T item, InUse in_use) {
  for (size_t i = 0; i < slots.size(); ++i) {
    if (!in_use(slots[i])) {
      slots[i] = std::move(item);
      return static_cast<int>(i);
    }
  }
  slots.push_back(std::move(item));
  return static_cast<int>(slots.size() - 1);
}

int new_request(Request r) {
  r.live = true;
  return take_slot(state().requests, std::move(r), [](const Request& x) { return x.live; });
}

int open_slot(Disk d) {
  return take_slot(state().disks, std::move(d), [](const Disk& x) { return x.handle != PARIO_DISK_ARRAY_NULL; });
}

int open_mode(const char* call, int mode, int* pario_mode) {
  if (mode == DRA_R) *pario_mode = PARIO_MODE_READ;
  else if (mode == DRA_RW || mode == DRA_W) *pario_mode = PARIO_MODE_RDWR;
  else return fail(PARIO_ERR_INVALID_ARGUMENT, "%s: mode %d is not DRA_R, DRA_W or DRA_RW", call, mode);
  return PARIO_OK;
}

// Dimensions of the global array in C order.
int memory_dims(const MemorySide& m, int* ndim, int64_t dims[]) {
  if (m.array) return from_pario(pario_array_info(m.array, nullptr, ndim, dims));
  *ndim = m.ops.ndim;
  std::copy(m.ops.dims, m.ops.dims + m.ops.ndim, dims);
  return PARIO_OK;
}

int my_rank() {
  int me = 0;
  pario_group_rank(state().world, &me);
  return me;
}

// Rank 0's {value, errno} on every rank.
int agree_on(int64_t* pair) { return from_pario(pario_group_broadcast(state().world, pair, 2 * sizeof *pair, 0)); }

// GA creates over a plain file at the name (programs often fopen it first
// to check that the directory is writable). Rank 0 looks, never through a
// symbolic link (lstat).
int is_plain_file(const std::string& path, bool* plain) {
  int64_t seen[2] = {0, 0};
  if (my_rank() == 0) {
    struct stat st;
    seen[0] = ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  }
  const int rc = agree_on(seen);
  *plain = seen[0] != 0;
  return rc;
}

// Rank 0 puts the store at `temp` in the place of the plain file at
// `path`, which no moment leaves without one or the other:
// renameat2(RENAME_EXCHANGE) swaps the two names (rename(2) cannot put a
// directory over a file), then the file, now at `temp`, is removed. Where
// the file system cannot exchange (EINVAL, ENOSYS: some network file
// systems), the file is renamed aside first and put back if the store
// cannot take its name: the name is briefly missing, the old file is
// never lost. Returns errno (0: done); the store is still at `temp` unless
// it is 0.
int swap_in(const std::string& temp, const std::string& path) {
  if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) == 0) {
    ::unlink(temp.c_str());  // the old file (a failure leaves it, named temp, beside the store)
    return 0;
  }
  if (errno != EINVAL && errno != ENOSYS) return errno;
  const std::string aside = temp + ".old";
  if (::rename(path.c_str(), aside.c_str()) != 0) return errno;
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::rename(aside.c_str(), path.c_str());
    return err;
  }
  ::unlink(aside.c_str());
  return 0;
}

// The store is made whole under a fresh name beside the plain file, closed,
// swapped in (rank 0), then opened at the file's name. Any failure before
// the swap removes the new store and leaves the old file as it was.
int create_over_file(const char* call, const std::string& path, int pt, int ndim, const int64_t dims[],
                     const int64_t hint[], const Disk& attributes, pario_disk_array_t* out) {
  State& s = state();
  std::string temp;
  // pid, a per-process count and the clock: a leftover of an earlier
  // process with the same pid must not be taken for ours.
  static unsigned long made = 0;
  if (my_rank() == 0) {
    temp = path + ".pario-new-" + std::to_string(::getpid()) + "-" + std::to_string(made++) + "-" +
           std::to_string(static_cast<unsigned long>(::time(nullptr)));
  }
  int rc = compat::broadcast_string(s.world, &temp);
  if (rc != PARIO_OK) return rc;
  pario_disk_array_t h = PARIO_DISK_ARRAY_NULL;
  if ((rc = from_pario(pario_disk_array_create(s.world, temp.c_str(), pt, ndim, dims, hint, &h))) != PARIO_OK) {
    return rc;
  }
  rc = from_pario(pario_disk_array_set_attribute(h, kNameAttribute, attributes.name.c_str()));
  if (rc == PARIO_OK) {
    rc = from_pario(pario_disk_array_set_attribute(h, kTypeAttribute, std::to_string(attributes.type).c_str()));
  }
  const int closed = from_pario(pario_disk_array_close(&h));
  if (rc == PARIO_OK) rc = closed;
  int64_t swapped[2] = {0, 0};
  if (rc == PARIO_OK) {
    if (my_rank() == 0) swapped[1] = swap_in(temp, path);
    if ((rc = agree_on(swapped)) == PARIO_OK && swapped[1] != 0) {
      rc = fail(PARIO_ERR_IO, "%s: cannot put the new disk array in place (%s) of the file %s", call,
                std::strerror(static_cast<int>(swapped[1])), path.c_str());
    }
  }
  if (rc != PARIO_OK) {
    pario_disk_array_delete(s.world, temp.c_str());  // the old file stays
    return rc;
  }
  return from_pario(pario_disk_array_open(s.world, path.c_str(), PARIO_MODE_RDWR, out));  // as a created one
}

int finish(Request* r, int rc) {
  r->finished = true;
  r->status = rc;
  return rc;
}

}  // namespace

int pario_type_of(int ma_type) {
  switch (ma_type) {
    case 1004: case 1013: return PARIO_TYPE_DOUBLE;          // C_DBL, MT_F_DBL
    case 1003: case 1012: return PARIO_TYPE_FLOAT;           // C_FLOAT, MT_F_REAL
    case 1001: return PARIO_TYPE_INT32;                      // C_INT
    case 1002: case 1016: return PARIO_TYPE_INT64;           // C_LONG, C_LONGLONG
    case 1010: return PARIO_F77_INTEGER_SIZE == 4 ? PARIO_TYPE_INT32 : PARIO_TYPE_INT64;  // MT_F_INT
    case 1007: case 1015: return PARIO_TYPE_COMPLEX_DOUBLE;  // C_DCPL, MT_F_DCPL
    case 1006: case 1014: return PARIO_TYPE_COMPLEX_FLOAT;   // C_SCPL, MT_F_SCPL
    default:  // pario's own types pass through
      return ma_type >= PARIO_TYPE_DOUBLE && ma_type <= PARIO_TYPE_COMPLEX_FLOAT ? ma_type : 0;
  }
}

int ma_type_of(int pario_type, bool fortran) {
  switch (pario_type) {
    case PARIO_TYPE_DOUBLE: return fortran ? 1013 : 1004;
    case PARIO_TYPE_FLOAT: return fortran ? 1012 : 1003;
    case PARIO_TYPE_INT32: return fortran && PARIO_F77_INTEGER_SIZE == 4 ? 1010 : 1001;
    case PARIO_TYPE_INT64: return fortran && PARIO_F77_INTEGER_SIZE == 8 ? 1010 : 1002;
    case PARIO_TYPE_COMPLEX_DOUBLE: return fortran ? 1015 : 1007;
    case PARIO_TYPE_COMPLEX_FLOAT: return fortran ? 1014 : 1006;
    default: return pario_type;  // no MA type: pario's own code
  }
}

int create(const char* call, int type, int ndim, const int64_t dims[], const char* name, const char* filename,
           int mode, const int64_t reqdims[], int* d_a) {
  std::lock_guard<std::mutex> lock(state().mu);
  int rc = ready(call);
  if (rc != PARIO_OK) return rc;
  // Checked here, then agreed: a rank refused alone must not leave the
  // others in the broadcast below.
  const int pt = pario_type_of(type);
  int pario_mode = 0;
  if (!filename || !d_a || !dims) {
    rc = fail(PARIO_ERR_INVALID_ARGUMENT, "%s: null filename, dims or d_a", call);
  } else if (!pt) {
    rc = fail(PARIO_ERR_INVALID_ARGUMENT, "%s: type %d is not a supported MA/GA type", call, type);
  } else if (ndim < 1 || ndim > PARIO_ARRAY_MAX_DIMS) {
    rc = fail(PARIO_ERR_INVALID_ARGUMENT, "%s: ndim %d (1 to %d)", call, ndim, PARIO_ARRAY_MAX_DIMS);
  } else {
    rc = open_mode(call, mode, &pario_mode);
  }
  if ((rc = compat::agree_checks(state().world, call, rc)) != PARIO_OK) return rc;
  // A request dimension of -1 (unspecified) or out of range lets pario choose.
  int64_t hint[PARIO_ARRAY_MAX_DIMS];
  bool hinted = reqdims != nullptr;
  for (int d = 0; hinted && d < ndim; ++d) {
    hint[d] = reqdims[d];
    hinted = hint[d] > 0;
  }
  // GA keeps one disk array per collective create, named by rank 0 (its
  // metadata), whatever the other ranks passed; pario's native create
  // refuses paths that differ between ranks, so every rank takes rank 0's.
  std::string path;
  if (my_rank() == 0) path = filename;
  if ((rc = compat::broadcast_string(state().world, &path)) != PARIO_OK) return rc;
  Disk disk{PARIO_DISK_ARRAY_NULL, name ? name : "", path, type};
  bool plain = false;
  if ((rc = is_plain_file(path, &plain)) != PARIO_OK) return rc;
  if (plain) {
    if ((rc = create_over_file(call, path, pt, ndim, dims, hinted ? hint : nullptr, disk, &disk.handle)) != PARIO_OK) {
      return rc;
    }
    *d_a = open_slot(std::move(disk));
    return PARIO_OK;
  }
  // GA creates over an old array: replace a store (never through a symbolic
  // link: pario refuses one).
  pario_disk_array_t h = PARIO_DISK_ARRAY_NULL;
  if ((rc = from_pario(pario_disk_array_create_mode(state().world, path.c_str(), pt, ndim, dims,
                                                    hinted ? hint : nullptr,
                                                    PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &h))) != PARIO_OK) {
    return rc;
  }
  disk.handle = h;
  if ((rc = from_pario(pario_disk_array_set_attribute(h, kNameAttribute, disk.name.c_str()))) != PARIO_OK ||
      (rc = from_pario(pario_disk_array_set_attribute(h, kTypeAttribute, std::to_string(type).c_str()))) !=
          PARIO_OK) {
    pario_disk_array_close(&h);
    return rc;
  }
  *d_a = open_slot(std::move(disk));
  return PARIO_OK;
}

int inquire(const char* call, int d_a, bool fortran, int* type, int* ndim, int64_t dims[], std::string* name,
            std::string* filename) {
  std::lock_guard<std::mutex> lock(state().mu);
  Disk* d;
  int rc = disk_of(call, d_a, &d);
  if (rc != PARIO_OK) return rc;
  int pt = 0;
  if ((rc = from_pario(pario_disk_array_info(d->handle, &pt, ndim, dims, nullptr))) != PARIO_OK) return rc;
  if (type) *type = d->type >= 1000 ? d->type : ma_type_of(pt, fortran);
  if (name) *name = d->name;
  if (filename) *filename = d->filename;
  return PARIO_OK;
}

namespace {

// transfer's local checks: the arrays, and sections of one shape.
int check_transfer(const char* call, bool transp, int g_a, int d_a, const Bounds& bounds, Disk** d, MemorySide* m,
                   int64_t glo[], int64_t dlo[], int64_t count[], int perm[]) {
  int rc = disk_of(call, d_a, d);
  if (rc != PARIO_OK) return rc;
  if ((rc = memory_side(g_a, m)) != PARIO_OK) return rc;
  int nd = 0, dnd = 0;
  int64_t gdims[PARIO_ARRAY_MAX_DIMS], ddims[PARIO_ARRAY_MAX_DIMS];
  if ((rc = memory_dims(*m, &nd, gdims)) != PARIO_OK) return rc;
  if ((rc = from_pario(pario_disk_array_info((*d)->handle, nullptr, &dnd, ddims, nullptr))) != PARIO_OK) return rc;
  if (nd != dnd) {
    return fail(PARIO_ERR_INVALID_ARGUMENT, "%s: the global array has %d dimensions, the disk array %d", call, nd,
                dnd);
  }
  int64_t ghi[PARIO_ARRAY_MAX_DIMS], dhi[PARIO_ARRAY_MAX_DIMS];
  for (int i = 0; i < nd; ++i) glo[i] = 0, ghi[i] = gdims[i] - 1, dlo[i] = 0, dhi[i] = ddims[i] - 1;
  if (bounds) bounds(nd, glo, ghi, dlo, dhi);
  for (int i = 0; i < nd; ++i) {
    perm[i] = transp ? nd - 1 - i : i;
    count[i] = ghi[i] - glo[i] + 1;
  }
  for (int i = 0; i < nd; ++i) {
    const int64_t disk_count = dhi[i] - dlo[i] + 1;
    if (disk_count != count[perm[i]]) {
      return fail(PARIO_ERR_INVALID_ARGUMENT,
                  "%s: the sections differ in shape (disk dimension %d spans %lld, the global array's %lld%s)",
                  call, i, static_cast<long long>(disk_count), static_cast<long long>(count[perm[i]]),
                  transp ? ", transposed" : "");
    }
  }
  return PARIO_OK;
}

}  // namespace

int transfer(const char* call, bool write, bool transp, int g_a, int d_a, const Bounds& bounds, int* request) {
  std::lock_guard<std::mutex> lock(state().mu);
  if (request) *request = DRA_REQ_INVALID;
  Disk* d = nullptr;
  MemorySide m;
  int64_t glo[PARIO_ARRAY_MAX_DIMS], dlo[PARIO_ARRAY_MAX_DIMS], count[PARIO_ARRAY_MAX_DIMS];
  int perm[PARIO_ARRAY_MAX_DIMS];
  // Checked here, then agreed: a rank refused alone must not leave the
  // others in the transfer's collective start.
  int rc = request ? check_transfer(call, transp, g_a, d_a, bounds, &d, &m, glo, dlo, count, perm)
                   : fail(PARIO_ERR_INVALID_ARGUMENT, "%s: request is null", call);
  if ((rc = compat::agree_checks(state().world, call, rc)) != PARIO_OK) return rc;
  Request r;
  r.memory = m;
  if (m.array) {
    rc = write ? pario_disk_array_iwrite(d->handle, m.array, glo, count, dlo, perm, &r.request)
               : pario_disk_array_iread(d->handle, m.array, glo, count, dlo, perm, &r.request);
  } else {
    rc = write ? pario_disk_array_iwrite_ops(d->handle, &m.ops, glo, count, dlo, perm, &r.request)
               : pario_disk_array_iread_ops(d->handle, &m.ops, glo, count, dlo, perm, &r.request);
  }
  if ((rc = from_pario(rc)) != PARIO_OK) return rc;
  *request = new_request(std::move(r));
  return PARIO_OK;
}

}  // namespace pario::dra

using namespace pario::dra;  // NOLINT: this file is the C boundary
using pario::compat::caught;
using pario::compat::fail;
using pario::compat::from_pario;

extern "C" {

int DRA_Init(int max_arrays, double max_array_size, double total_disk_space, double max_memory) try {
  (void)max_arrays, (void)max_array_size, (void)total_disk_space, (void)max_memory;  // no limits here
  std::lock_guard<std::mutex> lock(state().mu);
  State& s = state();
  if (s.world) return PARIO_OK;
  int up = 0, rc;
  pario_initialized(&up);
  if (!up) {
    if ((rc = from_pario(pario_init())) != PARIO_OK) return rc;
    s.started_pario = true;
  }
  return from_pario(pario_group_world(&s.world));
} catch (...) {
  return caught("DRA_Init");
}

int DRA_Terminate(void) try {
  std::lock_guard<std::mutex> lock(state().mu);
  State& s = state();
  if (!s.world) return PARIO_OK;
  int first = PARIO_OK;
  auto keep = [&](int rc) {
    if (first == PARIO_OK && rc != PARIO_OK) first = rc;
  };
  for (Request& r : s.requests) {  // in id order: the same on every rank
    if (r.live && !r.finished) keep(pario_request_wait(&r.request));
    r = Request{};
  }
  for (Disk& d : s.disks) {
    if (d.handle) keep(pario_disk_array_close(&d.handle));
  }
  s.requests.clear();
  s.disks.clear();
  keep(pario_group_free(&s.world));
  if (s.started_pario) keep(pario_finalize());
  s.started_pario = false;
  return from_pario(first);
} catch (...) {
  return caught("DRA_Terminate");
}

int NDRA_Create(int type, int ndim, dra_size_t dims[], char* name, char* filename, int mode, dra_size_t reqdims[],
                int* d_a) try {
  int64_t d[PARIO_ARRAY_MAX_DIMS], r[PARIO_ARRAY_MAX_DIMS];
  if (!dims || ndim < 1 || ndim > PARIO_ARRAY_MAX_DIMS) {
    return fail(PARIO_ERR_INVALID_ARGUMENT, "NDRA_Create: null dims or ndim %d (1 to %d)", ndim,
                PARIO_ARRAY_MAX_DIMS);
  }
  for (int i = 0; i < ndim; ++i) {
    d[i] = dims[i];
    r[i] = reqdims ? reqdims[i] : -1;
  }
  return create("NDRA_Create", type, ndim, d, name, filename, mode, r, d_a);
} catch (...) {
  return caught("NDRA_Create");
}

int NDRA_Create_config(int type, int ndim, dra_size_t dims[], char* name, char* filename, int mode,
                       dra_size_t reqdims[], int numfiles, int numioprocs, int* d_a) try {
  (void)numfiles, (void)numioprocs;  // one file per chunk; every rank does I/O
  return NDRA_Create(type, ndim, dims, name, filename, mode, reqdims, d_a);
} catch (...) {
  return caught("NDRA_Create_config");
}

int DRA_Open(char* filename, int mode, int* d_a) try {
  std::lock_guard<std::mutex> lock(state().mu);
  int rc = ready("DRA_Open");
  if (rc != PARIO_OK) return rc;
  if (!filename || !d_a) return fail(PARIO_ERR_INVALID_ARGUMENT, "DRA_Open: null filename or d_a");
  int pario_mode = 0;
  if ((rc = open_mode("DRA_Open", mode, &pario_mode)) != PARIO_OK) return rc;
  pario_disk_array_t h = PARIO_DISK_ARRAY_NULL;
  if ((rc = from_pario(pario_disk_array_open(state().world, filename, pario_mode, &h))) != PARIO_OK) return rc;
  // The name and type given at creation, when DRA made the store.
  Disk disk{h, filename, filename, 0};
  // NDRA_Inquire copies the name into a caller's buffer that the header
  // promises only 1024 bytes when the array was opened: a longer name
  // read from the store (untrusted) is not taken, the filename stands in.
  char text[4096];
  if (pario_disk_array_get_attribute(h, kNameAttribute, text, sizeof text) == PARIO_OK &&
      std::strlen(text) < kInquireRoom) {
    disk.name = text;
  }
  if (pario_disk_array_get_attribute(h, kTypeAttribute, text, sizeof text) == PARIO_OK) {
    const int t = std::atoi(text);
    if (pario_type_of(t)) disk.type = t;
  }
  *d_a = open_slot(std::move(disk));
  return PARIO_OK;
} catch (...) {
  return caught("DRA_Open");
}

int DRA_Close(int d_a) try {
  std::lock_guard<std::mutex> lock(state().mu);
  Disk* d;
  int rc = disk_of("DRA_Close", d_a, &d);
  if (rc != PARIO_OK) return rc;
  rc = from_pario(pario_disk_array_close(&d->handle));
  *d = Disk{};
  return rc;
} catch (...) {
  return caught("DRA_Close");
}

int DRA_Delete(int d_a) try {
  std::lock_guard<std::mutex> lock(state().mu);
  Disk* d;
  int rc = disk_of("DRA_Delete", d_a, &d);
  if (rc != PARIO_OK) return rc;
  const std::string path = d->filename;
  rc = from_pario(pario_disk_array_close(&d->handle));
  *d = Disk{};
  const int removed = from_pario(pario_disk_array_delete(state().world, path.c_str()));
  return rc != PARIO_OK ? rc : removed;
} catch (...) {
  return caught("DRA_Delete");
}

int NDRA_Inquire(int d_a, int* type, int* ndim, dra_size_t dims[], char* name, char* filename) try {
  int t = 0, nd = 0;
  int64_t d[PARIO_ARRAY_MAX_DIMS];
  std::string n, f;
  int rc = inquire("NDRA_Inquire", d_a, false, &t, &nd, d, &n, &f);
  if (rc != PARIO_OK) return rc;
  if (type) *type = t;
  if (ndim) *ndim = nd;
  for (int i = 0; dims && i < nd; ++i) dims[i] = static_cast<dra_size_t>(d[i]);
  if (name) std::snprintf(name, n.size() + 1, "%s", n.c_str());
  if (filename) std::snprintf(filename, f.size() + 1, "%s", f.c_str());
  return PARIO_OK;
} catch (...) {
  return caught("NDRA_Inquire");
}

int NDRA_Write(int g_a, int d_a, int* request) try {
  return transfer("NDRA_Write", true, false, g_a, d_a, nullptr, request);
} catch (...) {
  return caught("NDRA_Write");
}

int NDRA_Read(int g_a, int d_a, int* request) try {
  return transfer("NDRA_Read", false, false, g_a, d_a, nullptr, request);
} catch (...) {
  return caught("NDRA_Read");
}

static int c_section(const char* call, bool write, logical transp, int g_a, int glo[], int ghi[], int d_a,
                     dra_size_t dlo[], dra_size_t dhi[], int* request) {
  if (!glo || !ghi || !dlo || !dhi) return fail(PARIO_ERR_INVALID_ARGUMENT, "%s: null section bounds", call);
  return transfer(call, write, transp != 0, g_a, d_a,
                  [&](int nd, int64_t gl[], int64_t gh[], int64_t dl[], int64_t dh[]) {
                    for (int i = 0; i < nd; ++i) gl[i] = glo[i], gh[i] = ghi[i], dl[i] = dlo[i], dh[i] = dhi[i];
                  },
                  request);
}

int NDRA_Write_section(logical transp, int g_a, int glo[], int ghi[], int d_a, dra_size_t dlo[], dra_size_t dhi[],
                       int* request) try {
  return c_section("NDRA_Write_section", true, transp, g_a, glo, ghi, d_a, dlo, dhi, request);
} catch (...) {
  return caught("NDRA_Write_section");
}

int NDRA_Read_section(logical transp, int g_a, int glo[], int ghi[], int d_a, dra_size_t dlo[], dra_size_t dhi[],
                      int* request) try {
  return c_section("NDRA_Read_section", false, transp, g_a, glo, ghi, d_a, dlo, dhi, request);
} catch (...) {
  return caught("NDRA_Read_section");
}

int DRA_Probe(int request, int* compl_status) try {
  std::lock_guard<std::mutex> lock(state().mu);
  if (!compl_status) return fail(PARIO_ERR_INVALID_ARGUMENT, "DRA_Probe: compl_status is null");
  if (request == DRA_REQ_INVALID || waited_for(request)) {
    *compl_status = ELIO_DONE;
    return PARIO_OK;
  }
  Request* r = nullptr;
  int rc = request_of("DRA_Probe", request, &r);
  if (rc != PARIO_OK || !r->finished) {
    // Collective, as in GA: done only when every rank's I/O is done, and
    // then the transfer is completed here. A rank whose request or test
    // failed still takes part in the sum, so no rank waits in it.
    int done = 0;
    if (rc == PARIO_OK) rc = from_pario(pario_request_test(&r->request, &done));
    int32_t counts[2] = {done ? 0 : 1, rc != PARIO_OK ? 1 : 0};  // pending, failed
    const int agreed = from_pario(pario_group_sum(state().world, PARIO_TYPE_INT32, counts, 2));
    if (rc != PARIO_OK) return rc;
    if (agreed != PARIO_OK) return agreed;
    if (counts[1] > 0) return fail(PARIO_ERR_REMOTE, "DRA_Probe: %d other rank(s) failed", counts[1]);
    if (counts[0]) {
      *compl_status = ELIO_PENDING;
      return PARIO_OK;
    }
    finish(r, from_pario(pario_request_wait(&r->request)));
  }
  *compl_status = ELIO_DONE;
  return PARIO_OK;
} catch (...) {
  return caught("DRA_Probe");
}

int DRA_Wait(int request) try {
  std::lock_guard<std::mutex> lock(state().mu);
  if (request == DRA_REQ_INVALID) return PARIO_OK;
  if (waited_for(request)) return PARIO_OK;  // as GA; a number never handed out is an error
  Request* r;
  if (request_of("DRA_Wait", request, &r) != PARIO_OK) {
    // The other ranks may be waiting for this rank's oldest transfer:
    // pario's wait without a handle completes it with an error there.
    pario_request_t none = PARIO_REQUEST_NULL;
    (void)pario_request_wait(&none);
  }
  int rc = request_of("DRA_Wait", request, &r);
  if (rc != PARIO_OK) return rc;
  rc = r->finished ? r->status : from_pario(pario_request_wait(&r->request));
  *r = Request{};
  return rc;
} catch (...) {
  return caught("DRA_Wait");
}

void DRA_Set_debug(logical flag) { (void)flag; }

void DRA_Print_internals(int d_a) try {
  int type = 0, nd = 0;
  int64_t dims[PARIO_ARRAY_MAX_DIMS];
  std::string name, file;
  if (inquire("DRA_Print_internals", d_a, false, &type, &nd, dims, &name, &file) != PARIO_OK) return;
  std::printf("disk array %d: \"%s\" at %s, %d dimensions:", d_a, name.c_str(), file.c_str(), nd);
  for (int i = 0; i < nd; ++i) std::printf(" %lld", static_cast<long long>(dims[i]));
  std::printf("\n");
} catch (...) {
  (void)caught("DRA_Print_internals");
}

void DRA_Set_default_config(int numfiles, int numioprocs) { (void)numfiles, (void)numioprocs; }

void DRA_Flick(void) {}

void DRA_Errmsg(int code, char* msg) { pario::compat::error_message(code, msg); }

}  // extern "C"
