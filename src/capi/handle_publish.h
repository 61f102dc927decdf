// Publishing the handle of an object every rank has just made together
// (a collective create or open): the same on every rank, since every
// rank's table holds the same objects of that kind. Shared by the C
// boundaries of collectively made objects (capi/wavefunction.cpp; the
// other tables' publish functions predate it and may move onto it).
#pragma once

#include <memory>
#include <string>

#include "base/status.h"
#include "capi/array_handles.h"
#include "capi/handles.h"

namespace pario::capi {

// Inserts h into table and sets *out to its handle. A full table (alike on
// every rank) releases the object again with close(*h), collectively, and
// is kNoMemory naming `what` ("too many open <what>").
template <typename T, typename H, typename Close>
Status publish_handle(HandleTable<T>& table, std::shared_ptr<T> h, H* out, const char* what, Close close) {
  const uint64_t id = table.insert(h);
  if (id == 0) {
    close(*h);
    return Status(Code::kNoMemory, std::string("too many open ") + what);
  }
  *out = handle_of<H>(id);
  return Status::Ok();
}

}  // namespace pario::capi
