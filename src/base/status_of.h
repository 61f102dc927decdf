// status_of: a Status for work that may throw, where an exception must not
// skip what comes after it.
#pragma once

#include <exception>
#include <new>
#include <string>

#include "base/status.h"

namespace pario {

// fn's status, or an error for an exception it threw (kNoMemory for an
// allocation that failed, such as a buffer sized by what a file claims):
// for work that must still reach its agreement, or wake whoever waits for
// it, on the rank or thread that failed as on the others.
template <typename Fn>
Status status_of(const char* what, Fn&& fn) noexcept {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    return Status(Code::kNoMemory, std::string(what) + ": out of memory");
  } catch (const std::exception& e) {
    return Status(Code::kInternal, std::string(what) + ": " + e.what());
  } catch (...) {
    return Status(Code::kInternal, std::string(what) + ": an unknown exception");
  }
}

}  // namespace pario
