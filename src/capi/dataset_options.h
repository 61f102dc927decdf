// The datasets' settings from the environment, read in options.cpp (the
// one reader of the configuration below the public API), in a header of
// their own so that a new setting does not recompile every capi file.
#pragma once

#include "base/status.h"

namespace pario::capi {

// PARIO_DATASET_SYNC: a dataset's sync policy when its create options
// leave it 0 and at open (pario/dataset.h: "fsync", the default when
// unset or empty; "write"; "none"), as a PARIO_DATASET_SYNC_* value, read
// once; kInvalidArgument naming the variable for any other value.
Result<int> dataset_sync_policy();

}  // namespace pario::capi
