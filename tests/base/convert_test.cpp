// Element conversion and byte order (base/convert.h): every pair of the 12
// element types, checked against an oracle written here with long double
// arithmetic rather than with the templates under test. Serial.
#include "base/convert.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace pario {
namespace {

using Value = std::complex<long double>;  // any element's value, exactly

std::vector<ElementType> all_types() {
  std::vector<ElementType> out;
  for (int t = kFirstElementType; t <= kLastElementType; ++t) out.push_back(static_cast<ElementType>(t));
  return out;
}

bool is_float(ElementType t) { return t == ElementType::kFloat || t == ElementType::kComplexFloat; }
bool is_double(ElementType t) { return t == ElementType::kDouble || t == ElementType::kComplexDouble; }

// The range of an integer type, as long doubles (exact: 64-bit mantissa).
void int_range(ElementType t, long double* lo, long double* hi) {
  switch (t) {
    case ElementType::kInt8: *lo = INT8_MIN, *hi = INT8_MAX; return;
    case ElementType::kUInt8: *lo = 0, *hi = UINT8_MAX; return;
    case ElementType::kInt16: *lo = INT16_MIN, *hi = INT16_MAX; return;
    case ElementType::kUInt16: *lo = 0, *hi = UINT16_MAX; return;
    case ElementType::kInt32: *lo = INT32_MIN, *hi = INT32_MAX; return;
    case ElementType::kUInt32: *lo = 0, *hi = UINT32_MAX; return;
    case ElementType::kInt64: *lo = static_cast<long double>(INT64_MIN), *hi = static_cast<long double>(INT64_MAX); return;
    case ElementType::kUInt64: *lo = 0, *hi = static_cast<long double>(UINT64_MAX); return;
    default: *lo = *hi = 0;
  }
}

// Whether the real r is exactly a value of t's parts.
bool representable(ElementType t, long double r) {
  if (is_integer(t)) {
    long double lo, hi;
    int_range(t, &lo, &hi);
    return std::isfinite(r) && r == std::trunc(r) && r >= lo && r <= hi;
  }
  if (std::isnan(r)) return true;
  return is_float(t) ? static_cast<long double>(static_cast<float>(r)) == r
                     : static_cast<long double>(static_cast<double>(r)) == r;
}

bool representable(ElementType t, Value v) {
  return representable(t, v.real()) && (is_complex(t) ? representable(t, v.imag()) : v.imag() == 0);
}

// The oracle: whether converting v (a value of some type) to `to` is
// allowed, and the value it becomes.
bool converts(Value v, ElementType to, Value* result) {
  if (!is_complex(to) && v.imag() != 0) return false;  // NaN imaginary parts too
  auto part = [&](long double r, long double* out) {
    if (is_integer(to)) {
      if (!std::isfinite(r)) return false;
      long double lo, hi;
      int_range(to, &lo, &hi);
      *out = std::trunc(r);
      return *out >= lo && *out <= hi;
    }
    if (is_float(to) && std::isfinite(r) && std::fabs(r) > FLT_MAX) return false;
    *out = is_float(to) ? static_cast<long double>(static_cast<float>(r))
                        : static_cast<long double>(static_cast<double>(r));
    return true;
  };
  long double re = 0, im = 0;
  if (!part(v.real(), &re) || !part(v.imag(), &im)) return false;
  *result = Value(re, im);
  return true;
}

// Writes element i of a buffer of type t (v must be representable).
void put(ElementType t, void* buf, size_t i, Value v) {
  auto* p = static_cast<unsigned char*>(buf) + i * element_size(t);
  auto store = [&](auto x) { std::memcpy(p, &x, sizeof x); };
  const long double r = v.real();
  switch (t) {
    case ElementType::kDouble: store(static_cast<double>(r)); break;
    case ElementType::kFloat: store(static_cast<float>(r)); break;
    case ElementType::kInt32: store(static_cast<int32_t>(r)); break;
    case ElementType::kInt64: store(static_cast<int64_t>(r)); break;
    case ElementType::kComplexDouble: store(std::complex<double>(r, v.imag())); break;
    case ElementType::kInt8: store(static_cast<int8_t>(r)); break;
    case ElementType::kUInt8: store(static_cast<uint8_t>(r)); break;
    case ElementType::kInt16: store(static_cast<int16_t>(r)); break;
    case ElementType::kUInt16: store(static_cast<uint16_t>(r)); break;
    case ElementType::kUInt32: store(static_cast<uint32_t>(r)); break;
    case ElementType::kUInt64: store(static_cast<uint64_t>(r)); break;
    case ElementType::kComplexFloat: store(std::complex<float>(r, v.imag())); break;
  }
}

Value get(ElementType t, const void* buf, size_t i) {
  const auto* p = static_cast<const unsigned char*>(buf) + i * element_size(t);
  auto load = [&](auto x) {
    std::memcpy(&x, p, sizeof x);
    return x;
  };
  switch (t) {
    case ElementType::kDouble: return load(double{});
    case ElementType::kFloat: return load(float{});
    case ElementType::kInt32: return static_cast<long double>(load(int32_t{}));
    case ElementType::kInt64: return static_cast<long double>(load(int64_t{}));
    case ElementType::kComplexDouble: {
      auto c = load(std::complex<double>{});
      return Value(c.real(), c.imag());
    }
    case ElementType::kInt8: return static_cast<long double>(load(int8_t{}));
    case ElementType::kUInt8: return static_cast<long double>(load(uint8_t{}));
    case ElementType::kInt16: return static_cast<long double>(load(int16_t{}));
    case ElementType::kUInt16: return static_cast<long double>(load(uint16_t{}));
    case ElementType::kUInt32: return static_cast<long double>(load(uint32_t{}));
    case ElementType::kUInt64: return static_cast<long double>(load(uint64_t{}));
    case ElementType::kComplexFloat: {
      auto c = load(std::complex<float>{});
      return Value(c.real(), c.imag());
    }
  }
  return 0;
}

bool same(Value a, Value b) {  // NaN equals NaN here
  auto eq = [](long double x, long double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
  return eq(a.real(), b.real()) && eq(a.imag(), b.imag());
}

std::string pair_name(ElementType from, ElementType to) {
  return std::string(element_name(from)) + " -> " + element_name(to);
}

// Values that every type holds: both conversions of a pair keep them.
std::vector<Value> common_values(ElementType from, ElementType to) {
  std::vector<Value> v;
  for (int k = 0; k < 300; ++k) v.emplace_back(static_cast<long double>((k * 37) % 128), 0);
  const bool signed_both = !(from == ElementType::kUInt8 || from == ElementType::kUInt16 ||
                             from == ElementType::kUInt32 || from == ElementType::kUInt64 ||
                             to == ElementType::kUInt8 || to == ElementType::kUInt16 || to == ElementType::kUInt32 ||
                             to == ElementType::kUInt64);
  if (signed_both) {
    for (int k = 0; k < 50; ++k) v.emplace_back(-128 + k, 0);
  }
  if (is_complex(from) && is_complex(to)) {
    for (int k = 0; k < 50; ++k) v.emplace_back(k, -k * 0.5L);
  }
  if (!is_integer(from) && !is_integer(to)) {
    for (int k = 0; k < 50; ++k) v.emplace_back(k * 0.25L - 3, 0);
  }
  return v;
}

TEST(Convert, EveryPairRoundTripsValuesThatFit) {
  for (ElementType from : all_types()) {
    for (ElementType to : all_types()) {
      const std::vector<Value> values = common_values(from, to);
      const size_t n = values.size();
      std::vector<unsigned char> src(n * element_size(from)), mid(n * element_size(to)), back(src.size());
      for (size_t i = 0; i < n; ++i) put(from, src.data(), i, values[i]);
      ASSERT_TRUE(convert(from, src.data(), to, mid.data(), n).ok()) << pair_name(from, to);
      for (size_t i = 0; i < n; ++i) ASSERT_TRUE(same(get(to, mid.data(), i), values[i])) << pair_name(from, to) << " " << i;
      ASSERT_TRUE(convert_from(to, mid.data(), ByteOrder::kNative, from, back.data(), n).ok()) << pair_name(to, from);
      ASSERT_EQ(src, back) << pair_name(from, to);
    }
  }
}

// Each pair's boundary values on either side: the extremes of `to` (and a
// step inside and outside), the extremes of `from`, NaN, infinities,
// non-integers and imaginary parts; whichever `from` holds exactly.
std::vector<Value> edge_values(ElementType to) {
  std::vector<Value> v = {Value(NAN, 0), Value(INFINITY, 0), Value(-INFINITY, 0), Value(0, 1), Value(0, NAN),
                          Value(3.75L, 0), Value(-3.75L, 0), Value(-0.5L, 0), Value(-1, 0), Value(1e300L, 0),
                          Value(-1e300L, 0), Value(FLT_MAX, 0), Value(-static_cast<long double>(FLT_MAX), 0),
                          Value(static_cast<long double>(FLT_MAX) * 2, 0), Value(DBL_MAX, 0), Value(1, 1e39L)};
  for (ElementType t : all_types()) {
    if (!is_integer(t) && t != to) continue;
    long double lo, hi;
    int_range(t, &lo, &hi);
    for (long double x : {lo, hi, lo - 1, hi + 1, lo - 0.5L, hi + 0.5L, lo - 2, hi + 2, hi * 2}) v.emplace_back(x, 0);
  }
  return v;
}

TEST(Convert, OutOfRangeStopsAtTheFirstBadElementForEveryNarrowingPair) {
  for (ElementType from : all_types()) {
    for (ElementType to : all_types()) {
      int failures_seen = 0;
      for (Value bad : edge_values(to)) {
        if (!representable(from, bad)) continue;
        Value want;
        const bool ok = converts(bad, to, &want);
        // The value alone, then among good ones across blocks: index k.
        for (size_t k : {size_t{0}, size_t{1030}, size_t{2099}}) {
          const size_t n = 2100;  // three blocks of the kernel
          std::vector<unsigned char> src(n * element_size(from)), dst(n * element_size(to), 0xAB);
          for (size_t i = 0; i < n; ++i) put(from, src.data(), i, Value(i % 100, 0));
          put(from, src.data(), k, bad);
          size_t first_bad = 12345;
          const Status s = convert(from, src.data(), to, dst.data(), n, ByteOrder::kNative, &first_bad);
          const std::string what = pair_name(from, to) + " of " + std::to_string(static_cast<double>(bad.real())) +
                                   "+" + std::to_string(static_cast<double>(bad.imag())) + "i at " +
                                   std::to_string(k);
          size_t checked_bad = 12345;
          const Status c = check_convertible(from, src.data(), to, n, &checked_bad);  // the same verdict
          if (ok) {
            ASSERT_TRUE(s.ok()) << what << ": " << s.message();
            ASSERT_TRUE(same(get(to, dst.data(), k), want)) << what;
            ASSERT_EQ(first_bad, 12345u) << what;
            ASSERT_TRUE(c.ok()) << what << ": " << c.message();
            continue;
          }
          ASSERT_EQ(c.code(), Code::kOutOfRange) << what;
          ASSERT_EQ(checked_bad, k) << what;
          ASSERT_EQ(c.message(), s.message()) << what;
          ++failures_seen;
          ASSERT_EQ(s.code(), Code::kOutOfRange) << what;
          ASSERT_EQ(first_bad, k) << what;
          const std::string& m = s.message();
          EXPECT_NE(m.find("element " + std::to_string(k) + " "), std::string::npos) << m;
          EXPECT_NE(m.find(element_name(from)), std::string::npos) << m;
          EXPECT_NE(m.find(std::string(" to ") + element_name(to)), std::string::npos) << m;
          for (size_t i = 0; i < k; ++i) ASSERT_TRUE(same(get(to, dst.data(), i), Value(i % 100, 0))) << what << " " << i;
          for (size_t i = k * element_size(to); i < dst.size(); ++i) ASSERT_EQ(dst[i], 0xAB) << what << " byte " << i;
          // The read direction checks alike.
          first_bad = 0;
          const Status r = convert_from(from, src.data(), ByteOrder::kNative, to, dst.data(), n, &first_bad);
          ASSERT_EQ(r.code(), Code::kOutOfRange) << what;
          ASSERT_EQ(first_bad, k) << what;
        }
      }
      // Narrowing pairs (some value of `from` is not one of `to`) saw a failure.
      long double flo, fhi, tlo, thi;
      int_range(from, &flo, &fhi);
      int_range(to, &tlo, &thi);
      const bool narrowing = (is_complex(from) && !is_complex(to)) || (!is_integer(from) && is_integer(to)) ||
                             (is_double(from) && is_float(to)) ||
                             (is_integer(from) && is_integer(to) && (flo < tlo || fhi > thi));
      EXPECT_EQ(failures_seen > 0, narrowing) << pair_name(from, to);
      EXPECT_EQ(conversion_can_fail(from, to), narrowing) << pair_name(from, to);
    }
  }
}

TEST(Convert, MessagesNameTheValue) {
  const int32_t v[3] = {1, 300, 2};
  uint8_t out[3];
  Status s = convert(ElementType::kInt32, v, ElementType::kUInt8, out, 3);
  EXPECT_EQ(s.message(), "converting int32 to uint8: element 1 is 300, out of the range of uint8");
  const double nan[2] = {1.5, NAN};
  int64_t i64[2];
  size_t first = 9;
  s = convert(ElementType::kDouble, nan, ElementType::kInt64, i64, 2, ByteOrder::kNative, &first);
  EXPECT_EQ(s.code(), Code::kOutOfRange);
  EXPECT_EQ(first, 1u);
  EXPECT_EQ(i64[0], 1);
  EXPECT_NE(s.message().find("is nan"), std::string::npos) << s.message();
  const float inf = -INFINITY;
  int16_t i16;
  s = convert(ElementType::kFloat, &inf, ElementType::kInt16, &i16, 1);
  EXPECT_NE(s.message().find("is -inf"), std::string::npos) << s.message();
  const std::complex<double> z[2] = {{2, 0}, {1, -0.5}};
  double d[2];
  s = convert(ElementType::kComplexDouble, z, ElementType::kDouble, d, 2, ByteOrder::kNative, &first);
  EXPECT_EQ(s.code(), Code::kOutOfRange);
  EXPECT_EQ(first, 1u);
  EXPECT_EQ(d[0], 2.0);
  EXPECT_EQ(s.message(),
            "converting complex double to double: element 1 is (1, -0.5), whose imaginary part is not 0");
}

TEST(Convert, FloatsTruncateTowardZeroAndKeepNanAndInfinity) {
  const double d[6] = {2.9, -2.9, -0.999, 127.99, -128.99, 0.0};
  int8_t i8[6];
  ASSERT_TRUE(convert(ElementType::kDouble, d, ElementType::kInt8, i8, 6).ok());
  EXPECT_EQ(std::vector<int8_t>(i8, i8 + 6), (std::vector<int8_t>{2, -2, 0, 127, -128, 0}));
  const double u[2] = {-0.999, 255.5};
  uint8_t u8[2];
  ASSERT_TRUE(convert(ElementType::kDouble, u, ElementType::kUInt8, u8, 2).ok());
  EXPECT_EQ(u8[0], 0);
  EXPECT_EQ(u8[1], 255);
  // 2^63 is just beyond int64; the largest double below it fits.
  const double big[2] = {std::nextafter(9223372036854775808.0, 0.0), 9223372036854775808.0};
  int64_t i64[2];
  size_t first = 0;
  EXPECT_EQ(convert(ElementType::kDouble, big, ElementType::kInt64, i64, 2, ByteOrder::kNative, &first).code(),
            Code::kOutOfRange);
  EXPECT_EQ(first, 1u);
  EXPECT_EQ(i64[0], 9223372036854774784);
  const double specials[4] = {NAN, INFINITY, -INFINITY, FLT_MAX};
  float f[4];
  ASSERT_TRUE(convert(ElementType::kDouble, specials, ElementType::kFloat, f, 4).ok());
  EXPECT_TRUE(std::isnan(f[0]));
  EXPECT_EQ(f[1], INFINITY);
  EXPECT_EQ(f[2], -INFINITY);
  EXPECT_EQ(f[3], FLT_MAX);
  const double over = std::nextafter(static_cast<double>(FLT_MAX), INFINITY);
  EXPECT_EQ(convert(ElementType::kDouble, &over, ElementType::kFloat, f, 1).code(), Code::kOutOfRange);
  // Real to complex: the imaginary part is 0.
  const int16_t s[2] = {-7, 9};
  std::complex<float> c[2];
  ASSERT_TRUE(convert(ElementType::kInt16, s, ElementType::kComplexFloat, c, 2).ok());
  EXPECT_EQ(c[0], std::complex<float>(-7, 0));
  EXPECT_EQ(c[1], std::complex<float>(9, 0));
}

// ---- byte order ----

TEST(Convert, ByteOrderOfThisMachine) {
  const uint16_t one = 1;
  unsigned char first;
  std::memcpy(&first, &one, 1);
  const bool little = first == 1;
  EXPECT_FALSE(needs_swap(ByteOrder::kNative));
  EXPECT_EQ(needs_swap(ByteOrder::kLittle), !little);
  EXPECT_EQ(needs_swap(ByteOrder::kBig), little);
}

using Bytes = std::vector<unsigned char>;

Bytes bytes_of(const void* p, size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  return Bytes(b, b + n);
}

TEST(Convert, BigAndLittleEndianBytesAreTheFileFormats) {
  // Written by hand from the formats (IEEE 754, two's complement).
  const int32_t i = 0x01020304;
  const double one = 1.0;
  const std::complex<float> z(1.0f, -2.0f);
  const int16_t minus_two = -2;
  struct Case {
    ElementType from, to;
    const void* src;
    Bytes big, little;
  };
  const Case cases[] = {
      {ElementType::kInt32, ElementType::kInt32, &i, {1, 2, 3, 4}, {4, 3, 2, 1}},
      {ElementType::kInt32, ElementType::kInt64, &i, {0, 0, 0, 0, 1, 2, 3, 4}, {4, 3, 2, 1, 0, 0, 0, 0}},
      {ElementType::kDouble, ElementType::kDouble, &one, {0x3F, 0xF0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0xF0, 0x3F}},
      {ElementType::kDouble, ElementType::kFloat, &one, {0x3F, 0x80, 0, 0}, {0, 0, 0x80, 0x3F}},
      {ElementType::kDouble, ElementType::kUInt16, &one, {0, 1}, {1, 0}},
      {ElementType::kComplexFloat, ElementType::kComplexFloat, &z, {0x3F, 0x80, 0, 0, 0xC0, 0, 0, 0},
       {0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0}},
      {ElementType::kComplexFloat, ElementType::kComplexDouble, &z,
       {0x3F, 0xF0, 0, 0, 0, 0, 0, 0, 0xC0, 0, 0, 0, 0, 0, 0, 0},
       {0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0xC0}},
      {ElementType::kInt16, ElementType::kInt16, &minus_two, {0xFF, 0xFE}, {0xFE, 0xFF}},
      {ElementType::kInt16, ElementType::kInt8, &minus_two, {0xFE}, {0xFE}},
      {ElementType::kInt16, ElementType::kFloat, &minus_two, {0xC0, 0, 0, 0}, {0, 0, 0, 0xC0}},
  };
  for (const Case& c : cases) {
    const std::string what = pair_name(c.from, c.to);
    for (ByteOrder order : {ByteOrder::kBig, ByteOrder::kLittle}) {
      const Bytes& want = order == ByteOrder::kBig ? c.big : c.little;
      Bytes got(want.size(), 0xAB);
      ASSERT_TRUE(convert(c.from, c.src, c.to, got.data(), 1, order).ok()) << what;
      EXPECT_EQ(got, want) << what << (order == ByteOrder::kBig ? " big" : " little");
      // Reading those bytes back gives the value in the source type.
      Bytes back(element_size(c.from), 0);
      ASSERT_TRUE(convert_from(c.to, want.data(), order, c.from, back.data(), 1).ok()) << what;
      EXPECT_EQ(back, bytes_of(c.src, element_size(c.from))) << what;
    }
  }
}

// Each scalar's bytes reversed (each half of a complex): the expected file
// bytes of a foreign order, built byte by byte.
Bytes reversed_parts(ElementType t, const Bytes& in) {
  const size_t part = element_size(t) / (is_complex(t) ? 2 : 1);
  Bytes out(in);
  for (size_t i = 0; i < out.size(); i += part) std::reverse(out.begin() + i, out.begin() + i + part);
  return out;
}

TEST(Convert, ForeignOrderOfEveryPair) {
  const ByteOrder foreign = needs_swap(ByteOrder::kBig) ? ByteOrder::kBig : ByteOrder::kLittle;
  for (ElementType from : all_types()) {
    for (ElementType to : all_types()) {
      const std::vector<Value> values = common_values(from, to);
      const size_t n = values.size();
      Bytes src(n * element_size(from)), native(n * element_size(to)), swapped(native.size()), back(src.size());
      for (size_t i = 0; i < n; ++i) put(from, src.data(), i, values[i]);
      ASSERT_TRUE(convert(from, src.data(), to, native.data(), n).ok());
      ASSERT_TRUE(convert(from, src.data(), to, swapped.data(), n, foreign).ok());
      ASSERT_EQ(swapped, reversed_parts(to, native)) << pair_name(from, to);
      ASSERT_TRUE(convert_from(to, swapped.data(), foreign, from, back.data(), n).ok());
      ASSERT_EQ(back, src) << pair_name(from, to);
    }
  }
}

TEST(Convert, SwapBytesInPlace) {
  for (ElementType t : all_types()) {
    const size_t n = 1500;
    Bytes buf(n * element_size(t));
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<unsigned char>(i * 7 + 3);
    const Bytes before = buf;
    swap_bytes(t, buf.data(), n);
    ASSERT_EQ(buf, reversed_parts(t, before)) << element_name(t);
    swap_bytes(t, buf.data(), n);
    ASSERT_EQ(buf, before) << element_name(t);
    // The same through convert, in place (dst == src is allowed for one type).
    ASSERT_TRUE(convert(t, buf.data(), t, buf.data(), n, needs_swap(ByteOrder::kBig) ? ByteOrder::kBig
                                                                                      : ByteOrder::kLittle)
                    .ok());
    ASSERT_EQ(buf, reversed_parts(t, before)) << element_name(t);
  }
}

// ---- buffers ----

TEST(Convert, UnalignedBuffers) {
  const size_t n = 777;
  for (ElementType from : all_types()) {
    for (ElementType to : all_types()) {
      const std::vector<Value> values = common_values(from, to);
      Bytes aligned_src(n * element_size(from)), want(n * element_size(to));
      for (size_t i = 0; i < n; ++i) put(from, aligned_src.data(), i, values[i % values.size()]);
      ASSERT_TRUE(convert(from, aligned_src.data(), to, want.data(), n, ByteOrder::kBig).ok());
      for (size_t shift : {1, 3, 7}) {
        Bytes s(aligned_src.size() + 8), d(want.size() + 8), r(aligned_src.size() + 8);
        std::memcpy(s.data() + shift, aligned_src.data(), aligned_src.size());
        ASSERT_TRUE(convert(from, s.data() + shift, to, d.data() + (8 - shift), n, ByteOrder::kBig).ok());
        ASSERT_EQ(Bytes(d.begin() + (8 - shift), d.begin() + (8 - shift) + want.size()), want)
            << pair_name(from, to) << " shifted " << shift;
        ASSERT_TRUE(convert_from(to, d.data() + (8 - shift), ByteOrder::kBig, from, r.data() + shift, n).ok());
        ASSERT_EQ(Bytes(r.begin() + shift, r.begin() + shift + aligned_src.size()), aligned_src);
      }
    }
  }
}

TEST(Convert, LargeBuffers) {
  const size_t n = (size_t{1} << 22) + 3;  // not a multiple of any block
  std::vector<int32_t> src(n);
  for (size_t i = 0; i < n; ++i) src[i] = static_cast<int32_t>(i * 2654435761u);
  std::vector<double> d(n);
  ASSERT_TRUE(convert(ElementType::kInt32, src.data(), ElementType::kDouble, d.data(), n).ok());
  for (size_t i = 0; i < n; i += 4099) ASSERT_EQ(d[i], static_cast<double>(src[i])) << i;
  std::vector<int32_t> back(n);
  ASSERT_TRUE(convert(ElementType::kDouble, d.data(), ElementType::kInt32, back.data(), n).ok());
  ASSERT_EQ(back, src);
  // Narrowing with the only bad element last.
  std::vector<uint16_t> u(n);
  for (size_t i = 0; i < n; ++i) src[i] = static_cast<int32_t>(i % 65536);
  src[n - 1] = 65536;
  size_t first = 0;
  ASSERT_EQ(convert(ElementType::kInt32, src.data(), ElementType::kUInt16, u.data(), n, ByteOrder::kBig, &first).code(),
            Code::kOutOfRange);
  ASSERT_EQ(first, n - 1);
  const auto last_good = static_cast<uint16_t>((n - 2) % 65536);
  ASSERT_EQ(u[n - 2], needs_swap(ByteOrder::kBig) ? __builtin_bswap16(last_good) : last_good);
  // Same type, foreign order, and back.
  std::vector<int32_t> swapped(n);
  ASSERT_TRUE(convert(ElementType::kInt32, back.data(), ElementType::kInt32, swapped.data(), n, ByteOrder::kBig).ok());
  ASSERT_TRUE(convert_from(ElementType::kInt32, swapped.data(), ByteOrder::kBig, ElementType::kInt32, swapped.data(), n)
                  .ok());
  ASSERT_EQ(swapped, back);
}

TEST(Convert, BadArguments) {
  double x = 1, y = 0;
  EXPECT_EQ(convert(static_cast<ElementType>(0), &x, ElementType::kDouble, &y, 1).code(), Code::kInvalidArgument);
  EXPECT_EQ(convert(ElementType::kDouble, &x, static_cast<ElementType>(13), &y, 1).code(), Code::kInvalidArgument);
  EXPECT_EQ(convert(ElementType::kDouble, &x, ElementType::kDouble, &y, 1, static_cast<ByteOrder>(3)).code(),
            Code::kInvalidArgument);
  EXPECT_EQ(convert_from(ElementType::kDouble, nullptr, ByteOrder::kNative, ElementType::kFloat, &y, 1).code(),
            Code::kInvalidArgument);
  EXPECT_EQ(y, 0);
  EXPECT_TRUE(convert(ElementType::kDouble, nullptr, ElementType::kFloat, nullptr, 0).ok());
  swap_bytes(static_cast<ElementType>(99), &x, 1);
  EXPECT_EQ(x, 1);
}

}  // namespace
}  // namespace pario
