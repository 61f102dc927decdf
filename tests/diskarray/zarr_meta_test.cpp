// What a foreign store's metadata may claim (diskarray/zarr_meta.h,
// chunk_store.h): pure checks of untrusted text and bytes, serially.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "diskarray/chunk_store.h"
#include "diskarray/zarr_meta.h"

namespace pario::diskarray {
namespace {

// A one-dimensional array's zarr.json, with `rest` (fields beyond the
// required ones) at its end.
std::string meta_text(const std::string& type, const std::string& fill, const std::string& rest = "") {
  return R"({"zarr_format": 3, "node_type": "array", "shape": [16], "data_type": ")" + type +
         R"(", "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},)"
         R"( "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}], "fill_value": )" +
         fill + rest + "}";
}

TEST(ParseMeta, DeepNestingIsRefusedBeforeItIsCopied) {
  // Copying or printing a value recurses once per level: a million levels
  // overflowed the stack (a crash on every rank) before the depth check.
  const size_t depth = 1000000;
  const std::string nested = std::string(depth, '[') + std::string(depth, ']');
  Result<ZarrMeta> m = parse_meta(meta_text("float64", "0", R"(, "attributes": {"a": )" + nested + "}"), "deep");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), Code::kUnsupported);
  EXPECT_NE(m.status().message().find("nested deeper than 64"), std::string::npos) << m.status().message();
  // Brackets inside a string are text, not nesting.
  const std::string text = R"(, "attributes": {"a": ")" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"}";
  Result<ZarrMeta> ok = parse_meta(meta_text("float64", "0", text), "brackets in a string");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  Result<std::string> a = get_attribute(*ok, "a");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->size(), 2001u);
}

TEST(ParseMeta, FillValueMustBeZero) {
  EXPECT_TRUE(parse_meta(meta_text("float64", "0"), "d").ok());
  EXPECT_TRUE(parse_meta(meta_text("complex128", "[0.0, 0.0]"), "d").ok());
  // Missing chunks read as zeros: any other fill value would be data
  // silently wrong, and an array is a complex number's alone.
  for (const auto& [type, fill] : std::vector<std::pair<std::string, std::string>>{
           {"complex128", "[1.0, 2.0]"}, {"complex64", "[0.0]"}, {"complex128", "[0, 0, 0]"},
           {"float64", "[0, 0]"}, {"int32", "[]"}, {"float64", "1.5"}}) {
    Result<ZarrMeta> m = parse_meta(meta_text(type, fill), "d");
    ASSERT_FALSE(m.ok()) << type << " " << fill;
    EXPECT_EQ(m.status().code(), Code::kUnsupported);
    EXPECT_NE(m.status().message().find("fill_value"), std::string::npos) << m.status().message();
  }
}

// A shard of two chunks of four doubles, its index (no checksum) at the
// end of a file of `size` bytes claiming chunk 0 holds `nbytes` at 0.
Result<std::vector<uint64_t>> index_claiming(bool zstd, uint64_t nbytes, uint64_t size) {
  ZarrMeta m;
  m.shape = {8};
  m.chunks = {4};
  m.shard = {8};
  m.zstd = zstd;
  m.index_crc32c = false;
  m.index_at_end = true;
  const uint64_t entries[4] = {0, nbytes, ~uint64_t{0}, ~uint64_t{0}};
  char idx[32];
  std::memcpy(idx, entries, sizeof idx);
  return parse_shard_index(m, idx, sizeof idx, size, "shard");
}

TEST(ShardIndex, AChunkLargerThanItsShapeCanTakeIsDamage) {
  // The sizes lie inside a (sparse) file of 2^41 bytes: only the chunk's
  // own bound stops a 2^40-byte buffer being made for it.
  EXPECT_TRUE(index_claiming(false, 32, uint64_t{1} << 41).ok());
  EXPECT_TRUE(index_claiming(true, 40, uint64_t{1} << 41).ok());  // zstd may grow a little
  for (const bool zstd : {false, true}) {
    for (const uint64_t nbytes : {uint64_t{1} << 40, uint64_t{1} << 20}) {
      Result<std::vector<uint64_t>> e = index_claiming(zstd, nbytes, uint64_t{1} << 41);
      ASSERT_FALSE(e.ok()) << zstd << " " << nbytes;
      EXPECT_EQ(e.status().code(), Code::kCorrupt);
      EXPECT_NE(e.status().message().find("its shape can take"), std::string::npos) << e.status().message();
    }
  }
  EXPECT_FALSE(index_claiming(false, 33, uint64_t{1} << 41).ok());
}

}  // namespace
}  // namespace pario::diskarray
