// How a conversion runs.
//
// One kernel, run<From, To>, is instantiated for each of the 12 x 12 type
// pairs by two nested switches over the element types (dispatch), so no
// pair is written by hand. It works through the buffer in blocks of
// kBlock elements:
//
//   1. copy the block of src into a local, aligned array (memcpy: src may
//      be unaligned, and the copy is one L1-resident move);
//   2. swap its bytes there when src is in a foreign order (convert_from);
//   3. check the whole block with branch-free loops that only OR the
//      per-element verdicts, which the compiler vectorises (block_fits);
//      only when the block holds a bad element is it scanned again for
//      the first one;
//   4. convert the good elements into a second local array, swap them
//      there when dst is in a foreign order (convert), and copy them out.
//
// Pairs whose every value fits (int8 to int64, float to double, any
// integer to double) have a check that folds to a constant, so step 3
// vanishes. The same type in the same order is one memcpy, and the same
// type in another order one bswap loop from src to dst (step 2 or 4 alone),
// which never goes through the blocks.
//
// The range checks are exact. Float to integer truncates toward zero, so
// v fits an integer type of range [lo, hi] when lo - 1 < v < hi + 1;
// lo and hi + 1 are powers of two (or 0), exact in float and double, and
// where lo - 1 rounds back to lo the type has no value strictly between
// them, so v >= lo is the same test. NaN fails every comparison, and
// infinities fall outside, so both are refused without a separate test.
#include "base/convert.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace pario {
namespace {

// A complex element as two reals (what C99's _Complex and std::complex
// hold), a plain aggregate so that loops over it vectorise.
template <typename R>
struct Cx {
  R re, im;
};

template <typename T>
struct Parts {  // a real element: itself, one part
  using Real = T;
  static constexpr size_t kCount = 1;
};
template <typename R>
struct Parts<Cx<R>> {
  using Real = R;
  static constexpr size_t kCount = 2;
};

template <typename T>
struct Tag {
  using type = T;
};

// Calls fn(Tag<T>{}) with the C++ type T of t.
template <typename Fn>
Status dispatch(ElementType t, Fn&& fn) {
  switch (t) {
    case ElementType::kDouble: return fn(Tag<double>{});
    case ElementType::kFloat: return fn(Tag<float>{});
    case ElementType::kInt32: return fn(Tag<int32_t>{});
    case ElementType::kInt64: return fn(Tag<int64_t>{});
    case ElementType::kComplexDouble: return fn(Tag<Cx<double>>{});
    case ElementType::kInt8: return fn(Tag<int8_t>{});
    case ElementType::kUInt8: return fn(Tag<uint8_t>{});
    case ElementType::kInt16: return fn(Tag<int16_t>{});
    case ElementType::kUInt16: return fn(Tag<uint16_t>{});
    case ElementType::kUInt32: return fn(Tag<uint32_t>{});
    case ElementType::kUInt64: return fn(Tag<uint64_t>{});
    case ElementType::kComplexFloat: return fn(Tag<Cx<float>>{});
  }
  return Status(Code::kInvalidArgument, "unknown element type " + std::to_string(static_cast<int>(t)));
}

// ---- byte swapping ----

inline uint8_t bswap(uint8_t v) { return v; }
inline uint16_t bswap(uint16_t v) { return __builtin_bswap16(v); }
inline uint32_t bswap(uint32_t v) { return __builtin_bswap32(v); }
inline uint64_t bswap(uint64_t v) { return __builtin_bswap64(v); }

template <size_t S>
using Word = std::conditional_t<S == 1, uint8_t,
                                std::conditional_t<S == 2, uint16_t, std::conditional_t<S == 4, uint32_t, uint64_t>>>;

// k words of S bytes from src, byte-reversed, to dst (src == dst allowed:
// each word is read before it is written).
template <size_t S>
void swap_words(const void* src, void* dst, size_t k) {
  const auto* s = static_cast<const unsigned char*>(src);
  auto* d = static_cast<unsigned char*>(dst);
  for (size_t i = 0; i < k; ++i) {
    Word<S> w;
    std::memcpy(&w, s + i * S, S);
    w = bswap(w);
    std::memcpy(d + i * S, &w, S);
  }
}

// n elements of T from src to dst (may be the same), each part swapped.
template <typename T>
void swap_elements(const void* src, void* dst, size_t n) {
  using R = typename Parts<T>::Real;
  if constexpr (sizeof(R) > 1) {
    swap_words<sizeof(R)>(src, dst, n * Parts<T>::kCount);
  } else if (src != dst) {
    std::memcpy(dst, src, n * sizeof(T));
  }
}

// ---- range checks ----

// Whether every value of integer type F is one of integer type T.
template <typename T, typename F>
constexpr bool int_covers() {
  using LT = std::numeric_limits<T>;
  using LF = std::numeric_limits<F>;
  const bool low = !LF::is_signed || (LT::is_signed && sizeof(T) >= sizeof(F));
  const bool high = static_cast<uint64_t>(LT::max()) >= static_cast<uint64_t>(LF::max());
  return low && high;
}

// Whether the real value v of type F converts to real type T with no loss
// of range (see the essay above for float to integer). Branch-free: & on
// bools, so that the loops calling it vectorise.
template <typename T, typename F>
inline bool fits(F v) {
  using LT = std::numeric_limits<T>;
  using LF = std::numeric_limits<F>;
  if constexpr (std::is_integral_v<T> && std::is_integral_v<F>) {
    if constexpr (int_covers<T, F>()) {
      return true;
    } else {
      // T's bounds clipped to F's, so both are values of F.
      constexpr F hi = static_cast<uint64_t>(LT::max()) >= static_cast<uint64_t>(LF::max())
                           ? LF::max()
                           : static_cast<F>(LT::max());
      if constexpr (LF::is_signed) {
        constexpr F lo = !LT::is_signed ? F(0) : sizeof(T) >= sizeof(F) ? LF::min() : static_cast<F>(LT::min());
        return (v >= lo) & (v <= hi);
      } else {
        return v <= hi;
      }
    }
  } else if constexpr (std::is_integral_v<T>) {  // floating point into an integer
    constexpr F lo = static_cast<F>(LT::min());
    constexpr F below = lo - F(1);
    constexpr F above = static_cast<F>(LT::max() / 2 + 1) * F(2);  // hi + 1, a power of two
    if constexpr (below == lo) {
      return (v >= lo) & (v < above);
    } else {
      return (v > below) & (v < above);
    }
  } else if constexpr (std::is_same_v<T, float> && std::is_same_v<F, double>) {
    // Finite beyond FLT_MAX is refused; NaN and the infinities stay what they are.
    const double a = std::fabs(v);
    return !((a > double{FLT_MAX}) & (a < std::numeric_limits<double>::infinity()));
  } else {  // into double, or integers and float into float
    return true;
  }
}

// Whether element v of type From converts to type To (both real or Cx).
template <typename To, typename From>
inline bool element_fits(const From& v) {
  using TR = typename Parts<To>::Real;
  using FR = typename Parts<From>::Real;
  if constexpr (Parts<From>::kCount == 1) {
    return fits<TR>(v);
  } else if constexpr (Parts<To>::kCount == 2) {
    return fits<TR>(v.re) & fits<TR>(v.im);
  } else {
    return fits<TR>(v.re) & (v.im == FR(0));
  }
}

// Whether no value of From can fail to convert to To (the check folds away).
template <typename To, typename From>
constexpr bool never_fails() {
  using TR = typename Parts<To>::Real;
  using FR = typename Parts<From>::Real;
  if (Parts<From>::kCount == 2 && Parts<To>::kCount == 1) return false;
  if constexpr (std::is_integral_v<TR> && std::is_integral_v<FR>) return int_covers<TR, FR>();
  if constexpr (std::is_integral_v<TR>) return false;
  return !(std::is_same_v<TR, float> && std::is_same_v<FR, double>);
}

template <typename To, typename From>
inline To element_cast(const From& v) {
  using TR = typename Parts<To>::Real;
  if constexpr (Parts<To>::kCount == 2) {
    if constexpr (Parts<From>::kCount == 2) {
      return To{static_cast<TR>(v.re), static_cast<TR>(v.im)};
    } else {
      return To{static_cast<TR>(v), TR(0)};
    }
  } else if constexpr (Parts<From>::kCount == 2) {
    return static_cast<To>(v.re);
  } else {
    return static_cast<To>(v);
  }
}

// ---- messages (not templates: the message is built once, on failure) ----

template <typename R>
std::string real_text(R v) {
  if constexpr (std::is_integral_v<R>) {
    return std::is_signed_v<R> ? std::to_string(static_cast<long long>(v))
                               : std::to_string(static_cast<unsigned long long>(v));
  } else {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.*g", std::is_same_v<R, float> ? 9 : 17, static_cast<double>(v));
    return buf;
  }
}

template <typename T>
std::string value_text(const T& v) {
  if constexpr (Parts<T>::kCount == 2) {
    return "(" + real_text(v.re) + ", " + real_text(v.im) + ")";
  } else {
    return real_text(v);
  }
}

Status out_of_range(ElementType from, ElementType to, size_t index, const std::string& value, bool imaginary) {
  std::string why = imaginary ? ", whose imaginary part is not 0" : ", out of the range of " + std::string(element_name(to));
  return Status(Code::kOutOfRange, std::string("converting ") + element_name(from) + " to " + element_name(to) +
                                       ": element " + std::to_string(index) + " is " + value + why);
}

// ---- the kernel ----

// Elements per block: the two local arrays take at most 2 x 16 KiB, within
// L1 beside the source and destination streams on most cores.
constexpr size_t kBlock = 1024;

// Whether all m elements at in convert to To. Branch-free loops that OR
// the verdicts, in an accumulator as wide as From's parts: mixing widths
// keeps x86-64's baseline SSE2 from vectorising them. Floating-point
// verdicts go through an array of 0.0 and 1.0 first: SSE2 makes a
// comparison of doubles into a blend of doubles, but not into 64-bit
// integers (GCC 12 left that loop scalar: double to int32 converted 164
// million elements a second here, 317 million with the flags). 64-bit
// integer sources stay scalar: SSE2 has no 64-bit integer comparison.
template <typename To, typename From>
bool block_fits(const From* in, size_t m) {
  using FR = typename Parts<From>::Real;
  Word<sizeof(FR)> bad = 0;
  if constexpr (std::is_floating_point_v<FR>) {
    FR flag[kBlock];
    for (size_t i = 0; i < m; ++i) flag[i] = element_fits<To>(in[i]) ? FR(0) : FR(1);
    Word<sizeof(FR)> bits[kBlock];
    std::memcpy(bits, flag, m * sizeof(FR));
    for (size_t i = 0; i < m; ++i) bad |= bits[i];
  } else {
    for (size_t i = 0; i < m; ++i) bad |= !element_fits<To>(in[i]);
  }
  return bad == 0;
}

// Converts n elements, from src to dst, swapping before (swap_in) or after
// (swap_out) the conversion.
template <typename From, typename To>
Status run(ElementType from, ElementType to, const unsigned char* src, unsigned char* dst, size_t n,
           bool swap_in, bool swap_out, size_t* first_bad) {
  From in[kBlock];
  To out[kBlock];
  for (size_t done = 0; done < n; done += kBlock) {
    const size_t m = std::min(kBlock, n - done);
    std::memcpy(in, src + done * sizeof(From), m * sizeof(From));
    if (swap_in) swap_elements<From>(in, in, m);
    size_t good = m;
    if constexpr (!never_fails<To, From>()) {
      if (!block_fits<To>(in, m)) {
        good = 0;
        while (element_fits<To>(in[good])) ++good;
      }
    }
    for (size_t i = 0; i < good; ++i) out[i] = element_cast<To>(in[i]);
    if (swap_out) swap_elements<To>(out, out, good);
    std::memcpy(dst + done * sizeof(To), out, good * sizeof(To));
    if (good < m) {
      if (first_bad) *first_bad = done + good;
      bool imaginary = false;
      if constexpr (Parts<From>::kCount == 2 && Parts<To>::kCount == 1) {
        imaginary = fits<To>(in[good].re);
      }
      return out_of_range(from, to, done + good, value_text(in[good]), imaginary);
    }
  }
  return Status::Ok();
}

// run() without the conversion: the first element of n that does not fit.
template <typename From, typename To>
Status check_only(ElementType from, ElementType to, const unsigned char* src, size_t n, size_t* first_bad) {
  if constexpr (!never_fails<To, From>()) {
    From in[kBlock];
    for (size_t done = 0; done < n; done += kBlock) {
      const size_t m = std::min(kBlock, n - done);
      std::memcpy(in, src + done * sizeof(From), m * sizeof(From));
      if (block_fits<To>(in, m)) continue;
      size_t good = 0;
      while (element_fits<To>(in[good])) ++good;
      if (first_bad) *first_bad = done + good;
      bool imaginary = false;
      if constexpr (Parts<From>::kCount == 2 && Parts<To>::kCount == 1) imaginary = fits<To>(in[good].re);
      return out_of_range(from, to, done + good, value_text(in[good]), imaginary);
    }
  } else {
    (void)from, (void)to, (void)src, (void)n, (void)first_bad;
  }
  return Status::Ok();
}

Status check_args(ElementType from, ElementType to, ByteOrder order, const void* src, const void* dst, size_t n) {
  for (ElementType t : {from, to}) {
    if (!valid_element_type(static_cast<int>(t))) {
      return Status(Code::kInvalidArgument, "unknown element type " + std::to_string(static_cast<int>(t)));
    }
  }
  const int o = static_cast<int>(order);
  if (o < 0 || o > 2) return Status(Code::kInvalidArgument, "unknown byte order " + std::to_string(o));
  if (n > 0 && (!src || !dst)) return Status(Code::kInvalidArgument, "a null buffer for " + std::to_string(n) + " elements");
  return Status::Ok();
}

// Same type: a copy, or a swapping copy (in place when dst == src).
void same_type(ElementType type, const void* src, void* dst, size_t n, bool swap) {
  if (!swap) {
    if (dst != src) std::memcpy(dst, src, n * element_size(type));
    return;
  }
  (void)dispatch(type, [&](auto tag) {
    swap_elements<typename decltype(tag)::type>(src, dst, n);
    return Status::Ok();
  });
}

Status convert_pair(ElementType from, const void* src, ElementType to, void* dst, size_t n, bool swap_in,
                    bool swap_out, size_t* first_bad) {
  const auto* s = static_cast<const unsigned char*>(src);
  auto* d = static_cast<unsigned char*>(dst);
  return dispatch(from, [&](auto ftag) {
    return dispatch(to, [&](auto ttag) {
      return run<typename decltype(ftag)::type, typename decltype(ttag)::type>(from, to, s, d, n, swap_in, swap_out,
                                                                                 first_bad);
    });
  });
}

// Both directions: src in `order` when reading (swapped before the
// conversion), dst in `order` otherwise (swapped after it).
Status convert_any(ElementType from, const void* src, ElementType to, void* dst, size_t n, ByteOrder order,
                   bool reading, size_t* first_bad) {
  PARIO_RETURN_IF_ERROR(check_args(from, to, order, src, dst, n));
  if (n == 0) return Status::Ok();
  const bool swap = needs_swap(order);
  if (from == to) {
    same_type(from, src, dst, n, swap);
    return Status::Ok();
  }
  return convert_pair(from, src, to, dst, n, reading && swap, !reading && swap, first_bad);
}

}  // namespace

bool conversion_can_fail(ElementType from, ElementType to) {
  if (!valid_element_type(static_cast<int>(from)) || !valid_element_type(static_cast<int>(to))) return false;
  bool can = false;
  (void)dispatch(from, [&](auto ftag) {
    return dispatch(to, [&](auto ttag) {
      can = !never_fails<typename decltype(ttag)::type, typename decltype(ftag)::type>();
      return Status::Ok();
    });
  });
  return can;
}

Status check_convertible(ElementType from, const void* src, ElementType to, size_t n, size_t* first_bad) {
  PARIO_RETURN_IF_ERROR(check_args(from, to, ByteOrder::kNative, src, src, n));
  if (n == 0 || from == to) return Status::Ok();
  const auto* s = static_cast<const unsigned char*>(src);
  return dispatch(from, [&](auto ftag) {
    return dispatch(to, [&](auto ttag) {
      return check_only<typename decltype(ftag)::type, typename decltype(ttag)::type>(from, to, s, n, first_bad);
    });
  });
}

bool needs_swap(ByteOrder order) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  return order == ByteOrder::kBig;
#else
  return order == ByteOrder::kLittle;
#endif
}

Status convert(ElementType from, const void* src, ElementType to, void* dst, size_t n, ByteOrder order,
               size_t* first_bad) {
  return convert_any(from, src, to, dst, n, order, false, first_bad);
}

Status convert_from(ElementType from, const void* src, ByteOrder order, ElementType to, void* dst, size_t n,
                    size_t* first_bad) {
  return convert_any(from, src, to, dst, n, order, true, first_bad);
}

void swap_bytes(ElementType type, void* buf, size_t n) {
  if (valid_element_type(static_cast<int>(type)) && n > 0) same_type(type, buf, buf, n, true);
}

}  // namespace pario
