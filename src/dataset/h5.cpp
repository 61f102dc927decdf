// Parallel HDF5 behind one file: every hid_t pario holds is created and
// closed here, and this is the only file under src/ that includes <hdf5.h>
// (tests/layering.cmake checks it).
//
// Identifiers. Each one lives in a Hid, which knows its H5*close function
// (none for HDF5's predefined types, which are not ours to close). An open
// file is a FileState (its identifier and pario's duplicate of the
// communicator) shared by the File and each of its Datasets, so the file
// identifier is closed after the last dataset, then the communicator.
// HDF5 itself refuses to close a file with open objects under the MPI-IO
// driver ("semi" close degree): File::close() says so with kState instead.
//
// Collective calls. Each starts with comm::agree_call (the same call and
// arguments on every rank, else kInvalidArgument everywhere, before HDF5
// sees anything), makes its HDF5 calls on every rank, and ends with
// comm::agree, so one rank's HDF5 failure is every rank's failure. The
// file access list asks for collective metadata reads (one rank reads,
// broadcasts) and collective metadata writes (one MPI-IO collective at
// flush), so dataset creation and opening never make N ranks read or
// write the same metadata blocks.
//
// Format: HDF5 1.8's (H5Pset_libver_bounds V18 both ways): groups keep
// their links in a B-tree v2 and fractal heap once they grow, so adding
// the n-th link to a group costs O(log n), not a rewrite of a list, and
// attributes larger than 64 KiB go to dense storage. Every HDF5 since 1.8
// reads it (h5py, h5dump).
//
// Lockstep calls (groups, links, attributes) make the same HDF5 calls on
// every rank and return the local status; the caller agrees once per
// step (see h5.h).
//
// Datasets are contiguous and allocated early (H5D_ALLOC_TIME_EARLY, fill
// never written): the space exists once create() returns, so a later
// independent H5Dwrite on one rank allocates nothing and touches no
// metadata, which is what lets collective I/O aggregators write alone.
//
// Errors. HDF5's automatic printing of its error stack is switched off once
// (the library never prints); a failed call walks the stack and keeps its
// outermost entry (what the API call was doing) and its innermost (the
// cause), with its minor code mapped to a pario code where one fits (a
// missing object: kNotFound; a name taken: kExists; not an HDF5 file:
// kCorrupt).
#include "dataset/h5.h"

#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "base/convert.h"
#include "device/device.h"

static_assert(sizeof(hsize_t) == 8, "hsize_t holds any int64_t extent");

namespace pario::dataset {

// One HDF5 identifier and the function that releases it (null: borrowed).
class Hid {
 public:
  using CloseFn = herr_t (*)(hid_t);
  Hid(hid_t id, CloseFn close) : id_(id), close_(close) {}
  ~Hid() { (void)release(); }
  Hid(const Hid&) = delete;
  Hid& operator=(const Hid&) = delete;

  hid_t get() const { return id_; }
  // Closes now; the H5*close's result (0 when there was nothing to close).
  herr_t release() {
    herr_t rc = 0;
    if (id_ >= 0 && close_ != nullptr) rc = close_(id_);
    id_ = H5I_INVALID_HID;
    return rc;
  }

 private:
  hid_t id_;
  CloseFn close_;
};

struct FileState {
  comm::Comm comm;           // pario's duplicate, for the agreements
  std::unique_ptr<Hid> id;   // declared after comm: closed before it is freed
  // Property lists made once per file and shared by its datasets (not
  // per dataset: a time series makes thousands): dataset creation
  // (contiguous, allocated early, never filled), link creation
  // (intermediate groups), independent and collective transfers.
  std::unique_ptr<Hid> dcpl, lcpl, independent, collective;
  // Link, group and dataset access: every path is walked with these, which
  // refuse to follow an external link (refuse_external_link).
  std::unique_ptr<Hid> lapl, gapl, dapl;
  // The end of the raw data of every dataset made here (allocated at
  // creation, written when the caller writes it: what a decomposition
  // leaves uncovered never is), and the file's size when the current
  // write-out began (-1: not extended). extend_past_allocated.
  int64_t raw_end = 0, size_before_write_out = -1;
  // Objects found damaged (object_error).
  std::set<std::string> damaged;
};

namespace {

std::unique_ptr<Hid> owned(hid_t id, Hid::CloseFn close) { return std::make_unique<Hid>(id, close); }
std::unique_ptr<Hid> borrowed(hid_t id) { return std::make_unique<Hid>(id, nullptr); }

// HDF5 prints its error stack on every failure unless told not to.
void silence() {
  static bool done = false;
  if (!done) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    done = true;
  }
}

struct ErrorWalk {
  std::vector<std::string> entries;
  Code code = Code::kIo;
};

herr_t collect(unsigned /*n*/, const H5E_error2_t* e, void* data) {
  auto* w = static_cast<ErrorWalk*>(data);
  std::string text = e->desc != nullptr && e->desc[0] != '\0' ? e->desc : "";
  if (text.empty() && e->func_name != nullptr) text = std::string(e->func_name) + "() failed";
  w->entries.push_back(std::move(text));
  if (e->min_num == H5E_NOTFOUND) w->code = Code::kNotFound;
  if (e->min_num == H5E_EXISTS || e->min_num == H5E_FILEEXISTS) w->code = Code::kExists;
  if (e->min_num == H5E_NOTHDF5 || e->min_num == H5E_TRUNCATED) w->code = Code::kCorrupt;
  // Metadata that fails its checksum or carries a wrong signature or
  // version: damage, not a failed read. HDF5 gives a checksum failure the
  // minor code of any read error, so its own words tell it apart (the
  // metadata cache's message, which names no file); signatures and
  // versions have codes of their own.
  const std::string& said = w->entries.back();
  if (e->min_num == H5E_VERSION || (e->min_num == H5E_READERROR && said.rfind("incorrect metadata checksum", 0) == 0) ||
      (e->min_num == H5E_BADVALUE && said.find("signature") != std::string::npos &&
       said.find('\'') == std::string::npos)) {
    w->code = Code::kCorrupt;
  }
  return 0;
}

// The status of the HDF5 call that just failed: "<call>: <what>: <outermost
// entry>: <innermost entry>", and the stack cleared.
Status h5_error(const char* call, const std::string& what) {
  ErrorWalk w;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collect, &w);
  H5Eclear2(H5E_DEFAULT);
  std::string cause;
  if (w.entries.empty()) {
    cause = "failed (HDF5 gave no reason)";
  } else {
    cause = w.entries.front();
    if (w.entries.size() > 1 && w.entries.back() != cause) cause += ": " + w.entries.back();
  }
  return Status(w.code, std::string(call) + ": " + what + ": " + cause);
}

// The status of a failed open of `object`. HDF5 says a header fails its
// checksum only the first time it tries to load it; a later open of the
// same object fails with another message ("unable to determine object
// type", an I/O error). So an object found damaged stays damaged for
// this file handle.
Status object_error(FileState& st, const char* call, const std::string& object, const std::string& what) {
  Status s = h5_error(call, what);
  if (s.code() == Code::kCorrupt) {
    st.damaged.insert(object);
  } else if (st.damaged.count(object) != 0) {
    s = Status(Code::kCorrupt, s.message() + " (its header failed its checksum before)");
  }
  return s;
}

// The HDF5 type of an element type: little-endian standard types in the
// file (as h5py writes on every machine pario runs on), native ones in
// memory; complex as the compound {r, i}.
std::unique_ptr<Hid> hdf5_type(ElementType t, bool native) {
  switch (t) {
    case ElementType::kDouble: return borrowed(native ? H5T_NATIVE_DOUBLE : H5T_IEEE_F64LE);
    case ElementType::kFloat: return borrowed(native ? H5T_NATIVE_FLOAT : H5T_IEEE_F32LE);
    case ElementType::kInt8: return borrowed(native ? H5T_NATIVE_INT8 : H5T_STD_I8LE);
    case ElementType::kUInt8: return borrowed(native ? H5T_NATIVE_UINT8 : H5T_STD_U8LE);
    case ElementType::kInt16: return borrowed(native ? H5T_NATIVE_INT16 : H5T_STD_I16LE);
    case ElementType::kUInt16: return borrowed(native ? H5T_NATIVE_UINT16 : H5T_STD_U16LE);
    case ElementType::kInt32: return borrowed(native ? H5T_NATIVE_INT32 : H5T_STD_I32LE);
    case ElementType::kUInt32: return borrowed(native ? H5T_NATIVE_UINT32 : H5T_STD_U32LE);
    case ElementType::kInt64: return borrowed(native ? H5T_NATIVE_INT64 : H5T_STD_I64LE);
    case ElementType::kUInt64: return borrowed(native ? H5T_NATIVE_UINT64 : H5T_STD_U64LE);
    case ElementType::kComplexDouble:
    case ElementType::kComplexFloat: {
      const bool dbl = t == ElementType::kComplexDouble;
      const hid_t part = dbl ? (native ? H5T_NATIVE_DOUBLE : H5T_IEEE_F64LE) : (native ? H5T_NATIVE_FLOAT : H5T_IEEE_F32LE);
      const size_t half = dbl ? 8 : 4;
      auto c = owned(H5Tcreate(H5T_COMPOUND, 2 * half), H5Tclose);
      if (c->get() < 0 || H5Tinsert(c->get(), "r", 0, part) < 0 || H5Tinsert(c->get(), "i", half, part) < 0) {
        return nullptr;
      }
      return c;
    }
  }
  return nullptr;
}

std::string member_name(hid_t type, unsigned i) {
  char* name = H5Tget_member_name(type, i);
  if (name == nullptr) return {};
  std::string s(name);
  H5free_memory(name);
  return s;
}

// The element type of a dataset's file type (either byte order: HDF5
// converts), or kUnsupported saying what the type is.
Result<ElementType> element_type_of(hid_t type, const std::string& what) {
  const H5T_class_t cls = H5Tget_class(type);
  const size_t size = H5Tget_size(type);
  if (cls == H5T_INTEGER) {
    const bool is_signed = H5Tget_sign(type) == H5T_SGN_2;
    switch (size) {
      case 1: return is_signed ? ElementType::kInt8 : ElementType::kUInt8;
      case 2: return is_signed ? ElementType::kInt16 : ElementType::kUInt16;
      case 4: return is_signed ? ElementType::kInt32 : ElementType::kUInt32;
      case 8: return is_signed ? ElementType::kInt64 : ElementType::kUInt64;
      default: break;
    }
  } else if (cls == H5T_FLOAT && (size == 4 || size == 8)) {
    return size == 8 ? ElementType::kDouble : ElementType::kFloat;
  } else if (cls == H5T_COMPOUND && H5Tget_nmembers(type) == 2 && (size == 8 || size == 16)) {
    const size_t half = size / 2;
    bool good = member_name(type, 0) == "r" && member_name(type, 1) == "i" && H5Tget_member_offset(type, 0) == 0 &&
                H5Tget_member_offset(type, 1) == half;
    for (unsigned i = 0; good && i < 2; ++i) {
      const hid_t m = H5Tget_member_type(type, i);
      good = m >= 0 && H5Tget_class(m) == H5T_FLOAT && H5Tget_size(m) == half;
      if (m >= 0) H5Tclose(m);
    }
    if (good) return size == 16 ? ElementType::kComplexDouble : ElementType::kComplexFloat;
  }
  H5Eclear2(H5E_DEFAULT);
  static const char* const kClass[] = {"integer", "float", "time", "string", "bitfield", "opaque",
                                       "compound", "reference", "enum", "variable-length", "array"};
  const char* name = cls >= 0 && cls < static_cast<int>(sizeof kClass / sizeof *kClass) ? kClass[cls] : "unknown";
  return Status(Code::kUnsupported, what + ": an HDF5 " + name + " type of " + std::to_string(size) +
                                        " bytes, which is none of pario's element types");
}

// The file access list of every pario file: the MPI-IO driver over comm,
// collective metadata reads and writes, HDF5 1.8's format (see the top);
// null when HDF5 refused one of them.
std::unique_ptr<Hid> access_list(MPI_Comm comm) {
  auto fapl = owned(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (fapl->get() < 0 || H5Pset_fapl_mpio(fapl->get(), comm, MPI_INFO_NULL) < 0 ||
      H5Pset_all_coll_metadata_ops(fapl->get(), true) < 0 || H5Pset_coll_metadata_write(fapl->get(), true) < 0 ||
      H5Pset_libver_bounds(fapl->get(), H5F_LIBVER_V18, H5F_LIBVER_V18) < 0) {
    return nullptr;
  }
  return fapl;
}

// An external link is never followed: pario never writes one, and HDF5
// would open its target with this file's MPI-IO access list and intent.
// A crafted file could so block every rank in open(2) on a FIFO, or have
// a read-write dataset write into another file.
herr_t refuse_external_link(const char*, const char*, const char*, const char*, unsigned*, hid_t, void*) {
  return -1;
}

// An access list of class cls that refuses external links; null if HDF5
// refused it.
std::unique_ptr<Hid> no_external_links(hid_t cls) {
  auto list = owned(H5Pcreate(cls), H5Pclose);
  if (list->get() < 0 || H5Pset_elink_cb(list->get(), refuse_external_link, nullptr) < 0) return nullptr;
  return list;
}

// The property lists a file's datasets share (FileState); false when HDF5
// refused one.
bool make_lists(FileState* st) {
  st->lapl = no_external_links(H5P_LINK_ACCESS);
  st->gapl = no_external_links(H5P_GROUP_ACCESS);
  st->dapl = no_external_links(H5P_DATASET_ACCESS);
  if (!st->lapl || !st->gapl || !st->dapl) return false;
  st->dcpl = owned(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  st->lcpl = owned(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  st->independent = owned(H5Pcreate(H5P_DATASET_XFER), H5Pclose);
  st->collective = owned(H5Pcreate(H5P_DATASET_XFER), H5Pclose);
  return st->dcpl->get() >= 0 && st->lcpl->get() >= 0 && st->independent->get() >= 0 &&
         st->collective->get() >= 0 && H5Pset_layout(st->dcpl->get(), H5D_CONTIGUOUS) >= 0 &&
         H5Pset_alloc_time(st->dcpl->get(), H5D_ALLOC_TIME_EARLY) >= 0 &&
         H5Pset_fill_time(st->dcpl->get(), H5D_FILL_TIME_NEVER) >= 0 &&
         H5Pset_create_intermediate_group(st->lcpl->get(), 1) >= 0 &&
         H5Pset_dxpl_mpio(st->independent->get(), H5FD_MPIO_INDEPENDENT) >= 0 &&
         H5Pset_dxpl_mpio(st->collective->get(), H5FD_MPIO_COLLECTIVE) >= 0;
}

// Files are made the POSIX way before HDF5 sees them, as every pario file
// is (device/device.h): created 0600 and never through a symbolic link.
// HDF5's MPI-IO driver would create a file with the umask's mode (0644
// for most users) and follow a link, so a link planted in a shared
// directory could have pario truncate its target.
//
// What every rank checks alike before rank 0 makes anything, so that
// every rank reports the same error: no link at path, a file there to
// open, none there to create exclusively.
Status check_path(const std::string& path, FileMode mode) {
  const bool create = mode == FileMode::kCreateTruncate || mode == FileMode::kCreateExclusive;
  const std::string call = create ? "H5Fcreate: " : "H5Fopen: ";
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT && create) return Status::Ok();
    return errno_status(errno, call + path);
  }
  if (S_ISLNK(st.st_mode)) {
    return Status(Code::kPermission, call + path + ": a symbolic link (pario makes and opens files, never links)",
                  ELOOP);
  }
  if (mode == FileMode::kCreateExclusive) return Status(Code::kExists, call + path + ": the file exists", EEXIST);
  if (!S_ISREG(st.st_mode)) return Status(Code::kInvalidArgument, call + path + ": not a regular file");
  return Status::Ok();
}

// Rank 0, after the checks: makes the file (0600, exclusive, no link
// followed) or opens the one there the same way; *made: it made it.
Status make_path(const std::string& path, FileMode mode, bool* made) {
  device::OpenOptions o;
  o.read = o.write = o.create = true;
  o.exclusive = true;
  Result<std::unique_ptr<device::Device>> d = device::open_posix(path, o);
  if (!d.ok() && d.status().sys_errno() == EEXIST && mode == FileMode::kCreateTruncate) {
    o.exclusive = false;  // there already: replaced by H5Fcreate, its mode kept
    d = device::open_posix(path, o);
  } else if (d.ok()) {
    *made = true;
  }
  if (!d.ok()) return Status(d.status().code(), "H5Fcreate: " + d.status().message(), d.status().sys_errno());
  return (*d)->close();
}

}  // namespace

// ---------------------------------------------------------------- File

File::File() = default;
File::~File() = default;
File::File(File&&) noexcept = default;
File& File::operator=(File&&) noexcept = default;

Result<File> File::open(const comm::Comm& comm, const std::string& path, FileMode mode) {
  silence();
  PARIO_ASSIGN_OR_RETURN(comm::Comm dup, comm::Comm::duplicate(comm.get()));
  comm::CallDigest digest("dataset::File::open");
  digest.add("path", path.c_str()).add("mode", static_cast<int64_t>(mode));
  Status local;
  if (path.empty()) {
    local = Status(Code::kInvalidArgument, "dataset::File::open: an empty file name");
  } else {
    local = check_path(path, mode);
  }
  PARIO_RETURN_IF_ERROR(comm::agree_call(dup, local, digest));

  const bool create = mode == FileMode::kCreateTruncate || mode == FileMode::kCreateExclusive;
  bool made = false;  // rank 0 made the file (removed again if HDF5 fails)
  if (create) {
    if (dup.rank() == 0) local = make_path(path, mode, &made);
    PARIO_RETURN_IF_ERROR(comm::agree(dup, local));
  }
  std::unique_ptr<Hid> fapl = access_list(dup.get());
  hid_t id = H5I_INVALID_HID;
  if (!fapl) {
    local = h5_error("H5Pset_fapl_mpio", path);
  } else {
    // Rank 0 made the file or checked the one there (make_path): HDF5
    // truncates it.
    if (create) id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl->get());
    else id = H5Fopen(path.c_str(), mode == FileMode::kReadOnly ? H5F_ACC_RDONLY : H5F_ACC_RDWR, fapl->get());
    if (id < 0) local = h5_error(create ? "H5Fcreate" : "H5Fopen", path);
  }
  auto file_id = owned(id, H5Fclose);
  auto state = std::make_shared<FileState>();
  if (local.ok() && !make_lists(state.get())) local = h5_error("H5Pcreate", path);
  const Status s = comm::agree(dup, local);
  if (!s.ok()) {
    file_id->release();  // a rank that opened it closes it (collectively with the others that did)
    if (made) ::unlink(path.c_str());
    return s;
  }

  File f;
  f.path_ = path;
  f.writable_ = mode != FileMode::kReadOnly;
  f.state_ = std::move(state);
  f.state_->comm = std::move(dup);
  f.state_->id = std::move(file_id);
  return f;
}

namespace {

// Room kept past the file's end before a write-out beyond the metadata
// HDF5 holds in its cache: what it allocated and freed unwritten, and its
// two aggregators' blocks (2 KiB each by default).
constexpr int64_t kWriteOutSlack = int64_t{1} << 20;

// Before a write-out (H5Fflush, H5Fclose): the file made longer than the
// space HDF5 can have allocated. HDF5 writes the superblock, which records
// the allocated end, and sets the file's size only after it (its truncate
// follows the cache flush); and its metadata goes out in one collective
// write, each rank writing its share. A kill in between (the superblock
// in the file, another rank's entries at the top not) leaves a file
// shorter than its recorded end, which HDF5 refuses ("truncated file")
// and which cannot be told from a file cut short by other means. HDF5
// 1.10 has no public way to read the allocated end under the MPI-IO
// driver (H5Fget_eoa wants a SWMR driver; H5Fget_filesize fails once it
// has written), but what can lie past the file's end unwritten is the
// raw data of datasets made here that no write reached (allocated early,
// never filled: raw_end) and metadata allocated since the last
// write-out, at most the cache's contents and the slack; the size set
// here keeps that room past both, and trim_to_recorded takes it back
// after the write-out. Only ever extends: the size must stay at least the end
// the last write-out recorded. Rank 0 reads the size, as HDF5's truncate
// does; one allreduce gives every rank the same decision for the
// collective MPI_File_set_size. Collective; a failure is this rank's (the
// caller agrees), and the write-out goes on without it.
Status extend_past_allocated(FileState& st, const std::string& path) {
  st.size_before_write_out = -1;
  size_t max_size = 0, min_clean = 0, cached = 0;
  int entries = 0;
  void* handle = nullptr;
  Status local;
  if (H5Fget_mdc_size(st.id->get(), &max_size, &min_clean, &cached, &entries) < 0) {
    local = h5_error("H5Fget_mdc_size", path);
  } else if (H5Fget_vfd_handle(st.id->get(), H5P_DEFAULT, &handle) < 0 || handle == nullptr) {
    local = h5_error("H5Fget_vfd_handle", path);
  }
  MPI_File fh = handle ? *static_cast<MPI_File*>(handle) : MPI_FILE_NULL;
  MPI_Offset size = -1;
  if (local.ok() && st.comm.rank() == 0) {
    const int rc = MPI_File_get_size(fh, &size);
    if (rc != MPI_SUCCESS) local = comm::mpi_status(rc, "MPI_File_get_size");
  }
  // {any rank failed, the most any rank caches, rank 0's size}: the maximum of each.
  int64_t facts[3] = {local.ok() ? 0 : 1, local.ok() ? static_cast<int64_t>(std::min<size_t>(cached, INT32_MAX)) : 0,
                      st.comm.rank() == 0 ? static_cast<int64_t>(size) : -1};
  const int rc = MPI_Allreduce(MPI_IN_PLACE, facts, 3, MPI_INT64_T, MPI_MAX, st.comm.get());
  if (rc != MPI_SUCCESS) return comm::mpi_status(rc, "MPI_Allreduce");
  if (facts[0] != 0 || facts[2] < 0) return local;
  const int64_t end = std::max(facts[2], st.raw_end);  // raw_end: the same on every rank
  if (end > INT64_MAX - facts[1] - kWriteOutSlack) return local;  // no room to keep: as before
  const int set = MPI_File_set_size(fh, static_cast<MPI_Offset>(end + facts[1] + kWriteOutSlack));
  if (set != MPI_SUCCESS) return comm::mpi_status(set, "MPI_File_set_size");
  st.size_before_write_out = facts[2];
  return local;
}

// The end of file a superblock of version 2 or 3 (the 1.8 format's)
// records, from its first bytes: signature, version, sizes of offsets
// and lengths, flags, then base, extension and end-of-file addresses
// (8 bytes each in pario's files), root address, checksum. Read by hand:
// HDF5 1.10 has no public call for it under the MPI-IO driver. -1 when
// the bytes are no such superblock (and then nothing is cut).
constexpr size_t kSuperblockBytes = 48;

int64_t recorded_end(const unsigned char (&b)[kSuperblockBytes]) {
  static const unsigned char kSignature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  auto le64 = [&b](size_t at) {
    uint64_t v = 0;
    for (size_t i = 8; i-- > 0;) v = (v << 8) | b[at + i];
    return v;
  };
  if (std::memcmp(b, kSignature, sizeof kSignature) != 0 || (b[8] != 2 && b[8] != 3) || b[9] != 8) return -1;
  if (le64(12) != 0) return -1;  // a base address (a user block): never in pario's files
  const uint64_t end = le64(28);
  return end > 0 && end <= static_cast<uint64_t>(INT64_MAX) ? static_cast<int64_t>(end) : -1;
}

// What a trim may cut the file to: the end its superblock records, and
// never below the size the file had before the write-out began (whatever
// was written before it stays, also after a write-out that failed before
// its superblock). -1: nothing to cut.
int64_t trim_target(int64_t recorded, int64_t size_before, int64_t size) {
  if (recorded <= 0 || size_before < 0) return -1;
  const int64_t to = std::max(recorded, size_before);
  return to < size ? to : -1;
}

// After a write-out (H5Fflush) that succeeded on every rank (`flushed`,
// this rank's): the room extend_past_allocated left taken back, the file
// cut to the end its superblock now records, as HDF5's truncate does
// when its allocated end moved (when it did not, HDF5 cuts nothing and
// the room would stay). After a failure nothing is cut: HDF5 keeps what
// it wrote as written and will name it in the next superblock. Rank 0
// reads (the flush's MPI_File_sync makes every rank's writes visible);
// one allreduce gives every rank the same decision for the collective
// MPI_File_set_size. Collective; a failure is this rank's.
Status trim_to_recorded(const FileState& st, const std::string& path, bool flushed) {
  void* handle = nullptr;
  Status local;
  if (H5Fget_vfd_handle(st.id->get(), H5P_DEFAULT, &handle) < 0 || handle == nullptr) {
    local = h5_error("H5Fget_vfd_handle", path);
  }
  MPI_File fh = handle ? *static_cast<MPI_File*>(handle) : MPI_FILE_NULL;
  int64_t cut_to = -1;
  if (local.ok() && st.comm.rank() == 0) {
    unsigned char b[kSuperblockBytes];
    MPI_Status got;
    int count = 0;
    MPI_Offset size = -1;
    const char* call = "MPI_File_read_at";
    int rc = MPI_File_read_at(fh, 0, b, sizeof b, MPI_BYTE, &got);
    if (rc == MPI_SUCCESS) rc = MPI_Get_count(&got, MPI_BYTE, &count);
    if (rc == MPI_SUCCESS) {
      call = "MPI_File_get_size";
      rc = MPI_File_get_size(fh, &size);
    }
    if (rc != MPI_SUCCESS) {
      local = comm::mpi_status(rc, call);
    } else if (count == static_cast<int>(sizeof b)) {
      cut_to = trim_target(recorded_end(b), st.size_before_write_out, size);
    }
  }
  // {any rank failed (its flush or here), rank 0's cut}: the maximum of each.
  int64_t facts[2] = {local.ok() && flushed ? 0 : 1, cut_to};
  const int rc = MPI_Allreduce(MPI_IN_PLACE, facts, 2, MPI_INT64_T, MPI_MAX, st.comm.get());
  if (rc != MPI_SUCCESS) return comm::mpi_status(rc, "MPI_Allreduce");
  if (facts[0] != 0 || facts[1] < 0) return local;
  const int set = MPI_File_set_size(fh, static_cast<MPI_Offset>(facts[1]));
  return set == MPI_SUCCESS ? local : comm::mpi_status(set, "MPI_File_set_size");
}

// The same, rank 0 alone once every rank's H5Fclose has returned (it
// cuts only as H5Fflush does; the caller agrees first, so that what
// every rank wrote is there to read), through a descriptor of its own.
// The file is closed: its superblock is all a reader will go by.
Status trim_closed_to_recorded(const std::string& path, int64_t size_before) {
  device::OpenOptions o;
  o.read = o.write = true;
  Result<std::unique_ptr<device::Device>> d = device::open_posix(path, o);
  if (!d.ok()) return d.status();
  unsigned char b[kSuperblockBytes];
  size_t got = 0;
  Status s = (*d)->read_at(0, b, sizeof b, &got);
  Result<uint64_t> size = s.ok() ? (*d)->size() : Result<uint64_t>(s);
  if (!size.ok()) s = size.status();
  const int64_t to = s.ok() && got == sizeof b && *size <= static_cast<uint64_t>(INT64_MAX)
                         ? trim_target(recorded_end(b), size_before, static_cast<int64_t>(*size))
                         : -1;
  if (to > 0) s = (*d)->truncate(static_cast<uint64_t>(to));
  const Status closed = (*d)->close();
  return s.ok() ? closed : s;
}

}  // namespace

Status File::close(const Status& carried) {
  if (!state_) return carried;
  Status local;
  if (state_.use_count() > 1) {
    local = Status(Code::kState, "dataset::File::close: " + path_ + ": " + std::to_string(state_.use_count() - 1) +
                                     " dataset(s) still open: close them first");
  }
  PARIO_RETURN_IF_ERROR(comm::agree(state_->comm, local));
  const Status extended = writable_ ? extend_past_allocated(*state_, path_) : Status::Ok();
  if (state_->id->release() < 0) local = h5_error("H5Fclose", path_);
  if (writable_) {
    // Every rank closed first (one agreement more), then rank 0 trims.
    local = comm::agree(state_->comm, local);
    if (local.ok() && state_->comm.rank() == 0) local = trim_closed_to_recorded(path_, state_->size_before_write_out);
  }
  if (local.ok()) local = extended;
  if (local.ok()) local = carried;
  Status s = comm::agree(state_->comm, local);
  const Status freed = state_->comm.free();
  state_.reset();
  if (s.ok() && !freed.ok()) s = freed;
  return s;
}

const comm::Comm& File::comm() const { return state_->comm; }

namespace {

Status closed_file(const char* call, const std::string& what) {
  return Status(Code::kState, std::string(call) + ": " + what + ": the file is closed");
}

// An open object (group or dataset) by path.
std::unique_ptr<Hid> open_object(const FileState& st, const std::string& path) {
  return owned(H5Oopen(st.id->get(), path.c_str(), st.lapl->get()), H5Oclose);
}

// A group's link names; the first that is not a hard link (a soft or
// external one, which pario never writes) stops the walk.
struct LinkNames {
  std::vector<std::string> names;
  std::string not_hard;
};

herr_t collect_name(hid_t, const char* name, const H5L_info_t* info, void* data) {
  auto* out = static_cast<LinkNames*>(data);
  if (info->type != H5L_TYPE_HARD) {
    out->not_hard = name;
    return 1;
  }
  out->names.emplace_back(name);
  return 0;
}

herr_t collect_attr_name(hid_t, const char* name, const H5A_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}

std::unique_ptr<Hid> string_type() {
  auto t = owned(H5Tcopy(H5T_C_S1), H5Tclose);
  if (t->get() < 0 || H5Tset_size(t->get(), H5T_VARIABLE) < 0 || H5Tset_cset(t->get(), H5T_CSET_UTF8) < 0) {
    return nullptr;
  }
  return t;
}

}  // namespace

AttrValue AttrValue::string(std::string s) {
  AttrValue v;
  v.is_string = true;
  v.scalar = true;
  v.text = std::move(s);
  return v;
}

AttrValue AttrValue::array(ElementType type, const void* values, int64_t count) {
  AttrValue v;
  v.type = type;
  v.count = count;
  const auto* p = static_cast<const unsigned char*>(values);
  v.bytes.assign(p, p + static_cast<size_t>(count) * element_size(type));
  return v;
}

AttrValue AttrValue::int64(int64_t x) {
  AttrValue v = array(ElementType::kInt64, &x, 1);
  v.scalar = true;
  return v;
}

AttrValue AttrValue::float64(double x) {
  AttrValue v = array(ElementType::kDouble, &x, 1);
  v.scalar = true;
  return v;
}

Result<int64_t> AttrValue::as_int64(const std::string& what) const {
  if (is_string || count != 1 || type == ElementType::kComplexDouble || type == ElementType::kComplexFloat ||
      type == ElementType::kDouble || type == ElementType::kFloat) {
    return Status(Code::kCorrupt, what + ": not one integer");
  }
  int64_t out = 0;
  PARIO_RETURN_IF_ERROR(convert(type, bytes.data(), ElementType::kInt64, &out, 1));
  return out;
}

Result<double> AttrValue::as_double(const std::string& what) const {
  if (is_string || count != 1 || type == ElementType::kComplexDouble || type == ElementType::kComplexFloat) {
    return Status(Code::kCorrupt, what + ": not one real number");
  }
  double out = 0;
  PARIO_RETURN_IF_ERROR(convert(type, bytes.data(), ElementType::kDouble, &out, 1));
  return out;
}

Result<bool> File::exists(const std::string& path) {
  if (!state_) return closed_file("H5Lexists", path);
  // H5Lexists fails (rather than says no) when a parent is missing: walk.
  size_t at = path[0] == '/' ? 1 : 0;
  while (true) {
    const size_t slash = path.find('/', at);
    const std::string prefix = path.substr(0, slash);
    const htri_t rc = H5Lexists(state_->id->get(), prefix.c_str(), state_->lapl->get());
    if (rc < 0) return h5_error("H5Lexists", path_ + ":" + prefix);
    if (rc == 0) return false;
    if (slash == std::string::npos) return true;
    at = slash + 1;
  }
}

Status File::remove(const std::string& path) {
  if (!state_) return closed_file("H5Ldelete", path);
  if (H5Ldelete(state_->id->get(), path.c_str(), state_->lapl->get()) < 0) {
    return h5_error("H5Ldelete", path_ + ":" + path);
  }
  return Status::Ok();
}

Status File::move(const std::string& from, const std::string& to) {
  if (!state_) return closed_file("H5Lmove", from);
  const hid_t id = state_->id->get();
  if (H5Lmove(id, from.c_str(), id, to.c_str(), H5P_DEFAULT, state_->lapl->get()) < 0) {
    return h5_error("H5Lmove", path_ + ":" + from + " to " + to);
  }
  return Status::Ok();
}

Status File::link(const std::string& existing, const std::string& path) {
  if (!state_) return closed_file("H5Lcreate_hard", path);
  const hid_t id = state_->id->get();
  if (H5Lcreate_hard(id, existing.c_str(), id, path.c_str(), H5P_DEFAULT, state_->lapl->get()) < 0) {
    return h5_error("H5Lcreate_hard", path_ + ":" + path + " to " + existing);
  }
  return Status::Ok();
}

Result<std::vector<std::string>> File::links(const std::string& group) {
  if (!state_) return closed_file("H5Literate", group);
  auto g = owned(H5Gopen2(state_->id->get(), group.c_str(), state_->gapl->get()), H5Gclose);
  if (g->get() < 0) return object_error(*state_, "H5Gopen2", group, path_ + ":" + group);
  LinkNames found;
  hsize_t at = 0;
  if (H5Literate(g->get(), H5_INDEX_NAME, H5_ITER_INC, &at, collect_name, &found) < 0) {
    return h5_error("H5Literate", path_ + ":" + group);
  }
  if (!found.not_hard.empty()) {
    return Status(Code::kCorrupt, path_ + ":" + group + "/" + found.not_hard +
                                      ": a soft or external link, which pario never writes (not followed)");
  }
  return std::move(found.names);
}

namespace {

// Sets attribute `name` of the open object obj. replace: one of that name
// is deleted first (H5Aexists); else the object is known to have none (a
// dataset or group this process just made), which saves the lookup.
Status write_attribute(hid_t obj, const std::string& what, const std::string& name, const AttrValue& value,
                       bool replace) {
  // A value replaced is made under a spare name first and then swapped in
  // (H5Adelete, H5Arename): a create that fails leaves the old value (it
  // was once deleted first). Once made it is swapped in whatever H5Awrite
  // said, so the ranks keep making the same metadata calls (parallel HDF5
  // needs them alike) when a write fails on one rank alone. The spare name
  // has pario's reserved prefix, so a leftover is never listed as an
  // info; the next replace removes it.
  std::string target = name;
  if (replace) {
    const htri_t there = H5Aexists(obj, name.c_str());
    if (there < 0) return h5_error("H5Aexists", what);
    if (there > 0) {
      target = "pario_replacing_" + name;
      const htri_t spare = H5Aexists(obj, target.c_str());
      if (spare < 0) return h5_error("H5Aexists", what);
      if (spare > 0 && H5Adelete(obj, target.c_str()) < 0) return h5_error("H5Adelete", what);
    }
  }
  std::unique_ptr<Hid> file_type, mem_type, space;
  if (value.is_string) {
    file_type = string_type();
    if (file_type == nullptr) return h5_error("H5Tset_size", what);
    space = owned(H5Screate(H5S_SCALAR), H5Sclose);
  } else {
    if (!valid_element_type(static_cast<int>(value.type)) ||
        value.bytes.size() != static_cast<size_t>(value.count) * element_size(value.type) ||
        (value.scalar && value.count != 1)) {
      return Status(Code::kInternal, "dataset::File::set_attribute: " + what + ": a malformed value");
    }
    file_type = hdf5_type(value.type, /*native=*/false);
    mem_type = hdf5_type(value.type, /*native=*/true);
    if (file_type == nullptr || mem_type == nullptr) return h5_error("H5Tcreate", what);
    const hsize_t n[1] = {static_cast<hsize_t>(value.count)};
    space = owned(value.scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, n, nullptr), H5Sclose);
  }
  if (space->get() < 0) return h5_error("H5Screate", what);
  auto attr = owned(H5Acreate2(obj, target.c_str(), file_type->get(), space->get(), H5P_DEFAULT, H5P_DEFAULT),
                    H5Aclose);
  if (attr->get() < 0) return h5_error("H5Acreate2", what);
  herr_t rc;
  if (value.is_string) {
    const char* p = value.text.c_str();
    rc = H5Awrite(attr->get(), file_type->get(), &p);
  } else {
    // An empty array has nothing to write (and no buffer to point at).
    rc = value.count == 0 ? 0 : H5Awrite(attr->get(), mem_type->get(), value.bytes.data());
  }
  const Status written = rc < 0 ? h5_error("H5Awrite", what) : Status::Ok();
  if (target != name) {
    attr.reset();
    if (H5Adelete(obj, name.c_str()) < 0) return h5_error("H5Adelete", what);
    if (H5Arename(obj, target.c_str(), name.c_str()) < 0) return h5_error("H5Arename", what);
  }
  return written;
}

// Attribute `name` of the open object obj, checked (File::attribute).
Result<AttrValue> read_attribute(hid_t obj, const std::string& what, const std::string& name) {
  const htri_t there = H5Aexists(obj, name.c_str());
  if (there < 0) return h5_error("H5Aexists", what);
  if (there == 0) return Status(Code::kNotFound, "H5Aopen: " + what + ": no such attribute");
  auto attr = owned(H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose);
  if (attr->get() < 0) return h5_error("H5Aopen", what);
  auto type = owned(H5Aget_type(attr->get()), H5Tclose);
  auto space = owned(H5Aget_space(attr->get()), H5Sclose);
  if (type->get() < 0 || space->get() < 0) return h5_error("H5Aget_type", what);
  const H5S_class_t sclass = H5Sget_simple_extent_type(space->get());
  const hssize_t points = sclass == H5S_NULL ? 0 : H5Sget_simple_extent_npoints(space->get());
  if (points < 0) return h5_error("H5Sget_simple_extent_npoints", what);
  AttrValue v;
  v.scalar = sclass == H5S_SCALAR;
  if (H5Tget_class(type->get()) == H5T_STRING) {
    v.is_string = true;
    if (points != 1) {
      return Status(Code::kUnsupported, "dataset::File::attribute: " + what + ": an array of " +
                                            std::to_string(points) + " strings (pario reads one)");
    }
    const htri_t variable = H5Tis_variable_str(type->get());
    if (variable < 0) return h5_error("H5Tis_variable_str", what);
    auto mem = owned(H5Tcopy(type->get()), H5Tclose);
    if (mem->get() < 0) return h5_error("H5Tcopy", what);
    if (variable > 0) {
      char* p = nullptr;
      if (H5Aread(attr->get(), mem->get(), &p) < 0) return h5_error("H5Aread", what);
      v.text = p != nullptr ? p : "";
      if (p != nullptr) H5free_memory(p);
    } else {
      const size_t size = H5Tget_size(type->get());
      if (size == 0 || size > static_cast<size_t>(kMaxAttributeBytes)) {
        return Status(Code::kCorrupt, "dataset::File::attribute: " + what + ": a string of " +
                                          std::to_string(size) + " bytes");
      }
      std::vector<char> buf(size + 1, '\0');
      if (H5Aread(attr->get(), mem->get(), buf.data()) < 0) return h5_error("H5Aread", what);
      v.text.assign(buf.data());  // up to the first NUL (null-terminated or -padded)
    }
    return v;
  }
  PARIO_ASSIGN_OR_RETURN(v.type, element_type_of(type->get(), "dataset::File::attribute: " + what));
  const uint64_t es = element_size(v.type);
  if (static_cast<uint64_t>(points) > static_cast<uint64_t>(kMaxAttributeBytes) / es) {
    return Status(Code::kCorrupt, "dataset::File::attribute: " + what + ": " + std::to_string(points) +
                                      " elements, more than pario reads from an attribute (" +
                                      std::to_string(kMaxAttributeBytes) + " bytes)");
  }
  v.count = points;
  v.bytes.resize(static_cast<size_t>(points) * es);
  auto mem_type = hdf5_type(v.type, /*native=*/true);
  if (mem_type == nullptr) return h5_error("H5Tcreate", what);
  if (points > 0 && H5Aread(attr->get(), mem_type->get(), v.bytes.data()) < 0) return h5_error("H5Aread", what);
  return v;
}

}  // namespace

Status File::set_attribute(const std::string& object, const std::string& name, const AttrValue& value) {
  if (!state_) return closed_file("H5Acreate2", object);
  const std::string what = path_ + ":" + object + " attribute " + name;
  auto obj = open_object(*state_, object);
  if (obj->get() < 0) return object_error(*state_, "H5Oopen", object, what);
  return write_attribute(obj->get(), what, name, value, /*replace=*/true);
}

Result<AttrValue> File::attribute(const std::string& object, const std::string& name) {
  if (!state_) return closed_file("H5Aopen", object);
  const std::string what = path_ + ":" + object + " attribute " + name;
  auto obj = open_object(*state_, object);
  if (obj->get() < 0) return object_error(*state_, "H5Oopen", object, what);
  return read_attribute(obj->get(), what, name);
}

Status File::create_group(const std::string& path, const std::vector<std::pair<std::string, AttrValue>>& attributes) {
  if (!state_) return closed_file("H5Gcreate2", path);
  auto g = owned(H5Gcreate2(state_->id->get(), path.c_str(), H5P_DEFAULT, H5P_DEFAULT, state_->gapl->get()),
                 H5Gclose);
  if (g->get() < 0) return h5_error("H5Gcreate2", path_ + ":" + path);
  // Every attribute is made whatever the one before said (lockstep: an
  // H5Awrite that failed on one rank alone must not leave that rank with
  // fewer metadata calls than the others); the first failure is returned.
  Status first;
  for (const auto& [name, value] : attributes) {
    const Status s =
        write_attribute(g->get(), path_ + ":" + path + " attribute " + name, name, value, /*replace=*/false);
    if (first.ok()) first = s;
  }
  return first;
}

Result<std::vector<std::string>> File::attribute_names(const std::string& object) {
  if (!state_) return closed_file("H5Aiterate2", object);
  auto obj = open_object(*state_, object);
  if (obj->get() < 0) return object_error(*state_, "H5Oopen", object, path_ + ":" + object);
  std::vector<std::string> names;
  hsize_t at = 0;
  if (H5Aiterate2(obj->get(), H5_INDEX_NAME, H5_ITER_INC, &at, collect_attr_name, &names) < 0) {
    return h5_error("H5Aiterate2", path_ + ":" + object);
  }
  return names;
}

Status File::flush() {
  if (!state_) return closed_file("H5Fflush", path_);
  if (!writable_) {
    if (H5Fflush(state_->id->get(), H5F_SCOPE_LOCAL) < 0) return h5_error("H5Fflush", path_);
    return Status::Ok();
  }
  const Status extended = extend_past_allocated(*state_, path_);
  // Lockstep whatever H5Fflush said on this rank: the trim is collective.
  const Status flushed = H5Fflush(state_->id->get(), H5F_SCOPE_LOCAL) < 0 ? h5_error("H5Fflush", path_) : extended;
  const Status trimmed = trim_to_recorded(*state_, path_, flushed.ok());
  return flushed.ok() ? trimmed : flushed;
}

// Close and reopen: HDF5 1.10's H5Fflush has no way to skip the MPI-IO
// driver's MPI_File_sync, while H5Fclose writes the metadata cache with
// the driver told the file is closing (no sync). The identifier changes;
// nothing outside this file holds it (no Dataset is open: checked).
Status File::write_back() {
  if (!state_) return closed_file("H5Fclose", path_);
  if (!writable_) return Status(Code::kState, "dataset::File::write_back: " + path_ + ": the file is read-only");
  if (state_.use_count() > 1) {
    return Status(Code::kState, "dataset::File::write_back: " + path_ + ": " +
                                    std::to_string(state_.use_count() - 1) + " dataset(s) still open");
  }
  // Agreed before the reopen: H5Fopen is collective (a communicator
  // duplicate, MPI_File_open), so a rank whose close failed must not
  // return while the others wait in it. The name is checked again as at
  // open (no link swapped in since).
  Status extended = extend_past_allocated(*state_, path_);
  PARIO_RETURN_IF_ERROR(comm::agree(state_->comm, state_->id->release() < 0
                                                      ? h5_error("H5Fclose", path_)
                                                      : check_path(path_, FileMode::kReadWrite)));
  if (state_->comm.rank() == 0) {
    const Status trimmed = trim_closed_to_recorded(path_, state_->size_before_write_out);
    if (extended.ok()) extended = trimmed;
  }
  std::unique_ptr<Hid> fapl = access_list(state_->comm.get());
  if (!fapl) return h5_error("H5Pset_fapl_mpio", path_);
  state_->id = owned(H5Fopen(path_.c_str(), H5F_ACC_RDWR, fapl->get()), H5Fclose);
  if (state_->id->get() < 0) return h5_error("H5Fopen", path_);
  return extended;
}

// ---------------------------------------------------------------- Dataset

Dataset::Dataset() = default;
Dataset::~Dataset() = default;
Dataset::Dataset(Dataset&&) noexcept = default;
Dataset& Dataset::operator=(Dataset&&) noexcept = default;

namespace {

// The memory type every dataset keeps once its identifier is open.
Status finish_open(ElementType type, const std::string& what, std::unique_ptr<Hid>* mem_type) {
  *mem_type = hdf5_type(type, /*native=*/true);
  if (*mem_type == nullptr || (*mem_type)->get() < 0) return h5_error("H5Tcreate", what);
  return Status::Ok();
}

}  // namespace

Result<Dataset> Dataset::create(File& file, const std::string& name, ElementType type, int ndim, const Shape& dims,
                                Agreement agreement) {
  silence();
  if (!file.state_) return Status(Code::kState, "dataset::Dataset::create: " + name + ": the file is closed");
  const std::string what = file.path_ + ":" + name;
  comm::CallDigest digest("dataset::Dataset::create");
  digest.add("name", name.c_str()).add("type", static_cast<int64_t>(type)).add("ndim", ndim);
  digest.add("dims", dims.data(), static_cast<size_t>(std::clamp(ndim, 0, kMaxDims)));
  Status local;
  int64_t elements = 1;
  if (name.empty()) {
    local = Status(Code::kInvalidArgument, "dataset::Dataset::create: an empty dataset name");
  } else if (!file.writable_) {
    local = Status(Code::kState, "dataset::Dataset::create: " + what + ": the file is open read-only");
  } else if (!valid_element_type(static_cast<int>(type))) {
    local = Status(Code::kInvalidArgument, "dataset::Dataset::create: " + what + ": element type " +
                                               std::to_string(static_cast<int>(type)) + " is none of pario's");
  } else if (ndim < 1 || ndim > kMaxDims) {
    local = Status(Code::kInvalidArgument, "dataset::Dataset::create: " + what + ": " + std::to_string(ndim) +
                                               " dims (1 to " + std::to_string(kMaxDims) + ")");
  } else {
    const int64_t limit = INT64_MAX / static_cast<int64_t>(element_size(type));
    for (int d = 0; d < ndim && local.ok(); ++d) {
      if (dims[d] < 0) {
        local = Status(Code::kInvalidArgument,
                       "dataset::Dataset::create: " + what + ": dim " + std::to_string(d) + " is negative");
      } else if (dims[d] > 0 && elements > limit / dims[d]) {
        local = Status(Code::kInvalidArgument, "dataset::Dataset::create: " + what + ": too many elements");
      } else {
        elements *= dims[d];
      }
    }
  }
  if (agreement == Agreement::kCaller) {
    PARIO_RETURN_IF_ERROR(local);
  } else {
    PARIO_RETURN_IF_ERROR(comm::agree_call(file.state_->comm, local, digest));
  }

  // The file's property lists (FileState), and the dataspace made here
  // kept as the dataset's (no H5Dget_space).
  Dataset ds;
  hsize_t h[kMaxDims];
  for (int d = 0; d < ndim; ++d) h[d] = static_cast<hsize_t>(dims[d]);
  auto space = owned(H5Screate_simple(ndim, h, nullptr), H5Sclose);
  auto file_type = hdf5_type(type, /*native=*/false);
  if (space->get() < 0 || file_type == nullptr || file_type->get() < 0) {
    local = h5_error("H5Screate_simple", what);
  } else {
    FileState& st = *file.state_;
    ds.id_ = owned(H5Dcreate2(st.id->get(), name.c_str(), file_type->get(), space->get(), st.lcpl->get(),
                              st.dcpl->get(), st.dapl->get()),
                   H5Dclose);
    if (ds.id_->get() < 0) {
      local = h5_error("H5Dcreate2", what);
    } else {
      ds.space_ = std::move(space);
      local = finish_open(type, what, &ds.mem_type_);
      // Contiguous and allocated now: where its bytes end, which no write
      // may have reached by the next write-out (extend_past_allocated).
      const haddr_t at = H5Dget_offset(ds.id_->get());
      const hsize_t bytes = H5Dget_storage_size(ds.id_->get());
      if (at != HADDR_UNDEF && at <= static_cast<haddr_t>(INT64_MAX) && bytes <= static_cast<hsize_t>(INT64_MAX) - at) {
        st.raw_end = std::max(st.raw_end, static_cast<int64_t>(at + bytes));
      }
    }
  }
  PARIO_RETURN_IF_ERROR(agreement == Agreement::kCaller ? local : comm::agree(file.state_->comm, local));
  ds.name_ = name;
  ds.type_ = type;
  ds.ndim_ = ndim;
  ds.dims_ = dims;
  ds.elements_ = elements;
  ds.created_ = true;
  ds.file_ = file.state_;
  ds.path_ = file.path_;
  return ds;
}

Result<Dataset> Dataset::open(File& file, const std::string& name, std::optional<ElementType> expect,
                              Agreement agreement) {
  silence();
  if (!file.state_) return Status(Code::kState, "dataset::Dataset::open: " + name + ": the file is closed");
  const std::string what = file.path_ + ":" + name;
  comm::CallDigest digest("dataset::Dataset::open");
  digest.add("name", name.c_str()).add("expect", expect ? static_cast<int64_t>(*expect) : int64_t{0});
  Status local;
  if (name.empty()) local = Status(Code::kInvalidArgument, "dataset::Dataset::open: an empty dataset name");
  if (agreement == Agreement::kCaller) {
    PARIO_RETURN_IF_ERROR(local);
  } else {
    PARIO_RETURN_IF_ERROR(comm::agree_call(file.state_->comm, local, digest));
  }

  Dataset ds;
  ds.id_ = owned(H5Dopen2(file.state_->id->get(), name.c_str(), file.state_->dapl->get()), H5Dclose);
  if (ds.id_->get() < 0) {
    local = h5_error("H5Dopen2", what);
    if (local.code() == Code::kNotFound) {
      local = Status(Code::kNotFound, "H5Dopen2: " + what + ": no such dataset");
    }
  } else {
    auto file_type = owned(H5Dget_type(ds.id_->get()), H5Tclose);
    auto space = owned(H5Dget_space(ds.id_->get()), H5Sclose);
    Result<ElementType> type = Status(Code::kInternal, "unset");
    if (file_type->get() < 0 || space->get() < 0) {
      local = h5_error("H5Dget_type", what);
    } else if (type = element_type_of(file_type->get(), "dataset::Dataset::open: " + what); !type.ok()) {
      local = type.status();
    } else if (expect && *type != *expect) {
      local = Status(Code::kInvalidArgument, "dataset::Dataset::open: " + what + " holds " +
                                                 element_name(*type) + ", not " + element_name(*expect));
    } else {
      const int ndim = H5Sget_simple_extent_ndims(space->get());
      hsize_t h[H5S_MAX_RANK];
      if (ndim < 0 || H5Sget_simple_extent_type(space->get()) != H5S_SIMPLE) {
        local = Status(Code::kUnsupported, "dataset::Dataset::open: " + what + ": not a simple N-d dataset");
      } else if (ndim < 1 || ndim > kMaxDims) {
        local = Status(Code::kUnsupported, "dataset::Dataset::open: " + what + ": " + std::to_string(ndim) +
                                               " dims (pario handles 1 to " + std::to_string(kMaxDims) + ")");
      } else if (H5Sget_simple_extent_dims(space->get(), h, nullptr) < 0) {
        local = h5_error("H5Sget_simple_extent_dims", what);
      } else {
        ds.type_ = *type;
        ds.ndim_ = ndim;
        ds.elements_ = 1;
        const uint64_t limit = static_cast<uint64_t>(INT64_MAX) / element_size(*type);
        uint64_t n = 1;
        for (int d = 0; d < ndim && local.ok(); ++d) {
          // Each extent on its own too: after a zero one the product
          // stays 0 and would let any extent through.
          if (h[d] > limit || (h[d] > 0 && n > limit / h[d])) {
            local = Status(Code::kCorrupt, "dataset::Dataset::open: " + what + ": a size that overflows");
          }
          n *= h[d];
          ds.dims_[d] = static_cast<int64_t>(h[d]);
        }
        ds.elements_ = static_cast<int64_t>(n);
        if (local.ok()) {
          ds.space_ = std::move(space);  // the dataset's, read once
          local = finish_open(ds.type_, what, &ds.mem_type_);
        }
      }
    }
  }
  PARIO_RETURN_IF_ERROR(agreement == Agreement::kCaller ? local : comm::agree(file.state_->comm, local));
  ds.name_ = name;
  ds.file_ = file.state_;
  ds.path_ = file.path_;
  return ds;
}

Status Dataset::close(Agreement agreement) {
  if (!file_) return Status::Ok();
  Status local;
  mem_type_.reset();
  space_.reset();
  if (id_->release() < 0) local = h5_error("H5Dclose", path_ + ":" + name_);
  id_.reset();
  const Status s = agreement == Agreement::kCaller ? local : comm::agree(file_->comm, local);
  file_.reset();
  return s;
}

Status Dataset::set_attribute(const std::string& name, const AttrValue& value) {
  if (!file_) return Status(Code::kState, "H5Acreate2: " + name_ + ": the dataset is closed");
  return write_attribute(id_->get(), path_ + ":" + name_ + " attribute " + name, name, value, /*replace=*/!created_);
}

Result<AttrValue> Dataset::attribute(const std::string& name) {
  if (!file_) return Status(Code::kState, "H5Aopen: " + name_ + ": the dataset is closed");
  return read_attribute(id_->get(), path_ + ":" + name_ + " attribute " + name, name);
}

Status Dataset::write(const Box& box, const void* buf, XferMode mode) {
  return transfer(true, box, const_cast<void*>(buf), mode);
}

Status Dataset::read(const Box& box, void* buf, XferMode mode) { return transfer(false, box, buf, mode); }

Status Dataset::transfer(bool write, const Box& box, void* buf, XferMode mode) {
  const char* call = write ? "H5Dwrite" : "H5Dread";
  if (!file_) return Status(Code::kState, std::string(call) + ": " + name_ + ": the dataset is closed");
  if (box.ndim != ndim_) {
    return Status(Code::kInvalidArgument, std::string(call) + ": " + path_ + ":" + name_ + ": a box of " +
                                              std::to_string(box.ndim) + " dims for " + std::to_string(ndim_));
  }
  hsize_t start[kMaxDims], count[kMaxDims];
  for (int d = 0; d < ndim_; ++d) {
    if (box.start[d] < 0 || box.count[d] < 0 || box.start[d] > dims_[d] || box.count[d] > dims_[d] - box.start[d]) {
      return Status(Code::kOutOfRange, std::string(call) + ": " + path_ + ":" + name_ + ": dim " + std::to_string(d) +
                                           " [" + std::to_string(box.start[d]) + ", +" + std::to_string(box.count[d]) +
                                           ") outside 0.." + std::to_string(dims_[d]));
    }
    start[d] = static_cast<hsize_t>(box.start[d]);
    count[d] = static_cast<hsize_t>(box.count[d]);
  }
  const int64_t n = box.elements();
  if (n == 0 && mode == XferMode::kIndependent) return Status::Ok();
  const hsize_t mem_dims[1] = {static_cast<hsize_t>(n)};
  auto mem_space = owned(H5Screate_simple(1, mem_dims, nullptr), H5Sclose);
  herr_t rc = mem_space->get() < 0 ? -1 : 0;
  if (rc >= 0 && n == 0) {
    rc = std::min(H5Sselect_none(mem_space->get()), H5Sselect_none(space_->get()));
  } else if (rc >= 0) {
    rc = H5Sselect_hyperslab(space_->get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
  }
  if (rc < 0) return h5_error("H5Sselect_hyperslab", path_ + ":" + name_);
  const hid_t dxpl = mode == XferMode::kIndependent ? file_->independent->get() : file_->collective->get();
  rc = write ? H5Dwrite(id_->get(), mem_type_->get(), mem_space->get(), space_->get(), dxpl, buf)
             : H5Dread(id_->get(), mem_type_->get(), mem_space->get(), space_->get(), dxpl, buf);
  if (rc < 0) return h5_error(call, path_ + ":" + name_);
  return Status::Ok();
}

}  // namespace pario::dataset
