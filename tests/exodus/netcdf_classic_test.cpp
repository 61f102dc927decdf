// The netCDF classic codec, serially: layouts against offsets computed by
// hand from the format's rules, format selection, round trips through
// encode and decode, and every way decode_header refuses a header.
#include "exodus/netcdf_classic.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace pario::exodus {
namespace {

using Bytes = std::vector<unsigned char>;

// Builds headers by hand, big-endian, for the decoder's error paths and as
// an independent check of the encoder.
struct Builder {
  Bytes b;
  bool wide = false;  // CDF-5 counts
  Builder& u32(uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<unsigned char>(v >> s));
    return *this;
  }
  Builder& u64(uint64_t v) {
    for (int s = 56; s >= 0; s -= 8) b.push_back(static_cast<unsigned char>(v >> s));
    return *this;
  }
  Builder& n(uint64_t v) { return wide ? u64(v) : u32(static_cast<uint32_t>(v)); }
  Builder& name(const std::string& s) {
    n(s.size());
    b.insert(b.end(), s.begin(), s.end());
    while (b.size() % 4) b.push_back(0);
    return *this;
  }
  Builder& magic(int version) {
    wide = version == 5;
    b.insert(b.end(), {'C', 'D', 'F', static_cast<unsigned char>(version)});
    return *this;
  }
  Builder& absent() { return u32(0).n(0); }
};

bool contains(const Status& s, const std::string& text) {
  return s.message().find(text) != std::string::npos;
}

// Decodes a whole file held in memory.
Result<Decoded> decode_all(const Bytes& file) {
  return decode_header(file.data(), file.size(), static_cast<int64_t>(file.size()));
}

// Decodes with the header and a file of file_size bytes (the data past the
// header is never looked at).
Result<Decoded> decode_sized(const Bytes& header, int64_t file_size) {
  return decode_header(header.data(), header.size(), file_size);
}

Status decode_error(const Bytes& file) {
  Result<Decoded> d = decode_all(file);
  if (d.ok()) return Status(Code::kInternal, d->complete() ? "decoded" : "asked for more");
  return d.status();
}

// The specification's "tiny" example: dim = 5; short vx(dim).
Model tiny() {
  Model m;
  m.dims = {{"dim", 5}};
  m.vars = {{"vx", {0}, NcType::kShort, {}}};
  return m;
}

// A record dimension, fixed and record variables of odd sizes, attributes.
Model mixed() {
  Model m;
  m.dims = {{"time", kUnlimited}, {"n", 3}};
  m.vars = {{"a", {1}, NcType::kDouble, {}},
            {"b", {1}, NcType::kByte, {}},
            {"t", {0}, NcType::kDouble, {}},
            {"u", {0, 1}, NcType::kShort, {}}};
  return m;
}

TEST(NetcdfClassic, TinyMatchesTheSpecificationByteForByte) {
  Result<Layout> L = layout(tiny(), {Format::kCdf1});
  ASSERT_TRUE(L.ok()) << L.status().message();
  EXPECT_EQ(L->header_size, 80);
  ASSERT_EQ(L->vars.size(), 1u);
  EXPECT_EQ(L->vars[0].begin, 80);
  EXPECT_EQ(L->vars[0].bytes, 10);
  EXPECT_EQ(L->vars[0].vsize, 12);
  EXPECT_EQ(*L->file_size(0), 92);
  Builder want;
  want.magic(1).u32(0);
  want.u32(0x0A).u32(1).name("dim").u32(5);
  want.absent();
  want.u32(0x0B).u32(1).name("vx").u32(1).u32(0).absent().u32(3).u32(12).u32(80);
  Result<Bytes> h = encode_header(tiny(), *L, 0);
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(*h, want.b);
}

TEST(NetcdfClassic, RecordAndFixedVariablesAtHandComputedOffsets) {
  Result<Layout> L = layout(mixed());
  ASSERT_TRUE(L.ok()) << L.status().message();
  EXPECT_EQ(L->format, Format::kCdf2);
  // 8 (magic, numrecs) + 32 (two dimensions) + 8 (no attributes) + 8 (var
  // list) + 40 + 40 + 40 + 44 (one more dimension id).
  EXPECT_EQ(L->header_size, 220);
  EXPECT_EQ(L->data_begin, 220);
  EXPECT_EQ(L->vars[0].begin, 220);  // a: 24 bytes
  EXPECT_EQ(L->vars[0].vsize, 24);
  EXPECT_EQ(L->vars[1].begin, 244);  // b: 3 bytes, vsize 4
  EXPECT_EQ(L->vars[1].bytes, 3);
  EXPECT_EQ(L->vars[1].vsize, 4);
  EXPECT_EQ(L->record_begin, 248);
  EXPECT_TRUE(L->vars[2].record);
  EXPECT_EQ(L->vars[2].begin, 248);  // t: 8 per record
  EXPECT_EQ(L->vars[3].begin, 256);  // u: 6 per record, vsize 8
  EXPECT_EQ(L->vars[3].bytes, 6);
  EXPECT_EQ(L->vars[3].vsize, 8);
  EXPECT_EQ(L->recsize, 16);
  EXPECT_EQ(*L->file_size(0), 248);
  EXPECT_EQ(*L->file_size(3), 248 + 3 * 16);
  EXPECT_EQ(L->numrecs_offset, 4);
  EXPECT_EQ(L->numrecs_width, 4);
}

TEST(NetcdfClassic, OneRecordVariableIsNotPadded) {
  Model m;
  m.dims = {{"time", kUnlimited}, {"n", 3}};
  m.vars = {{"c", {0, 1}, NcType::kChar, {}}};
  Result<Layout> L = layout(m);
  ASSERT_TRUE(L.ok()) << L.status().message();
  EXPECT_EQ(L->header_size, 100);  // 8 + 32 + 8 + 8 + 44
  EXPECT_EQ(L->vars[0].begin, 100);
  EXPECT_EQ(L->vars[0].vsize, 4);  // the header still says 4
  EXPECT_EQ(L->recsize, 3);        // but records are 3 apart
  // Record 1 ends at 100 + 3 + 3, unpadded (as netCDF-C's files end).
  EXPECT_EQ(*L->file_size(2), 100 + 3 + 3);
  // Two record variables: both padded.
  m.vars.push_back({"d", {0}, NcType::kByte, {}});
  L = layout(m);
  ASSERT_TRUE(L.ok());
  EXPECT_EQ(L->recsize, 8);
  EXPECT_EQ(L->vars[1].begin - L->vars[0].begin, 4);
}

TEST(NetcdfClassic, ReserveAndAlignment) {
  Result<Layout> plain = layout(mixed());
  ASSERT_TRUE(plain.ok());
  Result<Layout> L = layout(mixed(), {Format::kAuto, 100, 4});
  ASSERT_TRUE(L.ok());
  EXPECT_EQ(L->header_size, 220);
  EXPECT_EQ(L->data_begin, 320);
  EXPECT_EQ(L->vars[0].begin, 320);
  L = layout(mixed(), {Format::kAuto, 100, 4096});
  ASSERT_TRUE(L.ok());
  EXPECT_EQ(L->data_begin, 4096);
  EXPECT_EQ(L->vars[1].begin, 4096 + 24);
  EXPECT_EQ(L->record_begin, 8192);  // the records aligned too
  EXPECT_EQ(L->vars[3].begin, 8192 + 8);
  EXPECT_EQ(layout(mixed(), {Format::kAuto, 0, 6}).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(layout(mixed(), {Format::kAuto, -1, 4}).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(layout(mixed(), {static_cast<Format>(3), 0, 4}).status().code(),
            Code::kInvalidArgument);
}

TEST(NetcdfClassic, OddSizedVariablesStayFourAligned) {
  Model m;
  m.dims = {{"one", 1}, {"five", 5}, {"seven", 7}};
  m.vars = {{"c1", {0}, NcType::kChar, {}},
            {"s5", {1}, NcType::kShort, {}},
            {"b7", {2}, NcType::kByte, {}},
            {"scalar", {}, NcType::kDouble, {}},
            {"c35", {1, 2}, NcType::kChar, {}}};
  Result<Layout> L = layout(m);
  ASSERT_TRUE(L.ok());
  const int64_t vs[] = {4, 12, 8, 8, 36};
  const int64_t bytes[] = {1, 10, 7, 8, 35};
  int64_t at = L->header_size;
  EXPECT_EQ(at % 4, 0);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(L->vars[i].begin, at) << i;
    EXPECT_EQ(L->vars[i].vsize, vs[i]) << i;
    EXPECT_EQ(L->vars[i].bytes, bytes[i]) << i;
    at += vs[i];
  }
  EXPECT_EQ(L->record_begin, at);  // no records: the end of the fixed data
  EXPECT_EQ(*L->file_size(0), at);
}

TEST(NetcdfClassic, FormatSelection) {
  // CDF-2 unless something needs CDF-5.
  EXPECT_EQ(layout(tiny())->format, Format::kCdf2);
  Model m = tiny();
  m.vars[0].type = NcType::kUInt;
  EXPECT_EQ(layout(m)->format, Format::kCdf5);
  EXPECT_EQ(layout(m, {Format::kCdf2}).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(layout(m, {Format::kCdf1}).status().code(), Code::kInvalidArgument);
  m = tiny();
  const int64_t big = int64_t{1} << 40;
  m.attributes.push_back(numeric_attribute("i64", NcType::kInt64, &big, 1));
  EXPECT_EQ(layout(m)->format, Format::kCdf5);
  // vsize at CDF-2's limit (2^32 - 4) and one value past it.
  m = Model();
  m.dims = {{"four", 4}, {"n", (int64_t{1} << 30) - 1}};
  m.vars = {{"v", {0, 1}, NcType::kByte, {}}};
  Result<Layout> L = layout(m);
  ASSERT_TRUE(L.ok());
  EXPECT_EQ(L->format, Format::kCdf2);
  EXPECT_EQ(L->vars[0].vsize, (int64_t{1} << 32) - 4);
  EXPECT_EQ(layout(m, {Format::kCdf1}).status().code(), Code::kOutOfRange);
  m.dims[1].length = int64_t{1} << 30;
  EXPECT_EQ(layout(m)->format, Format::kCdf5);
  EXPECT_EQ(layout(m, {Format::kCdf2}).status().code(), Code::kInvalidArgument);
  // A dimension past 2^31 - 1 needs CDF-5's 64-bit lengths.
  m.dims = {{"huge", int64_t{1} << 31}};
  m.vars.clear();
  EXPECT_EQ(layout(m)->format, Format::kCdf5);
  // CDF-1: two variables of 2^31 - 4 bytes each: the second starts past 2^31 - 1.
  m = Model();
  m.dims = {{"n", (int64_t{1} << 31) - 4}};
  m.vars = {{"x", {0}, NcType::kByte, {}}};
  EXPECT_EQ(layout(m, {Format::kCdf1})->format, Format::kCdf1);
  m.vars.push_back({"y", {0}, NcType::kByte, {}});
  Result<Layout> c1 = layout(m, {Format::kCdf1});
  EXPECT_EQ(c1.status().code(), Code::kOutOfRange);
  EXPECT_TRUE(contains(c1.status(), "'y'")) << c1.status().message();
  EXPECT_EQ(layout(m)->format, Format::kCdf2);
  // CDF-5 asked for: given.
  EXPECT_EQ(layout(tiny(), {Format::kCdf5})->format, Format::kCdf5);
  EXPECT_EQ(layout(tiny(), {Format::kCdf5})->numrecs_width, 8);
}

TEST(NetcdfClassic, BadModelsAreRefused) {
  auto refused = [](const Model& m, const std::string& text) {
    Result<Layout> L = layout(m);
    EXPECT_EQ(L.status().code(), Code::kInvalidArgument) << text;
    EXPECT_TRUE(contains(L.status(), text)) << L.status().message();
  };
  Model m = tiny();
  m.dims.push_back({"dim", 2});
  refused(m, "appears twice");
  m = tiny();
  m.dims.push_back({"t1", kUnlimited});
  m.dims.push_back({"t2", kUnlimited});
  refused(m, "second unlimited");
  m = tiny();
  m.dims[0].length = -1;
  refused(m, "negative length");
  m = tiny();
  m.vars[0].dims = {3};
  refused(m, "out of range");
  m = mixed();
  m.vars[3].dims = {1, 0};
  refused(m, "only be a variable's first");
  const std::vector<std::string> bad_names = {"", "a/b", " lead", "trail ", "-x", "c\x01"};
  for (const std::string& bad : bad_names) {
    m = tiny();
    m.vars[0].name = bad;
    refused(m, "variable");
  }
  m = tiny();
  m.vars[0].name = std::string(kMaxName + 1, 'x');
  refused(m, "1 to 256");
  m = tiny();
  m.vars[0].type = static_cast<NcType>(12);
  refused(m, "unknown nc_type");
  m = tiny();
  m.attributes.push_back(text_attribute("t", "x"));
  m.attributes.push_back(text_attribute("t", "y"));
  refused(m, "appears twice");
  m = tiny();
  Attribute a = numeric_attribute("s", NcType::kShort, std::vector<int16_t>{1});
  a.data.push_back(0);  // 3 bytes: not whole shorts
  m.vars[0].attributes.push_back(a);
  refused(m, "not whole short values");
  m = tiny();
  m.vars.push_back({"vx", {0}, NcType::kInt, {}});
  refused(m, "appears twice");
}

// Every attribute type, names of every length modulo 4, scalar variables.
Model rich(bool cdf5) {
  Model m;
  m.dims = {{"time", kUnlimited}, {"n", 3}, {"len_name", 33}};
  m.attributes.push_back(text_attribute("title", "pario netCDF test"));
  m.attributes.push_back(numeric_attribute("api", NcType::kFloat, std::vector<float>{7.5f}));
  m.attributes.push_back(
      numeric_attribute("doubles", NcType::kDouble, std::vector<double>{1.5, -2.25, 1e300}));
  m.attributes.push_back(
      numeric_attribute("shorts", NcType::kShort, std::vector<int16_t>{-3, 4, 5}));
  m.attributes.push_back(numeric_attribute("bytes", NcType::kByte, std::vector<int8_t>{-1, 2}));
  m.attributes.push_back(numeric_attribute("ints", NcType::kInt, std::vector<int32_t>{-7}));
  m.attributes.push_back(numeric_attribute("empty", NcType::kInt, std::vector<int32_t>{}));
  if (cdf5) {
    m.attributes.push_back(
        numeric_attribute("ub", NcType::kUByte, std::vector<uint8_t>{255, 1, 2}));
    m.attributes.push_back(numeric_attribute("us", NcType::kUShort, std::vector<uint16_t>{65535}));
    m.attributes.push_back(
        numeric_attribute("ui", NcType::kUInt, std::vector<uint32_t>{4000000000u}));
    m.attributes.push_back(
        numeric_attribute("i64", NcType::kInt64, std::vector<int64_t>{-(int64_t{1} << 40)}));
    m.attributes.push_back(
        numeric_attribute("u64", NcType::kUInt64, std::vector<uint64_t>{~uint64_t{0}}));
  }
  Variable coord{"coordx", {1}, NcType::kDouble, {text_attribute("units", "m")}};
  m.vars.push_back(coord);
  m.vars.push_back({"a", {}, NcType::kInt, {}});
  m.vars.push_back({"ab", {2}, NcType::kChar, {}});
  m.vars.push_back({"abc", {0}, NcType::kDouble, {}});
  m.vars.push_back({"abcd", {0, 1}, cdf5 ? NcType::kUShort : NcType::kShort,
                    {numeric_attribute("_FillValue", NcType::kShort, std::vector<int16_t>{-1})}});
  m.vars.push_back({"abcde", {1, 2}, cdf5 ? NcType::kInt64 : NcType::kFloat, {}});
  return m;
}

void expect_same_layout(const Layout& a, const Layout& b) {
  EXPECT_EQ(a.format, b.format);
  EXPECT_EQ(a.header_size, b.header_size);
  EXPECT_EQ(a.data_begin, b.data_begin);
  EXPECT_EQ(a.record_begin, b.record_begin);
  EXPECT_EQ(a.recsize, b.recsize);
  EXPECT_EQ(a.numrecs_width, b.numrecs_width);
  ASSERT_EQ(a.vars.size(), b.vars.size());
  for (size_t i = 0; i < a.vars.size(); ++i) {
    EXPECT_EQ(a.vars[i].record, b.vars[i].record) << i;
    EXPECT_EQ(a.vars[i].bytes, b.vars[i].bytes) << i;
    EXPECT_EQ(a.vars[i].vsize, b.vars[i].vsize) << i;
    EXPECT_EQ(a.vars[i].begin, b.vars[i].begin) << i;
  }
}

TEST(NetcdfClassic, RoundTripsInEveryFormat) {
  for (Format f : {Format::kCdf1, Format::kCdf2, Format::kCdf5}) {
    SCOPED_TRACE(format_name(f));
    const Model m = rich(f == Format::kCdf5);
    Result<Layout> L = layout(m, {f, 0, 4});
    ASSERT_TRUE(L.ok()) << L.status().message();
    for (int64_t numrecs : {int64_t{0}, int64_t{1}, int64_t{5}}) {
      Result<Bytes> h = encode_header(m, *L, numrecs);
      ASSERT_TRUE(h.ok()) << h.status().message();
      ASSERT_EQ(static_cast<int64_t>(h->size()), L->header_size);
      Result<Decoded> d = decode_sized(*h, *L->file_size(numrecs));
      ASSERT_TRUE(d.ok()) << d.status().message();
      ASSERT_TRUE(d->complete());
      EXPECT_TRUE(d->header.model == m);
      EXPECT_EQ(d->header.numrecs, numrecs);
      EXPECT_FALSE(d->header.streaming);
      expect_same_layout(d->header.layout, *L);
    }
  }
  // The empty file: 32 bytes in CDF-1 (the specification's example), 48 in CDF-5.
  for (Format f : {Format::kCdf1, Format::kCdf2, Format::kCdf5}) {
    Result<Layout> L = layout(Model(), {f});
    ASSERT_TRUE(L.ok());
    EXPECT_EQ(L->header_size, f == Format::kCdf5 ? 48 : 32);
    Result<Bytes> h = encode_header(Model(), *L, 0);
    ASSERT_TRUE(h.ok());
    Result<Decoded> d = decode_all(*h);
    ASSERT_TRUE(d.ok() && d->complete());
    EXPECT_TRUE(d->header.model == Model());
  }
}

TEST(NetcdfClassic, AttributeValuesAreBigEndianAndPadded) {
  Model m;
  m.attributes.push_back(numeric_attribute("s", NcType::kShort, std::vector<int16_t>{0x0102}));
  Result<Layout> L = layout(m, {Format::kCdf1});
  Result<Bytes> h = encode_header(m, *L, 0);
  ASSERT_TRUE(h.ok());
  Builder want;
  want.magic(1).u32(0).absent();
  want.u32(0x0C).u32(1).name("s").u32(3).u32(1);
  want.b.insert(want.b.end(), {0x01, 0x02, 0, 0});
  want.absent();
  EXPECT_EQ(*h, want.b);
  EXPECT_EQ(text_attribute("t", "abc").text(), "abc");
}

TEST(NetcdfClassic, NumrecsInPlaceAndStreaming) {
  for (Format f : {Format::kCdf1, Format::kCdf2, Format::kCdf5}) {
    SCOPED_TRACE(format_name(f));
    const Model m = mixed();
    Result<Layout> L = layout(m, {f});
    ASSERT_TRUE(L.ok());
    Result<Bytes> h0 = encode_header(m, *L, 0);
    Result<Bytes> h7 = encode_header(m, *L, 7);
    Result<Bytes> field = encode_numrecs(f, 7);
    ASSERT_TRUE(h0.ok() && h7.ok() && field.ok());
    ASSERT_EQ(static_cast<int>(field->size()), L->numrecs_width);
    // Raising numrecs in place turns one header into the other.
    Bytes patched = *h0;
    std::memcpy(patched.data() + L->numrecs_offset, field->data(), field->size());
    EXPECT_EQ(patched, *h7);
    // Streaming: the count comes from the file's size (whole records only).
    Result<Bytes> hs = encode_header(m, *L, kStreamingRecords);
    ASSERT_TRUE(hs.ok());
    for (int i = 0; i < L->numrecs_width; ++i) EXPECT_EQ((*hs)[4 + i], 0xFF);
    Result<Decoded> d = decode_sized(*hs, *L->file_size(3) + 5);
    ASSERT_TRUE(d.ok()) << d.status().message() << " " << *L->file_size(3);
    EXPECT_TRUE(d->header.streaming);
    EXPECT_EQ(d->header.numrecs, 3);
    d = decode_sized(*hs, L->record_begin);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->header.numrecs, 0);
    EXPECT_EQ(encode_numrecs(f, -2).status().code(), Code::kOutOfRange);
    EXPECT_EQ(encode_header(m, *L, -5).status().code(), Code::kOutOfRange);
  }
  EXPECT_EQ(encode_numrecs(Format::kCdf2, int64_t{1} << 31).status().code(), Code::kOutOfRange);
  EXPECT_TRUE(encode_numrecs(Format::kCdf5, int64_t{1} << 31).ok());
  EXPECT_EQ(encode_numrecs(Format::kAuto, 1).status().code(), Code::kInvalidArgument);
}

TEST(NetcdfClassic, EncodeRefusesALayoutOfAnotherModel) {
  Result<Layout> L = layout(mixed());
  ASSERT_TRUE(L.ok());
  EXPECT_EQ(encode_header(tiny(), *L, 0).status().code(), Code::kInvalidArgument);
  Model longer = mixed();
  longer.vars[0].name = "a_longer_name";
  EXPECT_EQ(encode_header(longer, *L, 0).status().code(), Code::kInvalidArgument);
  Layout bad = *L;
  bad.vars[0].begin = 8;  // inside the header
  EXPECT_EQ(encode_header(mixed(), bad, 0).status().code(), Code::kInvalidArgument);
  bad = *L;
  bad.format = Format::kAuto;
  EXPECT_EQ(encode_header(mixed(), bad, 0).status().code(), Code::kInvalidArgument);
  Model m5 = mixed();
  m5.vars[0].type = NcType::kUInt64;
  EXPECT_EQ(encode_header(m5, *L, 0).status().code(), Code::kInvalidArgument);
}

TEST(NetcdfClassic, ElementTypes) {
  for (int t = kFirstElementType; t <= kLastElementType; ++t) {
    const auto e = static_cast<ElementType>(t);
    Result<NcType> nc = nc_type_of(e);
    if (is_complex(e)) {
      EXPECT_EQ(nc.status().code(), Code::kUnsupported);
      continue;
    }
    ASSERT_TRUE(nc.ok()) << element_name(e);
    EXPECT_EQ(element_type_of(*nc), e);
    EXPECT_EQ(nc_type_size(*nc), element_size(e));
  }
  EXPECT_EQ(element_type_of(NcType::kChar), ElementType::kUInt8);
  EXPECT_FALSE(cdf5_only(NcType::kDouble));
  EXPECT_TRUE(cdf5_only(NcType::kUByte));
  EXPECT_FALSE(valid_nc_type(0));
  EXPECT_FALSE(valid_nc_type(12));
}

// ---- decoding untrusted bytes -------------------------------------------

TEST(NetcdfClassicDecode, ShortReadsAskForMoreAndTruncatedFilesAreCorrupt) {
  const Model m = rich(true);
  Result<Layout> L = layout(m, {Format::kCdf5});
  ASSERT_TRUE(L.ok());
  Result<Bytes> h = encode_header(m, *L, 2);
  ASSERT_TRUE(h.ok());
  const int64_t fsize = *L->file_size(2);
  for (size_t k = 0; k < h->size(); ++k) {
    // The file is whole but only k bytes are in hand: ask for more.
    Result<Decoded> d = decode_header(h->data(), k, fsize);
    ASSERT_TRUE(d.ok()) << k << ": " << d.status().message();
    ASSERT_FALSE(d->complete()) << k;
    EXPECT_GT(d->need, static_cast<int64_t>(k));
    EXPECT_LE(d->need, fsize);
    // The file itself ends after k bytes: corrupt, never a request.
    d = decode_header(h->data(), k, static_cast<int64_t>(k));
    ASSERT_FALSE(d.ok()) << k;
    EXPECT_EQ(d.status().code(), Code::kCorrupt) << k;
  }
  // A caller's loop: start small, read what is asked, few rounds.
  Bytes file = *h;
  file.resize(static_cast<size_t>(fsize), 0);
  size_t have = 16;
  int rounds = 0;
  for (;;) {
    Result<Decoded> d = decode_header(file.data(), have, fsize);
    ASSERT_TRUE(d.ok()) << d.status().message();
    ++rounds;
    if (d->complete()) {
      EXPECT_TRUE(d->header.model == m);
      break;
    }
    have = static_cast<size_t>(d->need);
  }
  EXPECT_LE(rounds, 8);
}

TEST(NetcdfClassicDecode, BadArgumentsAndMagic) {
  const Bytes h = *encode_header(tiny(), *layout(tiny()), 0);
  EXPECT_EQ(decode_header(h.data(), h.size(), 10).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(decode_header(nullptr, 4, 100).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(decode_header(h.data(), h.size(), -1).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(decode_header(h.data(), 3, 3).status().code(), Code::kCorrupt);
  EXPECT_EQ(decode_header(h.data(), 0, 0).status().code(), Code::kCorrupt);
  const Bytes hdf5 = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1A, '\n', 0, 0, 0, 0};
  Status s = decode_error(hdf5);
  EXPECT_EQ(s.code(), Code::kUnsupported);
  EXPECT_TRUE(contains(s, "netCDF-4")) << s.message();
  for (const Bytes& bad : {Bytes{'C', 'D', 'F', 3, 0, 0, 0, 0}, Bytes{'X', 'D', 'F', 1, 0, 0, 0, 0},
                           Bytes{'C', 'D', 'F', 0, 0, 0, 0, 0}}) {
    s = decode_error(bad);
    EXPECT_EQ(s.code(), Code::kCorrupt);
    EXPECT_TRUE(contains(s, "magic")) << s.message();
  }
}

// A header with one dimension list entry, for the decoder to refuse.
Status refused(const Builder& b, int64_t file_size = -1) {
  const int64_t fsize = file_size < 0 ? static_cast<int64_t>(b.b.size()) : file_size;
  Result<Decoded> d = decode_header(b.b.data(), b.b.size(), fsize);
  if (d.ok()) return Status(Code::kInternal, d->complete() ? "decoded" : "asked for more");
  return d.status();
}

void expect_corrupt(const Builder& b, const std::string& text, int64_t file_size = -1) {
  const Status s = refused(b, file_size);
  EXPECT_EQ(s.code(), Code::kCorrupt) << s.message();
  EXPECT_TRUE(contains(s, text)) << "wanted '" << text << "' in: " << s.message();
}

TEST(NetcdfClassicDecode, ListsTagsAndCounts) {
  Builder b;
  b.magic(2).u32(0).u32(0x0D).u32(1);
  expect_corrupt(b, "unknown tag 0x0000000D");
  b = Builder();
  b.magic(2).u32(0).u32(0).u32(3);  // ABSENT with a count
  expect_corrupt(b, "absent list");
  b = Builder();
  b.magic(2).u32(0).u32(0x0A).u32(0x7FFFFFFF).u32(0);
  expect_corrupt(b, "cannot fit");
  b = Builder();
  b.magic(5).u64(0).u32(0x0A).u64(uint64_t{1} << 62).u64(0);
  expect_corrupt(b, "cannot fit");
  b = Builder();
  b.magic(2).u32(0).absent().u32(0x0B).u32(1);  // attribute tag where variables are... missing gatt
  expect_corrupt(b, "unknown tag 0x0000000B");
  b = Builder();
  b.magic(5).u64(~uint64_t{0} - 1);  // numrecs negative as int64
  expect_corrupt(b, "numrecs");
}

TEST(NetcdfClassicDecode, Names) {
  Builder b;
  b.magic(1).u32(0).u32(0x0A).u32(1).u32(0).u32(5).absent().absent();  // empty name
  expect_corrupt(b, "name length 0");
  b = Builder();
  b.magic(1).u32(0).u32(0x0A).u32(1).name(std::string(300, 'x')).u32(5);
  expect_corrupt(b, "name length 300");
  b = Builder();
  b.magic(1).u32(0).u32(0x0A).u32(1).u32(100).u32(0x41414141).u32(0).u32(0);  // name past the end
  expect_corrupt(b, "runs past the end of the file");
  b = Builder();
  b.magic(1).u32(0).u32(0x0A).u32(2).name("x").u32(1).name("x").u32(2);
  b.absent().absent();
  expect_corrupt(b, "appears twice");
}

TEST(NetcdfClassicDecode, Dimensions) {
  Builder b;
  b.magic(1).u32(0).u32(0x0A).u32(2).name("t").u32(0).name("s").u32(0).absent().absent();
  expect_corrupt(b, "second unlimited");
  b = Builder();
  b.magic(5).u64(0).u32(0x0A).u64(1).name("d").u64(~uint64_t{0}).absent().absent();
  expect_corrupt(b, "negative as a signed 64-bit");
}

TEST(NetcdfClassicDecode, Attributes) {
  auto with_attr = [](int version, uint32_t type, uint64_t count, size_t value_bytes) {
    Builder b;
    b.magic(version).n(0).absent();
    b.u32(0x0C).n(1).name("att").u32(type).n(count);
    b.b.resize(b.b.size() + value_bytes, 0);
    b.absent();
    return b;
  };
  expect_corrupt(with_attr(2, 0, 1, 4), "unknown nc_type 0");
  expect_corrupt(with_attr(2, 12, 1, 4), "unknown nc_type 12");
  expect_corrupt(with_attr(2, 0x80000001u, 1, 4), "unknown nc_type");
  expect_corrupt(with_attr(2, 7, 1, 4), "only in CDF-5");
  expect_corrupt(with_attr(2, 10, 1, 8), "only in CDF-5");
  expect_corrupt(with_attr(2, 6, 1000, 8), "cannot fit");
  expect_corrupt(with_attr(5, 11, uint64_t{1} << 60, 8), "cannot fit");
  // Values whose padding runs past the end.
  Builder b;
  b.magic(2).u32(0).absent().u32(0x0C).u32(1).name("att").u32(1).u32(3);
  b.b.insert(b.b.end(), {1, 2, 3});
  expect_corrupt(b, "values");
  EXPECT_TRUE(decode_all(with_attr(5, 11, 1, 8).b).ok());
  Builder dup;
  dup.magic(2).u32(0).absent();
  dup.u32(0x0C).u32(2).name("a").u32(4).u32(0).name("a").u32(4).u32(0).absent();
  expect_corrupt(dup, "appears twice");
}

// One variable of CDF-2 with the given dimension ids, type and begin.
Builder with_var(std::vector<uint32_t> dimids, uint32_t type, uint64_t begin, int version = 2,
                 std::vector<std::pair<std::string, uint32_t>> dims = {{"t", 0}, {"n", 4}}) {
  Builder b;
  b.magic(version).n(0);
  b.u32(0x0A).n(dims.size());
  for (auto& d : dims) b.name(d.first).n(d.second);
  b.absent();
  b.u32(0x0B).n(1).name("v").n(dimids.size());
  for (uint32_t id : dimids) b.n(id);
  b.absent().u32(type).n(16);
  if (version == 1) {
    b.u32(static_cast<uint32_t>(begin));
  } else {
    b.u64(begin);
  }
  return b;
}

TEST(NetcdfClassicDecode, Variables) {
  Builder ok = with_var({1}, 4, 100);
  ASSERT_TRUE(decode_sized(ok.b, 116).ok()) << decode_sized(ok.b, 116).status().message();
  expect_corrupt(with_var({2}, 4, 100), "dimension id 2 out of range", 200);
  expect_corrupt(with_var({1, 0}, 4, 100), "not its first", 200);
  expect_corrupt(with_var({1}, 13, 100), "unknown nc_type 13", 200);
  expect_corrupt(with_var({1}, 9, 100), "only in CDF-5", 200);
  expect_corrupt(with_var({1}, 4, 8), "overlaps the header", 200);
  expect_corrupt(with_var({1}, 4, uint64_t{1} << 63), "negative as a signed 64-bit", 200);
  expect_corrupt(with_var({1}, 4, 0x80000000u, 1), "negative in CDF-1", 200);
  expect_corrupt(with_var({1}, 4, std::numeric_limits<int64_t>::max() - 2), "overflows", 200);
  // Data past the end of the file: a fixed variable, and records the
  // header claims but the file does not hold.
  expect_corrupt(with_var({1}, 4, 100), "truncated", 115);
  Builder rec = with_var({0, 1}, 4, 100);
  rec.b[7] = 3;  // numrecs = 3: 100 + 3 * 16
  EXPECT_TRUE(decode_sized(rec.b, 148).ok());
  expect_corrupt(rec, "3 records", 147);
  // A size that overflows 64 bits: three dimensions of 2^40 doubles (CDF-5).
  Builder big;
  big.magic(5).u64(0).u32(0x0A).u64(1).name("d").u64(uint64_t{1} << 40).absent();
  big.u32(0x0B).u64(1).name("v").u64(3).u64(0).u64(0).u64(0).absent().u32(6).u64(0).u64(200);
  expect_corrupt(big, "overflows 64 bits", 1000);
  // More than 1024 dimensions on one variable.
  Builder many;
  many.magic(2).u32(0).u32(0x0A).u32(1).name("d").u32(1).absent();
  many.u32(0x0B).u32(1).name("v").u32(1025);
  many.b.resize(many.b.size() + 1025 * 4 + 40, 0);
  expect_corrupt(many, "1025 dimensions");
  // Two variables of one name.
  Builder dup;
  dup.magic(2).u32(0).absent().absent().u32(0x0B).u32(2);
  dup.name("v").u32(0).absent().u32(4).u32(4).u64(100);
  dup.name("v").u32(0).absent().u32(4).u32(4).u64(104);
  expect_corrupt(dup, "appears twice", 200);
}

TEST(NetcdfClassicDecode, StoredVsizeIsIgnored) {
  // CDF-2 writers store 2^32 - 1 for variables past 4 GiB: the size is
  // computed from the dimensions.
  Builder b = with_var({1}, 6, 100);
  b.b[b.b.size() - 12] = 0xFF;
  b.b[b.b.size() - 11] = 0xFF;
  b.b[b.b.size() - 10] = 0xFF;
  b.b[b.b.size() - 9] = 0xFF;
  Result<Decoded> d = decode_sized(b.b, 132);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->header.layout.vars[0].vsize, 32);
}

}  // namespace
}  // namespace pario::exodus
