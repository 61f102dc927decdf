#include "file/storage.h"

#include "base/stats.h"
#include "device/engine_device.h"
#include "file/fim.h"
#include "file/mpiio_device.h"

namespace pario::file {
namespace {

// O_DIRECT and MPI-IO for the files a store opens, or RAM; whole new
// files on disk are made as device::posix_storage makes them.
class SettingsStorage : public device::Storage {
 public:
  SettingsStorage(const FileSettings& settings, bool ram, device::AsyncEngine* through)
      : mpiio_(settings.backend == FileBackendChoice::kMpiio),
        ram_(ram),
        through_(through),
        posix_(device::posix_storage(settings.direct)) {}

  Result<std::unique_ptr<device::Device>> open(const std::string& path,
                                               const device::OpenOptions& options) override {
    if (ram_) {
      PARIO_ASSIGN_OR_RETURN(std::unique_ptr<device::Device> in_ram,
                             fim::open_store_file(path, options, disk(path)));
      if (in_ram) return in_ram;
    }
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<device::Device> on_disk,
                           mpiio_ ? open_mpiio(path, options) : posix_->open(path, options));
    if (through_) return device::through_engine(std::move(on_disk), through_);
    return on_disk;
  }
  Status write_whole(const std::string& path, bool replace,
                     const std::function<Status(device::Device&)>& fill) override {
    if (ram_ && !fim::store_file_on_disk(path, disk(path))) {
      return fim::write_store_file(path, replace, fill, disk(path));
    }
    return posix_->write_whole(path, replace, fill);
  }
  void forget(const std::string& dir) override {
    if (ram_) fim::forget_store(dir);
  }

 private:
  // A store file's place on disk: the path itself (never striped, see
  // file/storage.h); its RAM file spills beside it (file/fim.h).
  Placement disk(const std::string& path) const {
    Placement where;
    where.paths.push_back(path);
    where.mpiio = mpiio_;
    return where;
  }

  const bool mpiio_, ram_;
  device::AsyncEngine* const through_;  // null: transfers call the device
  std::shared_ptr<device::Storage> posix_;
};

void note_fim(const std::string& store, const std::string& what) {
  if (StatsRegistry::global().enabled()) StatsRegistry::global().set_note("fim " + store, what);
}

}  // namespace

Status check_store_backend(const std::string& store, const FileSettings& settings) {
  if (settings.backend == FileBackendChoice::kStriped && settings.scratch_dirs.size() > 1) {
    return Status(Code::kUnsupported,
                  store + ": PARIO_FILE_BACKEND=striped would put a disk array's stripes in other "
                          "scratch directories, outside its Zarr store; use posix or mpiio for disk arrays");
  }
  return Status::Ok();
}

std::shared_ptr<device::Storage> storage_for(const std::string& store, const FileSettings& settings,
                                             bool one_node, device::AsyncEngine* through) {
  bool ram = fim::wants_ram(store);
  if (ram && !one_node) {
    ram = false;
    note_fim(store, "on disk: the disk array's group spans nodes");
  } else if (ram) {
    note_fim(store, "in RAM: every new file of the store, one copy for the node");
  }
  return std::make_shared<SettingsStorage>(settings, ram, through);
}

}  // namespace pario::file
