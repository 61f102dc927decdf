// The classic DRA API in pario_dra_ga: g_a is a Global Arrays handle.
//
// The adapter uses only GA's public C API: NGA_Distribution64 tells pario
// which rank holds what (so each chunk is moved by the rank holding most
// of it), NGA_Access64 gives pario a rank's own patch (chunks inside it
// are read straight into it and written straight from it), and
// NGA_Get64/NGA_Put64 move everything else. GA's process ids are the ranks
// of MPI_COMM_WORLD, which is pario's world group.
#include <ga.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "compat/classic.h"
#include "compat/dra_internal.h"

namespace pario::dra {
namespace {

struct GaArray {
  int handle = 0;
  int ndim = 0;
  int64_t dims[PARIO_ARRAY_MAX_DIMS] = {};
  int64_t my_lo[PARIO_ARRAY_MAX_DIMS] = {}, my_hi[PARIO_ARRAY_MAX_DIMS] = {};
  size_t esize = 0;
  void* own = nullptr;  // the own patch, accessed while a transfer lives (null: none, or not dense)
  GaArray() = default;
  GaArray(const GaArray&) = delete;
  GaArray& operator=(const GaArray&) = delete;
  ~GaArray() {
    if (own) NGA_Release_update64(handle, my_lo, my_hi);  // a read may have changed it
  }
};

// Inclusive GA bounds of a pario section.
void bounds(const GaArray& a, const int64_t start[], const int64_t count[], int64_t lo[], int64_t hi[]) {
  for (int d = 0; d < a.ndim; ++d) lo[d] = start[d], hi[d] = start[d] + count[d] - 1;
}

bool empty(const GaArray& a, const int64_t count[]) {
  for (int d = 0; d < a.ndim; ++d) {
    if (count[d] <= 0) return true;
  }
  return false;
}

bool mine(const GaArray& a, const int64_t lo[], const int64_t hi[]) {
  for (int d = 0; d < a.ndim; ++d) {
    if (lo[d] < a.my_lo[d] || hi[d] > a.my_hi[d]) return false;
  }
  return true;
}

// Copies a section between two C-order buffers with leading dimensions
// (ndim-1 entries each): rows of the last dimension at a time.
void copy_section(const GaArray& a, const int64_t count[], char* dst, const int64_t dst_ld[], const char* src,
                  const int64_t src_ld[]) {
  const int nd = a.ndim;
  const size_t row = static_cast<size_t>(count[nd - 1]) * a.esize;
  int64_t at[PARIO_ARRAY_MAX_DIMS] = {};
  for (;;) {
    int64_t d_off = 0, s_off = 0;
    for (int d = 0; d < nd - 1; ++d) {
      d_off = (d_off + at[d]) * dst_ld[d];
      s_off = (s_off + at[d]) * src_ld[d];
    }
    std::memcpy(dst + d_off * a.esize, src + s_off * a.esize, row);
    int d = nd - 2;
    while (d >= 0 && ++at[d] == count[d]) at[d--] = 0;
    if (d < 0) return;
  }
}

int distribution(void* ctx, int rank, int64_t start[], int64_t count[]) {
  const GaArray& a = *static_cast<GaArray*>(ctx);
  int64_t lo[PARIO_ARRAY_MAX_DIMS], hi[PARIO_ARRAY_MAX_DIMS];
  NGA_Distribution64(a.handle, rank, lo, hi);
  for (int d = 0; d < a.ndim; ++d) {
    start[d] = lo[d];
    count[d] = hi[d] >= lo[d] && lo[d] >= 0 ? hi[d] - lo[d] + 1 : 0;
  }
  return PARIO_OK;
}

int get(void* ctx, const int64_t start[], const int64_t count[], void* buf, const int64_t ld[]) {
  const GaArray& a = *static_cast<GaArray*>(ctx);
  if (empty(a, count)) return PARIO_OK;
  int64_t lo[PARIO_ARRAY_MAX_DIMS], hi[PARIO_ARRAY_MAX_DIMS], l[PARIO_ARRAY_MAX_DIMS];
  bounds(a, start, count, lo, hi);
  for (int d = 0; d + 1 < a.ndim; ++d) l[d] = ld[d];
  if (mine(a, lo, hi)) {  // this rank's patch: a memory copy
    void* ptr = nullptr;
    int64_t patch_ld[PARIO_ARRAY_MAX_DIMS];
    NGA_Access64(a.handle, lo, hi, &ptr, patch_ld);
    copy_section(a, count, static_cast<char*>(buf), l, static_cast<const char*>(ptr), patch_ld);
    NGA_Release64(a.handle, lo, hi);
  } else {
    NGA_Get64(a.handle, lo, hi, buf, l);
  }
  return PARIO_OK;
}

int put(void* ctx, const int64_t start[], const int64_t count[], const void* buf, const int64_t ld[]) {
  const GaArray& a = *static_cast<GaArray*>(ctx);
  if (empty(a, count)) return PARIO_OK;
  int64_t lo[PARIO_ARRAY_MAX_DIMS], hi[PARIO_ARRAY_MAX_DIMS], l[PARIO_ARRAY_MAX_DIMS];
  bounds(a, start, count, lo, hi);
  for (int d = 0; d + 1 < a.ndim; ++d) l[d] = ld[d];
  if (mine(a, lo, hi)) {
    void* ptr = nullptr;
    int64_t patch_ld[PARIO_ARRAY_MAX_DIMS];
    NGA_Access64(a.handle, lo, hi, &ptr, patch_ld);
    copy_section(a, count, static_cast<char*>(ptr), patch_ld, static_cast<const char*>(buf), l);
    NGA_Release_update64(a.handle, lo, hi);
  } else {
    NGA_Put64(a.handle, lo, hi, const_cast<void*>(buf), l);
  }
  return PARIO_OK;
}

int sync(void*) {
  GA_Sync();
  return PARIO_OK;
}

int access(void* ctx, void** ptr_out) {
  *ptr_out = static_cast<GaArray*>(ctx)->own;
  return PARIO_OK;
}

// Accesses the own patch for the transfer's life, if it is dense (GA's
// patches are, unless the array has ghost cells).
void access_own_patch(GaArray* a) {
  for (int d = 0; d < a->ndim; ++d) {
    if (a->my_hi[d] < a->my_lo[d]) return;  // holds nothing
  }
  void* ptr = nullptr;
  int64_t ld[PARIO_ARRAY_MAX_DIMS] = {};
  NGA_Access64(a->handle, a->my_lo, a->my_hi, &ptr, ld);
  bool dense = ptr != nullptr;
  for (int d = 0; d + 1 < a->ndim; ++d) dense &= ld[d] == a->my_hi[d + 1] - a->my_lo[d + 1] + 1;
  if (dense) {
    a->own = ptr;
  } else if (ptr) {
    NGA_Release64(a->handle, a->my_lo, a->my_hi);
  }
}

}  // namespace

int memory_side(int g_a, MemorySide* out) {
  *out = MemorySide{};
  if (!GA_Valid_handle(g_a)) {
    return compat::fail(PARIO_ERR_INVALID_ARGUMENT, "global array %d is not a valid Global Arrays handle", g_a);
  }
  if (GA_Get_pgroup(g_a) != GA_Pgroup_get_world()) {
    return compat::fail(PARIO_ERR_UNSUPPORTED, "global array %d lives on a GA process group; DRA needs all processes",
                        g_a);
  }
  auto a = std::make_shared<GaArray>();
  a->handle = g_a;
  int type = 0;
  NGA_Inquire64(g_a, &type, &a->ndim, a->dims);
  const int pario_type = pario_type_of(type);
  if (!pario_type) return compat::fail(PARIO_ERR_UNSUPPORTED, "global array %d: GA type %d", g_a, type);
  const size_t sizes[] = {0, 8, 4, 4, 8, 16, 1, 1, 2, 2, 4, 8, 8};  // by PARIO_TYPE_*
  a->esize = sizes[pario_type];
  int64_t count[PARIO_ARRAY_MAX_DIMS];
  distribution(a.get(), GA_Nodeid(), a->my_lo, count);
  for (int d = 0; d < a->ndim; ++d) a->my_hi[d] = a->my_lo[d] + count[d] - 1;
  access_own_patch(a.get());
  pario_array_ops_t& o = out->ops;
  o.context = a.get();
  o.name = "Global Arrays handle";
  o.type = pario_type;
  o.ndim = a->ndim;
  std::copy(a->dims, a->dims + a->ndim, o.dims);
  o.distribution = distribution;
  o.get = get;
  o.put = put;
  o.sync = sync;
  o.access = access;
  out->keep = a;
  return PARIO_OK;
}

}  // namespace pario::dra
