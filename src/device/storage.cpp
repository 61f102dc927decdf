#include "device/storage.h"

namespace pario::device {
namespace {

class PosixStorage : public Storage {
 public:
  explicit PosixStorage(bool direct) : direct_(direct) {}
  Result<std::unique_ptr<Device>> open(const std::string& path, const OpenOptions& options) override {
    OpenOptions o = options;
    o.direct = o.direct || direct_;
    return open_posix(path, o);
  }
  Status write_whole(const std::string& path, bool replace,
                     const std::function<Status(Device&)>& fill) override {
    PARIO_ASSIGN_OR_RETURN(NewFile made, NewFile::create(path));
    PARIO_RETURN_IF_ERROR(fill(made.device()).with_context(path));
    return made.publish(replace);
  }

 private:
  const bool direct_;
};

}  // namespace

std::shared_ptr<Storage> posix_storage(bool direct) { return std::make_shared<PosixStorage>(direct); }

}  // namespace pario::device
