// C API: disk resident arrays.
#include <cstring>
#include <string>
#include <vector>

#include "base/checked.h"
#include "base/status_of.h"
#include "capi/array_handles.h"
#include "capi/boundary.h"
#include "capi/collective.h"
#include "capi/options.h"
#include "capi/handles.h"
#include "capi/request.h"
#include "capi/runtime.h"
#include "comm/comm.h"
#include "diskarray/disk_array.h"
#include "pario/disk_array.h"
#include "pario/file.h"

namespace pario::capi {
namespace {

using diskarray::DiskArray;

HandleTable<DiskArray>& disk_arrays() {
  static auto* t = new HandleTable<DiskArray>(/*remember_removed=*/true);
  return *t;
}

Result<std::shared_ptr<const comm::Group>> group_of(pario_group_t g) {
  if (!g) return invalid("group handle is null");
  std::shared_ptr<comm::Group> p = groups().share(id_of(g));
  if (!p) return invalid("group handle is stale (already freed)");
  return std::shared_ptr<const comm::Group>(std::move(p));
}

Status publish(std::unique_ptr<DiskArray> a, pario_disk_array_t* out) {
  uint64_t id = disk_arrays().insert(std::shared_ptr<DiskArray>(std::move(a)));
  if (id == 0) return Status(Code::kNoMemory, "too many disk array handles");
  *out = handle_of<pario_disk_array_t>(id);
  return Status::Ok();
}

// A disk-array transfer as a C request.
class TransferPending : public Pending {
 public:
  explicit TransferPending(std::shared_ptr<diskarray::Transfer> t) : t_(std::move(t)) {}
  Status wait() override { return t_->wait(); }
  bool test() override { return t_->test(); }
  bool collective() const override { return true; }
  Status wait_refusing(const Status& refusal) override { return t_->wait(refusal); }

 private:
  std::shared_ptr<diskarray::Transfer> t_;
};

Status callback_status(const char* what, const std::string& name, int rc) {
  if (rc == PARIO_OK) return Status::Ok();
  const int code = rc > 0 ? rc : -rc;
  return Status(code > 0 && code <= PARIO_ERR_PERMISSION ? static_cast<Code>(code) : Code::kIo,
                name + ": the " + what + " callback returned " + std::to_string(rc));
}

// The memory side of a transfer given by callbacks.
Result<std::shared_ptr<array::MemoryArray>> ops_array(const DiskArray& d, const pario_array_ops_t* ops) {
  if (!ops) return invalid("ops is null");
  if (!ops->distribution || !ops->get || !ops->put || !ops->sync) {
    return invalid("ops lacks a distribution, get, put or sync callback");
  }
  if (!valid_element_type(ops->type)) return invalid("ops: unknown element type " + std::to_string(ops->type));
  if (ops->ndim < 1 || ops->ndim > PARIO_ARRAY_MAX_DIMS) return invalid("ops: ndim " + std::to_string(ops->ndim));
  const pario_array_ops_t o = *ops;  // copied: the caller's struct may go away
  const std::string name = o.name ? o.name : "foreign array";
  std::vector<Box> patches(static_cast<size_t>(d.group().size()));
  for (size_t r = 0; r < patches.size(); ++r) {
    patches[r].ndim = o.ndim;
    PARIO_RETURN_IF_ERROR(callback_status("distribution", name, o.distribution(
        o.context, static_cast<int>(r), patches[r].start.data(), patches[r].count.data())));
  }
  array::PatchArray::Ops f;
  f.get = [o, name](const Box& b, void* buf, const std::vector<int64_t>& ld) {
    return callback_status("get", name, o.get(o.context, b.start.data(), b.count.data(), buf, ld.data()));
  };
  f.put = [o, name](const Box& b, const void* buf, const std::vector<int64_t>& ld) {
    return callback_status("put", name, o.put(o.context, b.start.data(), b.count.data(), buf, ld.data()));
  };
  f.sync = [o, name] { return callback_status("sync", name, o.sync(o.context)); };
  // Access is only a shortcut: failing on one rank must not fail a
  // collective transfer there alone, so get and put then do it all.
  void* own = nullptr;
  if (o.access && o.access(o.context, &own) != PARIO_OK) own = nullptr;
  return std::shared_ptr<array::MemoryArray>(std::make_shared<array::PatchArray>(
      name, static_cast<ElementType>(o.type), std::vector<int64_t>(o.dims, o.dims + o.ndim),
      std::move(patches), std::move(f), d.group().rank(), static_cast<char*>(own)));
}

// The live disk array behind a handle of a collective call, checked into e.
DiskArray* entry_disk_array(Entry& e, pario_disk_array_t da) {
  Result<DiskArray*> d = live(disk_arrays(), da, "disk array");
  e.check(d);
  if (!d.ok()) {
    if (std::shared_ptr<DiskArray> gone = disk_arrays().removed(id_of(da))) e.over_removed(gone, &gone->group());
    return nullptr;
  }
  e.over(&(*d)->group());
  return *d;
}

// Starts a transfer between a disk array and a memory array (a pario
// global array `ga`, or `ops`); waits for it when blocking.
int transfer(const char* call, bool write, pario_disk_array_t da, pario_array_t ga, const pario_array_ops_t* ops,
             const int64_t* start, const int64_t* count, const int64_t* disk_start, const int* perm,
             pario_request_t* req_out, bool blocking, bool by_ops) {
  return guarded(call, [&]() -> Status {
    // What one rank finds wrong here (a null handle, a callback failing on
    // it alone) must fail the transfer on every rank, or the others would
    // wait in it.
    Entry e(call);
    DiskArray* d = entry_disk_array(e, da);
    std::shared_ptr<array::MemoryArray> mem;
    if (by_ops) {
      if (d) {
        Result<std::shared_ptr<array::MemoryArray>> m = ops_array(*d, ops);
        e.check(m);
        if (m.ok()) mem = *m;
      } else if (!ops) {
        e.check(invalid("ops is null"));
      }
    } else {
      Result<array::GlobalArray*> a = live(arrays(), ga, "array");
      e.check(a);
      if (a.ok()) {
        e.over(&(*a)->group());
        mem = std::make_shared<array::GlobalArraySource>(arrays().share(id_of(ga)));
      }
    }
    if (!start || !count || !disk_start) e.check(invalid("start, count or disk_start is null"));
    if (!blocking && !req_out) e.check(invalid("req_out is null"));
    const size_t nd = d ? d->meta().shape.size() : 0;
    if (e.ok()) {
      e.args().add("start", start, nd).add("count", count, nd).add("disk_start", disk_start, nd);
      e.args().add("perm", perm, nd);
    }
    PARIO_RETURN_IF_ERROR(e.agree());
    Box section;
    section.ndim = static_cast<int>(nd);
    for (size_t i = 0; i < nd; ++i) {
      section.start[i] = start[i];
      section.count[i] = count[i];
    }
    std::vector<int64_t> at(disk_start, disk_start + nd);
    std::vector<int> axes;
    if (perm) axes.assign(perm, perm + nd);
    if (blocking) return write ? d->write(mem, section, at, axes) : d->read(mem, section, at, axes);
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<diskarray::Transfer> t,
                           write ? d->start_write(mem, section, at, axes) : d->start_read(mem, section, at, axes));
    return publish_request(std::make_shared<TransferPending>(std::move(t)), req_out);
  });
}

// create and create_mode: mode as pario_disk_array_create_mode takes it.
int create(const char* call, pario_group_t group, const char* path, int type, int ndim, const int64_t dims[],
           const int64_t chunk_hint[], int mode, pario_disk_array_t* array_out) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    const comm::Group* on = entry_group(e, group);
    if (!path || !array_out || !dims) e.check(invalid("path, dims or array_out is null"));
    if (!valid_element_type(type)) e.check(invalid("unknown element type " + std::to_string(type)));
    if (ndim < 1 || ndim > PARIO_ARRAY_MAX_DIMS) e.check(invalid("ndim " + std::to_string(ndim) + " (1 to 7)"));
    diskarray::CreateMode how = diskarray::CreateMode::kExclusive;
    const int kind = mode & ~PARIO_MODE_RDWR;
    if (kind == (PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE)) {
      how = diskarray::CreateMode::kReplace;
    } else if (kind == PARIO_MODE_CREATE) {
      how = diskarray::CreateMode::kOpenOrCreate;
    } else if (kind != (PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE)) {
      e.check(invalid("mode " + std::to_string(mode) +
                      ": PARIO_MODE_CREATE, alone (open or create) or with PARIO_MODE_TRUNCATE (replace) or "
                      "PARIO_MODE_EXCLUSIVE (refuse an existing path)"));
    }
    if (e.ok()) {
      e.check(diskarray::check_shape(dims, static_cast<size_t>(ndim), static_cast<ElementType>(type))
                  .with_context(std::string(path) + ": dims"));
      e.args().add("path", path).add("type", type).add("dims", dims, static_cast<size_t>(ndim));
      e.args().add("chunk_hint", chunk_hint, static_cast<size_t>(ndim)).add("mode", kind);
    }
    Result<diskarray::DiskArrayOptions> options = disk_array_options(path ? path : "", on && on->topology().nodes == 1, true);
    e.check(options);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<const comm::Group> g, group_of(group));
    std::vector<int64_t> shape(dims, dims + ndim), chunk;
    if (chunk_hint) chunk.assign(chunk_hint, chunk_hint + ndim);
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<DiskArray> a,
                           DiskArray::create_or_open(g, path, static_cast<ElementType>(type), shape, chunk, how,
                                                     *options));
    return publish(std::move(a), array_out);
  });
}

// This rank's section of an independent call, checked: the handle, the
// pointers (buf may be null for an empty section) and the size in bytes.
Status local_section(pario_disk_array_t da, const int64_t* start, const int64_t* count, const void* buf,
                     DiskArray** out, Box* section) {
  PARIO_ASSIGN_OR_RETURN(DiskArray * d, live(disk_arrays(), da, "disk array"));
  if (!start) return invalid("start is null");
  if (!count) return invalid("count is null");
  const diskarray::ZarrMeta& m = d->meta();
  section->ndim = static_cast<int>(m.shape.size());
  for (int i = 0; i < section->ndim; ++i) {
    section->start[i] = start[i];
    section->count[i] = count[i];
    if (count[i] < 0) return invalid("count[" + std::to_string(i) + "] is negative (" + std::to_string(count[i]) + ")");
  }
  int64_t bytes = 0;
  if (!checked_bytes(count, m.shape.size(), static_cast<int64_t>(m.element_bytes()), &bytes) ||
      static_cast<uint64_t>(bytes) > SIZE_MAX) {
    return Status(Code::kOutOfRange, d->dir() + ": the section's size overflows");
  }
  if (!buf && bytes > 0) return invalid("buf is null");
  *out = d;
  return Status::Ok();
}

}  // namespace
}  // namespace pario::capi

using namespace pario;        // NOLINT: this file is the C boundary
using namespace pario::capi;  // NOLINT

extern "C" {

int pario_disk_array_create(pario_group_t group, const char* path, int type, int ndim,
                            const int64_t dims[], const int64_t chunk_hint[],
                            pario_disk_array_t* array_out) {
  return create("pario_disk_array_create", group, path, type, ndim, dims, chunk_hint,
                PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, array_out);
}

int pario_disk_array_create_mode(pario_group_t group, const char* path, int type, int ndim,
                                 const int64_t dims[], const int64_t chunk_hint[], int mode,
                                 pario_disk_array_t* array_out) {
  return create("pario_disk_array_create_mode", group, path, type, ndim, dims, chunk_hint, mode, array_out);
}

int pario_disk_array_read_local(pario_disk_array_t array, const int64_t start[], const int64_t count[],
                                void* buf) {
  return guarded("pario_disk_array_read_local", [&]() -> Status {
    DiskArray* d = nullptr;
    Box section;
    PARIO_RETURN_IF_ERROR(local_section(array, start, count, buf, &d, &section));
    return d->read_local(section, buf);
  });
}

int pario_disk_array_write_local(pario_disk_array_t array, const int64_t start[], const int64_t count[],
                                 const void* buf) {
  return guarded("pario_disk_array_write_local", [&]() -> Status {
    DiskArray* d = nullptr;
    Box section;
    PARIO_RETURN_IF_ERROR(local_section(array, start, count, buf, &d, &section));
    return d->write_local(section, buf);
  });
}

int pario_disk_array_sync(pario_disk_array_t array) {
  return guarded("pario_disk_array_sync", [&]() -> Status {
    Entry e("pario_disk_array_sync");
    DiskArray* d = entry_disk_array(e, array);
    PARIO_RETURN_IF_ERROR(e.agree());
    return d->sync();
  });
}

int pario_disk_array_write_pieces(pario_disk_array_t array, const int64_t start[], const int64_t count[],
                                  const void* buf) {
  return guarded("pario_disk_array_write_pieces", [&]() -> Status {
    // The handle agreed first (it names the group); each rank's own
    // section is its own, so it is not in the digest: a bad one fails that
    // rank's write, and the sync carries the failure to every rank.
    Entry e("pario_disk_array_write_pieces");
    DiskArray* d = entry_disk_array(e, array);
    PARIO_RETURN_IF_ERROR(e.agree());
    DiskArray* same = nullptr;
    Box section;
    Status s = local_section(array, start, count, buf, &same, &section);
    // An exception here (a buffer sized by a damaged chunk) must still
    // reach the sync, or the other ranks would wait there for ever.
    if (s.ok()) s = status_of("pario_disk_array_write_pieces", [&] { return d->write_local(section, buf); });
    return d->sync(s);
  });
}

int pario_disk_array_open(pario_group_t group, const char* path, int mode, pario_disk_array_t* array_out) {
  return guarded("pario_disk_array_open", [&]() -> Status {
    Entry e("pario_disk_array_open");
    const comm::Group* on = entry_group(e, group);
    if (!path || !array_out) e.check(invalid("path or array_out is null"));
    if (mode != PARIO_MODE_READ && mode != PARIO_MODE_RDWR) {
      e.check(invalid("mode " + std::to_string(mode) + ": PARIO_MODE_READ or PARIO_MODE_RDWR"));
    }
    e.args().add("path", path).add("mode", mode);
    Result<diskarray::DiskArrayOptions> options = disk_array_options(path ? path : "", on && on->topology().nodes == 1, true);
    e.check(options);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<const comm::Group> g, group_of(group));
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<DiskArray> a, DiskArray::open(g, path, mode == PARIO_MODE_RDWR, *options));
    return publish(std::move(a), array_out);
  });
}

int pario_disk_array_close(pario_disk_array_t* array) {
  return guarded("pario_disk_array_close", [&]() -> Status {
    Entry e("pario_disk_array_close");
    if (!array) e.check(invalid("array pointer is null"));
    else entry_disk_array(e, *array);
    PARIO_RETURN_IF_ERROR(e.agree());
    std::shared_ptr<DiskArray> a = disk_arrays().remove(id_of(*array));
    *array = PARIO_DISK_ARRAY_NULL;
    return a->close();
  });
}

int pario_disk_array_delete(pario_group_t group, const char* path) {
  return guarded("pario_disk_array_delete", [&]() -> Status {
    Entry e("pario_disk_array_delete");
    const comm::Group* on = entry_group(e, group);
    if (!path) e.check(invalid("path is null"));
    e.args().add("path", path);
    Result<diskarray::DiskArrayOptions> options = disk_array_options(path ? path : "", on && on->topology().nodes == 1, false);
    e.check(options);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<const comm::Group> g, group_of(group));
    return DiskArray::remove(*g, path, *options->storage);
  });
}

int pario_disk_array_info(pario_disk_array_t array, int* type_out, int* ndim_out, int64_t dims_out[],
                          int64_t chunks_out[]) {
  return guarded("pario_disk_array_info", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(DiskArray * a, live(disk_arrays(), array, "disk array"));
    const diskarray::ZarrMeta& m = a->meta();
    if (type_out) *type_out = static_cast<int>(m.type);
    if (ndim_out) *ndim_out = static_cast<int>(m.shape.size());
    for (size_t d = 0; d < m.shape.size(); ++d) {
      if (dims_out) dims_out[d] = m.shape[d];
      if (chunks_out) chunks_out[d] = m.chunks[d];
    }
    return Status::Ok();
  });
}

int pario_disk_array_set_attribute(pario_disk_array_t array, const char* name, const char* value) {
  return guarded("pario_disk_array_set_attribute", [&]() -> Status {
    Entry e("pario_disk_array_set_attribute");
    DiskArray* a = entry_disk_array(e, array);
    if (!name || !value) e.check(invalid("name or value is null"));
    e.args().add("name", name).add("value", value);
    PARIO_RETURN_IF_ERROR(e.agree());
    return a->set_attribute(name, value);
  });
}

int pario_disk_array_get_attribute(pario_disk_array_t array, const char* name, char* buf, size_t len) {
  return guarded("pario_disk_array_get_attribute", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(DiskArray * a, live(disk_arrays(), array, "disk array"));
    if (!name || !buf) return invalid("name or buf is null");
    PARIO_ASSIGN_OR_RETURN(std::string value, a->attribute(name));
    if (value.size() + 1 > len) {
      return invalid("attribute \"" + std::string(name) + "\" needs " + std::to_string(value.size() + 1) +
                     " bytes, the buffer has " + std::to_string(len));
    }
    std::memcpy(buf, value.c_str(), value.size() + 1);
    return Status::Ok();
  });
}

int pario_disk_array_write(pario_disk_array_t array, pario_array_t ga, const int64_t ga_start[],
                           const int64_t count[], const int64_t disk_start[]) {
  return transfer("pario_disk_array_write", true, array, ga, nullptr, ga_start, count, disk_start, nullptr,
                  nullptr, true, false);
}

int pario_disk_array_read(pario_disk_array_t array, pario_array_t ga, const int64_t ga_start[],
                          const int64_t count[], const int64_t disk_start[]) {
  return transfer("pario_disk_array_read", false, array, ga, nullptr, ga_start, count, disk_start, nullptr,
                  nullptr, true, false);
}

int pario_disk_array_iwrite(pario_disk_array_t array, pario_array_t ga, const int64_t ga_start[],
                            const int64_t count[], const int64_t disk_start[], const int perm[],
                            pario_request_t* req_out) {
  return transfer("pario_disk_array_iwrite", true, array, ga, nullptr, ga_start, count, disk_start, perm,
                  req_out, false, false);
}

int pario_disk_array_iread(pario_disk_array_t array, pario_array_t ga, const int64_t ga_start[],
                           const int64_t count[], const int64_t disk_start[], const int perm[],
                           pario_request_t* req_out) {
  return transfer("pario_disk_array_iread", false, array, ga, nullptr, ga_start, count, disk_start, perm,
                  req_out, false, false);
}

int pario_disk_array_iwrite_ops(pario_disk_array_t array, const pario_array_ops_t* ops, const int64_t start[],
                                const int64_t count[], const int64_t disk_start[], const int perm[],
                                pario_request_t* req_out) {
  return transfer("pario_disk_array_iwrite_ops", true, array, nullptr, ops, start, count, disk_start, perm,
                  req_out, false, true);
}

int pario_disk_array_iread_ops(pario_disk_array_t array, const pario_array_ops_t* ops, const int64_t start[],
                               const int64_t count[], const int64_t disk_start[], const int perm[],
                               pario_request_t* req_out) {
  return transfer("pario_disk_array_iread_ops", false, array, nullptr, ops, start, count, disk_start, perm,
                  req_out, false, true);
}

}  // extern "C"
