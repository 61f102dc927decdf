// The model of a self-describing dataset (PDS: "Parallel Data Set"), as
// pure values and rules, with no HDF5 and no MPI: segments and their
// order, variables and their item types, how a section's items map to an
// HDF5 dataset's shape, the names of everything in the file, and the
// checks of what is read back from one. dataset/pds.h executes it on
// parallel HDF5; the on-disk layout is described there.
//
// Thread safety: pure functions and plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/box.h"
#include "base/element_type.h"
#include "base/status.h"

namespace pario::dataset {

// The values are the C API's PARIO_SEGMENT_*.
enum class SegmentKind : int { kTopology = 1, kState = 2 };

struct SegmentRecord {
  SegmentKind kind = SegmentKind::kState;
  int64_t time_index = 0;
  double time_value = 0;
};

const char* segment_kind_name(SegmentKind k);  // "topology", "state"
std::optional<SegmentKind> parse_segment_kind(const std::string& s);

// Whether a segment of `kind` at (time_index, time_value) may follow
// `existing` (in order): time indices never decrease, a topology and a
// state segment may share one (the topology first), two of one kind may
// not; time values never decrease and are finite. kInvalidArgument naming
// the segment it would follow.
Status check_append(const std::vector<SegmentRecord>& existing, SegmentKind kind, int64_t time_index,
                    double time_value);
// The same rule over a whole list read from a file (kCorrupt naming the
// first segment out of order).
Status check_order(const std::vector<SegmentRecord>& segments);

// Position of the segment of `kind` (nullopt: either kind; the first in
// order) with this time index, or nullopt.
std::optional<int64_t> find_by_index(const std::vector<SegmentRecord>& segments, std::optional<SegmentKind> kind,
                                     int64_t time_index);
// Position of the last segment of `kind` (nullopt: either) whose time
// value is <= t (the state at time t), or nullopt.
std::optional<int64_t> find_by_time(const std::vector<SegmentRecord>& segments, std::optional<SegmentKind> kind,
                                    double t);

// The values are the C API's PARIO_ITEM_*.
enum class ItemKind : int { kScalar = 0, kVector = 1, kTensor = 2 };
const char* item_kind_name(ItemKind k);  // "scalar", "vector", "tensor"
std::optional<ItemKind> parse_item_kind(const std::string& s);

struct VariableRecord {
  std::string name;
  int id = 0;                    // registration order, 0-based
  ItemKind item = ItemKind::kScalar;
  int item_ndim = 0;             // 0 scalar, 1 vector, 2 tensor
  int64_t item_dims[2] = {1, 1};  // vector: {k, 1}; tensor: {r, c}
  ElementType word = ElementType::kDouble;
  int64_t words_per_item() const { return item_dims[0] * item_dims[1]; }
};

// The largest item a variable may have (words): a vector or tensor of
// more is a mistake, and the bound keeps every size product in range.
constexpr int64_t kMaxItemWords = int64_t{1} << 20;

// A checked variable: a name (check_name), item dims >= 1 with a product
// of at most kMaxItemWords, a word type of pario's. kInvalidArgument
// naming what is wrong.
Result<VariableRecord> make_variable(const std::string& name, int item_kind, const int64_t* item_dims,
                                     int word_type);

// File modes (PXI; the values are the C API's PARIO_DATASET_*): one file;
// a file per time index; n time indices per file. In the multi-file modes
// the entry file holds the dataset's records and member file k holds the
// segments of time groups [k*n, (k+1)*n): a time group is one time index
// (a topology and a state segment of one index share it), numbered in
// order from 0. The layout is in dataset/pds.h.
enum class FilesMode : int { kOneFile = 0, kFilePerStep = 1, kStepsPerFile = 2 };
struct FileLayout {
  FilesMode mode = FilesMode::kOneFile;
  int64_t steps_per_file = 0;  // multi-file: n >= 1 (file per step: 1); one file: 0
  bool multi_file() const { return mode != FilesMode::kOneFile; }
};
const char* file_mode_name(FilesMode m);  // "one_file", "file_per_step", "steps_per_file"
std::optional<FilesMode> parse_file_mode(const std::string& s);
// A checked layout from the C API's values: steps_per_file 0 (or 1) for a
// file per step, >= 1 for n per file, 0 for one file. kInvalidArgument
// naming what is wrong (`code` kCorrupt for values read from a file).
Result<FileLayout> make_layout(int mode, int64_t steps_per_file, Code code = Code::kInvalidArgument);
// The member file of every segment (multi-file layouts; empty for one file).
std::vector<int64_t> members_of(const std::vector<SegmentRecord>& segments, const FileLayout& layout);
// The member file a segment at time_index appended after `existing` goes to.
int64_t member_of_next(const std::vector<SegmentRecord>& existing, int64_t time_index, const FileLayout& layout);
// The member files' printf pattern for an entry file name (its last path
// component): "run.h5" -> "run.%06d.h5", "run" -> "run.%06d.h5". Member k
// is that pattern with k, in the entry file's directory.
std::string member_pattern(const std::string& entry_path);
// Whether a pattern read from a file is one member_pattern makes (a file
// name, no '/', one "%06d" before ".h5", nothing else for printf): kCorrupt.
Status check_member_pattern(const std::string& pattern);
// Member k's path: the pattern with k, in the entry's directory.
std::string member_path(const std::string& entry_path, const std::string& pattern, int64_t k);
// The member number k of a file name (a directory entry, no '/') when it
// is exactly the name member_path gives k with this pattern (six digits or
// more, no extra leading zeros), else nullopt: how a create finds member
// files an earlier dataset of that name left, gaps and all.
std::optional<int64_t> member_number(const std::string& pattern, const std::string& file_name);

// Names of variables and infos: 1 to 255 bytes, no '/' and no NUL, not
// "." or "..", and not starting with "pario_" (pario's own attributes).
// `what` names the argument for the message.
Status check_name(const std::string& name, const char* what);

// Paths in the file (the layout in dataset/pds.h).
constexpr const char* kSegmentsGroup = "/segments";
constexpr const char* kVariablesGroup = "/variables";
std::string segment_path(int64_t position);  // "/segments/00000003"
std::string variable_path(const std::string& name);
std::string section_path(int64_t position, const std::string& variable);
// A segment group's name is its position, eight digits or more, zero
// padded: the position, or nullopt for any other name.
std::optional<int64_t> parse_segment_name(const std::string& name);

// Rank-ordered pieces: the start of each writer's piece (in items) and
// their sum and maximum, from the per-writer item counts; kCorrupt (from
// a file) or kInvalidArgument when a count is negative or the sum
// overflows.
struct Pieces {
  std::vector<int64_t> starts;  // writers + 1 entries: the last is the sum
  int64_t sum = 0, max = 0;
};
Result<Pieces> pieces_of(const std::vector<int64_t>& counts, Code code);

// Part `part` of `parts` of `items` split evenly: the first items % parts
// parts get one more. {start, count}.
std::pair<int64_t, int64_t> even_split(int64_t items, int parts, int part);

// The shape of a section's HDF5 dataset holding `words` words of variable
// v: the decomposition's own shape when it has one (blocks; `shape_ndim`
// > 0) and it is the variable's items (a scalar: any shape; a vector or
// tensor: the item dims last), else [items] and the item dims.
// kInvalidArgument when words is no whole number of items.
Result<std::pair<int, Shape>> section_shape(const VariableRecord& v, int64_t words, int shape_ndim,
                                            const Shape& shape);

}  // namespace pario::dataset
