#include "file/storage.h"

#include "file/mpiio_device.h"

namespace pario::file {
namespace {

// O_DIRECT and MPI-IO for the files a store opens; whole new files are
// made as device::posix_storage makes them.
class SettingsStorage : public device::Storage {
 public:
  explicit SettingsStorage(const FileSettings& settings)
      : mpiio_(settings.backend == FileBackendChoice::kMpiio),
        posix_(device::posix_storage(settings.direct)) {}

  Result<std::unique_ptr<device::Device>> open(const std::string& path,
                                               const device::OpenOptions& options) override {
    return mpiio_ ? open_mpiio(path, options) : posix_->open(path, options);
  }
  Status write_whole(const std::string& path, bool replace,
                     const std::function<Status(device::Device&)>& fill) override {
    return posix_->write_whole(path, replace, fill);
  }

 private:
  const bool mpiio_;
  std::shared_ptr<device::Storage> posix_;
};

}  // namespace

Result<std::shared_ptr<device::Storage>> storage_for(const std::string& store, const FileSettings& settings) {
  if (settings.backend == FileBackendChoice::kStriped && settings.scratch_dirs.size() > 1) {
    return Status(Code::kUnsupported,
                  store + ": PARIO_FILE_BACKEND=striped would put a disk array's stripes in other "
                          "scratch directories, outside its Zarr store; use posix or mpiio for disk arrays");
  }
  return std::shared_ptr<device::Storage>(std::make_shared<SettingsStorage>(settings));
}

}  // namespace pario::file
