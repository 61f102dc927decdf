// C API: disk resident arrays.
#include <string>
#include <vector>

#include "capi/array_handles.h"
#include "capi/boundary.h"
#include "capi/handles.h"
#include "diskarray/disk_array.h"
#include "pario/disk_array.h"
#include "pario/file.h"

namespace pario::capi {
namespace {

using diskarray::DiskArray;

HandleTable<DiskArray>& disk_arrays() {
  static auto* t = new HandleTable<DiskArray>();
  return *t;
}

Result<std::shared_ptr<const array::Group>> group_of(pario_group_t g) {
  if (!g) return invalid("group handle is null");
  std::shared_ptr<array::Group> p = groups().share(id_of(g));
  if (!p) return invalid("group handle is stale (already freed)");
  return std::shared_ptr<const array::Group>(std::move(p));
}

Status publish(std::unique_ptr<DiskArray> a, pario_disk_array_t* out) {
  uint64_t id = disk_arrays().insert(std::shared_ptr<DiskArray>(std::move(a)));
  if (id == 0) return Status(Code::kNoMemory, "too many disk array handles");
  *out = handle_of<pario_disk_array_t>(id);
  return Status::Ok();
}

template <typename Move>
int transfer(const char* call, pario_disk_array_t da, pario_array_t ga, const int64_t* ga_start,
             const int64_t* count, const int64_t* disk_start, Move&& move) {
  return guarded(call, [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(DiskArray * d, live(disk_arrays(), da, "disk array"));
    PARIO_ASSIGN_OR_RETURN(array::GlobalArray * a, live(arrays(), ga, "array"));
    if (!ga_start || !count || !disk_start) return invalid("ga_start, count or disk_start is null");
    const int nd = static_cast<int>(d->meta().shape.size());
    array::Box section;
    section.ndim = nd;
    for (int i = 0; i < nd; ++i) {
      section.start[i] = ga_start[i];
      section.count[i] = count[i];
    }
    return move(*d, *a, section, std::vector<int64_t>(disk_start, disk_start + nd));
  });
}

}  // namespace
}  // namespace pario::capi

using namespace pario;        // NOLINT: this file is the C boundary
using namespace pario::capi;  // NOLINT

extern "C" {

int pario_disk_array_create(pario_group_t group, const char* path, int type, int ndim,
                            const int64_t dims[], const int64_t chunk_hint[],
                            pario_disk_array_t* array_out) {
  return guarded("pario_disk_array_create", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<const array::Group> g, group_of(group));
    if (!path || !array_out || !dims) return invalid("path, dims or array_out is null");
    if (!array::valid_element_type(type)) return invalid("unknown element type " + std::to_string(type));
    if (ndim < 1 || ndim > PARIO_ARRAY_MAX_DIMS) return invalid("ndim " + std::to_string(ndim) + " (1 to 7)");
    std::vector<int64_t> shape(dims, dims + ndim), chunk;
    if (chunk_hint) chunk.assign(chunk_hint, chunk_hint + ndim);
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<DiskArray> a,
                           DiskArray::create(g, path, static_cast<array::ElementType>(type), shape, chunk));
    return publish(std::move(a), array_out);
  });
}

int pario_disk_array_open(pario_group_t group, const char* path, int mode, pario_disk_array_t* array_out) {
  return guarded("pario_disk_array_open", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<const array::Group> g, group_of(group));
    if (!path || !array_out) return invalid("path or array_out is null");
    if (mode != PARIO_MODE_READ && mode != PARIO_MODE_RDWR) {
      return invalid("mode " + std::to_string(mode) + ": PARIO_MODE_READ or PARIO_MODE_RDWR");
    }
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<DiskArray> a, DiskArray::open(g, path, mode == PARIO_MODE_RDWR));
    return publish(std::move(a), array_out);
  });
}

int pario_disk_array_close(pario_disk_array_t* array) {
  return guarded("pario_disk_array_close", [&]() -> Status {
    if (!array) return invalid("array pointer is null");
    PARIO_RETURN_IF_ERROR(live(disk_arrays(), *array, "disk array").status());
    std::shared_ptr<DiskArray> a = disk_arrays().remove(id_of(*array));
    *array = PARIO_DISK_ARRAY_NULL;
    return a->close();
  });
}

int pario_disk_array_delete(pario_group_t group, const char* path) {
  return guarded("pario_disk_array_delete", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<const array::Group> g, group_of(group));
    if (!path) return invalid("path is null");
    return DiskArray::remove(*g, path);
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

int pario_disk_array_write(pario_disk_array_t array, pario_array_t ga, const int64_t ga_start[],
                           const int64_t count[], const int64_t disk_start[]) {
  return transfer("pario_disk_array_write", array, ga, ga_start, count, disk_start,
                  [](DiskArray& d, array::GlobalArray& a, const array::Box& s, const std::vector<int64_t>& at) {
                    return d.write(a, s, at);
                  });
}

int pario_disk_array_read(pario_disk_array_t array, pario_array_t ga, const int64_t ga_start[],
                          const int64_t count[], const int64_t disk_start[]) {
  return transfer("pario_disk_array_read", array, ga, ga_start, count, disk_start,
                  [](DiskArray& d, array::GlobalArray& a, const array::Box& s, const std::vector<int64_t>& at) {
                    return d.read(a, s, at);
                  });
}

}  // extern "C"
