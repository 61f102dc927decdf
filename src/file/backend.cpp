#include "file/backend.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "file/mpiio_device.h"

namespace pario::file {

Result<Placement> place(const std::string& path, uint64_t request_hint, const FileSettings& settings) {
  Placement where;
  where.paths.push_back(path);
  where.mpiio = settings.backend == FileBackendChoice::kMpiio;
  if (settings.backend != FileBackendChoice::kStriped || settings.scratch_dirs.size() < 2) {
    return where;
  }
  const size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  for (size_t i = 1; i < settings.scratch_dirs.size(); ++i) {
    where.paths.push_back(settings.scratch_dirs[i] + "/" + name + ".stripe" + std::to_string(i));
  }
  constexpr uint64_t kAlign = 4096, kDefault = 1 << 20, kMax = uint64_t{64} << 20;
  if (settings.stripe_size) {
    where.stripe = settings.stripe_size;
  } else if (request_hint) {
    where.stripe = std::min(kMax, (request_hint + kAlign - 1) / kAlign * kAlign);
  } else {
    where.stripe = kDefault;
  }
  return where;
}

Result<std::unique_ptr<device::Device>> open_device(const Placement& where,
                                                    const device::OpenOptions& options) {
  if (where.mpiio) return open_mpiio(where.paths[0], options);
  if (where.paths.size() == 1) return device::open_posix(where.paths[0], options);
  return device::open_striped(where.paths, where.stripe, options);
}

Status remove_files(const Placement& where) {
  for (size_t i = 0; i < where.paths.size(); ++i) {
    if (::unlink(where.paths[i].c_str()) != 0 && (i == 0 || errno != ENOENT)) {
      return errno_status(errno, where.paths[i]);
    }
  }
  return Status::Ok();
}

}  // namespace pario::file
