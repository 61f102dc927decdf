#include "file/shared_file.h"

#include <cstring>


namespace pario::file {
namespace {

// A fingerprint of what every rank must agree on.
uint64_t fingerprint(const std::string& path, const SharedFileHints& h) {
  uint64_t print = 1469598103934665603ull;
  auto mix = [&](uint64_t v) { print = (print ^ v) * 1099511628211ull; };
  for (char c : path) mix(static_cast<unsigned char>(c));
  for (int64_t v : {h.hard_limit, h.soft_limit, h.request_size}) mix(static_cast<uint64_t>(v));
  return print;
}

Status check_hints(const SharedFileHints& h) {
  for (auto [name, v] : {std::pair{"hard limit", h.hard_limit}, std::pair{"soft limit", h.soft_limit},
                         std::pair{"request size", h.request_size}}) {
    if (v < -1) {
      return Status(Code::kInvalidArgument, std::string(name) + " " + std::to_string(v) +
                                                " is negative (use -1 for unknown)");
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<SharedFile>> SharedFile::begin(MPI_Comm comm, const std::string& path,
                                                      const FileSettings& settings, const Status& local) {
  std::unique_ptr<SharedFile> f(new SharedFile());
  f->settings_ = settings;
  PARIO_ASSIGN_OR_RETURN(f->comm_, comm::Comm::duplicate(comm));
  f->path_ = path;
  const Status s = path.empty() ? Status(Code::kInvalidArgument, "path is empty") : local;
  PARIO_RETURN_IF_ERROR(comm::agree(f->comm_, s).with_context(path));
  return f;
}

Result<std::unique_ptr<SharedFile>> SharedFile::create(MPI_Comm comm, const std::string& path,
                                                       const SharedFileHints& hints,
                                                       const FileSettings& settings) {
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<SharedFile> f, begin(comm, path, settings, check_hints(hints)));
  const comm::Comm& c = f->comm_;
  f->hints_ = hints;
  // Same path and hints everywhere: compare the lowest and highest print.
  uint64_t lo = fingerprint(path, hints), hi = lo;
  PARIO_RETURN_IF_ERROR(comm::mpi_status(
      MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_UINT64_T, MPI_MIN, c.get()), "MPI_Allreduce"));
  PARIO_RETURN_IF_ERROR(comm::mpi_status(
      MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_UINT64_T, MPI_MAX, c.get()), "MPI_Allreduce"));
  if (lo != hi) {
    return Status(Code::kInvalidArgument,
                  path + ": ranks passed different paths or hints to a collective create");
  }
  Result<Placement> where = place(path, hints.request_size > 0 ? hints.request_size : 0, settings);
  PARIO_RETURN_IF_ERROR(comm::agree(c, where.status()).with_context(path));
  f->where_ = std::move(where).value();

  // Files in Memory: one copy in the node's RAM. An old disk file of that
  // name goes first, or its bytes would read as spilled ones.
  const int64_t expected = hints.soft_limit > 0 ? hints.soft_limit : hints.hard_limit;
  PARIO_ASSIGN_OR_RETURN(f->ram_, fim::create_shared(c, path, expected > 0 ? expected : 0));
  if (f->ram_) {
    Status removed = c.rank() == 0 ? remove_files(f->where_) : Status::Ok();
    if (removed.code() == Code::kNotFound) removed = Status::Ok();
    PARIO_RETURN_IF_ERROR(comm::agree(c, removed));
    Result<std::unique_ptr<PrivateFile>> file =
        PrivateFile::wrap(fim::shared_device(path, f->ram_, f->where_), true, true, settings.engine);
    PARIO_RETURN_IF_ERROR(comm::agree(c, file.status()));
    f->file_ = std::move(file).value();
    return f;
  }

  // Rank 0 makes the file (truncating an old one) before anyone opens it.
  device::OpenOptions opts;
  opts.direct = settings.direct;
  opts.create = true;
  opts.truncate = true;
  std::unique_ptr<device::Device> dev;
  auto open = [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(dev, open_device(f->where_, opts));
    return Status::Ok();
  };
  PARIO_RETURN_IF_ERROR(comm::agree(c, c.rank() == 0 ? open() : Status::Ok()));
  opts.create = false;
  opts.truncate = false;
  Status opened = c.rank() == 0 ? Status::Ok() : open();
  if (opened.ok()) {
    Result<std::unique_ptr<PrivateFile>> file = PrivateFile::wrap(std::move(dev), true, true, settings.engine);
    if (file.ok()) f->file_ = std::move(file).value();
    else opened = file.status();
  }
  PARIO_RETURN_IF_ERROR(comm::agree(c, opened));
  return f;
}

Result<std::unique_ptr<SharedFile>> SharedFile::open(MPI_Comm comm, const std::string& path, bool writable,
                                                     const FileSettings& settings) {
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<SharedFile> f, begin(comm, path, settings, Status::Ok()));
  const comm::Comm& c = f->comm_;
  Result<Placement> where = place(path, 0, settings);
  PARIO_RETURN_IF_ERROR(comm::agree(c, where.status()).with_context(path));
  f->where_ = std::move(where).value();
  device::OpenOptions opts;
  opts.direct = settings.direct;
  opts.write = writable;
  Status opened;
  Result<std::unique_ptr<device::Device>> dev = open_device(f->where_, opts);
  if (!dev.ok()) {
    opened = dev.status();
  } else {
    Result<std::unique_ptr<PrivateFile>> file =
        PrivateFile::wrap(std::move(dev).value(), true, writable, settings.engine);
    if (file.ok()) f->file_ = std::move(file).value();
    else opened = file.status();
  }
  PARIO_RETURN_IF_ERROR(comm::agree(c, opened));
  return f;
}

SharedFile::~SharedFile() = default;  // file_ completes its own requests

Status SharedFile::check_limit(uint64_t offset, size_t len) const {
  if (hints_.hard_limit < 0) return Status::Ok();
  const uint64_t limit = static_cast<uint64_t>(hints_.hard_limit);
  if (offset > limit || len > limit - offset) {
    return Status(Code::kOutOfRange, path_ + ": write of " + std::to_string(len) +
                                         " bytes at offset " + std::to_string(offset) +
                                         " goes past the hard limit of " +
                                         std::to_string(limit) + " bytes");
  }
  return Status::Ok();
}

Result<PrivateFile*> SharedFile::open_file() const {
  if (closed_) return Status(Code::kState, path_ + ": the shared file is closed");
  if (!file_) {
    return Status(Code::kState, path_ + ": the shared file is suspended on this rank (resume it first)");
  }
  return file_.get();
}

Status SharedFile::read(uint64_t offset, void* buf, size_t len) {
  PARIO_ASSIGN_OR_RETURN(PrivateFile * f, open_file());
  return f->read(offset, buf, len);
}

Status SharedFile::write(uint64_t offset, const void* buf, size_t len) {
  PARIO_ASSIGN_OR_RETURN(PrivateFile * f, open_file());
  PARIO_RETURN_IF_ERROR(check_limit(offset, len));
  return f->write(offset, buf, len);
}

Result<std::shared_ptr<device::Request>> SharedFile::iread(uint64_t offset, void* buf,
                                                           size_t len) {
  PARIO_ASSIGN_OR_RETURN(PrivateFile * f, open_file());
  return f->iread(offset, buf, len);
}

Result<std::shared_ptr<device::Request>> SharedFile::iwrite(uint64_t offset, const void* buf,
                                                            size_t len) {
  PARIO_ASSIGN_OR_RETURN(PrivateFile * f, open_file());
  PARIO_RETURN_IF_ERROR(check_limit(offset, len));
  return f->iwrite(offset, buf, len);
}

Result<uint64_t> SharedFile::length() {
  PARIO_ASSIGN_OR_RETURN(PrivateFile * f, open_file());
  return f->length();
}

Status SharedFile::sync() {
  PARIO_ASSIGN_OR_RETURN(PrivateFile * f, open_file());
  return f->sync();
}

Status SharedFile::suspend() {
  PARIO_ASSIGN_OR_RETURN(PrivateFile * f, open_file());
  Status s = f->close();
  file_.reset();
  return s;
}

Status SharedFile::resume(bool writable) {
  if (closed_) return Status(Code::kState, path_ + ": the shared file is closed");
  if (file_) {
    PARIO_RETURN_IF_ERROR(file_->close());
    file_.reset();
  }
  device::OpenOptions opts;
  opts.write = writable;
  opts.direct = settings_.direct;
  std::unique_ptr<device::Device> dev;
  if (ram_) {
    dev = fim::shared_device(path_, ram_, where_);
  } else {
    PARIO_ASSIGN_OR_RETURN(dev, open_device(where_, opts));
  }
  PARIO_ASSIGN_OR_RETURN(file_, PrivateFile::wrap(std::move(dev), true, writable, settings_.engine));
  return Status::Ok();
}

Status SharedFile::close() { return close_files(/*keep=*/true); }

Status SharedFile::close_files(bool keep) {
  if (closed_) return Status(Code::kState, path_ + ": the shared file is already closed");
  Status s = file_ ? file_->close() : Status::Ok();
  file_.reset();
  closed_ = true;
  s = comm::agree(comm_, s);
  if (ram_) {
    // Every rank is done with the RAM copies; a kept file goes to disk.
    Status r = fim::close_shared(comm_, &ram_, path_, where_, keep && s.ok());
    if (s.ok()) s = r;
  }
  return s;
}

Status SharedFile::destroy() {
  const bool in_ram = static_cast<bool>(ram_);
  // Agreed: every rank has closed (or failed) when close_files() returns.
  Status s = closed_ ? Status::Ok() : close_files(/*keep=*/false);
  Status removed;
  if (comm_.rank() == 0) {
    removed = remove_files(where_);
    // A RAM file that never spilled has nothing on disk.
    if (in_ram && removed.code() == Code::kNotFound) removed = Status::Ok();
  }
  removed = comm::agree(comm_, removed);
  return s.ok() ? removed : s;
}

}  // namespace pario::file
