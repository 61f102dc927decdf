#include "diskarray/zarr_meta.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/checked.h"
#include "device/device.h"

namespace pario::diskarray {
namespace {

using nlohmann::json;

// A zarr.json is a few hundred bytes to a few kilobytes of attributes; a
// file far larger is not one pario should parse.
constexpr size_t kMaxMetaBytes = size_t{64} << 20;

Status corrupt(const std::string& dir, const std::string& what) {
  return Status(Code::kCorrupt, dir + "/zarr.json: " + what);
}
Status unsupported(const std::string& dir, const std::string& what) {
  return Status(Code::kUnsupported, dir + "/zarr.json: " + what);
}

// JSON nested deeper than this is refused before it is parsed: the parser
// keeps its own stack, but copying and printing a value (json::value,
// dump) recurse once per level, and a 64 MB zarr.json of brackets would
// overflow the thread's stack on every rank.
constexpr int kMaxJsonDepth = 64;

// Whether text's arrays and objects nest deeper than kMaxJsonDepth
// (brackets inside strings do not count).
bool nests_too_deep(const std::string& text) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

// A JSON integer that fits an int64_t. get<int64_t> would cast a float
// (2e103) or an unsigned above INT64_MAX with undefined behaviour.
bool fits_int64(const json& x) {
  return x.is_number_integer() && !(x.is_number_unsigned() && x.get<uint64_t>() > uint64_t{INT64_MAX});
}

Result<std::vector<int64_t>> int_list(const std::string& dir, const json& v, const std::string& what) {
  if (!v.is_array()) return corrupt(dir, what + " is not a list");
  std::vector<int64_t> out;
  for (const json& x : v) {
    if (!fits_int64(x)) return corrupt(dir, what + " holds " + x.dump() + ", not a 64-bit integer");
    out.push_back(x.get<int64_t>());
  }
  return out;
}

// The chunk codecs: "bytes" (little-endian), optionally then "zstd".
Status read_chunk_codecs(const std::string& dir, const json& codecs, ZarrMeta* m) {
  const bool zstd = codecs.size() == 2 && codecs[1].at("name") == "zstd";
  if (codecs.empty() || codecs[0].at("name") != "bytes" || (codecs.size() != 1 && !zstd)) {
    return unsupported(dir, "codecs " + codecs.dump() + " (pario reads \"bytes\", optionally then \"zstd\", "
                                                        "optionally inside \"sharding_indexed\")");
  }
  if (zstd) {
    m->zstd = true;
    const json level = codecs[1].value("configuration", json::object()).value("level", json(0));
    if (!fits_int64(level) || level.get<int64_t>() < -(1 << 17) || level.get<int64_t>() > 22) {
      return unsupported(dir, "zstd level " + level.dump());
    }
    m->zstd_level = static_cast<int>(level.get<int64_t>());
  }
  if (m->element_bytes() > 1 && codecs[0].contains("configuration") &&
      codecs[0]["configuration"].value("endian", "little") != "little") {
    return unsupported(dir, "big-endian data");
  }
  return Status::Ok();
}

// The sharding_indexed codec's configuration: the grid's chunks become
// the shards, and its chunk_shape the chunks.
Status read_sharding(const std::string& dir, const json& conf, ZarrMeta* m) {
  m->shard = m->chunks;
  PARIO_ASSIGN_OR_RETURN(m->chunks, int_list(dir, conf.at("chunk_shape"), "the inner chunk_shape"));
  if (m->chunks.size() != m->shard.size()) return corrupt(dir, "inner chunk_shape and shape differ in rank");
  for (size_t d = 0; d < m->shard.size(); ++d) {
    if (m->chunks[d] <= 0 || m->shard[d] % m->chunks[d] != 0) {
      return corrupt(dir, "the shard shape is not a multiple of the inner chunk shape");
    }
  }
  const std::string where = conf.value("index_location", "end");
  if (where != "end" && where != "start") return corrupt(dir, "index_location " + where);
  m->index_at_end = where == "end";
  const json& index = conf.at("index_codecs");
  const bool bytes_first = !index.empty() && index[0].at("name") == "bytes" &&
                           index[0].value("configuration", json::object()).value("endian", "little") == "little";
  m->index_crc32c = index.size() == 2 && index[1].at("name") == "crc32c";
  if (!bytes_first || (index.size() != 1 && !m->index_crc32c)) {
    return unsupported(dir, "index_codecs " + index.dump() + " (pario reads little-endian \"bytes\", "
                                                             "optionally then \"crc32c\")");
  }
  for (const json& c : conf.at("codecs")) {
    if (c.at("name") == "sharding_indexed") return unsupported(dir, "nested sharding");
  }
  return Status::Ok();
}

// Chunk and shard sizes: every product a reader forms later fits.
Status check_grid(const std::string& dir, const ZarrMeta& m) {
  int64_t chunk_bytes = 0;
  if (!checked_bytes(m.chunks.data(), m.chunks.size(), static_cast<int64_t>(m.element_bytes()), &chunk_bytes)) {
    return corrupt(dir, "the chunk shape's size overflows");
  }
  if (chunk_bytes > kMaxChunkBytes) {
    return unsupported(dir, "chunks of " + std::to_string(chunk_bytes) + " bytes (pario moves at most " +
                                std::to_string(kMaxChunkBytes) + " per chunk)");
  }
  if (m.sharded()) {
    int64_t per_shard = 1, index_bytes = 0;
    for (size_t d = 0; d < m.shard.size(); ++d) {
      if (!checked_mul(per_shard, m.shard[d] / m.chunks[d], &per_shard)) {
        return corrupt(dir, "the number of chunks per shard overflows");
      }
    }
    if (!checked_mul(per_shard, 16, &index_bytes) || index_bytes > kMaxChunkBytes) {
      return unsupported(dir, std::to_string(per_shard) + " chunks per shard (the index would not fit in memory)");
    }
  }
  return Status::Ok();
}

}  // namespace

Status check_shape(const int64_t* shape, size_t n, ElementType type) {
  if (n < 1 || n > static_cast<size_t>(kMaxDims)) {
    return Status(Code::kInvalidArgument, std::to_string(n) + " dimensions (pario supports 1 to " +
                                              std::to_string(kMaxDims) + ")");
  }
  for (size_t d = 0; d < n; ++d) {
    if (shape[d] < 0) {
      return Status(Code::kInvalidArgument, "extent " + std::to_string(shape[d]) + " in dimension " +
                                                std::to_string(d) + " is negative");
    }
  }
  int64_t bytes = 0;
  if (!checked_bytes(shape, n, static_cast<int64_t>(element_size(type)), &bytes)) {
    return Status(Code::kInvalidArgument, "the array would have more than 2^63 bytes");
  }
  return Status::Ok();
}

const char* zarr_data_type(ElementType t) {
  if (is_integer(t)) return element_name(t);  // "int8" .. "uint64", Zarr's names too
  switch (t) {
    case ElementType::kDouble: return "float64";
    case ElementType::kFloat: return "float32";
    case ElementType::kComplexDouble: return "complex128";
    case ElementType::kComplexFloat: return "complex64";
    default: return "?";
  }
}

int64_t ZarrMeta::chunk_elements() const {
  int64_t n = 1;
  // Saturates: while a new array's chunks are being sized (from extents
  // that may be huge beside a zero one) the product can exceed int64;
  // parse_meta refuses such chunks, so elsewhere it is exact.
  return checked_product(chunks.data(), chunks.size(), &n) ? n : INT64_MAX;
}

std::string ZarrMeta::chunk_key(const std::vector<int64_t>& index) const {
  std::string key = "c";
  for (int64_t i : index) key += "/" + std::to_string(i);
  return key;
}

std::vector<int64_t> ZarrMeta::shard_index(const std::vector<int64_t>& chunk_index, int64_t* slot) const {
  std::vector<int64_t> s(chunk_index.size());
  *slot = 0;
  for (size_t d = 0; d < s.size(); ++d) {
    const int64_t per = shard[d] / chunks[d];
    s[d] = chunk_index[d] / per;
    *slot = *slot * per + chunk_index[d] % per;
  }
  return s;
}

// An error names the path and what the OS said.
Result<std::string> read_meta_text(const std::string& dir) {
  const std::string path = dir + "/zarr.json";
  // Never through a link, and a FIFO is refused rather than waited on
  // (O_NONBLOCK); only a regular file is read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0 && errno == ENOENT) {
    return Status(Code::kNotFound, dir + ": no zarr.json (not a Zarr array, or not created yet)");
  }
  if (fd < 0) return errno_status(errno, path);
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status(Code::kCorrupt, path + ": not a regular file");
  }
  std::string text;
  char buf[65536];
  Status s;
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      s = errno_status(errno, path);
      break;
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > kMaxMetaBytes) {
      s = Status(Code::kUnsupported, path + ": larger than " + std::to_string(kMaxMetaBytes) + " bytes");
      break;
    }
  }
  ::close(fd);
  if (!s.ok()) return s;
  return text;
}

Result<ZarrMeta> parse_meta(const std::string& text, const std::string& dir) {
  if (nests_too_deep(text)) {
    return unsupported(dir, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    return corrupt(dir, std::string("not valid JSON (") + e.what() + ")");
  }
  try {
    if (!j.is_object()) return corrupt(dir, "not a JSON object");
    const json format = j.value("zarr_format", json());
    if (!fits_int64(format) || format.get<int64_t>() != 3) return unsupported(dir, "zarr_format is not 3");
    if (j.value("node_type", "") != "array") return unsupported(dir, "node_type is not \"array\"");
    ZarrMeta m;
    PARIO_ASSIGN_OR_RETURN(m.shape, int_list(dir, j.at("shape"), "shape"));
    const std::string dtype = j.at("data_type").get<std::string>();
    bool known = false;
    for (int t = kFirstElementType; t <= kLastElementType; ++t) {
      if (dtype == zarr_data_type(static_cast<ElementType>(t))) {
        m.type = static_cast<ElementType>(t);
        known = true;
      }
    }
    if (!known) return unsupported(dir, "data_type " + dtype);
    const json& grid = j.at("chunk_grid");
    if (grid.at("name") != "regular") return unsupported(dir, "chunk grid " + grid.at("name").dump());
    PARIO_ASSIGN_OR_RETURN(m.chunks, int_list(dir, grid.at("configuration").at("chunk_shape"), "chunk_shape"));
    if (m.shape.empty() || m.shape.size() > static_cast<size_t>(kMaxDims)) {
      return unsupported(dir, std::to_string(m.shape.size()) + " dimensions (pario reads 1 to " +
                                  std::to_string(kMaxDims) + ")");
    }
    if (m.chunks.size() != m.shape.size()) return corrupt(dir, "chunk_shape and shape differ in rank");
    for (size_t d = 0; d < m.shape.size(); ++d) {
      if (m.shape[d] < 0 || m.chunks[d] <= 0) return corrupt(dir, "negative shape or non-positive chunk");
    }
    Status shape_ok = check_shape(m.shape.data(), m.shape.size(), m.type);
    if (!shape_ok.ok()) return corrupt(dir, "shape: " + shape_ok.message());
    const json keys = j.value("chunk_key_encoding", json{{"name", "default"}});
    const std::string sep = keys.contains("configuration") ? keys["configuration"].value("separator", "/") : "/";
    if (keys.at("name") != "default" || sep != "/") {
      return unsupported(dir, "chunk key encoding " + keys.dump() + " (pario reads default with \"/\")");
    }
    const json* codecs = &j.at("codecs");
    if (codecs->size() == 1 && (*codecs)[0].at("name") == "sharding_indexed") {
      PARIO_RETURN_IF_ERROR(read_sharding(dir, (*codecs)[0].at("configuration"), &m));
      codecs = &(*codecs)[0].at("configuration").at("codecs");
    }
    PARIO_RETURN_IF_ERROR(read_chunk_codecs(dir, *codecs, &m));
    PARIO_RETURN_IF_ERROR(check_grid(dir, m));
    // 0, or [0, 0] for a complex type: missing chunks read as zeros.
    const json fill = j.value("fill_value", json(0));
    auto zero = [](const json& x) { return x.is_number() && x.get<double>() == 0; };
    const bool zero_fill = is_complex(m.type) ? fill.is_array() && fill.size() == 2 && zero(fill[0]) && zero(fill[1])
                                              : zero(fill);
    if (!zero_fill) {
      return unsupported(dir, "fill_value " + fill.dump() + " (pario reads " +
                                  (is_complex(m.type) ? "[0, 0]" : "0") + ")");
    }
    m.attributes_json = j.value("attributes", json::object()).dump();
    // pario's own shards say so in its attribute (another program may have
    // set "pario" to anything: only pario's form counts).
    const json attrs = j.value("attributes", json::object());
    const json pario = attrs.is_object() ? attrs.value("pario", json::object()) : json::object();
    const json layout = pario.is_object() ? pario.value("layout", json()) : json();
    m.fixed_slots = m.sharded() && !m.zstd && layout.is_string() &&
                    layout.get<std::string>().find("fixed-offset") != std::string::npos;
    return m;
  } catch (const json::exception& e) {
    return corrupt(dir, std::string("missing or malformed field (") + e.what() + ")");
  }
}

Result<std::string> get_attribute(const ZarrMeta& m, const std::string& name) {
  const json attrs = json::parse(m.attributes_json, nullptr, false);
  if (attrs.is_discarded() || !attrs.is_object() || !attrs.contains(name)) {
    return Status(Code::kNotFound, "no attribute \"" + name + "\"");
  }
  const json& v = attrs[name];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

Status set_attribute(ZarrMeta* m, const std::string& name, const std::string& value) {
  if (name.empty()) return Status(Code::kInvalidArgument, "attribute name is empty");
  if (name == "pario") return Status(Code::kInvalidArgument, "attribute \"pario\" is pario's own");
  json attrs = json::parse(m->attributes_json, nullptr, false);
  if (attrs.is_discarded() || !attrs.is_object()) attrs = json::object();
  try {
    attrs[name] = value;
    m->attributes_json = attrs.dump();
  } catch (const json::exception& e) {  // not UTF-8: JSON cannot hold it
    return Status(Code::kInvalidArgument, "attribute \"" + name + "\": " + e.what());
  }
  return Status::Ok();
}

Status write_meta(const std::string& dir, const ZarrMeta& m) {
  json j;
  j["zarr_format"] = 3;
  j["node_type"] = "array";
  j["shape"] = m.shape;
  j["data_type"] = zarr_data_type(m.type);
  j["chunk_grid"] = {{"name", "regular"}, {"configuration", {{"chunk_shape", m.sharded() ? m.shard : m.chunks}}}};
  j["chunk_key_encoding"] = {{"name", "default"}, {"configuration", {{"separator", "/"}}}};
  if (is_complex(m.type)) {
    j["fill_value"] = json::array({0.0, 0.0});
  } else {
    j["fill_value"] = 0;
  }
  const json little = {{"name", "bytes"}, {"configuration", {{"endian", "little"}}}};
  json codecs = json::array({little});
  if (m.zstd) {
    codecs.push_back({{"name", "zstd"}, {"configuration", {{"level", m.zstd_level}, {"checksum", false}}}});
  }
  if (m.sharded()) {
    json index = json::array({little});
    if (m.index_crc32c) index.push_back({{"name", "crc32c"}});
    codecs = json::array({{{"name", "sharding_indexed"},
                           {"configuration",
                            {{"chunk_shape", m.chunks},
                             {"codecs", codecs},
                             {"index_codecs", index},
                             {"index_location", m.index_at_end ? "end" : "start"}}}}});
  }
  j["codecs"] = codecs;
  j["attributes"] = json::parse(m.attributes_json, nullptr, false);
  if (j["attributes"].is_discarded()) j["attributes"] = json::object();
  const std::string text = j.dump(2) + "\n";
  // Written, synced, then put in place: readers see the old file or the new.
  PARIO_ASSIGN_OR_RETURN(device::NewFile f, device::NewFile::create(dir + "/zarr.json"));
  Status s = f.device().write_at(0, text.data(), text.size());
  if (s.ok()) s = f.device().sync();
  if (s.ok()) s = f.publish(true);
  return s;
}

}  // namespace pario::diskarray
