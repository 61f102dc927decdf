// What a disk array moves data to and from: a distributed array in the
// memory of the disk array's group.
//
// pario's global arrays are one kind (GlobalArraySource). Another
// library's arrays come in through PatchArray, which knows each rank's
// patch and moves sections with that library's one-sided get and put (and,
// when the library gives it, reaches this rank's own patch in place): the
// C API builds one from pario_array_ops_t callbacks, and the classic DRA
// API's Global Arrays adapter from NGA_Distribution/NGA_Access/NGA_Get/NGA_Put.
//
// Thread safety: used by the calling thread only (never by the disk
// array's I/O threads).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "array/distribution.h"
#include "array/global_array.h"
#include "base/box.h"
#include "base/element_type.h"
#include "base/status.h"
#include "comm/group.h"

namespace pario::array {

class MemoryArray {
 public:
  virtual ~MemoryArray() = default;
  virtual ElementType type() const = 0;
  virtual const std::vector<int64_t>& dims() const = 0;
  virtual std::string name() const = 0;
  // Calls fn(rank, piece) for every rank holding part of box, with the
  // part (ranks of the disk array's group).
  virtual void for_each_owner(const Box& box,
                              const std::function<void(int, const Box&)>& fn) const = 0;
  // One-sided: box to or from buf, whose dimensions after the first are
  // ld (ndim-1 entries, in elements).
  virtual Status get(const Box& box, void* buf, const std::vector<int64_t>& ld) = 0;
  virtual Status put(const Box& box, const void* buf, const std::vector<int64_t>& ld) = 0;
  // Collective: every rank's earlier puts are complete and visible.
  virtual Status sync() = 0;
  // sync() split around the caller's own agreement of all ranks, which
  // then stands for sync's barrier: sync_arrive() before it, sync_leave()
  // after it, both local. A disk-array read that way takes two collective
  // calls, not four (issue 30). False where the array cannot split its
  // sync (another library's collective callback): call sync() instead.
  virtual bool splits_sync() const { return false; }
  virtual Status sync_arrive() { return Status(Code::kInternal, "sync_arrive: this array does not split its sync"); }
  virtual Status sync_leave() { return Status(Code::kInternal, "sync_leave: this array does not split its sync"); }
  // Ok when the array lives on exactly the ranks of group.
  virtual Status check_group(const comm::Group& group) const = 0;
  // Direct access to node-local memory: each owner's piece of box, with
  // the owner's whole patch (row-major, dense) and where it starts in this
  // process's memory, so that a file read can land in place. False, and
  // nothing is added, when some piece lies off this node (get/put must
  // move it) or the array offers no direct access.
  struct LocalPiece {
    Box piece, patch;
    char* base = nullptr;  // element patch.start
  };
  virtual bool local_pieces(const Box& /*box*/, std::vector<LocalPiece>* /*out*/) const { return false; }
};

// A pario global array (kept alive while a transfer uses it).
class GlobalArraySource : public MemoryArray {
 public:
  explicit GlobalArraySource(std::shared_ptr<GlobalArray> a) : a_(std::move(a)) {}
  ElementType type() const override { return a_->type(); }
  const std::vector<int64_t>& dims() const override { return a_->distribution().dims(); }
  std::string name() const override { return a_->name(); }
  void for_each_owner(const Box& box,
                      const std::function<void(int, const Box&)>& fn) const override {
    a_->distribution().for_each_owner(box, fn);
  }
  Status get(const Box& box, void* buf, const std::vector<int64_t>& ld) override {
    return a_->get(box, buf, ld);
  }
  Status put(const Box& box, const void* buf, const std::vector<int64_t>& ld) override {
    return a_->put(box, buf, ld);
  }
  Status sync() override { return a_->sync(); }
  bool splits_sync() const override { return true; }
  Status sync_arrive() override { return a_->sync_arrive(); }
  Status sync_leave() override { return a_->sync_leave(); }
  Status check_group(const comm::Group& group) const override;
  bool local_pieces(const Box& box, std::vector<LocalPiece>* out) const override;

 private:
  std::shared_ptr<GlobalArray> a_;
};

// An array of another library, seen as one patch per rank. The functions
// return a pario status; sync is collective over the group.
class PatchArray : public MemoryArray {
 public:
  struct Ops {
    std::function<Status(const Box&, void*, const std::vector<int64_t>&)> get;
    std::function<Status(const Box&, const void*, const std::vector<int64_t>&)> put;
    std::function<Status()> sync;
  };
  // patches[r]: the box rank r of group holds (empty for none). own_base,
  // when not null, is where rank own_rank's patch (dense, row-major) starts
  // in this process's memory: pieces inside it are accessed in place.
  PatchArray(std::string name, ElementType type, std::vector<int64_t> dims,
             std::vector<Box> patches, Ops ops, int own_rank = -1, char* own_base = nullptr)
      : name_(std::move(name)), type_(type), dims_(std::move(dims)), patches_(std::move(patches)),
        ops_(std::move(ops)), own_rank_(own_rank), own_base_(own_base) {}
  ElementType type() const override { return type_; }
  const std::vector<int64_t>& dims() const override { return dims_; }
  std::string name() const override { return name_; }
  void for_each_owner(const Box& box,
                      const std::function<void(int, const Box&)>& fn) const override;
  Status get(const Box& box, void* buf, const std::vector<int64_t>& ld) override {
    return ops_.get(box, buf, ld);
  }
  Status put(const Box& box, const void* buf, const std::vector<int64_t>& ld) override {
    return ops_.put(box, buf, ld);
  }
  Status sync() override { return ops_.sync(); }
  Status check_group(const comm::Group& group) const override;
  bool local_pieces(const Box& box, std::vector<LocalPiece>* out) const override;

 private:
  std::string name_;
  ElementType type_;
  std::vector<int64_t> dims_;
  std::vector<Box> patches_;
  Ops ops_;
  int own_rank_;
  char* own_base_;
};

}  // namespace pario::array
