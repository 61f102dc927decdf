// The handle tables of groups and global arrays, and handle lookup, shared
// by the C API files that take them (arrays, disk arrays).
#pragma once

#include "array/global_array.h"
#include "comm/group.h"
#include <string>

#include "capi/boundary.h"
#include "capi/handles.h"

namespace pario::capi {

template <typename H>
uint64_t id_of(H h) {
  return reinterpret_cast<uintptr_t>(h);
}
template <typename H>
H handle_of(uint64_t id) {
  return reinterpret_cast<H>(static_cast<uintptr_t>(id));
}

// Looks a handle up in its table, with a message naming what was wrong.
template <typename T, typename H>
Result<T*> live(HandleTable<T>& table, H h, const char* what) {
  if (!h) return invalid(std::string(what) + " handle is null");
  T* p = table.find(id_of(h));
  if (!p) return invalid(std::string(what) + " handle is stale (already freed or destroyed)");
  return p;
}

HandleTable<comm::Group>& groups();
HandleTable<array::GlobalArray>& arrays();

}  // namespace pario::capi
