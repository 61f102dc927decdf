// One Exodus II file written by all ranks at once (writer.h).
//
// The mechanism, step by step:
//
//   definition  Every rank holds the same Definition (capi agreed each
//               call's arguments). end_define builds the netCDF model
//               (model.h) and places it (netcdf_classic.h layout(): CDF-2
//               unless a variable needs CDF-5); rank 0 alone writes the
//               header and the small variables. Nothing of the mesh is in
//               any header field, so the header never moves again.
//
//   positions   A rank's nodes get their positions from one key sort of
//               all ranks' ids (collective/key_sort.h): dense ranks in
//               increasing id, plus an owner flag on exactly one holder of
//               each id (the lowest rank). The distinct count must be
//               num_nodes. Elements of a block likewise, but an element
//               held twice is an error. Set entries are sorted by the
//               file position of what they name (their key), so a set, too,
//               comes out the same at any P; entries several ranks pass are
//               written once.
//
//   lookups     Connectivity and sets name nodes and elements by global
//               id. The rank's own table answers what it knows; the rest
//               goes through the distributed directory (directory.h),
//               built only when some rank needs it.
//
//   transfers   For each array, a decomposition (collective/decomposition.h)
//               maps this rank's owned entries to their file positions,
//               memory position = where the caller holds them, so the
//               caller's buffer is read in place, non-owned entries
//               skipped. The nodes' and each block's decomposition of reals
//               are kept and serve every step; the ones for integers
//               (maps, connectivity, sets) are used once and freed. The
//               kept ones keep their aggregator buffers in spare_buffers_:
//               one set, the largest any needs (one each held the nodes'
//               and every block's windows at once); the used-once ones
//               have buffers of at most 4 MiB (Use::kOnce), freed with
//               them, and the kept set is released while a block's
//               connectivity travels (the writer's peak). The connectivity, resolved
//               by the writer itself, is made 32-bit and big-endian in
//               place where the file's integers are 32-bit, and travels as
//               it is (no packed copy).
//
//   steps       begin_step opens record r = step - 1; each value lands at
//               the variable's begin + r * recsize. end_step: rank 0 writes
//               the time; every rank syncs (a network file system flushes
//               each client's pages), then rank 0 raises numrecs to step:
//               a reader never counts a step whose data is not on disk.
//               The sync costs the disk's time for the step's bytes; a
//               writer that waits for it each step idles while the disk
//               works (issue 27's benchmark: 4.0 s against 2.5 s without
//               it, S at P = 1). So by default (StepSync::kOverlap) each
//               rank hands step k's sync to a helper thread and goes on;
//               when step k+1 ends, every rank collects its sync's status,
//               all agree, and only then rank 0 raises numrecs to k. The
//               helper calls nothing but device_->sync(), which the
//               devices allow next to transfers; close and flush wait for
//               it and count the last step.
//
//   agreements  A step is put_time, put_global_values and a call per
//               nodal and element variable. Each is checked and agreed
//               once, in the C boundary's entry agreement, with the
//               writer's own checks and the local part of its work done
//               before it (prepare_*): a variable's transfer prepared (its
//               memory types ride in that allreduce, as in
//               pario_decomp_write), the end of the open step (the sync of
//               the step before collected, rank 0's writes of the global
//               values and the time, kStep's sync). After it, a variable's
//               transfer makes the one more agreement of its end; the rest
//               is local: rank 0 raises numrecs, and a failure of that
//               write is carried into the next call's agreement (carried_).
//               The global values wait in the writer until the step ends,
//               so their call writes nothing. Per step of issue 27's
//               workload (1 global, 2 nodal, 1 element variable on 2
//               blocks): 10 allreduces, where each call agreeing its own
//               checks, rank 0's writes and the syncs took 23
//               (tests/capi/capi_collective_calls_test.c counts them).
#include "exodus/writer.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <functional>

#include "base/convert.h"
#include "base/status_of.h"
#include "collective/key_sort.h"
#include "collective/layout.h"
#include "collective/transfer.h"
#include "exodus/directory.h"
#include "exodus/nemesis.h"
#include "exodus/series.h"

namespace pario::exodus {
namespace {

using collective::Decomposition;
using collective::Run;


Status bad(const std::string& what) { return Status(Code::kInvalidArgument, what); }
Status state(const std::string& what) { return Status(Code::kState, what); }

// Checks ids: positive, of the file's integer type (int64: below 2^63),
// not repeated on this rank. A sorted copy finds repeats (8 bytes an id; a
// hash set took about 40).
Status check_ids(const int64_t* ids, int64_t n, const char* what, bool int64, int rank) {
  for (int64_t k = 0; k < n; ++k) {
    if (ids[k] <= 0 || (!int64 && ids[k] > INT32_MAX)) {
      return bad(std::string(what) + "[" + std::to_string(k) + "] = " + std::to_string(ids[k]) + " is not in 1.." +
                 (int64 ? "2^63-1" : "2^31-1 (ask for int64 integers)"));
    }
  }
  if (std::is_sorted(ids, ids + n, std::less_equal<int64_t>())) return Status::Ok();  // ascending, no repeat
  // A rank without room for the copy says so (kNoMemory) and still meets
  // the others in the agreement that follows the checks.
  return status_of(what, [&]() -> Status {
    std::vector<int64_t> sorted(ids, ids + n);
    std::sort(sorted.begin(), sorted.end());
    auto twice = std::adjacent_find(sorted.begin(), sorted.end());
    if (twice == sorted.end()) return Status::Ok();
    const int64_t k = std::find(ids, ids + n, *twice) - ids;
    const int64_t again = std::find(ids + k + 1, ids + n, *twice) - ids;
    return bad(std::string(what) + "[" + std::to_string(again) + "]: id " + std::to_string(*twice) +
               " is given twice by rank " + std::to_string(rank) + " (also as " + what + "[" + std::to_string(k) +
               "])");
  });
}

// The n nodes' coordinates (num_dim arrays of mem_type) as one 64-bit hash
// per node: the payload of the key sort that compares the copies of a
// node. Each coordinate is converted to double and its exact bits (so 0.0
// and -0.0 differ, as two NaNs with different bits do) are mixed in by a
// bijection (mix64 of the running hash xor the bits): two nodes that
// differ in one coordinate alone never share a hash; in several, with a
// chance of about 2^-64. Equal coordinates always give equal hashes, so a
// collision can only hide a disagreement, never report a false one. 8
// bytes a node travel where the coordinates took 8 * num_dim.
// kInvalidArgument naming the dimension where the conversion fails.
// A failed allocation is kNoMemory, as in check_ids.
Status coordinate_hashes(int64_t n, ElementType mem_type, const void* const coords[3], int num_dim,
                         std::vector<int64_t>* out) {
  if (n == 0) return Status::Ok();
  return status_of("the coordinates' hashes", [&]() -> Status {
    std::vector<double> values(static_cast<size_t>(n));
    std::vector<uint64_t> h(static_cast<size_t>(n), mix64(0x9e3779b97f4a7c15ull + static_cast<uint64_t>(num_dim)));
    for (int d = 0; d < num_dim; ++d) {
      Status s = convert(mem_type, coords[d], ElementType::kDouble, values.data(), values.size(), ByteOrder::kNative);
      if (!s.ok()) return bad("the coordinates of dimension " + std::to_string(d + 1) + ": " + s.message());
      for (size_t k = 0; k < values.size(); ++k) {
        uint64_t bits;
        std::memcpy(&bits, &values[k], sizeof bits);
        h[k] = mix64(h[k] ^ bits);
      }
    }
    out->resize(h.size());
    std::memcpy(out->data(), h.data(), h.size() * sizeof(uint64_t));
    return Status::Ok();
  });
}

// Whether the n values of mem_type at values fit the file's real type
// (a double beyond float's range into a float file, a complex with an
// imaginary part): checked among a call's arguments, before its first
// array is written, since a later array's transfer would refuse them only
// after the earlier ones were in the file. kOutOfRange naming what and the
// index.
Status fits_real(ElementType mem_type, const void* values, int64_t n, NcType real, const std::string& what) {
  const ElementType file = element_type_of(real);
  if (n <= 0 || !values || !conversion_can_fail(mem_type, file)) return Status::Ok();
  size_t first_bad = 0;
  Status s = check_convertible(mem_type, values, file, static_cast<size_t>(n), &first_bad);
  if (s.ok()) return s;
  return Status(s.code(), what + "[" + std::to_string(first_bad) + "] does not fit the file's " +
                              nc_type_name(real) + ": " + s.message());
}

// Collective: the file at path on every rank. create: rank 0 makes it
// (truncating one there) before the others open it. checked: this rank's
// checks of the call, joined to the first agreement (nothing is opened
// unless they passed everywhere).
Result<std::unique_ptr<device::Device>> open_on_all(const comm::Comm& comm, device::Storage& storage,
                                                    const std::string& path, bool create,
                                                    Status checked = Status::Ok()) {
  device::OpenOptions o;
  std::unique_ptr<device::Device> device;
  Status local = std::move(checked);
  auto open = [&]() {
    Result<std::unique_ptr<device::Device>> d = storage.open(path, o);
    local = d.status();
    if (d.ok()) device = std::move(d).value();
  };
  if (create) {
    o.create = o.truncate = true;
    if (comm.rank() == 0 && local.ok()) open();
    PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
    o.create = o.truncate = false;
  }
  if ((!create || comm.rank() != 0) && local.ok()) open();
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  return device;
}

}  // namespace

std::string series_name(const std::string& path, int index) {
  if (index <= 1) return path;
  std::string digits = std::to_string(index);
  if (digits.size() < 4) digits.insert(0, 4 - digits.size(), '0');
  return path + "-s" + digits;
}

Result<std::unique_ptr<Writer>> Writer::create(std::shared_ptr<const comm::Group> group, const std::string& path,
                                               WriterOptions options) {
  std::unique_ptr<Writer> w(new Writer);
  const comm::Comm& comm = group->comm_object();
  w->group_ = std::move(group);
  w->rank_ = comm.rank();
  w->path_ = path;
  w->options_ = std::move(options);
  w->options_.collective.byte_order = ByteOrder::kBig;  // netCDF classic
  Status local;
  if (!w->options_.storage || !w->options_.engine) local = bad("the writer needs a storage and an engine");
  else if (w->options_.steps_per_file < 0) local = bad("steps_per_file is negative");
  // The checks ride in the open's first agreement. A series' old files
  // go only once the first file is made: a create refused (a link, a file
  // it cannot write) loses none of the earlier run's steps.
  PARIO_ASSIGN_OR_RETURN(w->device_, open_on_all(comm, *w->options_.storage, path, /*create=*/true, local));
  if (w->options_.steps_per_file > 0) PARIO_RETURN_IF_ERROR(remove_series_files(*w->group_, path));
  w->target_ = std::make_unique<collective::DeviceTarget>(w->device_.get(), w->options_.engine);
  return w;
}

Result<std::unique_ptr<Writer>> Writer::append(std::shared_ptr<const comm::Group> group, const std::string& path,
                                               WriterOptions options) {
  const comm::Comm& comm = group->comm_object();
  Status local;
  if (!options.storage || !options.engine) local = bad("the writer needs a storage and an engine");
  else if (options.steps_per_file < 0) local = bad("steps_per_file is negative");
  else if (options.nemesis) local = bad("nemesis is for new files (a file opened to append keeps its own)");
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  // A series continues in its last file (series.h); a single file must not
  // be the first of a series, whose steps it would take over.
  SeriesEnd end;
  end.name = path;
  if (options.steps_per_file > 0) {
    PARIO_ASSIGN_OR_RETURN(end, find_series_end(*group, *options.storage, path, options.steps_per_file,
                                                /*check_data=*/true));
  } else {
    PARIO_RETURN_IF_ERROR(check_not_series(*group, path));
  }
  ReaderOptions ro;
  ro.collective = options.collective;
  ro.storage = options.storage;
  ro.engine = options.engine;
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Reader> reader, Reader::open(group, end.name, std::move(ro)));
  std::unique_ptr<Writer> w(new Writer);
  w->group_ = std::move(group);
  w->rank_ = comm.rank();
  w->path_ = path;
  w->options_ = std::move(options);
  w->options_.collective.byte_order = ByteOrder::kBig;
  // Every rank decoded the same bytes: the same verdict everywhere.
  local = w->adopt(reader->info(), reader->header());
  if (local.ok() && w->options_.steps_per_file > 0 && w->steps_ > w->options_.steps_per_file) {
    local = bad(end.name + " holds " + std::to_string(w->steps_) + " steps, more than steps_per_file = " +
                std::to_string(w->options_.steps_per_file));  // changed since find_series_end looked
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  w->file_index_ = end.index;
  w->first_step_ = end.first_step;
  w->steps_ += end.first_step;
  w->numrecs_ += end.first_step;
  PARIO_ASSIGN_OR_RETURN(w->device_, open_on_all(comm, *w->options_.storage, end.name, /*create=*/false));
  w->target_ = std::make_unique<collective::DeviceTarget>(w->device_.get(), w->options_.engine);
  w->reader_ = std::move(reader);
  w->blocks_.resize(w->def_.blocks.size());
  w->defining_ = false;
  return w;
}

Status Writer::adopt(const FileInfo& f, const Header& h) {
  const Model& m = h.model;
  const int t = m.find_var("time_whole");
  if (t < 0 || !m.is_record_var(t)) {
    return Status(Code::kUnsupported, "the file has no time_whole record variable: steps cannot be appended");
  }
  const NcType real = m.vars[static_cast<size_t>(t)].type;
  if (real != NcType::kFloat && real != NcType::kDouble) {
    return Status(Code::kCorrupt, std::string("time_whole has type ") + nc_type_name(real));
  }
  auto same = [&](int v) -> Status {
    if (v < 0 || m.vars[static_cast<size_t>(v)].type == real) return Status::Ok();
    return Status(Code::kUnsupported, "variable " + m.vars[static_cast<size_t>(v)].name + " is " +
                                          nc_type_name(m.vars[static_cast<size_t>(v)].type) + ", time_whole " +
                                          nc_type_name(real) + ": steps are appended in one real type");
  };
  PARIO_RETURN_IF_ERROR(same(f.global_values));
  for (int v : f.nodal_values) PARIO_RETURN_IF_ERROR(same(v));
  for (const FileInfo::Block& b : f.blocks) {
    for (int v : b.values) PARIO_RETURN_IF_ERROR(same(v));
  }
  if (h.numrecs > INT_MAX - 1) return Status(Code::kOutOfRange, "the file holds " + std::to_string(h.numrecs) + " steps");
  def_ = Definition{};
  def_.title = f.title;
  def_.num_dim = f.num_dim;
  def_.num_nodes = f.num_nodes;
  def_.num_elem = f.num_elem;
  def_.float_size = static_cast<int>(nc_type_size(real));
  def_.format = h.layout.format;
  def_.global_vars = f.global_vars;
  def_.nodal_vars = f.nodal_vars;
  def_.element_vars = f.element_vars;
  built_ = Built{};
  built_.model = m;
  built_.time = t;
  built_.real = real;
  built_.node_map = f.node_map;
  built_.elem_map = f.elem_map;
  built_.global_values = f.global_values;
  built_.nodal_values = f.nodal_values;
  built_.block_offset = f.block_offset;
  for (size_t d = 0; d < f.coords.size() && d < 3; ++d) built_.coords[d] = f.coords[d];
  for (const FileInfo::Block& b : f.blocks) {
    def_.blocks.push_back(BlockDef{b.id, b.name, b.type, b.count, b.nodes_per_element, 0});
    BuiltBlock bb;
    bb.connect = b.connect;
    bb.values = b.values;
    built_.blocks.push_back(std::move(bb));
  }
  layout_ = h.layout;
  steps_ = numrecs_ = static_cast<int>(h.numrecs);
  return Status::Ok();
}

Writer::~Writer() {
  if (pending_sync_.valid()) pending_sync_.wait();  // the helper borrows device_
  if (device_) (void)device_->close();
}

template <typename Work>
Status Writer::on_root(Work&& work) {
  Status s = rank_ == 0 ? work() : Status::Ok();
  return comm::agree(group_->comm_object(), s);
}

Status Writer::end_define() {
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), check_define()));
  return end_define_checked();
}

Status Writer::check_define() {
  if (!defining_) return state("the definition is already ended");
  // Every rank holds the same definition: the same verdict everywhere.
  Result<Built> built = build(def_);
  PARIO_RETURN_IF_ERROR(built.status());
  Result<Layout> placed = options_.nemesis ? place_with_room_for_nemesis(*built, def_, def_.format,
                                                                         group_->comm_object().size())
                                           : place(*built, def_.format);
  PARIO_RETURN_IF_ERROR(placed.status());
  built_ = std::move(built).value();
  layout_ = std::move(placed).value();
  return Status::Ok();
}

Status Writer::end_define_checked() {
  PARIO_RETURN_IF_ERROR(on_root([&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(std::vector<unsigned char> header, encode_header(built_.model, layout_, 0));
    PARIO_RETURN_IF_ERROR(device_->write_at(0, header.data(), header.size()));
    for (const VarBytes& v : metadata(def_, built_)) {
      PARIO_RETURN_IF_ERROR(
          device_->write_at(static_cast<uint64_t>(layout_.vars[v.var].begin), v.bytes.data(), v.bytes.size()));
    }
    return Status::Ok();
  }));
  blocks_.resize(def_.blocks.size());
  defining_ = false;
  return Status::Ok();
}

Status Writer::ready_for_data() {
  if (closed_) return state("the file is closed");
  if (defining_) return end_define();
  return Status::Ok();
}

Result<std::unique_ptr<Decomposition>> Writer::decomposition(std::vector<Run> runs, int64_t global_size,
                                                              NcType type, bool as_is, Use use) {
  collective::CollectiveOptions o = options_.collective;
  if (as_is) o.byte_order = ByteOrder::kNative;
  if (use == Use::kOnce) o.buffer_bytes = std::min(o.buffer_bytes, kOnceBufferBytes);
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Decomposition> d,
                         Decomposition::create(*group_, collective::sort_runs(std::move(runs)), global_size,
                                               element_type_of(type), o));
  // Only the steps' decompositions keep their windows in the writer's set;
  // a mesh array's go with its decomposition, freed right after its one
  // transfer (kept, its second window outlived the mesh: 4 MiB on the
  // aggregator through every step).
  if (use == Use::kKept) d->share_buffers(&spare_buffers_);
  return d;
}

Result<std::unique_ptr<Decomposition>> Writer::decomposition_of(const std::vector<int64_t>& positions,
                                                                 int64_t global_size, int64_t per_entry,
                                                                 NcType type, bool as_is, Use use) {
  // Entries in file order (the usual case) extend the last run: one run,
  // not 24 bytes an entry until sort_runs joins them.
  std::vector<Run> runs;
  for (size_t k = 0; k < positions.size(); ++k) {
    if (positions[k] < 0) continue;  // not this rank's to write
    const int64_t global = positions[k] * per_entry, memory = static_cast<int64_t>(k) * per_entry;
    Run* last = runs.empty() ? nullptr : &runs.back();
    if (last && last->global + last->length == global && last->memory + last->length == memory) {
      last->length += per_entry;
    } else {
      runs.push_back(Run{global, per_entry, memory});
    }
  }
  return decomposition(std::move(runs), global_size * per_entry, type, as_is, use);
}

Status Writer::free_decomposition(std::unique_ptr<Decomposition>& d) {
  if (!d) return Status::Ok();
  Status s = d->free();
  d.reset();
  return s;
}

Status Writer::write_array(Decomposition& d, int var, int64_t record, int64_t first, ElementType mem_type,
                           const void* buf) {
  const VarLayout& v = layout_.vars[static_cast<size_t>(var)];
  const int64_t size = static_cast<int64_t>(nc_type_size(built_.model.vars[static_cast<size_t>(var)].type));
  const uint64_t offset = static_cast<uint64_t>(v.begin + record * layout_.recsize + first * size);
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<collective::Transfer> t,
                         collective::Transfer::start_write(d, *target_, offset, mem_type, buf, /*borrow=*/true));
  return t->wait();
}

Status Writer::put_nodes(int64_t n, const int64_t* ids, ElementType mem_type, const void* const coords[3]) {
  PARIO_RETURN_IF_ERROR(ready_for_data());
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), check_nodes(n, ids, mem_type, coords)));
  return put_nodes_checked(n, ids, mem_type, coords);
}

Status Writer::mesh_call() const {
  if (closed_) return state("the file is closed");
  if (defining_) return state("the definition has not ended");
  return Status::Ok();
}

Status Writer::check_nodes(int64_t n, const int64_t* ids, ElementType mem_type, const void* const coords[3]) {
  staged_hashes_.clear();
  Status local = mesh_call();
  if (!local.ok()) {
  } else if (have_nodes_) local = nem_.failure.ok() ? state("the nodes were already put") : nemesis_refusal("put_nodes");
  else if (n < 0) local = bad("n is negative");
  else if (n > 0 && !ids) local = bad("ids is null");
  for (int d = 0; local.ok() && n > 0 && d < def_.num_dim; ++d) {
    if (!coords || !coords[d]) local = bad("the coordinates of dimension " + std::to_string(d + 1) + " are null");
  }
  if (local.ok()) local = check_ids(ids, n, "ids", def_.int64, rank_);
  // A hash of the coordinates rides with the ids through the key sort and
  // is compared where the copies of a node meet.
  if (local.ok()) local = coordinate_hashes(n, mem_type, coords, def_.num_dim, &staged_hashes_);
  for (int d = 0; local.ok() && d < def_.num_dim; ++d) {
    local = fits_real(mem_type, coords[d], n, built_.real, std::string(1, "xyz"[d]));
  }
  return local;
}

Status Writer::put_nodes_checked(int64_t n, const int64_t* ids, ElementType mem_type, const void* const coords[3]) {
  const comm::Comm& comm = group_->comm_object();
  std::vector<int64_t> where = std::move(staged_hashes_);
  staged_hashes_.clear();
  PARIO_ASSIGN_OR_RETURN(collective::KeyRanks kr,
                         collective::rank_keys(comm, ids, static_cast<size_t>(n), where.data(), 1));
  where = {};
  if (kr.distinct != def_.num_nodes) {
    return bad("the ranks pass " + std::to_string(kr.distinct) + " distinct node ids; num_nodes is " +
               std::to_string(def_.num_nodes));
  }
  if (kr.conflict.found()) {
    const collective::KeyConflict& c = kr.conflict;
    return bad("node id " + std::to_string(c.key) + " is given different coordinates " +
               (c.first_rank == c.other_rank ? "twice by rank " + std::to_string(c.first_rank)
                                             : "by ranks " + std::to_string(c.first_rank) + " and " +
                                                   std::to_string(c.other_rank)) +
               " (compared exactly, as doubles, by a 64-bit hash)");
  }
  if (options_.nemesis && def_.num_nodes > 0) PARIO_RETURN_IF_ERROR(nemesis_nodes(kr.positions));
  {
    std::unique_ptr<bool[]> owned(new bool[static_cast<size_t>(n) + 1]);
    for (int64_t k = 0; k < n; ++k) owned[static_cast<size_t>(k)] = kr.owner[k];
    nodes_.add(ids, kr.positions.data(), owned.get(), static_cast<size_t>(n));
  }
  // Only the owner writes a node: the others' copies get position -1.
  for (int64_t k = 0; k < n; ++k) {
    if (!kr.owner[k]) kr.positions[k] = -1;
  }
  local_nodes_ = n;
  have_nodes_ = true;
  // The nodes count as put from here on (a second put_nodes is refused):
  // a failure below is kept for the Nemesis part (nemesis_failed).
  return nemesis_failed([&]() -> Status {
    if (def_.num_nodes == 0) return mesh_put();
    PARIO_ASSIGN_OR_RETURN(node_reals_,
                           decomposition_of(kr.positions, def_.num_nodes, 1, built_.real, false, Use::kKept));
    for (int d = 0; d < def_.num_dim; ++d) {
      PARIO_RETURN_IF_ERROR(write_array(*node_reals_, built_.coords[d], 0, 0, mem_type, n > 0 ? coords[d] : nullptr));
    }
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Decomposition> ints,
                           decomposition_of(kr.positions, def_.num_nodes, 1, built_.integer));
    Status s = write_array(*ints, built_.node_map, 0, 0, ElementType::kInt64, ids);
    Status f = free_decomposition(ints);
    PARIO_RETURN_IF_ERROR(s.ok() ? f : s);
    return mesh_put();
  }());
}

Status Writer::nemesis_failed(Status s) {
  if (!s.ok() && options_.nemesis && !nem_.done && nem_.failure.ok()) nem_.failure = s;
  return s;
}

Status Writer::mesh_put() {
  if (!options_.nemesis || nem_.done || !mesh_complete()) return Status::Ok();
  return nemesis_finish();
}

Status Writer::put_block(size_t b, int64_t n, const int64_t* ids, const int64_t* connectivity) {
  PARIO_RETURN_IF_ERROR(ready_for_data());
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), check_block(b, n, ids, connectivity)));
  return put_block_checked(b, n, ids, connectivity);
}

Status Writer::check_block(size_t b, int64_t n, const int64_t* ids, const int64_t* connectivity) const {
  Status local = mesh_call();
  const BlockDef* def = b < def_.blocks.size() ? &def_.blocks[b] : nullptr;
  if (!local.ok()) {
  } else if (!def) local = bad("block index " + std::to_string(b) + " is not defined");
  else if (!have_nodes_ && def->count > 0) local = state("put the nodes first (the connectivity names them)");
  else if (blocks_[b].put) {
    local = nem_.failure.ok() ? state("element block " + std::to_string(def->id) + " was already put")
                              : nemesis_refusal("put_block");
  }
  else if (n < 0) local = bad("n is negative");
  else if (n > 0 && (!ids || !connectivity)) local = bad("ids or connectivity is null");
  if (local.ok()) local = check_ids(ids, n, "ids", def_.int64, rank_);
  for (int64_t k = 0; local.ok() && k < n; ++k) {
    if (elements_.find(ids[k]) != kUnknownId) {
      local = bad("element id " + std::to_string(ids[k]) + " is in two blocks on this rank");
    }
  }
  return local;
}

Status Writer::put_block_checked(size_t b, int64_t n, const int64_t* ids, const int64_t* connectivity) {
  const comm::Comm& comm = group_->comm_object();
  Status local;
  const BlockDef* def = &def_.blocks[b];
  const std::string what = "element block " + std::to_string(def->id);
  PARIO_ASSIGN_OR_RETURN(collective::KeyRanks kr, collective::rank_keys(comm, ids, static_cast<size_t>(n)));
  if (kr.duplicates) return bad(what + ": an element id is passed by two ranks");
  if (kr.distinct != def->count) {
    return bad(what + ": the ranks pass " + std::to_string(kr.distinct) + " elements; the block has " +
               std::to_string(def->count));
  }
  const int64_t npe = def->nodes_per_element;
  const size_t entries = static_cast<size_t>(n * npe);
  // The connectivity as the file holds it, 1-based node positions. With
  // 32-bit integers in the file (fewer than 2^31 nodes, model.h) they are
  // resolved as 32-bit values, 4 bytes an entry where 64-bit positions
  // took 8 (31 MB a block of issue 27's S workload at one rank), and put
  // in the file's byte order in place, so that the transfer sends this
  // buffer as it is, without a packed copy.
  const bool narrow = built_.integer == NcType::kInt && def_.num_nodes <= INT32_MAX;
  std::vector<int32_t> nodes32;
  std::vector<int64_t> nodes;
  if (narrow) {
    PARIO_ASSIGN_OR_RETURN(nodes32, resolve32(comm, nodes_, connectivity, entries));
  } else {
    PARIO_ASSIGN_OR_RETURN(nodes, resolve(comm, nodes_, connectivity, entries));
  }
  auto to_file = [&](auto& positions) {
    for (size_t k = 0; local.ok() && k < entries; ++k) {
      if (positions[k] == kUnknownId) {
        local = bad(what + ": element " + std::to_string(ids[k / static_cast<size_t>(npe)]) + " names node id " +
                    std::to_string(connectivity[k]) + ", which no rank passed to put_nodes");
      }
      ++positions[k];  // 1-based in the file
    }
  };
  std::vector<int64_t> wide;  // Nemesis with 32-bit positions: its side keys, read before the byte swap
  if (narrow) {
    to_file(nodes32);
    if (options_.nemesis && local.ok()) wide.assign(nodes32.begin(), nodes32.end());
    if (local.ok()) local = convert(ElementType::kInt32, nodes32.data(), ElementType::kInt32, nodes32.data(), entries,
                                    options_.collective.byte_order);
  } else {
    to_file(nodes);
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  LocalBlock& lb = blocks_[b];
  lb.positions = std::move(kr.positions);
  lb.put = true;
  // The block counts as put from here on (a second put_block is refused):
  // a failure below is kept for the Nemesis part (nemesis_failed).
  return nemesis_failed(put_block_data(b, n, ids, narrow, nodes32, nodes, wide));
}

Status Writer::put_block_data(size_t b, int64_t n, const int64_t* ids, bool narrow, std::vector<int32_t>& nodes32,
                              std::vector<int64_t>& nodes, std::vector<int64_t>& wide) {
  const BlockDef* def = &def_.blocks[b];
  const int64_t npe = def->nodes_per_element;
  LocalBlock& lb = blocks_[b];
  if (options_.nemesis) nemesis_faces(b, narrow ? wide : nodes);
  std::vector<int64_t>().swap(wide);
  const int64_t offset = built_.block_offset[b];
  // The block's elements join the table of this rank's elements (the side
  // sets' lookup) once the resolved connectivity is gone, so that the two
  // (16 and 4 x nodes per element bytes an element) never meet at the
  // writer's peak; also when its write failed, as the block counts as put.
  auto add_elements = [&] {
    std::vector<int64_t> at(lb.positions);
    for (int64_t& x : at) x += offset;
    elements_.add(ids, at.data(), nullptr, static_cast<size_t>(n));
  };
  if (def->count == 0) {
    add_elements();
    return mesh_put();
  }
  // The writer's peak: the caller's connectivity and the resolved one both
  // live while an aggregator receives the block's. The windows kept for
  // the steps (the nodes' reals, since put_nodes) go now, and come back
  // at the first step; the connectivity's own are at most
  // kOnceBufferBytes each, and go with it.
  spare_buffers_.clear();
  Status s, f;
  Result<std::unique_ptr<Decomposition>> conn =
      decomposition_of(lb.positions, def->count, npe, built_.integer, /*as_is=*/narrow);
  if (!conn.ok()) {
    s = conn.status();
  } else {
    s = narrow ? write_array(**conn, built_.blocks[b].connect, 0, 0, ElementType::kInt32, nodes32.data())
               : write_array(**conn, built_.blocks[b].connect, 0, 0, ElementType::kInt64, nodes.data());
    f = free_decomposition(*conn);
  }
  std::vector<int32_t>().swap(nodes32);  // the largest array of the block: gone before the next transfers
  std::vector<int64_t>().swap(nodes);
  add_elements();
  PARIO_RETURN_IF_ERROR(s.ok() ? f : s);
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Decomposition> map, decomposition_of(lb.positions, def->count, 1, built_.integer));
  s = write_array(*map, built_.elem_map, 0, offset, ElementType::kInt64, ids);
  f = free_decomposition(map);
  PARIO_RETURN_IF_ERROR(s.ok() ? f : s);
  PARIO_ASSIGN_OR_RETURN(lb.reals, decomposition_of(lb.positions, def->count, 1, built_.real, false, Use::kKept));
  return mesh_put();
}

Status Writer::put_attributes(size_t b, ElementType mem_type, const void* values) {
  PARIO_RETURN_IF_ERROR(ready_for_data());
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), check_attributes(b, values)));
  return put_attributes_checked(b, mem_type, values);
}

Status Writer::check_attributes(size_t b, const void* values) const {
  Status local = mesh_call();
  const BlockDef* def = b < def_.blocks.size() ? &def_.blocks[b] : nullptr;
  if (!local.ok()) {
  } else if (!def) local = bad("block index " + std::to_string(b) + " is not defined");
  else if (def->attributes == 0) local = bad("element block " + std::to_string(def->id) + " has no attributes");
  else if (!blocks_[b].put) local = state("put element block " + std::to_string(def->id) + " first");
  else if (!blocks_[b].positions.empty() && !values) local = bad("values is null");
  return local;
}

Status Writer::put_attributes_checked(size_t b, ElementType mem_type, const void* values) {
  const BlockDef* def = &def_.blocks[b];
  if (def->count == 0) return Status::Ok();
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Decomposition> d,
                         decomposition_of(blocks_[b].positions, def->count, def->attributes, built_.real));
  Status s = write_array(*d, built_.blocks[b].attrib, 0, 0, mem_type, values);
  Status f = free_decomposition(d);
  return s.ok() ? f : s;
}

Status Writer::rank_entries(const std::vector<int64_t>& keys, const SetDef& def, const char* kind,
                            std::vector<int64_t>* positions) {
  PARIO_ASSIGN_OR_RETURN(collective::KeyRanks kr, collective::rank_keys(group_->comm_object(), keys.data(), keys.size()));
  if (kr.distinct != def.count) {
    return bad(std::string(kind) + " " + std::to_string(def.id) + ": the ranks pass " + std::to_string(kr.distinct) +
               " distinct entries; the set has " + std::to_string(def.count));
  }
  // Entries several ranks pass are written by the first holder only.
  for (size_t k = 0; k < keys.size(); ++k) {
    if (!kr.owner[k]) kr.positions[k] = -1;
  }
  *positions = std::move(kr.positions);
  return Status::Ok();
}

Status Writer::put_node_set(size_t s, int64_t n, const int64_t* node_ids, ElementType mem_type, const void* df) {
  PARIO_RETURN_IF_ERROR(ready_for_data());
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), check_node_set(s, n, node_ids, mem_type, df)));
  return put_node_set_checked(s, n, node_ids, mem_type, df);
}

Status Writer::check_node_set(size_t s, int64_t n, const int64_t* node_ids, ElementType mem_type,
                              const void* df) const {
  Status local = mesh_call();
  const SetDef* def = s < def_.node_sets.size() ? &def_.node_sets[s] : nullptr;
  if (!local.ok()) {
  } else if (!def) local = bad("node set index " + std::to_string(s) + " is not defined");
  else if (!have_nodes_ && def->count > 0) local = state("put the nodes first (the set names them)");
  else if (n < 0) local = bad("n is negative");
  else if (n > 0 && !node_ids) local = bad("node_ids is null");
  else if (n > 0 && def->df_per_entry > 0 && !df) local = bad("df is null; node set " + std::to_string(def->id) + " has distribution factors");
  else if (df && def->df_per_entry == 0) local = bad("df given; node set " + std::to_string(def->id) + " has no distribution factors");
  else local = fits_real(mem_type, df, n, built_.real, "df");  // the factors go in after the entries
  return local;
}

Status Writer::put_node_set_checked(size_t s, int64_t n, const int64_t* node_ids, ElementType mem_type,
                                    const void* df) {
  const comm::Comm& comm = group_->comm_object();
  Status local;
  const SetDef* def = &def_.node_sets[s];
  const std::string what = "node set " + std::to_string(def->id);
  PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> nodes, resolve(comm, nodes_, node_ids, static_cast<size_t>(n)));
  for (int64_t k = 0; local.ok() && k < n; ++k) {
    if (nodes[k] == kUnknownId) {
      local = bad(what + ": node id " + std::to_string(node_ids[k]) + " is not a node of the file");
    }
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  std::vector<int64_t> positions;
  PARIO_RETURN_IF_ERROR(rank_entries(nodes, *def, "node set", &positions));
  if (def->count == 0) return Status::Ok();
  for (int64_t& x : nodes) ++x;
  const BuiltSet& bs = built_.node_sets[s];
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Decomposition> d, decomposition_of(positions, def->count, 1, built_.integer));
  Status st = write_array(*d, bs.entries, 0, 0, ElementType::kInt64, nodes.data());
  Status f = free_decomposition(d);
  PARIO_RETURN_IF_ERROR(st.ok() ? f : st);
  if (bs.df < 0) return Status::Ok();
  PARIO_ASSIGN_OR_RETURN(d, decomposition_of(positions, def->count, 1, built_.real));
  st = write_array(*d, bs.df, 0, 0, mem_type, df);
  f = free_decomposition(d);
  return st.ok() ? f : st;
}

Status Writer::side_checks(size_t s, int64_t n, const int64_t* elem_ids, const int* sides, Status df_check) const {
  Status local = mesh_call();
  const SetDef* def = s < def_.side_sets.size() ? &def_.side_sets[s] : nullptr;
  if (!local.ok()) {
  } else if (!def) local = bad("side set index " + std::to_string(s) + " is not defined");
  else if (n < 0) local = bad("n is negative");
  else if (n > 0 && (!elem_ids || !sides)) local = bad("elem_ids or sides is null");
  else local = std::move(df_check);
  for (int64_t k = 0; local.ok() && k < n; ++k) {
    if (sides[k] < 1 || sides[k] > 15) local = bad("sides[" + std::to_string(k) + "] = " + std::to_string(sides[k]) + " is not in 1..15");
  }
  return local;
}

Status Writer::side_entries(size_t s, int64_t n, const int64_t* elem_ids, const int* sides,
                            std::vector<int64_t>* positions, std::vector<int64_t>* elems) {
  const comm::Comm& comm = group_->comm_object();
  Status local;
  const SetDef* def = &def_.side_sets[s];
  const std::string what = "side set " + std::to_string(def->id);
  PARIO_ASSIGN_OR_RETURN(*elems, resolve(comm, elements_, elem_ids, static_cast<size_t>(n)));
  std::vector<int64_t> keys(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    if ((*elems)[k] == kUnknownId) {
      if (local.ok()) local = bad(what + ": element id " + std::to_string(elem_ids[k]) + " is not an element of the file");
      continue;
    }
    keys[k] = (*elems)[k] * 16 + sides[k];
  }
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  return rank_entries(keys, *def, "side set", positions);
}

Status Writer::write_sides(size_t s, const std::vector<int64_t>& positions, std::vector<int64_t>& elems,
                           const int* sides) {
  const SetDef& def = def_.side_sets[s];
  if (def.count == 0) return Status::Ok();
  for (int64_t& x : elems) ++x;  // 1-based in the file
  std::vector<int64_t> side_values(sides, sides + elems.size());
  const BuiltSet& bs = built_.side_sets[s];
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Decomposition> d, decomposition_of(positions, def.count, 1, built_.integer));
  Status st = write_array(*d, bs.entries, 0, 0, ElementType::kInt64, elems.data());
  if (st.ok()) st = write_array(*d, bs.sides, 0, 0, ElementType::kInt64, side_values.data());
  Status f = free_decomposition(d);
  return st.ok() ? f : st;
}

Status Writer::put_side_set(size_t s, int64_t n, const int64_t* elem_ids, const int* sides, ElementType mem_type,
                            const void* df) {
  PARIO_RETURN_IF_ERROR(ready_for_data());  // built_ (the file's types) for the checks
  PARIO_RETURN_IF_ERROR(comm::agree(group_->comm_object(), check_side_set(s, n, elem_ids, sides, mem_type, df)));
  return put_side_set_checked(s, n, elem_ids, sides, mem_type, df);
}

Status Writer::check_side_set(size_t s, int64_t n, const int64_t* elem_ids, const int* sides, ElementType mem_type,
                              const void* df) const {
  Status df_check;
  const SetDef* def = s < def_.side_sets.size() ? &def_.side_sets[s] : nullptr;
  if (defining_) {
  } else if (def && def->varying_df()) df_check = bad("side set " + std::to_string(def->id) + " has a varying number of distribution factors per side");
  else if (def && n > 0 && def->df_per_entry > 0 && !df) df_check = bad("df is null; side set " + std::to_string(def->id) + " has distribution factors");
  else if (def && df && def->df_per_entry == 0) df_check = bad("df given; side set " + std::to_string(def->id) + " has no distribution factors");
  else if (def && n > INT64_MAX / std::max<int64_t>(def->df_per_entry, 1)) df_check = bad("n is too large");
  else if (def) df_check = fits_real(mem_type, df, n * def->df_per_entry, built_.real, "df");
  return side_checks(s, n, elem_ids, sides, std::move(df_check));
}

Status Writer::put_side_set_checked(size_t s, int64_t n, const int64_t* elem_ids, const int* sides,
                                    ElementType mem_type, const void* df) {
  const SetDef* def = &def_.side_sets[s];
  std::vector<int64_t> positions, elems;
  PARIO_RETURN_IF_ERROR(side_entries(s, n, elem_ids, sides, &positions, &elems));
  PARIO_RETURN_IF_ERROR(write_sides(s, positions, elems, sides));
  const BuiltSet& bs = built_.side_sets[s];
  if (def->count == 0 || bs.df < 0) return Status::Ok();
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Decomposition> d,
                         decomposition_of(positions, def->count, def->df_per_entry, built_.real));
  Status st = write_array(*d, bs.df, 0, 0, mem_type, df);
  Status f = free_decomposition(d);
  return st.ok() ? f : st;
}

Status Writer::put_side_set_df(size_t s, int64_t n, const int64_t* elem_ids, const int* sides, const int* df_counts,
                               ElementType mem_type, const void* df) {
  PARIO_RETURN_IF_ERROR(ready_for_data());  // built_ (the file's types) for the checks
  PARIO_RETURN_IF_ERROR(
      comm::agree(group_->comm_object(), check_side_set_df(s, n, elem_ids, sides, df_counts, mem_type, df)));
  return put_side_set_df_checked(s, n, elem_ids, sides, df_counts, mem_type, df);
}

Status Writer::check_side_set_df(size_t s, int64_t n, const int64_t* elem_ids, const int* sides,
                                 const int* df_counts, ElementType mem_type, const void* df) const {
  std::vector<int64_t> memory;
  return side_checks(s, n, elem_ids, sides, side_factors(s, n, df_counts, mem_type, df, &memory));
}

Status Writer::side_factors(size_t s, int64_t n, const int* df_counts, ElementType mem_type, const void* df,
                            std::vector<int64_t>* where) const {
  // This rank's factors: where each side's begin in df (the caller's order).
  Status df_check;
  const SetDef* def = s < def_.side_sets.size() && !defining_ ? &def_.side_sets[s] : nullptr;
  std::vector<int64_t>& memory = *where;
  PARIO_RETURN_IF_ERROR(status_of("the sides' factor offsets", [&] {
    memory.assign(n > 0 && def && def->varying_df() && df_counts ? static_cast<size_t>(n) : 0, 0);
    return Status::Ok();
  }));
  int64_t local_sum = 0;
  if (def && !def->varying_df()) {
    df_check = bad("side set " + std::to_string(def->id) + " has a fixed number of distribution factors per side");
  } else if (def && n > 0 && !df_counts) {
    df_check = bad("df_counts is null");
  }
  for (int64_t k = 0; df_check.ok() && def && k < n; ++k) {
    if (df_counts[k] < 0) {
      df_check = bad("df_counts[" + std::to_string(k) + "] = " + std::to_string(df_counts[k]) + " is negative");
    } else if (local_sum > (INT64_MAX >> 1)) {
      df_check = bad("df_counts[0.." + std::to_string(k - 1) + "] add up to more than 2^62");
    }
    memory[static_cast<size_t>(k)] = local_sum;
    local_sum += df_counts[k];  // below 2^62 + 2^31 after the check above: no overflow
  }
  if (df_check.ok() && def && local_sum > 0 && !df) df_check = bad("df is null; the sides carry " + std::to_string(local_sum) + " factors");
  if (df_check.ok() && def) df_check = fits_real(mem_type, df, local_sum, built_.real, "df");
  return df_check;
}

Status Writer::put_side_set_df_checked(size_t s, int64_t n, const int64_t* elem_ids, const int* sides,
                                       const int* df_counts, ElementType mem_type, const void* df) {
  const SetDef* def = &def_.side_sets[s];
  std::vector<int64_t> positions, elems;
  PARIO_RETURN_IF_ERROR(side_entries(s, n, elem_ids, sides, &positions, &elems));
  if (def->count == 0) return Status::Ok();
  // The factors' offsets (checked already; what fails now is an
  // allocation), carried into the first exchange so no rank is left in it.
  std::vector<int64_t> memory;
  Status local = side_factors(s, n, df_counts, mem_type, df, &memory);
  // Each side's first factor in the file: the factors of every side before
  // it in set order. The rank keeping a range of positions (P equal
  // ranges) sums its sides' counts in order, an exclusive scan of those
  // sums gives each range its start, and each side's start goes back.
  // The total is agreed here, before any byte of the set is written: a
  // refused call leaves the file's entries as they were.
  const comm::Comm& comm = group_->comm_object();
  const int size = comm.size();
  auto keeper = [&](int64_t p) { return static_cast<int>(static_cast<__int128>(p) * size / def->count); };
  std::vector<std::vector<int64_t>> out(static_cast<size_t>(size));
  if (local.ok()) {
    local = status_of("the side set's factor counts", [&] {
      for (int64_t k = 0; k < n; ++k) {
        const int64_t p = positions[static_cast<size_t>(k)];
        if (p < 0) continue;  // another rank's copy is written
        out[static_cast<size_t>(keeper(p))].push_back(p);
        out[static_cast<size_t>(keeper(p))].push_back(df_counts[k]);
      }
      return Status::Ok();
    });
  }
  std::vector<int64_t> in;
  std::vector<int> from;
  PARIO_RETURN_IF_ERROR(exchange(comm, out, &in, &from, local));
  std::vector<std::pair<int64_t, size_t>> order;  // (position, index of its pair in `in`)
  for (size_t i = 0; i + 1 < in.size(); i += 2) order.emplace_back(in[i], i);
  std::sort(order.begin(), order.end());
  int64_t range_sum = 0, range_start = 0, total = 0;
  for (const auto& [p, i] : order) {
    const int64_t c = in[i + 1];
    in[i + 1] = range_sum;  // the start within this range, in place of the count
    range_sum += c;
  }
  PARIO_RETURN_IF_ERROR(
      comm::mpi_status(MPI_Exscan(&range_sum, &range_start, 1, MPI_INT64_T, MPI_SUM, comm.get()), "MPI_Exscan"));
  if (comm.rank() == 0) range_start = 0;  // MPI leaves rank 0's result undefined
  PARIO_RETURN_IF_ERROR(
      comm::mpi_status(MPI_Allreduce(&range_sum, &total, 1, MPI_INT64_T, MPI_SUM, comm.get()), "MPI_Allreduce"));
  if (total != def->df_total) {
    return bad("side set " + std::to_string(def->id) + ": the ranks' sides carry " + std::to_string(total) +
               " distribution factors; num_df is " + std::to_string(def->df_total));
  }
  for (auto& b : out) b.clear();
  for (int r = 0, i = 0; r < size; ++r) {
    for (int j = 0; j < from[static_cast<size_t>(r)]; j += 2, i += 2) {
      out[static_cast<size_t>(r)].push_back(range_start + in[static_cast<size_t>(i) + 1]);
    }
  }
  PARIO_RETURN_IF_ERROR(exchange(comm, out, &in, &from));
  // The answers come back keeper by keeper, each in the order it was asked.
  std::vector<size_t> next(static_cast<size_t>(size), 0);
  std::vector<size_t> first(static_cast<size_t>(size) + 1, 0);
  for (int r = 0; r < size; ++r) first[static_cast<size_t>(r) + 1] = first[static_cast<size_t>(r)] + static_cast<size_t>(from[static_cast<size_t>(r)]);
  std::vector<Run> runs;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t p = positions[static_cast<size_t>(k)];
    if (p < 0) continue;
    const size_t r = static_cast<size_t>(keeper(p));
    const int64_t start = in[first[r] + next[r]++];
    if (df_counts[k] > 0) runs.push_back(Run{start, df_counts[k], memory[static_cast<size_t>(k)]});
  }
  PARIO_RETURN_IF_ERROR(write_sides(s, positions, elems, sides));
  if (total == 0) return Status::Ok();
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Decomposition> d, decomposition(std::move(runs), total, built_.real));
  Status st = write_array(*d, built_.side_sets[s].df, 0, 0, mem_type, df);
  Status f = free_decomposition(d);
  return st.ok() ? f : st;
}

Status Writer::usable() const {
  if (closed_) return state("the file is closed");
  return carried_;
}

Status Writer::prepare_time(int step, double time) {
  (void)time;  // equal on every rank (capi's digest); taken by begin_step
  PARIO_RETURN_IF_ERROR(usable());
  PARIO_RETURN_IF_ERROR(nemesis_ready("a step"));
  const int next = (open_ != 0 ? open_ : steps_) + 1;
  if (step != next) {
    return bad("step " + std::to_string(step) + " is not the next step (" + std::to_string(next) + ")");
  }
  return end_step_local();
}

Status Writer::begin_step(int step, double time) {
  PARIO_RETURN_IF_ERROR(ready_for_data());  // a definition still open ends here (collective)
  end_step_agreed();
  if (options_.steps_per_file > 0 && steps_ - first_step_ == options_.steps_per_file) {
    PARIO_RETURN_IF_ERROR(next_file());
  }
  open_ = step;
  time_ = time;
  return Status::Ok();
}

Status Writer::check_step(int step, const char* what) {
  if (closed_) return state("the file is closed");
  if (open_ == 0 || step != open_) {
    return state(std::string(what) + " for step " + std::to_string(step) + ", which is not begun (" +
                 (open_ ? "step " + std::to_string(open_) + " is" : std::string("none is")) +
                 "; put the step's time first)");
  }
  return Status::Ok();
}

Status Writer::prepare_global_values(int step, ElementType mem_type, const void* values) {
  PARIO_RETURN_IF_ERROR(usable());
  PARIO_RETURN_IF_ERROR(check_step(step, "global values"));
  if (built_.global_values < 0) return bad("no global variables are defined");
  if (!values) return bad("values is null");
  const size_t n = def_.global_vars.size();
  staged_globals_.assign(n * static_cast<size_t>(def_.float_size), 0);
  return convert(mem_type, values, element_type_of(built_.real), staged_globals_.data(), n, ByteOrder::kBig);
}

void Writer::put_global_values() {
  globals_.swap(staged_globals_);
  globals_step_ = open_;
}

namespace {
// A blocking write of a step's values, prepared (Transfer::prepare).
std::unique_ptr<collective::Transfer> prepare_values(Decomposition& d, collective::Target& target, uint64_t offset,
                                                     ElementType mem_type, const void* values, int64_t* agreement,
                                                     Status* local) {
  std::unique_ptr<collective::Transfer> t =
      collective::Transfer::prepare(d, target, offset, device::IoKind::kWrite, mem_type, const_cast<void*>(values),
                                    collective::Transfer::kBlocking, local);
  if (t) t->agreement_values(agreement);
  return t;
}
}  // namespace

std::unique_ptr<collective::Transfer> Writer::prepare_nodal_values(int step, size_t v, ElementType mem_type,
                                                                   const void* values, int64_t* agreement,
                                                                   Status* local) {
  *local = usable();
  if (local->ok()) *local = check_step(step, "nodal values");
  if (local->ok() && v >= def_.nodal_vars.size()) *local = bad("nodal variable " + std::to_string(v + 1) + " is not defined");
  if (local->ok() && !node_reals_) *local = state("put the nodes first");
  if (local->ok() && local_nodes_ > 0 && !values) *local = bad("values is null");
  if (!local->ok()) return nullptr;
  const int var = built_.nodal_values[v];
  const uint64_t offset = static_cast<uint64_t>(layout_.vars[static_cast<size_t>(var)].begin +
                                                record_of(step) * layout_.recsize);
  return prepare_values(*node_reals_, *target_, offset, mem_type, values, agreement, local);
}

std::unique_ptr<collective::Transfer> Writer::prepare_element_values(int step, size_t v, size_t b,
                                                                     ElementType mem_type, const void* values,
                                                                     int64_t* agreement, Status* local) {
  *local = usable();
  if (local->ok()) *local = check_step(step, "element values");
  if (local->ok() && v >= def_.element_vars.size()) *local = bad("element variable " + std::to_string(v + 1) + " is not defined");
  if (local->ok() && b >= def_.blocks.size()) *local = bad("block index " + std::to_string(b) + " is not defined");
  if (local->ok() && !blocks_[b].put) *local = state("put element block " + std::to_string(def_.blocks[b].id) + " first");
  if (local->ok() && def_.blocks[b].count > 0 && built_.blocks[b].values[v] < 0) {
    *local = bad("the truth table has no element variable " + std::to_string(v + 1) + " on block " +
                 std::to_string(def_.blocks[b].id));
  }
  if (local->ok() && !blocks_[b].positions.empty() && !values) *local = bad("values is null");
  if (!local->ok() || def_.blocks[b].count == 0) return nullptr;  // an empty block: nothing moves on any rank
  const int var = built_.blocks[b].values[v];
  const uint64_t offset = static_cast<uint64_t>(layout_.vars[static_cast<size_t>(var)].begin +
                                                record_of(step) * layout_.recsize);
  return prepare_values(*blocks_[b].reals, *target_, offset, mem_type, values, agreement, local);
}

Status Writer::put_values(std::unique_ptr<collective::Transfer> t, const int64_t* agreed) {
  if (!t) return Status::Ok();
  PARIO_RETURN_IF_ERROR(t->begin(agreed));
  return t->wait();
}

Status Writer::write_numrecs(int count) {
  PARIO_ASSIGN_OR_RETURN(std::vector<unsigned char> field, encode_numrecs(layout_.format, count - first_step_));
  return device_->write_at(static_cast<uint64_t>(layout_.numrecs_offset), field.data(), field.size());
}

Status Writer::raise_numrecs(int count) {
  PARIO_RETURN_IF_ERROR(on_root([&]() -> Status {
    PARIO_RETURN_IF_ERROR(carried_);
    return write_numrecs(count);
  }));
  numrecs_ = count;
  return Status::Ok();
}

void Writer::note_numrecs(int count) {
  if (rank_ == 0 && carried_.ok()) {
    Status s = write_numrecs(count);
    if (!s.ok()) carried_ = Status(s.code(), "writing numrecs = " + std::to_string(count - first_step_) + ": " + s.message());
  }
  numrecs_ = count;
}

Status Writer::collect_pending() {
  if (pending_ == 0) return Status::Ok();
  if (pending_sync_.valid()) pending_status_ = pending_sync_.get();
  return pending_status_;
}

Status Writer::count_pending() {
  if (pending_ == 0) return Status::Ok();
  Status synced = collect_pending();
  const int step = pending_;
  pending_ = 0;
  pending_status_ = Status::Ok();
  Status agreed = comm::agree(group_->comm_object(), synced);
  if (!agreed.ok()) {
    sync_error_ = agreed;
    return agreed;
  }
  return raise_numrecs(step);
}

Status Writer::write_step_scalars() {
  const int64_t record = record_of(open_);
  if (globals_step_ == open_ && !globals_.empty()) {
    const int64_t at = layout_.vars[built_.global_values].begin + record * layout_.recsize;
    PARIO_RETURN_IF_ERROR(device_->write_at(static_cast<uint64_t>(at), globals_.data(), globals_.size()));
  }
  unsigned char bytes[8];
  PARIO_RETURN_IF_ERROR(convert(ElementType::kDouble, &time_, element_type_of(built_.real), bytes, 1, ByteOrder::kBig));
  const int64_t at = layout_.vars[built_.time].begin + record * layout_.recsize;
  return device_->write_at(static_cast<uint64_t>(at), bytes, static_cast<size_t>(def_.float_size));
}

Status Writer::end_step_local() {
  if (open_ == 0) return Status::Ok();
  // After a failed sync no later step is counted: a later sync's success
  // does not vouch for the pages the failed one lost. (A rank keeps its
  // own failure; every agreement it joins fails with it.)
  if (!sync_error_.ok()) return sync_error_;
  // kOverlap: the step before is counted only once its sync is done
  // everywhere (it has had this whole step to finish): this rank's part.
  PARIO_RETURN_IF_ERROR(collect_pending());
  // Every rank's transfers of the step returned (each agreed): their bytes
  // are in the file; rank 0 adds the step's scalars.
  if (rank_ == 0) PARIO_RETURN_IF_ERROR(write_step_scalars());
  if (options_.step_sync == StepSync::kStep) {
    Status synced = device_->sync();
    if (!synced.ok()) sync_error_ = synced;
    return synced;
  }
  return Status::Ok();
}

void Writer::end_step_agreed() {
  const int step = open_;
  if (step == 0) return;
  steps_ = step;
  open_ = 0;
  globals_step_ = 0;
  switch (options_.step_sync) {
    case StepSync::kStep:  // synced everywhere (the agreement said so)
    case StepSync::kNone:
      note_numrecs(step);
      return;
    case StepSync::kOverlap:
      break;
  }
  // The step before is synced everywhere: counted. Then this step's sync
  // starts, and the caller goes on with the next step while the disk takes
  // it. The sync also carries the numrecs just written.
  if (pending_ != 0) {
    note_numrecs(pending_);
    pending_ = 0;
    pending_status_ = Status::Ok();
  }
  device::Device* device = device_.get();
  pending_sync_ = std::async(std::launch::async, [device] { return device->sync(); });
  pending_ = step;
}

Status Writer::prepare_flush() {
  PARIO_RETURN_IF_ERROR(usable());
  return end_steps_local("flush");
}

Status Writer::end_steps_local(const char* what) {
  PARIO_RETURN_IF_ERROR(nemesis_ready(what));
  if (!sync_error_.ok()) return sync_error_;
  PARIO_RETURN_IF_ERROR(end_step_local());
  PARIO_RETURN_IF_ERROR(collect_pending());  // kOverlap: the last ended step's sync, also with no step open
  if (options_.step_sync == StepSync::kOverlap && open_ != 0) {
    // The open step is synced here, on this thread, not handed to a helper.
    Status synced = device_->sync();
    if (!synced.ok()) sync_error_ = synced;
    return synced;
  }
  return Status::Ok();
}

Status Writer::flush() {
  PARIO_RETURN_IF_ERROR(ready_for_data());  // a definition still open ends here (collective)
  // Every rank's part of every ended step is synced (kNone: written): the
  // agreement said so. Counted, with rank 0's write of numrecs agreed.
  if (open_ != 0) {
    steps_ = open_;
    open_ = 0;
    globals_step_ = 0;
  }
  if (pending_sync_.valid()) pending_sync_.wait();  // collected already (prepare_flush); never left running
  pending_ = 0;
  pending_status_ = Status::Ok();
  if (steps_ == numrecs_) return Status::Ok();
  return raise_numrecs(steps_);
}

Status Writer::close(bool abandon) {
  if (closed_) return state("the file is closed");
  Status first;
  if (!abandon && !defining_) first = comm::agree(group_->comm_object(), prepare_close());
  return close_checked(std::move(first), abandon);
}

Status Writer::prepare_close() {
  if (closed_) return state("the file is closed");
  if (defining_) return Status::Ok();  // ended in close_checked; no step is open
  return end_steps_local("close");
}

Status Writer::close_checked(Status first, bool abandon) {
  if (closed_) return state("the file is closed");
  if (first.ok() && !abandon && defining_) {
    first = end_define();
    if (first.ok()) first = nemesis_ready("close");
  }
  if (first.ok() && !abandon) {
    // Every rank's part of every ended step and of the open one is synced
    // (kNone: written), as prepare_close's agreement said: all counted;
    // rank 0's write of numrecs is agreed with the file's end below.
    if (open_ != 0) {
      steps_ = open_;
      open_ = 0;
      globals_step_ = 0;
    }
    if (steps_ != numrecs_) note_numrecs(steps_);
  }
  if (pending_sync_.valid()) pending_sync_.wait();  // a failure above left a sync running: it ends before the device closes
  pending_ = 0;
  auto keep = [&](Status s) {
    if (first.ok() && !s.ok()) first = std::move(s);
  };
  keep(free_decomposition(node_reals_));
  for (LocalBlock& b : blocks_) keep(free_decomposition(b.reals));
  if (reader_) {
    keep(reader_->close());
    reader_.reset();
  }
  // The file's end and every rank's close, in one agreement.
  keep(finish_file(/*close=*/true));
  device_.reset();
  closed_ = true;
  return first;
}

Status Writer::finish_file(bool close) {
  // The file its full size, even where no rank wrote the last bytes (a
  // variable nobody put, at the end of the fixed data). Not while the
  // definition is open: no header was written.
  Status root = carried_;  // rank 0's numrecs: the size below would not match the count in the file
  if (rank_ == 0 && root.ok() && !defining_) {
    Result<int64_t> want = layout_.file_size(numrecs_ - first_step_);
    Result<uint64_t> have = device_->size();
    root = want.ok() ? have.status() : want.status();
    if (root.ok() && *have < static_cast<uint64_t>(*want)) root = device_->truncate(static_cast<uint64_t>(*want));
    if (root.ok()) root = device_->sync();
  }
  if (close) {
    Status closed = device_->close();
    if (root.ok()) root = std::move(closed);
  }
  return comm::agree(group_->comm_object(), root);
}

Status Writer::next_file() {
  const comm::Comm& comm = group_->comm_object();
  // The old file's last step is counted (its sync done) before the file
  // is finished and closed.
  PARIO_RETURN_IF_ERROR(count_pending());
  PARIO_RETURN_IF_ERROR(finish_file());
  const std::string name = series_name(path_, file_index_ + 1);
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<device::Device> next,
                         open_on_all(comm, *options_.storage, name, /*create=*/true));
  // The header and the fixed data (the mesh) are the same in every file of
  // the series; each rank copies its slice, numrecs set to 0 on the way, so
  // the new file never claims a step it does not hold.
  const int64_t total = layout_.record_begin;
  const int64_t p = comm.size(), r = comm.rank();
  const int64_t lo = total / p * r + std::min(r, total % p);
  const int64_t hi = lo + total / p + (r < total % p ? 1 : 0);
  Status local = [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(std::vector<unsigned char> zero, encode_numrecs(layout_.format, 0));
    constexpr int64_t kChunk = 8 << 20;
    std::vector<unsigned char> buf(static_cast<size_t>(std::min(kChunk, hi - lo)));
    for (int64_t at = lo; at < hi; at += kChunk) {
      const size_t len = static_cast<size_t>(std::min(kChunk, hi - at));
      size_t got = 0;
      PARIO_RETURN_IF_ERROR(device_->read_at(static_cast<uint64_t>(at), buf.data(), len, &got));
      if (got != len) return Status(Code::kIo, path_ + ": short read at " + std::to_string(at) + " copying the mesh");
      for (size_t k = 0; k < zero.size(); ++k) {
        const int64_t x = layout_.numrecs_offset + static_cast<int64_t>(k);
        if (x >= at && x < at + static_cast<int64_t>(len)) buf[static_cast<size_t>(x - at)] = zero[k];
      }
      PARIO_RETURN_IF_ERROR(next->write_at(static_cast<uint64_t>(at), buf.data(), len));
    }
    return Status::Ok();
  }();
  Status copied = comm::agree(comm, local);
  Status closed = comm::agree(comm, copied.ok() ? device_->close() : Status::Ok());
  if (!copied.ok() || !closed.ok()) {
    (void)next->close();
    return copied.ok() ? closed : copied;
  }
  device_ = std::move(next);
  target_ = std::make_unique<collective::DeviceTarget>(device_.get(), options_.engine);
  first_step_ = steps_;
  ++file_index_;
  return Status::Ok();
}

Status Writer::attach_nodes(int64_t n, const int64_t* ids) {
  const comm::Comm& comm = group_->comm_object();
  Status local;
  if (closed_) local = state("the file is closed");
  else if (!reader_) local = state("attach_nodes is for a file opened to append (put_nodes writes a new file's nodes)");
  else if (have_nodes_) local = state("the nodes were already attached");
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> positions, reader_->locate_nodes(ids, n));
  PARIO_ASSIGN_OR_RETURN(collective::KeyRanks kr, collective::rank_keys(comm, positions.data(), positions.size()));
  if (kr.distinct != def_.num_nodes) {
    return bad("the ranks attach " + std::to_string(kr.distinct) + " distinct nodes; the file has " +
               std::to_string(def_.num_nodes));
  }
  std::vector<Run> runs;
  for (size_t k = 0; k < positions.size(); ++k) {
    if (kr.owner[k]) runs.push_back(Run{positions[k], 1, static_cast<int64_t>(k)});
  }
  local_nodes_ = n;
  have_nodes_ = true;
  if (def_.num_nodes == 0) return Status::Ok();
  PARIO_ASSIGN_OR_RETURN(node_reals_, decomposition(runs, def_.num_nodes, built_.real, false, Use::kKept));
  return Status::Ok();
}

Status Writer::attach_block(size_t b, int64_t n, const int64_t* ids) {
  const comm::Comm& comm = group_->comm_object();
  Status local;
  if (closed_) local = state("the file is closed");
  else if (!reader_) local = state("attach_block is for a file opened to append (put_block writes a new file's blocks)");
  else if (b >= def_.blocks.size()) local = bad("block index " + std::to_string(b) + " is not in the file");
  else if (blocks_[b].put) local = state("element block " + std::to_string(def_.blocks[b].id) + " was already attached");
  PARIO_RETURN_IF_ERROR(comm::agree(comm, local));
  const BlockDef& def = def_.blocks[b];
  const std::string what = "element block " + std::to_string(def.id);
  PARIO_ASSIGN_OR_RETURN(std::vector<int64_t> positions, reader_->locate_elements(b, ids, n));
  PARIO_ASSIGN_OR_RETURN(collective::KeyRanks kr, collective::rank_keys(comm, positions.data(), positions.size()));
  if (kr.duplicates) return bad(what + ": an element id is attached by two ranks");
  if (kr.distinct != def.count) {
    return bad(what + ": the ranks attach " + std::to_string(kr.distinct) + " elements; the block has " +
               std::to_string(def.count));
  }
  LocalBlock& lb = blocks_[b];
  lb.positions = std::move(positions);
  lb.put = true;
  if (def.count == 0) return Status::Ok();
  PARIO_ASSIGN_OR_RETURN(lb.reals, decomposition_of(lb.positions, def.count, 1, built_.real, false, Use::kKept));
  return Status::Ok();
}

}  // namespace pario::exodus
