// The C boundary: where Status becomes an int and a thread-local message,
// and where any exception is caught so that none crosses into C, Fortran
// or Python.
#pragma once

#include <exception>
#include <new>
#include <string>

#include "base/status.h"

namespace pario::capi {

// Records "<call>: <message>" as this thread's last error; returns the code.
int fail(const char* call, const Status& status);

inline int report(const char* call, const Status& status) {
  return status.ok() ? PARIO_OK : fail(call, status);
}

inline Status invalid(const std::string& what) {
  return Status(Code::kInvalidArgument, what);
}

// Runs body (returning Status) and converts the outcome for C.
template <typename Body>
int guarded(const char* call, Body&& body) noexcept {
  try {
    return report(call, body());
  } catch (const std::bad_alloc&) {
    return fail(call, Status(Code::kNoMemory, "out of memory"));
  } catch (const std::exception& e) {
    return fail(call, Status(Code::kInternal, e.what()));
  } catch (...) {
    return fail(call, Status(Code::kInternal, "unknown exception"));
  }
}

}  // namespace pario::capi
