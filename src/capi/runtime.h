// State the C API keeps between pario_init and pario_finalize.
#pragma once

#include <memory>

#include "array/group.h"
#include "base/status.h"

namespace pario::capi {

// The group of all ranks, made by pario_init (kState before it).
Result<std::shared_ptr<array::Group>> world_group();

}  // namespace pario::capi
