// The netCDF classic container as a pure codec: the model a header
// describes, where each variable's data lies, and the header's bytes.
//
// An Exodus II file is a netCDF classic file: a header (dimensions,
// attributes, variables and the offset of each variable's data), then the
// fixed-size variables one after the other, then the records, each holding
// one slab of every record variable. Three versions differ only in field
// widths and types: CDF-1 ("CDF\x01", 32-bit offsets), CDF-2 ("CDF\x02",
// 64-bit offsets) and CDF-5 ("CDF\x05", 64-bit counts and sizes, unsigned
// and 64-bit integer types). Every number is big-endian.
//
// Here are only values and bytes: no MPI, no files. The exodus writer
// computes a Layout, writes encode_header's bytes at offset 0 and the data
// at each variable's begin through the collective engine, and raises the
// record count in place (numrecs_offset/numrecs_width) once a step is
// whole. A reader hands decode_header the first bytes of a file and the
// file's size: the header's counts and offsets are untrusted and checked
// against both.
//
// Thread safety: pure functions on values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/element_type.h"
#include "base/status.h"

namespace pario::exodus {

// External types (the nc_type codes of the header). Values are the file's.
enum class NcType : int32_t {
  kByte = 1,    // int8
  kChar = 2,    // text, one byte each
  kShort = 3,   // int16
  kInt = 4,     // int32
  kFloat = 5,   // IEEE single
  kDouble = 6,  // IEEE double
  // CDF-5 only:
  kUByte = 7,
  kUShort = 8,
  kUInt = 9,
  kInt64 = 10,
  kUInt64 = 11,
};

// Bytes of one value in the file (0 for a code outside the enum).
size_t nc_type_size(NcType t);
// "byte", "char", ... for messages ("nc_type 17" outside the enum: the
// returned text is static, so unknown codes read "unknown").
const char* nc_type_name(NcType t);
// Whether a type code is known, and whether it needs CDF-5.
bool valid_nc_type(int32_t code);
bool cdf5_only(NcType t);

// The element type a variable of type t holds in memory: kChar is read as
// kUInt8 (bytes as they are). Every nc type has one.
ElementType element_type_of(NcType t);
// The nc type that stores an element type; complex types have none
// (kUnsupported). Never kChar: text is written with kChar explicitly.
Result<NcType> nc_type_of(ElementType t);

// The file's version. kAuto asks layout() for the smallest that fits.
enum class Format : int { kAuto = 0, kCdf1 = 1, kCdf2 = 2, kCdf5 = 5 };
const char* format_name(Format f);  // "CDF-1", ...

// Longest name netCDF-C creates (NC_MAX_NAME); longer is refused both ways.
constexpr size_t kMaxName = 256;
// A dimension of this length is the record (unlimited) dimension: the
// header stores 0 for it, and a fixed dimension of length 0 cannot exist.
constexpr int64_t kUnlimited = 0;
// numrecs value meaning "streaming": the count is not kept in the header
// (all ones in the field); a reader computes it from the file's size.
constexpr int64_t kStreamingRecords = -1;

struct Dimension {
  std::string name;
  int64_t length = 0;  // kUnlimited for the record dimension
  bool unlimited() const { return length == kUnlimited; }
};

// An attribute: a name, a type and its values, native byte order (text:
// the characters, no terminating NUL).
struct Attribute {
  std::string name;
  NcType type = NcType::kChar;
  std::vector<unsigned char> data;  // count() * nc_type_size(type) bytes

  size_t count() const;  // number of values
  // The values as text (any type: the bytes as they are).
  std::string text() const { return std::string(data.begin(), data.end()); }
};
Attribute text_attribute(std::string name, const std::string& value);
// An attribute of n values of type `type` copied from native `values`
// (n * nc_type_size(type) bytes; for kChar use text_attribute).
Attribute numeric_attribute(std::string name, NcType type, const void* values, size_t n);
template <typename T>
Attribute numeric_attribute(std::string name, NcType type, const std::vector<T>& values) {
  return numeric_attribute(std::move(name), type, values.data(), values.size());
}

struct Variable {
  std::string name;
  std::vector<int> dims;  // dimension ids, slowest first; the record
                          // dimension only first ("record variable")
  NcType type = NcType::kDouble;
  std::vector<Attribute> attributes;
};

struct Model {
  std::vector<Dimension> dims;
  std::vector<Attribute> attributes;  // global
  std::vector<Variable> vars;

  int find_dim(const std::string& name) const;  // -1 if none
  int find_var(const std::string& name) const;  // -1 if none
  int record_dim() const;                       // -1 if none
  bool is_record_var(int v) const;
};

bool operator==(const Attribute& a, const Attribute& b);
bool operator==(const Dimension& a, const Dimension& b);
bool operator==(const Variable& a, const Variable& b);
bool operator==(const Model& a, const Model& b);

// Where one variable's data lies.
struct VarLayout {
  bool record = false;
  // Bytes of its values (all of them, or one record's slab), unpadded.
  int64_t bytes = 0;
  // bytes rounded up to 4: the header's vsize and the space given to it
  // (per record for a record variable).
  int64_t vsize = 0;
  // File offset of its first value (of record 0 for a record variable;
  // record r is at begin + r * recsize).
  int64_t begin = 0;
};

struct Layout {
  Format format = Format::kCdf2;
  int64_t header_size = 0;   // bytes of the encoded header
  int64_t data_begin = 0;    // first byte after the header and its reserve
  int64_t record_begin = 0;  // where record 0 starts (the end of the fixed data when no records)
  // Bytes between one record and the next: the sum of the record
  // variables' vsizes; when there is exactly one record variable, its
  // unpadded slab (the format's one exception: records not padded).
  int64_t recsize = 0;
  // Where numrecs sits in the header, to raise it in place.
  int64_t numrecs_offset = 4;
  int numrecs_width = 4;  // 4, or 8 in CDF-5
  std::vector<VarLayout> vars;  // one per Model::vars, same order

  // Bytes the file holds with numrecs records: the end of the last
  // record, padded to 4 unless there is one record variable (the size
  // netCDF-C gives such a file). kOutOfRange on overflow, kInvalidArgument
  // for a negative count.
  Result<int64_t> file_size(int64_t numrecs) const;
};

struct LayoutOptions {
  Format format = Format::kAuto;  // kAuto: CDF-2, or CDF-5 where needed
  // Free bytes kept after the header, so attributes or variables can be
  // added later without moving the data (netCDF-C's h_minfree).
  int64_t header_reserve = 0;
  // The fixed data and the records start at a multiple of this (a
  // multiple of 4; 4 packs them; e.g. 4096 for O_DIRECT or stripes).
  int64_t align = 4;
};

// Checks the model (names, dimension ids, at most one record dimension
// and only as a variable's first, types, attribute sizes) and places every
// variable: fixed ones after the header (+ reserve, aligned), in model
// order, each 4-aligned; then the record variables interleaved per record.
// kAuto picks CDF-2, or CDF-5 when a CDF-5 type is used or a count,
// length or vsize outgrows CDF-2's 32-bit fields (vsize at most
// 2^32 - 4). An explicit format that cannot hold the model: kOutOfRange
// (CDF-1: offsets and vsizes below 2^31) or kInvalidArgument (a CDF-5
// type in CDF-1/2). A bad model: kInvalidArgument naming what.
Result<Layout> layout(const Model& model, const LayoutOptions& options = {});

// The header's bytes for model placed by `layout` (from layout() for the
// same model), with numrecs records (or kStreamingRecords): exactly
// layout.header_size bytes, names and values padded with zeros to 4.
// kInvalidArgument when the layout does not fit the model; kOutOfRange for
// a numrecs the format cannot hold.
Result<std::vector<unsigned char>> encode_header(const Model& model, const Layout& layout,
                                                 int64_t numrecs);
// The numrecs field alone (layout.numrecs_width bytes), for an update in
// place at layout.numrecs_offset.
Result<std::vector<unsigned char>> encode_numrecs(Format format, int64_t numrecs);

// A decoded header.
struct Header {
  Model model;
  Layout layout;      // begins as the file says; vsizes and recsize computed
  int64_t numrecs = 0;  // the header's count, or computed when streaming
  bool streaming = false;
};

// decode_header's answer when the status is OK: the header, or how many
// bytes it needs to go on.
struct Decoded {
  // 0: `header` is complete. > 0: the header continues past the bytes
  // given; read the file's first `need` bytes (more than given, at most
  // the file's size) and call again. It asks for at least twice what it
  // was given, so a caller reads O(log header) times.
  int64_t need = 0;
  Header header;
  bool complete() const { return need == 0; }
};

// Decodes the header at the start of a file of file_size bytes, of which
// `bytes` holds the first `size` (size <= file_size). Untrusted: every
// count, name, value and offset is checked against the bytes given and
// the file's size before use. Errors (nothing else returned):
//   kCorrupt: not a classic file (magic), an unknown tag or nc_type, a
//     count or size that runs past the end of the file, a name that is
//     empty, too long or repeated, a dimension id out of range, more than
//     one record dimension or one not first, a variable's data before the
//     header's end or past the file's end (a truncated file); the message
//     says what and at which byte;
//   kUnsupported: a netCDF-4 (HDF5) file;
//   kInvalidArgument: size > file_size, or a null buffer with size > 0.
// A streaming numrecs is replaced by the number of whole records the file
// holds (header.streaming says so).
Result<Decoded> decode_header(const void* bytes, size_t size, int64_t file_size);

}  // namespace pario::exodus
