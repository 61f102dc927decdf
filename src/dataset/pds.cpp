// A PDS on parallel HDF5: the model (dataset/model.h) executed through
// dataset/h5.h. The layout is in pds.h.
//
// Every collective step has the same shape: local checks and work that can
// fail on one rank (conversion of a rank's values, its range), then one
// agreement; then the HDF5 calls every rank makes alike (lockstep:
// metadata is changed by all ranks with the same arguments, as parallel
// HDF5 requires, and written with one collective write); then one
// agreement, and on failure the half-made object unlinked again. Values a
// rank contributes (a piece's item count) travel in one allgather; an
// info's value is rank 0's, broadcast.
//
// Agreements per call (an allreduce each; tests/dataset/dataset_calls_test.c
// counts them). The C boundary's entry agreement has checked the
// arguments against the records every rank holds alike, so the steps
// here do not check them again collectively; and the steps fold into as
// few agreements as their failures need: a section is created (lockstep),
// its attribute set and this rank's transfer prepared before one
// agreement that also carries the engine's values (Transfer::prepare and
// begin, as the C boundary does for pario_decomp_write); the engine's end
// agreement; the dataset's close. A segment's end writes its files out
// (the sync policy) in the same step as the next segment's group.
//
// Everything read from the file is checked before use: the format marker
// and version, segment names (positions 0..n-1 with none missing), kinds,
// finite time values in order, variable ids (0..n-1, each once), item
// kinds and dims, word types, a section's layout, its piece counts
// (non-negative, summing to the dataset's rows), and its shape against
// the variable's item.
#include "dataset/pds.h"

#include <dirent.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "base/checked.h"
#include "base/convert.h"
#include "base/status_of.h"
#include "collective/transfer.h"
#include "dataset/target.h"

namespace pario::dataset {

namespace {

constexpr const char* kFormatAttr = "pario_format";
constexpr const char* kVersionAttr = "pario_format_version";
constexpr const char* kReserved = "pario_";
constexpr const char* kModeAttr = "pario_file_mode";
constexpr const char* kStepsAttr = "pario_steps_per_file";
constexpr const char* kPatternAttr = "pario_member_pattern";
constexpr const char* kMemberAttr = "pario_member";
constexpr const char* kEntryAttr = "pario_entry";
constexpr const char* kEndsAttr = "pario_segment_ends";  // the root's: segments carry kEndedAttr
constexpr const char* kEndedAttr = "pario_ended";        // a segment's: it has ended

// Moves the flat word range [begin, end) of a dataset (C order) between
// it and buf (words of the dataset's type, native), one hyperslab per box.
Status move_words(Dataset& ds, int64_t begin, int64_t end, void* buf, bool write) {
  char* at = static_cast<char*>(buf);
  const size_t es = element_size(ds.type());
  for (const Box& box : range_boxes(ds.ndim(), ds.dims(), begin, end)) {
    PARIO_RETURN_IF_ERROR(write ? ds.write(box, at) : ds.read(box, at));
    at += static_cast<size_t>(box.elements()) * es;
  }
  return Status::Ok();
}

// A new section dataset (lockstep; this rank's status, for the caller's
// agreement). No lookup first: HDF5 refuses a name taken (kExists, on
// every rank alike), which is the section being there already.
Result<Dataset> create_section(File& f, const std::string& at, int64_t segment, const std::string& variable,
                               ElementType word, int ndim, const Shape& dims) {
  Result<Dataset> ds = Dataset::create(f, at, word, ndim, dims, Agreement::kCaller);
  if (!ds.ok() && ds.status().code() == Code::kExists) {
    return Status(Code::kExists, f.path() + ": segment " + std::to_string(segment) + " has a section of variable " +
                                     variable + " already");
  }
  return ds;
}

Status corrupt(const std::string& path, const std::string& what) {
  return Status(Code::kCorrupt, path + ": " + what);
}

Result<std::string> string_attr(File& f, const std::string& object, const char* name) {
  PARIO_ASSIGN_OR_RETURN(AttrValue v, f.attribute(object, name));
  if (!v.is_string) return corrupt(f.path(), object + " attribute " + name + " is not a string");
  return v.text;
}

Result<int64_t> int_attr(File& f, const std::string& object, const char* name) {
  PARIO_ASSIGN_OR_RETURN(AttrValue v, f.attribute(object, name));
  return v.as_int64(f.path() + ": " + object + " attribute " + name);
}

// A missing pario attribute in a file that claims the format is damage.
Status as_corrupt(const Status& s) {
  return s.code() == Code::kNotFound || s.code() == Code::kUnsupported ? Status(Code::kCorrupt, s.message()) : s;
}

Status broadcast_value(const comm::Comm& comm, AttrValue* v) {
  int64_t head[4] = {v->is_string ? 1 : 0, static_cast<int64_t>(v->type), v->count,
                     static_cast<int64_t>(v->is_string ? v->text.size() : v->bytes.size())};
  int rc = MPI_Bcast(head, 4, MPI_INT64_T, 0, comm.get());
  if (rc != MPI_SUCCESS) return comm::mpi_status(rc, "MPI_Bcast");
  if (head[3] < 0 || head[3] > kMaxAttributeBytes) return Status(Code::kInternal, "an info of bad size");
  v->is_string = head[0] != 0;
  v->type = static_cast<ElementType>(head[1]);
  v->count = head[2];
  v->scalar = v->is_string;
  char* data;
  if (v->is_string) {
    v->text.resize(static_cast<size_t>(head[3]));
    data = v->text.data();
  } else {
    v->bytes.resize(static_cast<size_t>(head[3]));
    data = reinterpret_cast<char*>(v->bytes.data());
  }
  rc = MPI_Bcast(data, static_cast<int>(head[3]), MPI_BYTE, 0, comm.get());
  return rc == MPI_SUCCESS ? Status::Ok() : comm::mpi_status(rc, "MPI_Bcast");
}

// A section's facts from its open dataset (lockstep attribute reads),
// checked: its layout, and a rank-ordered one's pieces against its rows.
// path: the file's; at: the section's.
Status read_section_info(const std::string& path, const std::string& at, Dataset& ds, const VariableRecord& v,
                         int writer, SectionInfo* info) {
  info->ndim = ds.ndim();
  info->dims = ds.dims();
  info->items = ds.elements() / v.words_per_item();
  Result<AttrValue> layout = ds.attribute("pario_layout");
  if (!layout.ok()) return as_corrupt(layout.status());
  if (layout->is_string && layout->text == "global") {
    info->layout = SectionLayout::kGlobalOrdered;
    return Status::Ok();
  }
  if (!layout->is_string || layout->text != "rank") {
    return corrupt(path, at + ": pario_layout \"" + layout->text + "\" is neither rank nor global");
  }
  Result<AttrValue> counts = ds.attribute("pario_piece_items");
  Result<AttrValue> writers_value = ds.attribute("pario_writers");
  if (!counts.ok()) return as_corrupt(counts.status());
  if (!writers_value.ok()) return as_corrupt(writers_value.status());
  PARIO_ASSIGN_OR_RETURN(const int64_t writers, writers_value->as_int64(path + ": " + at + " attribute pario_writers"));
  if (counts->is_string || counts->type != ElementType::kInt64 || counts->count != writers || writers < 1 ||
      writers > INT32_MAX) {
    return corrupt(path, at + ": pario_piece_items is not pario_writers int64 counts");
  }
  std::vector<int64_t> c(static_cast<size_t>(counts->count));
  std::memcpy(c.data(), counts->bytes.data(), counts->bytes.size());
  Result<Pieces> pieces = pieces_of(c, Code::kCorrupt);
  if (!pieces.ok()) return corrupt(path, at + ": " + pieces.status().message());
  if (pieces->sum != info->items || ds.ndim() != 1 + v.item_ndim) {
    return corrupt(path, at + ": pieces of " + std::to_string(pieces->sum) + " items in a dataset of " +
                             std::to_string(info->items));
  }
  info->layout = SectionLayout::kRankOrdered;
  info->writers = static_cast<int>(writers);
  info->max_piece = pieces->max;
  if (writer >= 0 && writer < info->writers) {
    info->piece_start = pieces->starts[static_cast<size_t>(writer)];
    info->piece_count = c[static_cast<size_t>(writer)];
  }
  return Status::Ok();
}

}  // namespace

Pds::~Pds() = default;

Result<std::unique_ptr<Pds>> Pds::create(const comm::Comm& comm, const std::string& path, bool replace,
                                         const FileLayout& layout, SyncPolicy sync) {
  if (replace) {
    // Only a pario dataset is replaced: rank 0 asks whether there is a
    // file, and all open it to read its marker; then rank 0 asks whether
    // the create could truncate it, so that a file it could not (0444,
    // immutable) is refused before its member files are removed.
    int there = 0;
    if (comm.rank() == 0) there = ::access(path.c_str(), F_OK) == 0 ? 1 : 0;
    const int rc = MPI_Bcast(&there, 1, MPI_INT, 0, comm.get());
    if (rc != MPI_SUCCESS) return comm::mpi_status(rc, "MPI_Bcast");
    if (there) {
      Result<File> old = File::open(comm, path, FileMode::kReadOnly);
      Status local = old.status();
      if (old.ok()) {
        Result<std::string> marker = string_attr(*old, "/", kFormatAttr);
        if (!marker.ok() || *marker != kFormatName) {
          local = Status(Code::kExists, "dataset::Pds::create: " + path +
                                            ": a file that is not a pario dataset is there; it is not replaced");
        } else if (comm.rank() == 0 && ::access(path.c_str(), W_OK) != 0) {
          local = errno_status(errno, "dataset::Pds::create: " + path + " cannot be written, so it is not replaced");
        }
        local = comm::agree(old->comm(), local);
        const Status closed = old->close();
        if (local.ok()) local = closed;
      } else if (local.code() == Code::kCorrupt) {
        local = Status(Code::kExists, "dataset::Pds::create: " + path +
                                          ": a file that is not HDF5 is there; it is not replaced");
      }
      PARIO_RETURN_IF_ERROR(local);
    }
  }
  // The old dataset's member files go too (none for one file), and any
  // file of the member pattern an earlier run left.
  if (replace || layout.multi_file()) PARIO_RETURN_IF_ERROR(clear_strays(comm, path, replace));
  PARIO_ASSIGN_OR_RETURN(File f, File::open(comm, path, replace ? FileMode::kCreateTruncate
                                                                 : FileMode::kCreateExclusive));
  std::unique_ptr<Pds> p(new Pds(std::move(f)));
  p->layout_ = layout;
  p->sync_ = sync;
  File& file = p->file_;
  Status local = file.set_attribute("/", kFormatAttr, AttrValue::string(kFormatName));
  // One file keeps version 1 (what earlier pario reads); the multi-file
  // layouts are version 2, which an earlier pario refuses as newer.
  const int64_t version = layout.multi_file() ? kFormatVersion : 1;
  if (local.ok()) local = file.set_attribute("/", kVersionAttr, AttrValue::int64(version));
  if (local.ok()) local = file.set_attribute("/", kEndsAttr, AttrValue::int64(1));
  p->ends_marked_ = true;
  if (layout.multi_file()) {
    p->pattern_ = member_pattern(path);
    if (local.ok()) local = file.set_attribute("/", kModeAttr, AttrValue::string(file_mode_name(layout.mode)));
    if (local.ok()) local = file.set_attribute("/", kStepsAttr, AttrValue::int64(layout.steps_per_file));
    if (local.ok()) local = file.set_attribute("/", kPatternAttr, AttrValue::string(p->pattern_));
  } else if (local.ok()) {
    local = file.create_group(kSegmentsGroup);
  }
  if (local.ok()) local = file.create_group(kVariablesGroup);
  // Not flushed here (an fsync): end_segment flushes it before the first
  // segment, unless registration or an info has by then.
  p->entry_unsynced_ = true;
  local = comm::agree(file.comm(), local);
  if (!local.ok()) {
    (void)file.close();
    return local;
  }
  return p;
}

Result<std::unique_ptr<Pds>> Pds::open(const comm::Comm& comm, const std::string& path, bool writable,
                                       SyncPolicy sync) {
  PARIO_ASSIGN_OR_RETURN(File f, File::open(comm, path, writable ? FileMode::kReadWrite : FileMode::kReadOnly));
  std::unique_ptr<Pds> p(new Pds(std::move(f)));
  p->sync_ = sync;
  Status local = comm::agree(p->file_.comm(), p->load());
  if (local.ok() && p->layout_.multi_file()) local = p->open_members();
  if (local.ok()) local = p->remove_cut_segment();
  if (!local.ok()) {
    (void)p->close_members();
    (void)p->file_.close();
    return local;
  }
  return p;
}

Status Pds::read_segments(File& f, int64_t first, std::vector<SegmentRecord>* out, std::vector<bool>* ended,
                          bool* last_unreadable) {
  const std::string& path = f.path();
  Result<std::vector<std::string>> names = f.links(kSegmentsGroup);
  if (!names.ok()) return as_corrupt(names.status());
  // Name order is position order up to 10^8 segments (eight digits);
  // beyond, "100000000" sorts before "99999999": order by the number.
  std::vector<std::pair<int64_t, std::string>> numbered;
  for (const std::string& name : *names) {
    const std::optional<int64_t> pos = parse_segment_name(name);
    numbered.emplace_back(pos ? *pos : -1, name);
  }
  std::sort(numbered.begin(), numbered.end());
  for (size_t i = 0; i < numbered.size(); ++i) {
    const auto& [pos, name] = numbered[i];
    if (pos != first + static_cast<int64_t>(i)) {
      return corrupt(path, std::string(kSegmentsGroup) + "/" + name + " where segment " +
                               std::to_string(first + static_cast<int64_t>(i)) +
                               " should be (segments are numbered 0, 1, ... with none missing)");
    }
    const std::string at = segment_path(pos);
    Result<std::string> kind = string_attr(f, at, "pario_kind");
    Result<int64_t> index = int_attr(f, at, "pario_time_index");
    Result<AttrValue> value = f.attribute(at, "pario_time_value");
    // The last segment's records damaged or missing, where segments are
    // marked ended: a kill while it was written left its metadata
    // part-written (HDF5 1.10 has no journal; "incorrect metadata
    // checksum" twice in 46 kills of a one-file writer, 2026-11-27). It
    // never ended: it is cut short like one that reads without its mark
    // (drop_cut_segment), not damage. So is the one before it when the
    // last has no end mark either and holds no section: its mark goes out
    // with the last one's empty group, and a kill inside that write-out
    // can leave either header part-written (one rank's share of HDF5's
    // collective metadata write in the file, another's not:
    // dataset_crash_test's "writeout" runs). Once the last holds a
    // section its append had returned, so the one before had ended.
    // Left ambiguous: a kill inside the write-out of a section or info
    // into the one before, after the last was appended and before it
    // took a section, tearing that header too; both are then cut where
    // the file used to open not at all (read-write, /segments.torn keeps
    // the torn group). An earlier segment unreadable still is damage,
    // and so is an I/O error (kIo), which is no proof of damage. A
    // segment whose end mark reads did end: then it is damage too.
    auto damaged = [](const Status& st) { return st.code() == Code::kCorrupt || st.code() == Code::kNotFound; };
    const size_t left = numbered.size() - i;  // 1: the last
    auto last_may_be_cut = [&] {
      const std::string last_at = segment_path(numbered.back().first);
      if (f.attribute(last_at, kEndedAttr).ok()) return false;
      Result<std::vector<std::string>> sections = f.links(last_at);
      return !sections.ok() || sections->empty();
    };
    if (ended && last_unreadable && (!kind.ok() || !index.ok() || !value.ok()) &&
        (kind.ok() || damaged(kind.status())) && (index.ok() || damaged(index.status())) &&
        (value.ok() || damaged(value.status())) && (left == 1 || (left == 2 && last_may_be_cut())) &&
        !f.attribute(at, kEndedAttr).ok()) {
      out->push_back(SegmentRecord{SegmentKind::kState, out->empty() ? 0 : out->back().time_index,
                                   out->empty() ? 0.0 : out->back().time_value});
      ended->push_back(false);
      *last_unreadable = true;
      continue;
    }
    if (!kind.ok()) return as_corrupt(kind.status());
    if (!index.ok()) return as_corrupt(index.status());
    if (!value.ok()) return as_corrupt(value.status());
    Result<double> t = value->as_double(path + ": " + at + " attribute pario_time_value");
    if (!t.ok()) return t.status();
    const std::optional<SegmentKind> k = parse_segment_kind(*kind);
    if (!k) return corrupt(path, at + ": pario_kind \"" + *kind + "\" is neither topology nor state");
    out->push_back(SegmentRecord{*k, *index, *t});
    if (ended) {
      Result<AttrValue> mark = f.attribute(at, kEndedAttr);
      if (!mark.ok() && mark.status().code() != Code::kNotFound) return as_corrupt(mark.status());
      ended->push_back(mark.ok());
    }
  }
  return Status::Ok();
}

// Member k of this dataset: its marker, its number, then its segments
// (numbered on from `first`). *foreign: the file says it is something
// else (another marker, another member number), which no crash makes.
Status Pds::load_member(File& f, int64_t k, int64_t first, std::vector<SegmentRecord>* out, bool* foreign,
                        std::vector<bool>* ended, bool* last_unreadable) {
  *foreign = false;
  Result<AttrValue> marker = f.attribute("/", kFormatAttr);
  if (!marker.ok() || !marker->is_string || marker->text != kMemberFormatName) {
    *foreign = marker.ok();
    return corrupt(f.path(), "not a member file of a pario dataset (no pario_format \"" +
                                 std::string(kMemberFormatName) + "\")");
  }
  Result<int64_t> number = int_attr(f, "/", kMemberAttr);
  if (!number.ok() || *number != k) {
    *foreign = number.ok();
    return corrupt(f.path(), "pario_member is not " + std::to_string(k) + " (the file's number in its name)");
  }
  return read_segments(f, first, out, ended, last_unreadable);
}

Status Pds::open_members() {
  const comm::Comm& comm = file_.comm();
  // Rank 0 counts the member files (0, 1, ... up to the first missing).
  int64_t count = 0;
  if (comm.rank() == 0) {
    while (::access(member_path(file_.path(), pattern_, count).c_str(), F_OK) == 0) ++count;
  }
  int rc = MPI_Bcast(&count, 1, MPI_INT64_T, 0, comm.get());
  if (rc != MPI_SUCCESS) return comm::mpi_status(rc, "MPI_Bcast");
  const FileMode mode = file_.writable() ? FileMode::kReadWrite : FileMode::kReadOnly;
  std::vector<bool> ended;
  for (int64_t k = 0; k < count; ++k) {
    const std::string at = member_path(file_.path(), pattern_, k);
    Result<File> f = File::open(comm, at, mode);
    std::vector<SegmentRecord> segs;
    std::vector<bool> ends;
    Status local = f.status();
    bool foreign = false;
    bool unreadable = false;
    if (f.ok()) {
      local = comm::agree(comm, load_member(*f, k, static_cast<int64_t>(segments_.size()), &segs, &foreign, &ends,
                                            ends_marked_ ? &unreadable : nullptr));
    }
    if (!local.ok()) {
      if (f.ok()) (void)f->close();
      // The last member unreadable: a step cut short (a crash while it was
      // written, before its first flush). Its segments are not listed; a
      // writer removes it, and its time group is written again. A file
      // that says it is something else is left alone (kCorrupt).
      const bool torn = k == count - 1 && !foreign && (local.code() == Code::kCorrupt || local.code() == Code::kIo);
      if (!torn) return local;
      if (file_.writable()) {
        PARIO_RETURN_IF_ERROR(comm::agree(comm, comm.rank() == 0 ? set_aside(at) : Status::Ok()));
      }
      break;
    }
    for (const SegmentRecord& s : segs) {
      segments_.push_back(s);
      member_of_.push_back(k);
    }
    ended.insert(ended.end(), ends.begin(), ends.end());
    members_.push_back(std::move(f).value());
    PARIO_RETURN_IF_ERROR(keep_open(k));
  }
  PARIO_RETURN_IF_ERROR(drop_cut_segment(ended));
  Status order = check_order(segments_);
  if (!order.ok()) return corrupt(file_.path(), order.message());
  if (members_of(segments_, layout_) != member_of_) {
    return corrupt(file_.path(), "a member file holds segments of another file's time indices (" +
                                     std::to_string(layout_.steps_per_file) + " time indices per file)");
  }
  return Status::Ok();
}

Result<std::vector<int64_t>> Pds::find_members(const std::string& entry, const std::string& pattern) {
  const size_t slash = entry.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : entry.substr(0, slash);
  DIR* d = ::opendir(dir.c_str());
  if (!d) return errno_status(errno, "dataset::Pds: opendir " + dir);
  std::vector<int64_t> found;
  errno = 0;
  while (const dirent* e = ::readdir(d)) {
    if (const std::optional<int64_t> k = member_number(pattern, e->d_name)) found.push_back(*k);
  }
  const int err = errno;
  ::closedir(d);
  if (err != 0) return errno_status(err, "dataset::Pds: readdir " + dir);
  std::sort(found.begin(), found.end());
  return found;
}

Status Pds::clear_strays(const comm::Comm& comm, const std::string& path, bool replace) {
  const std::string pattern = member_pattern(path);
  if (replace) return remove_members(comm, path, pattern, 0);
  // Rank 0 looks; every rank gets the same kExists from what it found.
  int64_t found_facts[3] = {0, 0, 0};  // the look failed, files found, the first's number
  Status local;
  if (comm.rank() == 0) {
    Result<std::vector<int64_t>> found = find_members(path, pattern);
    local = found.status();
    if (found.ok() && !found->empty()) {
      found_facts[1] = static_cast<int64_t>(found->size());
      found_facts[2] = found->front();
    }
    found_facts[0] = local.ok() ? 0 : 1;
  }
  const int rc = MPI_Bcast(found_facts, 3, MPI_INT64_T, 0, comm.get());
  if (rc != MPI_SUCCESS) return comm::mpi_status(rc, "MPI_Bcast");
  if (found_facts[0] != 0) return comm::agree(comm, local);
  if (found_facts[1] == 0) return Status::Ok();
  const int64_t more = found_facts[1] - 1;
  return Status(Code::kExists, "dataset::Pds::create: " + path + ": " + member_path(path, pattern, found_facts[2]) +
                                   (more > 0 ? " and " + std::to_string(more) + " more member files" : "") +
                                   " of an earlier dataset of this name are there, which an open would take for "
                                   "this dataset's: remove them, or create with PARIO_MODE_TRUNCATE (which "
                                   "removes them)",
                EEXIST);
}

Status Pds::close_members() {
  Status first;
  while (!members_.empty()) {
    const Status s = members_.back().close();  // Ok when closed already
    if (first.ok()) first = s;
    members_.pop_back();
  }
  open_order_.clear();
  return first;
}

// Member k was just opened: it joins the open ones, and the least recently
// used beyond kOpenMembers is closed (flushed). Every rank makes the same
// calls in the same order, so the same members are open everywhere.
Status Pds::keep_open(int64_t k) {
  open_order_.erase(std::remove(open_order_.begin(), open_order_.end(), k), open_order_.end());
  open_order_.push_back(k);
  while (open_order_.size() > kOpenMembers) {
    const int64_t oldest = open_order_.front();
    open_order_.erase(open_order_.begin());
    File& m = members_[static_cast<size_t>(oldest)];
    auto marked = std::find(unsynced_members_.begin(), unsynced_members_.end(), oldest);
    if (marked != unsynced_members_.end()) {
      // Written since its last flush: synced before it goes (kFsync). The
      // close writes it out whole (H5Fclose), which is all kWrite asks.
      if (sync_ == SyncPolicy::kFsync) {
        ++sync_counts_.syncs;
        PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), m.flush()));
      }
      unsynced_members_.erase(marked);
    }
    PARIO_RETURN_IF_ERROR(m.close());
  }
  return Status::Ok();
}

Result<File*> Pds::file_to_write(int64_t segment) {
  if (!layout_.multi_file()) {
    entry_unsynced_ = true;
    return &file_;
  }
  const int64_t k = member_of_[static_cast<size_t>(segment)];
  PARIO_ASSIGN_OR_RETURN(File * f, member(k));
  mark_written(k);
  return f;
}

void Pds::mark_written(int64_t member) {
  if (std::find(unsynced_members_.begin(), unsynced_members_.end(), member) == unsynced_members_.end()) {
    unsynced_members_.push_back(member);
  }
}

// A segment's end (crash safety, in pds.h): every file written since its
// last flush is written out per the sync policy: the last segment's, an
// older member a section or info went into since, and the entry file
// after create. Marked members are open (keep_open writes one out before
// it closes it). Every rank makes the same calls whatever its own
// status (lockstep: a flush or write-back is collective in HDF5).
Status Pds::end_segment(int64_t* mark_failed) {
  Status local = mark_last_ended();  // in the write-out below
  *mark_failed = local.ok() ? 0 : 1;
  if (entry_unsynced_) {
    const Status s = sync_file(file_);
    if (local.ok()) local = s;
  }
  std::sort(unsynced_members_.begin(), unsynced_members_.end());
  for (int64_t k : unsynced_members_) {
    File& m = members_[static_cast<size_t>(k)];
    if (m.is_open()) {
      const Status s = sync_file(m);
      if (local.ok()) local = s;
    }
  }
  return local;
}

// A section written (or undone) in a segment that has ended is written
// out at once, after the call's agreement (a section that failed on one
// rank never goes out whole): its link can free blocks of that segment's
// written-out group, and HDF5 1.10 may hand them to the next allocation,
// whose data it writes at once (crash safety, in pds.h). The section's
// own data took its space before its link went in (H5Dcreate allocates
// early, then links), so it cannot land there. Collective; returns the
// call's status, or the write-out's failure after a success.
Status Pds::write_out_section(File& f, int64_t segment, const Status& agreed) {
  if (segment + 1 >= static_cast<int64_t>(segments_.size())) return agreed;
  const Status out = comm::agree(file_.comm(), sync_file(f));
  return agreed.ok() ? out : agreed;
}

Status Pds::sync_file(File& f) {
  switch (sync_) {
    case SyncPolicy::kFsync:
      ++sync_counts_.syncs;
      return f.flush();
    case SyncPolicy::kWrite:
      ++sync_counts_.write_backs;
      return f.write_back();
    case SyncPolicy::kNone:
      return Status::Ok();
  }
  return Status(Code::kInternal, "dataset::Pds: sync policy " + std::to_string(static_cast<int>(sync_)));
}

Result<File*> Pds::member(int64_t k) {
  File& m = members_[static_cast<size_t>(k)];
  if (!m.is_open()) {
    const FileMode mode = file_.writable() ? FileMode::kReadWrite : FileMode::kReadOnly;
    PARIO_ASSIGN_OR_RETURN(m, File::open(file_.comm(), member_path(file_.path(), pattern_, k), mode));
  }
  PARIO_RETURN_IF_ERROR(keep_open(k));
  return &m;
}

// A last member that does not read is moved out of the dataset's way,
// not removed: a crash leaves such a file, but so could anything else of
// the name's shape (the pattern comes from the entry file), and nothing
// pario cannot tell for its own is deleted. The first free name of
// <member>.torn, <member>.torn.1, ... (link(2) never replaces one).
Status Pds::set_aside(const std::string& at) {
  for (int i = 0; i < 1000; ++i) {
    const std::string aside = at + ".torn" + (i ? "." + std::to_string(i) : "");
    if (::link(at.c_str(), aside.c_str()) == 0) {
      if (::unlink(at.c_str()) == 0) return Status::Ok();
      const int err = errno;
      (void)::unlink(aside.c_str());
      return errno_status(err, "dataset::Pds::open: unlink " + at);
    }
    if (errno != EEXIST) return errno_status(errno, "dataset::Pds::open: link " + at + " to " + aside);
  }
  return Status(Code::kExists, "dataset::Pds::open: " + at + ".torn .. .torn.999 are all taken");
}

Status Pds::remove_members(const comm::Comm& comm, const std::string& entry, const std::string& pattern,
                           int64_t from) {
  // Rank 0 unlinks them, the last first: a crash midway leaves a prefix.
  // Every one of the pattern, not only up to the first gap: an orphan
  // after a gap would be taken for a member once the dataset reaches it.
  Status local;
  if (comm.rank() == 0) {
    Result<std::vector<int64_t>> found = find_members(entry, pattern);
    local = found.status();
    if (found.ok()) {
      for (auto k = found->rbegin(); k != found->rend() && *k >= from && local.ok(); ++k) {
        const std::string at = member_path(entry, pattern, *k);
        if (::unlink(at.c_str()) != 0) local = errno_status(errno, "dataset::Pds: unlink " + at);
      }
    }
  }
  return comm::agree(comm, local);
}

Status Pds::load() {
  File& f = file_;
  const std::string& path = f.path();
  Result<AttrValue> marker = f.attribute("/", kFormatAttr);
  if (!marker.ok() || !marker->is_string || marker->text != kFormatName) {
    return corrupt(path, "not a pario dataset (the root group has no pario_format attribute \"" +
                             std::string(kFormatName) + "\")");
  }
  Result<int64_t> version = int_attr(f, "/", kVersionAttr);
  if (!version.ok()) return corrupt(path, "a pario dataset without a readable pario_format_version");
  if (*version > kFormatVersion) {
    return Status(Code::kUnsupported, path + ": pario dataset format version " + std::to_string(*version) +
                                          "; this pario reads version " + std::to_string(kFormatVersion));
  }
  if (*version < 1) return corrupt(path, "pario_format_version " + std::to_string(*version));

  segments_.clear();
  member_of_.clear();
  Result<AttrValue> ends = f.attribute("/", kEndsAttr);
  if (!ends.ok() && ends.status().code() != Code::kNotFound) return as_corrupt(ends.status());
  ends_marked_ = ends.ok();
  if (*version >= 2) {
    Result<std::string> mode = string_attr(f, "/", kModeAttr);
    Result<int64_t> steps = int_attr(f, "/", kStepsAttr);
    Result<std::string> pattern = string_attr(f, "/", kPatternAttr);
    if (!mode.ok() || !steps.ok() || !pattern.ok()) {
      return corrupt(path, "a version 2 dataset without its file mode (pario_file_mode, pario_steps_per_file, "
                           "pario_member_pattern)");
    }
    const std::optional<FilesMode> m = parse_file_mode(*mode);
    if (!m) return corrupt(path, "pario_file_mode \"" + *mode + "\" is none of pario's");
    Result<FileLayout> layout = make_layout(static_cast<int>(*m), *steps, Code::kCorrupt);
    if (!layout.ok()) return corrupt(path, layout.status().message());
    Status p = check_member_pattern(*pattern);
    if (!p.ok()) return corrupt(path, p.message());
    layout_ = *layout;
    pattern_ = *pattern;
  }
  if (!layout_.multi_file()) {
    std::vector<bool> ended;
    bool unreadable = false;
    PARIO_RETURN_IF_ERROR(read_segments(f, 0, &segments_, &ended, ends_marked_ ? &unreadable : nullptr));
    PARIO_RETURN_IF_ERROR(drop_cut_segment(ended));
    Status order = check_order(segments_);
    if (!order.ok()) return corrupt(path, order.message());
  }

  Result<std::vector<std::string>> names = f.links(kVariablesGroup);
  if (!names.ok()) return as_corrupt(names.status());
  variables_.assign(names->size(), VariableRecord{});
  std::vector<bool> seen(names->size(), false);
  for (const std::string& name : *names) {
    const std::string at = variable_path(name);
    Result<int64_t> id = int_attr(f, at, "pario_id");
    Result<std::string> item = string_attr(f, at, "pario_item");
    Result<AttrValue> dims = f.attribute(at, "pario_item_dims");
    Result<int64_t> word = int_attr(f, at, "pario_word_type");
    for (const Status& s : {id.status(), item.status(), dims.status(), word.status()}) {
      if (!s.ok()) return as_corrupt(s);
    }
    if (*id < 0 || *id >= static_cast<int64_t>(names->size()) || seen[static_cast<size_t>(*id)]) {
      return corrupt(path, at + ": pario_id " + std::to_string(*id) + " is out of 0.." +
                               std::to_string(names->size() - 1) + " or taken twice");
    }
    const std::optional<ItemKind> kind = parse_item_kind(*item);
    if (!kind || dims->is_string || dims->type != ElementType::kInt64 || dims->count != 2 ||
        *word < 0 || *word > INT32_MAX) {
      return corrupt(path, at + ": a malformed item kind, item dims or word type");
    }
    int64_t d[2];
    std::memcpy(d, dims->bytes.data(), sizeof d);
    Result<VariableRecord> v = make_variable(name, static_cast<int>(*kind), d, static_cast<int>(*word));
    if (!v.ok()) return corrupt(path, at + ": " + v.status().message());
    if ((*kind == ItemKind::kScalar && (d[0] != 1 || d[1] != 1)) || (*kind == ItemKind::kVector && d[1] != 1)) {
      return corrupt(path, at + ": item dims that do not fit a " + *item);
    }
    v->id = static_cast<int>(*id);
    seen[static_cast<size_t>(*id)] = true;
    variables_[static_cast<size_t>(*id)] = std::move(v).value();
  }
  return Status::Ok();
}

Status Pds::close() {
  // The last segment has ended (written by the close, as all else; its
  // status agreed in the entry file's close).
  const Status marked = file_.writable() ? mark_last_ended() : Status::Ok();
  // No H5Fflush (MPI_File_sync, an fsync): H5Fclose writes whatever HDF5
  // holds, so a process killed after close loses nothing.
  entry_unsynced_ = false;
  unsynced_members_.clear();
  const Status members = close_members();
  const Status closed = file_.close(marked);
  return members.ok() ? closed : members;
}

Status Pds::mark_last_ended() {
  const int64_t n = static_cast<int64_t>(segments_.size());
  if (!ends_marked_ || ended_ >= n) return Status::Ok();
  // Counted as marked on every rank whatever this rank's call did: the
  // caller's agreement decides, on every rank alike (append_segment puts
  // the count back when it fails). A rank whose write failed alone once
  // kept its own count and tried again at the next append or close,
  // making HDF5's collective metadata calls without the others.
  ended_ = n;
  PARIO_ASSIGN_OR_RETURN(File * f, file_to_write(n - 1));
  return f->set_attribute(segment_path(n - 1), kEndedAttr, AttrValue::int64(1));
}

Status Pds::drop_cut_segment(const std::vector<bool>& ended) {
  const int64_t n = static_cast<int64_t>(segments_.size());
  ended_ = n;
  if (!ends_marked_ || n == 0) return Status::Ok();
  // Cut short by a crash while it was written (pds.h, crash safety): the
  // last segment when it has no end mark, and the one before as well when
  // neither has: a segment's mark is written out with the next segment's
  // group (append_segment), and a kill inside that write-out can leave
  // the group in the file without the mark. Neither append had returned.
  int64_t cut = 0;
  while (cut < 2 && cut < n && !ended[static_cast<size_t>(n - 1 - cut)]) ++cut;
  for (int64_t i = 0; i + cut < n; ++i) {
    if (!ended[static_cast<size_t>(i)]) {
      return corrupt(file_.path(), segment_path(i) + " never ended (no pario_ended) but segments follow it");
    }
  }
  // Not listed; a writer removes them, the last first, once the open has
  // agreed.
  for (int64_t i = n - 1; i >= n - cut; --i) {
    if (file_.writable()) cut_.push_back({layout_.multi_file() ? member_of_[static_cast<size_t>(i)] : 0, i});
    segments_.pop_back();
    if (layout_.multi_file()) member_of_.pop_back();
  }
  ended_ = n - cut;
  return Status::Ok();
}

Status Pds::remove_cut_segment() {
  const std::vector<CutSegment> cut = std::exchange(cut_, {});
  int64_t aside_in = -1;  // the file whose segments group was set aside (then rebuilt without the cut ones)
  for (const CutSegment& c : cut) {
    if (c.member == aside_in) continue;
    Result<File*> f = layout_.multi_file() ? member(c.member) : Result<File*>(&file_);
    Status removed = comm::agree(file_.comm(), f.ok() ? (*f)->remove(segment_path(c.position)) : f.status());
    if (!f.ok()) return removed;
    File& g = **f;
    // HDF5 could not unlink it (a crash left its header, or what it
    // holds, unreadable: H5Ldelete updates the object's link count and
    // deletes what it held): the segments group is rebuilt without it.
    if (!removed.ok()) {
      removed = set_segments_aside(g, c.member);
      aside_in = c.member;
    }
    PARIO_RETURN_IF_ERROR(removed);
    // Written out at once: the removal frees blocks the file's written-out
    // state names (the segments group's), which the next allocation may
    // take (crash safety, in pds.h).
    PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), sync_file(g)));
  }
  return Status::Ok();
}

// The file's segments group rebuilt without the cut segments: a new group
// under a spare name links the segments kept (hard links), then the old
// one goes aside whole, as /segments.torn (.1, .2, ... when taken), and
// the new one takes its name. Until the first move the old group is
// untouched, and the spare goes again on failure. Lockstep, then agreed.
Status Pds::set_segments_aside(File& g, int64_t member) {
  const std::string spare = std::string(kSegmentsGroup) + ".rebuilt";
  std::string aside;
  Result<bool> leftover = g.exists(spare);
  Status local = leftover.status();
  if (local.ok() && *leftover) local = g.remove(spare);  // an earlier try's, cut short
  for (int i = 0; local.ok() && aside.empty() && i < 1000; ++i) {
    const std::string name = std::string(kSegmentsGroup) + ".torn" + (i ? "." + std::to_string(i) : "");
    Result<bool> there = g.exists(name);
    local = there.status();
    if (local.ok() && !*there) aside = name;
  }
  if (local.ok() && aside.empty()) {
    local = Status(Code::kExists, g.path() + ": " + kSegmentsGroup + ".torn .. .torn.999 are all taken");
  }
  if (local.ok()) local = g.create_group(spare);
  const int64_t n = static_cast<int64_t>(segments_.size());
  const size_t prefix = std::string(kSegmentsGroup).size();
  for (int64_t i = 0; local.ok() && i < n; ++i) {
    if (layout_.multi_file() && member_of_[static_cast<size_t>(i)] != member) continue;
    const std::string at = segment_path(i);
    local = g.link(at, spare + at.substr(prefix));
  }
  if (local.ok()) local = g.move(kSegmentsGroup, aside);
  if (local.ok()) {
    local = g.move(spare, kSegmentsGroup);
    if (!local.ok()) (void)g.move(aside, kSegmentsGroup);  // the old one back
  } else {
    Result<bool> made = g.exists(spare);
    if (made.ok() && *made) (void)g.remove(spare);
  }
  return comm::agree(file_.comm(), local);
}

Result<File*> Pds::file_of(int64_t segment) {
  if (!layout_.multi_file()) return &file_;
  return member(member_of_[static_cast<size_t>(segment)]);
}

std::optional<int> Pds::find_variable(const std::string& name) const {
  for (const VariableRecord& v : variables_) {
    if (v.name == name) return v.id;
  }
  return std::nullopt;
}

Status Pds::check_segment(int64_t segment) const {
  if (segment < 0 || segment >= static_cast<int64_t>(segments_.size())) {
    return Status(Code::kInvalidArgument, "segment " + std::to_string(segment) + " is not in 0.." +
                                              std::to_string(static_cast<int64_t>(segments_.size()) - 1) + " (" +
                                              std::to_string(segments_.size()) + " segments)");
  }
  return Status::Ok();
}

Status Pds::check_variable(int variable) const {
  if (variable < 0 || variable >= static_cast<int>(variables_.size())) {
    return Status(Code::kInvalidArgument, "variable " + std::to_string(variable) + " is not registered (" +
                                              std::to_string(variables_.size()) + " variables)");
  }
  return Status::Ok();
}

Status Pds::check_writable() const {
  if (!file_.writable()) return Status(Code::kState, file_.path() + ": the dataset is open read-only");
  return Status::Ok();
}

void Pds::undo(File& f, const std::string& path) {
  // Every rank made the same calls, so either all have the link or none.
  Result<bool> there = f.exists(path);
  Status local = there.status();
  if (there.ok() && *there) local = f.remove(path);
  (void)comm::agree(f.comm(), local);
}

Result<int64_t> Pds::append_segment(SegmentKind kind, int64_t time_index, double time_value) {
  // Agreed at the C boundary, and the same on every rank (pds.h).
  PARIO_RETURN_IF_ERROR(check_writable());
  PARIO_RETURN_IF_ERROR(check_append(segments_, kind, time_index, time_value));
  const int64_t position = static_cast<int64_t>(segments_.size());
  const int64_t target = member_of_next(segments_, time_index, layout_);
  if (layout_.multi_file() && target > static_cast<int64_t>(members_.size())) {
    return Status(Code::kInternal, "dataset::Pds::append_segment: member " + std::to_string(target) + " after " +
                                       std::to_string(members_.size()) + " files");
  }
  const bool new_member = layout_.multi_file() && target == static_cast<int64_t>(members_.size());
  // The last segment ends here: the files written since their last flush
  // are written out, so a crash from now on finds them whole (crash
  // safety, in pds.h). Where the end mark failed on any rank (the
  // agreements below carry that), its count is put back on every rank,
  // so that all try the mark again together (mark_last_ended).
  const int64_t ended_before = ended_;
  int64_t mark_failed = 0;
  Status synced;
  if (new_member) {
    // The last segment's files are written out before the new member is
    // made; the new member's own first write-out is at this segment's end.
    synced = end_segment(&mark_failed);
    if (Status agreed = comm::agree_max(file_.comm(), synced, &mark_failed, 1); !agreed.ok()) {
      if (mark_failed) ended_ = ended_before;
      return agreed;
    }
    entry_unsynced_ = false;
    unsynced_members_.clear();
    PARIO_RETURN_IF_ERROR(make_member(target));
  }
  PARIO_ASSIGN_OR_RETURN(File * fp, layout_.multi_file() ? member(target) : Result<File*>(&file_));
  File& f = *fp;
  const std::string at = segment_path(position);
  Status local = f.create_group(at, {{"pario_kind", AttrValue::string(segment_kind_name(kind))},
                                     {"pario_time_index", AttrValue::int64(time_index)},
                                     {"pario_time_value", AttrValue::float64(time_value)}});
  if (!new_member) {
    // The new group goes out with the last segment's end, in the same
    // write-out. Adding its link to the segments group can free blocks
    // that group's last written-out state still names (its fractal heap
    // and B-tree move as they grow), and HDF5 1.10 hands freed space to
    // the next allocation at once: written out only at the next
    // segment's end, as before, this segment's raw data (written at
    // once) could land there, and a kill before that end left the
    // segments group unreadable (docs/reliability_notes.md).
    if (layout_.multi_file()) {
      mark_written(target);
    } else {
      entry_unsynced_ = true;
    }
    synced = end_segment(&mark_failed);
  }
  if (!synced.ok()) local = synced;  // the cause, rather than what it left unusable
  local = comm::agree_max(file_.comm(), local, &mark_failed, 1);
  // Marks change only after an agreement, so they stay the same on every
  // rank (a write-out is collective): on failure the files stay marked,
  // the undone group's too, for the next write-out.
  if (!local.ok()) {
    undo(f, at);
    // The group's link went out in the write-out above: its removal frees
    // blocks that state names, so it goes out too before any data can
    // follow (crash safety, in pds.h). The status is the append's.
    if (!new_member) (void)comm::agree(file_.comm(), sync_file(f));
    if (mark_failed) ended_ = ended_before;
    return local;
  }
  entry_unsynced_ = false;
  unsynced_members_.clear();
  if (new_member) mark_written(target);
  segments_.push_back(SegmentRecord{kind, time_index, time_value});
  if (layout_.multi_file()) member_of_.push_back(target);
  return position;
}

Status Pds::make_member(int64_t k) {
  // Replaces a leftover of that name (a crashed step's, or an orphan
  // after a gap): its time group is written anew.
  const std::string at = member_path(file_.path(), pattern_, k);
  PARIO_ASSIGN_OR_RETURN(File f, File::open(file_.comm(), at, FileMode::kCreateTruncate));
  const size_t slash = file_.path().rfind('/');
  const std::string entry = slash == std::string::npos ? file_.path() : file_.path().substr(slash + 1);
  Status local = f.set_attribute("/", kFormatAttr, AttrValue::string(kMemberFormatName));
  if (local.ok()) local = f.set_attribute("/", kVersionAttr, AttrValue::int64(kFormatVersion));
  if (local.ok()) local = f.set_attribute("/", kMemberAttr, AttrValue::int64(k));
  if (local.ok()) local = f.set_attribute("/", kEntryAttr, AttrValue::string(entry));
  if (local.ok()) local = f.create_group(kSegmentsGroup);
  // Not flushed (an fsync): the segment appended next marks it, and its
  // end flushes it. Killed before, it is a last member cut short, which
  // open_members skips or removes.
  local = comm::agree(file_.comm(), local);
  if (!local.ok()) {
    (void)f.close();
    (void)remove_members(file_.comm(), file_.path(), pattern_, k);
    return local;
  }
  members_.push_back(std::move(f));
  return keep_open(k);
}

Status Pds::truncate(int64_t last_kept) {
  Status local = check_writable();
  if (local.ok() && (last_kept < -1 || last_kept >= static_cast<int64_t>(segments_.size()))) {
    local = Status(Code::kInvalidArgument, "last_kept " + std::to_string(last_kept) + " is not in -1.." +
                                               std::to_string(static_cast<int64_t>(segments_.size()) - 1));
  }
  PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), local));
  int64_t n = static_cast<int64_t>(segments_.size());
  if (layout_.multi_file()) {
    // Whole member files after the one holding last_kept go, the last
    // first, so a failure or crash midway leaves a prefix in order.
    const size_t keep = last_kept < 0 ? 0 : static_cast<size_t>(member_of_[static_cast<size_t>(last_kept)]) + 1;
    while (local.ok() && members_.size() > keep) {
      const std::string at = members_.back().path();
      local = members_.back().close();  // Ok when closed already
      members_.pop_back();
      const int64_t gone = static_cast<int64_t>(members_.size());
      open_order_.erase(std::remove(open_order_.begin(), open_order_.end(), gone), open_order_.end());
      unsynced_members_.erase(std::remove(unsynced_members_.begin(), unsynced_members_.end(), gone),
                              unsynced_members_.end());
      if (local.ok() && file_.comm().rank() == 0 && ::unlink(at.c_str()) != 0) {
        local = errno_status(errno, "dataset::Pds::truncate: unlink " + at);
      }
      local = comm::agree(file_.comm(), local);
      while (n > 0 && member_of_[static_cast<size_t>(n - 1)] >= static_cast<int64_t>(members_.size())) --n;
    }
  }
  // The last first: a failure midway leaves segments 0..k, still in order.
  // Agreed segment by segment: a rank whose unlink failed stops with the
  // others (who would otherwise go on alone into the next member's open
  // or the flush below, both collective), and every rank keeps the same
  // records.
  while (local.ok() && n > last_kept + 1) {
    Result<File*> f = file_of(n - 1);
    local = comm::agree(file_.comm(), f.ok() ? (*f)->remove(segment_path(n - 1)) : f.status());
    if (local.ok()) --n;
  }
  if (local.ok() && n > 0) {
    Result<File*> f = file_of(n - 1);
    local = f.ok() ? sync_file(**f) : f.status();
  }
  local = comm::agree(file_.comm(), local);
  segments_.resize(static_cast<size_t>(n));
  if (layout_.multi_file()) member_of_.resize(static_cast<size_t>(n));
  ended_ = std::min(ended_, n);
  return local;
}

Result<int> Pds::register_variable(const VariableRecord& v) {
  Status local = check_writable();
  if (const std::optional<int> id = find_variable(v.name)) {
    const VariableRecord& old = variables_[static_cast<size_t>(*id)];
    if (old.item == v.item && old.item_dims[0] == v.item_dims[0] && old.item_dims[1] == v.item_dims[1] &&
        old.word == v.word) {
      return *id;  // the same on every rank: nothing to agree
    }
    local = Status(Code::kExists, "variable " + v.name + " is registered already as a " + item_kind_name(old.item) +
                                      " of " + element_name(old.word));
  }
  PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), local));
  const std::string at = variable_path(v.name);
  const int id = static_cast<int>(variables_.size());
  local = file_.create_group(at, {{"pario_id", AttrValue::int64(id)},
                                  {"pario_item", AttrValue::string(item_kind_name(v.item))},
                                  {"pario_item_dims", AttrValue::array(ElementType::kInt64, v.item_dims, 2)},
                                  {"pario_word_type", AttrValue::int64(static_cast<int64_t>(v.word))},
                                  {"pario_word_name", AttrValue::string(element_name(v.word))}});
  const Status synced = sync_file(file_);  // the entry file is clean between calls (crash safety)
  if (local.ok()) local = synced;
  local = comm::agree(file_.comm(), local);
  if (!local.ok()) {
    undo(file_, at);
    return local;
  }
  entry_unsynced_ = false;
  VariableRecord r = v;
  r.id = id;
  variables_.push_back(std::move(r));
  return id;
}

Result<Dataset> Pds::open_section(int64_t segment, const VariableRecord& v, Agreement agreement) {
  const std::string at = section_path(segment, v.name);
  PARIO_ASSIGN_OR_RETURN(File * fp, file_of(segment));
  File& f = *fp;
  // Lockstep: every rank reads the same metadata (collective metadata
  // reads), so every rank opens it or none does. No lookup of the link
  // first: a missing one is HDF5's kNotFound.
  Result<Dataset> ds = Dataset::open(f, at, std::nullopt, Agreement::kCaller);
  Status local;
  if (!ds.ok()) {
    local = ds.status().code() == Code::kNotFound
                ? Status(Code::kNotFound, f.path() + ": segment " + std::to_string(segment) +
                                              " has no section of variable " + v.name)
                : as_corrupt(ds.status());
  }
  if (ds.ok()) {
    // The shape must be whole items of the variable: [n] + item dims, or
    // for a global-ordered N-d section any shape ending with the item dims.
    bool good = ds->type() == v.word && ds->ndim() > v.item_ndim;
    for (int d = 0; good && d < v.item_ndim; ++d) good = ds->dims()[ds->ndim() - v.item_ndim + d] == v.item_dims[d];
    if (!good) {
      local = corrupt(f.path(), at + ": a dataset of " + element_name(ds->type()) + ", " +
                                    std::to_string(ds->ndim()) + " dims, which is no section of a " +
                                    item_kind_name(v.item) + " of " + element_name(v.word));
      (void)ds->close(Agreement::kCaller);
    }
  }
  if (agreement == Agreement::kAgree) {
    const Status agreed = comm::agree(file_.comm(), local);
    if (!agreed.ok() && local.ok()) (void)ds->close(Agreement::kCaller);  // another rank failed
    local = agreed;
  }
  PARIO_RETURN_IF_ERROR(local);
  return ds;
}

Result<SectionInfo> Pds::section_info(int64_t segment, int variable, int writer) {
  // Agreed at the C boundary, and the same on every rank (pds.h).
  PARIO_RETURN_IF_ERROR(check_segment(segment));
  PARIO_RETURN_IF_ERROR(check_variable(variable));
  const VariableRecord& v = variables_[static_cast<size_t>(variable)];
  // Opened, its attributes read and checked and closed (lockstep: what
  // fails, fails alike on every rank, the file being the same), then one
  // agreement.
  Result<Dataset> ds = open_section(segment, v, Agreement::kCaller);
  Status local = ds.status();
  SectionInfo info;
  if (ds.ok()) {
    local = read_section_info((*file_of(segment))->path(), section_path(segment, v.name), *ds, v, writer, &info);
    const Status closed = ds->close(Agreement::kCaller);
    if (local.ok()) local = closed;
  }
  PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), local));
  return info;
}

Status Pds::write_ranked(int64_t segment, int variable, ElementType mem_type, int64_t items, const void* buf) {
  // Agreed at the C boundary, and the same on every rank (pds.h).
  PARIO_RETURN_IF_ERROR(check_writable());
  PARIO_RETURN_IF_ERROR(check_segment(segment));
  PARIO_RETURN_IF_ERROR(check_variable(variable));
  const VariableRecord& v = variables_[static_cast<size_t>(variable)];
  const std::string at = section_path(segment, v.name);
  // This rank's piece in the word type (a value that does not fit fails
  // here, before anything is made).
  Status local;
  int64_t words = 0;
  std::vector<unsigned char> converted;
  const void* data = buf;
  if (items < 0 || !checked_mul(items, v.words_per_item(), &words) ||
      static_cast<uint64_t>(words) > SIZE_MAX / element_size(v.word)) {
    local = Status(Code::kInvalidArgument, "items " + std::to_string(items) + " is negative or too many");
  } else if (words > 0 && buf == nullptr) {
    local = Status(Code::kInvalidArgument, "buf is null");
  } else if (mem_type != v.word && words > 0) {
    // A failed allocation is this rank's status, seen in the allgather.
    local = status_of("dataset::Pds::write_ranked: the converted piece", [&] {
      converted.resize(static_cast<size_t>(words) * element_size(v.word));
      return convert(mem_type, buf, v.word, converted.data(), static_cast<size_t>(words));
    });
    data = converted.data();
  }
  // Every rank's piece and whether it failed, in one allgather: a failure
  // anywhere is seen by every rank, which then agree on its message.
  const int size = file_.comm().size();
  const int64_t mine[2] = {local.ok() ? items : 0, local.ok() ? 0 : 1};
  std::vector<int64_t> all(2 * static_cast<size_t>(size));
  const int rc = MPI_Allgather(mine, 2, MPI_INT64_T, all.data(), 2, MPI_INT64_T, file_.comm().get());
  if (rc != MPI_SUCCESS) return comm::mpi_status(rc, "MPI_Allgather");
  std::vector<int64_t> counts(static_cast<size_t>(size));
  bool failed = false;
  for (int r = 0; r < size; ++r) {
    counts[static_cast<size_t>(r)] = all[2 * static_cast<size_t>(r)];
    failed = failed || all[2 * static_cast<size_t>(r) + 1] != 0;
  }
  if (failed) {
    const Status s = comm::agree(file_.comm(), local);
    return s.ok() ? Status(Code::kInternal, "dataset::Pds::write_ranked: a failure that agree() did not see") : s;
  }
  Result<Pieces> pieces = pieces_of(counts, Code::kInvalidArgument);
  int64_t total_words = 0;
  if (pieces.ok() && !checked_mul(pieces->sum, v.words_per_item(), &total_words)) {
    pieces = Status(Code::kInvalidArgument, "the pieces hold more than 2^63 words");
  }
  PARIO_RETURN_IF_ERROR(pieces.status());  // the same on every rank
  // Collective when it opens a member (agreed there).
  PARIO_ASSIGN_OR_RETURN(File * sfp, file_to_write(segment));
  File& sf = *sfp;
  // One lockstep step: the dataset and its attributes made (on every rank
  // alike, whatever this rank's piece does), this rank's piece written
  // (independent), the dataset closed; then one agreement, which also
  // tells whether every rank made the dataset (then a failure unlinks it).
  Shape dims{};
  dims[0] = pieces->sum;
  for (int d = 0; d < v.item_ndim; ++d) dims[1 + d] = v.item_dims[d];
  Result<Dataset> ds = create_section(sf, at, segment, v.name, v.word, 1 + v.item_ndim, dims);
  local = ds.status();
  const bool made = ds.ok();
  if (made) {
    const int64_t first = pieces->starts[static_cast<size_t>(file_.comm().rank())] * v.words_per_item();
    const Status wrote = move_words(*ds, first, first + words, const_cast<void*>(data), /*write=*/true);
    Status attrs = ds->set_attribute("pario_layout", AttrValue::string("rank"));
    if (attrs.ok()) attrs = ds->set_attribute("pario_writers", AttrValue::int64(size));
    if (attrs.ok()) {
      attrs = ds->set_attribute("pario_piece_items",
                                AttrValue::array(ElementType::kInt64, counts.data(), static_cast<int64_t>(size)));
    }
    if (attrs.ok()) attrs = ds->set_attribute("pario_item_sum", AttrValue::int64(pieces->sum));
    if (attrs.ok()) attrs = ds->set_attribute("pario_item_max", AttrValue::int64(pieces->max));
    const Status closed = ds->close(Agreement::kCaller);
    local = !wrote.ok() ? wrote : !attrs.ok() ? attrs : closed;
  }
  int64_t unmade = made ? 0 : 1;
  local = comm::agree_max(file_.comm(), local, &unmade, 1);
  if (!local.ok() && unmade == 0) undo(sf, at);
  return write_out_section(sf, segment, local);
}

Status Pds::read_items(int64_t segment, int variable, ElementType mem_type, int64_t start, int64_t items, void* buf) {
  // Agreed at the C boundary, and the same on every rank (pds.h).
  PARIO_RETURN_IF_ERROR(check_segment(segment));
  PARIO_RETURN_IF_ERROR(check_variable(variable));
  const VariableRecord& v = variables_[static_cast<size_t>(variable)];
  // Opened, read (independent) and closed, then one agreement.
  Result<Dataset> ds = open_section(segment, v, Agreement::kCaller);
  Status local = ds.status();
  if (ds.ok()) {
    const int64_t w = v.words_per_item();
    const int64_t all = ds->elements() / w;
    int64_t end = 0;
    if (start < 0 || items < 0 || !checked_add(start, items, &end) || end > all) {
      local = Status(Code::kOutOfRange, "items [" + std::to_string(start) + ", +" + std::to_string(items) +
                                            ") outside the section's " + std::to_string(all) + " items");
    } else if (items > 0 && buf == nullptr) {
      local = Status(Code::kInvalidArgument, "buf is null");
    } else if (items > 0) {
      const size_t words = static_cast<size_t>(items * w);
      if (mem_type == v.word) {
        local = move_words(*ds, start * w, end * w, buf, /*write=*/false);
      } else {
        std::vector<unsigned char> raw;
        local = status_of("dataset::Pds::read_items: the piece in the word type", [&] {
          raw.resize(words * element_size(v.word));
          return Status::Ok();
        });
        if (local.ok()) local = move_words(*ds, start * w, end * w, raw.data(), /*write=*/false);
        if (local.ok()) local = convert(v.word, raw.data(), mem_type, buf, words);
      }
    }
    const Status closed = ds->close(Agreement::kCaller);
    if (local.ok()) local = closed;
  }
  return comm::agree(file_.comm(), local);
}

Status Pds::check_same_processes(const collective::Decomposition& d) const {
  int same = MPI_UNEQUAL;
  const int rc = MPI_Comm_compare(d.comm().get(), file_.comm().get(), &same);
  if (rc != MPI_SUCCESS) return comm::mpi_status(rc, "MPI_Comm_compare");
  if (same != MPI_IDENT && same != MPI_CONGRUENT) {
    return Status(Code::kInvalidArgument, "the decomposition's group is not the dataset's processes in its order");
  }
  if (needs_swap(d.byte_order()) || (d.byte_order() != ByteOrder::kNative && d.byte_order() != ByteOrder::kLittle &&
                                     d.byte_order() != ByteOrder::kBig)) {
    return Status(Code::kInvalidArgument, "the decomposition's byte order is not native (HDF5 orders the bytes)");
  }
  return Status::Ok();
}

Status Pds::check_decomposition(int variable, const collective::Decomposition& d) const {
  PARIO_RETURN_IF_ERROR(check_variable(variable));
  PARIO_RETURN_IF_ERROR(check_same_processes(d));
  const VariableRecord& v = variables_[static_cast<size_t>(variable)];
  if (d.file_type() != v.word) {
    return Status(Code::kInvalidArgument, std::string("the decomposition's file type ") + element_name(d.file_type()) +
                                              " is not variable " + v.name + "'s word type " + element_name(v.word));
  }
  return Status::Ok();
}

Status Pds::write_global(int64_t segment, int variable, collective::Decomposition& d, ElementType mem_type,
                         const void* buf, int shape_ndim, const Shape& shape) {
  // Agreed at the C boundary, and the same on every rank (pds.h); so is
  // the section's shape (the decomposition's, made collectively).
  PARIO_RETURN_IF_ERROR(check_writable());
  PARIO_RETURN_IF_ERROR(check_segment(segment));
  PARIO_RETURN_IF_ERROR(check_decomposition(variable, d));
  const VariableRecord& v = variables_[static_cast<size_t>(variable)];
  PARIO_ASSIGN_OR_RETURN(const auto section, section_shape(v, d.global_size(), shape_ndim, shape));
  // Collective when it opens a member (agreed there).
  PARIO_ASSIGN_OR_RETURN(File * sfp, file_to_write(segment));
  File& sf = *sfp;
  const std::string at = section_path(segment, v.name);
  // One lockstep step: the dataset and its attribute made, and this rank's
  // part of the transfer prepared (checks, buffers, packing); one
  // agreement carries the engine's values and whether every rank made
  // the dataset (then a failure unlinks it).
  Result<Dataset> ds = create_section(sf, at, segment, v.name, v.word, section.first, section.second);
  Status local = ds.status();
  const bool made = ds.ok();
  if (made) local = ds->set_attribute("pario_layout", AttrValue::string("global"));
  DatasetTarget target(made ? &*ds : nullptr);
  std::unique_ptr<collective::Transfer> t;
  constexpr int kValues = collective::Transfer::kAgreementValues;
  int64_t values[kValues + 1] = {};
  if (local.ok()) {
    t = collective::Transfer::prepare(d, target, 0, device::IoKind::kWrite, mem_type, const_cast<void*>(buf),
                                      collective::Transfer::kBlocking, &local);
    t->agreement_values(values);
  }
  values[kValues] = made ? 0 : 1;
  local = comm::agree_max(file_.comm(), local, values, kValues + 1);
  const bool all_made = values[kValues] == 0;
  if (local.ok()) {
    local = t->begin(values);  // agreed
    if (local.ok()) local = t->wait();  // agreed
  }
  t.reset();
  const Status closed = made ? ds->close(Agreement::kCaller) : Status::Ok();
  if (local.ok()) local = comm::agree(file_.comm(), closed);
  if (!local.ok() && all_made) undo(sf, at);
  return write_out_section(sf, segment, local);
}

Status Pds::read_global(int64_t segment, int variable, collective::Decomposition& d, ElementType mem_type,
                        void* buf) {
  // Agreed at the C boundary, and the same on every rank (pds.h).
  PARIO_RETURN_IF_ERROR(check_segment(segment));
  PARIO_RETURN_IF_ERROR(check_decomposition(variable, d));
  const VariableRecord& v = variables_[static_cast<size_t>(variable)];
  // Opened and checked, this rank's part prepared, then one agreement
  // (with the engine's values); the engine's end; the close.
  Result<Dataset> ds = open_section(segment, v, Agreement::kCaller);
  Status local = ds.status();
  if (local.ok() && d.global_size() != ds->elements()) {
    local = Status(Code::kInvalidArgument, "the decomposition's global size " + std::to_string(d.global_size()) +
                                               " is not the section's " + std::to_string(ds->elements()) + " words");
  }
  DatasetTarget target(ds.ok() ? &*ds : nullptr);
  std::unique_ptr<collective::Transfer> t;
  int64_t values[collective::Transfer::kAgreementValues] = {};
  if (local.ok()) {
    t = collective::Transfer::prepare(d, target, 0, device::IoKind::kRead, mem_type, buf,
                                      collective::Transfer::kBlocking, &local);
    t->agreement_values(values);
  }
  local = comm::agree_max(file_.comm(), local, values, collective::Transfer::kAgreementValues);
  if (local.ok()) {
    local = t->begin(values);  // agreed
    if (local.ok()) local = t->wait();  // agreed
  }
  t.reset();
  const Status closed = ds.ok() ? ds->close(Agreement::kCaller) : Status::Ok();
  if (local.ok()) local = comm::agree(file_.comm(), closed);
  return local;
}

Result<std::string> Pds::owner_path(InfoOwner owner, int64_t which) const {
  switch (owner) {
    case InfoOwner::kDataset: return std::string("/");
    case InfoOwner::kVariable:
      if (which < 0 || which > INT32_MAX) return Status(Code::kInvalidArgument, "variable " + std::to_string(which) + " is not registered");
      PARIO_RETURN_IF_ERROR(check_variable(static_cast<int>(which)));
      return variable_path(variables_[static_cast<size_t>(which)].name);
    case InfoOwner::kSegment:
      PARIO_RETURN_IF_ERROR(check_segment(which));
      return segment_path(which);
  }
  return Status(Code::kInvalidArgument, "owner kind " + std::to_string(static_cast<int>(owner)) +
                                            " is not a PARIO_INFO_*");
}

Result<File*> Pds::owner_file(InfoOwner owner, int64_t which) {
  return owner == InfoOwner::kSegment ? file_of(which) : Result<File*>(&file_);
}

Status Pds::put_info(InfoOwner owner, int64_t which, const std::string& name, const AttrValue& value) {
  Status local = check_writable();
  Result<std::string> at = owner_path(owner, which);
  if (local.ok()) local = at.status();
  if (local.ok()) local = check_name(name, "info name");
  PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), local));
  AttrValue v = value;
  PARIO_RETURN_IF_ERROR(broadcast_value(file_.comm(), &v));
  PARIO_ASSIGN_OR_RETURN(File * fp, owner == InfoOwner::kSegment ? file_to_write(which) : Result<File*>(&file_));
  File& f = *fp;
  Status s = f.set_attribute(*at, name, v);
  // The entry file is clean between calls, and so is a member after an
  // info of a segment that has ended: a new or replaced attribute can
  // free blocks of that segment's written-out group, which the next
  // allocation (raw data, written at once) may take (crash safety, in
  // pds.h).
  const bool ended_segment = owner == InfoOwner::kSegment && which + 1 < static_cast<int64_t>(segments_.size());
  if (&f == &file_ || ended_segment) {
    const Status synced = sync_file(f);
    if (s.ok()) s = synced;
  }
  s = comm::agree(file_.comm(), s);
  if (s.ok() && &f == &file_) entry_unsynced_ = false;
  return s;
}

Result<AttrValue> Pds::get_info(InfoOwner owner, int64_t which, const std::string& name) {
  Result<std::string> at = owner_path(owner, which);
  Status local = at.status();
  if (local.ok()) local = check_name(name, "info name");
  PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), local));
  PARIO_ASSIGN_OR_RETURN(File * fp, owner_file(owner, which));
  File& f = *fp;
  Result<AttrValue> v = f.attribute(*at, name);
  if (!v.ok() && v.status().code() == Code::kNotFound) {
    v = Status(Code::kNotFound, f.path() + ": " + *at + " has no info " + name);
  }
  PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), v.status()));
  return v;
}

Result<std::vector<std::string>> Pds::info_names(InfoOwner owner, int64_t which) {
  Result<std::string> at = owner_path(owner, which);
  PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), at.status()));
  PARIO_ASSIGN_OR_RETURN(File * f, owner_file(owner, which));
  Result<std::vector<std::string>> names = f->attribute_names(*at);
  PARIO_RETURN_IF_ERROR(comm::agree(file_.comm(), names.status()));
  std::vector<std::string> out;
  for (std::string& n : *names) {
    if (n.rfind(kReserved, 0) != 0) out.push_back(std::move(n));
  }
  return out;
}

}  // namespace pario::dataset
