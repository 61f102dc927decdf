// What GA's classic C APIs (EAF, SF) share in pario_compat: small-integer
// handle tables, byte counts passed as doubles, and 80-character error
// messages that name the cause.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "pario/pario.h"

namespace pario::compat {

// Puts a handle in the first free (null) slot; the slot index is the
// number handed to the caller.
template <typename Handle>
int slot_for(std::vector<Handle>& v, Handle h) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == Handle{}) {
      v[i] = h;
      return static_cast<int>(i);
    }
  }
  v.push_back(h);
  return static_cast<int>(v.size() - 1);
}

// The handle in slot i, or a null one if i is out of range.
template <typename Handle>
Handle slot(const std::vector<Handle>& v, int i) {
  return i >= 0 && static_cast<size_t>(i) < v.size() ? v[i] : Handle{};
}

// GA passes offsets and sizes as doubles (exact up to 2^53): accepts only
// whole, non-negative values.
inline bool whole_bytes(double value, int64_t* out) {
  if (!(value >= 0) || value != std::floor(value) || value > 9007199254740992.0) return false;
  *out = static_cast<int64_t>(value);
  return true;
}

// Errors found here rather than by pario keep their own message, so that
// an error-message call never shows a stale one from an earlier pario call.
char* own_error();  // this thread's; empty when pario's message applies
int fail(int code, const char* format, ...) __attribute__((format(printf, 2, 3)));
// For an entry point's catch (...): the exception in flight as a status
// (out of memory, or internal with its text), so that none crosses into C
// or Fortran.
int caught(const char* call) noexcept;
// Passes a pario status through, forgetting any compat-level message.
inline int from_pario(int rc) {
  if (rc != PARIO_OK) own_error()[0] = '\0';
  return rc;
}
// "<status>: <detail>" in msg[80] (GA's size), or "OK".
void error_message(int code, char* msg);

// Collective over group: its rank 0's string on every rank.
int broadcast_string(pario_group_t group, std::string* text);

// Collective over group, before a call's first collective step: rc is this
// rank's own checks. Returns rc where they failed, PARIO_ERR_REMOTE where
// they passed but another rank's failed, so that no rank goes on into a
// collective the others have left (GA's calls check locally and return).
int agree_checks(pario_group_t group, const char* call, int rc);

}  // namespace pario::compat
