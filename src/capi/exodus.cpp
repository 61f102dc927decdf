// C API: one Exodus II file written by all ranks (pario/exodus.h).
//
// Each call checks its arguments on this rank, digests the ones every
// rank must pass alike, and agrees (capi/collective.h); only then does it
// change the definition (the same change on every rank) or hand the
// rank's part to the writer (exodus/writer.h), whose steps agree again.
#include <algorithm>
#include <array>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "capi/array_handles.h"
#include "capi/boundary.h"
#include "capi/collective.h"
#include "capi/exodus_options.h"
#include "capi/handles.h"
#include "capi/options.h"
#include "capi/runtime.h"
#include "collective/transfer.h"
#include "comm/comm.h"
#include "exodus/model.h"
#include "exodus/reader.h"
#include "exodus/series.h"
#include "exodus/writer.h"
#include "file/storage.h"
#include "pario/exodus.h"

namespace pario::capi {
namespace {

using exodus::Definition;
using exodus::Reader;
using exodus::Writer;

// A file being written (writer) or read (reader).
struct ExodusHandle {
  std::unique_ptr<Writer> writer;
  std::unique_ptr<Reader> reader;
  std::shared_ptr<const comm::Group> group;
  // What pario_exodus_init announced, checked when the definition ends.
  bool initialized = false;
  int want_blocks = 0, want_node_sets = 0, want_side_sets = 0;
  bool variables[3] = {false, false, false};
  // A reader's place in its series (pario_exodus_open with steps_per_file).
  int series_index = 1, series_first_step = 0;
};

HandleTable<ExodusHandle>& files() {
  static auto* t = new HandleTable<ExodusHandle>(/*remember_removed=*/true);
  return *t;
}

ExodusHandle* entry_exodus(Entry& e, pario_exodus_t x) {
  Result<ExodusHandle*> h = live(files(), x, "exodus file");
  e.check(h);
  if (!h.ok()) {
    if (std::shared_ptr<ExodusHandle> gone = files().removed(id_of(x))) e.over_removed(gone, gone->group.get());
    return nullptr;
  }
  e.over((*h)->group.get());
  return *h;
}

// A writer's handle: live and open for writing (null otherwise, checked into e).
ExodusHandle* entry_writer(Entry& e, pario_exodus_t x) {
  ExodusHandle* h = entry_exodus(e, x);
  if (h && !h->writer) {
    e.check(Status(Code::kState, "the file is open for reading (pario_exodus_open)"));
    return nullptr;
  }
  return h;
}

// A reader's handle: live and open for reading (null otherwise, checked into e).
ExodusHandle* entry_reader(Entry& e, pario_exodus_t x) {
  ExodusHandle* h = entry_exodus(e, x);
  if (h && !h->reader) {
    e.check(Status(Code::kState, "the file is open for writing (pario_exodus_create)"));
    return nullptr;
  }
  return h;
}

// The definition is still open and initialized (init itself: open only).
Status defining(const ExodusHandle* h, bool need_init = true) {
  if (!h->writer->defining()) return Status(Code::kState, "the definition has ended (definitions come before data)");
  if (need_init && !h->initialized) return Status(Code::kState, "call pario_exodus_init first");
  return Status::Ok();
}

// What the definition owes before it can end (the counts init announced).
Status complete(const ExodusHandle* h) {
  if (!h->writer->defining()) return Status::Ok();
  if (!h->initialized) return Status(Code::kState, "call pario_exodus_init first");
  const Definition& d = h->writer->definition();
  auto count = [](const char* what, size_t have, int want) -> Status {
    if (have == static_cast<size_t>(want)) return Status::Ok();
    return Status(Code::kState, std::string(what) + ": pario_exodus_init announced " + std::to_string(want) + ", " +
                                    std::to_string(have) + " defined");
  };
  PARIO_RETURN_IF_ERROR(count("element blocks", d.blocks.size(), h->want_blocks));
  PARIO_RETURN_IF_ERROR(count("node sets", d.node_sets.size(), h->want_node_sets));
  return count("side sets", d.side_sets.size(), h->want_side_sets);
}

// A data call's handle: live, its definition complete.
ExodusHandle* entry_data(Entry& e, pario_exodus_t x) {
  ExodusHandle* h = entry_writer(e, x);
  if (h) e.check(complete(h));
  return h;
}

// A mesh call's handle (put_nodes, _block, _attributes, _node_set,
// _side_set): a file being made; a file opened to append has its mesh.
ExodusHandle* entry_mesh(Entry& e, pario_exodus_t x) {
  ExodusHandle* h = entry_data(e, x);
  if (h && h->writer->appending()) {
    e.check(Status(Code::kState, "the file was opened to append: its mesh is written (name this rank's part with "
                                 "pario_exodus_attach_nodes and _attach_block)"));
  }
  return h;
}

std::string text(const char* s) { return s ? s : ""; }

// n strings, digested as one (each with its NUL); kInvalidArgument for a null one.
Status strings(const char* const* list, size_t n, const char* what, std::vector<std::string>* out, std::string* joined) {
  if (n > 0 && !list) return invalid(std::string(what) + " is null");
  for (size_t i = 0; i < n; ++i) {
    if (!list[i]) return invalid(std::string(what) + "[" + std::to_string(i) + "] is null");
    out->push_back(list[i]);
    joined->append(list[i]);
    joined->push_back('\0');
  }
  return Status::Ok();
}

Status mem_type_ok(int mem_type) {
  if (valid_element_type(mem_type)) return Status::Ok();
  return invalid("mem_type " + std::to_string(mem_type) + " is not a PARIO_TYPE_*");
}

// The index of a block or set by id, for a data call.
template <typename List>
Result<size_t> index_of(const List& list, int64_t id, const char* what) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].id == id) return i;
  }
  return invalid(std::string(what) + " " + std::to_string(id) + " is not defined");
}

// The index of a data call's block, checked into e (no handle: an error
// that entry_data already recorded).
Result<size_t> entry_block(Entry& e, ExodusHandle* h, int64_t block_id) {
  if (!h) return invalid("no file");
  Result<size_t> b = index_of(h->writer->definition().blocks, block_id, "element block");
  e.check(b);
  return b;
}

// n items of `per` strings each, or kInvalidArgument for a negative n.
Result<size_t> count_of(int n, size_t per) {
  if (n < 0) return invalid("n is negative");
  return static_cast<size_t>(n) * per;
}

// Every definition that takes a list of strings: how many (count, from the
// handle), each checked (check), digested as one with `tag`, agreed, then
// applied alike on every rank.
template <typename Count, typename Check, typename Apply>
int define_strings(const char* call, pario_exodus_t exodus, const char* const* list, const char* what, int tag,
                   Count&& count, Check&& check, Apply&& apply) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_writer(e, exodus);
    std::vector<std::string> items;
    std::string joined;
    if (h) {
      e.check(defining(h));
      Result<size_t> n = count(*h);
      e.check(n);
      if (e.ok()) e.check(strings(list, *n, what, &items, &joined));
    }
    for (size_t i = 0; i < items.size(); ++i) e.check(check(i, items[i]));
    e.args().add("tag", tag).add_bytes(what, joined.data(), joined.size());
    PARIO_RETURN_IF_ERROR(e.agree());
    apply(*h, std::move(items));
    return Status::Ok();
  });
}

// What a file's writer or reader is made of.
struct FileParts {
  collective::CollectiveOptions collective;
  std::shared_ptr<device::Storage> storage;
  device::AsyncEngine* engine = nullptr;
};

// create and open: the options checked and agreed, then `make` fills the
// handle (collectively), which gets its C handle.
template <typename Make>
int make_file(const char* call, pario_group_t group, const char* path, const pario_exodus_options* options,
              pario_exodus_t* exodus_out, Make&& make) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    entry_group(e, group);
    pario_exodus_options o{};
    if (options) o = *options;
    if (!path || !*path) e.check(invalid("path is null or empty"));
    if (!exodus_out) e.check(invalid("exodus_out is null"));
    if (o.format != PARIO_EXODUS_FORMAT_AUTO && o.format != PARIO_EXODUS_FORMAT_CDF2 &&
        o.format != PARIO_EXODUS_FORMAT_CDF5) {
      e.check(invalid("options->format " + std::to_string(o.format) + " is not a PARIO_EXODUS_FORMAT_*"));
    }
    if (o.float_size != 0 && o.float_size != 4 && o.float_size != 8) {
      e.check(invalid("options->float_size " + std::to_string(o.float_size) + " is not 0, 4 or 8"));
    }
    if (o.steps_per_file < 0) e.check(invalid("options->steps_per_file " + std::to_string(o.steps_per_file) + " is negative"));
    e.args().add("path", path).add("format", o.format).add("float_size", o.float_size);
    e.args().add("no_step_sync", o.no_step_sync ? 1 : 0).add("steps_per_file", o.steps_per_file);
    e.args().add("int64", o.int64 ? 1 : 0).add("nemesis", o.nemesis ? 1 : 0);
    Result<collective::CollectiveOptions> copts = entry_collective_options(e, o.hints);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<comm::Group> g, shared_group(group));
    PARIO_ASSIGN_OR_RETURN(const Resources* r, resources());
    // One file shared by every rank: on disk (not in a node's RAM), through
    // the process's engine.
    FileParts parts{*copts, file::storage_for(path, r->files, /*one_node=*/false), r->engine.get()};
    auto handle = std::make_shared<ExodusHandle>();
    handle->group = g;
    PARIO_RETURN_IF_ERROR(make(g, o, std::move(parts), handle.get()));
    const uint64_t id = files().insert(handle);
    if (id == 0) {  // every rank's table is full alike
      (void)(handle->writer ? handle->writer->close() : handle->reader->close());
      return Status(Code::kNoMemory, "too many exodus files");
    }
    *exodus_out = handle_of<pario_exodus_t>(id);
    return Status::Ok();
  });
}

// create (a new file, its definition to come) or open_append (an existing
// file, its definition whole).
int make_writer(const char* call, pario_group_t group, const char* path, const pario_exodus_options* options,
                pario_exodus_t* exodus_out, bool append) {
  return make_file(call, group, path, options, exodus_out,
                   [&](std::shared_ptr<comm::Group> g, const pario_exodus_options& o, FileParts parts,
                       ExodusHandle* handle) -> Status {
                     exodus::WriterOptions wo;
                     wo.collective = std::move(parts.collective);
                     wo.storage = std::move(parts.storage);
                     wo.engine = parts.engine;
                     PARIO_ASSIGN_OR_RETURN(wo.step_sync, exodus_step_sync());
                     if (o.no_step_sync) wo.step_sync = exodus::StepSync::kNone;
                     // overlap syncs on a helper thread, and an MPI-IO
                     // file's sync is an MPI call: legal only under
                     // MPI_THREAD_MULTIPLE; otherwise each step waits.
                     if (wo.step_sync == exodus::StepSync::kOverlap && comm::thread_level() < MPI_THREAD_MULTIPLE) {
                       wo.step_sync = exodus::StepSync::kStep;
                     }
                     wo.steps_per_file = o.steps_per_file;
                     wo.nemesis = o.nemesis != 0;
                     if (append) {
                       PARIO_ASSIGN_OR_RETURN(handle->writer, Writer::append(std::move(g), path, std::move(wo)));
                       handle->initialized = true;
                       return Status::Ok();
                     }
                     PARIO_ASSIGN_OR_RETURN(handle->writer, Writer::create(std::move(g), path, std::move(wo)));
                     handle->writer->definition().format = static_cast<exodus::Format>(o.format);
                     handle->writer->definition().float_size = o.float_size == 4 ? 4 : 8;
                     handle->writer->definition().int64 = o.int64 != 0;
                     return Status::Ok();
                   });
}

// Copies text into a caller's buffer of len bytes, cut to fit, NUL-terminated.
void copy_text(const std::string& text, char* buf, size_t len) {
  if (!buf || len == 0) return;
  const size_t n = std::min(text.size(), len - 1);
  std::memcpy(buf, text.data(), n);
  buf[n] = '\0';
}

// A read call's range of a block's elements or of the nodes, and its step.
template <typename Read>
int read_call(const char* call, pario_exodus_t exodus, int64_t block_id, bool by_block, int step, int var,
              int mem_type, Read&& read) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_reader(e, exodus);
    size_t b = 0;
    if (h && by_block) {
      Result<size_t> found = index_of(h->reader->info().blocks, block_id, "element block");
      e.check(found);
      if (found.ok()) b = *found;
    }
    e.check(mem_type_ok(mem_type));
    e.args().add("block_id", block_id).add("step", step).add("var", var).add("mem_type", mem_type);
    PARIO_RETURN_IF_ERROR(e.agree());
    return read(*h->reader, b, static_cast<ElementType>(mem_type));
  });
}

// A read of set set_id of a kind (PARIO_EXODUS_NODE_SET / _SIDE_SET).
template <typename Read>
int set_call(const char* call, pario_exodus_t exodus, int kind, int64_t set_id, int mem_type, Read&& read) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_reader(e, exodus);
    size_t s = 0;
    if (kind != PARIO_EXODUS_NODE_SET && kind != PARIO_EXODUS_SIDE_SET) {
      e.check(invalid("kind " + std::to_string(kind) + " is not PARIO_EXODUS_NODE_SET or _SIDE_SET"));
    } else if (h) {
      const exodus::FileInfo& f = h->reader->info();
      Result<size_t> found = kind == PARIO_EXODUS_NODE_SET ? index_of(f.node_sets, set_id, "node set")
                                                           : index_of(f.side_sets, set_id, "side set");
      e.check(found);
      if (found.ok()) s = *found;
    }
    e.check(mem_type_ok(mem_type));
    e.args().add("kind", kind).add("set_id", set_id).add("mem_type", mem_type);
    PARIO_RETURN_IF_ERROR(e.agree());
    return read(*h->reader, s, static_cast<ElementType>(mem_type));
  });
}

// A local query of a reader's view.
template <typename Get>
int get_call(const char* call, pario_exodus_t exodus, Get&& get) {
  return guarded(call, [&]() -> Status {
    Result<ExodusHandle*> h = live(files(), exodus, "exodus file");
    PARIO_RETURN_IF_ERROR(h.status());
    if (!(*h)->reader) return Status(Code::kState, "the file is open for writing (pario_exodus_create)");
    return get((*h)->reader->info());
  });
}

// processor names one of the file's Nemesis processors.
Status nemesis_processor(const exodus::FileInfo& f, int processor) {
  if (f.nemesis_procs == 0) return Status(Code::kNotFound, "the file has no Nemesis information");
  if (processor < 0 || processor >= f.nemesis_procs_file) {
    return Status(Code::kOutOfRange, "processor " + std::to_string(processor) + " is not in 0.." +
                                         std::to_string(f.nemesis_procs_file - 1));
  }
  return Status::Ok();
}

// A processor's load-balance parameters (all 0 in a file with no
// per-processor variables).
std::array<int64_t, 7> loadbal_of(const exodus::FileInfo& f, size_t p) {
  return f.loadbal.empty() ? std::array<int64_t, 7>{} : f.loadbal[p];
}

// A processor's nodal (e = 0) or elemental (e = 1) communication maps.
std::vector<exodus::FileInfo::CommMap> cmaps_of(const exodus::FileInfo& f, size_t p, int e) {
  const int64_t n = loadbal_of(f, p)[static_cast<size_t>(5 + e)];
  if (n == 0) return {};
  const auto& all = e ? f.elem_cmaps : f.node_cmaps;
  const auto first = all.begin() + f.cmap_begin[p][static_cast<size_t>(e)];
  return std::vector<exodus::FileInfo::CommMap>(first, first + n);  // nemesis_info checked the range
}

// A local read of a reader's Nemesis lists of `processor`.
template <typename Get>
int nemesis_call(const char* call, pario_exodus_t exodus, int processor, Get&& get) {
  return guarded(call, [&]() -> Status {
    Result<ExodusHandle*> h = live(files(), exodus, "exodus file");
    PARIO_RETURN_IF_ERROR(h.status());
    if (!(*h)->reader) return Status(Code::kState, "the file is open for writing (pario_exodus_create)");
    Reader& r = *(*h)->reader;
    PARIO_RETURN_IF_ERROR(nemesis_processor(r.info(), processor));
    return get(r, r.info(), static_cast<size_t>(processor));
  });
}

// Reads lists (FileInfo::nemesis_lists indices) of processor p into the
// outputs given (null: not read); the outputs are written only once every
// list is read.
Status read_lists(Reader& r, const exodus::FileInfo& f, size_t p, std::initializer_list<int> lists,
                  std::initializer_list<int64_t*> outs) {
  std::vector<std::vector<int64_t>> got;
  auto out = outs.begin();
  for (int k : lists) {
    const int64_t n = loadbal_of(f, p)[static_cast<size_t>(k)];
    got.emplace_back(*out++ ? static_cast<size_t>(n) : 0);
    if (!got.back().empty()) {
      PARIO_RETURN_IF_ERROR(r.read_integers(f.nemesis_lists[static_cast<size_t>(k)],
                                            f.list_begin[p][static_cast<size_t>(k)], n, got.back().data()));
    }
  }
  out = outs.begin();
  for (const std::vector<int64_t>& g : got) {
    if (*out) std::copy(g.begin(), g.end(), *out);
    ++out;
  }
  return Status::Ok();
}

// Reads communication map map_id of processor p (e: 0 nodal, 1 elemental)
// into the outputs given, one per data variable (null: not read); written
// only once all are read.
Status read_cmap(Reader& r, const exodus::FileInfo& f, size_t p, int e, int64_t map_id,
                 std::initializer_list<int64_t*> outs) {
  const std::vector<exodus::FileInfo::CommMap> maps = cmaps_of(f, p, e);
  auto it = std::find_if(maps.begin(), maps.end(), [&](const exodus::FileInfo::CommMap& m) { return m.id == map_id; });
  if (it == maps.end()) {
    return Status(Code::kNotFound, "processor " + std::to_string(p) + " has no " + (e ? "elemental" : "nodal") +
                                       " communication map with id " + std::to_string(map_id));
  }
  const int* vars = e ? f.elem_cmap_vars.data() : f.node_cmap_vars.data();
  std::vector<std::vector<int64_t>> got;
  int k = 0;
  for (int64_t* out : outs) {
    got.emplace_back(out ? static_cast<size_t>(it->count) : 0);
    if (!got.back().empty()) PARIO_RETURN_IF_ERROR(r.read_integers(vars[k], it->begin, it->count, got.back().data()));
    ++k;
  }
  k = 0;
  for (int64_t* out : outs) {
    if (out) std::copy(got[static_cast<size_t>(k)].begin(), got[static_cast<size_t>(k)].end(), out);
    ++k;
  }
  return Status::Ok();
}

}  // namespace
}  // namespace pario::capi

using namespace pario;        // NOLINT: this file is the C boundary
using namespace pario::capi;  // NOLINT

extern "C" {

void pario_exodus_options_init(pario_exodus_options* options) {
  if (options) *options = pario_exodus_options{};
}

int pario_exodus_create(pario_group_t group, const char* path, const pario_exodus_options* options,
                        pario_exodus_t* exodus_out) {
  return make_writer("pario_exodus_create", group, path, options, exodus_out, /*append=*/false);
}

int pario_exodus_open(pario_group_t group, const char* path, const pario_exodus_options* options,
                      pario_exodus_t* exodus_out) {
  return make_file("pario_exodus_open", group, path, options, exodus_out,
                   [&](std::shared_ptr<comm::Group> g, const pario_exodus_options& o, FileParts parts,
                       ExodusHandle* handle) -> Status {
                     // A series: its last file that holds steps (exodus/series.h).
                     exodus::SeriesEnd end;
                     end.name = path;
                     if (o.steps_per_file > 0) {
                       PARIO_ASSIGN_OR_RETURN(end, exodus::find_series_end(*g, *parts.storage, path,
                                                                           o.steps_per_file, /*check_data=*/false));
                     }
                     exodus::ReaderOptions ro;
                     ro.collective = std::move(parts.collective);
                     ro.storage = std::move(parts.storage);
                     ro.engine = parts.engine;
                     PARIO_ASSIGN_OR_RETURN(handle->reader, Reader::open(std::move(g), end.name, std::move(ro)));
                     handle->series_index = end.index;
                     handle->series_first_step = end.first_step;
                     return Status::Ok();
                   });
}

int pario_exodus_open_append(pario_group_t group, const char* path, const pario_exodus_options* options,
                             pario_exodus_t* exodus_out) {
  return make_writer("pario_exodus_open_append", group, path, options, exodus_out, /*append=*/true);
}

int pario_exodus_attach_nodes(pario_exodus_t exodus, int64_t n, const int64_t ids[]) {
  static const char* call = "pario_exodus_attach_nodes";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_writer(e, exodus);
    if (n < 0) e.check(invalid("n is negative"));
    if (n > 0 && !ids) e.check(invalid("ids is null"));
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->writer->attach_nodes(n, ids);
  });
}

int pario_exodus_attach_block(pario_exodus_t exodus, int64_t block_id, int64_t n, const int64_t ids[]) {
  static const char* call = "pario_exodus_attach_block";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_writer(e, exodus);
    Result<size_t> b = entry_block(e, h, block_id);
    if (n < 0) e.check(invalid("n is negative"));
    if (n > 0 && !ids) e.check(invalid("ids is null"));
    e.args().add("block_id", block_id);
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->writer->attach_block(*b, n, ids);
  });
}

int pario_exodus_close(pario_exodus_t* exodus) {
  static const char* call = "pario_exodus_close";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* live = nullptr;
    if (!exodus) {
      e.check(invalid("exodus is null"));
    } else {
      live = entry_exodus(e, *exodus);
    }
    // A writer's open step ends and is synced before the agreement
    // (Writer::prepare_close), which carries only whether that failed on
    // some rank: the file is closed whatever it says, so the failure is
    // not an entry failure; its message travels after (a failure's path).
    Status prepared;
    int64_t failed[1] = {0};
    if (live && live->writer && e.ok() && complete(live).ok()) {
      prepared = live->writer->prepare_close();
      failed[0] = prepared.ok() ? 0 : 1;
    }
    e.carry_max(failed, 1);
    PARIO_RETURN_IF_ERROR(e.agree());
    std::shared_ptr<ExodusHandle> h = files().remove(id_of(*exodus));
    *exodus = PARIO_EXODUS_NULL;
    // A definition that cannot end (init missing, blocks or sets fewer than
    // announced): the file is closed all the same, without a header.
    if (h->reader) return h->reader->close();
    const Status incomplete = complete(h.get());
    if (failed[0] != 0) prepared = comm::agree(h->group->comm_object(), prepared);
    const Status closed = h->writer->close_checked(prepared, /*abandon=*/!incomplete.ok());
    if (!incomplete.ok()) {
      return Status(Code::kState, "closed without a complete definition (" + incomplete.message() +
                                      "): the file holds no Exodus data");
    }
    return closed;
  });
}

int pario_exodus_init(pario_exodus_t exodus, const char* title, int num_dim, int64_t num_nodes, int64_t num_elem,
                      int num_blocks, int num_node_sets, int num_side_sets) {
  static const char* call = "pario_exodus_init";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_writer(e, exodus);
    if (h) {
      e.check(defining(h, /*need_init=*/false));
      if (h->initialized) e.check(Status(Code::kState, "pario_exodus_init was already called"));
    }
    if (!title) e.check(invalid("title is null"));
    else if (std::strlen(title) > exodus::kMaxLine) e.check(invalid("title is longer than 80 characters"));
    if (num_dim < 1 || num_dim > 3) e.check(invalid("num_dim " + std::to_string(num_dim) + " is not 1, 2 or 3"));
    // 32-bit files hold counts below 2^31 (options.int64 lifts it; build() checks the rest).
    const int64_t most = h && h->writer->definition().int64 ? INT64_MAX : INT32_MAX;
    const char* range = most == INT32_MAX ? " is not in 0..2^31-1 (options.int64 allows more)" : " is negative";
    if (num_nodes < 0 || num_nodes > most) e.check(invalid("num_nodes " + std::to_string(num_nodes) + range));
    if (num_elem < 0 || num_elem > most) e.check(invalid("num_elem " + std::to_string(num_elem) + range));
    if (num_blocks < 0 || num_node_sets < 0 || num_side_sets < 0) e.check(invalid("a count of blocks or sets is negative"));
    const int64_t counts[6] = {num_dim, num_nodes, num_elem, num_blocks, num_node_sets, num_side_sets};
    e.args().add("title", title).add("counts", counts, 6);
    PARIO_RETURN_IF_ERROR(e.agree());
    Definition& d = h->writer->definition();
    d.title = title;
    d.num_dim = num_dim;
    d.num_nodes = num_nodes;
    d.num_elem = num_elem;
    h->want_blocks = num_blocks;
    h->want_node_sets = num_node_sets;
    h->want_side_sets = num_side_sets;
    h->initialized = true;
    return Status::Ok();
  });
}

int pario_exodus_define_block(pario_exodus_t exodus, int64_t id, const char* name, const char* type, int64_t count,
                              int nodes_per_element, int attributes) {
  static const char* call = "pario_exodus_define_block";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_writer(e, exodus);
    exodus::BlockDef b{id, text(name), text(type), count, nodes_per_element, attributes};
    if (h) {
      e.check(defining(h));
      if (e.ok() && h->writer->definition().blocks.size() >= static_cast<size_t>(h->want_blocks)) {
        e.check(invalid("pario_exodus_init announced " + std::to_string(h->want_blocks) + " blocks"));
      }
      if (e.ok() && index_of(h->writer->definition().blocks, id, "block").ok()) {
        e.check(invalid("element block " + std::to_string(id) + " is already defined"));
      }
    }
    if (!type) e.check(invalid("type is null"));
    e.check(exodus::check_block(b, h && h->writer->definition().int64));
    const int64_t numbers[4] = {id, count, nodes_per_element, attributes};
    e.args().add("numbers", numbers, 4).add("name", b.name.c_str()).add("type", b.type.c_str());
    PARIO_RETURN_IF_ERROR(e.agree());
    h->writer->definition().blocks.push_back(std::move(b));
    return Status::Ok();
  });
}

namespace {
// num_df: -1 for a fixed number of factors per entry (df), else a side
// set's factors in all, varying from side to side.
int define_set(const char* call, pario_exodus_t exodus, int64_t id, const char* name, int64_t count, int df,
               bool side, int64_t num_df = -1) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_writer(e, exodus);
    exodus::SetDef s{id, text(name), count, df, num_df};
    if (num_df < -1) e.check(invalid("num_df " + std::to_string(num_df) + " is negative"));
    if (h) {
      e.check(defining(h));
      const auto& list = side ? h->writer->definition().side_sets : h->writer->definition().node_sets;
      const int want = side ? h->want_side_sets : h->want_node_sets;
      const char* kind = side ? "side set" : "node set";
      if (e.ok() && list.size() >= static_cast<size_t>(want)) {
        e.check(invalid("pario_exodus_init announced " + std::to_string(want) + " " + kind + "s"));
      }
      if (e.ok() && index_of(list, id, kind).ok()) e.check(invalid(std::string(kind) + " " + std::to_string(id) + " is already defined"));
    }
    e.check(exodus::check_set(s, side, h && h->writer->definition().int64));
    const int64_t numbers[4] = {id, count, df, num_df};
    e.args().add("numbers", numbers, 4).add("name", s.name.c_str());
    PARIO_RETURN_IF_ERROR(e.agree());
    (side ? h->writer->definition().side_sets : h->writer->definition().node_sets).push_back(std::move(s));
    return Status::Ok();
  });
}
}  // namespace

int pario_exodus_define_node_set(pario_exodus_t exodus, int64_t id, const char* name, int64_t count, int has_df) {
  return define_set("pario_exodus_define_node_set", exodus, id, name, count, has_df, false);
}

int pario_exodus_define_side_set(pario_exodus_t exodus, int64_t id, const char* name, int64_t count,
                                 int df_per_side) {
  return define_set("pario_exodus_define_side_set", exodus, id, name, count, df_per_side, true);
}

int pario_exodus_define_side_set_df(pario_exodus_t exodus, int64_t id, const char* name, int64_t count,
                                    int64_t num_df) {
  return define_set("pario_exodus_define_side_set_df", exodus, id, name, count, 0, true, num_df < 0 ? -2 : num_df);
}

int pario_exodus_put_coord_names(pario_exodus_t exodus, const char* const names[]) {
  return define_strings(
      "pario_exodus_put_coord_names", exodus, names, "names", 0,
      [](const ExodusHandle& h) -> Result<size_t> { return static_cast<size_t>(h.writer->definition().num_dim); },
      [](size_t, const std::string& n) { return exodus::check_name(n, "coordinate name"); },
      [](ExodusHandle& h, std::vector<std::string> list) { h.writer->definition().coord_names = std::move(list); });
}

int pario_exodus_put_qa(pario_exodus_t exodus, int n, const char* const records[]) {
  return define_strings(
      "pario_exodus_put_qa", exodus, records, "records", 0,
      [n](const ExodusHandle&) { return count_of(n, 4); },
      [](size_t, const std::string& f) { return exodus::check_name(f, "a QA record's field"); },
      [](ExodusHandle& h, std::vector<std::string> list) {
        auto& qa = h.writer->definition().qa;
        qa.clear();
        for (size_t i = 0; i + 3 < list.size(); i += 4) qa.push_back({list[i], list[i + 1], list[i + 2], list[i + 3]});
      });
}

int pario_exodus_put_info(pario_exodus_t exodus, int n, const char* const lines[]) {
  return define_strings(
      "pario_exodus_put_info", exodus, lines, "lines", 0, [n](const ExodusHandle&) { return count_of(n, 1); },
      [](size_t i, const std::string& line) {
        return line.size() <= exodus::kMaxLine
                   ? Status::Ok()
                   : invalid("lines[" + std::to_string(i) + "] is longer than 80 characters");
      },
      [](ExodusHandle& h, std::vector<std::string> list) { h.writer->definition().info = std::move(list); });
}

int pario_exodus_define_variables(pario_exodus_t exodus, int kind, int n, const char* const names[]) {
  return define_strings(
      "pario_exodus_define_variables", exodus, names, "names", kind,
      [n, kind](const ExodusHandle& h) -> Result<size_t> {
        if (kind < PARIO_EXODUS_GLOBAL || kind > PARIO_EXODUS_ELEMENT) {
          return invalid("kind " + std::to_string(kind) + " is not PARIO_EXODUS_GLOBAL, _NODAL or _ELEMENT");
        }
        if (h.variables[kind]) return Status(Code::kState, "the variables of this kind are already defined");
        return count_of(n, 1);
      },
      [](size_t i, const std::string& name) {
        return name.empty() ? invalid("names[" + std::to_string(i) + "] is empty")
                            : exodus::check_name(name, "variable name");
      },
      [kind](ExodusHandle& h, std::vector<std::string> list) {
        Definition& d = h.writer->definition();
        (kind == PARIO_EXODUS_GLOBAL ? d.global_vars : kind == PARIO_EXODUS_NODAL ? d.nodal_vars : d.element_vars) =
            std::move(list);
        h.variables[kind] = true;
      });
}

int pario_exodus_put_truth_table(pario_exodus_t exodus, int num_blocks, int num_vars, const int table[]) {
  static const char* call = "pario_exodus_put_truth_table";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_writer(e, exodus);
    if (h) {
      e.check(defining(h));
      const Definition& d = h->writer->definition();
      if (e.ok() && (static_cast<size_t>(num_blocks) != d.blocks.size() || num_blocks != h->want_blocks ||
                     static_cast<size_t>(num_vars) != d.element_vars.size())) {
        e.check(invalid("the table is " + std::to_string(num_blocks) + " x " + std::to_string(num_vars) + "; define all " +
                        std::to_string(h->want_blocks) + " blocks and the element variables first (" +
                        std::to_string(d.blocks.size()) + " x " + std::to_string(d.element_vars.size()) + " so far)"));
      }
    }
    if (num_blocks < 0 || num_vars < 0) e.check(invalid("a dimension of the table is negative"));
    const size_t n = num_blocks > 0 && num_vars > 0 ? static_cast<size_t>(num_blocks) * static_cast<size_t>(num_vars) : 0;
    if (n > 0 && !table) e.check(invalid("table is null"));
    std::vector<int> copy;
    if (e.ok()) {
      copy.assign(table, table + n);
      for (int& x : copy) x = x != 0;
    }
    e.args().add("shape", num_blocks).add("vars", num_vars).add("table", copy.data(), copy.size());
    PARIO_RETURN_IF_ERROR(e.agree());
    h->writer->definition().truth = std::move(copy);
    return Status::Ok();
  });
}

int pario_exodus_end_define(pario_exodus_t exodus) {
  static const char* call = "pario_exodus_end_define";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_writer(e, exodus);
    if (h) {
      e.check(defining(h));
      e.check(complete(h));
    }
    // The model built and placed before the agreement (the same on every
    // rank), rank 0's header agreed after it.
    if (e.ok()) e.check(h->writer->check_define());
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->writer->end_define_checked();
  });
}

int pario_exodus_put_nodes(pario_exodus_t exodus, int64_t n, const int64_t ids[], int mem_type, const void* x,
                           const void* y, const void* z) {
  static const char* call = "pario_exodus_put_nodes";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_mesh(e, exodus);
    e.check(mem_type_ok(mem_type));
    if (n < 0) e.check(invalid("n is negative"));
    if (n > 0 && !ids) e.check(invalid("ids is null"));
    if (h && n > 0) {
      const int dims = h->writer->definition().num_dim;
      const void* c[3] = {x, y, z};
      for (int d = 0; d < dims; ++d) {
        if (!c[d]) e.check(invalid(std::string("the ") + "xyz"[d] + " coordinates are null"));
      }
    }
    e.args().add("mem_type", mem_type);
    const void* coords[3] = {x, y, z};
    const ElementType t = static_cast<ElementType>(mem_type);
    // The writer's checks join the entry agreement (a definition still
    // open ends in the plain call, which agrees its checks itself).
    const bool ended = h && !h->writer->defining();
    if (ended && e.ok()) e.check(h->writer->check_nodes(n, ids, t, coords));
    PARIO_RETURN_IF_ERROR(e.agree());
    return ended ? h->writer->put_nodes_checked(n, ids, t, coords) : h->writer->put_nodes(n, ids, t, coords);
  });
}

int pario_exodus_put_block(pario_exodus_t exodus, int64_t block_id, int64_t n, const int64_t ids[],
                           const int64_t connectivity[]) {
  static const char* call = "pario_exodus_put_block";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_mesh(e, exodus);
    Result<size_t> b = entry_block(e, h, block_id);
    if (b.ok()) {
      if (n > h->writer->definition().blocks[*b].count) {
        e.check(invalid("n " + std::to_string(n) + " is more than the block's " +
                        std::to_string(h->writer->definition().blocks[*b].count) + " elements"));
      }
    }
    if (n < 0) e.check(invalid("n is negative"));
    if (n > 0 && (!ids || !connectivity)) e.check(invalid("ids or connectivity is null"));
    e.args().add("block_id", block_id);
    const bool ended = h && !h->writer->defining();
    if (ended && e.ok()) e.check(h->writer->check_block(*b, n, ids, connectivity));
    PARIO_RETURN_IF_ERROR(e.agree());
    return ended ? h->writer->put_block_checked(*b, n, ids, connectivity)
                 : h->writer->put_block(*b, n, ids, connectivity);
  });
}

int pario_exodus_put_attributes(pario_exodus_t exodus, int64_t block_id, int mem_type, const void* values) {
  static const char* call = "pario_exodus_put_attributes";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_mesh(e, exodus);
    Result<size_t> b = entry_block(e, h, block_id);
    e.check(mem_type_ok(mem_type));
    e.args().add("block_id", block_id).add("mem_type", mem_type);
    const bool ended = h && !h->writer->defining();
    if (ended && e.ok()) e.check(h->writer->check_attributes(*b, values));
    PARIO_RETURN_IF_ERROR(e.agree());
    const ElementType t = static_cast<ElementType>(mem_type);
    return ended ? h->writer->put_attributes_checked(*b, t, values) : h->writer->put_attributes(*b, t, values);
  });
}

namespace {
// A rank's part of a node set (sides null) or a side set.
// varying: a side set of varying factors per side (put_side_set_df), their counts df_counts.
int put_set(const char* call, pario_exodus_t exodus, int64_t set_id, int64_t n, const int64_t ids[],
            const int sides[], bool side, int mem_type, const void* df, bool varying = false,
            const int* df_counts = nullptr) {
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_mesh(e, exodus);
    Result<size_t> s = invalid("no file");
    if (h) {
      const Definition& d = h->writer->definition();
      s = side ? index_of(d.side_sets, set_id, "side set") : index_of(d.node_sets, set_id, "node set");
      e.check(s);
    }
    e.check(mem_type_ok(mem_type));
    if (n < 0) e.check(invalid("n is negative"));
    if (n > 0 && (!ids || (side && !sides))) e.check(invalid(side ? "elem_ids or sides is null" : "node_ids is null"));
    if (varying && n > 0 && !df_counts) e.check(invalid("df_counts is null"));
    if (s.ok() && e.ok()) {
      const exodus::SetDef& d = side ? h->writer->definition().side_sets[*s] : h->writer->definition().node_sets[*s];
      if (varying != d.varying_df()) {
        e.check(invalid("side set " + std::to_string(set_id) +
                        (varying ? " has a fixed number of distribution factors per side (pario_exodus_put_side_set)"
                                 : " has a varying number of distribution factors per side (pario_exodus_put_side_set_df)")));
      }
    }
    e.args().add("set_id", set_id).add("mem_type", mem_type);
    const ElementType t = static_cast<ElementType>(mem_type);
    Writer* w = h ? h->writer.get() : nullptr;
    const bool ended = w && !w->defining();
    if (ended && e.ok()) {
      e.check(varying ? w->check_side_set_df(*s, n, ids, sides, df_counts, t, df)
              : side  ? w->check_side_set(*s, n, ids, sides, t, df)
                      : w->check_node_set(*s, n, ids, t, df));
    }
    PARIO_RETURN_IF_ERROR(e.agree());
    if (varying) {
      return ended ? w->put_side_set_df_checked(*s, n, ids, sides, df_counts, t, df)
                   : w->put_side_set_df(*s, n, ids, sides, df_counts, t, df);
    }
    if (side) return ended ? w->put_side_set_checked(*s, n, ids, sides, t, df) : w->put_side_set(*s, n, ids, sides, t, df);
    return ended ? w->put_node_set_checked(*s, n, ids, t, df) : w->put_node_set(*s, n, ids, t, df);
  });
}
}  // namespace

int pario_exodus_put_node_set(pario_exodus_t exodus, int64_t set_id, int64_t n, const int64_t node_ids[],
                              int mem_type, const void* df) {
  return put_set("pario_exodus_put_node_set", exodus, set_id, n, node_ids, nullptr, false, mem_type, df);
}

int pario_exodus_put_side_set(pario_exodus_t exodus, int64_t set_id, int64_t n, const int64_t elem_ids[],
                              const int sides[], int mem_type, const void* df) {
  return put_set("pario_exodus_put_side_set", exodus, set_id, n, elem_ids, sides, true, mem_type, df);
}

int pario_exodus_put_side_set_df(pario_exodus_t exodus, int64_t set_id, int64_t n, const int64_t elem_ids[],
                                 const int sides[], const int df_counts[], int mem_type, const void* df) {
  return put_set("pario_exodus_put_side_set_df", exodus, set_id, n, elem_ids, sides, true, mem_type, df, true, df_counts);
}

int pario_exodus_put_time(pario_exodus_t exodus, int step, double time) {
  static const char* call = "pario_exodus_put_time";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_data(e, exodus);
    if (h && e.ok()) {
      const int next = h->writer->open_step() ? h->writer->open_step() + 1 : h->writer->steps() + 1;
      if (step != next) e.check(invalid("step " + std::to_string(step) + " is not the next step (" + std::to_string(next) + ")"));
    }
    e.args().add("step", step).add_bytes("time", &time, sizeof time);
    if (h && e.ok()) e.check(h->writer->prepare_time(step, time));  // ends the open step's local part
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->writer->begin_step(step, time);
  });
}

int pario_exodus_put_global_values(pario_exodus_t exodus, int step, int n, int mem_type, const void* values) {
  static const char* call = "pario_exodus_put_global_values";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_data(e, exodus);
    e.check(mem_type_ok(mem_type));
    if (h && static_cast<size_t>(n) != h->writer->definition().global_vars.size()) {
      e.check(invalid("n " + std::to_string(n) + " is not the number of global variables, " +
                      std::to_string(h->writer->definition().global_vars.size())));
    }
    if (n > 0 && !values) e.check(invalid("values is null"));
    e.args().add("step", step).add("mem_type", mem_type);
    if (e.ok() && n > 0) e.args().add_bytes("values", values, static_cast<size_t>(n) * element_size(static_cast<ElementType>(mem_type)));
    if (e.ok()) e.check(h->writer->prepare_global_values(step, static_cast<ElementType>(mem_type), values));
    PARIO_RETURN_IF_ERROR(e.agree());
    h->writer->put_global_values();  // written with the time when the step ends
    return Status::Ok();
  });
}

int pario_exodus_put_nodal_values(pario_exodus_t exodus, int step, int var, int mem_type, const void* values) {
  static const char* call = "pario_exodus_put_nodal_values";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_data(e, exodus);
    e.check(mem_type_ok(mem_type));
    if (h && (var < 1 || static_cast<size_t>(var) > h->writer->definition().nodal_vars.size())) {
      e.check(invalid("var " + std::to_string(var) + " is not a nodal variable (1.." +
                      std::to_string(h->writer->definition().nodal_vars.size()) + ")"));
    }
    e.args().add("step", step).add("var", var).add("mem_type", mem_type);
    // The writer's checks and the transfer's preparation join this one
    // agreement, with the memory types the transfer needs (as pario_decomp_write).
    std::unique_ptr<collective::Transfer> t;
    int64_t agreed[collective::Transfer::kAgreementValues] = {};
    if (e.ok()) {
      Status local;
      t = h->writer->prepare_nodal_values(step, static_cast<size_t>(var - 1), static_cast<ElementType>(mem_type),
                                          values, agreed, &local);
      e.check(local);
    }
    e.carry_max(agreed, collective::Transfer::kAgreementValues);
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->writer->put_values(std::move(t), agreed);
  });
}

int pario_exodus_put_element_values(pario_exodus_t exodus, int step, int var, int64_t block_id, int mem_type,
                                    const void* values) {
  static const char* call = "pario_exodus_put_element_values";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_data(e, exodus);
    Result<size_t> b = entry_block(e, h, block_id);
    e.check(mem_type_ok(mem_type));
    if (h) {
      if (var < 1 || static_cast<size_t>(var) > h->writer->definition().element_vars.size()) {
        e.check(invalid("var " + std::to_string(var) + " is not an element variable (1.." +
                        std::to_string(h->writer->definition().element_vars.size()) + ")"));
      }
    }
    e.args().add("step", step).add("var", var).add("block_id", block_id).add("mem_type", mem_type);
    std::unique_ptr<collective::Transfer> t;
    int64_t agreed[collective::Transfer::kAgreementValues] = {};
    if (e.ok()) {
      Status local;
      t = h->writer->prepare_element_values(step, static_cast<size_t>(var - 1), *b,
                                            static_cast<ElementType>(mem_type), values, agreed, &local);
      e.check(local);
    }
    e.carry_max(agreed, collective::Transfer::kAgreementValues);
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->writer->put_values(std::move(t), agreed);
  });
}

int pario_exodus_flush(pario_exodus_t exodus) {
  static const char* call = "pario_exodus_flush";
  return guarded(call, [&]() -> Status {
    Entry e(call);
    ExodusHandle* h = entry_data(e, exodus);
    if (e.ok()) e.check(h->writer->prepare_flush());
    PARIO_RETURN_IF_ERROR(e.agree());
    return h->writer->flush();
  });
}

int pario_exodus_get_info(pario_exodus_t exodus, char* title, size_t title_len, int* num_dim, int64_t* num_nodes,
                          int64_t* num_elem, int* num_blocks, int* num_node_sets, int* num_side_sets, int* num_steps) {
  return get_call("pario_exodus_get_info", exodus, [&](const exodus::FileInfo& f) -> Status {
    copy_text(f.title, title, title_len);
    if (num_dim) *num_dim = f.num_dim;
    if (num_nodes) *num_nodes = f.num_nodes;
    if (num_elem) *num_elem = f.num_elem;
    if (num_blocks) *num_blocks = static_cast<int>(f.blocks.size());
    if (num_node_sets) *num_node_sets = static_cast<int>(f.num_node_sets);
    if (num_side_sets) *num_side_sets = static_cast<int>(f.num_side_sets);
    if (num_steps) *num_steps = static_cast<int>(f.times.size());
    return Status::Ok();
  });
}

int pario_exodus_get_series(pario_exodus_t exodus, int* file_index, int* first_step, int* steps) {
  return guarded("pario_exodus_get_series", [&]() -> Status {
    Result<ExodusHandle*> h = live(files(), exodus, "exodus file");
    PARIO_RETURN_IF_ERROR(h.status());
    const ExodusHandle& x = **h;
    int index = 0, first = 0, count = 0;
    if (x.reader) {
      index = x.series_index;
      first = x.series_first_step;
      count = first + static_cast<int>(x.reader->info().times.size());
    } else {
      index = x.writer->file_index();
      first = x.writer->first_step();
      count = x.writer->open_step() ? x.writer->open_step() : x.writer->steps();
    }
    if (file_index) *file_index = index;
    if (first_step) *first_step = first;
    if (steps) *steps = count;
    return Status::Ok();
  });
}

int pario_exodus_get_block(pario_exodus_t exodus, int index, int64_t* id, char* name, size_t name_len, char* type,
                           size_t type_len, int64_t* count, int* nodes_per_element) {
  return get_call("pario_exodus_get_block", exodus, [&](const exodus::FileInfo& f) -> Status {
    if (index < 0 || static_cast<size_t>(index) >= f.blocks.size()) {
      return Status(Code::kOutOfRange, "index " + std::to_string(index) + " is not in 0.." +
                                           std::to_string(f.blocks.size()) + " (the file's blocks)");
    }
    const exodus::FileInfo::Block& b = f.blocks[static_cast<size_t>(index)];
    if (id) *id = b.id;
    copy_text(b.name, name, name_len);
    copy_text(b.type, type, type_len);
    if (count) *count = b.count;
    if (nodes_per_element) *nodes_per_element = b.nodes_per_element;
    return Status::Ok();
  });
}

int pario_exodus_get_block_attributes(pario_exodus_t exodus, int index, int* num_attributes) {
  return get_call("pario_exodus_get_block_attributes", exodus, [&](const exodus::FileInfo& f) -> Status {
    if (index < 0 || static_cast<size_t>(index) >= f.blocks.size()) {
      return Status(Code::kOutOfRange, "index " + std::to_string(index) + " is not in 0.." +
                                           std::to_string(f.blocks.size()) + " (the file's blocks)");
    }
    if (!num_attributes) return invalid("num_attributes is null");
    *num_attributes = f.blocks[static_cast<size_t>(index)].attributes;
    return Status::Ok();
  });
}

int pario_exodus_get_variable(pario_exodus_t exodus, int kind, int var, char* name, size_t name_len, int* num_vars) {
  return get_call("pario_exodus_get_variable", exodus, [&](const exodus::FileInfo& f) -> Status {
    if (kind < PARIO_EXODUS_GLOBAL || kind > PARIO_EXODUS_ELEMENT) {
      return invalid("kind " + std::to_string(kind) + " is not PARIO_EXODUS_GLOBAL, _NODAL or _ELEMENT");
    }
    const auto& list = kind == PARIO_EXODUS_GLOBAL ? f.global_vars : kind == PARIO_EXODUS_NODAL ? f.nodal_vars : f.element_vars;
    if (num_vars) *num_vars = static_cast<int>(list.size());
    if (var == 0) return Status::Ok();
    if (var < 1 || static_cast<size_t>(var) > list.size()) {
      return Status(Code::kOutOfRange, "var " + std::to_string(var) + " is not in 1.." + std::to_string(list.size()));
    }
    copy_text(list[static_cast<size_t>(var - 1)], name, name_len);
    return Status::Ok();
  });
}

int pario_exodus_get_partition(pario_exodus_t exodus, int num_blocks, int64_t start[], int64_t count[]) {
  return guarded("pario_exodus_get_partition", [&]() -> Status {
    Result<ExodusHandle*> h = live(files(), exodus, "exodus file");
    PARIO_RETURN_IF_ERROR(h.status());
    if (!(*h)->reader) return Status(Code::kState, "the file is open for writing (pario_exodus_create)");
    const exodus::FileInfo& f = (*h)->reader->info();
    if (num_blocks != static_cast<int64_t>(f.blocks.size())) {
      return invalid("num_blocks is " + std::to_string(num_blocks) + "; the file has " +
                     std::to_string(f.blocks.size()) + " blocks");
    }
    if (num_blocks > 0 && (!start || !count)) return invalid("start or count is null");
    const comm::Group& g = *(*h)->group;
    const std::vector<std::pair<int64_t, int64_t>> part = exodus::element_partition(f, g.rank(), g.size());
    for (size_t b = 0; b < part.size(); ++b) start[b] = part[b].first, count[b] = part[b].second;
    return Status::Ok();
  });
}

int pario_exodus_get_truth_table(pario_exodus_t exodus, int num_blocks, int num_vars, int table[]) {
  return get_call("pario_exodus_get_truth_table", exodus, [&](const exodus::FileInfo& f) -> Status {
    if (num_blocks != static_cast<int64_t>(f.blocks.size()) || num_vars != static_cast<int64_t>(f.element_vars.size())) {
      return invalid("the table is " + std::to_string(num_blocks) + " x " + std::to_string(num_vars) +
                     "; the file has " + std::to_string(f.blocks.size()) + " blocks and " +
                     std::to_string(f.element_vars.size()) + " element variables");
    }
    if (!table && num_blocks > 0 && num_vars > 0) return invalid("table is null");
    for (size_t b = 0; b < f.blocks.size(); ++b) {
      for (size_t v = 0; v < f.element_vars.size(); ++v) table[b * f.element_vars.size() + v] = f.blocks[b].values[v] >= 0;
    }
    return Status::Ok();
  });
}

int pario_exodus_get_set(pario_exodus_t exodus, int kind, int index, int64_t* id, char* name, size_t name_len,
                         int64_t* count, int64_t* df_count) {
  return get_call("pario_exodus_get_set", exodus, [&](const exodus::FileInfo& f) -> Status {
    if (kind != PARIO_EXODUS_NODE_SET && kind != PARIO_EXODUS_SIDE_SET) {
      return invalid("kind " + std::to_string(kind) + " is not PARIO_EXODUS_NODE_SET or _SIDE_SET");
    }
    const auto& sets = kind == PARIO_EXODUS_NODE_SET ? f.node_sets : f.side_sets;
    if (index < 0 || static_cast<size_t>(index) >= sets.size()) {
      return Status(Code::kOutOfRange, "index " + std::to_string(index) + " is not in 0.." +
                                           std::to_string(sets.size()) + " (the file's sets of this kind)");
    }
    const exodus::FileInfo::Set& x = sets[static_cast<size_t>(index)];
    if (id) *id = x.id;
    copy_text(x.name, name, name_len);
    if (count) *count = x.count;
    if (df_count) *df_count = x.df_count;
    return Status::Ok();
  });
}

int pario_exodus_get_time(pario_exodus_t exodus, int step, double* time) {
  return get_call("pario_exodus_get_time", exodus, [&](const exodus::FileInfo& f) -> Status {
    if (step < 1 || static_cast<size_t>(step) > f.times.size()) {
      return Status(Code::kOutOfRange, "step " + std::to_string(step) + " is not in 1.." + std::to_string(f.times.size()));
    }
    if (!time) return invalid("time is null");
    *time = f.times[static_cast<size_t>(step - 1)];
    return Status::Ok();
  });
}

int pario_exodus_get_loadbal(pario_exodus_t exodus, int processor, int* num_procs, int64_t counts[7]) {
  return get_call("pario_exodus_get_loadbal", exodus, [&](const exodus::FileInfo& f) -> Status {
    if (f.nemesis_procs > 0) PARIO_RETURN_IF_ERROR(nemesis_processor(f, processor));
    if (num_procs) *num_procs = f.nemesis_procs;
    if (counts && f.nemesis_procs > 0) {
      const std::array<int64_t, 7> c = loadbal_of(f, static_cast<size_t>(processor));
      std::copy(c.begin(), c.end(), counts);
    }
    return Status::Ok();
  });
}

int pario_exodus_get_node_maps(pario_exodus_t exodus, int processor, int64_t internal[], int64_t border[],
                               int64_t external[]) {
  return nemesis_call("pario_exodus_get_node_maps", exodus, processor,
                      [&](Reader& r, const exodus::FileInfo& f, size_t p) -> Status {
                        return read_lists(r, f, p, {0, 1, 2}, {internal, border, external});
                      });
}

int pario_exodus_get_elem_maps(pario_exodus_t exodus, int processor, int64_t internal[], int64_t border[]) {
  return nemesis_call("pario_exodus_get_elem_maps", exodus, processor,
                      [&](Reader& r, const exodus::FileInfo& f, size_t p) -> Status {
                        return read_lists(r, f, p, {3, 4}, {internal, border});
                      });
}

int pario_exodus_get_cmap_params(pario_exodus_t exodus, int processor, int64_t node_map_ids[],
                                 int64_t node_map_counts[], int64_t elem_map_ids[], int64_t elem_map_counts[]) {
  return nemesis_call("pario_exodus_get_cmap_params", exodus, processor,
                      [&](Reader&, const exodus::FileInfo& f, size_t p) -> Status {
                        for (int e = 0; e < 2; ++e) {
                          int64_t* ids = e ? elem_map_ids : node_map_ids;
                          int64_t* counts = e ? elem_map_counts : node_map_counts;
                          const std::vector<exodus::FileInfo::CommMap> maps = cmaps_of(f, p, e);
                          for (size_t i = 0; i < maps.size(); ++i) {
                            if (ids) ids[i] = maps[i].id;
                            if (counts) counts[i] = maps[i].count;
                          }
                        }
                        return Status::Ok();
                      });
}

int pario_exodus_get_node_cmap(pario_exodus_t exodus, int processor, int64_t map_id, int64_t nodes[],
                               int64_t procs[]) {
  return nemesis_call("pario_exodus_get_node_cmap", exodus, processor,
                      [&](Reader& r, const exodus::FileInfo& f, size_t p) -> Status {
                        return read_cmap(r, f, p, 0, map_id, {nodes, procs});
                      });
}

int pario_exodus_get_elem_cmap(pario_exodus_t exodus, int processor, int64_t map_id, int64_t elems[],
                               int64_t sides[], int64_t procs[]) {
  return nemesis_call("pario_exodus_get_elem_cmap", exodus, processor,
                      [&](Reader& r, const exodus::FileInfo& f, size_t p) -> Status {
                        return read_cmap(r, f, p, 1, map_id, {elems, sides, procs});
                      });
}

int pario_exodus_read_coords(pario_exodus_t exodus, int64_t start, int64_t count, int mem_type, void* x, void* y,
                             void* z) {
  return read_call("pario_exodus_read_coords", exodus, 0, false, 0, 0, mem_type,
                   [&](Reader& r, size_t, ElementType t) {
                     void* out[3] = {x, y, z};
                     return r.read_coords(start, count, t, out);
                   });
}

int pario_exodus_read_node_ids(pario_exodus_t exodus, int64_t start, int64_t count, int64_t ids[]) {
  return read_call("pario_exodus_read_node_ids", exodus, 0, false, 0, 0, PARIO_TYPE_INT64,
                   [&](Reader& r, size_t, ElementType) { return r.read_node_ids(start, count, ids); });
}

int pario_exodus_read_block(pario_exodus_t exodus, int64_t block_id, int64_t start, int64_t count, int64_t ids[],
                            int64_t connectivity[]) {
  return read_call("pario_exodus_read_block", exodus, block_id, true, 0, 0, PARIO_TYPE_INT64,
                   [&](Reader& r, size_t b, ElementType) { return r.read_block(b, start, count, ids, connectivity); });
}

int pario_exodus_read_nodal_values(pario_exodus_t exodus, int step, int var, int64_t start, int64_t count,
                                   int mem_type, void* values) {
  return read_call("pario_exodus_read_nodal_values", exodus, 0, false, step, var, mem_type,
                   [&](Reader& r, size_t, ElementType t) {
                     return var < 1 ? invalid("var " + std::to_string(var) + " is not positive")
                                    : r.read_nodal_values(step, static_cast<size_t>(var - 1), start, count, t, values);
                   });
}

int pario_exodus_read_element_values(pario_exodus_t exodus, int step, int var, int64_t block_id, int64_t start,
                                     int64_t count, int mem_type, void* values) {
  return read_call("pario_exodus_read_element_values", exodus, block_id, true, step, var, mem_type,
                   [&](Reader& r, size_t b, ElementType t) {
                     return var < 1 ? invalid("var " + std::to_string(var) + " is not positive")
                                    : r.read_element_values(step, static_cast<size_t>(var - 1), b, start, count, t,
                                                            values);
                   });
}

int pario_exodus_read_attributes(pario_exodus_t exodus, int64_t block_id, int64_t start, int64_t count, int mem_type,
                                 void* values) {
  return read_call("pario_exodus_read_attributes", exodus, block_id, true, 0, 0, mem_type,
                   [&](Reader& r, size_t b, ElementType t) { return r.read_attributes(b, start, count, t, values); });
}

int pario_exodus_read_global_values(pario_exodus_t exodus, int step, int n, int mem_type, void* values) {
  // n is each rank's own (as a range's count), so not agreed as var is.
  return read_call("pario_exodus_read_global_values", exodus, 0, false, step, 0, mem_type,
                   [&](Reader& r, size_t, ElementType t) { return r.read_global_values(step, n, t, values); });
}

int pario_exodus_read_coords_by_id(pario_exodus_t exodus, int64_t n, const int64_t ids[], int mem_type, void* x,
                                   void* y, void* z) {
  return read_call("pario_exodus_read_coords_by_id", exodus, 0, false, 0, 0, mem_type,
                   [&](Reader& r, size_t, ElementType t) -> Status {
                     PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> at, r.locate_nodes(ids, n));
                     void* out[3] = {x, y, z};
                     return r.read_coords_at(at, t, out);
                   });
}

int pario_exodus_read_block_by_id(pario_exodus_t exodus, int64_t block_id, int64_t n, const int64_t ids[],
                                  int64_t connectivity[]) {
  return read_call("pario_exodus_read_block_by_id", exodus, block_id, true, 0, 0, PARIO_TYPE_INT64,
                   [&](Reader& r, size_t b, ElementType) -> Status {
                     PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> at, r.locate_elements(b, ids, n));
                     return r.read_block_at(b, at, connectivity);
                   });
}

int pario_exodus_read_nodal_values_by_id(pario_exodus_t exodus, int step, int var, int64_t n, const int64_t ids[],
                                         int mem_type, void* values) {
  return read_call("pario_exodus_read_nodal_values_by_id", exodus, 0, false, step, var, mem_type,
                   [&](Reader& r, size_t, ElementType t) -> Status {
                     if (var < 1) return invalid("var " + std::to_string(var) + " is not positive");
                     PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> at, r.locate_nodes(ids, n));
                     return r.read_nodal_values_at(step, static_cast<size_t>(var - 1), at, t, values);
                   });
}

int pario_exodus_read_element_values_by_id(pario_exodus_t exodus, int step, int var, int64_t block_id, int64_t n,
                                           const int64_t ids[], int mem_type, void* values) {
  return read_call("pario_exodus_read_element_values_by_id", exodus, block_id, true, step, var, mem_type,
                   [&](Reader& r, size_t b, ElementType t) -> Status {
                     if (var < 1) return invalid("var " + std::to_string(var) + " is not positive");
                     PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> at, r.locate_elements(b, ids, n));
                     return r.read_element_values_at(step, static_cast<size_t>(var - 1), b, at, t, values);
                   });
}

int pario_exodus_read_node_set(pario_exodus_t exodus, int64_t set_id, int64_t start, int64_t count,
                               int64_t node_ids[]) {
  return set_call("pario_exodus_read_node_set", exodus, PARIO_EXODUS_NODE_SET, set_id, PARIO_TYPE_INT64,
                  [&](Reader& r, size_t s, ElementType) { return r.read_node_set(s, start, count, node_ids); });
}

int pario_exodus_read_side_set(pario_exodus_t exodus, int64_t set_id, int64_t start, int64_t count,
                               int64_t elem_ids[], int64_t sides[]) {
  return set_call("pario_exodus_read_side_set", exodus, PARIO_EXODUS_SIDE_SET, set_id, PARIO_TYPE_INT64,
                  [&](Reader& r, size_t s, ElementType) { return r.read_side_set(s, start, count, elem_ids, sides); });
}

int pario_exodus_read_set_df(pario_exodus_t exodus, int kind, int64_t set_id, int64_t start, int64_t count,
                             int mem_type, void* df) {
  return set_call("pario_exodus_read_set_df", exodus, kind, set_id, mem_type, [&](Reader& r, size_t s, ElementType t) {
    return r.read_set_df(kind == PARIO_EXODUS_SIDE_SET, s, start, count, t, df);
  });
}

}  // extern "C"
