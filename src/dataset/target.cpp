#include "dataset/target.h"

#include <string>

namespace pario::dataset {

namespace {

// [b, e): a range inside one index of dimensions 0..d-1 (fixed in
// `prefix`), relative to that block's first element; stride[d] elements
// per index of dimension d. Whole indices of d in the middle are one box;
// a partial index at either end recurses one dimension down, so the head
// and the tail each add at most one box per dimension.
void split(int d, const Shape& dims, const Shape& stride, int64_t b, int64_t e, Box prefix, std::vector<Box>& out) {
  if (b >= e) return;
  const int64_t s = stride[d];
  int64_t qb = b / s;
  const int64_t rb = b % s, qe = e / s, re = e % s;
  if (qb == qe) {  // inside one index of d
    prefix.start[d] = qb;
    prefix.count[d] = 1;
    split(d + 1, dims, stride, rb, re, prefix, out);
    return;
  }
  if (rb != 0) {
    Box head = prefix;
    head.start[d] = qb;
    head.count[d] = 1;
    split(d + 1, dims, stride, rb, s, head, out);
    ++qb;
  }
  if (qb < qe) {
    Box middle = prefix;
    middle.start[d] = qb;
    middle.count[d] = qe - qb;
    for (int k = d + 1; k < prefix.ndim; ++k) {
      middle.start[k] = 0;
      middle.count[k] = dims[k];
    }
    out.push_back(middle);
  }
  if (re != 0) {
    Box tail = prefix;
    tail.start[d] = qe;
    tail.count[d] = 1;
    split(d + 1, dims, stride, 0, re, tail, out);
  }
}

}  // namespace

std::vector<Box> range_boxes(int ndim, const Shape& dims, int64_t begin, int64_t end) {
  std::vector<Box> out;
  if (ndim < 1 || begin >= end) return out;
  Shape stride{};
  stride[ndim - 1] = 1;
  for (int d = ndim - 2; d >= 0; --d) stride[d] = stride[d + 1] * dims[d + 1];
  Box prefix;
  prefix.ndim = ndim;
  split(0, dims, stride, begin, end, prefix, out);
  return out;
}

Result<std::shared_ptr<device::Request>> DatasetTarget::start(device::IoKind kind, uint64_t offset, void* buf,
                                                              size_t len) {
  const bool write = kind == device::IoKind::kWrite;
  const std::string what = std::string(write ? "write" : "read") + " of " + std::to_string(len) +
                           " bytes at offset " + std::to_string(offset) + " of dataset " + dataset_->name();
  if (mode_ == XferMode::kCollective) {
    return Status(Code::kUnsupported, "DatasetTarget: " + what +
                                          ": collective HDF5 transfers need every rank in every call; aggregators "
                                          "call alone");
  }
  const uint64_t es = element_size(dataset_->type());
  if (offset % es != 0 || len % es != 0) {
    return Status(Code::kInvalidArgument,
                  "DatasetTarget: " + what + ": not whole " + element_name(dataset_->type()) + " elements");
  }
  const uint64_t size = dataset_->bytes();
  uint64_t want = len;
  if (offset > size || len > size - offset) {
    if (write) return Status(Code::kOutOfRange, "DatasetTarget: " + what + ": past its end at " + std::to_string(size));
    want = offset >= size ? 0 : size - offset;
  }
  const int64_t begin = static_cast<int64_t>(offset / es), end = begin + static_cast<int64_t>(want / es);
  Status s;
  char* at = static_cast<char*>(buf);
  for (const Box& box : range_boxes(dataset_->ndim(), dataset_->dims(), begin, end)) {
    s = write ? dataset_->write(box, at, mode_) : dataset_->read(box, at, mode_);
    if (!s.ok()) break;
    at += static_cast<uint64_t>(box.elements()) * es;
  }
  // Done already: device::wait/test see done() and never ask an engine.
  auto request = std::make_shared<device::Request>(kind, nullptr, offset, buf, len, /*exact=*/false);
  const size_t moved = s.ok() ? static_cast<size_t>(want) : 0;
  request->complete(std::move(s), moved);
  return request;
}

}  // namespace pario::dataset
