! Fortran module `pario`: the native C API through iso_c_binding.
!
! Every procedure takes `integer, intent(out), optional :: ierr` last. It
! receives the status code (PARIO_OK = 0); when it is absent, a failure
! prints the message (which call, path, offset, why) and stops the program
! with `error stop`. Offsets and sizes are 64-bit (integer(int64)). File
! buffers may be of any type and rank; bytes are counted from the buffer's
! descriptor. (For character data pass a whole variable or an array of
! character(len=1): gfortran 12 describes a literal as 1 byte long and a
! substring as long as its whole variable.)
! Blocking calls take any array section (the compiler copies a strided
! one); nonblocking calls need contiguous memory, since pario keeps using
! it after the call returns, and refuse a strided section.
!
! Global and disk arrays hold one element type, chosen at creation:
! PARIO_TYPE_DOUBLE (real(real64), the default), PARIO_TYPE_FLOAT
! (real(real32)), PARIO_TYPE_INT8, _INT16, _INT32, _INT64 (integer(int8)
! .. integer(int64)), PARIO_TYPE_COMPLEX_DOUBLE (complex(real64)) or
! PARIO_TYPE_COMPLEX_FLOAT (complex(real32)). Fortran has no unsigned
! integers: an array of PARIO_TYPE_UINT8 .. _UINT64 takes buffers of the
! signed integer of the same size, whose bits it holds unchanged. Every
! buffer, fill value and alpha must be of the array's type: the module
! reads the buffer's type from its descriptor (bindings/fortran/buffer.c)
! and refuses another one, and a buffer smaller than its section.
!
! Global arrays are Fortran-ordered: an array created with dims (m, n) is
! indexed (i, j) with 1 <= i <= m, 1 <= j <= n, and a section lo(:)..hi(:)
! (inclusive, 1-based) moves to and from a Fortran array of shape
! hi - lo + 1, column-major. (pario stores it row-major with the
! dimensions reversed, which is the same memory.)
module pario
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: int64, real64, error_unit
  implicit none
  private

  integer, parameter, public :: PARIO_OK = 0
  integer, parameter, public :: PARIO_READ = 1, PARIO_WRITE = 2, PARIO_RDWR = 3, &
                                PARIO_CREATE = 4, PARIO_TRUNCATE = 8, PARIO_EXCLUSIVE = 16, &
                                PARIO_DIRECT = 32
  integer(int64), parameter, public :: PARIO_UNKNOWN = -1_int64
  ! Collective I/O (pario_decomp_*): index orders of blocks, file byte orders.
  integer, parameter, public :: PARIO_ORDER_C = 0, PARIO_ORDER_FORTRAN = 1
  integer, parameter, public :: PARIO_BYTE_ORDER_NATIVE = 0, PARIO_BYTE_ORDER_LITTLE = 1, PARIO_BYTE_ORDER_BIG = 2
  ! Where a transfer converts (PARIO_COLLECTIVE_CONVERT decides for the module's calls).
  integer, parameter, public :: PARIO_CONVERT_DEFAULT = 0, PARIO_CONVERT_AUTO = 1, PARIO_CONVERT_SENDER = 2, &
                                PARIO_CONVERT_AGGREGATOR = 3
  integer, parameter, public :: PARIO_TYPE_DOUBLE = 1, PARIO_TYPE_FLOAT = 2, PARIO_TYPE_INT32 = 3, &
                                PARIO_TYPE_INT64 = 4, PARIO_TYPE_COMPLEX_DOUBLE = 5, PARIO_TYPE_INT8 = 6, &
                                PARIO_TYPE_UINT8 = 7, PARIO_TYPE_INT16 = 8, PARIO_TYPE_UINT16 = 9, &
                                PARIO_TYPE_UINT32 = 10, PARIO_TYPE_UINT64 = 11, PARIO_TYPE_COMPLEX_FLOAT = 12
  ! Status codes (pario/status.h): what ierr receives when a call fails.
  integer, parameter, public :: PARIO_ERR_INVALID_ARGUMENT = 1, PARIO_ERR_STATE = 2, PARIO_ERR_NOT_FOUND = 3, &
                                PARIO_ERR_EXISTS = 4, PARIO_ERR_OUT_OF_RANGE = 5, PARIO_ERR_NO_MEMORY = 6, &
                                PARIO_ERR_NO_SPACE = 7, PARIO_ERR_IO = 8, PARIO_ERR_MPI = 9, &
                                PARIO_ERR_UNSUPPORTED = 10, PARIO_ERR_CORRUPT = 11, PARIO_ERR_CANCELED = 12, &
                                PARIO_ERR_REMOTE = 13, PARIO_ERR_INTERNAL = 14, PARIO_ERR_PERMISSION = 15
  ! The module's own refusals, in the kind refuse() takes.
  integer(c_int), parameter :: INVALID_ARGUMENT = PARIO_ERR_INVALID_ARGUMENT
  integer, parameter :: PARIO_ARRAY_MAX_DIMS = 7

  type, public :: pario_file
    type(c_ptr) :: h = c_null_ptr
  end type
  type, public :: pario_shared_file
    type(c_ptr) :: h = c_null_ptr
  end type
  type, public :: pario_request
    type(c_ptr) :: h = c_null_ptr
  end type
  type, public :: pario_group
    type(c_ptr) :: h = c_null_ptr
  end type
  type, public :: pario_array
    type(c_ptr) :: h = c_null_ptr
    integer :: ndim = 0
    integer :: type = 0  ! PARIO_TYPE_*
  end type
  type, public :: pario_counter
    type(c_ptr) :: h = c_null_ptr
  end type
  type, public :: pario_disk_array
    type(c_ptr) :: h = c_null_ptr
    integer :: ndim = 0
    integer :: type = 0  ! PARIO_TYPE_*
  end type

  type, public :: pario_decomp
    type(c_ptr) :: h = c_null_ptr
  end type
  ! pario_decomp_hints, field for field.
  type, bind(C) :: decomp_hints
    integer(c_int) :: aggregators
    type(c_ptr) :: aggregator_ranks
    integer(c_int64_t) :: buffer_size, align
    integer(c_int) :: byte_order
    integer(c_int) :: convert
  end type

  ! A buffer as its C descriptor describes it (see buffer.c).
  type :: buffer_facts
    integer(c_int) :: type = 0  ! PARIO_TYPE_*, 0 when pario has none
    integer(c_int64_t) :: elem_bytes = 0, elements = 0
    type(c_ptr) :: base = c_null_ptr
    logical :: contiguous = .false.
  end type

  public :: pario_init, pario_finalize, pario_rank, pario_size, pario_error_message
  public :: pario_file_open, pario_file_close, pario_file_delete, pario_file_write, pario_file_read, &
            pario_file_iwrite, pario_file_iread, pario_file_length, pario_wait, pario_test
  public :: pario_shared_file_create, pario_shared_file_destroy, pario_shared_file_write, &
            pario_shared_file_read, pario_shared_file_open, pario_shared_file_close
  public :: pario_group_world, pario_group_barrier
  public :: pario_array_create, pario_array_destroy, pario_array_put, pario_array_get, &
            pario_array_acc, pario_array_fill, pario_array_sync, pario_array_distribution, &
            pario_array_iget, pario_array_iput
  public :: pario_counter_create, pario_counter_next, pario_counter_reset, pario_counter_destroy
  public :: pario_disk_array_create, pario_disk_array_open, pario_disk_array_close, &
            pario_disk_array_delete, pario_disk_array_write, pario_disk_array_read, &
            pario_disk_array_iwrite, pario_disk_array_iread, pario_disk_array_shape
  public :: pario_decomp_create_blocks, pario_decomp_create_indices, pario_decomp_create_keys, &
            pario_decomp_free, pario_decomp_info, &
            pario_decomp_write, pario_decomp_read, pario_decomp_iwrite, pario_decomp_iread

  !> One block (starts(:), counts(:)) or several (starts(:, b), counts(:, b)).
  interface pario_decomp_create_blocks
    module procedure decomp_create_block, decomp_create_blocks
  end interface

  interface
    integer(c_int) function c_init() bind(C, name="pario_init")
      import :: c_int
    end function
    integer(c_int) function c_finalize() bind(C, name="pario_finalize")
      import :: c_int
    end function
    integer(c_int) function c_world_rank(r) bind(C, name="pario_world_rank")
      import :: c_int
      integer(c_int), intent(out) :: r
    end function
    integer(c_int) function c_world_size(n) bind(C, name="pario_world_size")
      import :: c_int
      integer(c_int), intent(out) :: n
    end function
    integer(c_int) function c_report_error(code, call, message) bind(C, name="pario_report_error")
      import :: c_int, c_char
      integer(c_int), value :: code
      character(kind=c_char), intent(in) :: call(*), message(*)
    end function
    integer(c_int) function c_buffer(buf, type, elem_bytes, elements, base) bind(C, name="pario_f_buffer")
      import :: c_int, c_int64_t, c_ptr
      type(*), dimension(..), intent(in) :: buf
      integer(c_int), intent(out) :: type
      integer(c_int64_t), intent(out) :: elem_bytes, elements
      type(c_ptr), intent(out) :: base
    end function
    integer(c_size_t) function c_last_error(buf, len) bind(C, name="pario_last_error_message")
      import :: c_char, c_size_t
      character(kind=c_char), intent(out) :: buf(*)
      integer(c_size_t), value :: len
    end function
    integer(c_int) function c_file_open(path, mode, f) bind(C, name="pario_file_open")
      import :: c_char, c_int, c_ptr
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: mode
      type(c_ptr), intent(out) :: f
    end function
    integer(c_int) function c_file_close(f) bind(C, name="pario_file_close")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: f
    end function
    integer(c_int) function c_file_delete(path) bind(C, name="pario_file_delete")
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: path(*)
    end function
    integer(c_int) function c_file_write(f, off, buf, n) bind(C, name="pario_file_write")
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: f, buf
      integer(c_int64_t), value :: off
      integer(c_size_t), value :: n
    end function
    integer(c_int) function c_file_read(f, off, buf, n) bind(C, name="pario_file_read")
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: f, buf
      integer(c_int64_t), value :: off
      integer(c_size_t), value :: n
    end function
    integer(c_int) function c_file_iwrite(f, off, buf, n, r) bind(C, name="pario_file_iwrite")
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: f, buf
      integer(c_int64_t), value :: off
      integer(c_size_t), value :: n
      type(c_ptr), intent(out) :: r
    end function
    integer(c_int) function c_file_iread(f, off, buf, n, r) bind(C, name="pario_file_iread")
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: f, buf
      integer(c_int64_t), value :: off
      integer(c_size_t), value :: n
      type(c_ptr), intent(out) :: r
    end function
    integer(c_int) function c_file_length(f, n) bind(C, name="pario_file_length")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: f
      integer(c_int64_t), intent(out) :: n
    end function
    integer(c_int) function c_wait(r) bind(C, name="pario_request_wait")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: r
    end function
    integer(c_int) function c_test(r, done) bind(C, name="pario_request_test")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: r
      integer(c_int), intent(out) :: done
    end function
    integer(c_int) function c_sf_create(g, path, hard, soft, req, f) bind(C, name="pario_shared_file_create")
      import :: c_int, c_ptr, c_char, c_int64_t
      type(c_ptr), value :: g
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int64_t), value :: hard, soft, req
      type(c_ptr), intent(out) :: f
    end function
    integer(c_int) function c_sf_destroy(f) bind(C, name="pario_shared_file_destroy")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: f
    end function
    integer(c_int) function c_sf_write(f, off, buf, n) bind(C, name="pario_shared_file_write")
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: f, buf
      integer(c_int64_t), value :: off
      integer(c_size_t), value :: n
    end function
    integer(c_int) function c_sf_read(f, off, buf, n) bind(C, name="pario_shared_file_read")
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: f, buf
      integer(c_int64_t), value :: off
      integer(c_size_t), value :: n
    end function
    integer(c_int) function c_sf_open(g, path, mode, f) bind(C, name="pario_shared_file_open")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: g
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: mode
      type(c_ptr), intent(out) :: f
    end function
    integer(c_int) function c_sf_close(f) bind(C, name="pario_shared_file_close")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: f
    end function
    integer(c_int) function c_decomp_create_blocks(g, file_type, ndim, dims, order, nblocks, starts, counts, &
                                                   hints, d) bind(C, name="pario_decomp_create_blocks")
      import :: c_int, c_ptr, c_int64_t, decomp_hints
      type(c_ptr), value :: g
      integer(c_int), value :: file_type, ndim, order, nblocks
      integer(c_int64_t), intent(in) :: dims(*), starts(*), counts(*)
      type(decomp_hints), intent(in) :: hints
      type(c_ptr), intent(out) :: d
    end function
    integer(c_int) function c_decomp_create_indices(g, file_type, global_size, n, indices, hints, d) &
        bind(C, name="pario_decomp_create_indices")
      import :: c_int, c_ptr, c_int64_t, decomp_hints
      type(c_ptr), value :: g
      integer(c_int), value :: file_type
      integer(c_int64_t), value :: global_size, n
      integer(c_int64_t), intent(in) :: indices(*)
      type(decomp_hints), intent(in) :: hints
      type(c_ptr), intent(out) :: d
    end function
    integer(c_int) function c_decomp_create_keys(g, file_type, n, keys, hints, positions, global_size, d) &
        bind(C, name="pario_decomp_create_keys")
      import :: c_int, c_ptr, c_int64_t, decomp_hints
      type(c_ptr), value :: g
      integer(c_int), value :: file_type
      integer(c_int64_t), value :: n
      integer(c_int64_t), intent(in) :: keys(*)
      type(decomp_hints), intent(in) :: hints
      integer(c_int64_t), intent(out) :: positions(*), global_size
      type(c_ptr), intent(out) :: d
    end function
    integer(c_int) function c_decomp_free(d) bind(C, name="pario_decomp_free")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: d
    end function
    integer(c_int) function c_decomp_info(d, global_size, local_count, aggregators, is_aggregator) &
        bind(C, name="pario_decomp_info")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d
      integer(c_int64_t), intent(out) :: global_size, local_count
      integer(c_int), intent(out) :: aggregators, is_aggregator
    end function
    integer(c_int) function c_decomp_write(d, f, off, mem_type, buf) bind(C, name="pario_decomp_write")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, f, buf
      integer(c_int64_t), value :: off
      integer(c_int), value :: mem_type
    end function
    integer(c_int) function c_decomp_read(d, f, off, mem_type, buf) bind(C, name="pario_decomp_read")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, f, buf
      integer(c_int64_t), value :: off
      integer(c_int), value :: mem_type
    end function
    integer(c_int) function c_decomp_iwrite(d, f, off, mem_type, buf, r) bind(C, name="pario_decomp_iwrite")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, f, buf
      integer(c_int64_t), value :: off
      integer(c_int), value :: mem_type
      type(c_ptr), intent(out) :: r
    end function
    integer(c_int) function c_decomp_iread(d, f, off, mem_type, buf, r) bind(C, name="pario_decomp_iread")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, f, buf
      integer(c_int64_t), value :: off
      integer(c_int), value :: mem_type
      type(c_ptr), intent(out) :: r
    end function
    integer(c_int) function c_group_world(g) bind(C, name="pario_group_world")
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: g
    end function
    integer(c_int) function c_group_barrier(g) bind(C, name="pario_group_barrier")
      import :: c_int, c_ptr
      type(c_ptr), value :: g
    end function
    integer(c_int) function c_array_create(g, name, type, ndim, dims, a) bind(C, name="pario_array_create")
      import :: c_int, c_ptr, c_char, c_int64_t
      type(c_ptr), value :: g
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: type, ndim
      integer(c_int64_t), intent(in) :: dims(*)
      type(c_ptr), intent(out) :: a
    end function
    integer(c_int) function c_array_destroy(a) bind(C, name="pario_array_destroy")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: a
    end function
    integer(c_int) function c_array_put(a, start, count, buf, ld) bind(C, name="pario_array_put")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: a, buf, ld
      integer(c_int64_t), intent(in) :: start(*), count(*)
    end function
    integer(c_int) function c_array_get(a, start, count, buf, ld) bind(C, name="pario_array_get")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: a, buf, ld
      integer(c_int64_t), intent(in) :: start(*), count(*)
    end function
    integer(c_int) function c_array_acc(a, start, count, buf, ld, alpha) bind(C, name="pario_array_acc")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: a, buf, ld, alpha
      integer(c_int64_t), intent(in) :: start(*), count(*)
    end function
    integer(c_int) function c_array_iget(a, start, count, buf, ld, r) bind(C, name="pario_array_iget")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: a, buf, ld
      integer(c_int64_t), intent(in) :: start(*), count(*)
      type(c_ptr), intent(out) :: r
    end function
    integer(c_int) function c_array_iput(a, start, count, buf, ld, r) bind(C, name="pario_array_iput")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: a, buf, ld
      integer(c_int64_t), intent(in) :: start(*), count(*)
      type(c_ptr), intent(out) :: r
    end function
    integer(c_int) function c_array_fill(a, value) bind(C, name="pario_array_fill")
      import :: c_int, c_ptr
      type(c_ptr), value :: a, value
    end function
    integer(c_int) function c_array_sync(a) bind(C, name="pario_array_sync")
      import :: c_int, c_ptr
      type(c_ptr), value :: a
    end function
    integer(c_int) function c_array_distribution(a, rank, start, count) bind(C, name="pario_array_distribution")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: a
      integer(c_int), value :: rank
      integer(c_int64_t), intent(out) :: start(*), count(*)
    end function
    integer(c_int) function c_counter_create(g, c) bind(C, name="pario_counter_create")
      import :: c_int, c_ptr
      type(c_ptr), value :: g
      type(c_ptr), intent(out) :: c
    end function
    integer(c_int) function c_counter_next(c, v) bind(C, name="pario_counter_next")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: c
      integer(c_int64_t), intent(out) :: v
    end function
    integer(c_int) function c_counter_reset(c) bind(C, name="pario_counter_reset")
      import :: c_int, c_ptr
      type(c_ptr), value :: c
    end function
    integer(c_int) function c_counter_destroy(c) bind(C, name="pario_counter_destroy")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: c
    end function
    integer(c_int) function c_da_create(g, path, type, ndim, dims, chunk, d) bind(C, name="pario_disk_array_create")
      import :: c_int, c_ptr, c_char, c_int64_t
      type(c_ptr), value :: g, chunk
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: type, ndim
      integer(c_int64_t), intent(in) :: dims(*)
      type(c_ptr), intent(out) :: d
    end function
    integer(c_int) function c_da_open(g, path, mode, d) bind(C, name="pario_disk_array_open")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: g
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: mode
      type(c_ptr), intent(out) :: d
    end function
    integer(c_int) function c_da_info(d, type, ndim, dims, chunks) bind(C, name="pario_disk_array_info")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, chunks
      integer(c_int), intent(out) :: type, ndim
      integer(c_int64_t), intent(out) :: dims(*)
    end function
    integer(c_int) function c_da_close(d) bind(C, name="pario_disk_array_close")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: d
    end function
    integer(c_int) function c_da_delete(g, path) bind(C, name="pario_disk_array_delete")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: g
      character(kind=c_char), intent(in) :: path(*)
    end function
    integer(c_int) function c_da_write(d, a, ga_start, count, disk_start) bind(C, name="pario_disk_array_write")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, a
      integer(c_int64_t), intent(in) :: ga_start(*), count(*), disk_start(*)
    end function
    integer(c_int) function c_da_read(d, a, ga_start, count, disk_start) bind(C, name="pario_disk_array_read")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, a
      integer(c_int64_t), intent(in) :: ga_start(*), count(*), disk_start(*)
    end function
    integer(c_int) function c_da_iwrite(d, a, ga_start, count, disk_start, perm, r) &
        bind(C, name="pario_disk_array_iwrite")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, a
      integer(c_int64_t), intent(in) :: ga_start(*), count(*), disk_start(*)
      integer(c_int), intent(in) :: perm(*)
      type(c_ptr), intent(out) :: r
    end function
    integer(c_int) function c_da_iread(d, a, ga_start, count, disk_start, perm, r) &
        bind(C, name="pario_disk_array_iread")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, a
      integer(c_int64_t), intent(in) :: ga_start(*), count(*), disk_start(*)
      integer(c_int), intent(in) :: perm(*)
      type(c_ptr), intent(out) :: r
    end function
  end interface

contains

  ! The status to ierr, or (ierr absent) a message and a stop on failure.
  subroutine finish(rc, ierr)
    integer(c_int), intent(in) :: rc
    integer, intent(out), optional :: ierr
    if (present(ierr)) then
      ierr = int(rc)
    else if (rc /= 0) then
      write (error_unit, '(a)') 'pario: ' // trim(pario_error_message())
      error stop 1
    end if
  end subroutine

  ! Records a failure the module found itself as the thread's last error
  ! (so pario_error_message reports it like any other) and returns code.
  integer(c_int) function refuse(code, call, message) result(rc)
    integer(c_int), intent(in) :: code
    character(*), intent(in) :: call, message
    rc = c_report_error(code, cstr(call), cstr(message))
  end function

  type(buffer_facts) function facts(buf) result(b)
    type(*), dimension(..), intent(in) :: buf
    b%contiguous = c_buffer(buf, b%type, b%elem_bytes, b%elements, b%base) /= 0
  end function

  function type_name(type) result(name)
    integer, intent(in) :: type
    character(len=:), allocatable :: name
    select case (type)
    case (PARIO_TYPE_DOUBLE); name = 'real(real64)'
    case (PARIO_TYPE_FLOAT); name = 'real(real32)'
    case (PARIO_TYPE_INT32); name = 'integer(int32)'
    case (PARIO_TYPE_INT64); name = 'integer(int64)'
    case (PARIO_TYPE_COMPLEX_DOUBLE); name = 'complex(real64)'
    case (PARIO_TYPE_INT8); name = 'integer(int8)'
    case (PARIO_TYPE_INT16); name = 'integer(int16)'
    case (PARIO_TYPE_UINT8); name = 'uint8 (integer(int8) in Fortran)'
    case (PARIO_TYPE_UINT16); name = 'uint16 (integer(int16) in Fortran)'
    case (PARIO_TYPE_UINT32); name = 'uint32 (integer(int32) in Fortran)'
    case (PARIO_TYPE_UINT64); name = 'uint64 (integer(int64) in Fortran)'
    case (PARIO_TYPE_COMPLEX_FLOAT); name = 'complex(real32)'
    case default; name = 'a type pario arrays do not hold'
    end select
  end function

  ! Whether a buffer of Fortran type btype (as buffer.c reports it) may
  ! hold elements of an array of type atype: the same type, or for an
  ! unsigned array the signed integer of its size (Fortran has no other).
  logical function holds(btype, atype)
    integer, intent(in) :: btype, atype
    select case (atype)
    case (PARIO_TYPE_UINT8); holds = btype == PARIO_TYPE_INT8
    case (PARIO_TYPE_UINT16); holds = btype == PARIO_TYPE_INT16
    case (PARIO_TYPE_UINT32); holds = btype == PARIO_TYPE_INT32
    case (PARIO_TYPE_UINT64); holds = btype == PARIO_TYPE_INT64
    case default; holds = btype == atype
    end select
  end function

  ! A nonblocking call keeps using the memory after it returns: a strided
  ! section would be a temporary copy, gone by then.
  integer(c_int) function need_contiguous(call, b) result(rc)
    character(*), intent(in) :: call
    type(buffer_facts), intent(in) :: b
    rc = 0
    if (.not. b%contiguous) rc = refuse(INVALID_ARGUMENT, call, 'the buffer is a strided section; a nonblocking &
                                        &call needs contiguous memory (copy it to a contiguous array first)')
  end function

  function cstr(s) result(c)
    character(*), intent(in) :: s
    character(kind=c_char, len=len_trim(s) + 1) :: c
    c = trim(s) // c_null_char
  end function

  !> The message of the last failed call on this thread.
  function pario_error_message() result(msg)
    character(len=1024) :: msg
    character(kind=c_char) :: buf(1024)
    integer(c_size_t) :: n, i
    n = c_last_error(buf, int(size(buf), c_size_t))
    msg = ' '
    do i = 1, min(n, int(len(msg), c_size_t))
      msg(i:i) = buf(i)
    end do
  end function

  subroutine pario_init(ierr)
    integer, intent(out), optional :: ierr
    call finish(c_init(), ierr)
  end subroutine

  subroutine pario_finalize(ierr)
    integer, intent(out), optional :: ierr
    call finish(c_finalize(), ierr)
  end subroutine

  !> This process's rank in the world, 0-based as in MPI.
  integer function pario_rank()
    integer(c_int) :: r, rc
    rc = c_world_rank(r)
    pario_rank = int(r)
  end function

  integer function pario_size()
    integer(c_int) :: n, rc
    rc = c_world_size(n)
    pario_size = int(n)
  end function

  ! ---- private files: buffers of any type and rank (contiguous) ----

  subroutine pario_file_open(f, path, mode, ierr)
    type(pario_file), intent(out) :: f
    character(*), intent(in) :: path
    integer, intent(in) :: mode
    integer, intent(out), optional :: ierr
    call finish(c_file_open(cstr(path), int(mode, c_int), f%h), ierr)
  end subroutine

  subroutine pario_file_close(f, ierr)
    type(pario_file), intent(inout) :: f
    integer, intent(out), optional :: ierr
    call finish(c_file_close(f%h), ierr)
  end subroutine

  subroutine pario_file_delete(path, ierr)
    character(*), intent(in) :: path
    integer, intent(out), optional :: ierr
    call finish(c_file_delete(cstr(path)), ierr)
  end subroutine

  !> Writes all of buf (bytes counted from its type and size) at offset.
  subroutine pario_file_write(f, offset, buf, ierr)
    type(pario_file), intent(in) :: f
    integer(int64), intent(in) :: offset
    type(*), dimension(..), contiguous, intent(in) :: buf
    integer, intent(out), optional :: ierr
    type(buffer_facts) :: b
    b = facts(buf)
    call finish(c_file_write(f%h, offset, b%base, bytes(b)), ierr)
  end subroutine

  subroutine pario_file_read(f, offset, buf, ierr)
    type(pario_file), intent(in) :: f
    integer(int64), intent(in) :: offset
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(out), optional :: ierr
    type(buffer_facts) :: b
    b = facts(buf)
    call finish(c_file_read(f%h, offset, b%base, bytes(b)), ierr)
  end subroutine

  !> Starts a write; buf must stay unchanged until pario_wait(req).
  subroutine pario_file_iwrite(f, offset, buf, req, ierr)
    type(pario_file), intent(in) :: f
    integer(int64), intent(in) :: offset
    type(*), dimension(..), target, intent(in) :: buf
    type(pario_request), intent(out) :: req
    integer, intent(out), optional :: ierr
    type(buffer_facts) :: b
    integer(c_int) :: rc
    b = facts(buf)
    rc = need_contiguous('pario_file_iwrite', b)
    if (rc == 0) rc = c_file_iwrite(f%h, offset, b%base, bytes(b), req%h)
    call finish(rc, ierr)
  end subroutine

  !> Starts a read into buf, which must stay untouched until pario_wait(req).
  subroutine pario_file_iread(f, offset, buf, req, ierr)
    type(pario_file), intent(in) :: f
    integer(int64), intent(in) :: offset
    type(*), dimension(..), target, intent(inout) :: buf
    type(pario_request), intent(out) :: req
    integer, intent(out), optional :: ierr
    type(buffer_facts) :: b
    integer(c_int) :: rc
    b = facts(buf)
    rc = need_contiguous('pario_file_iread', b)
    if (rc == 0) rc = c_file_iread(f%h, offset, b%base, bytes(b), req%h)
    call finish(rc, ierr)
  end subroutine

  subroutine pario_wait(req, ierr)
    type(pario_request), intent(inout) :: req
    integer, intent(out), optional :: ierr
    call finish(c_wait(req%h), ierr)
  end subroutine

  !> Local, never blocks: moves req on as far as it can; done is .true.
  !> once it is complete (a read's data in its buffer). pario_wait is still
  !> needed to release it and get its status (collective for collective I/O).
  subroutine pario_test(req, done, ierr)
    type(pario_request), intent(inout) :: req
    logical, intent(out) :: done
    integer, intent(out), optional :: ierr
    integer(c_int) :: rc, flag
    flag = 0
    rc = c_test(req%h, flag)
    done = flag /= 0
    call finish(rc, ierr)
  end subroutine

  integer(int64) function pario_file_length(f, ierr)
    type(pario_file), intent(in) :: f
    integer, intent(out), optional :: ierr
    call finish(c_file_length(f%h, pario_file_length), ierr)
  end function

  ! ---- shared files ----

  subroutine pario_shared_file_create(f, group, path, hard_limit, soft_limit, request_size, ierr)
    type(pario_shared_file), intent(out) :: f
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    integer(int64), intent(in) :: hard_limit, soft_limit, request_size
    integer, intent(out), optional :: ierr
    call finish(c_sf_create(group%h, cstr(path), hard_limit, soft_limit, request_size, f%h), ierr)
  end subroutine

  subroutine pario_shared_file_destroy(f, ierr)
    type(pario_shared_file), intent(inout) :: f
    integer, intent(out), optional :: ierr
    call finish(c_sf_destroy(f%h), ierr)
  end subroutine

  !> Collective: an existing shared file (one an earlier job wrote, e.g. for a
  !> restart on another number of ranks), mode PARIO_READ or PARIO_RDWR;
  !> never created or truncated (PARIO_ERR_NOT_FOUND where it is missing).
  subroutine pario_shared_file_open(f, group, path, mode, ierr)
    type(pario_shared_file), intent(out) :: f
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    integer, intent(in) :: mode
    integer, intent(out), optional :: ierr
    call finish(c_sf_open(group%h, cstr(path), int(mode, c_int), f%h), ierr)
  end subroutine

  !> Collective: as pario_shared_file_destroy, but the file stays on disk.
  subroutine pario_shared_file_close(f, ierr)
    type(pario_shared_file), intent(inout) :: f
    integer, intent(out), optional :: ierr
    call finish(c_sf_close(f%h), ierr)
  end subroutine

  subroutine pario_shared_file_write(f, offset, buf, ierr)
    type(pario_shared_file), intent(in) :: f
    integer(int64), intent(in) :: offset
    type(*), dimension(..), contiguous, intent(in) :: buf
    integer, intent(out), optional :: ierr
    type(buffer_facts) :: b
    b = facts(buf)
    call finish(c_sf_write(f%h, offset, b%base, bytes(b)), ierr)
  end subroutine

  subroutine pario_shared_file_read(f, offset, buf, ierr)
    type(pario_shared_file), intent(in) :: f
    integer(int64), intent(in) :: offset
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(out), optional :: ierr
    type(buffer_facts) :: b
    b = facts(buf)
    call finish(c_sf_read(f%h, offset, b%base, bytes(b)), ierr)
  end subroutine

  ! ---- groups, arrays, counters ----

  subroutine pario_group_world(g, ierr)
    type(pario_group), intent(out) :: g
    integer, intent(out), optional :: ierr
    call finish(c_group_world(g%h), ierr)
  end subroutine

  subroutine pario_group_barrier(g, ierr)
    type(pario_group), intent(in) :: g
    integer, intent(out), optional :: ierr
    call finish(c_group_barrier(g%h), ierr)
  end subroutine

  !> Collective: an array of Fortran shape dims holding elements of type
  !> (PARIO_TYPE_*, default PARIO_TYPE_DOUBLE).
  subroutine pario_array_create(a, group, name, dims, type, ierr)
    type(pario_array), intent(out) :: a
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: name
    integer(int64), intent(in) :: dims(:)
    integer, intent(in), optional :: type
    integer, intent(out), optional :: ierr
    a%ndim = size(dims)
    a%type = PARIO_TYPE_DOUBLE
    if (present(type)) a%type = type
    call finish(c_array_create(group%h, cstr(name), int(a%type, c_int), int(a%ndim, c_int), &
                               dims(size(dims):1:-1), a%h), ierr)
  end subroutine

  subroutine pario_array_destroy(a, ierr)
    type(pario_array), intent(inout) :: a
    integer, intent(out), optional :: ierr
    call finish(c_array_destroy(a%h), ierr)
  end subroutine

  ! 1-based inclusive lo..hi, Fortran order -> 0-based start and count, C order.
  subroutine section(a, lo, hi, start, count)
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:)
    integer(c_int64_t), intent(out) :: start(a%ndim), count(a%ndim)
    integer :: d
    do d = 1, a%ndim
      start(a%ndim + 1 - d) = lo(d) - 1
      count(a%ndim + 1 - d) = max(0_int64, hi(d) - lo(d) + 1)
    end do
  end subroutine

  ! What pario cannot see for itself in a transfer between a and buf: the
  ! rank of lo and hi, the buffer's type and size (and, for a nonblocking
  ! call, that it is contiguous). Fills start and count on success.
  integer(c_int) function check_transfer(call, a, lo, hi, b, start, count) result(rc)
    character(*), intent(in) :: call
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:)
    type(buffer_facts), intent(in) :: b
    integer(c_int64_t), intent(out) :: start(a%ndim), count(a%ndim)
    character(len=160) :: why
    rc = 0
    if (.not. c_associated(a%h)) then
      rc = refuse(INVALID_ARGUMENT, call, 'the array was not created or was destroyed')
    else if (size(lo) /= a%ndim .or. size(hi) /= a%ndim) then
      write (why, '(a, i0, a, i0, a, i0)') 'lo and hi need one bound per dimension: ', a%ndim, &
        ', not ', size(lo), ' and ', size(hi)
      rc = refuse(INVALID_ARGUMENT, call, trim(why))
    else if (.not. holds(int(b%type), a%type)) then
      rc = refuse(INVALID_ARGUMENT, call, 'the buffer holds ' // type_name(int(b%type)) // &
                  ' elements, the array ' // type_name(a%type))
    else
      call section(a, lo, hi, start, count)
      if (b%elements < product(count)) then
        write (why, '(a, i0, a, i0)') 'the buffer has ', b%elements, ' elements, the section ', product(count)
        rc = refuse(INVALID_ARGUMENT, call, trim(why))
      end if
    end if
  end function

  ! The checks and the C call of put, get, iput or iget (named by call);
  ! req is present for the nonblocking two.
  integer(c_int) function move(call, a, lo, hi, b, req) result(rc)
    character(*), intent(in) :: call
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:)
    type(buffer_facts), intent(in) :: b
    type(pario_request), intent(out), optional :: req
    integer(c_int64_t) :: start(a%ndim), count(a%ndim)
    rc = check_transfer(call, a, lo, hi, b, start, count)
    if (rc == 0 .and. present(req)) rc = need_contiguous(call, b)
    if (rc /= 0) return
    select case (call)
    case ('pario_array_put'); rc = c_array_put(a%h, start, count, b%base, c_null_ptr)
    case ('pario_array_get'); rc = c_array_get(a%h, start, count, b%base, c_null_ptr)
    case ('pario_array_iput'); rc = c_array_iput(a%h, start, count, b%base, c_null_ptr, req%h)
    case default; rc = c_array_iget(a%h, start, count, b%base, c_null_ptr, req%h)
    end select
  end function

  !> a(lo..hi) = buf (any array section of a's type, at least as large).
  subroutine pario_array_put(a, lo, hi, buf, ierr)
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:)
    type(*), dimension(..), contiguous, intent(in) :: buf
    integer, intent(out), optional :: ierr
    call finish(move('pario_array_put', a, lo, hi, facts(buf)), ierr)
  end subroutine

  !> buf = a(lo..hi).
  subroutine pario_array_get(a, lo, hi, buf, ierr)
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:)
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(out), optional :: ierr
    call finish(move('pario_array_get', a, lo, hi, facts(buf)), ierr)
  end subroutine

  !> a(lo..hi) += alpha * buf (alpha absent: 1), atomic per element.
  subroutine pario_array_acc(a, lo, hi, buf, alpha, ierr)
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:)
    type(*), dimension(..), contiguous, intent(in) :: buf
    type(*), dimension(..), intent(in), optional :: alpha
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: start(a%ndim), count(a%ndim)
    type(buffer_facts) :: b, scale
    integer(c_int) :: rc
    b = facts(buf)
    rc = check_transfer('pario_array_acc', a, lo, hi, b, start, count)
    if (present(alpha) .and. rc == 0) then
      scale = facts(alpha)
      if (.not. holds(int(scale%type), a%type) .or. scale%elements /= 1) rc = refuse(INVALID_ARGUMENT, 'pario_array_acc', &
        'alpha must be one ' // type_name(a%type) // ', like the array''s elements')
    end if
    if (rc == 0) rc = c_array_acc(a%h, start, count, b%base, c_null_ptr, scale%base)
    call finish(rc, ierr)
  end subroutine

  !> Starts buf = a(lo..hi); buf (contiguous) is filled by pario_wait(req).
  subroutine pario_array_iget(a, lo, hi, buf, req, ierr)
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:)
    type(*), dimension(..), target, intent(inout) :: buf
    type(pario_request), intent(out) :: req
    integer, intent(out), optional :: ierr
    call finish(move('pario_array_iget', a, lo, hi, facts(buf), req), ierr)
  end subroutine

  !> Starts a(lo..hi) = buf; leave buf (contiguous) unchanged until pario_wait(req).
  subroutine pario_array_iput(a, lo, hi, buf, req, ierr)
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:)
    type(*), dimension(..), target, intent(in) :: buf
    type(pario_request), intent(out) :: req
    integer, intent(out), optional :: ierr
    call finish(move('pario_array_iput', a, lo, hi, facts(buf), req), ierr)
  end subroutine

  !> Collective: every element = value (one element of a's type).
  subroutine pario_array_fill(a, value, ierr)
    type(pario_array), intent(in) :: a
    type(*), dimension(..), intent(in) :: value
    integer, intent(out), optional :: ierr
    type(buffer_facts) :: v
    integer(c_int) :: rc
    v = facts(value)
    rc = 0
    if (c_associated(a%h) .and. (.not. holds(int(v%type), a%type) .or. v%elements /= 1)) rc = refuse(INVALID_ARGUMENT, &
      'pario_array_fill', 'the value must be one ' // type_name(a%type) // ', like the array''s elements')
    if (rc == 0) rc = c_array_fill(a%h, v%base)
    call finish(rc, ierr)
  end subroutine

  subroutine pario_array_sync(a, ierr)
    type(pario_array), intent(in) :: a
    integer, intent(out), optional :: ierr
    call finish(c_array_sync(a%h), ierr)
  end subroutine

  !> The section rank (0-based) owns, as 1-based inclusive lo..hi.
  subroutine pario_array_distribution(a, rank, lo, hi, ierr)
    type(pario_array), intent(in) :: a
    integer, intent(in) :: rank
    integer(int64), intent(out) :: lo(:), hi(:)
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: start(a%ndim), count(a%ndim)
    integer :: d
    call finish(c_array_distribution(a%h, int(rank, c_int), start, count), ierr)
    do d = 1, a%ndim
      lo(d) = start(a%ndim + 1 - d) + 1
      hi(d) = start(a%ndim + 1 - d) + count(a%ndim + 1 - d)
    end do
  end subroutine

  subroutine pario_counter_create(c, group, ierr)
    type(pario_counter), intent(out) :: c
    type(pario_group), intent(in) :: group
    integer, intent(out), optional :: ierr
    call finish(c_counter_create(group%h, c%h), ierr)
  end subroutine

  integer(int64) function pario_counter_next(c, ierr)
    type(pario_counter), intent(in) :: c
    integer, intent(out), optional :: ierr
    call finish(c_counter_next(c%h, pario_counter_next), ierr)
  end function

  subroutine pario_counter_reset(c, ierr)
    type(pario_counter), intent(in) :: c
    integer, intent(out), optional :: ierr
    call finish(c_counter_reset(c%h), ierr)
  end subroutine

  subroutine pario_counter_destroy(c, ierr)
    type(pario_counter), intent(inout) :: c
    integer, intent(out), optional :: ierr
    call finish(c_counter_destroy(c%h), ierr)
  end subroutine

  ! ---- disk arrays (Fortran order, like global arrays) ----

  !> Collective: a new disk array (a Zarr store at path) of Fortran shape
  !> dims holding elements of type (PARIO_TYPE_*, default PARIO_TYPE_DOUBLE).
  subroutine pario_disk_array_create(d, group, path, dims, type, ierr)
    type(pario_disk_array), intent(out) :: d
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    integer(int64), intent(in) :: dims(:)
    integer, intent(in), optional :: type
    integer, intent(out), optional :: ierr
    d%ndim = size(dims)
    d%type = PARIO_TYPE_DOUBLE
    if (present(type)) d%type = type
    call finish(c_da_create(group%h, cstr(path), int(d%type, c_int), int(d%ndim, c_int), &
                            dims(size(dims):1:-1), c_null_ptr, d%h), ierr)
  end subroutine

  !> Collective: an existing disk array, PARIO_READ or PARIO_RDWR; d%type
  !> and d%ndim come from the store (pario_disk_array_shape gives dims).
  subroutine pario_disk_array_open(d, group, path, mode, ierr)
    type(pario_disk_array), intent(out) :: d
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    integer, intent(in) :: mode
    integer, intent(out), optional :: ierr
    integer(c_int) :: rc, type, ndim
    integer(c_int64_t) :: dims(PARIO_ARRAY_MAX_DIMS)
    rc = c_da_open(group%h, cstr(path), int(mode, c_int), d%h)
    if (rc == 0) rc = c_da_info(d%h, type, ndim, dims, c_null_ptr)
    if (rc == 0) then
      d%type = int(type)
      d%ndim = int(ndim)
    end if
    call finish(rc, ierr)
  end subroutine

  !> The Fortran shape of d: dims(1:d%ndim).
  subroutine pario_disk_array_shape(d, dims, ierr)
    type(pario_disk_array), intent(in) :: d
    integer(int64), intent(out) :: dims(:)
    integer, intent(out), optional :: ierr
    integer(c_int) :: rc, type, ndim
    integer(c_int64_t) :: c_dims(PARIO_ARRAY_MAX_DIMS)
    rc = c_da_info(d%h, type, ndim, c_dims, c_null_ptr)
    if (rc == 0 .and. size(dims) < ndim) rc = refuse(INVALID_ARGUMENT, 'pario_disk_array_shape', &
                                                     'dims has fewer elements than the array has dimensions')
    if (rc == 0) dims(1:ndim) = c_dims(ndim:1:-1)
    call finish(rc, ierr)
  end subroutine

  subroutine pario_disk_array_close(d, ierr)
    type(pario_disk_array), intent(inout) :: d
    integer, intent(out), optional :: ierr
    call finish(c_da_close(d%h), ierr)
  end subroutine

  subroutine pario_disk_array_delete(group, path, ierr)
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    integer, intent(out), optional :: ierr
    call finish(c_da_delete(group%h, cstr(path)), ierr)
  end subroutine

  !> Collective: disk(disk_lo + i) = a(lo + i) for the section lo..hi of a.
  subroutine pario_disk_array_write(d, a, lo, hi, disk_lo, ierr)
    type(pario_disk_array), intent(in) :: d
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:), disk_lo(:)
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: start(a%ndim), count(a%ndim), at(a%ndim), unused(a%ndim)
    call section(a, lo, hi, start, count)
    call section(a, disk_lo, disk_lo, at, unused)
    call finish(c_da_write(d%h, a%h, start, count, at), ierr)
  end subroutine

  !> Collective: a(lo + i) = disk(disk_lo + i) for the section lo..hi of a.
  subroutine pario_disk_array_read(d, a, lo, hi, disk_lo, ierr)
    type(pario_disk_array), intent(in) :: d
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:), disk_lo(:)
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: start(a%ndim), count(a%ndim), at(a%ndim), unused(a%ndim)
    call section(a, lo, hi, start, count)
    call section(a, disk_lo, disk_lo, at, unused)
    call finish(c_da_read(d%h, a%h, start, count, at), ierr)
  end subroutine

  !> Collective, nonblocking: starts disk(disk_lo + i) = a(lo + P(i)) and
  !> returns at once; a may change as soon as it returns. axes (optional)
  !> permutes: disk dimension k runs along a's dimension axes(k) ([2, 1]
  !> transposes a matrix); the disk section's extent k is then that of a's
  !> dimension axes(k). pario_wait on req is collective.
  subroutine pario_disk_array_iwrite(d, a, lo, hi, disk_lo, req, axes, ierr)
    type(pario_disk_array), intent(in) :: d
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:), disk_lo(:)
    type(pario_request), intent(out) :: req
    integer, intent(in), optional :: axes(:)
    integer, intent(out), optional :: ierr
    call finish(disk_transfer(.true., d, a, lo, hi, disk_lo, req, axes), ierr)
  end subroutine

  !> Collective, nonblocking: starts a(lo + P(i)) = disk(disk_lo + i); leave
  !> that section of a alone until pario_wait (collective) on req.
  subroutine pario_disk_array_iread(d, a, lo, hi, disk_lo, req, axes, ierr)
    type(pario_disk_array), intent(in) :: d
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:), disk_lo(:)
    type(pario_request), intent(out) :: req
    integer, intent(in), optional :: axes(:)
    integer, intent(out), optional :: ierr
    call finish(disk_transfer(.false., d, a, lo, hi, disk_lo, req, axes), ierr)
  end subroutine

  ! Starts a disk-array transfer in C order: Fortran dimension k is C
  ! dimension ndim - k, so axes(k) = j becomes perm(ndim - k) = ndim - j.
  integer(c_int) function disk_transfer(write, d, a, lo, hi, disk_lo, req, axes) result(rc)
    logical, intent(in) :: write
    type(pario_disk_array), intent(in) :: d
    type(pario_array), intent(in) :: a
    integer(int64), intent(in) :: lo(:), hi(:), disk_lo(:)
    type(pario_request), intent(out) :: req
    integer, intent(in), optional :: axes(:)
    integer(c_int64_t) :: start(a%ndim), count(a%ndim), at(a%ndim), unused(a%ndim)
    integer(c_int) :: perm(a%ndim)
    integer :: k
    call section(a, lo, hi, start, count)
    call section(a, disk_lo, disk_lo, at, unused)
    do k = 1, a%ndim
      perm(a%ndim + 1 - k) = int(a%ndim - k, c_int)  ! the identity
      if (present(axes)) then
        if (size(axes) == a%ndim) perm(a%ndim + 1 - k) = int(a%ndim - axes(k), c_int)
        if (size(axes) /= a%ndim) perm(a%ndim + 1 - k) = -1  ! refused by the C call, with a message
      end if
    end do
    if (write) then
      rc = c_da_iwrite(d%h, a%h, start, count, at, perm, req%h)
    else
      rc = c_da_iread(d%h, a%h, start, count, at, perm, req%h)
    end if
  end function

  ! ---- collective I/O: decompositions (pario/collective_io.h) ----
  !
  ! Module conventions, as for global arrays: a block's starts are 1-based
  ! (starts(k) is the index of its first element along dimension k, like
  ! lo of a section) and counts its extents; global indices are 1-based
  ! (the first element of the global space is 1); group ranks are 0-based,
  ! as in MPI. dims, starts and counts go to C in the order given, with the
  ! index order `order`: PARIO_ORDER_FORTRAN by default (dims(1) fastest,
  ! so a block is an ordinary Fortran array of shape counts, and the file
  ! holds the global array column-major); PARIO_ORDER_C for row-major.
  !
  ! Every call here is collective. A refusal the module finds itself (a
  ! buffer of a type pario lacks or smaller than this rank's elements,
  ! starts and counts of the wrong size) still makes the C call, with an
  ! argument C refuses, so that the other ranks fail with this one
  ! (PARIO_ERR_REMOTE) instead of waiting; this rank gets
  ! PARIO_ERR_INVALID_ARGUMENT and the module's message.

  ! The hints of the optional arguments (absent: the environment's, then
  ! the defaults); ranks keeps aggregator_ranks alive for the C call.
  subroutine make_hints(hints, ranks, aggregators, aggregator_ranks, buffer_size, byte_order, align)
    type(decomp_hints), intent(out) :: hints
    integer(c_int), allocatable, target, intent(inout) :: ranks(:)
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), byte_order
    integer(int64), intent(in), optional :: buffer_size, align
    hints%aggregators = 0
    hints%aggregator_ranks = c_null_ptr
    hints%buffer_size = 0
    hints%align = 0
    hints%byte_order = PARIO_BYTE_ORDER_NATIVE
    hints%convert = 0  ! PARIO_COLLECTIVE_CONVERT, else auto
    if (present(aggregators)) hints%aggregators = int(aggregators, c_int)
    if (present(aggregator_ranks)) then
      ranks = int(aggregator_ranks, c_int)
      if (.not. present(aggregators)) hints%aggregators = int(size(ranks), c_int)
      if (size(ranks) > 0) hints%aggregator_ranks = c_loc(ranks)
    end if
    if (present(buffer_size)) hints%buffer_size = buffer_size
    if (present(byte_order)) hints%byte_order = int(byte_order, c_int)
    if (present(align)) hints%align = align
  end subroutine

  !> Collective: decomp describes this rank's block starts..starts+counts-1
  !> (1-based) of a global array of shape dims, elements of file_type in the
  !> file. order: PARIO_ORDER_FORTRAN (default) or PARIO_ORDER_C.
  !> aggregators, aggregator_ranks (0-based group ranks), buffer_size
  !> (bytes), byte_order (PARIO_BYTE_ORDER_*) and align (bytes: where file
  !> domains start, e.g. a stripe size; default the buffer size) are hints.
  subroutine decomp_create_block(decomp, group, file_type, dims, starts, counts, order, aggregators, &
                                 aggregator_ranks, buffer_size, byte_order, align, ierr)
    type(pario_decomp), intent(out) :: decomp
    type(pario_group), intent(in) :: group
    integer, intent(in) :: file_type
    integer(int64), intent(in) :: dims(:), starts(:), counts(:)
    integer, intent(in), optional :: order, aggregators, aggregator_ranks(:), byte_order
    integer(int64), intent(in), optional :: buffer_size, align
    integer, intent(out), optional :: ierr
    call decomp_create_blocks(decomp, group, file_type, dims, reshape(starts, [size(starts), 1]), &
                              reshape(counts, [size(counts), 1]), order, aggregators, aggregator_ranks, &
                              buffer_size, byte_order, align, ierr)
  end subroutine

  !> Collective: as above, with block b at starts(:, b), counts(:, b), held
  !> one after the other in memory (size(starts, 2) blocks; 0 for none).
  subroutine decomp_create_blocks(decomp, group, file_type, dims, starts, counts, order, aggregators, &
                                  aggregator_ranks, buffer_size, byte_order, align, ierr)
    type(pario_decomp), intent(out) :: decomp
    type(pario_group), intent(in) :: group
    integer, intent(in) :: file_type
    integer(int64), intent(in) :: dims(:), starts(:, :), counts(:, :)
    integer, intent(in), optional :: order, aggregators, aggregator_ranks(:), byte_order
    integer(int64), intent(in), optional :: buffer_size, align
    integer, intent(out), optional :: ierr
    character(*), parameter :: call = 'pario_decomp_create_blocks'
    type(decomp_hints) :: hints
    integer(c_int), allocatable, target :: ranks(:)
    integer(c_int64_t), allocatable :: c_starts(:, :), c_counts(:, :)
    integer(c_int) :: rc, c_order, nblocks
    character(len=160) :: why
    call make_hints(hints, ranks, aggregators, aggregator_ranks, buffer_size, byte_order, align)
    c_order = PARIO_ORDER_FORTRAN
    if (present(order)) c_order = int(order, c_int)
    why = ' '
    if (size(starts, 1) /= size(dims) .or. any(shape(counts) /= shape(starts))) then
      write (why, '(a, i0, a, i0, a, i0, a)') 'starts and counts need ', size(dims), &
        ' entries per block (one per dimension), not ', size(starts, 1), ' and ', size(counts, 1), &
        ' (or as many blocks)'
    end if
    nblocks = int(size(starts, 2), c_int)
    allocate (c_starts(size(starts, 1), size(starts, 2)), c_counts(size(counts, 1), size(counts, 2)))
    c_starts = starts - 1
    c_counts = counts
    if (len_trim(why) > 0) nblocks = -1  ! refused by C on every rank; this rank's message below
    rc = c_decomp_create_blocks(group%h, int(file_type, c_int), int(size(dims), c_int), dims, c_order, &
                                nblocks, c_starts, c_counts, hints, decomp%h)
    if (len_trim(why) > 0) rc = refuse(INVALID_ARGUMENT, call, trim(why))
    call finish(rc, ierr)
  end subroutine

  !> Collective: a global space of global_size elements; this rank holds
  !> element k of its buffers at global index indices(k) (1-based, any
  !> order: an unstructured mesh remapped by index).
  subroutine pario_decomp_create_indices(decomp, group, file_type, global_size, indices, aggregators, &
                                         aggregator_ranks, buffer_size, byte_order, align, ierr)
    type(pario_decomp), intent(out) :: decomp
    type(pario_group), intent(in) :: group
    integer, intent(in) :: file_type
    integer(int64), intent(in) :: global_size, indices(:)
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), byte_order
    integer(int64), intent(in), optional :: buffer_size, align
    integer, intent(out), optional :: ierr
    type(decomp_hints) :: hints
    integer(c_int), allocatable, target :: ranks(:)
    integer(c_int64_t), allocatable :: c_indices(:)
    call make_hints(hints, ranks, aggregators, aggregator_ranks, buffer_size, byte_order, align)
    allocate (c_indices(size(indices)))
    c_indices = indices - 1
    call finish(c_decomp_create_indices(group%h, int(file_type, c_int), global_size, &
                                        int(size(indices), c_int64_t), c_indices, hints, decomp%h), ierr)
  end subroutine

  !> Collective: elements ordered by key (remap by value): this rank holds
  !> element k of its buffers with key keys(k) (any int64, e.g. a sparse
  !> global node id); the global space is every rank's distinct keys in
  !> increasing order, sorted in parallel (no rank holds them all).
  !> positions (optional, at least size(keys) entries) gets each element's
  !> 1-based position in it, global_size (optional) the number of distinct
  !> keys. Hints as for pario_decomp_create_blocks.
  subroutine pario_decomp_create_keys(decomp, group, file_type, keys, positions, global_size, aggregators, &
                                      aggregator_ranks, buffer_size, byte_order, align, ierr)
    type(pario_decomp), intent(out) :: decomp
    type(pario_group), intent(in) :: group
    integer, intent(in) :: file_type
    integer(int64), intent(in) :: keys(:)
    integer(int64), intent(out), optional :: positions(:), global_size
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), byte_order
    integer(int64), intent(in), optional :: buffer_size, align
    integer, intent(out), optional :: ierr
    character(*), parameter :: call = 'pario_decomp_create_keys'
    type(decomp_hints) :: hints
    integer(c_int), allocatable, target :: ranks(:)
    integer(c_int64_t), allocatable :: c_keys(:), c_positions(:)
    integer(c_int64_t) :: n, distinct
    integer(c_int) :: rc
    character(len=160) :: why
    call make_hints(hints, ranks, aggregators, aggregator_ranks, buffer_size, byte_order, align)
    why = ' '
    n = size(keys, kind=c_int64_t)
    if (present(positions)) then
      if (size(positions, kind=c_int64_t) < n) then
        write (why, '(a, i0, a, i0, a)') 'positions has ', size(positions), ' entries for ', n, ' keys'
      end if
    end if
    allocate (c_keys(n), c_positions(n))
    c_keys = keys
    if (len_trim(why) > 0) n = -1  ! refused by C on every rank; this rank's message below
    distinct = 0
    rc = c_decomp_create_keys(group%h, int(file_type, c_int), n, c_keys, hints, c_positions, distinct, decomp%h)
    if (len_trim(why) > 0) then
      rc = refuse(INVALID_ARGUMENT, call, trim(why))
    else if (rc == 0) then
      if (present(positions)) positions(1:n) = c_positions + 1
      if (present(global_size)) global_size = distinct
    end if
    call finish(rc, ierr)
  end subroutine

  !> Collective: releases decomp.
  subroutine pario_decomp_free(decomp, ierr)
    type(pario_decomp), intent(inout) :: decomp
    integer, intent(out), optional :: ierr
    call finish(c_decomp_free(decomp%h), ierr)
  end subroutine

  !> Local: the global size, this rank's element count, the number of
  !> aggregators and whether this rank is one.
  subroutine pario_decomp_info(decomp, global_size, local_count, aggregators, is_aggregator, ierr)
    type(pario_decomp), intent(in) :: decomp
    integer(int64), intent(out), optional :: global_size, local_count
    integer, intent(out), optional :: aggregators
    logical, intent(out), optional :: is_aggregator
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: g, n
    integer(c_int) :: a, is, rc
    rc = c_decomp_info(decomp%h, g, n, a, is)
    if (rc == 0) then
      if (present(global_size)) global_size = g
      if (present(local_count)) local_count = n
      if (present(aggregators)) aggregators = int(a)
      if (present(is_aggregator)) is_aggregator = is /= 0
    end if
    call finish(rc, ierr)
  end subroutine

  ! The checks and the C call of write, read, iwrite or iread (named by
  ! call); req is present for the nonblocking two. The buffer's type is
  ! the memory type, converted to and from the file type on the way.
  integer(c_int) function decomp_move(call, decomp, file, offset, b, req) result(rc)
    character(*), intent(in) :: call
    type(pario_decomp), intent(in) :: decomp
    type(pario_shared_file), intent(in) :: file
    integer(int64), intent(in) :: offset
    type(buffer_facts), intent(in) :: b
    type(pario_request), intent(out), optional :: req
    integer(c_int64_t) :: global_size, local_count
    integer(c_int) :: aggregators, is_aggregator, mem_type
    character(len=200) :: why
    why = ' '
    local_count = 0
    if (c_decomp_info(decomp%h, global_size, local_count, aggregators, is_aggregator) /= 0) local_count = 0
    if (b%type == 0) then
      why = 'the buffer holds ' // type_name(int(b%type)) // ' elements'
    else if (b%elements < local_count) then
      write (why, '(a, i0, a, i0, a)') 'the buffer has ', b%elements, ' elements, the decomposition ', &
        local_count, ' on this rank'
    else if (present(req) .and. .not. b%contiguous) then
      why = 'the buffer is a strided section; a nonblocking call needs contiguous memory'
    end if
    mem_type = b%type
    if (len_trim(why) > 0) mem_type = 0  ! refused by C on every rank; this rank's message below
    select case (call)
    case ('pario_decomp_write'); rc = c_decomp_write(decomp%h, file%h, offset, mem_type, b%base)
    case ('pario_decomp_read'); rc = c_decomp_read(decomp%h, file%h, offset, mem_type, b%base)
    case ('pario_decomp_iwrite'); rc = c_decomp_iwrite(decomp%h, file%h, offset, mem_type, b%base, req%h)
    case default; rc = c_decomp_iread(decomp%h, file%h, offset, mem_type, b%base, req%h)
    end select
    if (len_trim(why) > 0) rc = refuse(INVALID_ARGUMENT, call, trim(why))
  end function

  !> Collective: writes this rank's elements (buf: any array of at least
  !> local_count elements of a type pario has, in the decomposition's
  !> memory order; a strided section is copied) into the shared file,
  !> global element i (1-based) at byte offset + (i - 1) * size(file_type).
  subroutine pario_decomp_write(decomp, file, offset, buf, ierr)
    type(pario_decomp), intent(in) :: decomp
    type(pario_shared_file), intent(in) :: file
    integer(int64), intent(in) :: offset
    type(*), dimension(..), contiguous, intent(in) :: buf
    integer, intent(out), optional :: ierr
    call finish(decomp_move('pario_decomp_write', decomp, file, offset, facts(buf)), ierr)
  end subroutine

  !> Collective: reads this rank's elements into buf (converted to its type).
  subroutine pario_decomp_read(decomp, file, offset, buf, ierr)
    type(pario_decomp), intent(in) :: decomp
    type(pario_shared_file), intent(in) :: file
    integer(int64), intent(in) :: offset
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(out), optional :: ierr
    call finish(decomp_move('pario_decomp_read', decomp, file, offset, facts(buf)), ierr)
  end subroutine

  !> Collective, nonblocking: starts a write; buf (contiguous) may change as
  !> soon as this returns. pario_wait on req is collective.
  subroutine pario_decomp_iwrite(decomp, file, offset, buf, req, ierr)
    type(pario_decomp), intent(in) :: decomp
    type(pario_shared_file), intent(in) :: file
    integer(int64), intent(in) :: offset
    type(*), dimension(..), target, intent(in) :: buf
    type(pario_request), intent(out) :: req
    integer, intent(out), optional :: ierr
    call finish(decomp_move('pario_decomp_iwrite', decomp, file, offset, facts(buf), req), ierr)
  end subroutine

  !> Collective, nonblocking: starts a read into buf (contiguous), filled by
  !> pario_wait(req) (collective); leave it alone until then.
  subroutine pario_decomp_iread(decomp, file, offset, buf, req, ierr)
    type(pario_decomp), intent(in) :: decomp
    type(pario_shared_file), intent(in) :: file
    integer(int64), intent(in) :: offset
    type(*), dimension(..), target, intent(inout) :: buf
    type(pario_request), intent(out) :: req
    integer, intent(out), optional :: ierr
    call finish(decomp_move('pario_decomp_iread', decomp, file, offset, facts(buf), req), ierr)
  end subroutine

  integer(c_size_t) function bytes(b)
    type(buffer_facts), intent(in) :: b
    bytes = int(b%elements * b%elem_bytes, c_size_t)
  end function

end module pario
