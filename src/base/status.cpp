#include "base/status.h"

#include <cerrno>
#include <cstring>

namespace pario {

const std::string& Status::empty() {
  static const std::string kEmpty;
  return kEmpty;
}

Status errno_status(int err, const std::string& what) {
  Code code;
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      code = Code::kNotFound;
      break;
    case EEXIST:
      code = Code::kExists;
      break;
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
      code = Code::kNoSpace;
      break;
    case ENOMEM:
      code = Code::kNoMemory;
      break;
    case EACCES:
    case EPERM:
    case EROFS:
    case ELOOP:
      code = Code::kPermission;
      break;
    case EINVAL:
    case EBADF:
    case EISDIR:
    case ENAMETOOLONG:
      code = Code::kInvalidArgument;
      break;
    case EOPNOTSUPP:
    case ENOSYS:
      code = Code::kUnsupported;
      break;
    case ECANCELED:
      code = Code::kCanceled;
      break;
    default:
      code = Code::kIo;
      break;
  }
  char buf[128];
  // GNU strerror_r may return a static string instead of filling buf.
  std::string text = strerror_r(err, buf, sizeof buf);
  if (err == EMFILE) text += " (the process's limit on open files: raise it with ulimit -n)";
  if (err == ENFILE) text += " (the system's limit on open files: fs.file-max)";
  return Status(code, what.empty() ? text : what + ": " + text, err);
}

const char* code_name(int code) {
  switch (code) {
    case PARIO_OK: return "ok";
    case PARIO_ERR_INVALID_ARGUMENT: return "invalid argument";
    case PARIO_ERR_STATE: return "invalid state";
    case PARIO_ERR_NOT_FOUND: return "not found";
    case PARIO_ERR_EXISTS: return "already exists";
    case PARIO_ERR_OUT_OF_RANGE: return "out of range";
    case PARIO_ERR_NO_MEMORY: return "out of memory";
    case PARIO_ERR_NO_SPACE: return "no space left";
    case PARIO_ERR_IO: return "I/O error";
    case PARIO_ERR_MPI: return "MPI error";
    case PARIO_ERR_UNSUPPORTED: return "unsupported";
    case PARIO_ERR_CORRUPT: return "corrupt data";
    case PARIO_ERR_CANCELED: return "canceled";
    case PARIO_ERR_REMOTE: return "failed on another rank";
    case PARIO_ERR_INTERNAL: return "internal error";
    case PARIO_ERR_PERMISSION: return "permission denied";
    default: return "unknown status code";
  }
}

}  // namespace pario
