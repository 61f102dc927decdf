// The handle tables of groups and global arrays, and handle lookup, shared
// by the C API files that take them (arrays, disk arrays).
#pragma once

#include "array/global_array.h"
#include "comm/group.h"
#include <string>

#include "capi/boundary.h"
#include "capi/collective.h"
#include "capi/handles.h"
#include "pario/array.h"

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

// The object behind a handle of a collective call, checked into e, with
// its group as the call's (nullptr when the handle is not live).
template <typename T, typename H>
T* entry_object(Entry& e, HandleTable<T>& table, H h, const char* what) {
  Result<T*> p = live(table, h, what);
  e.check(p);
  if (!p.ok()) {
    if (std::shared_ptr<T> gone = table.removed(id_of(h))) e.over_removed(gone, &gone->group());
    return nullptr;
  }
  e.over(&(*p)->group());
  return *p;
}

// The live array behind a handle of a collective call, checked into e
// (which takes its group as the call's); nullptr when not live.
array::GlobalArray* entry_array(Entry& e, pario_array_t a, const char* what);

}  // namespace pario::capi
