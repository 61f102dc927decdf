// GA ChemIO's SF API over pario's public C API (and nothing else).
//
// SF names files and requests by small integers; two tables map them to
// pario handles. Handles agree across ranks because every rank creates and
// destroys shared files in the same (collective) order.
#include "pario/compat/sf.h"

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "compat/classic.h"
#include "pario/pario.h"

namespace {

using pario::compat::broadcast_string;
using pario::compat::caught;
using pario::compat::fail;
using pario::compat::from_pario;
using pario::compat::slot;
using pario::compat::slot_for;

std::mutex table_mu;
std::vector<pario_shared_file_t> shared_files;  // SF handle -> pario shared file
std::vector<pario_request_t> sf_requests;        // SF request id -> pario request

pario_shared_file_t file_of(int handle) {
  std::lock_guard<std::mutex> lock(table_mu);
  return slot(shared_files, handle);
}

// A GA size hint: -1 (unknown) or a whole number of bytes.
bool to_hint(SFsize_t value, int64_t* out) {
  if (value == -1.0) {
    *out = PARIO_SIZE_UNKNOWN;
    return true;
  }
  return pario::compat::whole_bytes(value, out);
}

// The name as a path that other ranks can compare: its directory resolved
// (realpath), so "./x" and "/scratch/x" from /scratch are one file; the
// name as given where the directory cannot be resolved.
std::string canonical(const std::string& name) {
  const size_t slash = name.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : name.substr(0, slash);
  char* real = ::realpath(dir.c_str(), nullptr);
  if (!real) return name;
  std::string out(real);
  std::free(real);
  return (out == "/" ? out : out + "/") + name.substr(slash == std::string::npos ? 0 : slash + 1);
}

// GA's SF_Create opens, on every rank, the file that rank's own name gives
// (rank 0 first): ranks passing the same name share one file, ranks
// passing different names each get their own. pario does the same with
// shared files: collective over world, it groups the ranks by file (one
// round per distinct name: the first remaining rank's name, and a split
// into the ranks that name the same file and the rest) and hands back the
// group this rank's file is shared by.
int group_by_name(pario_group_t world, const std::string& mine, pario_group_t* group_out) {
  pario_group_t rest = world;
  int rc = PARIO_OK;
  for (;;) {
    std::string leader = mine;
    if ((rc = broadcast_string(rest, &leader)) != PARIO_OK) break;
    const bool same = leader == mine;
    pario_group_t next = PARIO_GROUP_NULL;
    rc = from_pario(pario_group_split(rest, same ? 0 : 1, &next));
    if (rest != world) pario_group_free(&rest);
    if (rc != PARIO_OK) break;
    if (same) {
      *group_out = next;
      return PARIO_OK;
    }
    rest = next;
  }
  if (rest != world) pario_group_free(&rest);
  return rc;
}

// The collective create behind SF_Create and SF_Create_suffix; suffix < 0
// means "use the handle". Every rank of world returns the same status.
int create(char* fname, SFsize_t hard, SFsize_t soft, SFsize_t req, int* handle, int suffix) {
  int64_t h = 0, s = 0, r = 0;
  int up = 0, rc = PARIO_OK;
  pario_initialized(&up);
  if (!up && (rc = from_pario(pario_init())) != PARIO_OK) return rc;
  pario_group_t world = PARIO_GROUP_NULL, group = PARIO_GROUP_NULL;
  if ((rc = from_pario(pario_group_world(&world))) != PARIO_OK) return rc;
  // Checked here, then agreed: a rank refused alone must not leave the
  // others in group_by_name's collectives.
  if (!fname || !handle) {
    rc = fail(PARIO_ERR_INVALID_ARGUMENT, "SF_Create: null name or handle");
  } else if (!to_hint(hard, &h) || !to_hint(soft, &s) || !to_hint(req, &r)) {
    rc = fail(PARIO_ERR_INVALID_ARGUMENT, "SF_Create: sizes must be -1 or whole byte counts (%.17g, %.17g, %.17g)",
              hard, soft, req);
  }
  if ((rc = pario::compat::agree_checks(world, "SF_Create", rc)) != PARIO_OK) {
    pario_group_free(&world);
    return rc;
  }
  const std::string path = canonical(fname);
  if ((rc = group_by_name(world, path, &group)) != PARIO_OK) {
    pario_group_free(&world);
    return rc;
  }
  int slot_index;
  {
    std::lock_guard<std::mutex> lock(table_mu);
    // Reserve the slot with a placeholder, so the name can carry it (pario
    // rejects the placeholder as a stale handle if it is ever used).
    slot_index = slot_for(shared_files, reinterpret_cast<pario_shared_file_t>(1));
  }
  const std::string name = path + "." + std::to_string(suffix >= 0 ? suffix : slot_index);
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  rc = from_pario(pario_shared_file_create(group, name.c_str(), h, s, r, &f));
  // One outcome on every rank: a group that made its file takes it back
  // when another group failed.
  int64_t failed = rc != PARIO_OK;
  const int agreed = from_pario(pario_group_sum(world, PARIO_TYPE_INT64, &failed, 1));
  if (agreed == PARIO_OK && failed > 0 && rc == PARIO_OK) {
    pario_shared_file_destroy(&f);
    rc = fail(PARIO_ERR_REMOTE, "SF_Create: %lld rank(s) could not create their file", static_cast<long long>(failed));
  } else if (rc == PARIO_OK) {
    rc = agreed;
  }
  pario_group_free(&group);
  pario_group_free(&world);
  std::lock_guard<std::mutex> lock(table_mu);
  shared_files[slot_index] = rc == PARIO_OK ? f : PARIO_SHARED_FILE_NULL;  // null: the slot is free
  if (rc == PARIO_OK) *handle = slot_index;
  return rc;
}

// Starts an SF_Write/SF_Read: validates, then files the request.
template <typename Start>
int start(int handle, SFsize_t offset, SFsize_t bytes, int* req_id, Start&& go) {
  int64_t off = 0, n = 0;
  if (!req_id) return fail(PARIO_ERR_INVALID_ARGUMENT, "SF request id pointer is null");
  if (!pario::compat::whole_bytes(offset, &off) || !pario::compat::whole_bytes(bytes, &n)) {
    return fail(PARIO_ERR_INVALID_ARGUMENT,
                "SF offset %.17g or size %.17g is not a whole, non-negative byte count", offset,
                bytes);
  }
  pario_request_t req = PARIO_REQUEST_NULL;
  const int rc = from_pario(go(file_of(handle), off, static_cast<size_t>(n), &req));
  if (rc != PARIO_OK) return rc;
  std::lock_guard<std::mutex> lock(table_mu);
  *req_id = slot_for(sf_requests, req);
  return PARIO_OK;
}

}  // namespace

extern "C" {

int SF_Create(char* fname, SFsize_t hard, SFsize_t soft, SFsize_t req, int* handle) try {
  return create(fname, hard, soft, req, handle, -1);
} catch (...) {
  return caught("SF_Create");
}

int SF_Create_suffix(char* fname, SFsize_t hard, SFsize_t soft, SFsize_t req, int* handle,
                     int suffix) try {
  if (suffix < 0) return fail(PARIO_ERR_INVALID_ARGUMENT, "SF_Create_suffix: negative suffix %d", suffix);
  return create(fname, hard, soft, req, handle, suffix);
} catch (...) {
  return caught("SF_Create_suffix");
}

int SF_Destroy(int handle) try {
  pario_shared_file_t f = file_of(handle);
  const int rc = from_pario(pario_shared_file_destroy(&f));
  if (rc == PARIO_OK) {
    std::lock_guard<std::mutex> lock(table_mu);
    shared_files[handle] = PARIO_SHARED_FILE_NULL;
  }
  return rc;
} catch (...) {
  return caught("SF_Destroy");
}

int SF_Close(int handle) { return from_pario(pario_shared_file_suspend(file_of(handle))); }
int SF_Open(int handle) try {
  return from_pario(pario_shared_file_resume(file_of(handle), PARIO_MODE_RDWR));
} catch (...) {
  return caught("SF_Open");
}
int SF_Rwtor(int handle) try {
  return from_pario(pario_shared_file_resume(file_of(handle), PARIO_MODE_READ));
} catch (...) {
  return caught("SF_Rwtor");
}
int SF_Fsync(int handle) { return from_pario(pario_shared_file_sync(file_of(handle))); }

int SF_Write(int handle, SFsize_t offset, SFsize_t bytes, char* buffer, int* req_id) try {
  return start(handle, offset, bytes, req_id,
               [&](pario_shared_file_t f, int64_t off, size_t n, pario_request_t* req) {
                 return pario_shared_file_iwrite(f, off, buffer, n, req);
               });
} catch (...) {
  return caught("SF_Write");
}

int SF_Read(int handle, SFsize_t offset, SFsize_t bytes, char* buffer, int* req_id) try {
  return start(handle, offset, bytes, req_id,
               [&](pario_shared_file_t f, int64_t off, size_t n, pario_request_t* req) {
                 return pario_shared_file_iread(f, off, buffer, n, req);
               });
} catch (...) {
  return caught("SF_Read");
}

int SF_Wait(int* req_id) try {
  if (!req_id) return fail(PARIO_ERR_INVALID_ARGUMENT, "SF_Wait: request id pointer is null");
  pario_request_t req;
  {
    std::lock_guard<std::mutex> lock(table_mu);
    req = slot(sf_requests, *req_id);
    if (req) sf_requests[*req_id] = PARIO_REQUEST_NULL;
  }
  // Refused here, not by pario: pario's wait of a null handle completes this
  // rank's oldest collective request (a disk array's) with its error.
  if (!req) return fail(PARIO_ERR_INVALID_ARGUMENT, "SF_Wait: request %d was already waited, or never issued", *req_id);
  const int rc = from_pario(pario_request_wait(&req));
  if (rc == PARIO_OK) *req_id = SF_DONE;
  return rc;
} catch (...) {
  return caught("SF_Wait");
}

int SF_Waitall(int* list, int num) try {
  if (num < 0 || (num > 0 && !list)) {
    return fail(PARIO_ERR_INVALID_ARGUMENT, "SF_Waitall: %d requests in a null list", num);
  }
  int first = PARIO_OK;
  for (int i = 0; i < num; ++i) {  // every request is completed, even after a failure
    const int rc = SF_Wait(&list[i]);
    if (first == PARIO_OK) first = rc;
  }
  return first;
} catch (...) {
  return caught("SF_Waitall");
}

void SF_Errmsg(int code, char* msg) { pario::compat::error_message(code, msg); }

}  // extern "C"
