// The codec's side of the independent-reader check (netcdf_check.py):
//
//   netcdf_interop write DIR   writes cdf1.nc, cdf2.nc, cdf5.nc,
//                              single_record.nc and aligned.nc: headers
//                              from the codec, data written big-endian
//                              here, every value given by value_of() below
//                              (the Python side computes the same);
//   netcdf_interop dump FILE   decodes FILE's header (reading more each
//                              time decode_header asks) and prints it and
//                              every value as JSON, for comparison with
//                              what netCDF-C says of the same file.
//
// Exits 0, or 1 with the failure on stderr.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "base/convert.h"
#include "exodus/netcdf_classic.h"

using namespace pario;
using namespace pario::exodus;

namespace {

using Bytes = std::vector<unsigned char>;

template <typename T>
void put(unsigned char* p, T x) {
  std::memcpy(p, &x, sizeof x);
}
template <typename T>
T get(const unsigned char* q) {
  T x;
  std::memcpy(&x, q, sizeof x);
  return x;
}

// The value of element k (over the whole variable, records in order) of
// the variable numbered vi: netcdf_check.py's value_of is the same.
double value_of(NcType t, int vi, int64_t k) {
  const int64_t base = vi * 7 + k;
  switch (t) {
    case NcType::kFloat:
    case NcType::kDouble: return static_cast<double>(base) * 0.5 - 3.0;
    case NcType::kChar: return static_cast<double>('a' + base % 26);
    case NcType::kByte:
    case NcType::kShort:
    case NcType::kInt: return static_cast<double>(base % 100 - 50);
    case NcType::kUByte: return static_cast<double>(base % 200 + 50);
    case NcType::kUShort:
    case NcType::kUInt: return static_cast<double>(base % 1000 + 60000);
    case NcType::kInt64:
    case NcType::kUInt64: return static_cast<double>(base);  // widened below
  }
  return 0;
}

// n values of variable vi from element k0, big-endian, into out.
void fill(NcType t, int vi, int64_t k0, int64_t n, unsigned char* out) {
  const ElementType e = element_type_of(t);
  std::vector<unsigned char> native(static_cast<size_t>(n) * nc_type_size(t));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = k0 + i;
    unsigned char* p = native.data() + i * nc_type_size(t);
    const double v = value_of(t, vi, k);
    switch (e) {
      case ElementType::kInt8: put(p, static_cast<int8_t>(v)); break;
      case ElementType::kUInt8: put(p, static_cast<uint8_t>(v)); break;
      case ElementType::kInt16: put(p, static_cast<int16_t>(v)); break;
      case ElementType::kUInt16: put(p, static_cast<uint16_t>(v)); break;
      case ElementType::kInt32: put(p, static_cast<int32_t>(v)); break;
      case ElementType::kUInt32: put(p, static_cast<uint32_t>(v)); break;
      case ElementType::kInt64: put(p, -(int64_t{1} << 40) + k + vi); break;
      case ElementType::kUInt64: put(p, (uint64_t{1} << 63) + k + vi); break;
      case ElementType::kFloat: put(p, static_cast<float>(v)); break;
      case ElementType::kDouble: put(p, v); break;
      default: break;
    }
  }
  const Status s = convert(e, native.data(), e, out, static_cast<size_t>(n), ByteOrder::kBig);
  if (!s.ok()) std::fprintf(stderr, "convert: %s\n", s.message().c_str());
}

Model model(bool cdf5) {
  Model m;
  m.dims = {{"time", kUnlimited}, {"node", 5}, {"len3", 3}, {"strlen", 7}};
  m.attributes.push_back(text_attribute("title", "pario interop"));
  m.attributes.push_back(numeric_attribute("version", NcType::kFloat, std::vector<float>{1.5f}));
  m.attributes.push_back(numeric_attribute("ints", NcType::kInt, std::vector<int32_t>{1, -2, 3}));
  m.attributes.push_back(numeric_attribute("doubles", NcType::kDouble, std::vector<double>{0.25}));
  m.attributes.push_back(numeric_attribute("shorts", NcType::kShort, std::vector<int16_t>{-4, 5}));
  m.attributes.push_back(numeric_attribute("bytes", NcType::kByte, std::vector<int8_t>{-1, 2, 3}));
  if (cdf5) {
    m.attributes.push_back(numeric_attribute("ubytes", NcType::kUByte, std::vector<uint8_t>{200}));
    m.attributes.push_back(
        numeric_attribute("ushorts", NcType::kUShort, std::vector<uint16_t>{60000}));
    m.attributes.push_back(
        numeric_attribute("uints", NcType::kUInt, std::vector<uint32_t>{4000000000u}));
    m.attributes.push_back(
        numeric_attribute("int64s", NcType::kInt64, std::vector<int64_t>{-(int64_t{1} << 40)}));
    m.attributes.push_back(numeric_attribute("uint64s", NcType::kUInt64,
                                             std::vector<uint64_t>{(uint64_t{1} << 63) + 5}));
  }
  m.vars.push_back({"coordx", {1}, NcType::kDouble, {text_attribute("units", "m")}});
  m.vars.push_back({"names", {2, 3}, NcType::kChar, {}});
  m.vars.push_back({"conn", {2, 1}, NcType::kInt, {}});
  m.vars.push_back({"odd", {2}, NcType::kByte, {}});
  m.vars.push_back({"scalar", {}, NcType::kInt, {}});
  m.vars.push_back({"time_whole", {0}, NcType::kDouble, {}});
  m.vars.push_back({"vals", {0, 1}, NcType::kFloat,
                    {numeric_attribute("_FillValue", NcType::kFloat, std::vector<float>{-1.0f})}});
  m.vars.push_back({"ss", {0, 2}, NcType::kShort, {}});
  if (cdf5) {
    m.vars.push_back({"u8", {1}, NcType::kUByte, {}});
    m.vars.push_back({"u16", {0, 2}, NcType::kUShort, {}});
    m.vars.push_back({"u32", {1}, NcType::kUInt, {}});
    m.vars.push_back({"i64", {0, 1}, NcType::kInt64, {}});
    m.vars.push_back({"u64", {2}, NcType::kUInt64, {}});
  }
  return m;
}

Model single_record() {
  Model m;
  m.dims = {{"time", kUnlimited}, {"n", 3}};
  m.vars.push_back({"x", {1}, NcType::kByte, {}});
  m.vars.push_back({"c", {0, 1}, NcType::kShort, {}});
  return m;
}

// Elements per record (record variables) or in all (fixed ones).
int64_t elements(const Model& m, const Variable& v, bool record) {
  int64_t n = 1;
  for (size_t i = record ? 1 : 0; i < v.dims.size(); ++i) n *= m.dims[v.dims[i]].length;
  return n;
}

bool write_file(const std::string& path, const Model& m, const LayoutOptions& opt,
                int64_t numrecs) {
  Result<Layout> L = layout(m, opt);
  if (!L.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), L.status().message().c_str());
    return false;
  }
  Result<Bytes> h = encode_header(m, *L, numrecs);
  Result<int64_t> size = L->file_size(numrecs);
  if (!h.ok() || !size.ok()) {
    std::fprintf(stderr, "%s: encode failed\n", path.c_str());
    return false;
  }
  Bytes file(static_cast<size_t>(*size), 0);
  std::memcpy(file.data(), h->data(), h->size());
  for (size_t vi = 0; vi < m.vars.size(); ++vi) {
    const Variable& v = m.vars[vi];
    const VarLayout& vl = L->vars[vi];
    const int64_t n = elements(m, v, vl.record);
    if (!vl.record) {
      fill(v.type, static_cast<int>(vi), 0, n, file.data() + vl.begin);
      continue;
    }
    for (int64_t r = 0; r < numrecs; ++r) {
      fill(v.type, static_cast<int>(vi), r * n, n, file.data() + vl.begin + r * L->recsize);
    }
  }
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(file.data(), 1, file.size(), f) != file.size() || std::fclose(f) != 0) {
    std::fprintf(stderr, "%s: cannot write\n", path.c_str());
    return false;
  }
  return true;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// n values of type t at p (native order) as a JSON list.
std::string json_values(NcType t, const unsigned char* p, size_t n) {
  std::string out = "[";
  char buf[64];
  for (size_t i = 0; i < n; ++i) {
    const unsigned char* q = p + i * nc_type_size(t);
    switch (t) {
      case NcType::kByte: std::snprintf(buf, sizeof buf, "%d", get<int8_t>(q)); break;
      case NcType::kChar:
      case NcType::kUByte: std::snprintf(buf, sizeof buf, "%u", *q); break;
      case NcType::kShort: std::snprintf(buf, sizeof buf, "%d", get<int16_t>(q)); break;
      case NcType::kUShort: std::snprintf(buf, sizeof buf, "%u", get<uint16_t>(q)); break;
      case NcType::kInt: std::snprintf(buf, sizeof buf, "%d", get<int32_t>(q)); break;
      case NcType::kUInt: std::snprintf(buf, sizeof buf, "%u", get<uint32_t>(q)); break;
      case NcType::kInt64: std::snprintf(buf, sizeof buf, "%" PRId64, get<int64_t>(q)); break;
      case NcType::kUInt64: std::snprintf(buf, sizeof buf, "%" PRIu64, get<uint64_t>(q)); break;
      case NcType::kFloat: std::snprintf(buf, sizeof buf, "%.9g", get<float>(q)); break;
      case NcType::kDouble: std::snprintf(buf, sizeof buf, "%.17g", get<double>(q)); break;
    }
    out += (i ? "," : "");
    out += buf;
  }
  return out + "]";
}

std::string json_attributes(const std::vector<Attribute>& atts) {
  std::string out = "[";
  for (size_t i = 0; i < atts.size(); ++i) {
    const Attribute& a = atts[i];
    out += (i ? "," : "");
    out += "{\"name\":" + json_string(a.name) + ",\"type\":\"" + nc_type_name(a.type) + "\",";
    out += a.type == NcType::kChar ? "\"text\":" + json_string(a.text())
                                   : "\"values\":" + json_values(a.type, a.data.data(), a.count());
    out += "}";
  }
  return out + "]";
}

int dump(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    std::fprintf(stderr, "%s: cannot open\n", path.c_str());
    return 1;
  }
  Bytes file;
  unsigned char buf[1 << 16];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) file.insert(file.end(), buf, buf + got);
  std::fclose(f);
  // Read as a reader of a large file would: a first block, then what the
  // decoder asks for.
  const int64_t fsize = static_cast<int64_t>(file.size());
  size_t have = std::min<size_t>(32, file.size());
  int rounds = 0;
  Header h;
  for (;;) {
    Result<Decoded> d = decode_header(file.data(), have, fsize);
    ++rounds;
    if (!d.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), d.status().message().c_str());
      return 1;
    }
    if (d->complete()) {
      h = std::move(d->header);
      break;
    }
    have = static_cast<size_t>(d->need);
  }
  const Model& m = h.model;
  std::string out = "{\"format\":\"" + std::string(format_name(h.layout.format)) + "\"";
  out += ",\"numrecs\":" + std::to_string(h.numrecs) + ",\"rounds\":" + std::to_string(rounds);
  out += ",\"dims\":[";
  for (size_t i = 0; i < m.dims.size(); ++i) {
    out += (i ? "," : "");
    out += "{\"name\":" + json_string(m.dims[i].name) +
           ",\"length\":" + std::to_string(m.dims[i].unlimited() ? h.numrecs : m.dims[i].length) +
           ",\"unlimited\":" + (m.dims[i].unlimited() ? "true" : "false") + "}";
  }
  out += "],\"attributes\":" + json_attributes(m.attributes) + ",\"vars\":[";
  for (size_t vi = 0; vi < m.vars.size(); ++vi) {
    const Variable& v = m.vars[vi];
    const VarLayout& vl = h.layout.vars[vi];
    out += (vi ? "," : "");
    out += "{\"name\":" + json_string(v.name) + ",\"type\":\"" + nc_type_name(v.type) +
           "\",\"dims\":[";
    for (size_t k = 0; k < v.dims.size(); ++k) {
      out += (k ? "," : "") + json_string(m.dims[v.dims[k]].name);
    }
    out += "],\"attributes\":" + json_attributes(v.attributes) + ",\"values\":";
    // Every value, records in order, read big-endian from the file.
    const size_t n = static_cast<size_t>(elements(m, v, vl.record));
    const size_t es = nc_type_size(v.type);
    const int64_t recs = vl.record ? h.numrecs : 1;
    Bytes native(n * es * static_cast<size_t>(recs));
    for (int64_t r = 0; r < recs; ++r) {
      const int64_t at = vl.begin + r * h.layout.recsize;
      const ElementType e = element_type_of(v.type);
      const Status s = convert_from(e, file.data() + at, ByteOrder::kBig, e,
                                    native.data() + r * n * es, n);
      if (!s.ok()) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), s.message().c_str());
        return 1;
      }
    }
    out += json_values(v.type, native.data(), n * static_cast<size_t>(recs)) + "}";
  }
  out += "]}\n";
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "write") {
    const std::string dir = argv[2];
    bool ok = write_file(dir + "/cdf1.nc", model(false), {Format::kCdf1}, 3);
    ok = write_file(dir + "/cdf2.nc", model(false), {}, 3) && ok;
    ok = write_file(dir + "/cdf5.nc", model(true), {}, 3) && ok;
    ok = write_file(dir + "/single_record.nc", single_record(), {}, 5) && ok;
    ok = write_file(dir + "/aligned.nc", model(false), {Format::kCdf2, 1000, 512}, 2) && ok;
    ok = write_file(dir + "/no_records.nc", model(false), {Format::kCdf2}, 0) && ok;
    return ok ? 0 : 1;
  }
  if (argc == 3 && std::string(argv[1]) == "dump") return dump(argv[2]);
  std::fprintf(stderr, "usage: netcdf_interop write DIR | dump FILE\n");
  return 2;
}
