// A self-describing dataset on parallel HDF5 (PDS, the "Parallel Data Set"
// of PDS/PIO): time-indexed segments, registered variables, sections (one
// variable in one segment) and infos, in one HDF5 file that h5py and
// h5dump read with no pario installed.
//
// On-disk layout (format "pario dataset", version 1):
//
//   /                       attributes pario_format = "pario dataset" (string),
//                           pario_format_version = 1 (int64), and the
//                           dataset's infos
//   /variables/<name>       a group per variable; attributes pario_id
//                           (int64, registration order from 0), pario_item
//                           ("scalar", "vector", "tensor"), pario_item_dims
//                           (int64[2]: {1,1}, {k,1} or {r,c}), pario_word_type
//                           (int64, the PARIO_TYPE_* value) and
//                           pario_word_name ("double", ...), and the
//                           variable's infos
//   /segments/<NNNNNNNN>    a group per segment, named by its position (0,
//                           1, ...; eight digits or more, zero padded, so
//                           name order is time order below 10^8 segments;
//                           pario orders by the number); attributes pario_kind
//                           ("topology" or "state"), pario_time_index
//                           (int64), pario_time_value (double), and the
//                           segment's infos
//   /segments/<N>/<name>    a section: an HDF5 dataset of the variable's
//                           word type (little-endian standard types; complex
//                           as the compound {r, i}), shape [items] + the
//                           item dims ([n], [n, k], [n, r, c]), or for a
//                           global-ordered section written with an N-d
//                           blocks decomposition, that global shape.
//                           Attribute pario_layout: "rank" or "global".
//                           Rank-ordered ("rank"): the writers' pieces one
//                           after another in rank order; pario_writers
//                           (int64), pario_piece_items (int64[writers]),
//                           pario_item_sum, pario_item_max (int64).
//                           Global-ordered ("global"): item i of the global
//                           index space at row i (C order over the shape).
//
// Infos are attributes of the dataset's root, a variable's group or a
// segment's group whose names do not start with "pario_" (reserved): a
// 1-D array of an element type, or a string (scalar, variable-length UTF-8).
//
// Metadata cost: appending a segment creates one group with three small
// attributes, and a section one dataset with a few attributes; nothing
// that grows with the number of segments is rewritten (HDF5 1.8 format:
// a group's links are a B-tree v2 once it grows, O(log n) per link).
// Opening reads every segment's and variable's record once (in memory on
// every rank thereafter; segment and variable queries are local).
//
// Truncation deletes the links of the later segments; HDF5 frees their
// objects. The file does not shrink: HDF5 1.10 keeps no free-space record
// across closes by default (`h5repack` writes a compact copy), and while
// the file stays open it may reuse the space for later allocations.
//
// Collective calls: every call below that is not a const query is made by
// every rank of the dataset's communicator, after the C boundary has
// checked and agreed on the arguments (capi/dataset.cpp), and returns the
// same status on every rank (comm::agree). Metadata is written with HDF5's
// collective metadata writes and read with its collective metadata reads
// (one rank reads, HDF5 broadcasts): never N ranks contending for it.
// Nothing half-made is left behind by a failed call: a segment or section
// whose making failed is unlinked again.
//
// File modes beyond one file (a file per time index, n per file, one
// entry file of external links) and crash safety come later (issue 26):
// a segment is a group precisely so that it can become an external link.
//
// Thread safety: none (HDF5; one thread per rank drives the collectives).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/box.h"
#include "base/element_type.h"
#include "base/status.h"
#include "collective/decomposition.h"
#include "comm/comm.h"
#include "dataset/h5.h"
#include "dataset/model.h"

namespace pario::dataset {

constexpr const char* kFormatName = "pario dataset";
constexpr int64_t kFormatVersion = 1;

enum class SectionLayout { kRankOrdered, kGlobalOrdered };

struct SectionInfo {
  SectionLayout layout = SectionLayout::kRankOrdered;
  int64_t items = 0;        // all items (rank-ordered: the sum of the pieces)
  int writers = 0;          // rank-ordered: how many ranks wrote it
  int64_t max_piece = 0;    // rank-ordered: the largest piece
  int64_t piece_start = 0, piece_count = 0;  // the asked writer's piece
  int ndim = 0;             // the HDF5 dataset's shape
  Shape dims{};
};

// Whose infos: the dataset's, a variable's or a segment's (the C API's
// PARIO_INFO_* values).
enum class InfoOwner : int { kDataset = 0, kVariable = 1, kSegment = 2 };

class Pds {
 public:
  // Collective: a new dataset at path. replace: an existing pario dataset
  // there is replaced (truncated in place); any other existing file is
  // kExists, as is any existing file without replace.
  static Result<std::unique_ptr<Pds>> create(const comm::Comm& comm, const std::string& path, bool replace);
  // Collective: opens one, reading its segments and variables (checked:
  // kCorrupt for a file that is not a pario dataset or whose records are
  // malformed or out of order; kUnsupported for a newer format version).
  static Result<std::unique_ptr<Pds>> open(const comm::Comm& comm, const std::string& path, bool writable);
  ~Pds();
  // Collective: flushes and closes the file.
  Status close();

  const std::string& path() const { return file_.path(); }
  bool writable() const { return file_.writable(); }
  const std::vector<SegmentRecord>& segments() const { return segments_; }
  const std::vector<VariableRecord>& variables() const { return variables_; }
  std::optional<int> find_variable(const std::string& name) const;

  // Local checks of arguments, for the C boundary's first step.
  Status check_segment(int64_t segment) const;
  Status check_variable(int variable) const;
  Status check_writable() const;

  // Collective: appends a segment (check_append's rules); its position.
  Result<int64_t> append_segment(SegmentKind kind, int64_t time_index, double time_value);
  // Collective: erases every segment after `last_kept` (-1: all of them)
  // and their sections.
  Status truncate(int64_t last_kept);
  // Collective: registers a variable; its id. A variable of that name and
  // the same definition is found again (its id); another definition is
  // kExists naming the difference.
  Result<int> register_variable(const VariableRecord& v);

  // Collective: the section of `variable` in `segment` (kNotFound when the
  // segment has none), with writer `writer`'s piece (rank-ordered, 0 <=
  // writer < writers; else 0, 0). Every rank may ask for another writer.
  Result<SectionInfo> section_info(int64_t segment, int variable, int writer);
  // Collective: a rank-ordered section; this rank's piece is `items`
  // items of mem_type at buf (converted to the word type; a value that
  // does not fit fails the call on every rank before anything is made).
  // kExists when the segment has this section already.
  Status write_ranked(int64_t segment, int variable, ElementType mem_type, int64_t items, const void* buf);
  // Collective: items [start, start + items) of the section (either
  // layout; each rank its own range, any may be empty) into buf as
  // mem_type. kOutOfRange for a range outside the section.
  Status read_items(int64_t segment, int variable, ElementType mem_type, int64_t start, int64_t items, void* buf);
  // Collective: a global-ordered section through the collective engine.
  // The decomposition indexes the section's words (items × words per
  // item; a vector's component j of item i is word i·k + j), its file type
  // is the variable's word type, in native byte order, and its group is
  // the dataset's processes. shape (shape_ndim > 0): the decomposition's
  // global shape (C order), kept as the dataset's shape when it is the
  // variable's items (section_shape).
  Status write_global(int64_t segment, int variable, collective::Decomposition& d, ElementType mem_type,
                      const void* buf, int shape_ndim, const Shape& shape);
  // Collective: reads a section (either layout) through a decomposition
  // of its words into buf as mem_type.
  Status read_global(int64_t segment, int variable, collective::Decomposition& d, ElementType mem_type, void* buf);

  // Local: the object path of an info owner (kInvalidArgument naming a
  // bad segment or variable).
  Result<std::string> owner_path(InfoOwner owner, int64_t which) const;
  // Collective: sets info `name` (check_name) of the owner to rank 0's
  // value (the others' are ignored: one writer).
  Status put_info(InfoOwner owner, int64_t which, const std::string& name, const AttrValue& value);
  // Collective: the info (kNotFound when absent); the same on every rank.
  Result<AttrValue> get_info(InfoOwner owner, int64_t which, const std::string& name);
  // Collective: the owner's info names, in name order.
  Result<std::vector<std::string>> info_names(InfoOwner owner, int64_t which);

 private:
  explicit Pds(File file) : file_(std::move(file)) {}
  Status load();
  Status check_same_processes(const collective::Decomposition& d) const;
  // Collective: unlinks `path` after a failed step (whatever the status).
  void undo(const std::string& path);
  // Collective: the section dataset, opened and checked against the variable.
  Result<Dataset> open_section(int64_t segment, const VariableRecord& v);

  File file_;
  std::vector<SegmentRecord> segments_;
  std::vector<VariableRecord> variables_;  // by id
};

}  // namespace pario::dataset
