#include "compat/classic.h"

#include <algorithm>
#include <cstdarg>
#include <exception>
#include <new>

namespace pario::compat {

char* own_error() {
  thread_local char message[160];
  return message;
}

int fail(int code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(own_error(), 160, format, args);
  va_end(args);
  return code;
}

int caught(const char* call) noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return fail(PARIO_ERR_NO_MEMORY, "%s: out of memory", call);
  } catch (const std::exception& e) {
    return fail(PARIO_ERR_INTERNAL, "%s: %s", call, e.what());
  } catch (...) {
    return fail(PARIO_ERR_INTERNAL, "%s: an unknown exception", call);
  }
}

void error_message(int code, char* msg) {
  if (!msg) return;
  if (code == PARIO_OK) {
    std::snprintf(msg, 80, "OK");
    return;
  }
  // Our own messages put the key fact first. pario's have the shape
  // "<call>: <path>: <cause>", so a long one keeps its end, the cause.
  char detail[1024];
  const char* shown = detail;
  if (own_error()[0]) {
    std::snprintf(detail, sizeof detail, "%s", own_error());
  } else {
    const size_t n = std::min(pario_last_error_message(detail, sizeof detail), sizeof detail - 1);
    constexpr size_t kRoom = 60;
    if (n > kRoom) {
      shown = detail + n - (kRoom - 3);
      std::snprintf(msg, 80, "%s: ...%s", pario_status_string(code), shown);
      return;
    }
  }
  std::snprintf(msg, 80, "%s: %.*s", pario_status_string(code), 60, shown);
}

int broadcast_string(pario_group_t group, std::string* text) {
  int64_t n = static_cast<int64_t>(text->size());
  int rc = from_pario(pario_group_broadcast(group, &n, sizeof n, 0));
  if (rc != PARIO_OK) return rc;
  text->resize(static_cast<size_t>(n));
  if (n > 0) rc = from_pario(pario_group_broadcast(group, &(*text)[0], text->size(), 0));
  return rc;
}

int agree_checks(pario_group_t group, const char* call, int rc) {
  int64_t failed = rc != PARIO_OK ? 1 : 0;
  const int agreed = from_pario(pario_group_sum(group, PARIO_TYPE_INT64, &failed, 1));
  if (rc != PARIO_OK) return rc;
  if (agreed != PARIO_OK) return agreed;
  if (failed > 0) {
    return fail(PARIO_ERR_REMOTE, "%s: the arguments of %lld other rank(s) were refused", call,
                static_cast<long long>(failed));
  }
  return PARIO_OK;
}

}  // namespace pario::compat
