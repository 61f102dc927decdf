#include "file/mpiio_device.h"

#include <mpi.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <climits>
#include <mutex>
#include <optional>

#include "comm/comm.h"

namespace pario::file {
namespace {

// MPI counts are int: one attempt moves at most this many bytes, and the
// Device retry loop asks again for the rest.
constexpr size_t kMaxAttempt = size_t{1} << 30;

class MpiioDevice final : public device::Device {
 public:
  MpiioDevice(std::string path, MPI_File fh, bool serialize)
      : Device(std::move(path)), fh_(fh), serialize_(serialize) {}
  ~MpiioDevice() override { (void)close(); }

  Status sync() override {
    auto lock = guard();
    if (fh_ == MPI_FILE_NULL) return closed();
    return mpi(MPI_File_sync(fh_), "MPI_File_sync");
  }

  Result<uint64_t> size() override {
    auto lock = guard();
    if (fh_ == MPI_FILE_NULL) return closed();
    MPI_Offset n = 0;
    PARIO_RETURN_IF_ERROR(mpi(MPI_File_get_size(fh_, &n), "MPI_File_get_size"));
    return static_cast<uint64_t>(n);
  }

  Status truncate(uint64_t length) override {
    auto lock = guard();
    if (fh_ == MPI_FILE_NULL) return closed();
    return mpi(MPI_File_set_size(fh_, static_cast<MPI_Offset>(length)),
               "MPI_File_set_size");
  }

  Status close() override {
    auto lock = guard();
    if (fh_ == MPI_FILE_NULL) return Status::Ok();
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) {  // MPI took the handle down with it
      fh_ = MPI_FILE_NULL;
      return Status(Code::kState, path() + ": MPI was finalized before the file was closed");
    }
    return mpi(MPI_File_close(&fh_), "MPI_File_close");
  }

 protected:
  Result<size_t> read_some(uint64_t offset, void* buf, size_t len) override {
    auto lock = guard();
    if (fh_ == MPI_FILE_NULL) return closed();
    MPI_Status st;
    PARIO_RETURN_IF_ERROR(mpi(MPI_File_read_at(fh_, static_cast<MPI_Offset>(offset), buf,
                                               attempt(len), MPI_BYTE, &st),
                              "MPI_File_read_at"));
    return moved(st);
  }

  Result<size_t> write_some(uint64_t offset, const void* buf, size_t len) override {
    auto lock = guard();
    if (fh_ == MPI_FILE_NULL) return closed();
    MPI_Status st;
    PARIO_RETURN_IF_ERROR(mpi(MPI_File_write_at(fh_, static_cast<MPI_Offset>(offset), buf,
                                                attempt(len), MPI_BYTE, &st),
                              "MPI_File_write_at"));
    return moved(st);
  }

  int64_t free_bytes() const override {
    struct statvfs sv;
    const std::string& p = path();
    const size_t slash = p.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : p.substr(0, slash + 1);
    if (::statvfs(dir.c_str(), &sv) != 0) return -1;
    return static_cast<int64_t>(sv.f_bavail) * static_cast<int64_t>(sv.f_frsize);
  }

 private:
  static Status closed() { return Status(Code::kState, "device is closed"); }
  static int attempt(size_t len) { return static_cast<int>(std::min(len, kMaxAttempt)); }
  static Result<size_t> moved(const MPI_Status& st) {
    int n = 0;
    MPI_Get_count(&st, MPI_BYTE, &n);
    if (n == MPI_UNDEFINED || n < 0) return Status(Code::kIo, "MPI-IO reported no byte count");
    return static_cast<size_t>(n);
  }
  Status mpi(int rc, const char* call) const {
    if (rc == MPI_SUCCESS) return Status::Ok();
    int error_class = MPI_ERR_OTHER;
    MPI_Error_class(rc, &error_class);
    if (error_class == MPI_ERR_NO_SPACE || error_class == MPI_ERR_QUOTA) {
      Status s = comm::mpi_status(rc, call);
      return Status(Code::kNoSpace, path() + ": " + s.message());
    }
    return comm::mpi_status(rc, call).with_context(path());
  }
  std::optional<std::unique_lock<std::mutex>> guard() {
    if (!serialize_) return std::nullopt;
    return std::unique_lock<std::mutex>(mu_);
  }

  MPI_File fh_;
  const bool serialize_;
  std::mutex mu_;
};

}  // namespace

Result<std::unique_ptr<device::Device>> open_mpiio(const std::string& path,
                                                   const device::OpenOptions& o) {
  int up = 0, down = 0;
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  if (!up || down) {
    return Status(Code::kState, path + ": the mpiio backend needs MPI (call pario_init first)");
  }
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  if (level < MPI_THREAD_SERIALIZED) {
    return Status(Code::kUnsupported,
                  path + ": the mpiio backend needs MPI initialized with MPI_THREAD_SERIALIZED "
                         "or MPI_THREAD_MULTIPLE (asynchronous requests call MPI from worker threads)");
  }
  // Create, truncate and check the file the POSIX way (mode 0600, no link
  // followed, a regular file), then let MPI open what is there.
  device::OpenOptions posix = o;
  posix.direct = false;
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<device::Device> checked, device::open_posix(path, posix));
  struct stat was;
  if (::fstat(checked->native_fd(), &was) != 0) return errno_status(errno, path + ": fstat");

  int amode = (o.read && o.write) ? MPI_MODE_RDWR : (o.write ? MPI_MODE_WRONLY : MPI_MODE_RDONLY);
  MPI_File fh = MPI_FILE_NULL;
  int rc = MPI_File_open(MPI_COMM_SELF, path.c_str(), amode, MPI_INFO_NULL, &fh);
  if (rc != MPI_SUCCESS) return comm::mpi_status(rc, "MPI_File_open").with_context(path);
  // MPI opens by name and follows links: the name must still be the file
  // checked above (held open meanwhile), or a link swapped in since would
  // have pario write through it.
  struct stat is;
  if (::lstat(path.c_str(), &is) != 0 || !S_ISREG(is.st_mode) || is.st_dev != was.st_dev || is.st_ino != was.st_ino) {
    MPI_File_close(&fh);
    return Status(Code::kPermission, path + ": the file changed while MPI opened it (a symbolic link swapped in?)");
  }
  PARIO_RETURN_IF_ERROR(checked->close());
  // Errors are returned, not fatal (the default for files, made explicit).
  MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
  return std::unique_ptr<device::Device>(
      new MpiioDevice(path, fh, level < MPI_THREAD_MULTIPLE));
}

}  // namespace pario::file
