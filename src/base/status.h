// Status and Result<T>: how every pario layer reports expected failures.
//
// A Status is a public status code (include/pario/status.h) plus a message
// and, when the failure came from the OS, the errno that caused it (kept so
// that retry loops can tell EINTR from EIO without parsing text). Expected
// failures are returned, never thrown; the C API turns them into codes and
// the thread-local message at the boundary.
//
// Thread safety: values; no shared state.
#pragma once

#include <cassert>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include "pario/status.h"

namespace pario {

enum class Code : int {
  kOk = PARIO_OK,
  kInvalidArgument = PARIO_ERR_INVALID_ARGUMENT,
  kState = PARIO_ERR_STATE,
  kNotFound = PARIO_ERR_NOT_FOUND,
  kExists = PARIO_ERR_EXISTS,
  kOutOfRange = PARIO_ERR_OUT_OF_RANGE,
  kNoMemory = PARIO_ERR_NO_MEMORY,
  kNoSpace = PARIO_ERR_NO_SPACE,
  kIo = PARIO_ERR_IO,
  kMpi = PARIO_ERR_MPI,
  kUnsupported = PARIO_ERR_UNSUPPORTED,
  kCorrupt = PARIO_ERR_CORRUPT,
  kCanceled = PARIO_ERR_CANCELED,
  kRemote = PARIO_ERR_REMOTE,
  kInternal = PARIO_ERR_INTERNAL,
  kPermission = PARIO_ERR_PERMISSION,
};

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(Code code, std::string message, int sys_errno = 0)
      : rep_(new Rep{code, sys_errno, std::move(message)}) {}
  Status(const Status& other) : rep_(other.rep_ ? new Rep(*other.rep_) : nullptr) {}
  Status(Status&& other) noexcept = default;
  Status& operator=(const Status& other) {
    if (this != &other) rep_.reset(other.rep_ ? new Rep(*other.rep_) : nullptr);
    return *this;
  }
  Status& operator=(Status&& other) noexcept = default;

  static Status Ok() { return Status(); }

  bool ok() const { return code() == Code::kOk; }
  Code code() const { return rep_ ? rep_->code : Code::kOk; }
  int raw_code() const { return static_cast<int>(code()); }
  // errno of the OS call that failed, or 0.
  int sys_errno() const { return rep_ ? rep_->sys_errno : 0; }
  const std::string& message() const { return rep_ ? rep_->message : empty(); }

  // Prepends "<context>: " to the message, keeping code and errno, so that
  // each layer adds what it knows ("pario_file_read: /scratch/x: ...").
  Status with_context(const std::string& context) const& {
    if (ok()) return *this;
    return Status(code(), context + ": " + message(), sys_errno());
  }
  Status with_context(const std::string& context) && {
    if (!ok()) rep_->message = context + ": " + rep_->message;
    return std::move(*this);
  }

 private:
  // An OK status holds nothing: making, moving, testing and dropping one
  // is a pointer's work. Every blocking call returns a few of them, and
  // with the code, errno and a std::string inline they were a visible
  // share of a 1.6 kB read from the page cache (issue 30).
  struct Rep {
    Code code;
    int sys_errno;
    std::string message;
  };
  static const std::string& empty();
  std::unique_ptr<Rep> rep_;
};

// Maps an errno value to a Status with "<what>: <strerror>" as message. This
// is the only place where errno values become pario codes.
Status errno_status(int err, const std::string& what);

// Name of a code as in pario_status_string().
const char* code_name(int code);

// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(v_).ok() && "Result from an OK status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const& {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(v_);
  }
  Status status() && { return ok() ? Status() : std::get<Status>(std::move(v_)); }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace pario

#define PARIO_CONCAT_INNER_(a, b) a##b
#define PARIO_CONCAT_(a, b) PARIO_CONCAT_INNER_(a, b)

#define PARIO_RETURN_IF_ERROR(expr)                  \
  do {                                               \
    ::pario::Status pario_status_ = (expr);          \
    if (!pario_status_.ok()) return pario_status_;   \
  } while (0)

#define PARIO_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return std::move(tmp).status();     \
  lhs = std::move(tmp).value()

#define PARIO_ASSIGN_OR_RETURN(lhs, expr) \
  PARIO_ASSIGN_OR_RETURN_IMPL_(PARIO_CONCAT_(pario_result_, __LINE__), lhs, expr)
