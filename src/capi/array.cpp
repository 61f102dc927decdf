// C API: groups, global arrays and counters.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "array/counter.h"
#include "array/global_array.h"
#include "base/checked.h"
#include "base/config.h"
#include "capi/array_handles.h"
#include "capi/boundary.h"
#include "capi/collective.h"
#include "capi/options.h"
#include "capi/handles.h"
#include "capi/request.h"
#include "capi/runtime.h"
#include "pario/array.h"

namespace pario::capi {
// Groups are shared: arrays and counters made on a group keep it alive.
HandleTable<comm::Group>& groups() {
  static auto* t = new HandleTable<comm::Group>();  // outlives static teardown
  return *t;
}
HandleTable<array::GlobalArray>& arrays() {
  static auto* t = new HandleTable<array::GlobalArray>(/*remember_removed=*/true);
  return *t;
}

namespace {

using array::Counter;
using array::Distribution;
using array::GlobalArray;
using comm::Group;

HandleTable<Counter>& counters() {
  static auto* t = new HandleTable<Counter>(/*remember_removed=*/true);
  return *t;
}

// Arrays and counters in creation order. pario_finalize closes those the
// program left open in this order: the same sequence of collectives every
// rank made when creating them, so no rank waits in the wrong one.
struct Made {
  std::weak_ptr<GlobalArray> array;
  std::weak_ptr<Counter> counter;
};
std::mutex made_mu;
std::vector<Made> made;

void remember(Made m) {
  std::lock_guard<std::mutex> lock(made_mu);
  if (made.size() >= 64) {  // forget those already destroyed
    made.erase(std::remove_if(made.begin(), made.end(),
                              [](const Made& x) {
                                return x.array.expired() && x.counter.expired();
                              }),
               made.end());
  }
  made.push_back(std::move(m));
}



class ArrayPending : public Pending {
 public:
  explicit ArrayPending(std::shared_ptr<array::ArrayRequest> r) : r_(std::move(r)) {}
  Status wait() override { return r_->wait(); }
  bool test() override {
    Result<bool> done = r_->test();
    return !done.ok() || done.value();
  }

 private:
  std::shared_ptr<array::ArrayRequest> r_;
};

Status publish(Result<std::shared_ptr<array::ArrayRequest>> r, pario_request_t* req_out) {
  if (!r.ok()) return std::move(r).status();
  return publish_request(std::make_shared<ArrayPending>(std::move(r).value()), req_out);
}

Status check_type(int type) {
  if (!valid_element_type(type)) {
    return invalid("unknown element type " + std::to_string(type) +
                   " (use PARIO_TYPE_DOUBLE .. PARIO_TYPE_COMPLEX_FLOAT)");
  }
  return Status::Ok();
}

Result<std::vector<int64_t>> dims_of(int ndim, const int64_t* dims, int type) {
  if (ndim < 1 || ndim > PARIO_ARRAY_MAX_DIMS) {
    return invalid("ndim " + std::to_string(ndim) + " is not in 1.." +
                   std::to_string(PARIO_ARRAY_MAX_DIMS));
  }
  if (!dims) return invalid("dims is null");
  // Extents below 1 are the distribution's to name; the bytes must fit.
  int64_t bytes = 0;
  const bool positive = std::all_of(dims, dims + ndim, [](int64_t x) { return x >= 1; });
  const auto esize = static_cast<int64_t>(element_size(static_cast<ElementType>(type)));
  if (positive && !checked_bytes(dims, static_cast<size_t>(ndim), esize, &bytes)) {
    return invalid("dims: the array has more than 2^63 bytes");
  }
  return std::vector<int64_t>(dims, dims + ndim);
}

Result<Box> section_of(const GlobalArray& a, const int64_t* start, const int64_t* count) {
  if (!start || !count) return invalid("start or count is null");
  Box b;
  b.ndim = a.distribution().ndim();
  for (int d = 0; d < b.ndim; ++d) {
    b.start[d] = start[d];
    b.count[d] = count[d];
  }
  return b;
}

std::vector<int64_t> ld_of(const GlobalArray& a, const int64_t* ld) {
  if (!ld) return {};
  return std::vector<int64_t>(ld, ld + a.distribution().ndim() - 1);
}

void write_box(const Box& b, int64_t* start_out, int64_t* count_out) {
  for (int d = 0; d < b.ndim; ++d) {
    start_out[d] = b.start[d];
    count_out[d] = b.count[d];
  }
}

// Creates an array from a distribution made on every rank, once the ranks
// agreed on every check (so no rank is left in the window creation).
Status create(Entry& e, pario_group_t group, const char* name, int type, Result<Distribution> dist,
              pario_array_t* array_out) {
  e.check(dist);
  PARIO_RETURN_IF_ERROR(e.agree());
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<Group> g, shared_group(group));
  PARIO_ASSIGN_OR_RETURN(const Resources* settings, resources());
  PARIO_ASSIGN_OR_RETURN(std::shared_ptr<GlobalArray> a,
                         GlobalArray::create(g, name ? name : "array",
                                             static_cast<ElementType>(type),
                                             std::move(dist).value(), settings->config->array_window));
  uint64_t id = arrays().insert(a);
  if (id == 0) {
    (void)a->close();  // every rank's table is full alike: the close matches
    return Status(Code::kNoMemory, "too many arrays");
  }
  remember({a, {}});
  *array_out = handle_of<pario_array_t>(id);
  return Status::Ok();
}

// The common part of pario_array_iget/iput/iacc: checks, then publishes
// the request that issue(array, section) starts.
template <typename Issue>
int nonblocking(const char* call, pario_array_t array, const int64_t* start, const int64_t* count,
                pario_request_t* req_out, Issue&& issue) {
  return guarded(call, [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(GlobalArray * a, live(arrays(), array, "array"));
    if (!req_out) return invalid("req_out is null");
    PARIO_ASSIGN_OR_RETURN(Box b, section_of(*a, start, count));
    return publish(issue(*a, b), req_out);
  });
}

// The checks every array create makes on this rank before the ranks meet;
// the group (nullptr when the handle is not live) and the dims.
Result<std::vector<int64_t>> precheck(Entry& e, pario_group_t group, int type, int ndim,
                                      const int64_t* dims, pario_array_t* array_out, Group** g) {
  Result<Group*> found = live(groups(), group, "group");
  *g = found.ok() ? *found : nullptr;
  e.over(*g);
  e.check(found);
  if (!array_out) e.check(invalid("array_out is null"));
  e.check(check_type(type));
  e.args().add("type", type).add("ndim", ndim);
  if (!e.ok()) return e.local();
  Result<std::vector<int64_t>> d = dims_of(ndim, dims, type);
  e.check(d);
  if (d.ok()) e.args().add("dims", dims, static_cast<size_t>(ndim));
  return d;
}

Counter* entry_counter(Entry& e, pario_counter_t c) { return entry_object(e, counters(), c, "counter"); }

}  // namespace

GlobalArray* entry_array(Entry& e, pario_array_t a, const char* what) {
  return entry_object(e, arrays(), a, what);
}

Group* entry_group(Entry& e, pario_group_t group) {
  Result<Group*> g = live(groups(), group, "group");
  e.check(g);
  if (!g.ok()) return nullptr;
  e.over(*g);
  return *g;
}

Result<std::shared_ptr<Group>> shared_group(pario_group_t g) {
  PARIO_RETURN_IF_ERROR(live(groups(), g, "group").status());
  std::shared_ptr<Group> shared = groups().share(id_of(g));
  if (!shared) return invalid("group handle is stale (already freed)");
  return shared;
}

Status close_leftovers() {
  std::vector<Made> all;
  {
    std::lock_guard<std::mutex> lock(made_mu);
    all.swap(made);
  }
  Status first;
  for (const Made& m : all) {
    Status s;
    if (auto a = m.array.lock(); a && !a->closed()) s = a->close();
    if (auto c = m.counter.lock(); c && !c->closed()) s = c->close();
    if (first.ok()) first = s;
  }
  return first;
}

}  // namespace pario::capi

using namespace pario;        // NOLINT: this file is the C boundary
using namespace pario::capi;  // NOLINT

extern "C" {

// ---- groups ----

int pario_group_world(pario_group_t* group_out) {
  return guarded("pario_group_world", [&]() -> Status {
    if (!group_out) return invalid("group_out is null");
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<Group> w, world_group());
    uint64_t id = groups().insert(std::move(w));
    if (id == 0) return Status(Code::kNoMemory, "too many group handles");
    *group_out = handle_of<pario_group_t>(id);
    return Status::Ok();
  });
}

int pario_group_split(pario_group_t parent, int color, pario_group_t* group_out) {
  return guarded("pario_group_split", [&]() -> Status {
    Entry e("pario_group_split");
    Result<Group*> p = live(groups(), parent, "group");
    if (p.ok()) e.over(*p);
    e.check(p);
    if (!group_out) e.check(invalid("group_out is null"));
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<Group> sub, (*p)->split(color));
    if (!sub) {
      *group_out = PARIO_GROUP_NULL;
      return Status::Ok();
    }
    uint64_t id = groups().insert(std::move(sub));
    if (id == 0) return Status(Code::kNoMemory, "too many group handles");
    *group_out = handle_of<pario_group_t>(id);
    return Status::Ok();
  });
}

int pario_group_from_fortran_comm(int64_t fortran_comm, pario_group_t* group_out) {
  return guarded("pario_group_from_fortran_comm", [&]() -> Status {
    // Collective over the program's communicator, not a pario group: what
    // the ranks check is agreed on over a duplicate of it, which becomes the
    // group's. A handle that is not a communicator on one rank alone
    // cannot be met over; it fails there (MPI has no way to reach the rest).
    PARIO_RETURN_IF_ERROR(world_group().status());  // pario_init came first
    if (fortran_comm < INT32_MIN || fortran_comm > INT32_MAX) {
      return invalid("Fortran communicator handle " + std::to_string(fortran_comm) +
                     " does not fit an MPI_Fint");
    }
    MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(fortran_comm));
    PARIO_RETURN_IF_ERROR(comm::check_user_comm(comm).with_context("Fortran handle " + std::to_string(fortran_comm)));
    PARIO_ASSIGN_OR_RETURN(comm::Comm dup, comm::Comm::duplicate(comm));
    comm::CallDigest digest("pario_group_from_fortran_comm");
    PARIO_RETURN_IF_ERROR(comm::agree_call(dup, group_out ? Status::Ok() : invalid("group_out is null"), digest));
    PARIO_ASSIGN_OR_RETURN(const Config* cfg, config());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<Group> g, Group::create(dup.get(), cfg->ranks_per_node));
    uint64_t id = groups().insert(std::move(g));
    if (id == 0) return Status(Code::kNoMemory, "too many group handles");
    *group_out = handle_of<pario_group_t>(id);
    return Status::Ok();
  });
}

int pario_group_free(pario_group_t* group) {
  return guarded("pario_group_free", [&]() -> Status {
    if (!group) return invalid("group pointer is null");
    PARIO_RETURN_IF_ERROR(live(groups(), *group, "group").status());
    groups().remove(id_of(*group));
    *group = PARIO_GROUP_NULL;
    return Status::Ok();
  });
}

int pario_group_rank(pario_group_t group, int* rank_out) {
  return guarded("pario_group_rank", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(Group * g, live(groups(), group, "group"));
    if (!rank_out) return invalid("rank_out is null");
    *rank_out = g->rank();
    return Status::Ok();
  });
}

int pario_group_size(pario_group_t group, int* size_out) {
  return guarded("pario_group_size", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(Group * g, live(groups(), group, "group"));
    if (!size_out) return invalid("size_out is null");
    *size_out = g->size();
    return Status::Ok();
  });
}

int pario_group_node_info(pario_group_t group, int* node_out, int* nodes_out, int* node_rank_out,
                          int* node_size_out) {
  return guarded("pario_group_node_info", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(Group * g, live(groups(), group, "group"));
    if (!node_out || !nodes_out || !node_rank_out || !node_size_out) {
      return invalid("an output pointer is null");
    }
    const comm::NodeTopology& t = g->topology();
    *node_out = t.node;
    *nodes_out = t.nodes;
    *node_rank_out = t.node_rank;
    *node_size_out = t.node_size;
    return Status::Ok();
  });
}

int pario_group_barrier(pario_group_t group) {
  return guarded("pario_group_barrier", [&]() -> Status {
    Entry e("pario_group_barrier");
    entry_group(e, group);
    return e.agree();  // every rank has arrived once every rank has agreed
  });
}

int pario_group_sum(pario_group_t group, int type, void* buf, size_t count) {
  return guarded("pario_group_sum", [&]() -> Status {
    Entry e("pario_group_sum");
    Group* g = entry_group(e, group);
    e.check(check_type(type));
    if (!buf && count > 0) e.check(invalid("buffer is null"));
    if (e.ok() && count > static_cast<size_t>(INT64_MAX) / element_size(static_cast<ElementType>(type))) {
      e.check(invalid("count " + std::to_string(count) + " is larger than any buffer"));
    }
    e.args().add("type", type).add("count", static_cast<int64_t>(count));
    PARIO_RETURN_IF_ERROR(e.agree());
    return g->sum(static_cast<ElementType>(type), buf, count);
  });
}

int pario_group_broadcast(pario_group_t group, void* buf, size_t bytes, int root) {
  return guarded("pario_group_broadcast", [&]() -> Status {
    Entry e("pario_group_broadcast");
    Group* g = entry_group(e, group);
    if (!buf && bytes > 0) e.check(invalid("buffer is null"));
    if (bytes > static_cast<size_t>(INT64_MAX)) e.check(invalid("bytes " + std::to_string(bytes) + " is larger than any buffer"));
    if (g && (root < 0 || root >= g->size())) {
      e.check(invalid("root " + std::to_string(root) + " is not a rank of the group (size " +
                      std::to_string(g->size()) + ")"));
    }
    e.args().add("bytes", static_cast<int64_t>(bytes)).add("root", root);
    PARIO_RETURN_IF_ERROR(e.agree());
    return g->broadcast(buf, bytes, root);
  });
}

// ---- arrays ----

int pario_array_create(pario_group_t group, const char* name, int type, int ndim,
                       const int64_t dims[], pario_array_t* array_out) {
  return guarded("pario_array_create", [&]() -> Status {
    Entry e("pario_array_create");
    Group* g = nullptr;
    Result<std::vector<int64_t>> d = precheck(e, group, type, ndim, dims, array_out, &g);
    Result<Distribution> dist =
        d.ok() ? Distribution::block(d.value(), g->size()) : Result<Distribution>(d.status());
    return create(e, group, name, type, std::move(dist), array_out);
  });
}

int pario_array_create_irregular(pario_group_t group, const char* name, int type, int ndim,
                                 const int64_t dims[], const int64_t nblocks[],
                                 const int64_t block_starts[], pario_array_t* array_out) {
  return guarded("pario_array_create_irregular", [&]() -> Status {
    Entry e("pario_array_create_irregular");
    Group* g = nullptr;
    Result<std::vector<int64_t>> d = precheck(e, group, type, ndim, dims, array_out, &g);
    // Every path sets dist to a distribution or to why there is none (a
    // Result made from an OK status would be neither).
    Result<Distribution> dist = invalid("unchecked");
    if (!d.ok()) {
      dist = d.status();
    } else if (!nblocks || !block_starts) {
      dist = invalid("nblocks or block_starts is null");
    } else {
      std::vector<std::vector<int64_t>> starts;
      size_t at = 0;
      Status bad;
      for (int k = 0; k < ndim && bad.ok(); ++k) {
        if (nblocks[k] < 1 || nblocks[k] > g->size()) {
          bad = invalid("nblocks[" + std::to_string(k) + "] = " + std::to_string(nblocks[k]) +
                        " is not in 1.." + std::to_string(g->size()));
          break;
        }
        starts.emplace_back(block_starts + at, block_starts + at + nblocks[k]);
        at += static_cast<size_t>(nblocks[k]);
      }
      if (bad.ok()) {
        dist = Distribution::irregular(d.value(), starts, g->size());
        e.args().add("nblocks", nblocks, static_cast<size_t>(ndim)).add("block_starts", block_starts, at);
      } else {
        dist = bad;
      }
    }
    return create(e, group, name, type, std::move(dist), array_out);
  });
}

int pario_array_create_columns(pario_group_t group, const char* name, int type, int ndim,
                               const int64_t dims[], const int64_t first_index[],
                               pario_array_t* array_out) {
  return guarded("pario_array_create_columns", [&]() -> Status {
    Entry e("pario_array_create_columns");
    Group* g = nullptr;
    Result<std::vector<int64_t>> d = precheck(e, group, type, ndim, dims, array_out, &g);
    std::vector<int64_t> first;
    if (d.ok() && first_index) first.assign(first_index, first_index + g->size());
    // Always an argument (null hashed as such), so that "null here, a list
    // there" is a difference every rank sees.
    e.args().add("first_index", first_index ? first.data() : nullptr, first.size());
    Result<Distribution> dist =
        d.ok() ? Distribution::columns(d.value(), first, g->size()) : Result<Distribution>(d.status());
    return create(e, group, name, type, std::move(dist), array_out);
  });
}

int pario_array_destroy(pario_array_t* array) {
  return guarded("pario_array_destroy", [&]() -> Status {
    Entry e("pario_array_destroy");
    if (!array) e.check(invalid("array pointer is null"));
    else entry_array(e, *array, "array");
    PARIO_RETURN_IF_ERROR(e.agree());
    std::shared_ptr<GlobalArray> a = arrays().remove(id_of(*array));
    *array = PARIO_ARRAY_NULL;
    return a->close();
  });
}

int pario_array_info(pario_array_t array, int* type_out, int* ndim_out, int64_t dims_out[]) {
  return guarded("pario_array_info", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(GlobalArray * a, live(arrays(), array, "array"));
    if (type_out) *type_out = static_cast<int>(a->type());
    if (ndim_out) *ndim_out = a->distribution().ndim();
    if (dims_out) {
      std::memcpy(dims_out, a->distribution().dims().data(),
                  a->distribution().dims().size() * sizeof(int64_t));
    }
    return Status::Ok();
  });
}

int pario_array_distribution(pario_array_t array, int rank, int64_t start_out[],
                             int64_t count_out[]) {
  return guarded("pario_array_distribution", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(GlobalArray * a, live(arrays(), array, "array"));
    if (!start_out || !count_out) return invalid("start_out or count_out is null");
    if (rank < 0 || rank >= a->group().size()) {
      return invalid("rank " + std::to_string(rank) + " is not in the array's group");
    }
    write_box(a->distribution().patch(rank), start_out, count_out);
    return Status::Ok();
  });
}

int pario_array_node_distribution(pario_array_t array, int node, int64_t start_out[],
                                  int64_t count_out[]) {
  return guarded("pario_array_node_distribution", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(GlobalArray * a, live(arrays(), array, "array"));
    if (!start_out || !count_out) return invalid("start_out or count_out is null");
    PARIO_ASSIGN_OR_RETURN(Box b, a->node_box(node));
    write_box(b, start_out, count_out);
    return Status::Ok();
  });
}

int pario_array_access(pario_array_t array, int rank, void** ptr_out, int64_t start_out[],
                       int64_t count_out[]) {
  return guarded("pario_array_access", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(GlobalArray * a, live(arrays(), array, "array"));
    if (!ptr_out) return invalid("ptr_out is null");
    Box b;
    PARIO_ASSIGN_OR_RETURN(char* p, a->access(rank, &b));
    *ptr_out = p;
    if (start_out && count_out) write_box(b, start_out, count_out);
    return Status::Ok();
  });
}

int pario_array_get(pario_array_t array, const int64_t start[], const int64_t count[], void* buf,
                    const int64_t ld[]) {
  return guarded("pario_array_get", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(GlobalArray * a, live(arrays(), array, "array"));
    PARIO_ASSIGN_OR_RETURN(Box b, section_of(*a, start, count));
    return a->get(b, buf, ld_of(*a, ld)).with_context(a->name());
  });
}

int pario_array_put(pario_array_t array, const int64_t start[], const int64_t count[],
                    const void* buf, const int64_t ld[]) {
  return guarded("pario_array_put", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(GlobalArray * a, live(arrays(), array, "array"));
    PARIO_ASSIGN_OR_RETURN(Box b, section_of(*a, start, count));
    return a->put(b, buf, ld_of(*a, ld)).with_context(a->name());
  });
}

int pario_array_acc(pario_array_t array, const int64_t start[], const int64_t count[],
                    const void* buf, const int64_t ld[], const void* alpha) {
  return guarded("pario_array_acc", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(GlobalArray * a, live(arrays(), array, "array"));
    PARIO_ASSIGN_OR_RETURN(Box b, section_of(*a, start, count));
    return a->acc(b, buf, ld_of(*a, ld), alpha).with_context(a->name());
  });
}

int pario_array_get_acc(pario_array_t array, const int64_t start[], const int64_t count[],
                        void* buf, const int64_t ld[]) {
  return guarded("pario_array_get_acc", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(GlobalArray * a, live(arrays(), array, "array"));
    PARIO_ASSIGN_OR_RETURN(Box b, section_of(*a, start, count));
    return a->get_acc(b, buf, ld_of(*a, ld)).with_context(a->name());
  });
}

int pario_array_iget(pario_array_t array, const int64_t start[], const int64_t count[], void* buf,
                     const int64_t ld[], pario_request_t* req_out) {
  return nonblocking("pario_array_iget", array, start, count, req_out,
                     [&](GlobalArray& a, const Box& b) { return a.iget(b, buf, ld_of(a, ld)); });
}

int pario_array_iput(pario_array_t array, const int64_t start[], const int64_t count[],
                     const void* buf, const int64_t ld[], pario_request_t* req_out) {
  return nonblocking("pario_array_iput", array, start, count, req_out,
                     [&](GlobalArray& a, const Box& b) { return a.iput(b, buf, ld_of(a, ld)); });
}

int pario_array_iacc(pario_array_t array, const int64_t start[], const int64_t count[],
                     const void* buf, const int64_t ld[], const void* alpha,
                     pario_request_t* req_out) {
  return nonblocking("pario_array_iacc", array, start, count, req_out, [&](GlobalArray& a, const Box& b) {
    return a.iacc(b, buf, ld_of(a, ld), alpha);
  });
}

int pario_array_fill(pario_array_t array, const void* value) {
  return guarded("pario_array_fill", [&]() -> Status {
    Entry e("pario_array_fill");
    GlobalArray* a = entry_array(e, array, "array");
    if (!value) e.check(invalid("value is null"));
    if (a && value) e.args().add_bytes("value", value, element_size(a->type()));
    PARIO_RETURN_IF_ERROR(e.agree());
    return a->fill(value);
  });
}

int pario_array_zero(pario_array_t array) {
  return guarded("pario_array_zero", [&]() -> Status {
    Entry e("pario_array_zero");
    GlobalArray* a = entry_array(e, array, "array");
    PARIO_RETURN_IF_ERROR(e.agree());
    const char zero[16] = {0};  // all-zero bits are zero in every element type
    return a->fill(zero);
  });
}

int pario_array_scale(pario_array_t array, const void* alpha) {
  return guarded("pario_array_scale", [&]() -> Status {
    Entry e("pario_array_scale");
    GlobalArray* a = entry_array(e, array, "array");
    if (!alpha) e.check(invalid("alpha is null"));
    if (a && alpha) e.args().add_bytes("alpha", alpha, element_size(a->type()));
    PARIO_RETURN_IF_ERROR(e.agree());
    return a->scale(alpha);
  });
}

int pario_array_copy(pario_array_t src, pario_array_t dst) {
  return guarded("pario_array_copy", [&]() -> Status {
    Entry e("pario_array_copy");
    GlobalArray* s = entry_array(e, src, "source array");
    GlobalArray* d = entry_array(e, dst, "destination array");
    if (s && d && s->group().comm() != d->group().comm()) {
      e.check(invalid("source and destination are on different groups"));
    }
    PARIO_RETURN_IF_ERROR(e.agree());
    return GlobalArray::copy(*s, *d);
  });
}

int pario_array_sync(pario_array_t array) {
  return guarded("pario_array_sync", [&]() -> Status {
    Entry e("pario_array_sync");
    GlobalArray* a = entry_array(e, array, "array");
    if (a) e.check(a->sync_arrive());
    PARIO_RETURN_IF_ERROR(e.agree());  // the fence's barrier
    return a->sync_leave();
  });
}

int pario_array_lock(pario_array_t array, int mode) {
  return guarded("pario_array_lock", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(GlobalArray * a, live(arrays(), array, "array"));
    if (mode != PARIO_LOCK_READ && mode != PARIO_LOCK_WRITE) {
      return invalid("lock mode " + std::to_string(mode) +
                     " is neither PARIO_LOCK_READ nor PARIO_LOCK_WRITE");
    }
    return a->lock(mode == PARIO_LOCK_WRITE);
  });
}

int pario_array_unlock(pario_array_t array) {
  return guarded("pario_array_unlock", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(GlobalArray * a, live(arrays(), array, "array"));
    return a->unlock();
  });
}

// ---- counters ----

int pario_counter_create(pario_group_t group, pario_counter_t* counter_out) {
  return guarded("pario_counter_create", [&]() -> Status {
    Entry e("pario_counter_create");
    entry_group(e, group);
    if (!counter_out) e.check(invalid("counter_out is null"));
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<Group> g, shared_group(group));
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<Counter> c, Counter::create(g));
    std::shared_ptr<Counter> shared(std::move(c));
    uint64_t id = counters().insert(shared);
    if (id == 0) {
      (void)shared->close();
      return Status(Code::kNoMemory, "too many counters");
    }
    remember({{}, shared});
    *counter_out = handle_of<pario_counter_t>(id);
    return Status::Ok();
  });
}

int pario_counter_destroy(pario_counter_t* counter) {
  return guarded("pario_counter_destroy", [&]() -> Status {
    Entry e("pario_counter_destroy");
    if (!counter) e.check(invalid("counter pointer is null"));
    else entry_counter(e, *counter);
    PARIO_RETURN_IF_ERROR(e.agree());
    std::shared_ptr<Counter> c = counters().remove(id_of(*counter));
    *counter = PARIO_COUNTER_NULL;
    return c->close();
  });
}

int pario_counter_next(pario_counter_t counter, int64_t* value_out) {
  return guarded("pario_counter_next", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(Counter * c, live(counters(), counter, "counter"));
    if (!value_out) return invalid("value_out is null");
    PARIO_ASSIGN_OR_RETURN(*value_out, c->fetch_add(Counter::kGlobal, 1));
    return Status::Ok();
  });
}

int pario_counter_fetch_add(pario_counter_t counter, int owner, int64_t increment,
                            int64_t* old_out) {
  return guarded("pario_counter_fetch_add", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(Counter * c, live(counters(), counter, "counter"));
    if (!old_out) return invalid("old_out is null");
    PARIO_ASSIGN_OR_RETURN(*old_out, c->fetch_add(owner, increment));
    return Status::Ok();
  });
}

int pario_counter_reset(pario_counter_t counter) {
  return guarded("pario_counter_reset", [&]() -> Status {
    Entry e("pario_counter_reset");
    Counter* c = entry_counter(e, counter);
    PARIO_RETURN_IF_ERROR(e.agree());
    return c->reset();
  });
}

}  // extern "C"
