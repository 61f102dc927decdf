// Parallel HDF5 files and N-d datasets: the one place in pario that calls
// HDF5. h5.cpp is the only file under src/ that includes <hdf5.h>; every
// HDF5 identifier (hid_t) lives in an owner there, and nothing above this
// header sees one.
//
// A File is opened or created collectively over a communicator with the
// MPI-IO driver; metadata is read by one rank and broadcast, and written
// with one collective write (HDF5's collective metadata operations), so N
// ranks never contend for it. A Dataset is an N-d array of one of pario's
// element types (base/element_type.h) in that file: contiguous, its space
// allocated when it is created, so ranks may then write any part of it
// independently.
//
// File layout (what h5py and h5dump see): each dataset is a plain HDF5
// dataset of the element type's little-endian standard type (int8 .. uint64,
// IEEE float32/float64); complex values are the compound {r, i} of two
// floats or doubles, as h5py writes numpy's complex64/complex128.
//
// Ownership: a Dataset keeps its file's identifier alive, so the file is
// closed after its last dataset whatever the order of destruction.
// close() is the collective release (an error is returned on every rank);
// destructors close what is left, which HDF5 makes collective for a file:
// destroy unclosed files on every rank (as every rank does when a
// collective call fails everywhere).
//
// Errors: HDF5's own printing is silenced; a failed HDF5 call becomes a
// Status whose message names the call, the path or dataset, and the first
// and last entries of HDF5's error stack.
//
// Thread safety: none. Debian's parallel HDF5 is not thread-safe: every
// call into this header, and every destructor, runs on the thread that
// drives the collective calls (the aggregators of collective/transfer.h
// call their target on that thread too).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/box.h"
#include "base/element_type.h"
#include "base/status.h"
#include "comm/comm.h"

namespace pario::dataset {

class Hid;        // an owned HDF5 identifier (h5.cpp)
class Dataset;
struct FileState;  // an open file's identifier and communicator (h5.cpp)

// The value of an attribute: an array of one element type (native byte
// order in bytes; in the file the element type's little-endian standard
// type, as datasets), or a string (UTF-8, variable length in the file).
// `scalar`: an HDF5 scalar dataspace of one element (pario's own fields,
// which h5py then shows as plain numbers) rather than a 1-D array.
struct AttrValue {
  bool is_string = false;
  ElementType type = ElementType::kInt64;
  bool scalar = false;
  int64_t count = 0;                  // elements (arrays)
  std::vector<unsigned char> bytes;   // count * element_size(type)
  std::string text;                   // strings

  static AttrValue string(std::string s);
  static AttrValue array(ElementType type, const void* values, int64_t count);
  static AttrValue int64(int64_t v);
  static AttrValue float64(double v);
  // The one value of a scalar or one-element array of an integer (or
  // floating) type; kCorrupt naming `what` otherwise.
  Result<int64_t> as_int64(const std::string& what) const;
  Result<double> as_double(const std::string& what) const;
};

// The largest attribute pario writes or reads (bytes): attributes are
// metadata, read by one rank and broadcast to all.
constexpr int64_t kMaxAttributeBytes = int64_t{64} << 20;

enum class FileMode {
  kCreateTruncate,  // create, replacing a file of that name
  kCreateExclusive, // create; kExists when the file exists
  kReadOnly,        // open an existing file
  kReadWrite,
};

// How a dataset transfer moves its bytes: independently (one rank alone,
// e.g. a collective I/O aggregator) or as one MPI-IO collective (every rank
// of the file's communicator in every call, with the same count of calls).
enum class XferMode { kIndependent, kCollective };

// Who agrees on a Dataset's create or open: the call itself (kAgree: it
// first checks that every rank passed the same arguments, and ends with
// an agreement on the outcome: two allreduces), or the caller (kCaller:
// the arguments are the same on every rank by construction, and the
// caller folds this rank's status into an agreement of its own before
// any rank uses the dataset collectively; no communication here).
enum class Agreement { kAgree, kCaller };

class File {
 public:
  File();
  ~File();
  File(File&&) noexcept;
  File& operator=(File&&) noexcept;

  // Collective over comm (duplicated; HDF5 keeps its own duplicate too):
  // creates or opens path with the MPI-IO driver. Every rank gets the same
  // status: kNotFound (opening a missing file), kExists (exclusive create
  // of an existing one), kCorrupt (not an HDF5 file, metadata that fails
  // its checksum, a file shorter than its superblock records), kIo
  // (anything else HDF5 or MPI-IO refused), kInvalidArgument (ranks
  // passed different paths or modes).
  static Result<File> open(const comm::Comm& comm, const std::string& path, FileMode mode);

  // Collective: closes the file (every Dataset of it closed first, else
  // kState). Every rank gets the same status; a `carried` failure of this
  // rank's (a write the caller made just before) joins the agreement
  // after the close, so it needs none of its own.
  Status close(const Status& carried = Status::Ok());

  const std::string& path() const { return path_; }
  bool writable() const { return writable_; }
  // False once close() ran (or for a File never opened); path() stays.
  bool is_open() const { return state_ != nullptr; }
  const comm::Comm& comm() const;

  // Lockstep calls on groups, links and attributes. Every rank of the file
  // makes the same calls with the same arguments, in the same order (as
  // parallel HDF5 requires of anything that changes metadata, and of every
  // metadata read under collective metadata reads); each returns this
  // rank's status and the caller agrees (comm::agree) once per step, so a
  // step of several calls costs one agreement. Paths are absolute
  // ("/segments/00000003") or relative to the root group.

  // Creates the group (its parents must exist) with these attributes
  // (written through the new group's identifier: no lookup by path);
  // kExists when taken.
  Status create_group(const std::string& path,
                      const std::vector<std::pair<std::string, AttrValue>>& attributes = {});
  // Whether the link exists (false also when a parent does not).
  Result<bool> exists(const std::string& path);
  // Deletes the link (and so the object, once nothing else links to it).
  Status remove(const std::string& path);
  // Renames the link `from` to `to` (H5Lmove).
  Status move(const std::string& from, const std::string& to);
  // A new hard link at `path` to the object at `existing`.
  Status link(const std::string& existing, const std::string& path);
  // The names of the group's links, in increasing name order.
  Result<std::vector<std::string>> links(const std::string& group);
  // Sets attribute `name` of the object at `object`, replacing one of that
  // name (the old one deleted first).
  Status set_attribute(const std::string& object, const std::string& name, const AttrValue& value);
  // The attribute, checked: kNotFound when absent; kUnsupported for a type
  // that is none of pario's element types nor a string; kCorrupt for a
  // size that does not fit memory.
  Result<AttrValue> attribute(const std::string& object, const std::string& name);
  // The names of the object's attributes, in increasing name order.
  Result<std::vector<std::string>> attribute_names(const std::string& object);
  // Writes HDF5's cached metadata and raw data to the file, then syncs
  // it: with the MPI-IO driver H5Fflush always ends in MPI_File_sync, an
  // fsync. Lockstep (every rank); the status is this rank's, and the
  // caller agrees on it. A writable file is first made longer than HDF5
  // can have allocated, and cut back after to the end its superblock
  // records (as by write_back and close), so that a kill inside cannot
  // leave it shorter than that end; a failure of either is returned
  // after the flush.
  Status flush();
  // Writes HDF5's cached metadata and raw data to the file without an
  // fsync: the file is closed (H5Fclose writes everything; the MPI-IO
  // driver does not sync a file it closes) and opened again read-write
  // over the same communicator. After it the file on disk is whole as of
  // now against a killed process, not against a machine's crash. Lockstep
  // (every rank; the caller agrees on the status), with one agreement
  // inside, on the close, before the collective reopen; kState when a
  // Dataset of the file is open or the file is read-only. On failure the
  // file stays unusable (every later call fails; close() still releases
  // it).
  Status write_back();

 private:
  friend class Dataset;
  std::string path_;
  bool writable_ = false;
  std::shared_ptr<FileState> state_;  // shared with the file's datasets
};

class Dataset {
 public:
  Dataset();
  ~Dataset();
  Dataset(Dataset&&) noexcept;
  Dataset& operator=(Dataset&&) noexcept;

  // Collective over the file's communicator: creates the dataset `name`
  // (intermediate groups created too) of ndim dims (1 .. kMaxDims, each
  // >= 0) holding elements of `type`. Every rank gets the same status:
  // kInvalidArgument (a bad shape or type, ranks that differ), kState (a
  // read-only file), kExists (a link of that name), kIo.
  static Result<Dataset> create(File& file, const std::string& name, ElementType type, int ndim,
                                const Shape& dims, Agreement agreement = Agreement::kAgree);
  // Collective: opens the dataset `name`, reading back its element type and
  // shape. With `expect`, a dataset of another type is refused
  // (kInvalidArgument naming both). kNotFound when there is no such
  // dataset; kUnsupported for a type pario has no element type for, or a
  // dataset of more than kMaxDims dims.
  static Result<Dataset> open(File& file, const std::string& name, std::optional<ElementType> expect = {},
                              Agreement agreement = Agreement::kAgree);

  // Collective: closes the dataset; the same status on every rank
  // (kAgree), or this rank's, for the caller to agree on (kCaller: local).
  Status close(Agreement agreement = Agreement::kAgree);

  const std::string& name() const { return name_; }
  ElementType type() const { return type_; }
  int ndim() const { return ndim_; }
  const Shape& dims() const { return dims_; }
  int64_t elements() const { return elements_; }
  uint64_t bytes() const { return static_cast<uint64_t>(elements_) * element_size(type_); }

  // Lockstep, as File's: sets attribute `name` of this dataset through
  // its identifier (no lookup by path). On a dataset this object created,
  // each name is set once (no attribute is looked for or replaced: a
  // name set twice is kExists); on an opened one, one of that name is
  // replaced.
  Status set_attribute(const std::string& name, const AttrValue& value);
  // Lockstep: attribute `name` of this dataset, checked as File::attribute.
  Result<AttrValue> attribute(const std::string& name);

  // Blocking: writes the section `box` (box.ndim == ndim(), inside the
  // shape) from buf, box.elements() values of type() in C order and native
  // byte order (HDF5 converts to the file's). Local with kIndependent;
  // with kCollective every rank of the file calls it (an empty box where a
  // rank has nothing). kOutOfRange for a box outside the shape, kIo.
  Status write(const Box& box, const void* buf, XferMode mode = XferMode::kIndependent);
  // Blocking: reads the section `box` into buf (as write()).
  Status read(const Box& box, void* buf, XferMode mode = XferMode::kIndependent);

 private:
  Status transfer(bool write, const Box& box, void* buf, XferMode mode);

  std::string name_, path_;
  ElementType type_ = ElementType::kDouble;
  int ndim_ = 0;
  Shape dims_{};
  int64_t elements_ = 0;
  bool created_ = false;  // made by create(): it has no attributes but those set since
  // Released in reverse order: type, space, dataset, then (when the last
  // reference goes) the file, whose property lists the transfers use.
  std::shared_ptr<FileState> file_;
  std::unique_ptr<Hid> id_, space_, mem_type_;
};

}  // namespace pario::dataset
