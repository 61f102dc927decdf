#include "comm/handles.h"

#include "comm/comm.h"

namespace pario::comm {
namespace {

bool mpi_finalized() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  return finalized != 0;
}

}  // namespace

Info::~Info() {
  if (info_ != MPI_INFO_NULL && !mpi_finalized()) MPI_Info_free(&info_);
}

Info& Info::operator=(Info&& other) noexcept {
  if (this != &other) {
    Info old(std::move(*this));
    info_ = std::exchange(other.info_, MPI_INFO_NULL);
  }
  return *this;
}

Result<Info> Info::create(std::initializer_list<std::pair<const char*, const char*>> hints) {
  Info info;
  PARIO_RETURN_IF_ERROR(mpi_status(MPI_Info_create(&info.info_), "MPI_Info_create"));
  for (const auto& [key, value] : hints) {
    PARIO_RETURN_IF_ERROR(mpi_status(MPI_Info_set(info.info_, key, value), "MPI_Info_set"));
  }
  return info;
}

void Datatype::reset() noexcept {
  if (type_ != MPI_DATATYPE_NULL && !mpi_finalized()) MPI_Type_free(&type_);
  type_ = MPI_DATATYPE_NULL;
}

Datatype& Datatype::operator=(Datatype&& other) noexcept {
  if (this != &other) {
    reset();
    type_ = std::exchange(other.type_, MPI_DATATYPE_NULL);
  }
  return *this;
}

Status Datatype::commit() { return mpi_status(MPI_Type_commit(&type_), "MPI_Type_commit"); }

Status Window::free() {
  if (win_ == MPI_WIN_NULL) return Status::Ok();
  return mpi_status(MPI_Win_free(&win_), "MPI_Win_free");
}

}  // namespace pario::comm
