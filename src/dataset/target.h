// An HDF5 dataset as a target of the collective I/O engine
// (collective/target.h): the engine sees a flat byte range, element i of
// the dataset in C order at byte i * element_size(type), each element in
// the dataset's type and native byte order (HDF5 converts to the file's).
// A transfer's offset 0 is the dataset's first element.
//
// A range of whole elements [begin, end) is at most 2·ndim − 1 boxes
// (range_boxes): a head that finishes partial rows dimension by dimension,
// one middle box of whole slabs, and a tail that starts them again. Each
// box is one H5Dwrite / H5Dread of a hyperslab, independent by default:
// an aggregator calls its target alone, and on this machine class
// independent transfers measured faster than collective ones (issue 26).
//
// The transfer happens inside start() on the calling thread (Debian's
// parallel HDF5 is not thread-safe); the request returned is complete.
//
// Ownership: the dataset is borrowed and must outlive every transfer
// through the target. Thread safety: the calling thread only.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "base/box.h"
#include "collective/target.h"
#include "dataset/h5.h"

namespace pario::dataset {

// The boxes covering the flat C-order element range [begin, end) of an
// array of shape dims (ndim dims), in increasing flat order, each box's
// elements a contiguous part of the range: box k covers the range's
// elements after those of boxes 0..k-1. At most 2·ndim − 1 boxes, none
// empty; none for an empty range. Requires 0 <= begin <= end <= the
// array's element count. Pure.
std::vector<Box> range_boxes(int ndim, const Shape& dims, int64_t begin, int64_t end);

class DatasetTarget final : public collective::Target {
 public:
  // kCollective is for later (every rank would have to call each
  // transfer): start() refuses it with kUnsupported for now.
  explicit DatasetTarget(Dataset* dataset, XferMode mode = XferMode::kIndependent)
      : dataset_(dataset), mode_(mode) {}

  // Writes or reads len bytes at offset (both whole elements: else
  // kInvalidArgument) before returning; the request is complete. A write
  // past the dataset's end is kOutOfRange; a read stops there
  // (request->transferred()).
  Result<std::shared_ptr<device::Request>> start(device::IoKind kind, uint64_t offset, void* buf,
                                                 size_t len) override;
  // The dataset's size in bytes.
  Result<uint64_t> size() override { return dataset_->bytes(); }

 private:
  Dataset* dataset_;
  XferMode mode_;
};

}  // namespace pario::dataset
