// GAMESS's DDI over pario's public C API (and nothing else).
//
// A DDI array of idim rows by jdim columns, column-major, is a pario array
// of shape {jdim, idim} in row-major order with the column distribution:
// DDI's column j is pario's row j, and a DDI patch buffer is exactly the
// row-major pario section {jlo..jhi} x {ilo..ihi}. No copy, no transpose.
//
// The three scopes (world, group, masters) are three pario groups, each with
// its own load-balancing counter; arrays and per-rank counters belong to the
// scope that was working when they were made. Handles are small integers
// indexing tables, as in DDI.
//
// DDI's calls return nothing and DDI ends the job on error; finish() does
// the same unless PARIO_DDI_ERRORS=return (see ddi.h).
#include "pario/compat/ddi.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "compat/classic.h"
#include "compat/ddi_internal.h"
#include "pario/pario.h"

namespace pario::ddi {
namespace {

struct Scope {
  pario_group_t group = PARIO_GROUP_NULL;
  pario_counter_t dlb = PARIO_COUNTER_NULL;
};

struct Array {
  pario_array_t array = PARIO_ARRAY_NULL;
  int64_t idim = 0, jdim = 0;
  std::vector<int64_t> first_col;  // per rank of the array's scope
  uint64_t created = 0;            // creation order, for DDI_Finalize
};

struct State {
  bool up = false;
  bool started_pario = false;
  bool return_errors = false;
  Scope scopes[3];  // DDI_WORLD, DDI_GROUP, DDI_MASTERS
  int working = DDI_WORLD;
  pario_counter_t gdlb = PARIO_COUNTER_NULL;
  int ngroups = 1, mygroup = 0;
  std::vector<Array> arrays;
  std::vector<pario_counter_t> proc_dlb;
  uint64_t created = 0;
  uint64_t cap_words = 0, used_words = 0;
};

State& state() {
  static State s;
  return s;
}

thread_local int last_code = PARIO_OK;
thread_local std::string last_message;
thread_local std::string compat_message;  // set by reject(); else pario's message applies

int reject(std::string why, int code = PARIO_ERR_INVALID_ARGUMENT) {
  compat_message = std::move(why);
  return code;
}

#define DDI_TRY(expr)                        \
  do {                                       \
    const int rc_ = (expr);                  \
    if (rc_ != PARIO_OK) return rc_;         \
  } while (0)

// Records the outcome of one DDI call; on failure reports it and, unless
// errors return, ends the job as DDI does.
void finish(const char* call, int rc) {
  last_code = rc;
  if (rc == PARIO_OK) {
    last_message.clear();
    return;
  }
  std::string why = compat_message;
  compat_message.clear();
  if (why.empty()) {
    char buf[1024];
    pario_last_error_message(buf, sizeof buf);
    why = buf;
  }
  last_message = std::string(call) + ": " + why;
  if (!state().return_errors) {
    std::fprintf(stderr, "DDI error (%s): %s\n", pario_status_string(rc), last_message.c_str());
    pario_abort(rc);
  }
}

// body's status, reported by finish; an exception becomes a status too:
// none crosses into C or Fortran.
template <typename Body>
void run(const char* call, Body&& body) noexcept {
  compat_message.clear();
  int rc = PARIO_OK;
  try {
    rc = body();
  } catch (const std::bad_alloc&) {
    rc = reject("out of memory", PARIO_ERR_NO_MEMORY);
  } catch (const std::exception& e) {
    rc = reject(e.what(), PARIO_ERR_INTERNAL);
  }
  finish(call, rc);
}

int need_up() {
  return state().up ? PARIO_OK : reject("call DDI_Init first", PARIO_ERR_STATE);
}

Scope& working() { return state().scopes[state().working]; }

int array_of(int64_t handle, Array** out) {
  DDI_TRY(need_up());
  auto& arrays = state().arrays;
  if (handle < 0 || handle >= static_cast<int64_t>(arrays.size()) ||
      arrays[handle].array == PARIO_ARRAY_NULL) {
    return reject("handle " + std::to_string(handle) + " is not a live DDI array");
  }
  *out = &arrays[handle];
  return PARIO_OK;
}

int counter_of(int64_t handle, pario_counter_t* out) {
  DDI_TRY(need_up());
  auto& c = state().proc_dlb;
  if (handle < 0 || handle >= static_cast<int64_t>(c.size()) || !c[handle]) {
    return reject("handle " + std::to_string(handle) + " is not a live DDI_ProcDLB counter");
  }
  *out = c[handle];
  return PARIO_OK;
}

int slot_for(std::vector<pario_counter_t>& v, pario_counter_t value) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i]) {
      v[i] = value;
      return static_cast<int>(i);
    }
  }
  v.push_back(value);
  return static_cast<int>(v.size() - 1);
}

// Makes the masters scope: rank 0 of each group together, every other rank
// alone (a split needs a distinct color per singleton).
int make_scopes(pario_group_t group, Scope* group_scope, Scope* masters_scope) {
  int group_rank = 0, world_rank = 0;
  DDI_TRY(pario_group_rank(group, &group_rank));
  DDI_TRY(pario_world_rank(&world_rank));
  group_scope->group = group;
  DDI_TRY(pario_group_split(state().scopes[DDI_WORLD].group, group_rank == 0 ? 0 : 1 + world_rank,
                            &masters_scope->group));
  DDI_TRY(pario_counter_create(group, &group_scope->dlb));
  return pario_counter_create(masters_scope->group, &masters_scope->dlb);
}

// Releases the group and masters scopes (collective, like their creation).
int drop_scopes() {
  State& s = state();
  int first = PARIO_OK;
  auto keep = [&](int rc) {
    if (first == PARIO_OK) first = rc;
  };
  for (int k : {DDI_MASTERS, DDI_GROUP}) {
    Scope& sc = s.scopes[k];
    if (sc.group == s.scopes[DDI_WORLD].group) {  // no groups made: an alias of the world
      sc = Scope{};
      continue;
    }
    if (sc.dlb) keep(pario_counter_destroy(&sc.dlb));
    if (sc.group) keep(pario_group_free(&sc.group));
  }
  return first;
}

}  // namespace

// --- shared by the C and Fortran entry points -------------------------------

void patch_op(const char* call, PatchOp op, int base, int64_t handle, int64_t ilo, int64_t ihi,
              int64_t jlo, int64_t jhi, void* buff, double alpha) {
  run(call, [&]() -> int {
    Array* a;
    DDI_TRY(array_of(handle, &a));
    auto range = [&](const char* what, int64_t lo, int64_t hi, int64_t dim) -> int {
      if (lo <= hi && lo >= base && hi < dim + base) return PARIO_OK;
      return reject(std::string(what) + " " + std::to_string(lo) + ".." + std::to_string(hi) +
                    " is not within " + std::to_string(base) + ".." +
                    std::to_string(dim - 1 + base) + " of array " + std::to_string(handle));
    };
    DDI_TRY(range("rows", ilo, ihi, a->idim));
    DDI_TRY(range("columns", jlo, jhi, a->jdim));
    if (!buff) return reject("buffer is null");
    const int64_t start[2] = {jlo - base, ilo - base};
    const int64_t count[2] = {jhi - jlo + 1, ihi - ilo + 1};
    switch (op) {
      case PatchOp::kGet: return pario_array_get(a->array, start, count, buff, nullptr);
      case PatchOp::kPut: return pario_array_put(a->array, start, count, buff, nullptr);
      case PatchOp::kAcc: return pario_array_acc(a->array, start, count, buff, nullptr, &alpha);
      case PatchOp::kGetAcc: return pario_array_get_acc(a->array, start, count, buff, nullptr);
    }
    return PARIO_OK;
  });
}

void distrib(const char* call, bool by_node, int base, int64_t handle, int64_t who,
             int64_t out[4]) {
  run(call, [&]() -> int {
    Array* a;
    DDI_TRY(array_of(handle, &a));
    if (!out) return reject("an output pointer is null");
    int64_t jlo, jend;  // columns jlo .. jend-1
    if (by_node) {
      int64_t start[PARIO_ARRAY_MAX_DIMS], count[PARIO_ARRAY_MAX_DIMS];
      if (who < 0 || who > INT32_MAX) return reject("node " + std::to_string(who) + " is not a node of the array");
      DDI_TRY(pario_array_node_distribution(a->array, static_cast<int>(who), start, count));
      jlo = start[0];
      jend = start[0] + count[0];
    } else {
      const int64_t np = static_cast<int64_t>(a->first_col.size());
      if (who < 0 || who >= np) {
        return reject("rank " + std::to_string(who) + " is not in array " +
                      std::to_string(handle) + "'s scope of " + std::to_string(np) + " ranks");
      }
      jlo = a->first_col[who];
      jend = who + 1 < np ? a->first_col[who + 1] : a->jdim;
    }
    out[0] = base;
    out[1] = a->idim - 1 + base;
    out[2] = jlo + base;
    out[3] = jend - 1 + base;
    return PARIO_OK;
  });
}

int array_for_handle(int64_t handle, pario_array_t* out) {
  Array* a;
  compat_message.clear();
  const int rc = array_of(handle, &a);
  if (rc == PARIO_OK) {
    *out = a->array;
    return rc;
  }
  const std::string why = compat_message;  // DRA reports it through its own message
  compat_message.clear();
  return compat::fail(rc, "global array %lld: %s", static_cast<long long>(handle), why.c_str());
}

void fail(const char* call, const std::string& why) {
  run(call, [&]() -> int { return reject(why); });
}

void gsum(const char* call, void* buffer, int64_t n, int pario_type) {
  run(call, [&]() -> int {
    DDI_TRY(need_up());
    if (n < 0) return reject("negative element count " + std::to_string(n));
    return pario_group_sum(working().group, pario_type, buffer, static_cast<size_t>(n));
  });
}

void create(const char* call, int64_t idim, int64_t jdim, const int64_t* jcols, int64_t* handle) {
  run(call, [&]() -> int {
    DDI_TRY(need_up());
    State& s = state();
    // This rank's checks and the memory cap, agreed on by the scope in one
    // sum, so that no rank creates alone and none returns alone (under
    // PARIO_DDI_ERRORS=return) while the others wait in the sum.
    std::string bad;
    uint64_t words = 0;
    if (!handle) {
      bad = "handle pointer is null";
    } else if (idim < 1 || jdim < 1) {
      bad = "array of " + std::to_string(idim) + " x " + std::to_string(jdim) + ": both dimensions must be at least 1";
    } else if (__builtin_mul_overflow(static_cast<uint64_t>(idim), static_cast<uint64_t>(jdim), &words)) {
      bad = "array of " + std::to_string(idim) + " x " + std::to_string(jdim) + ": the word count overflows";
    }
    int64_t refused[2] = {bad.empty() ? 0 : 1,
                          bad.empty() && s.cap_words &&
                                  (s.used_words > s.cap_words || words > s.cap_words - s.used_words)
                              ? 1
                              : 0};  // over the cap, written so that no sum wraps
    DDI_TRY(pario_group_sum(working().group, PARIO_TYPE_INT64, refused, 2));
    if (!bad.empty()) return reject(bad);
    if (refused[0]) {
      return reject("the arguments of " + std::to_string(refused[0]) + " other rank(s) were refused", PARIO_ERR_REMOTE);
    }
    int np = 0;
    DDI_TRY(pario_group_size(working().group, &np));
    std::vector<int64_t> first(np);
    if (jcols) {
      first.assign(jcols, jcols + np);
    } else {
      const int64_t per = jdim / np, extra = jdim % np;
      for (int64_t r = 0; r < np; ++r) first[r] = r * per + std::min(r, extra);
    }
    if (refused[1]) {
      return reject("array of " + std::to_string(words) + " words exceeds the DDI_Memory cap of " +
                        std::to_string(s.cap_words) + " words (" +
                        std::to_string(s.used_words) + " in use here) on some rank",
                    PARIO_ERR_NO_MEMORY);
    }
    const int64_t dims[2] = {jdim, idim};
    int slot = 0;  // the first free handle
    while (slot < static_cast<int>(s.arrays.size()) && s.arrays[slot].array) ++slot;
    if (slot == static_cast<int>(s.arrays.size())) s.arrays.emplace_back();
    const std::string name = "DDI array " + std::to_string(slot);
    pario_array_t made = PARIO_ARRAY_NULL;
    const int rc = pario_array_create_columns(working().group, name.c_str(), PARIO_TYPE_DOUBLE, 2,
                                              dims, first.data(), &made);
    if (rc != PARIO_OK) return rc;  // the slot stays free (array null)
    s.arrays[slot] = Array{made, idim, jdim, std::move(first), ++s.created};
    s.used_words += words;
    *handle = slot;
    return PARIO_OK;
  });
}

void group_create(const char* call, int64_t ngroups, const int64_t* sizes) {
  run(call, [&]() -> int {
    DDI_TRY(need_up());
    State& s = state();
    int np = 0, me = 0;
    pario_group_t world = s.scopes[DDI_WORLD].group;
    DDI_TRY(pario_group_size(world, &np));
    DDI_TRY(pario_group_rank(world, &me));
    if (ngroups < 1 || ngroups > np) {
      return reject(std::to_string(ngroups) + " groups: need 1.." + std::to_string(np));
    }
    std::vector<int64_t> size(ngroups);
    int64_t total = 0;
    for (int64_t g = 0; g < ngroups; ++g) {
      size[g] = sizes ? sizes[g] : np / ngroups + (g < np % ngroups ? 1 : 0);
      if (size[g] < 1) return reject("group " + std::to_string(g) + " has no ranks");
      total += size[g];
    }
    if (total != np) {
      return reject("group sizes add up to " + std::to_string(total) + ", not the " +
                    std::to_string(np) + " ranks");
    }
    int mine = 0;
    for (int64_t end = size[0]; me >= end; end += size[mine]) ++mine;
    DDI_TRY(drop_scopes());
    pario_group_t group = PARIO_GROUP_NULL;
    DDI_TRY(pario_group_split(world, mine, &group));
    DDI_TRY(make_scopes(group, &s.scopes[DDI_GROUP], &s.scopes[DDI_MASTERS]));
    s.ngroups = static_cast<int>(ngroups);
    s.mygroup = mine;
    s.working = DDI_GROUP;
    return PARIO_OK;
  });
}

}  // namespace pario::ddi

using namespace pario::ddi;  // NOLINT: this file is the C boundary

extern "C" {

void DDI_Init(int, char**) {
  State& s = state();
  const char* mode = std::getenv("PARIO_DDI_ERRORS");
  s.return_errors = mode && std::strcmp(mode, "return") == 0;
  run("DDI_Init", [&]() -> int {
    if (mode && *mode && !s.return_errors && std::strcmp(mode, "abort") != 0) {
      return reject(std::string("PARIO_DDI_ERRORS=") + mode + ": expected abort or return");
    }
    if (s.up) return PARIO_OK;
    int flag = 0;
    DDI_TRY(pario_initialized(&flag));
    if (!flag) {
      DDI_TRY(pario_init());
      s.started_pario = true;
    }
    Scope& world = s.scopes[DDI_WORLD];
    DDI_TRY(pario_group_world(&world.group));
    DDI_TRY(pario_counter_create(world.group, &world.dlb));
    DDI_TRY(pario_counter_create(world.group, &s.gdlb));
    s.scopes[DDI_GROUP] = world;  // one group: the world itself
    int me = 0;
    DDI_TRY(pario_group_rank(world.group, &me));
    DDI_TRY(pario_group_split(world.group, me == 0 ? 0 : 1 + me, &s.scopes[DDI_MASTERS].group));
    DDI_TRY(pario_counter_create(s.scopes[DDI_MASTERS].group, &s.scopes[DDI_MASTERS].dlb));
    s.working = DDI_WORLD;
    s.up = true;
    return PARIO_OK;
  });
}

void DDI_Finalize(void) {
  run("DDI_Finalize", [&]() -> int {
    State& s = state();
    if (!s.up) return PARIO_OK;
    int first = PARIO_OK;
    auto keep = [&](int rc) {
      if (first == PARIO_OK) first = rc;
    };
    // Leftovers in creation order: every rank replays the same sequence
    // of collectives it made when creating them.
    std::vector<Array*> left;
    for (Array& a : s.arrays) {
      if (a.array) left.push_back(&a);
    }
    std::sort(left.begin(), left.end(), [](Array* x, Array* y) { return x->created < y->created; });
    for (Array* a : left) keep(pario_array_destroy(&a->array));
    s.arrays.clear();
    for (pario_counter_t& c : s.proc_dlb) {
      if (c) keep(pario_counter_destroy(&c));
    }
    s.proc_dlb.clear();
    keep(drop_scopes());
    Scope& world = s.scopes[DDI_WORLD];
    keep(pario_counter_destroy(&world.dlb));
    keep(pario_counter_destroy(&s.gdlb));
    keep(pario_group_free(&world.group));
    s.up = false;
    s.used_words = 0;
    if (s.started_pario) keep(pario_finalize());
    s.started_pario = false;
    return first;
  });
}

void DDI_Memory(size_t megawords) {
  run("DDI_Memory", [&]() -> int {
    DDI_TRY(need_up());
    if (megawords > (UINT64_MAX >> 20)) return reject(std::to_string(megawords) + " megawords overflow a word count");
    state().cap_words = static_cast<uint64_t>(megawords) << 20;
    return PARIO_OK;
  });
}

void DDI_NProc(int* np, int* me) {
  run("DDI_NProc", [&]() -> int {
    DDI_TRY(need_up());
    if (!np || !me) return reject("an output pointer is null");
    int n = 0, r = 0;
    DDI_TRY(pario_group_size(working().group, &n));
    DDI_TRY(pario_group_rank(working().group, &r));
    *np = n;
    *me = r;
    return PARIO_OK;
  });
}

static void node_info(const char* call, bool smp, int* a, int* b) {
  run(call, [&]() -> int {
    DDI_TRY(need_up());
    if (!a || !b) return reject("an output pointer is null");
    int node, nodes, node_rank, node_size;
    DDI_TRY(pario_group_node_info(working().group, &node, &nodes, &node_rank, &node_size));
    *a = smp ? node_size : nodes;
    *b = smp ? node_rank : node;
    return PARIO_OK;
  });
}

void DDI_NNode(int* nnodes, int* mynode) { node_info("DDI_NNode", false, nnodes, mynode); }
void DDI_SMP_NProc(int* np, int* me) { node_info("DDI_SMP_NProc", true, np, me); }

void DDI_NGroup(int* ngroups, int* mygroup) {
  run("DDI_NGroup", [&]() -> int {
    DDI_TRY(need_up());
    if (!ngroups || !mygroup) return reject("an output pointer is null");
    *ngroups = state().ngroups;
    *mygroup = state().mygroup;
    return PARIO_OK;
  });
}

void DDI_Sync(int) {
  run("DDI_Sync", [&]() -> int {
    DDI_TRY(need_up());
    return pario_group_barrier(working().group);
  });
}

void DDI_BCast(void* buffer, size_t bytes, int root) {
  run("DDI_BCast", [&]() -> int {
    DDI_TRY(need_up());
    return pario_group_broadcast(working().group, buffer, bytes, root);
  });
}

void DDI_GSum(void* buffer, size_t n, int type) {
  int pario_type = 0;
  if (type == DDI_DOUBLE) pario_type = PARIO_TYPE_DOUBLE;
  if (type == DDI_INT) pario_type = PARIO_TYPE_INT32;
  if (type == DDI_LONG) pario_type = PARIO_TYPE_INT64;
  if (!pario_type) {
    return fail("DDI_GSum",
                "type " + std::to_string(type) + " is not DDI_DOUBLE, DDI_INT or DDI_LONG");
  }
  gsum("DDI_GSum", buffer, static_cast<int64_t>(n), pario_type);
}

void DDI_Create(int idim, int jdim, int* handle) {
  int64_t h = -1;
  create("DDI_Create", idim, jdim, nullptr, &h);
  if (last_code == PARIO_OK && handle) *handle = static_cast<int>(h);
}

void DDI_Create_custom(int idim, int jdim, int* jcols, int* handle) {
  int np = 0;
  if (!jcols || !state().up || pario_group_size(working().group, &np) != PARIO_OK) {
    run("DDI_Create_custom", [&]() -> int { return jcols ? need_up() : reject("jcols is null"); });
    return;
  }
  const std::vector<int64_t> first(jcols, jcols + np);
  int64_t h = -1;
  create("DDI_Create_custom", idim, jdim, first.data(), &h);
  if (last_code == PARIO_OK && handle) *handle = static_cast<int>(h);
}

// A handle bad on this rank alone still meets the others, who would
// otherwise wait in pario's call for ever (under PARIO_DDI_ERRORS=return).
// In the world scope it makes pario's call with a null handle, which pario
// refuses and agrees over the world (the others get PARIO_ERR_REMOTE);
// inside a group scope, where the others agree over the scope's group, it
// takes part in that agreement through a barrier of the group (they see
// different collectives and fail too).

void DDI_Destroy(int handle) {
  run("DDI_Destroy", [&]() -> int {
    Array* a = nullptr;
    const int checked = array_of(handle, &a);
    pario_array_t none = PARIO_ARRAY_NULL;
    const int rc = checked == PARIO_OK                  ? pario_array_destroy(&a->array)
                   : state().working == DDI_WORLD       ? pario_array_destroy(&none)
                                                        : pario_group_barrier(working().group);
    if (checked != PARIO_OK) return checked;
    state().used_words -= static_cast<uint64_t>(a->idim) * static_cast<uint64_t>(a->jdim);
    *a = Array{};
    return rc;
  });
}

void DDI_Zero(int handle) {
  run("DDI_Zero", [&]() -> int {
    Array* a = nullptr;
    const int checked = array_of(handle, &a);
    const int rc = checked == PARIO_OK || state().working == DDI_WORLD
                       ? pario_array_zero(checked == PARIO_OK ? a->array : PARIO_ARRAY_NULL)
                       : pario_group_barrier(working().group);
    return checked != PARIO_OK ? checked : rc;
  });
}

static void bounds_out(const int64_t b[4], int* ilo, int* ihi, int* jlo, int* jhi) {
  if (last_code != PARIO_OK) return;
  *ilo = static_cast<int>(b[0]);
  *ihi = static_cast<int>(b[1]);
  *jlo = static_cast<int>(b[2]);
  *jhi = static_cast<int>(b[3]);
}

void DDI_Distrib(int handle, int rank, int* ilo, int* ihi, int* jlo, int* jhi) {
  int64_t b[4];
  distrib("DDI_Distrib", false, 0, handle, rank, (ilo && ihi && jlo && jhi) ? b : nullptr);
  bounds_out(b, ilo, ihi, jlo, jhi);
}

void DDI_NDistrib(int handle, int node, int* ilo, int* ihi, int* jlo, int* jhi) {
  int64_t b[4];
  distrib("DDI_NDistrib", true, 0, handle, node, (ilo && ihi && jlo && jhi) ? b : nullptr);
  bounds_out(b, ilo, ihi, jlo, jhi);
}

void DDI_DistribP(int handle, int rank, DDI_Patch* p) {
  int64_t b[4];
  distrib("DDI_DistribP", false, 0, handle, rank, p ? b : nullptr);
  if (p) bounds_out(b, &p->ilo, &p->ihi, &p->jlo, &p->jhi);
}

void DDI_NDistribP(int handle, int node, DDI_Patch* p) {
  int64_t b[4];
  distrib("DDI_NDistribP", true, 0, handle, node, p ? b : nullptr);
  if (p) bounds_out(b, &p->ilo, &p->ihi, &p->jlo, &p->jhi);
}

void DDI_Get(int h, int ilo, int ihi, int jlo, int jhi, void* buff) {
  patch_op("DDI_Get", PatchOp::kGet, 0, h, ilo, ihi, jlo, jhi, buff, 1.0);
}
void DDI_Put(int h, int ilo, int ihi, int jlo, int jhi, void* buff) {
  patch_op("DDI_Put", PatchOp::kPut, 0, h, ilo, ihi, jlo, jhi, buff, 1.0);
}
void DDI_Acc(int h, int ilo, int ihi, int jlo, int jhi, void* buff) {
  patch_op("DDI_Acc", PatchOp::kAcc, 0, h, ilo, ihi, jlo, jhi, buff, 1.0);
}
void DDI_GetAcc(int h, int ilo, int ihi, int jlo, int jhi, void* buff) {
  patch_op("DDI_GetAcc", PatchOp::kGetAcc, 0, h, ilo, ihi, jlo, jhi, buff, 1.0);
}

static void patch_p(const char* call, PatchOp op, int h, const DDI_Patch* p, double alpha,
                    void* buff) {
  if (!p) return fail(call, "patch is null");
  patch_op(call, op, 0, h, p->ilo, p->ihi, p->jlo, p->jhi, buff, alpha);
}

void DDI_GetP(int h, DDI_Patch* p, void* buff) { patch_p("DDI_GetP", PatchOp::kGet, h, p, 1, buff); }
void DDI_PutP(int h, DDI_Patch* p, void* buff) { patch_p("DDI_PutP", PatchOp::kPut, h, p, 1, buff); }
void DDI_AccP(int h, DDI_Patch* p, double alpha, void* buff) {
  patch_p("DDI_AccP", PatchOp::kAcc, h, p, alpha, buff);
}
void DDI_GetAccP(int h, DDI_Patch* p, void* buff) {
  patch_p("DDI_GetAccP", PatchOp::kGetAcc, h, p, 1, buff);
}

static void next(const char* call, bool global, size_t* counter) {
  run(call, [&]() -> int {
    DDI_TRY(need_up());
    if (!counter) return reject("counter pointer is null");
    int64_t v = 0;
    DDI_TRY(pario_counter_next(global ? state().gdlb : working().dlb, &v));
    *counter = static_cast<size_t>(v);
    return PARIO_OK;
  });
}

static void reset(const char* call, bool global) {
  run(call, [&]() -> int {
    DDI_TRY(need_up());
    return pario_counter_reset(global ? state().gdlb : working().dlb);
  });
}

void DDI_DLBNext(size_t* counter) { next("DDI_DLBNext", false, counter); }
void DDI_DLBReset(void) { reset("DDI_DLBReset", false); }
void DDI_GDLBNext(size_t* counter) { next("DDI_GDLBNext", true, counter); }
void DDI_GDLBReset(void) { reset("DDI_GDLBReset", true); }

void DDI_ProcDLB_create(int* handle) {
  run("DDI_ProcDLB_create", [&]() -> int {
    DDI_TRY(need_up());
    if (!handle) return reject("handle pointer is null");
    pario_counter_t c = PARIO_COUNTER_NULL;
    DDI_TRY(pario_counter_create(working().group, &c));
    *handle = slot_for(state().proc_dlb, c);
    return PARIO_OK;
  });
}

void DDI_ProcDLB_destroy(int handle) {
  run("DDI_ProcDLB_destroy", [&]() -> int {
    pario_counter_t c;
    DDI_TRY(counter_of(handle, &c));
    state().proc_dlb[handle] = PARIO_COUNTER_NULL;
    return pario_counter_destroy(&c);
  });
}

void DDI_ProcDLB_reset(int handle) {
  run("DDI_ProcDLB_reset", [&]() -> int {
    pario_counter_t c;
    DDI_TRY(counter_of(handle, &c));
    return pario_counter_reset(c);
  });
}

void DDI_ProcDLB_next(int handle, int proc, int* counter) {
  run("DDI_ProcDLB_next", [&]() -> int {
    pario_counter_t c;
    DDI_TRY(counter_of(handle, &c));
    if (!counter) return reject("counter pointer is null");
    // A negative proc would be pario's PARIO_COUNTER_GLOBAL (-1), another
    // counter: refused, as is a Fortran rank narrowed to -1.
    if (proc < 0) return reject("proc " + std::to_string(proc) + " is negative");
    int64_t v = 0;
    DDI_TRY(pario_counter_fetch_add(c, proc, 1, &v));
    *counter = static_cast<int>(v);
    return PARIO_OK;
  });
}

void DDI_Group_create(int ngroups, int* world, int* group, int* masters) {
  group_create("DDI_Group_create", ngroups, nullptr);
  if (last_code != PARIO_OK) return;
  if (world) *world = DDI_WORLD;
  if (group) *group = DDI_GROUP;
  if (masters) *masters = DDI_MASTERS;
}

void DDI_Group_create_custom(int ngroups, int* group_sizes, int* world, int* group, int* masters) {
  if (!group_sizes || ngroups < 1) {
    return fail("DDI_Group_create_custom", "group_sizes is null or ngroups < 1");
  }
  run("DDI_Group_create_custom", [&]() -> int {
    DDI_TRY(need_up());
    int np = 0;
    DDI_TRY(pario_group_size(state().scopes[DDI_WORLD].group, &np));
    return ngroups > np ? reject(std::to_string(ngroups) + " groups: need 1.." + std::to_string(np)) : PARIO_OK;
  });
  if (last_code != PARIO_OK) return;
  const std::vector<int64_t> sizes(group_sizes, group_sizes + ngroups);  // at most one per rank
  group_create("DDI_Group_create_custom", ngroups, sizes.data());
  if (last_code != PARIO_OK) return;
  if (world) *world = DDI_WORLD;
  if (group) *group = DDI_GROUP;
  if (masters) *masters = DDI_MASTERS;
}

void DDI_Scope(int scope) {
  run("DDI_Scope", [&]() -> int {
    DDI_TRY(need_up());
    if (scope < DDI_WORLD || scope > DDI_MASTERS) {
      return reject("scope " + std::to_string(scope) +
                    " is not DDI_WORLD (0), DDI_GROUP (1) or DDI_MASTERS (2)");
    }
    state().working = scope;
    return PARIO_OK;
  });
}

int DDI_Last_error(char* message, size_t length) {
  if (message && length > 0) std::snprintf(message, length, "%s", last_message.c_str());
  return last_code;
}

}  // extern "C"
