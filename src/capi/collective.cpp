#include "capi/collective.h"

#include "capi/runtime.h"

namespace pario::capi {

Status Entry::agree() {
  // After pario_finalize MPI may be gone: no communicator can be touched.
  Result<std::shared_ptr<comm::Group>> world = world_group();
  if (!world.ok()) {
    return Status(Code::kState, "pario is not running (call pario_init first; pario_finalize ends it)");
  }
  const comm::Group& g = group_ ? *group_ : **world;
  return comm::agree_call(g.comm_object(), local_, digest_, values_, nvalues_);
}

}  // namespace pario::capi
