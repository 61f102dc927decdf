// The Exodus writer's settings from the environment, read in options.cpp
// (the one reader of the configuration below the public API), in a header
// of their own so that a new setting does not recompile every capi file.
#pragma once

#include "base/status.h"
#include "exodus/writer.h"

namespace pario::capi {

// PARIO_EXODUS_SYNC: when an Exodus writer makes a step durable before
// readers count it (exodus/writer.h StepSync: step, the default; overlap;
// none), read once; kInvalidArgument naming the variable for any other
// value.
Result<exodus::StepSync> exodus_step_sync();

}  // namespace pario::capi
