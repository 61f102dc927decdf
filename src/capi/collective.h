// The first step of every collective C call: check, then agree.
//
// A collective entry point checks its arguments on this rank (null
// pointers, handles, types, sizes), records them in a digest (what must be
// the same on every rank: paths, shapes, roots, counts), and only then
// lets the ranks meet, in one allreduce of a fixed size over the group
// (comm::agree_call). So one rank's bad argument fails the call on every
// rank (the others get PARIO_ERR_REMOTE naming it) instead of leaving them
// waiting; arguments that differ between ranks fail everywhere; and ranks
// that entered different collectives on one group meet and fail, rather
// than wait for each other.
//
// Which group: the one behind the call's first live handle. A handle this
// rank already freed still names its object's group while the handle
// table remembers the object (until its slot's next object is freed in
// turn). A rank with only null or forgotten handles cannot know the group;
// it meets over the world group (pario_group_world), which is every
// object's group unless the program split one or made it from its own
// communicator. On such a group that rank still fails, but the others are
// not reached: the one case left that the program must not make.
//
// Thread safety: one Entry per call; collective calls from one thread per
// rank, as the headers say.
#pragma once

#include <memory>

#include "base/status.h"
#include "comm/comm.h"
#include "comm/group.h"

namespace pario::capi {

class Entry {
 public:
  explicit Entry(const char* call) : digest_(call) {}

  // The group the call is collective over; the first one given wins.
  // (Borrowed: the handle that names it keeps it alive during the call.)
  void over(const comm::Group* group) {
    if (!group_) group_ = group;
  }
  // The group of an object a stale handle named (HandleTable::removed),
  // kept alive by `owner` until the call returns.
  void over_removed(std::shared_ptr<const void> owner, const comm::Group* group) {
    if (group_) return;
    removed_ = std::move(owner);
    group_ = group;
  }
  // Records this rank's first failed check (later ones add nothing).
  void check(const Status& s) {
    if (local_.ok() && !s.ok()) local_ = s;
  }
  template <typename T>
  void check(const Result<T>& r) {
    check(r.status());
  }
  bool ok() const { return local_.ok(); }
  // This rank's first failed check (OK if none).
  const Status& local() const { return local_; }
  comm::CallDigest& args() { return digest_; }
  // Values (at most comm::kAgreeCallValues) that agree() reduces by
  // maximum over the ranks in its one allreduce, replaced by the maxima
  // when it succeeds: what the call's next step needs every rank to know
  // (a transfer's memory types), so it makes no agreement of its own.
  // Borrowed until agree() returns.
  void carry_max(int64_t* values, int n) {
    values_ = values;
    nvalues_ = n;
  }

  // Collective: every rank of the group returns the same status (see above).
  // kState before pario_init and after pario_finalize, without communicating.
  Status agree();

 private:
  comm::CallDigest digest_;
  const comm::Group* group_ = nullptr;
  std::shared_ptr<const void> removed_;
  Status local_;
  int64_t* values_ = nullptr;
  int nvalues_ = 0;
};

}  // namespace pario::capi
