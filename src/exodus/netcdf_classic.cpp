// The netCDF classic codec (netcdf_classic.h).
//
// The header, field by field (all big-endian; "count" is 4 bytes in CDF-1
// and CDF-2 and 8 in CDF-5; "offset" is 4 bytes in CDF-1 and 8 otherwise;
// tags and nc_type codes are always 4 bytes):
//
//   "CDF" version  numrecs(count; all ones = streaming)
//   dimension list   tag 0x0A, count, then per dimension: name, length(count)
//   global attributes  tag 0x0C, count, then per attribute:
//                      name, nc_type, count, values padded to 4
//   variable list    tag 0x0B, count, then per variable: name,
//                    ndims(count), dim ids(count each), attribute list,
//                    nc_type, vsize(count), begin(offset)
//   name = length(count), bytes, zeros to a multiple of 4
//   an empty list is "absent": a zero tag and a zero count
//
// Layout. The header's size depends only on the model and the format (the
// begin fields have a fixed width), so layout() encodes the header once
// with placeholder offsets to learn its size, then places the data:
// fixed-size variables from the first aligned byte after the header and its
// reserve, in model order, each given its vsize (its bytes rounded up to
// 4, so every begin stays 4-aligned); then the records, each holding one
// slab of every record variable in model order, recsize apart. The one
// exception of the format: with exactly one record variable its slabs are
// packed (recsize is the unpadded slab), while the header still states
// the padded vsize.
//
// Decoding. The header is untrusted. A Reader walks it with the bytes the
// caller has and the file's size: a field that runs past the file's end is
// kCorrupt (no read can ever supply it), one that runs past the bytes
// given but not past the file asks the caller for more (Decoded::need),
// and a count is checked against the bytes left in the file before
// anything is parsed for it, so a forged count of 2^63 dimensions costs
// nothing. Nothing is allocated from a count: lists grow as their entries
// are read. vsize in the file is read and ignored (the format calls it
// redundant; CDF-2 writers store 2^32 - 1 for large variables): it is
// recomputed from the dimensions, with overflow checks, as is recsize.
// Every variable's data must start after the header and end inside the
// file, for the number of records the header claims (with none, the file
// may end before the later record variables' begins, as netCDF-C's do).
#include "exodus/netcdf_classic.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <utility>

#include "base/checked.h"

namespace pario::exodus {
namespace {

constexpr uint32_t kTagDimension = 0x0A;
constexpr uint32_t kTagVariable = 0x0B;
constexpr uint32_t kTagAttribute = 0x0C;
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
// Largest vsize a 32-bit field holds (netCDF-C's X_UINT_MAX - 3), and the
// CDF-1 limit (X_INT_MAX - 3).
constexpr int64_t kCdf2MaxVsize = (int64_t{1} << 32) - 4;
constexpr int64_t kCdf1MaxVsize = kInt32Max - 3;
constexpr size_t kMaxVarDims = 1024;  // NC_MAX_VAR_DIMS

constexpr bool kLittleHost = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

int64_t pad4(int64_t n) { return (4 - n % 4) % 4; }

// n values of esize bytes between native order and big-endian (the same
// operation both ways).
void copy_big_endian(const unsigned char* src, unsigned char* dst, size_t n, size_t esize) {
  if (n == 0) return;  // an empty vector's data() may be null
  if (!kLittleHost || esize == 1) {
    std::memcpy(dst, src, n * esize);
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    for (size_t b = 0; b < esize; ++b) dst[i * esize + b] = src[i * esize + esize - 1 - b];
  }
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// ---- the model's rules ------------------------------------------------

// netCDF's rule for names: a letter, digit, '_' or a multi-byte UTF-8
// character first; then no control characters, DEL or '/'; no trailing
// space. (NFC normalisation is the caller's: pario's names are ASCII.)
Status check_name(const std::string& name, const std::string& what) {
  if (name.empty() || name.size() > kMaxName) {
    return Status(Code::kInvalidArgument,
                  what + ": a name must have 1 to " + std::to_string(kMaxName) + " bytes, not " +
                      std::to_string(name.size()));
  }
  const unsigned char first = name[0];
  const bool ok_first = (first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') ||
                        (first >= '0' && first <= '9') || first == '_' || first >= 0x80;
  if (!ok_first) {
    return Status(Code::kInvalidArgument,
                  what + " " + quoted(name) + ": a name starts with a letter, a digit or '_'");
  }
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7F || c == '/') {
      return Status(Code::kInvalidArgument,
                    what + " " + quoted(name) + ": control characters and '/' are not allowed");
    }
  }
  if (name.back() == ' ') {
    return Status(Code::kInvalidArgument, what + " " + quoted(name) + ": trailing space");
  }
  return Status::Ok();
}

// What the model needs of the format.
struct ModelNeeds {
  bool cdf5 = false;  // a CDF-5 type, or a count or length past 32 bits
};

Status check_attributes(const std::vector<Attribute>& atts, const std::string& owner,
                        ModelNeeds* needs) {
  std::set<std::string> names;
  if (static_cast<int64_t>(atts.size()) > kInt32Max) needs->cdf5 = true;
  for (const Attribute& a : atts) {
    const std::string what = owner + " attribute";
    PARIO_RETURN_IF_ERROR(check_name(a.name, what));
    if (!names.insert(a.name).second) {
      return Status(Code::kInvalidArgument, what + " " + quoted(a.name) + " appears twice");
    }
    if (!valid_nc_type(static_cast<int32_t>(a.type))) {
      return Status(Code::kInvalidArgument, what + " " + quoted(a.name) + ": unknown nc_type " +
                                                std::to_string(static_cast<int32_t>(a.type)));
    }
    if (a.data.size() % nc_type_size(a.type) != 0) {
      return Status(Code::kInvalidArgument,
                    what + " " + quoted(a.name) + ": " + std::to_string(a.data.size()) +
                        " bytes are not whole " + nc_type_name(a.type) + " values");
    }
    if (cdf5_only(a.type)) needs->cdf5 = true;
    if (static_cast<int64_t>(a.count()) > kInt32Max) needs->cdf5 = true;
  }
  return Status::Ok();
}

Status check_model(const Model& m, ModelNeeds* needs) {
  std::set<std::string> names;
  int records = 0;
  if (static_cast<int64_t>(m.dims.size()) > kInt32Max ||
      static_cast<int64_t>(m.vars.size()) > kInt32Max) {
    needs->cdf5 = true;
  }
  for (const Dimension& d : m.dims) {
    PARIO_RETURN_IF_ERROR(check_name(d.name, "dimension"));
    if (!names.insert(d.name).second) {
      return Status(Code::kInvalidArgument, "dimension " + quoted(d.name) + " appears twice");
    }
    if (d.length < 0) {
      return Status(Code::kInvalidArgument, "dimension " + quoted(d.name) + ": negative length " +
                                                std::to_string(d.length));
    }
    if (d.unlimited() && ++records > 1) {
      return Status(Code::kInvalidArgument,
                    "dimension " + quoted(d.name) + ": a second unlimited dimension (at most one)");
    }
    if (d.length > kInt32Max) needs->cdf5 = true;
  }
  PARIO_RETURN_IF_ERROR(check_attributes(m.attributes, "global", needs));
  names.clear();
  const int rec = m.record_dim();
  for (const Variable& v : m.vars) {
    PARIO_RETURN_IF_ERROR(check_name(v.name, "variable"));
    const std::string what = "variable " + quoted(v.name);
    if (!names.insert(v.name).second) {
      return Status(Code::kInvalidArgument, what + " appears twice");
    }
    if (!valid_nc_type(static_cast<int32_t>(v.type))) {
      return Status(Code::kInvalidArgument,
                    what + ": unknown nc_type " + std::to_string(static_cast<int32_t>(v.type)));
    }
    if (cdf5_only(v.type)) needs->cdf5 = true;
    if (v.dims.size() > kMaxVarDims) {
      return Status(Code::kInvalidArgument, what + ": more than " + std::to_string(kMaxVarDims) +
                                                " dimensions");
    }
    for (size_t i = 0; i < v.dims.size(); ++i) {
      const int d = v.dims[i];
      if (d < 0 || d >= static_cast<int>(m.dims.size())) {
        return Status(Code::kInvalidArgument,
                      what + ": dimension id " + std::to_string(d) + " out of range (" +
                          std::to_string(m.dims.size()) + " dimensions)");
      }
      if (d == rec && i != 0) {
        return Status(Code::kInvalidArgument,
                      what + ": the unlimited dimension may only be a variable's first");
      }
    }
    PARIO_RETURN_IF_ERROR(check_attributes(v.attributes, what, needs));
  }
  return Status::Ok();
}

// Variable v's record flag, its unpadded bytes (one record's slab for a
// record variable) and its vsize; false when they overflow 64 bits.
bool size_var(const Model& m, size_t v, VarLayout* vl) {
  const Variable& var = m.vars[v];
  vl->record = m.is_record_var(static_cast<int>(v));
  std::vector<int64_t> lengths;
  for (size_t i = vl->record ? 1 : 0; i < var.dims.size(); ++i) {
    lengths.push_back(m.dims[var.dims[i]].length);
  }
  if (!checked_bytes(lengths.data(), lengths.size(), static_cast<int64_t>(nc_type_size(var.type)),
                     &vl->bytes) ||
      vl->bytes > std::numeric_limits<int64_t>::max() - 3) {
    return false;
  }
  vl->vsize = vl->bytes + pad4(vl->bytes);
  return true;
}

// ---- encoding -----------------------------------------------------------

class Writer {
 public:
  explicit Writer(Format f) : format_(f) {}

  void u32(uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out_.push_back(static_cast<unsigned char>(v >> s));
  }
  void u64(uint64_t v) {
    for (int s = 56; s >= 0; s -= 8) out_.push_back(static_cast<unsigned char>(v >> s));
  }
  // A count (range checked by the caller: check_model and layout()).
  void count(int64_t v) {
    if (format_ == Format::kCdf5) {
      u64(static_cast<uint64_t>(v));
    } else {
      u32(static_cast<uint32_t>(v));
    }
  }
  void offset(int64_t v) {
    if (format_ == Format::kCdf1) {
      u32(static_cast<uint32_t>(v));
    } else {
      u64(static_cast<uint64_t>(v));
    }
  }
  void pad() { out_.resize(out_.size() + pad4(static_cast<int64_t>(out_.size()))); }
  void name(const std::string& s) {
    count(static_cast<int64_t>(s.size()));
    out_.insert(out_.end(), s.begin(), s.end());
    pad();
  }
  void attributes(const std::vector<Attribute>& atts) {
    if (atts.empty()) {
      absent();
      return;
    }
    u32(kTagAttribute);
    count(static_cast<int64_t>(atts.size()));
    for (const Attribute& a : atts) {
      name(a.name);
      u32(static_cast<uint32_t>(a.type));
      count(static_cast<int64_t>(a.count()));
      const size_t at = out_.size();
      out_.resize(at + a.data.size());
      copy_big_endian(a.data.data(), out_.data() + at, a.count(), nc_type_size(a.type));
      pad();
    }
  }
  void absent() {
    u32(0);
    count(0);
  }
  std::vector<unsigned char>& bytes() { return out_; }

 private:
  Format format_;
  std::vector<unsigned char> out_;
};

void encode_numrecs_into(Writer* w, Format f, int64_t numrecs) {
  if (numrecs == kStreamingRecords) {
    if (f == Format::kCdf5) {
      w->u64(~uint64_t{0});
    } else {
      w->u32(~uint32_t{0});
    }
  } else {
    w->count(numrecs);
  }
}

Status check_numrecs(Format f, int64_t numrecs) {
  if (numrecs == kStreamingRecords) return Status::Ok();
  if (numrecs < 0 || (f != Format::kCdf5 && numrecs > kInt32Max)) {
    return Status(Code::kOutOfRange, std::string("numrecs ") + std::to_string(numrecs) +
                                         " does not fit " + format_name(f));
  }
  return Status::Ok();
}

// The header with the given begins (vars may be null: placeholders).
std::vector<unsigned char> encode(const Model& m, Format f, const std::vector<VarLayout>* vars,
                                  int64_t numrecs) {
  Writer w(f);
  w.u32(0x43444600u | static_cast<uint32_t>(f));  // "CDF" version
  encode_numrecs_into(&w, f, numrecs);
  if (m.dims.empty()) {
    w.absent();
  } else {
    w.u32(kTagDimension);
    w.count(static_cast<int64_t>(m.dims.size()));
    for (const Dimension& d : m.dims) {
      w.name(d.name);
      w.count(d.length);
    }
  }
  w.attributes(m.attributes);
  if (m.vars.empty()) {
    w.absent();
  } else {
    w.u32(kTagVariable);
    w.count(static_cast<int64_t>(m.vars.size()));
    for (size_t i = 0; i < m.vars.size(); ++i) {
      const Variable& v = m.vars[i];
      w.name(v.name);
      w.count(static_cast<int64_t>(v.dims.size()));
      for (int d : v.dims) w.count(d);
      w.attributes(v.attributes);
      w.u32(static_cast<uint32_t>(v.type));
      w.count(vars ? (*vars)[i].vsize : 0);
      w.offset(vars ? (*vars)[i].begin : 0);
    }
  }
  return std::move(w.bytes());
}

// ---- decoding -----------------------------------------------------------

// Reads the header's fields from the bytes given, checking each against
// them and the file's size. A failed read leaves either need_ (more bytes
// would let it go on) or status_ (the header is bad) set.
class Reader {
 public:
  Reader(const unsigned char* p, int64_t size, int64_t file_size)
      : p_(p), size_(size), file_size_(file_size) {}

  void set_format(Format f) { format_ = f; }
  Format format() const { return format_; }
  int64_t pos() const { return pos_; }
  int64_t need() const { return need_; }
  const Status& status() const { return status_; }
  int count_width() const { return format_ == Format::kCdf5 ? 8 : 4; }

  bool corrupt(const std::string& msg) {
    return fail(Status(Code::kCorrupt, "netCDF header, byte " + std::to_string(pos_) + ": " + msg));
  }
  bool fail(Status s) {
    status_ = std::move(s);
    return false;
  }

  // n more bytes are at hand.
  bool have(int64_t n, const std::string& what) {
    if (n > file_size_ - pos_) {
      return corrupt(what + " (" + std::to_string(n) + " bytes) runs past the end of the file (" +
                     std::to_string(file_size_) + " bytes)");
    }
    if (n > size_ - pos_) {
      // Twice what was given, so a caller doubling its read converges fast.
      const int64_t want = std::max(pos_ + n, size_ > file_size_ / 2 ? file_size_ : 2 * size_);
      need_ = std::min(want, file_size_);
      return false;
    }
    return true;
  }
  // An unsigned big-endian field of sizeof(T) bytes.
  template <typename T>
  bool field(T* v, const std::string& what) {
    if (!have(sizeof(T), what)) return false;
    T x = 0;
    for (size_t i = 0; i < sizeof(T); ++i) x = static_cast<T>((x << 8) | p_[pos_ + i]);
    pos_ += sizeof(T);
    *v = x;
    return true;
  }
  bool u32(uint32_t* v, const std::string& what) { return field(v, what); }
  bool u64(uint64_t* v, const std::string& what) { return field(v, what); }
  // A non-negative count or length: 4 bytes unsigned (netCDF-C writes up
  // to 2^32 - 4 in CDF-2), or 8 bytes below 2^63.
  bool nonneg(int64_t* v, const std::string& what) {
    if (format_ != Format::kCdf5) {
      uint32_t x = 0;
      if (!u32(&x, what)) return false;
      *v = x;
      return true;
    }
    uint64_t x = 0;
    if (!u64(&x, what)) return false;
    if (x > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      pos_ -= 8;
      return corrupt(what + ": " + std::to_string(x) + " is negative as a signed 64-bit value");
    }
    *v = static_cast<int64_t>(x);
    return true;
  }
  bool offset(int64_t* v, const std::string& what) {
    if (format_ == Format::kCdf1) {
      uint32_t x = 0;
      if (!u32(&x, what)) return false;
      if (x > static_cast<uint32_t>(kInt32Max)) {
        pos_ -= 4;
        return corrupt(what + ": offset " + std::to_string(x) + " is negative in CDF-1");
      }
      *v = x;
      return true;
    }
    const Format saved = format_;
    format_ = Format::kCdf5;  // an 8-byte non-negative value
    const bool ok = nonneg(v, what);
    format_ = saved;
    return ok;
  }
  // A count of entries that each take at least min_each bytes: refused when
  // the file cannot hold that many, before any of them is read.
  bool count(int64_t* n, int64_t min_each, const std::string& what) {
    if (!nonneg(n, what)) return false;
    if (*n > (file_size_ - pos_) / min_each) {
      pos_ -= count_width();
      return corrupt(what + ": " + std::to_string(*n) + " entries of at least " +
                     std::to_string(min_each) + " bytes cannot fit in the " +
                     std::to_string(file_size_ - pos_ - count_width()) + " bytes left in the file");
    }
    return true;
  }
  bool name(std::string* s, const std::string& what) {
    const int64_t at = pos_;
    int64_t len = 0;
    if (!nonneg(&len, what + " name length")) return false;
    if (len == 0 || len > static_cast<int64_t>(kMaxName)) {
      pos_ = at;
      return corrupt(what + ": name length " + std::to_string(len) + " (1 to " +
                     std::to_string(kMaxName) + ")");
    }
    if (!have(len + pad4(len), what + " name")) return false;
    s->assign(reinterpret_cast<const char*>(p_ + pos_), static_cast<size_t>(len));
    pos_ += len + pad4(len);
    return true;
  }
  // The bytes of n values of esize (n * esize already checked to fit the
  // file by count()), converted to native order, and their padding.
  bool values(int64_t n, size_t esize, std::vector<unsigned char>* out, const std::string& what) {
    const int64_t bytes = n * static_cast<int64_t>(esize);
    if (!have(bytes + pad4(bytes), what)) return false;
    out->resize(static_cast<size_t>(bytes));
    copy_big_endian(p_ + pos_, out->data(), static_cast<size_t>(n), esize);
    pos_ += bytes + pad4(bytes);
    return true;
  }
  // A list's tag and count: false on a bad tag; *n = 0 for ABSENT.
  bool list(uint32_t tag, int64_t min_each, int64_t* n, const std::string& what) {
    const int64_t at = pos_;
    uint32_t t = 0;
    if (!u32(&t, what + " tag")) return false;
    if (t == 0) {
      if (!nonneg(n, what + " (absent) count")) return false;
      if (*n != 0) {
        pos_ = at;
        return corrupt(what + ": an absent list (tag 0) with count " + std::to_string(*n));
      }
      return true;
    }
    if (t != tag) {
      pos_ = at;
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%08X", t);
      return corrupt(what + ": unknown tag " + hex + " (expected 0 or " + std::to_string(tag) +
                     ")");
    }
    return count(n, min_each, what + " count");
  }

 private:
  const unsigned char* p_;
  int64_t size_, file_size_;
  int64_t pos_ = 0;
  Format format_ = Format::kCdf1;
  int64_t need_ = 0;
  Status status_;
};

bool read_type(Reader* r, NcType* t, const std::string& what) {
  const int64_t at = r->pos();
  uint32_t code = 0;
  if (!r->u32(&code, what + " nc_type")) return false;
  if (code > 0x7FFFFFFFu || !valid_nc_type(static_cast<int32_t>(code))) {
    return r->corrupt(what + ": unknown nc_type " + std::to_string(code) + " at byte " +
                      std::to_string(at));
  }
  *t = static_cast<NcType>(code);
  if (cdf5_only(*t) && r->format() != Format::kCdf5) {
    return r->corrupt(what + ": nc_type " + nc_type_name(*t) + " (at byte " + std::to_string(at) +
                      ") exists only in CDF-5 files, this one is " + format_name(r->format()));
  }
  return true;
}

bool read_attributes(Reader* r, std::vector<Attribute>* out, const std::string& owner) {
  const int w = r->count_width();
  int64_t n = 0;
  // An attribute: a name (count + 4 bytes), nc_type, count.
  if (!r->list(kTagAttribute, 2 * w + 8, &n, owner + " attribute list")) return false;
  std::set<std::string> names;
  for (int64_t i = 0; i < n; ++i) {
    Attribute a;
    const std::string what = owner + " attribute " + std::to_string(i);
    if (!r->name(&a.name, what)) return false;
    const std::string named = owner + " attribute " + quoted(a.name);
    if (!names.insert(a.name).second) return r->corrupt(named + " appears twice");
    if (!read_type(r, &a.type, named)) return false;
    int64_t count = 0;
    const int64_t esize = static_cast<int64_t>(nc_type_size(a.type));
    if (!r->count(&count, esize, named + " value count")) return false;
    if (!r->values(count, static_cast<size_t>(esize), &a.data, named + " values")) return false;
    out->push_back(std::move(a));
  }
  return true;
}

bool read_header(Reader* r, Header* h) {
  Model& m = h->model;
  const int w = r->count_width();
  // numrecs
  if (r->format() == Format::kCdf5) {
    uint64_t x = 0;
    if (!r->u64(&x, "numrecs")) return false;
    if (x == ~uint64_t{0}) {
      h->streaming = true;
    } else if (x > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return r->corrupt("numrecs " + std::to_string(x) + " is negative as a signed 64-bit value");
    } else {
      h->numrecs = static_cast<int64_t>(x);
    }
  } else {
    uint32_t x = 0;
    if (!r->u32(&x, "numrecs")) return false;
    if (x == ~uint32_t{0}) {
      h->streaming = true;
    } else {
      h->numrecs = x;
    }
  }
  // dimensions: name (count + 4 bytes) and length
  int64_t n = 0;
  if (!r->list(kTagDimension, 2 * w + 4, &n, "dimension list")) return false;
  std::set<std::string> names;
  int record = -1;
  for (int64_t i = 0; i < n; ++i) {
    Dimension d;
    const std::string what = "dimension " + std::to_string(i);
    if (!r->name(&d.name, what)) return false;
    if (!names.insert(d.name).second) {
      return r->corrupt(what + " " + quoted(d.name) + " appears twice");
    }
    if (!r->nonneg(&d.length, what + " " + quoted(d.name) + " length")) return false;
    if (d.unlimited()) {
      if (record >= 0) {
        return r->corrupt(what + " " + quoted(d.name) + ": a second unlimited dimension (" +
                          quoted(m.dims[record].name) + " is one)");
      }
      record = static_cast<int>(i);
    }
    m.dims.push_back(std::move(d));
  }
  if (!read_attributes(r, &m.attributes, "global")) return false;
  // variables: name, ndims, attribute list, nc_type, vsize, begin
  const int ow = r->format() == Format::kCdf1 ? 4 : 8;
  if (!r->list(kTagVariable, 2 * w + 4 + (4 + w) + 4 + w + ow, &n, "variable list")) return false;
  names.clear();
  std::vector<int64_t> begins;
  for (int64_t i = 0; i < n; ++i) {
    Variable v;
    std::string what = "variable " + std::to_string(i);
    if (!r->name(&v.name, what)) return false;
    what = "variable " + quoted(v.name);
    if (!names.insert(v.name).second) return r->corrupt(what + " appears twice");
    int64_t ndims = 0;
    if (!r->count(&ndims, w, what + " dimension count")) return false;
    if (ndims > static_cast<int64_t>(kMaxVarDims)) {
      return r->corrupt(what + ": " + std::to_string(ndims) + " dimensions (at most " +
                        std::to_string(kMaxVarDims) + ")");
    }
    for (int64_t k = 0; k < ndims; ++k) {
      int64_t id = 0;
      if (!r->nonneg(&id, what + " dimension id")) return false;
      if (id >= static_cast<int64_t>(m.dims.size())) {
        return r->corrupt(what + ": dimension id " + std::to_string(id) + " out of range (" +
                          std::to_string(m.dims.size()) + " dimensions)");
      }
      if (id == record && k != 0) {
        return r->corrupt(what + ": the unlimited dimension " + quoted(m.dims[record].name) +
                          " is its dimension " + std::to_string(k) + ", not its first");
      }
      v.dims.push_back(static_cast<int>(id));
    }
    if (!read_attributes(r, &v.attributes, what)) return false;
    if (!read_type(r, &v.type, what)) return false;
    int64_t vsize = 0, begin = 0;
    if (!r->nonneg(&vsize, what + " vsize")) return false;  // recomputed below
    if (!r->offset(&begin, what + " begin")) return false;
    begins.push_back(begin);
    m.vars.push_back(std::move(v));
  }
  // The layout the header states.
  Layout& L = h->layout;
  L.format = r->format();
  L.header_size = r->pos();
  L.numrecs_width = r->format() == Format::kCdf5 ? 8 : 4;
  const std::string at_end = " (header ends at byte " + std::to_string(L.header_size) + ")";
  int64_t data_begin = std::numeric_limits<int64_t>::max(), record_begin = data_begin;
  int64_t fixed_end = L.header_size, recsize = 0;
  int records = 0;
  for (size_t i = 0; i < m.vars.size(); ++i) {
    VarLayout vl;
    vl.begin = begins[i];
    const std::string what = "variable " + quoted(m.vars[i].name);
    if (!size_var(m, i, &vl)) {
      return r->corrupt(what + ": its size overflows 64 bits" + at_end);
    }
    if (vl.begin < L.header_size) {
      return r->corrupt(what + ": data at byte " + std::to_string(vl.begin) +
                        " overlaps the header" + at_end);
    }
    data_begin = std::min(data_begin, vl.begin);
    if (vl.record) {
      ++records;
      record_begin = std::min(record_begin, vl.begin);
      if (!checked_add(recsize, vl.vsize, &recsize)) {
        return r->corrupt(what + ": the record size overflows 64 bits" + at_end);
      }
    } else {
      int64_t end = 0;
      if (!checked_add(vl.begin, vl.vsize, &end)) {
        return r->corrupt(what + ": data at byte " + std::to_string(vl.begin) + " of " +
                          std::to_string(vl.vsize) + " bytes overflows 64 bits" + at_end);
      }
      fixed_end = std::max(fixed_end, end);
    }
    L.vars.push_back(vl);
  }
  if (records == 1) {
    for (const VarLayout& vl : L.vars) {
      if (vl.record) recsize = vl.bytes;
    }
  }
  L.recsize = recsize;
  L.data_begin = m.vars.empty() ? L.header_size : data_begin;
  L.record_begin = records > 0 ? record_begin : fixed_end;
  return true;
}

}  // namespace

// ---- types ----------------------------------------------------------------

size_t nc_type_size(NcType t) {
  switch (t) {
    case NcType::kByte:
    case NcType::kChar:
    case NcType::kUByte:
      return 1;
    case NcType::kShort:
    case NcType::kUShort:
      return 2;
    case NcType::kInt:
    case NcType::kFloat:
    case NcType::kUInt:
      return 4;
    case NcType::kDouble:
    case NcType::kInt64:
    case NcType::kUInt64:
      return 8;
  }
  return 0;
}

const char* nc_type_name(NcType t) {
  switch (t) {
    case NcType::kByte: return "byte";
    case NcType::kChar: return "char";
    case NcType::kShort: return "short";
    case NcType::kInt: return "int";
    case NcType::kFloat: return "float";
    case NcType::kDouble: return "double";
    case NcType::kUByte: return "ubyte";
    case NcType::kUShort: return "ushort";
    case NcType::kUInt: return "uint";
    case NcType::kInt64: return "int64";
    case NcType::kUInt64: return "uint64";
  }
  return "unknown";
}

bool valid_nc_type(int32_t code) { return code >= 1 && code <= 11; }

bool cdf5_only(NcType t) { return static_cast<int32_t>(t) >= 7; }

ElementType element_type_of(NcType t) {
  switch (t) {
    case NcType::kByte: return ElementType::kInt8;
    case NcType::kChar: return ElementType::kUInt8;
    case NcType::kShort: return ElementType::kInt16;
    case NcType::kInt: return ElementType::kInt32;
    case NcType::kFloat: return ElementType::kFloat;
    case NcType::kDouble: return ElementType::kDouble;
    case NcType::kUByte: return ElementType::kUInt8;
    case NcType::kUShort: return ElementType::kUInt16;
    case NcType::kUInt: return ElementType::kUInt32;
    case NcType::kInt64: return ElementType::kInt64;
    case NcType::kUInt64: return ElementType::kUInt64;
  }
  return ElementType::kUInt8;
}

Result<NcType> nc_type_of(ElementType t) {
  switch (t) {
    case ElementType::kInt8: return NcType::kByte;
    case ElementType::kUInt8: return NcType::kUByte;
    case ElementType::kInt16: return NcType::kShort;
    case ElementType::kUInt16: return NcType::kUShort;
    case ElementType::kInt32: return NcType::kInt;
    case ElementType::kUInt32: return NcType::kUInt;
    case ElementType::kInt64: return NcType::kInt64;
    case ElementType::kUInt64: return NcType::kUInt64;
    case ElementType::kFloat: return NcType::kFloat;
    case ElementType::kDouble: return NcType::kDouble;
    case ElementType::kComplexDouble:
    case ElementType::kComplexFloat:
      break;
  }
  return Status(Code::kUnsupported,
                std::string("netCDF classic has no type for ") + element_name(t) + " elements");
}

const char* format_name(Format f) {
  switch (f) {
    case Format::kAuto: return "automatic";
    case Format::kCdf1: return "CDF-1";
    case Format::kCdf2: return "CDF-2";
    case Format::kCdf5: return "CDF-5";
  }
  return "unknown";
}

// ---- the model ------------------------------------------------------------

size_t Attribute::count() const {
  const size_t s = nc_type_size(type);
  return s == 0 ? 0 : data.size() / s;
}

Attribute text_attribute(std::string name, const std::string& value) {
  Attribute a;
  a.name = std::move(name);
  a.type = NcType::kChar;
  a.data.assign(value.begin(), value.end());
  return a;
}

Attribute numeric_attribute(std::string name, NcType type, const void* values, size_t n) {
  Attribute a;
  a.name = std::move(name);
  a.type = type;
  const auto* p = static_cast<const unsigned char*>(values);
  a.data.assign(p, p + n * nc_type_size(type));
  return a;
}

int Model::find_dim(const std::string& name) const {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int Model::find_var(const std::string& name) const {
  for (size_t i = 0; i < vars.size(); ++i) {
    if (vars[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int Model::record_dim() const {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].unlimited()) return static_cast<int>(i);
  }
  return -1;
}

bool Model::is_record_var(int v) const {
  const int rec = record_dim();
  return rec >= 0 && !vars[v].dims.empty() && vars[v].dims[0] == rec;
}

bool operator==(const Attribute& a, const Attribute& b) {
  return a.name == b.name && a.type == b.type && a.data == b.data;
}
bool operator==(const Dimension& a, const Dimension& b) {
  return a.name == b.name && a.length == b.length;
}
bool operator==(const Variable& a, const Variable& b) {
  return a.name == b.name && a.dims == b.dims && a.type == b.type && a.attributes == b.attributes;
}
bool operator==(const Model& a, const Model& b) {
  return a.dims == b.dims && a.attributes == b.attributes && a.vars == b.vars;
}

// ---- layout ---------------------------------------------------------------

Result<int64_t> Layout::file_size(int64_t numrecs) const {
  if (numrecs < 0) {
    return Status(Code::kInvalidArgument, "numrecs " + std::to_string(numrecs) + " is negative");
  }
  int64_t end = data_begin;
  bool any_record = false;
  int records = 0;
  for (const VarLayout& v : vars) records += v.record ? 1 : 0;
  for (const VarLayout& v : vars) {
    int64_t e = data_begin;
    if (!v.record) {
      if (!checked_add(v.begin, v.vsize, &e)) {
        return Status(Code::kOutOfRange, "a variable's data overflows a 64-bit file size");
      }
    } else {
      any_record = true;
      int64_t off = 0;
      // The last record is padded to vsize, except a lone record
      // variable's (netCDF-C's files end there too).
      const int64_t last = records == 1 ? v.bytes : v.vsize;
      if (numrecs > 0 && (!checked_mul(numrecs - 1, recsize, &off) ||
                          !checked_add(v.begin, off, &e) || !checked_add(e, last, &e))) {
        return Status(Code::kOutOfRange,
                      std::to_string(numrecs) + " records overflow a 64-bit file size");
      }
    }
    end = std::max(end, e);
  }
  if (any_record) end = std::max(end, record_begin);
  return end;
}

Result<Layout> layout(const Model& model, const LayoutOptions& options) {
  if (options.align < 4 || options.align % 4 != 0 || options.header_reserve < 0) {
    return Status(Code::kInvalidArgument,
                  "netCDF layout: align " + std::to_string(options.align) +
                      " (a positive multiple of 4) or header_reserve " +
                      std::to_string(options.header_reserve) + " (not negative)");
  }
  const Format asked = options.format;
  if (asked != Format::kAuto && asked != Format::kCdf1 && asked != Format::kCdf2 &&
      asked != Format::kCdf5) {
    return Status(Code::kInvalidArgument, "netCDF layout: unknown format " +
                                              std::to_string(static_cast<int>(asked)));
  }
  ModelNeeds needs;
  PARIO_RETURN_IF_ERROR(check_model(model, &needs).with_context("netCDF model"));

  Layout L;
  int64_t max_vsize = 0;
  for (size_t i = 0; i < model.vars.size(); ++i) {
    VarLayout vl;
    if (!size_var(model, i, &vl)) {
      return Status(Code::kOutOfRange, "netCDF model: variable " + quoted(model.vars[i].name) +
                                           ": its size overflows 64 bits");
    }
    max_vsize = std::max(max_vsize, vl.vsize);
    L.vars.push_back(vl);
  }
  if (max_vsize > kCdf2MaxVsize) needs.cdf5 = true;

  Format f = asked;
  if (f == Format::kAuto) f = needs.cdf5 ? Format::kCdf5 : Format::kCdf2;
  if (f != Format::kCdf5 && needs.cdf5) {
    return Status(Code::kInvalidArgument,
                  std::string("netCDF model: needs CDF-5 (a CDF-5 type, or a count, length or "
                              "variable beyond 32 bits), not ") +
                      format_name(f));
  }
  if (f == Format::kCdf1 && max_vsize > kCdf1MaxVsize) {
    return Status(Code::kOutOfRange, "netCDF model: a variable of " + std::to_string(max_vsize) +
                                         " bytes does not fit CDF-1 (at most 2^31 - 4)");
  }
  L.format = f;
  L.numrecs_width = f == Format::kCdf5 ? 8 : 4;
  L.header_size = static_cast<int64_t>(encode(model, f, nullptr, 0).size());

  int64_t at = 0;
  if (!checked_add(L.header_size, options.header_reserve, &at)) {
    return Status(Code::kOutOfRange, "netCDF layout: header_reserve overflows");
  }
  auto align_up = [&](int64_t x, int64_t* out) {
    const int64_t r = x % options.align;
    return r == 0 ? (*out = x, true) : checked_add(x, options.align - r, out);
  };
  const Status overflow(Code::kOutOfRange, "netCDF layout: the file's size overflows 64 bits");
  if (!align_up(at, &at)) return overflow;
  L.data_begin = at;
  int records = 0;
  for (VarLayout& vl : L.vars) {
    if (vl.record) {
      ++records;
      continue;
    }
    vl.begin = at;
    if (!checked_add(at, vl.vsize, &at)) return overflow;
  }
  if (records > 0 && !align_up(at, &at)) return overflow;
  L.record_begin = at;
  for (VarLayout& vl : L.vars) {
    if (!vl.record) continue;
    vl.begin = at;
    if (!checked_add(at, vl.vsize, &at)) return overflow;
    if (records == 1) L.recsize = vl.bytes;
    else L.recsize += vl.vsize;
  }
  if (f == Format::kCdf1) {
    for (size_t i = 0; i < L.vars.size(); ++i) {
      if (L.vars[i].begin > kInt32Max) {
        return Status(Code::kOutOfRange, "netCDF layout: variable " + quoted(model.vars[i].name) +
                                             " would start at byte " +
                                             std::to_string(L.vars[i].begin) +
                                             ", past CDF-1's 2^31 - 1");
      }
    }
  }
  return L;
}

// ---- encode and decode ----------------------------------------------------

Result<std::vector<unsigned char>> encode_header(const Model& model, const Layout& layout,
                                                 int64_t numrecs) {
  ModelNeeds needs;
  PARIO_RETURN_IF_ERROR(check_model(model, &needs).with_context("netCDF model"));
  const Format f = layout.format;
  if (f != Format::kCdf1 && f != Format::kCdf2 && f != Format::kCdf5) {
    return Status(Code::kInvalidArgument, "netCDF header: the layout has no format");
  }
  if (needs.cdf5 && f != Format::kCdf5) {
    return Status(Code::kInvalidArgument,
                  std::string("netCDF header: the model needs CDF-5, the layout says ") +
                      format_name(f));
  }
  if (layout.vars.size() != model.vars.size()) {
    return Status(Code::kInvalidArgument,
                  "netCDF header: the layout places " + std::to_string(layout.vars.size()) +
                      " variables, the model has " + std::to_string(model.vars.size()));
  }
  const int64_t vsize_max =
      f == Format::kCdf5 ? std::numeric_limits<int64_t>::max() : kCdf2MaxVsize;
  const int64_t begin_max = f == Format::kCdf1 ? kInt32Max : std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < layout.vars.size(); ++i) {
    const VarLayout& v = layout.vars[i];
    if (v.vsize < 0 || v.vsize > vsize_max || v.begin < layout.header_size || v.begin > begin_max) {
      return Status(Code::kInvalidArgument, "netCDF header: variable " +
                                                quoted(model.vars[i].name) + ": vsize " +
                                                std::to_string(v.vsize) + " or begin " +
                                                std::to_string(v.begin) + " does not fit " +
                                                format_name(f) + " after the header");
    }
  }
  PARIO_RETURN_IF_ERROR(check_numrecs(f, numrecs).with_context("netCDF header"));
  std::vector<unsigned char> out = encode(model, f, &layout.vars, numrecs);
  if (static_cast<int64_t>(out.size()) != layout.header_size) {
    return Status(Code::kInvalidArgument,
                  "netCDF header: " + std::to_string(out.size()) +
                      " bytes, the layout expects " + std::to_string(layout.header_size) +
                      " (a layout of another model?)");
  }
  return out;
}

Result<std::vector<unsigned char>> encode_numrecs(Format format, int64_t numrecs) {
  if (format != Format::kCdf1 && format != Format::kCdf2 && format != Format::kCdf5) {
    return Status(Code::kInvalidArgument, "netCDF numrecs: unknown format");
  }
  PARIO_RETURN_IF_ERROR(check_numrecs(format, numrecs).with_context("netCDF numrecs"));
  Writer w(format);
  encode_numrecs_into(&w, format, numrecs);
  return std::move(w.bytes());
}

Result<Decoded> decode_header(const void* bytes, size_t size, int64_t file_size) {
  if ((bytes == nullptr && size > 0) || file_size < 0 ||
      size > static_cast<uint64_t>(file_size)) {
    return Status(Code::kInvalidArgument,
                  "netCDF header: " + std::to_string(size) + " bytes given of a file of " +
                      std::to_string(file_size));
  }
  const auto* p = static_cast<const unsigned char*>(bytes);
  Decoded out;
  Reader r(p, static_cast<int64_t>(size), file_size);
  // The magic number.
  if (file_size < 4) {
    return Status(Code::kCorrupt, "netCDF header: not a netCDF file (" +
                                      std::to_string(file_size) + " bytes)");
  }
  static const unsigned char kHdf5[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1A, '\n'};
  if (static_cast<int64_t>(size) < std::min<int64_t>(8, file_size)) {
    // Too few bytes to tell a classic file from an HDF5 one.
    out.need = std::min<int64_t>(file_size, std::max<int64_t>(64, 2 * static_cast<int64_t>(size)));
    return out;
  }
  if (size >= 8 && std::memcmp(p, kHdf5, 8) == 0) {
    return Status(Code::kUnsupported,
                  "netCDF header: a netCDF-4 (HDF5) file; only classic files (CDF-1, CDF-2, "
                  "CDF-5) are read here");
  }
  if (!(p[0] == 'C' && p[1] == 'D' && p[2] == 'F' && (p[3] == 1 || p[3] == 2 || p[3] == 5))) {
    char got[32];
    std::snprintf(got, sizeof got, "%02X %02X %02X %02X", p[0], p[1], p[2], p[3]);
    return Status(Code::kCorrupt,
                  std::string("netCDF header, byte 0: not a netCDF classic file (magic ") + got +
                      ", expected \"CDF\" and version 1, 2 or 5)");
  }
  r.set_format(static_cast<Format>(p[3]));
  uint32_t magic = 0;
  (void)r.u32(&magic, "magic");
  Header& h = out.header;
  if (!read_header(&r, &h)) {
    if (r.need() > 0) {
      out.need = r.need();
      out.header = Header();
      return out;
    }
    return r.status();
  }
  // The records the file holds, and the data inside the file.
  Layout& L = h.layout;
  const Model& m = h.model;
  if (h.streaming) {
    int64_t n = std::numeric_limits<int64_t>::max();
    bool any = false;
    for (const VarLayout& v : L.vars) {
      if (!v.record) continue;
      any = true;
      int64_t end = 0;
      if (!checked_add(v.begin, v.bytes, &end) || end > file_size) {
        n = 0;
        continue;
      }
      // recsize > 0: a record variable's slab has at least one value.
      n = std::min(n, L.recsize == 0 ? 0 : (file_size - end) / L.recsize + 1);
    }
    h.numrecs = any ? n : 0;
  }
  for (size_t i = 0; i < L.vars.size(); ++i) {
    const VarLayout& v = L.vars[i];
    int64_t end = 0;
    bool ok = true;
    if (!v.record) {
      ok = checked_add(v.begin, v.bytes, &end);
    } else if (h.numrecs > 0) {
      int64_t off = 0;
      ok = checked_mul(h.numrecs - 1, L.recsize, &off) && checked_add(v.begin, off, &end) &&
           checked_add(end, v.bytes, &end);
    } else {
      continue;  // no records: the file may end where they would start
    }
    if (!ok || end > file_size) {
      return Status(Code::kCorrupt,
                    "netCDF header: variable " + quoted(m.vars[i].name) + ": its data (at byte " +
                        std::to_string(v.begin) +
                        (v.record ? ", " + std::to_string(h.numrecs) + " records" : std::string()) +
                        ") ends past the end of the file (" + std::to_string(file_size) +
                        " bytes): a truncated file?");
    }
  }
  return out;
}

}  // namespace pario::exodus
