// A self-describing dataset on parallel HDF5 (PDS, the "Parallel Data Set"
// of PDS/PIO): time-indexed segments, registered variables, sections (one
// variable in one segment) and infos, in one HDF5 file that h5py and
// h5dump read with no pario installed.
//
// On-disk layout (format "pario dataset", version 1):
//
//   /                       attributes pario_format = "pario dataset" (string),
//                           pario_format_version = 1 (int64; 2 in the
//                           multi-file modes, below), pario_segment_ends =
//                           1 (int64: segments carry pario_ended; files of
//                           pario before it lack both), and the dataset's
//                           infos
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
//                           (int64), pario_time_value (double),
//                           pario_ended = 1 (int64) once the segment has
//                           ended (the next one appended, or the dataset
//                           closed), and the segment's infos
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
// objects; in the multi-file modes the member files holding only erased
// segments are removed (unlinked). The file does not shrink: HDF5 1.10 keeps no free-space record
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
// File modes (PXI; format version 2 for the multi-file ones). The file
// named at create is always the entry file, and opening it opens the whole
// dataset; the mode is read from it.
//   one file (PARIO_DATASET_ONE_FILE, version 1): everything above in it.
//   a file per step (PARIO_DATASET_FILE_PER_STEP) and n steps per file
//   (PARIO_DATASET_STEPS_PER_FILE, n): the entry file holds / (format,
//   version 2, infos) and /variables as above, no /segments, and
//     pario_file_mode       "file_per_step" or "steps_per_file"
//     pario_steps_per_file  n (int64; 1 for a file per step)
//     pario_member_pattern  the member files' printf name, "<stem>.%06d.h5"
//                           for an entry "<stem>.h5" (or "<stem>"), in the
//                           entry file's directory
//   Member file k ("run.000003.h5") holds the segments of time groups
//   [k n, (k+1) n), a time group being one time index (the topology and
//   the state segment of an index share it), numbered 0, 1, ... in order:
//   a file per step is PXI's "first file with the topology and the first
//   time index, then one file per later time index". A member's root has
//   pario_format = "pario dataset member", pario_format_version = 2,
//   pario_member = k (int64) and pario_entry (the entry file's name), and
//   its /segments/<NNNNNNNN> groups are laid out as above, numbered by
//   their position in the whole dataset. Members are 0, 1, ... up to the
//   first missing number. h5py reads a dataset with no pario: open the
//   entry, then pattern % k for k = 0, 1, ... while the file exists.
//
// Crash safety. Whatever HDF5 holds dirty in memory is written at a flush;
// pario writes files out (per the sync policy, SyncPolicy below: kFsync,
// the default, is H5Fflush: metadata, then MPI_File_sync; kWrite the same
// without the fsync; kNone nothing) at a segment's
// end, when the next segment is appended, every file written since its
// last flush: the last segment's, and an older member that a section or
// segment info was written into since (or before keep_open closes it),
// together with the new segment's group where it goes into a file that
// is there already; the entry file after every call that changes it
// (variable registration, dataset and variable infos) and, after create,
// at the latest before the first segment. Close flushes nothing
// (H5Fclose writes what HDF5 holds; no fsync), nor does making a member
// (its first segment's end does).
// Freed space. HDF5 1.10 (no file-space strategy but its default in the
// 1.8 format) hands space freed since the last write-out to the next
// allocation at once, and writes raw data at once: a block that the
// written-out state still names (a group's fractal heap or B-tree node
// moved as the group grew, an attribute replaced) could take a section's
// data, and a kill before the next write-out left that state unreadable
// (shown with HDF5 alone in docs/reliability_notes.md). So every change
// that can free such blocks is written out before any data can follow
// it: a new segment's group (its link in /segments) with the last
// segment's end, a section written into a segment that has ended and an
// info of one (at the end of the call, like the entry file's changes),
// the removal of a cut segment (at open).
// So when a process is killed while segment k is written:
//   - multi-file: the entry file is clean (a step never writes it) and the
//     members before k's are flushed and untouched; k's member is either
//     at its last flush (segments before k in it whole) or, when k opened
//     it, possibly unreadable. Opening finds segments 0..k-1; a last member
//     that does not open or whose records do not read is taken as the step
//     cut short: read-only it is skipped, read-write it is renamed aside
//     (<member>.torn, never removed: the name's shape comes from the
//     entry file, so pario cannot tell it for its own); k is
//     appended again into a new file of that number. A last segment that
//     reads but has no pario_ended is cut short too (as for one file). A
//     last member that reads but says it is something else (another
//     pario_format or member number) is no crash's doing: kCorrupt, and it
//     is left alone.
//   - one file: the file is at its last flush, segment k-1's end with k's
//     empty group, plus whatever HDF5 wrote of segment k since (raw data
//     into space allocated past the flushed end of file or freed since,
//     which the flushed state does not name; metadata the cache evicted
//     or a segment info's write-out flushed). With Debian's HDF5 1.10.8,
//     the HDF5 1.8 format (superblock 2, no file-consistency flags),
//     segments 0..k-1 read back and k is appended again
//     (dataset_crash_test), also when segment k's group reached the file:
//     k has no pario_ended (segment ends are marked in the flush that
//     ends them), so an open takes it for cut short and does not list it
//     (read-only) or removes it (read-write). Where k's group itself does
//     not read (its header written midway), it is cut short all the same
//     (when its end mark does not read either); where HDF5 cannot unlink
//     a cut segment, a read-write open rebuilds /segments: a new group
//     links segments 0..k-1, the old one goes aside as /segments.torn
//     (dataset_crash_test's "damaged" runs). A kill inside the append's
//     write-out can leave k's group in the file without k-1's end mark,
//     or one rank's share of HDF5's collective metadata write without
//     another's (k's header or k-1's then may not read): both are cut
//     short then (neither append had returned, the last has no section
//     yet; the "unmarked" and "writeout" runs). That write-out writes
//     the superblock, with the file's new end, before HDF5 sets the
//     file's size: File extends the file first (h5.cpp,
//     extend_past_allocated), so a kill cannot leave it short of its
//     recorded end; a file that is short ("truncated file", kCorrupt)
//     was cut otherwise (a copy stopped midway) and is refused read-only
//     and read-write, not extended. HDF5 1.10 has no
//     journal: a kill inside a write-out can still leave metadata shared
//     with segments 0..k-2 between two states, and the multi-file modes
//     bound that loss to one member file.
//     Measured with tools/crash_campaign.py (a writer growing one file
//     with infos up to 16 MB, killed at random moments): see
//     docs/reliability_notes.md.
//   - a section or segment info written into a segment that has ended
//     (any segment may take sections) is written out at the end of its
//     call (above): killed before, it is as the last write-out left it,
//     normally without that section (which can then be written again);
//     the segment's other sections read back.
//   - killed after create and before the first flush (registration, an
//     info or the first segment), the entry file may be unreadable: there
//     was no segment to lose; remove it and create again.
// What follows holds for kFsync and kWrite alike: a process killed
// (kill -9) finds the files as the last write-out left them whichever
// way they were written out; only a machine's crash tells them apart
// (kFsync: segments 0..k-1 are on disk; kWrite: what the operating
// system had written back). With kNone nothing is written out before
// close but what HDF5's cache evicts and the members closed to keep few
// open (written whole by H5Fclose): a process killed before close may
// leave an entry file or a member that does not open, so no segment is
// promised (an unreadable member before the last is kCorrupt at open).
// A file being truncated is changed the last member first, so a crash
// midway leaves a prefix of segments.
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
constexpr const char* kMemberFormatName = "pario dataset member";
// Version 1: one file. Version 2: the multi-file layouts (one-file
// datasets are still written as version 1, which pario before file modes
// reads).
constexpr int64_t kFormatVersion = 2;

enum class SectionLayout { kRankOrdered, kGlobalOrdered };

// What a segment's end writes out (crash safety, above), a run's choice
// (not stored in the file; the C API's PARIO_DATASET_SYNC_*). Every point
// where pario makes a file whole (a segment's end, a variable's
// registration, a dataset or variable info, a truncation, a member closed
// to keep few open) does, per policy:
enum class SyncPolicy : int {
  // H5Fflush: HDF5's metadata and raw data written, then MPI_File_sync
  // (an fsync: HDF5 1.10's MPI-IO driver always syncs at a flush).
  kFsync = 1,
  // File::write_back: the same written, without an fsync (the file closed
  // and reopened). As safe as kFsync against a killed process; nothing is
  // promised against a machine's crash before the dataset is closed and
  // the operating system has written its cache.
  kWrite = 2,
  // Nothing: HDF5 writes its metadata when its cache evicts it and at
  // close (and a member closed to keep few open is written whole then).
  kNone = 3,
};

// What this rank's dataset has done for crash safety since it was created
// or opened (the same on every rank): H5Fflush calls (fsyncs) and
// write-backs.
struct SyncCounts {
  int64_t syncs = 0;
  int64_t write_backs = 0;
};

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
  // layout: one file, or member files beside the entry file at path
  // (model.h's FileLayout, checked by make_layout). Replacing removes the
  // old dataset's member files of path's pattern too; a multi-file create
  // finds none there (files of path's member pattern, from an earlier
  // run): replace removes them, an exclusive create is kExists naming one
  // and makes nothing. The new entry file is flushed when it must be
  // whole: before the first segment is appended (or by a call that
  // flushes it sooner: registration, infos), not at create.
  // sync: what a segment's end writes out (SyncPolicy).
  static Result<std::unique_ptr<Pds>> create(const comm::Comm& comm, const std::string& path, bool replace,
                                             const FileLayout& layout = {}, SyncPolicy sync = SyncPolicy::kFsync);
  // Collective: opens one, reading its segments and variables (checked:
  // kCorrupt for a file that is not a pario dataset or whose records are
  // malformed or out of order; kUnsupported for a newer format version).
  static Result<std::unique_ptr<Pds>> open(const comm::Comm& comm, const std::string& path, bool writable,
                                           SyncPolicy sync = SyncPolicy::kFsync);
  ~Pds();
  // Collective: closes the files (H5Fclose writes what HDF5 holds; no
  // H5Fflush, whose MPI_File_sync is an fsync: durability against a
  // machine's crash is the caller's, as for any closed file).
  Status close();

  const std::string& path() const { return file_.path(); }
  bool writable() const { return file_.writable(); }
  const FileLayout& layout() const { return layout_; }
  SyncPolicy sync_policy() const { return sync_; }
  const SyncCounts& sync_counts() const { return sync_counts_; }
  // The files the dataset has now: the entry file and its members.
  int64_t file_count() const { return 1 + static_cast<int64_t>(members_.size()); }
  const std::vector<SegmentRecord>& segments() const { return segments_; }
  const std::vector<VariableRecord>& variables() const { return variables_; }
  std::optional<int> find_variable(const std::string& name) const;

  // Local checks of arguments, for the C boundary's first step.
  Status check_segment(int64_t segment) const;
  Status check_variable(int variable) const;
  Status check_writable() const;
  // A decomposition fit for a global-ordered section of `variable`: the
  // dataset's processes in order, native byte order, the variable's word
  // type as its file type.
  Status check_decomposition(int variable, const collective::Decomposition& d) const;

  // The calls below that a C call reaches after agreeing on its arguments
  // (capi/dataset.cpp) take these checks as agreed: the records are the
  // same on every rank, so check_writable, check_segment, check_variable,
  // check_append and check_decomposition fail alike everywhere and cost
  // no agreement of their own.
  //
  // Collective: appends a segment (check_append's rules); its position.
  // One agreement (the last segment's files written out, per the sync
  // policy, and the new segment's group), two when a new member file is
  // made (and that file's own open).
  Result<int64_t> append_segment(SegmentKind kind, int64_t time_index, double time_value);
  // Collective: erases every segment after `last_kept` (-1: all of them)
  // and their sections, the last first, one agreement per segment (a
  // failure stops every rank at the same segment: the same records
  // everywhere, segments 0..k still in order).
  Status truncate(int64_t last_kept);
  // Collective: registers a variable; its id. A variable of that name and
  // the same definition is found again (its id); another definition is
  // kExists naming the difference.
  Result<int> register_variable(const VariableRecord& v);

  // Collective: the section of `variable` in `segment` (kNotFound when the
  // segment has none), with writer `writer`'s piece (rank-ordered, 0 <=
  // writer < writers; else 0, 0). Every rank may ask for another writer.
  // One agreement: the section opened, its attributes read and checked,
  // and closed.
  Result<SectionInfo> section_info(int64_t segment, int variable, int writer);
  // Collective: a rank-ordered section; this rank's piece is `items`
  // items of mem_type at buf (converted to the word type; a value that
  // does not fit fails the call on every rank before anything is made).
  // kExists when the segment has this section already. One allgather
  // (the pieces' sizes, and whether a rank failed its conversion) and one
  // agreement.
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
  // variable's items (section_shape). Three agreements: the section made
  // and the transfer prepared; the transfer's end (the engine's); the
  // section closed.
  Status write_global(int64_t segment, int variable, collective::Decomposition& d, ElementType mem_type,
                      const void* buf, int shape_ndim, const Shape& shape);
  // Collective: reads a section (either layout) through a decomposition
  // of its words into buf as mem_type. Three agreements, as write_global.
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
  // The segment records of a file's /segments, positions first, first+1,
  // ...; with `ended`, whether each one's end is marked (pario_ended).
  // With last_unreadable (where ends are marked), a last segment whose
  // records are damaged or missing, or the one before it when the last
  // has no end mark and holds no section, counts as one not ended (its
  // record a placeholder) and sets *last_unreadable, instead of failing.
  static Status read_segments(File& f, int64_t first, std::vector<SegmentRecord>* out, std::vector<bool>* ended,
                              bool* last_unreadable = nullptr);
  static Status load_member(File& f, int64_t k, int64_t first, std::vector<SegmentRecord>* out, bool* foreign,
                            std::vector<bool>* ended, bool* last_unreadable);
  // Local, at open: a last segment whose end is not marked was cut short
  // by a crash, and so was the one before when its end is not marked
  // either: they are not listed (and read-write, noted for removal); an
  // earlier one is damage (kCorrupt).
  Status drop_cut_segment(const std::vector<bool>& ended);
  // Collective, once the open has agreed: removes the noted segments (one
  // HDF5 cannot unlink by rebuilding the file's segments group).
  Status remove_cut_segment();
  Status set_segments_aside(File& g, int64_t member);
  // Lockstep: marks the last segment ended (pario_ended) unless it is.
  Status mark_last_ended();
  // Collective: opens the member files after load() (multi-file).
  Status open_members();
  // Collective: closes every open member file.
  Status close_members();
  // Collective: a new member file k (replacing a leftover of that name).
  Status make_member(int64_t k);
  // Collective: rank 0 unlinks the member files numbered from `from` on
  // that the entry's directory holds (gaps and all), the last first.
  // Rank 0: renames a torn last member aside (pds.cpp).
  static Status set_aside(const std::string& at);
  static Status remove_members(const comm::Comm& comm, const std::string& entry, const std::string& pattern,
                               int64_t from);
  // Rank 0 only: the numbers of the member files of this pattern in the
  // entry's directory, in order.
  static Result<std::vector<int64_t>> find_members(const std::string& entry, const std::string& pattern);
  // Collective (create): member files an earlier dataset of this name left
  // (none may be there when a new dataset starts: an open would take them
  // for its own). replace: they are removed; else kExists naming one.
  static Status clear_strays(const comm::Comm& comm, const std::string& path, bool replace);
  // Crash safety (above): a file written since its last flush is marked;
  // at a segment's end every marked file is flushed (end_segment), and a
  // marked member is flushed before keep_open closes it.
  Result<File*> file_to_write(int64_t segment);
  void mark_written(int64_t member);
  // This rank's status of writing out the marked files (lockstep); the
  // caller agrees, then clears the marks (the same on every rank).
  Status end_segment(int64_t* mark_failed);  // *mark_failed: 1 when this rank's end mark failed
  // Collective, after a section's write agreed: one written (or undone)
  // in a segment that has ended is written out at once.
  Status write_out_section(File& f, int64_t segment, const Status& agreed);
  // Writes one file out per the sync policy (lockstep; the caller agrees).
  Status sync_file(File& f);
  // Collective: member k, opened (read-write when the dataset is) when it
  // is closed; at most kOpenMembers stay open.
  Result<File*> member(int64_t k);
  Status keep_open(int64_t k);
  // Collective: the file holding a segment (checked) or an info owner's
  // object, opened when it is a closed member.
  Result<File*> file_of(int64_t segment);
  Result<File*> owner_file(InfoOwner owner, int64_t which);
  Status check_same_processes(const collective::Decomposition& d) const;
  // Collective: unlinks `path` in f after a failed step (whatever the status).
  void undo(File& f, const std::string& path);
  // Collective: the section dataset, opened and checked against the
  // variable. kAgree: the same status on every rank; kCaller: this rank's
  // (what failed closed again), for the caller's next agreement.
  Result<Dataset> open_section(int64_t segment, const VariableRecord& v, Agreement agreement = Agreement::kAgree);

  File file_;  // the entry file
  FileLayout layout_;
  SyncPolicy sync_ = SyncPolicy::kFsync;
  SyncCounts sync_counts_;
  std::string pattern_;               // multi-file: the member files' name pattern
  // Multi-file: member k (open or closed). Members are opened on use and
  // the least recently used beyond kOpenMembers closed (flushed first when
  // written since its last flush), so a
  // dataset of many steps holds a few HDF5 files and communicators.
  static constexpr size_t kOpenMembers = 4;
  std::vector<File> members_;
  std::vector<int64_t> open_order_;   // the open members, least recently used first
  std::vector<int64_t> member_of_;    // multi-file: each segment's member
  // Written since their last flush: the entry (one file: the file), and
  // the members by number.
  bool entry_unsynced_ = false;
  std::vector<int64_t> unsynced_members_;
  std::vector<SegmentRecord> segments_;
  std::vector<VariableRecord> variables_;  // by id
  // Segment ends are marked (pario_ended, a root's pario_segment_ends;
  // crash safety above): in every dataset pario made since, not in older
  // files, whose segments all count as ended. ended_ segments are marked
  // in the file (0..ended_-1).
  bool ends_marked_ = false;
  int64_t ended_ = 0;
  // Open read-write: the segments cut short, to remove (the last first).
  struct CutSegment {
    int64_t member;
    int64_t position;
  };
  std::vector<CutSegment> cut_;
};

}  // namespace pario::dataset
