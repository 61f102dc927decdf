// Move-only owners of the MPI handles pario creates besides communicators
// (comm::Comm): info objects, derived datatypes and RMA windows.
//
// Info and Datatype are released locally: their destructors free the
// handle (MPI_Info_free, MPI_Type_free complete locally), skipping it once
// MPI is finalized, as ~Comm does. A Window is different: MPI_Win_free is
// collective and synchronizing over the window's group, so a destructor
// run on one rank cannot free it without hanging the others. Its release
// is the explicit, collective free(), called on every rank (as
// Comm::free()); a window never freed that way is left to MPI_Finalize,
// which is also the only safe end for a window that some ranks created and
// others failed to.
//
// Thread safety: as MPI's for the handle; an owner is used by one thread
// at a time.
#pragma once

#include <mpi.h>

#include <initializer_list>
#include <utility>

#include "base/status.h"

namespace pario::comm {

// An owned MPI_Info (hints for window and file creation).
class Info {
 public:
  Info() = default;
  ~Info();
  Info(Info&& other) noexcept : info_(std::exchange(other.info_, MPI_INFO_NULL)) {}
  Info& operator=(Info&& other) noexcept;
  Info(const Info&) = delete;
  Info& operator=(const Info&) = delete;

  // Local: a new info object holding the given (key, value) hints.
  static Result<Info> create(std::initializer_list<std::pair<const char*, const char*>> hints = {});

  MPI_Info get() const { return info_; }

 private:
  MPI_Info info_ = MPI_INFO_NULL;
};

// An owned derived datatype (never a predefined one such as MPI_DOUBLE).
class Datatype {
 public:
  Datatype() = default;
  // Takes ownership of a derived type pario created.
  explicit Datatype(MPI_Datatype type) : type_(type) {}
  ~Datatype() { reset(); }
  Datatype(Datatype&& other) noexcept : type_(std::exchange(other.type_, MPI_DATATYPE_NULL)) {}
  Datatype& operator=(Datatype&& other) noexcept;
  Datatype(const Datatype&) = delete;
  Datatype& operator=(const Datatype&) = delete;

  // Where a creation call (MPI_Type_create_*) writes the new type; frees
  // the type held before.
  MPI_Datatype* out() {
    reset();
    return &type_;
  }
  // Local: MPI_Type_commit.
  Status commit();
  MPI_Datatype get() const { return type_; }

 private:
  void reset() noexcept;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// An owned RMA window, released only by the collective free() (see the
// top of this file).
class Window {
 public:
  Window() = default;
  // Takes ownership of a window pario created.
  explicit Window(MPI_Win win) : win_(win) {}
  // Frees nothing: a window not freed by free() is MPI's at finalize.
  ~Window() = default;
  Window(Window&& other) noexcept : win_(std::exchange(other.win_, MPI_WIN_NULL)) {}
  // Moving over a live window leaves that one to MPI_Finalize, as the
  // destructor does.
  Window& operator=(Window&& other) noexcept {
    if (this != &other) win_ = std::exchange(other.win_, MPI_WIN_NULL);
    return *this;
  }
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  // Where a creation call (MPI_Win_create, MPI_Win_allocate*) writes the
  // new window. The owner must be empty: a live window cannot be released
  // here.
  MPI_Win* out() { return &win_; }
  MPI_Win get() const { return win_; }
  // Collective over the window's group: MPI_Win_free (the window is null
  // afterwards). Ok on an empty owner.
  Status free();

 private:
  MPI_Win win_ = MPI_WIN_NULL;
};

}  // namespace pario::comm
