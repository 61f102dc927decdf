// C API: self-describing datasets on parallel HDF5 (pario/dataset.h).
//
// Each collective checks its arguments on this rank (handles, kinds,
// types, sizes, the segment and variable against the records every rank
// holds), digests those that must match, and agrees (capi/collective.h);
// dataset::Pds then does the work and agrees on its outcome. A dataset
// handle keeps this rank's put and get types per variable (memory types
// are a rank's own business: each rank converts its own values).
//
// Without parallel HDF5 (PARIO_HAVE_HDF5 0) every call but
// pario_dataset_even_split returns PARIO_ERR_UNSUPPORTED, on every rank
// alike and without communicating, so a program can test for it.
#include "pario/dataset.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capi/boundary.h"
#include "capi/runtime.h"
#include "pario/file.h"
#include "pario/status.h"

#if PARIO_HAVE_HDF5
#include "array/global_array.h"
#include "base/convert.h"
#include "capi/array_handles.h"
#include "capi/collective.h"
#include "capi/dataset_options.h"
#include "capi/decomp_handles.h"
#include "capi/handles.h"
#include "capi/options.h"
#include "collective/layout.h"
#include "dataset/pds.h"
#else
// Every call but even_split is one line that ignores its arguments.
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif

namespace pario::capi {
namespace {

[[maybe_unused]] int no_hdf5(const char* call) {
  return fail(call, Status(Code::kUnsupported, "this pario was built without parallel HDF5: no datasets"));
}

#if PARIO_HAVE_HDF5

using dataset::AttrValue;
using dataset::InfoOwner;
using dataset::Pds;

struct DatasetHandle {
  std::unique_ptr<Pds> pds;
  std::shared_ptr<const comm::Group> group_;
  collective::CollectiveOptions collective;  // the create or open hints, for write_array and read_array
  std::map<int, std::pair<int, int>> types;  // variable -> this rank's put, get (0: the word type)
  const comm::Group& group() const { return *group_; }
  ElementType put_type(int variable) const { return memory_type(variable, true); }
  ElementType get_type(int variable) const { return memory_type(variable, false); }

 private:
  ElementType memory_type(int variable, bool put) const {
    const auto it = types.find(variable);
    const int t = it == types.end() ? 0 : (put ? it->second.first : it->second.second);
    return t == 0 ? pds->variables()[static_cast<size_t>(variable)].word : static_cast<ElementType>(t);
  }
};

HandleTable<DatasetHandle>& datasets() {
  static auto* t = new HandleTable<DatasetHandle>(/*remember_removed=*/true);
  return *t;
}

// Every dataset handle made, in order, for pario_finalize to close those
// the program left open (close_leftover_datasets).
std::mutex made_mu;
std::vector<uint64_t>& made_ids() {
  static auto* v = new std::vector<uint64_t>();
  return *v;
}

DatasetHandle* entry_dataset(Entry& e, pario_dataset_t d) { return entry_object(e, datasets(), d, "dataset"); }

// A dataset just created or opened (collectively) gets its handle.
Status publish(Result<std::unique_ptr<Pds>> pds, std::shared_ptr<const comm::Group> group,
               collective::CollectiveOptions collective, pario_dataset_t* out) {
  PARIO_RETURN_IF_ERROR(pds.status());
  auto h = std::make_shared<DatasetHandle>();
  h->pds = std::move(pds).value();
  h->group_ = std::move(group);
  h->collective = std::move(collective);
  const uint64_t id = datasets().insert(h);
  if (id == 0) {
    (void)h->pds->close();  // every rank's table is full alike
    return Status(Code::kNoMemory, "too many open datasets");
  }
  *out = handle_of<pario_dataset_t>(id);
  std::lock_guard<std::mutex> lock(made_mu);
  std::vector<uint64_t>& made = made_ids();
  if (made.size() >= 64) {  // forget those closed already
    made.erase(std::remove_if(made.begin(), made.end(), [](uint64_t x) { return datasets().find(x) == nullptr; }),
               made.end());
  }
  made.push_back(id);
  return Status::Ok();
}

// The create options, checked.
Result<dataset::FileLayout> layout_of(const pario_dataset_create_options_t* o) {
  if (!o) return dataset::FileLayout{};
  Result<dataset::FileLayout> l = dataset::make_layout(o->file_mode, o->steps_per_file);
  if (!l.ok()) return invalid("options: " + l.status().message());
  return l;
}

// A sync policy (PARIO_DATASET_SYNC_*; 0: the environment's), checked.
Result<dataset::SyncPolicy> sync_policy_of(int sync) {
  if (sync < PARIO_DATASET_SYNC_DEFAULT || sync > PARIO_DATASET_SYNC_NONE) {
    return invalid("options->sync " + std::to_string(sync) + " is not a PARIO_DATASET_SYNC_*");
  }
  if (sync == PARIO_DATASET_SYNC_DEFAULT) {
    PARIO_ASSIGN_OR_RETURN(sync, dataset_sync_policy());
  }
  return static_cast<dataset::SyncPolicy>(sync);
}

// The engine's hints of a create or open, checked and digested (capi/options.h).
// The file's byte order is HDF5's business: the section's type says it,
// and Pds refuses a decomposition that is not native.
Result<collective::CollectiveOptions> entry_hints(Entry& e, const pario_decomp_hints* hints) {
  Result<collective::CollectiveOptions> o = entry_collective_options(e, hints);
  if (o.ok()) o->byte_order = ByteOrder::kNative;
  return o;
}

int create_dataset(const char* call, pario_group_t group, const char* path, int mode,
                   const pario_dataset_create_options_t* options, pario_dataset_t* dataset_out) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    entry_group(e, group);
    if (!path || !*path) e.check(invalid("path is null or empty"));
    if (!dataset_out) e.check(invalid("dataset_out is null"));
    const int base = mode & ~PARIO_MODE_RDWR;
    const bool exclusive = base == (PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE);
    if (!exclusive && base != (PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE)) {
      e.check(invalid("mode " + std::to_string(mode) +
                      " is not PARIO_MODE_CREATE with PARIO_MODE_EXCLUSIVE or PARIO_MODE_TRUNCATE"));
    }
    Result<dataset::FileLayout> layout = layout_of(options);
    e.check(layout);
    Result<dataset::SyncPolicy> sync = sync_policy_of(options ? options->sync : 0);
    e.check(sync);
    if (path) e.args().add("path", path);
    e.args().add("mode", mode);
    if (options) e.args().add("file_mode", options->file_mode).add("steps_per_file", options->steps_per_file);
    if (sync.ok()) e.args().add("sync", static_cast<int64_t>(*sync));
    Result<collective::CollectiveOptions> hints = entry_hints(e, options ? options->hints : nullptr);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<comm::Group> g, shared_group(group));
    Result<std::unique_ptr<Pds>> pds = Pds::create(g->comm_object(), path, !exclusive, *layout, *sync);
    return publish(std::move(pds), g, std::move(hints).value(), dataset_out);
  });
}

int open_dataset(const char* call, pario_group_t group, const char* path, int mode,
                 const pario_dataset_open_options_t* options, pario_dataset_t* dataset_out) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    entry_group(e, group);
    if (!path || !*path) e.check(invalid("path is null or empty"));
    if (!dataset_out) e.check(invalid("dataset_out is null"));
    if (mode != PARIO_MODE_READ && mode != PARIO_MODE_RDWR) {
      e.check(invalid("mode " + std::to_string(mode) + " is not PARIO_MODE_READ or PARIO_MODE_RDWR"));
    }
    Result<dataset::SyncPolicy> sync = sync_policy_of(options ? options->sync : PARIO_DATASET_SYNC_DEFAULT);
    e.check(sync);
    if (path) e.args().add("path", path);
    e.args().add("mode", mode);
    if (sync.ok()) e.args().add("sync", static_cast<int64_t>(*sync));
    Result<collective::CollectiveOptions> hints = entry_hints(e, options ? options->hints : nullptr);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<comm::Group> g, shared_group(group));
    Result<std::unique_ptr<Pds>> pds = Pds::open(g->comm_object(), path, mode == PARIO_MODE_RDWR, *sync);
    return publish(std::move(pds), g, std::move(hints).value(), dataset_out);
  });
}

// The dataset of a call naming a segment and a variable, both checked.
DatasetHandle* entry_section(Entry& e, pario_dataset_t d, int64_t segment, int variable) {
  DatasetHandle* h = entry_dataset(e, d);
  if (h) {
    e.check(h->pds->check_segment(segment));
    e.check(h->pds->check_variable(variable));
  }
  e.args().add("segment", segment).add("variable", variable);
  return h;
}

Status copy_name(const std::string& name, char* buf, size_t len) {
  if (buf == nullptr && len == 0) return Status::Ok();
  if (buf == nullptr || len < name.size() + 1) {
    return invalid("name_buf holds " + std::to_string(len) + " bytes; the name needs " +
                   std::to_string(name.size() + 1));
  }
  std::memcpy(buf, name.c_str(), name.size() + 1);
  return Status::Ok();
}

Status check_memory_type(int t, const char* what) {
  if (t != 0 && !valid_element_type(t)) {
    return invalid(std::string(what) + " " + std::to_string(t) + " is not a PARIO_TYPE_* (or 0)");
  }
  return Status::Ok();
}

Result<InfoOwner> info_owner(const DatasetHandle* h, int owner_kind, int64_t owner) {
  if (owner_kind < PARIO_INFO_DATASET || owner_kind > PARIO_INFO_SEGMENT) {
    return invalid("owner_kind " + std::to_string(owner_kind) + " is not a PARIO_INFO_*");
  }
  const auto kind = static_cast<InfoOwner>(owner_kind);
  if (h) PARIO_RETURN_IF_ERROR(h->pds->owner_path(kind, owner).status());
  return kind;
}

// The checks and digest of every info call.
Result<InfoOwner> entry_info(Entry& e, DatasetHandle* h, int owner_kind, int64_t owner, const char* name) {
  Result<InfoOwner> kind = info_owner(h, owner_kind, owner);
  e.check(kind);
  if (!name) {
    e.check(invalid("name is null"));
  } else {
    e.check(dataset::check_name(name, "info name"));
    e.args().add("name", name);
  }
  e.args().add("owner_kind", owner_kind).add("owner", owner);
  return kind;
}

// A decomposition of this rank's patch of a global array, over the
// dataset's group, in the variable's word type, with the dataset's hints.
Result<std::unique_ptr<collective::Decomposition>> array_decomposition(const DatasetHandle& h, int variable,
                                                                        array::GlobalArray& a, char** patch_data) {
  const array::Distribution& dist = a.distribution();
  Box patch;
  PARIO_ASSIGN_OR_RETURN(*patch_data, a.access(a.group().rank(), &patch));
  Shape dims{};
  std::copy(dist.dims().begin(), dist.dims().end(), dims.begin());
  std::vector<Box> blocks;
  if (patch.elements() > 0) blocks.push_back(patch);
  PARIO_ASSIGN_OR_RETURN(collective::SortedRuns runs,
                         collective::runs_of_blocks(dist.ndim(), dims, collective::IndexOrder::kC, blocks));
  int64_t global = 1;
  for (int64_t d : dist.dims()) global *= d;  // the array's own size, checked when it was made
  return collective::Decomposition::create(h.group(), std::move(runs), global,
                                           h.pds->variables()[static_cast<size_t>(variable)].word, h.collective);
}

int array_transfer(const char* call, bool write, pario_dataset_t ds, int64_t segment, int variable,
                   pario_array_t array) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    DatasetHandle* h = entry_section(e, ds, segment, variable);
    array::GlobalArray* a = entry_array(e, array, "array");
    if (h && a && a->group().size() != h->group().size()) {
      e.check(invalid("the array's group has " + std::to_string(a->group().size()) + " ranks, the dataset's " +
                      std::to_string(h->group().size())));
    }
    if (h && a && h->pds->check_variable(variable).ok() &&
        h->pds->variables()[static_cast<size_t>(variable)].item != dataset::ItemKind::kScalar) {
      e.check(invalid("variable " + std::to_string(variable) + " is no scalar: an array's elements are scalars"));
    }
    PARIO_RETURN_IF_ERROR(e.agree());
    char* data = nullptr;
    Result<std::unique_ptr<collective::Decomposition>> d = array_decomposition(*h, variable, *a, &data);
    // Decomposition::create agreed; a rank's access failure is local, so agree on it.
    PARIO_RETURN_IF_ERROR(comm::agree(h->group().comm_object(), d.status()));
    Status s;
    if (write) {
      s = a->sync();  // every rank's puts land before the patches are read
      if (s.ok()) {
        const array::Distribution& dist = a->distribution();
        Shape dims{};
        std::copy(dist.dims().begin(), dist.dims().end(), dims.begin());
        s = h->pds->write_global(segment, variable, **d, a->type(), data, dist.ndim(), dims);
      }
    } else {
      s = h->pds->read_global(segment, variable, **d, a->type(), data);
      const Status synced = a->sync();  // the patches written are seen by every rank
      if (s.ok()) s = synced;
    }
    const Status freed = (*d)->free();
    return s.ok() ? freed : s;
  });
}

// The segment a find call looks for, or its error.
template <typename Find>
Status find_segment(pario_dataset_t dataset, int kind, int64_t* segment_out, Find find, const std::string& what) {
  PARIO_ASSIGN_OR_RETURN(DatasetHandle * h, live(datasets(), dataset, "dataset"));
  if (kind != PARIO_SEGMENT_ANY && kind != PARIO_SEGMENT_TOPOLOGY && kind != PARIO_SEGMENT_STATE) {
    return invalid("kind " + std::to_string(kind) + " is not a PARIO_SEGMENT_*");
  }
  if (!segment_out) return invalid("segment_out is null");
  std::optional<dataset::SegmentKind> k;
  if (kind != PARIO_SEGMENT_ANY) k = static_cast<dataset::SegmentKind>(kind);
  const std::optional<int64_t> found = find(h->pds->segments(), k);
  if (!found) return Status(Code::kNotFound, h->pds->path() + ": no segment " + what);
  *segment_out = *found;
  return Status::Ok();
}

#endif  // PARIO_HAVE_HDF5

}  // namespace
}  // namespace pario::capi

namespace pario::capi {

Status close_leftover_datasets() {
#if PARIO_HAVE_HDF5
  std::vector<uint64_t> all;
  {
    std::lock_guard<std::mutex> lock(made_mu);
    all.swap(made_ids());
  }
  Status first;
  for (uint64_t id : all) {
    // Every rank of a dataset's group made it and left it open alike.
    std::shared_ptr<DatasetHandle> h = datasets().remove(id);
    if (!h) continue;
    const Status s = h->pds->close();
    if (first.ok() && !s.ok()) first = Status(s.code(), "closing a dataset left open: " + s.message());
  }
  return first;
#else
  return Status::Ok();
#endif
}

}  // namespace pario::capi

using namespace pario;        // NOLINT: this file is the C boundary
using namespace pario::capi;  // NOLINT

extern "C" {

int pario_dataset_supported(void) { return PARIO_HAVE_HDF5 ? 1 : 0; }

int pario_dataset_even_split(int64_t items, int parts, int part, int64_t* start_out, int64_t* count_out) {
  return guarded("pario_dataset_even_split", [&]() -> Status {
    if (items < 0) return invalid("items is negative");
    if (parts < 1) return invalid("parts " + std::to_string(parts) + " is < 1");
    if (part < 0 || part >= parts) return invalid("part " + std::to_string(part) + " is not in 0..parts-1");
    const int64_t base = items / parts, extra = items % parts;
    if (start_out) *start_out = part * base + (part < extra ? part : extra);
    if (count_out) *count_out = base + (part < extra ? 1 : 0);
    return Status::Ok();
  });
}

#if PARIO_HAVE_HDF5
#define PARIO_DATASET_BODY(call, ...) return guarded(call, [&]() -> Status __VA_ARGS__)
#else
#define PARIO_DATASET_BODY(call, ...) return no_hdf5(call)
#endif

int pario_dataset_create(pario_group_t group, const char* path, int mode, pario_dataset_t* dataset_out) {
#if PARIO_HAVE_HDF5
  return create_dataset("pario_dataset_create", group, path, mode, nullptr, dataset_out);
#else
  return no_hdf5("pario_dataset_create");
#endif
}

int pario_dataset_create_with(pario_group_t group, const char* path, int mode,
                              const pario_dataset_create_options_t* options, pario_dataset_t* dataset_out) {
#if PARIO_HAVE_HDF5
  return create_dataset("pario_dataset_create_with", group, path, mode, options, dataset_out);
#else
  return no_hdf5("pario_dataset_create_with");
#endif
}

int pario_dataset_file_mode(pario_dataset_t dataset, int* file_mode_out, int64_t* steps_per_file_out,
                            int64_t* files_out) {
  PARIO_DATASET_BODY("pario_dataset_file_mode", {
    PARIO_ASSIGN_OR_RETURN(DatasetHandle * h, live(datasets(), dataset, "dataset"));
    if (file_mode_out) *file_mode_out = static_cast<int>(h->pds->layout().mode);
    if (steps_per_file_out) *steps_per_file_out = h->pds->layout().steps_per_file;
    if (files_out) *files_out = h->pds->file_count();
    return Status::Ok();
  });
}

int pario_dataset_sync_counts(pario_dataset_t dataset, int* policy_out, int64_t* syncs_out,
                              int64_t* write_backs_out) {
  PARIO_DATASET_BODY("pario_dataset_sync_counts", {
    PARIO_ASSIGN_OR_RETURN(DatasetHandle * h, live(datasets(), dataset, "dataset"));
    if (policy_out) *policy_out = static_cast<int>(h->pds->sync_policy());
    if (syncs_out) *syncs_out = h->pds->sync_counts().syncs;
    if (write_backs_out) *write_backs_out = h->pds->sync_counts().write_backs;
    return Status::Ok();
  });
}

int pario_dataset_open(pario_group_t group, const char* path, int mode, pario_dataset_t* dataset_out) {
#if PARIO_HAVE_HDF5
  return open_dataset("pario_dataset_open", group, path, mode, nullptr, dataset_out);
#else
  return no_hdf5("pario_dataset_open");
#endif
}

int pario_dataset_open_with(pario_group_t group, const char* path, int mode,
                            const pario_dataset_open_options_t* options, pario_dataset_t* dataset_out) {
#if PARIO_HAVE_HDF5
  return open_dataset("pario_dataset_open_with", group, path, mode, options, dataset_out);
#else
  return no_hdf5("pario_dataset_open_with");
#endif
}

int pario_dataset_close(pario_dataset_t* dataset) {
  PARIO_DATASET_BODY("pario_dataset_close", {
    Entry e("pario_dataset_close");
    if (!dataset) {
      e.check(invalid("dataset is null"));
    } else {
      entry_dataset(e, *dataset);
    }
    PARIO_RETURN_IF_ERROR(e.agree());
    std::shared_ptr<DatasetHandle> h = datasets().remove(id_of(*dataset));
    *dataset = PARIO_DATASET_NULL;
    return h->pds->close();
  });
}

int pario_dataset_segment_append(pario_dataset_t dataset, int kind, int64_t time_index, double time_value,
                                 int64_t* segment_out) {
  PARIO_DATASET_BODY("pario_dataset_segment_append", {
    Entry e("pario_dataset_segment_append");
    DatasetHandle* h = entry_dataset(e, dataset);
    if (kind != PARIO_SEGMENT_TOPOLOGY && kind != PARIO_SEGMENT_STATE) {
      e.check(invalid("kind " + std::to_string(kind) + " is not PARIO_SEGMENT_TOPOLOGY or _STATE"));
    } else if (h) {
      e.check(h->pds->check_writable());
      e.check(dataset::check_append(h->pds->segments(), static_cast<dataset::SegmentKind>(kind), time_index,
                                    time_value));
    }
    e.args().add("kind", kind).add("time_index", time_index).add_bytes("time_value", &time_value, sizeof time_value);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(int64_t position,
                           h->pds->append_segment(static_cast<dataset::SegmentKind>(kind), time_index, time_value));
    if (segment_out) *segment_out = position;
    return Status::Ok();
  });
}

int pario_dataset_segment_count(pario_dataset_t dataset, int64_t* count_out) {
  PARIO_DATASET_BODY("pario_dataset_segment_count", {
    PARIO_ASSIGN_OR_RETURN(DatasetHandle * h, live(datasets(), dataset, "dataset"));
    if (!count_out) return invalid("count_out is null");
    *count_out = static_cast<int64_t>(h->pds->segments().size());
    return Status::Ok();
  });
}

int pario_dataset_segment_info(pario_dataset_t dataset, int64_t segment, int* kind_out, int64_t* time_index_out,
                               double* time_value_out) {
  PARIO_DATASET_BODY("pario_dataset_segment_info", {
    PARIO_ASSIGN_OR_RETURN(DatasetHandle * h, live(datasets(), dataset, "dataset"));
    PARIO_RETURN_IF_ERROR(h->pds->check_segment(segment));
    const dataset::SegmentRecord& s = h->pds->segments()[static_cast<size_t>(segment)];
    if (kind_out) *kind_out = static_cast<int>(s.kind);
    if (time_index_out) *time_index_out = s.time_index;
    if (time_value_out) *time_value_out = s.time_value;
    return Status::Ok();
  });
}


int pario_dataset_segment_find_index(pario_dataset_t dataset, int kind, int64_t time_index, int64_t* segment_out) {
  PARIO_DATASET_BODY("pario_dataset_segment_find_index", {
    return find_segment(
        dataset, kind, segment_out,
        [&](const auto& s, auto k) { return dataset::find_by_index(s, k, time_index); },
        "of that kind has time index " + std::to_string(time_index));
  });
}

int pario_dataset_segment_find_time(pario_dataset_t dataset, int kind, double time_value, int64_t* segment_out) {
  PARIO_DATASET_BODY("pario_dataset_segment_find_time", {
    return find_segment(
        dataset, kind, segment_out, [&](const auto& s, auto k) { return dataset::find_by_time(s, k, time_value); },
        "of that kind has a time value <= " + std::to_string(time_value));
  });
}

int pario_dataset_truncate(pario_dataset_t dataset, int64_t last_kept) {
  PARIO_DATASET_BODY("pario_dataset_truncate", {
    Entry e("pario_dataset_truncate");
    DatasetHandle* h = entry_dataset(e, dataset);
    if (h) {
      e.check(h->pds->check_writable());
      if (last_kept != -1) e.check(h->pds->check_segment(last_kept));
    }
    e.args().add("last_kept", last_kept);
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->pds->truncate(last_kept);
  });
}

int pario_dataset_variable_register(pario_dataset_t dataset, const char* name, int item_kind,
                                    const int64_t item_dims[], int word_type, int* variable_out) {
  PARIO_DATASET_BODY("pario_dataset_variable_register", {
    Entry e("pario_dataset_variable_register");
    DatasetHandle* h = entry_dataset(e, dataset);
    if (h) e.check(h->pds->check_writable());
    Result<dataset::VariableRecord> v = Status(Code::kInvalidArgument, "name is null");
    if (name) v = dataset::make_variable(name, item_kind, item_dims, word_type);
    e.check(v);
    if (!variable_out) e.check(invalid("variable_out is null"));
    if (v.ok()) {
      e.args().add("name", name).add("item_kind", item_kind).add("item_dims", v->item_dims, 2);
      e.args().add("word_type", word_type);
    }
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(int id, h->pds->register_variable(*v));
    *variable_out = id;
    return Status::Ok();
  });
}

int pario_dataset_variable_find(pario_dataset_t dataset, const char* name, int* variable_out) {
  PARIO_DATASET_BODY("pario_dataset_variable_find", {
    PARIO_ASSIGN_OR_RETURN(DatasetHandle * h, live(datasets(), dataset, "dataset"));
    if (!name) return invalid("name is null");
    if (!variable_out) return invalid("variable_out is null");
    const std::optional<int> id = h->pds->find_variable(name);
    if (!id) return Status(Code::kNotFound, h->pds->path() + ": no variable " + name);
    *variable_out = *id;
    return Status::Ok();
  });
}

int pario_dataset_variable_count(pario_dataset_t dataset, int* count_out) {
  PARIO_DATASET_BODY("pario_dataset_variable_count", {
    PARIO_ASSIGN_OR_RETURN(DatasetHandle * h, live(datasets(), dataset, "dataset"));
    if (!count_out) return invalid("count_out is null");
    *count_out = static_cast<int>(h->pds->variables().size());
    return Status::Ok();
  });
}

int pario_dataset_variable_info(pario_dataset_t dataset, int variable, char* name_buf, size_t name_len,
                                int* item_kind_out, int64_t item_dims_out[2], int* word_type_out) {
  PARIO_DATASET_BODY("pario_dataset_variable_info", {
    PARIO_ASSIGN_OR_RETURN(DatasetHandle * h, live(datasets(), dataset, "dataset"));
    PARIO_RETURN_IF_ERROR(h->pds->check_variable(variable));
    const dataset::VariableRecord& v = h->pds->variables()[static_cast<size_t>(variable)];
    PARIO_RETURN_IF_ERROR(copy_name(v.name, name_buf, name_len));
    if (item_kind_out) *item_kind_out = static_cast<int>(v.item);
    if (item_dims_out) {
      item_dims_out[0] = v.item_dims[0];
      item_dims_out[1] = v.item_dims[1];
    }
    if (word_type_out) *word_type_out = static_cast<int>(v.word);
    return Status::Ok();
  });
}

int pario_dataset_variable_set_types(pario_dataset_t dataset, int variable, int put_type, int get_type) {
  PARIO_DATASET_BODY("pario_dataset_variable_set_types", {
    PARIO_ASSIGN_OR_RETURN(DatasetHandle * h, live(datasets(), dataset, "dataset"));
    PARIO_RETURN_IF_ERROR(h->pds->check_variable(variable));
    PARIO_RETURN_IF_ERROR(check_memory_type(put_type, "put_type"));
    PARIO_RETURN_IF_ERROR(check_memory_type(get_type, "get_type"));
    h->types[variable] = {put_type, get_type};
    return Status::Ok();
  });
}

int pario_dataset_section_info(pario_dataset_t dataset, int64_t segment, int variable, int writer,
                               pario_dataset_section_t* info_out) {
  PARIO_DATASET_BODY("pario_dataset_section_info", {
    Entry e("pario_dataset_section_info");
    DatasetHandle* h = entry_section(e, dataset, segment, variable);
    if (!info_out) e.check(invalid("info_out is null"));
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(dataset::SectionInfo s, h->pds->section_info(segment, variable, writer));
    pario_dataset_section_t out{};
    out.layout = s.layout == dataset::SectionLayout::kRankOrdered ? PARIO_SECTION_RANK_ORDERED
                                                                  : PARIO_SECTION_GLOBAL_ORDERED;
    out.writers = s.writers;
    out.items = s.items;
    out.max_piece = s.max_piece;
    out.piece_start = s.piece_start;
    out.piece_count = s.piece_count;
    out.ndim = s.ndim;
    for (int d = 0; d < s.ndim; ++d) out.dims[d] = s.dims[d];
    *info_out = out;
    return Status::Ok();
  });
}

int pario_dataset_write_ranked(pario_dataset_t dataset, int64_t segment, int variable, int64_t items,
                               const void* buf) {
  PARIO_DATASET_BODY("pario_dataset_write_ranked", {
    Entry e("pario_dataset_write_ranked");
    DatasetHandle* h = entry_section(e, dataset, segment, variable);
    if (h) e.check(h->pds->check_writable());
    if (items < 0) e.check(invalid("items is negative"));
    if (items > 0 && !buf) e.check(invalid("buf is null"));
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->pds->write_ranked(segment, variable, h->put_type(variable), items, buf);
  });
}

int pario_dataset_read_items(pario_dataset_t dataset, int64_t segment, int variable, int64_t start, int64_t items,
                             void* buf) {
  PARIO_DATASET_BODY("pario_dataset_read_items", {
    Entry e("pario_dataset_read_items");
    DatasetHandle* h = entry_section(e, dataset, segment, variable);
    if (start < 0 || items < 0) e.check(invalid("start or items is negative"));
    if (items > 0 && !buf) e.check(invalid("buf is null"));
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->pds->read_items(segment, variable, h->get_type(variable), start, items, buf);
  });
}

int pario_dataset_write_decomp(pario_dataset_t dataset, int64_t segment, int variable, pario_decomp_t decomp,
                               const void* buf) {
  PARIO_DATASET_BODY("pario_dataset_write_decomp", {
    Entry e("pario_dataset_write_decomp");
    DatasetHandle* h = entry_section(e, dataset, segment, variable);
    DecompHandle* d = entry_decomp(e, decomp);
    if (h) e.check(h->pds->check_writable());
    if (h && d && h->pds->check_variable(variable).ok()) {
      // Every check write_global takes as agreed (dataset/pds.h).
      e.check(h->pds->check_decomposition(variable, *d->decomp));
      e.check(dataset::section_shape(h->pds->variables()[static_cast<size_t>(variable)], d->decomp->global_size(),
                                     d->shape_ndim, d->shape));
    }
    if (d && d->decomp->local_count() > 0 && !buf) e.check(invalid("buf is null"));
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->pds->write_global(segment, variable, *d->decomp, h->put_type(variable), buf, d->shape_ndim, d->shape);
  });
}

int pario_dataset_read_decomp(pario_dataset_t dataset, int64_t segment, int variable, pario_decomp_t decomp,
                              void* buf) {
  PARIO_DATASET_BODY("pario_dataset_read_decomp", {
    Entry e("pario_dataset_read_decomp");
    DatasetHandle* h = entry_section(e, dataset, segment, variable);
    DecompHandle* d = entry_decomp(e, decomp);
    if (h && d && h->pds->check_variable(variable).ok()) e.check(h->pds->check_decomposition(variable, *d->decomp));
    if (d && d->decomp->local_count() > 0 && !buf) e.check(invalid("buf is null"));
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->pds->read_global(segment, variable, *d->decomp, h->get_type(variable), buf);
  });
}

int pario_dataset_write_array(pario_dataset_t dataset, int64_t segment, int variable, pario_array_t array) {
#if PARIO_HAVE_HDF5
  return array_transfer("pario_dataset_write_array", true, dataset, segment, variable, array);
#else
  return no_hdf5("pario_dataset_write_array");
#endif
}

int pario_dataset_read_array(pario_dataset_t dataset, int64_t segment, int variable, pario_array_t array) {
#if PARIO_HAVE_HDF5
  return array_transfer("pario_dataset_read_array", false, dataset, segment, variable, array);
#else
  return no_hdf5("pario_dataset_read_array");
#endif
}

int pario_dataset_info_put(pario_dataset_t dataset, int owner_kind, int64_t owner, const char* name, int type,
                           int64_t count, const void* values) {
  PARIO_DATASET_BODY("pario_dataset_info_put", {
    Entry e("pario_dataset_info_put");
    DatasetHandle* h = entry_dataset(e, dataset);
    if (h) e.check(h->pds->check_writable());
    Result<InfoOwner> kind = entry_info(e, h, owner_kind, owner, name);
    const bool is_string = type == PARIO_INFO_STRING;
    const int64_t size = is_string ? 1 : (valid_element_type(type) ? static_cast<int64_t>(element_size(
                                                                         static_cast<ElementType>(type)))
                                                                   : 0);
    if (size == 0) e.check(invalid("type " + std::to_string(type) + " is not a PARIO_TYPE_* or PARIO_INFO_STRING"));
    if (count < 0 || (size > 0 && count > dataset::kMaxAttributeBytes / size)) {
      e.check(invalid("count " + std::to_string(count) + " is negative or more than 64 MiB of values"));
    }
    const bool root = h && h->group().rank() == 0;
    if (root && count > 0 && !values) e.check(invalid("values is null on rank 0 (the writer)"));
    if (root && is_string && values && count > 0 && std::memchr(values, '\0', static_cast<size_t>(count))) {
      e.check(invalid("a string info holds a NUL byte"));
    }
    e.args().add("type", type).add("count", count);
    PARIO_RETURN_IF_ERROR(e.agree());
    AttrValue v;
    if (root) {
      v = is_string ? AttrValue::string(std::string(static_cast<const char*>(values), static_cast<size_t>(count)))
                    : AttrValue::array(static_cast<ElementType>(type), count > 0 ? values : "", count);
    }
    return h->pds->put_info(*kind, owner, name, v);
  });
}

int pario_dataset_info_get(pario_dataset_t dataset, int owner_kind, int64_t owner, const char* name, int type,
                           int64_t capacity, void* values, int* type_out, int64_t* count_out) {
  PARIO_DATASET_BODY("pario_dataset_info_get", {
    Entry e("pario_dataset_info_get");
    DatasetHandle* h = entry_dataset(e, dataset);
    Result<InfoOwner> kind = entry_info(e, h, owner_kind, owner, name);
    if (values && type != PARIO_INFO_STRING && !valid_element_type(type)) {
      e.check(invalid("type " + std::to_string(type) + " is not a PARIO_TYPE_* or PARIO_INFO_STRING"));
    }
    if (capacity < 0) e.check(invalid("capacity is negative"));
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(AttrValue v, h->pds->get_info(*kind, owner, name));
    // Local from here (each rank its own type and buffer): agree again.
    const int64_t count = v.is_string ? static_cast<int64_t>(v.text.size()) : v.count;
    Status local;
    if (values) {
      if (count > capacity) {
        local = invalid(std::string("info ") + name + " holds " + std::to_string(count) + " values; capacity is " +
                        std::to_string(capacity));
      } else if (v.is_string != (type == PARIO_INFO_STRING)) {
        local = invalid(std::string("info ") + name + " is " + (v.is_string ? "a string" : "numbers") +
                        "; asked for " + (type == PARIO_INFO_STRING ? "a string" : "numbers"));
      } else if (v.is_string) {
        std::memcpy(values, v.text.data(), v.text.size());
      } else {
        local = convert(v.type, v.bytes.data(), static_cast<ElementType>(type), values, static_cast<size_t>(count));
      }
    }
    PARIO_RETURN_IF_ERROR(comm::agree(h->group().comm_object(), local));
    if (type_out) *type_out = v.is_string ? PARIO_INFO_STRING : static_cast<int>(v.type);
    if (count_out) *count_out = count;
    return Status::Ok();
  });
}

int pario_dataset_info_name(pario_dataset_t dataset, int owner_kind, int64_t owner, int64_t index, char* name_buf,
                            size_t name_len, int64_t* count_out) {
  PARIO_DATASET_BODY("pario_dataset_info_name", {
    Entry e("pario_dataset_info_name");
    DatasetHandle* h = entry_dataset(e, dataset);
    Result<InfoOwner> kind = info_owner(h, owner_kind, owner);
    e.check(kind);
    e.args().add("owner_kind", owner_kind).add("owner", owner);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::vector<std::string> names, h->pds->info_names(*kind, owner));
    Status local;
    if (name_buf && index >= 0 && index < static_cast<int64_t>(names.size())) {
      local = copy_name(names[static_cast<size_t>(index)], name_buf, name_len);
    }
    PARIO_RETURN_IF_ERROR(comm::agree(h->group().comm_object(), local));
    if (count_out) *count_out = static_cast<int64_t>(names.size());
    return Status::Ok();
  });
}

}  // extern "C"
