// GA ChemIO's EAF API over pario's public C API (and nothing else).
//
// EAF names files and requests by small integers; two tables map them to
// pario handles. Error codes are pario status codes, so EAF_Errmsg can name
// the cause; EAF_Eof recognises PARIO_ERR_OUT_OF_RANGE (a read past end of
// file) as GA's end-of-file code.
#include "pario/compat/eaf.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "compat/classic.h"
#include "pario/pario.h"

namespace {

using pario::compat::caught;
using pario::compat::fail;
using pario::compat::from_pario;
using pario::compat::slot;
using pario::compat::slot_for;

std::mutex table_mu;
std::vector<pario_file_t> open_files;      // EAF fd -> pario file
std::vector<pario_request_t> open_requests;  // EAF request id -> pario request

// GA's per-file counters, which EAF_Print_stats shows whether or not pario's
// statistics are on. Indexed like open_files; reset when a slot is reused.
enum Op { kWrite, kRead, kAwrite, kAread, kWait, kOps };
struct Counters {
  std::string name;
  long calls[kOps] = {};
  double bytes[kOps] = {};
  double seconds[kOps] = {};
};
std::vector<Counters> counters;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Counts one call on fd (started at t0, moving `bytes`), if fd is open.
int count(int fd, Op op, double bytes, double t0, int rc) {
  const double t = now() - t0;
  std::lock_guard<std::mutex> lock(table_mu);
  if (fd >= 0 && static_cast<size_t>(fd) < counters.size() && slot(open_files, fd)) {
    Counters& c = counters[fd];
    c.calls[op] += 1;
    c.bytes[op] += rc == PARIO_OK ? bytes : 0;
    c.seconds[op] += t;
  }
  return rc;
}

pario_file_t file_of(int fd) {
  std::lock_guard<std::mutex> lock(table_mu);
  return slot(open_files, fd);
}

bool to_offset(eaf_off_t value, int64_t* out) { return pario::compat::whole_bytes(value, out); }

int bad_offset(eaf_off_t value) {
  return fail(PARIO_ERR_INVALID_ARGUMENT,
              "EAF offset %.17g is not a whole, non-negative number of bytes", value);
}

}  // namespace

extern "C" {

int EAF_Open(const char* fname, int type, int* fd) try {
  int mode;
  switch (type) {
    case EAF_RW: mode = PARIO_MODE_RDWR | PARIO_MODE_CREATE; break;
    case EAF_W: mode = PARIO_MODE_WRITE | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE; break;
    case EAF_R: mode = PARIO_MODE_READ; break;
    default:
      // Key fact first: EAF_Errmsg has room for 80 characters only.
      return fail(PARIO_ERR_INVALID_ARGUMENT,
                  "EAF_Open type %d: not EAF_RW (-1), EAF_W (-2) or EAF_R (-3)", type);
  }
  if (!fd) return fail(PARIO_ERR_INVALID_ARGUMENT, "EAF_Open: fd pointer is null");
  pario_file_t f = PARIO_FILE_NULL;
  int rc = pario_file_open(fname, mode, &f);
  if (rc != PARIO_OK) return from_pario(rc);
  std::lock_guard<std::mutex> lock(table_mu);
  *fd = slot_for(open_files, f);
  if (counters.size() < open_files.size()) counters.resize(open_files.size());
  counters[*fd] = Counters{};
  counters[*fd].name = fname;
  return PARIO_OK;
} catch (...) {
  return caught("EAF_Open");
}

int EAF_Close(int fd) try {
  pario_file_t f;
  {
    std::lock_guard<std::mutex> lock(table_mu);
    if (fd < 0 || static_cast<size_t>(fd) >= open_files.size()) {
      f = PARIO_FILE_NULL;
    } else {
      f = open_files[fd];
      open_files[fd] = PARIO_FILE_NULL;
    }
  }
  return from_pario(pario_file_close(&f));
} catch (...) {
  return caught("EAF_Close");
}

int EAF_Delete(const char* fname) try {
  int rc = from_pario(pario_file_delete(fname));
  return rc == PARIO_ERR_NOT_FOUND ? PARIO_OK : rc;  // GA: a missing file is fine
} catch (...) {
  return caught("EAF_Delete");
}

int EAF_Write(int fd, eaf_off_t offset, const void* buf, size_t bytes) try {
  int64_t off;
  if (!to_offset(offset, &off)) return bad_offset(offset);
  const double t0 = now();
  return count(fd, kWrite, static_cast<double>(bytes), t0, from_pario(pario_file_write(file_of(fd), off, buf, bytes)));
} catch (...) {
  return caught("EAF_Write");
}

int EAF_Read(int fd, eaf_off_t offset, void* buf, size_t bytes) try {
  int64_t off;
  if (!to_offset(offset, &off)) return bad_offset(offset);
  const double t0 = now();
  return count(fd, kRead, static_cast<double>(bytes), t0, from_pario(pario_file_read(file_of(fd), off, buf, bytes)));
} catch (...) {
  return caught("EAF_Read");
}

static int start(int rc, pario_request_t req, int* req_id) {
  if (rc != PARIO_OK) return from_pario(rc);
  std::lock_guard<std::mutex> lock(table_mu);
  *req_id = slot_for(open_requests, req);
  return PARIO_OK;
}

int EAF_Awrite(int fd, eaf_off_t offset, const void* buf, size_t bytes, int* req_id) try {
  int64_t off;
  if (!to_offset(offset, &off) || !req_id) return bad_offset(offset);
  pario_request_t req = PARIO_REQUEST_NULL;
  const double t0 = now();
  int rc = pario_file_iwrite(file_of(fd), off, buf, bytes, &req);
  return count(fd, kAwrite, static_cast<double>(bytes), t0, start(rc, req, req_id));
} catch (...) {
  return caught("EAF_Awrite");
}

int EAF_Aread(int fd, eaf_off_t offset, void* buf, size_t bytes, int* req_id) try {
  int64_t off;
  if (!to_offset(offset, &off) || !req_id) return bad_offset(offset);
  pario_request_t req = PARIO_REQUEST_NULL;
  const double t0 = now();
  int rc = pario_file_iread(file_of(fd), off, buf, bytes, &req);
  return count(fd, kAread, static_cast<double>(bytes), t0, start(rc, req, req_id));
} catch (...) {
  return caught("EAF_Aread");
}

int EAF_Wait(int fd, int id) try {
  const double t0 = now();  // fd is for the statistics only, as in GA
  pario_request_t req = PARIO_REQUEST_NULL;
  {
    std::lock_guard<std::mutex> lock(table_mu);
    if (id >= 0 && static_cast<size_t>(id) < open_requests.size()) {
      req = open_requests[id];
      open_requests[id] = PARIO_REQUEST_NULL;
    }
  }
  // Refused here, not by pario: pario's wait of a null handle completes this
  // rank's oldest collective request (a disk array's) with its error.
  if (req == PARIO_REQUEST_NULL) {
    return count(fd, kWait, 0, t0,
                 fail(PARIO_ERR_INVALID_ARGUMENT, "EAF_Wait: request %d was already waited, or never issued", id));
  }
  return count(fd, kWait, 0, t0, from_pario(pario_request_wait(&req)));
} catch (...) {
  return caught("EAF_Wait");
}

int EAF_Probe(int id, int* status) try {
  pario_request_t req = PARIO_REQUEST_NULL;
  {
    std::lock_guard<std::mutex> lock(table_mu);
    if (id >= 0 && static_cast<size_t>(id) < open_requests.size()) req = open_requests[id];
  }
  int done = 0;
  int rc = from_pario(pario_request_test(&req, status ? &done : nullptr));
  if (rc == PARIO_OK) *status = done ? 0 : 1;
  return rc;
} catch (...) {
  return caught("EAF_Probe");
}

int EAF_Length(int fd, eaf_off_t* length) try {
  int64_t n = 0;
  int rc = from_pario(pario_file_length(file_of(fd), length ? &n : nullptr));
  if (rc == PARIO_OK) *length = static_cast<eaf_off_t>(n);
  return rc;
} catch (...) {
  return caught("EAF_Length");
}

int EAF_Truncate(int fd, eaf_off_t length) try {
  int64_t n;
  if (!to_offset(length, &n)) return bad_offset(length);
  return from_pario(pario_file_truncate(file_of(fd), n));
} catch (...) {
  return caught("EAF_Truncate");
}

int EAF_Eof(int code) { return code == PARIO_ERR_OUT_OF_RANGE ? 0 : 1; }

void EAF_Errmsg(int code, char* msg) { pario::compat::error_message(code, msg); }

// GA's parameter is named avail_kb, but GA's EAF_Stat shifts ELIO's
// kilobyte count by ten: programs receive (and size their files in)
// megabytes, so pario reports megabytes too.
int EAF_Stat(const char* path, long* avail_kb, char* fstype, int fslen) try {
  if (!avail_kb || !fstype || fslen < 8) {
    return fail(PARIO_ERR_INVALID_ARGUMENT,
                "EAF_Stat: null output or fstype buffer shorter than 8 bytes");
  }
  pario_fs_stat_t st;
  int rc = from_pario(pario_fs_stat(path, &st));
  if (rc != PARIO_OK) return rc;
  *avail_kb = static_cast<long>(st.available_bytes >> 20);
  std::snprintf(fstype, static_cast<size_t>(fslen), "%s", st.type);
  return PARIO_OK;
} catch (...) {
  return caught("EAF_Stat");
}

// GA's table for the file: calls, bytes, seconds and rates of each kind of
// call. pario's own statistics follow only when they are on (PARIO_STATS or
// PARIO_STATS_FILE).
void EAF_Print_stats(int fd) try {
  pario_file_t f = file_of(fd);
  int64_t n = -1;
  if (pario_file_length(f, &n) != PARIO_OK) return;
  Counters c;
  {
    std::lock_guard<std::mutex> lock(table_mu);
    if (static_cast<size_t>(fd) < counters.size()) c = counters[fd];
  }
  auto rate = [&](Op op) { return c.seconds[op] > 0 ? c.bytes[op] / 1e6 / c.seconds[op] : 0.0; };
  const char* rule = "------------------------------------------------------------\n";
  std::printf("\n%sEAF file %d: \"%s\" size=%lld bytes\n%s", rule, fd, c.name.c_str(), static_cast<long long>(n),
              rule);
  std::printf("               write      read    awrite     aread      wait\n");
  std::printf("               -----      ----    ------     -----      ----\n");
  std::printf("     calls: %8ld  %8ld  %8ld  %8ld  %8ld\n", c.calls[kWrite], c.calls[kRead], c.calls[kAwrite],
              c.calls[kAread], c.calls[kWait]);
  std::printf("   data(b): %.2e  %.2e  %.2e  %.2e\n", c.bytes[kWrite], c.bytes[kRead], c.bytes[kAwrite],
              c.bytes[kAread]);
  std::printf("   time(s): %.2e  %.2e                      %.2e\n", c.seconds[kWrite], c.seconds[kRead],
              c.seconds[kWait]);
  std::printf("rate(mb/s): %.2e  %.2e\n%s\n", rate(kWrite), rate(kRead), rule);
  const char* on = std::getenv("PARIO_STATS");
  const char* file = std::getenv("PARIO_STATS_FILE");
  if ((on && std::strcmp(on, "0") != 0 && on[0]) || (file && file[0])) {
    std::vector<char> table(pario_stats_table(nullptr, 0) + 1);
    pario_stats_table(table.data(), table.size());
    std::fputs(table.data(), stdout);
  }
  std::fflush(stdout);
} catch (...) {
  (void)caught("EAF_Print_stats");
}

}  // extern "C"
