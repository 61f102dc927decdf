// State the C API keeps between pario_init and pario_finalize.
#pragma once

#include <memory>

#include "base/status.h"
#include "comm/group.h"
#include "pario/array.h"

namespace pario::capi {

// The group of all ranks, made by pario_init (kState before it).
Result<std::shared_ptr<comm::Group>> world_group();

// The group behind a C handle (implemented in array.cpp).
Result<std::shared_ptr<comm::Group>> shared_group(pario_group_t group);

// The live group behind a handle of a collective call, checked into e
// (which takes it as the call's group); nullptr when not live.
class Entry;
comm::Group* entry_group(Entry& e, pario_group_t group);

// Collective (pario_finalize): closes the arrays and counters the program
// left open, in creation order (implemented in array.cpp).
Status close_leftovers();

// Collective (pario_finalize): closes (flushes) the datasets the program
// left open, in creation order (implemented in dataset.cpp; nothing
// without parallel HDF5).
Status close_leftover_datasets();

}  // namespace pario::capi
