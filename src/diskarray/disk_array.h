// Disk resident arrays (ChemIO's DRA): N-d arrays on disk as Zarr v3 stores,
// moved section by section to and from global arrays.
//
// A store is a directory: zarr.json (file/zarr_meta.h) and one file per
// chunk, uncompressed, so a chunk's bytes are its elements in C order.
// Transfers are collective over the array's group and work for any pair of
// sections of the same shape:
//   - each chunk a disk section touches is moved by one rank: the one that
//     holds most of its part in the global array, so no two ranks ever
//     write one chunk, and aligned layouts move by local memory copies;
//   - a chunk the section covers only in part is read first and merged
//     (nothing outside the section is lost; a missing chunk reads as 0);
//   - each rank moves its chunks' parts to or from the global array with
//     one-sided get/put, whatever the array's distribution (this is what
//     makes restart on a different number of ranks work).
// A chunk file shorter than a full chunk is reported as corrupt, never read
// as zeros.
//
// Thread safety: one thread per rank; calls are collective.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "array/global_array.h"
#include "array/group.h"
#include "base/status.h"
#include "diskarray/zarr_meta.h"

namespace pario::diskarray {

class DiskArray {
 public:
  // Collective. Creates the store at `dir` (which must not exist). chunk
  // is the typical request shape (empty or zeros: chosen, about 1 MiB per
  // chunk, whole rows first).
  static Result<std::unique_ptr<DiskArray>> create(std::shared_ptr<const array::Group> group,
                                                   const std::string& dir, array::ElementType type,
                                                   const std::vector<int64_t>& shape,
                                                   const std::vector<int64_t>& chunk);
  // Collective. Opens an existing store (pario's, or zarr-python's in a
  // supported layout).
  static Result<std::unique_ptr<DiskArray>> open(std::shared_ptr<const array::Group> group,
                                                 const std::string& dir, bool writable);
  // Collective: removes a store (its chunks, zarr.json, the directory).
  static Status remove(const array::Group& group, const std::string& dir);

  const ZarrMeta& meta() const { return meta_; }
  const std::string& dir() const { return dir_; }

  // Collective: disk[disk_start + i] = ga[ga_start + i] for i < count, and
  // the reverse. The global array must be of the same element type.
  Status write(array::GlobalArray& ga, const array::Box& ga_section,
               const std::vector<int64_t>& disk_start);
  Status read(array::GlobalArray& ga, const array::Box& ga_section,
              const std::vector<int64_t>& disk_start);
  // Collective; idempotent.
  Status close();

 private:
  DiskArray() = default;
  // Calls fn(chunk index, chunk box, the part of the disk section in it)
  // for each chunk of the section this rank moves: the one owning most of
  // the part's elements in the global array, so that aligned layouts move
  // by local memory copies. Every rank computes the same assignment, and
  // each chunk has one mover.
  template <typename Fn>
  Status for_my_chunks(const array::GlobalArray& ga, const array::Box& ga_section,
                       const array::Box& disk, Fn&& fn) const;
  int chunk_owner(const array::GlobalArray& ga, const array::Box& ga_section, const array::Box& disk,
                  const array::Box& part) const;
  Status check_transfer(const array::GlobalArray& ga, const array::Box& ga_section,
                        const std::vector<int64_t>& disk_start, array::Box* disk) const;
  std::string chunk_path(const std::vector<int64_t>& index) const;

  std::shared_ptr<const array::Group> group_;
  std::string dir_;
  ZarrMeta meta_;
  bool writable_ = false;
  bool closed_ = false;
};

}  // namespace pario::diskarray
