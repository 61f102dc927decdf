// The decomposition handle table, for the C API files that take
// decompositions (collective I/O into shared files and into datasets).
#pragma once

#include <memory>

#include "base/box.h"
#include "capi/collective.h"
#include "capi/handles.h"
#include "collective/decomposition.h"
#include "comm/group.h"
#include "pario/collective_io.h"

namespace pario::capi {

// A decomposition with the group its collectives meet over, and for
// blocks the global shape in the C order of its flat index (Fortran
// order: the dims reversed), which a dataset section keeps as its shape.
struct DecompHandle {
  std::unique_ptr<collective::Decomposition> decomp;
  std::shared_ptr<const comm::Group> group;
  int shape_ndim = 0;  // 0: indices or keys (a flat space)
  Shape shape{};
};

HandleTable<DecompHandle>& decomps();

// The live decomposition behind a handle of a collective call, checked
// into e (which takes its group as the call's); nullptr when not live.
DecompHandle* entry_decomp(Entry& e, pario_decomp_t d);

}  // namespace pario::capi
