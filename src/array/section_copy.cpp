#include "array/section_copy.h"

#include <complex>
#include <cstring>

// ThreadSanitizer builds get one version: target_clones resolves through
// an ifunc, which the loader runs before TSan's runtime is up, and the
// instrumented resolver crashes every program at load (GCC 12).
#if defined(__SANITIZE_THREAD__)
#define PARIO_ARITH_CLONES
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PARIO_ARITH_CLONES
#endif
#endif
#ifndef PARIO_ARITH_CLONES
#define PARIO_ARITH_CLONES [[gnu::target_clones("avx2", "default")]]
#endif

namespace pario::array {
namespace {

// The arithmetic kernels are inlined (always_inline) into arith(), which
// is compiled twice (target_clones): for AVX2 and for the baseline x86-64
// (SSE2), the loader picking one by the CPU. Accumulate is bound by the
// caches, and on an AMD EPYC (Zen 4) 128-bit loads and stores left a
// third of the bandwidth unused: node-local accumulate of 1.6 MB ran at
// 0.68-0.82x raw MPI_Accumulate, whose add is Open MPI's AVX kernel
// (op/avx), and at 1.08-1.25x with these loops built for AVX2 (issue 30).
// __restrict: patch and buffer never overlap, which lets the compiler
// vectorise the loops.
template <typename T>
[[gnu::always_inline]] inline void add_scaled(T* __restrict dst, const T* __restrict src, int64_t n,
                                              const void* alpha) {
  if (!alpha) {
    for (int64_t i = 0; i < n; ++i) dst[i] += src[i];
  } else {
    const T a = *static_cast<const T*>(alpha);
    for (int64_t i = 0; i < n; ++i) dst[i] += a * src[i];
  }
}

template <typename T>
[[gnu::always_inline]] inline void fetch_add(T* __restrict dst, T* __restrict inout, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const T old = dst[i];
    dst[i] += inout[i];
    inout[i] = old;
  }
}

template <typename T>
[[gnu::always_inline]] inline void copy_scaled(T* dst, const T* src, int64_t n,
                                               const void* alpha) {  // may be in place
  const T a = *static_cast<const T*>(alpha);
  for (int64_t i = 0; i < n; ++i) dst[i] = a * src[i];
}

enum class Arith { kAdd, kFetchAdd, kScale };

template <typename T>
[[gnu::always_inline]] inline void arith_of(Arith what, char* dst, char* src, int64_t n,
                                            const void* alpha) {
  T* d = reinterpret_cast<T*>(dst);
  T* s = reinterpret_cast<T*>(src);
  switch (what) {
    case Arith::kAdd: add_scaled(d, s, n, alpha); break;
    case Arith::kFetchAdd: fetch_add(d, s, n); break;
    case Arith::kScale: copy_scaled(d, s, n, alpha); break;
  }
}

// One switch over the types with no lambda in between, so that every
// kernel lands inside the clone that calls it.
PARIO_ARITH_CLONES void arith(ElementType type, Arith what, char* dst,
                                                     char* src, int64_t n, const void* alpha) {
  switch (type) {
    case ElementType::kDouble: arith_of<double>(what, dst, src, n, alpha); break;
    case ElementType::kFloat: arith_of<float>(what, dst, src, n, alpha); break;
    case ElementType::kInt32: arith_of<int32_t>(what, dst, src, n, alpha); break;
    case ElementType::kInt64: arith_of<int64_t>(what, dst, src, n, alpha); break;
    case ElementType::kComplexDouble: arith_of<std::complex<double>>(what, dst, src, n, alpha); break;
    case ElementType::kInt8: arith_of<int8_t>(what, dst, src, n, alpha); break;
    case ElementType::kUInt8: arith_of<uint8_t>(what, dst, src, n, alpha); break;
    case ElementType::kInt16: arith_of<int16_t>(what, dst, src, n, alpha); break;
    case ElementType::kUInt16: arith_of<uint16_t>(what, dst, src, n, alpha); break;
    case ElementType::kUInt32: arith_of<uint32_t>(what, dst, src, n, alpha); break;
    case ElementType::kUInt64: arith_of<uint64_t>(what, dst, src, n, alpha); break;
    case ElementType::kComplexFloat: arith_of<std::complex<float>>(what, dst, src, n, alpha); break;
  }
}

template <typename Fn>
void dispatch(ElementType type, Fn&& fn) {
  switch (type) {
    case ElementType::kDouble: fn(double{}); break;
    case ElementType::kFloat: fn(float{}); break;
    case ElementType::kInt32: fn(int32_t{}); break;
    case ElementType::kInt64: fn(int64_t{}); break;
    case ElementType::kComplexDouble: fn(std::complex<double>{}); break;
    case ElementType::kInt8: fn(int8_t{}); break;
    case ElementType::kUInt8: fn(uint8_t{}); break;
    case ElementType::kInt16: fn(int16_t{}); break;
    case ElementType::kUInt16: fn(uint16_t{}); break;
    case ElementType::kUInt32: fn(uint32_t{}); break;
    case ElementType::kUInt64: fn(uint64_t{}); break;
    case ElementType::kComplexFloat: fn(std::complex<float>{}); break;
  }
}

void run(ElementType type, CopyOp op, char* patch, char* buf, int64_t n, const void* alpha) {
  const size_t bytes = static_cast<size_t>(n) * element_size(type);
  switch (op) {
    case CopyOp::kRead: std::memcpy(buf, patch, bytes); break;
    case CopyOp::kWrite: std::memcpy(patch, buf, bytes); break;
    case CopyOp::kAccumulate:
      arith(type, Arith::kAdd, patch, buf, n, is_one(type, alpha) ? nullptr : alpha);
      break;
    case CopyOp::kFetchAccumulate: arith(type, Arith::kFetchAdd, patch, buf, n, nullptr); break;
  }
}

}  // namespace

bool is_one(ElementType type, const void* alpha) {
  if (!alpha) return true;
  bool one = false;
  dispatch(type, [&](auto zero) {
    using T = decltype(zero);
    one = *static_cast<const T*>(alpha) == T(1);
  });
  return one;
}

void scale_copy(ElementType type, const void* alpha, const char* src, char* dst, int64_t n) {
  if (n <= 0) return;  // an empty patch may have no storage at all
  if (is_one(type, alpha)) {
    std::memcpy(dst, src, static_cast<size_t>(n) * element_size(type));
    return;
  }
  arith(type, Arith::kScale, dst, const_cast<char*>(src), n, alpha);
}

void scale_in_place(ElementType type, const void* alpha, char* data, int64_t n) {
  scale_copy(type, alpha, data, data, n);
}

void copy_piece(ElementType type, CopyOp op, const Box& piece, const Box& patch, char* patch_base,
                const Box& section, char* buf, const Shape& buf_shape, const void* alpha) {
  const int n = piece.ndim;
  const int64_t esize = static_cast<int64_t>(element_size(type));
  // Element strides of both layouts.
  Shape patch_stride{}, buf_stride{};
  int64_t ps = 1, bs = 1;
  for (int d = n - 1; d >= 0; --d) {
    patch_stride[d] = ps;
    buf_stride[d] = bs;
    ps *= patch.count[d];
    bs *= buf_shape[d];
  }
  // The innermost dimensions the piece spans fully on both sides are one
  // contiguous run; only the dimensions outside it need a loop.
  int j = n - 1;
  int64_t run_len = piece.count[n - 1];
  while (j > 0 && piece.count[j] == patch.count[j] && piece.count[j] == buf_shape[j]) {
    --j;
    run_len *= piece.count[j];
  }
  int64_t patch_off = 0, buf_off = 0;
  for (int d = 0; d < n; ++d) {
    patch_off += (piece.start[d] - patch.start[d]) * patch_stride[d];
    buf_off += (piece.start[d] - section.start[d]) * buf_stride[d];
  }
  // Its own odometer, not for_each_row: the offsets step by one add per
  // row here, where for_each_row's callback recomputes them from the
  // index, and a node-local get of 8 bytes took 15 ns here, 19-26 ns on
  // for_each_row (80 x 80 doubles: 5-10% slower).
  std::array<int64_t, kMaxDims> at{};
  for (;;) {
    run(type, op, patch_base + patch_off * esize, buf + buf_off * esize, run_len, alpha);
    int d = j - 1;  // odometer over dimensions 0 .. j-1
    while (d >= 0) {
      patch_off += patch_stride[d];
      buf_off += buf_stride[d];
      if (++at[d] < piece.count[d]) break;
      patch_off -= at[d] * patch_stride[d];
      buf_off -= at[d] * buf_stride[d];
      at[d] = 0;
      --d;
    }
    if (d < 0) return;
  }
}

}  // namespace pario::array
