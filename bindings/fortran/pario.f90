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
  use, intrinsic :: iso_fortran_env, only: int64, real32, real64, error_unit
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
  ! Exodus II files (pario_exodus_*):
  ! netCDF container versions and kinds of variables.
  integer, parameter, public :: PARIO_EXODUS_FORMAT_AUTO = 0, PARIO_EXODUS_FORMAT_CDF2 = 2, &
                                PARIO_EXODUS_FORMAT_CDF5 = 5
  integer, parameter, public :: PARIO_EXODUS_GLOBAL = 0, PARIO_EXODUS_NODAL = 1, PARIO_EXODUS_ELEMENT = 2
  integer, parameter, public :: PARIO_EXODUS_NODE_SET = 3, PARIO_EXODUS_SIDE_SET = 4
  ! Datasets (pario/dataset.h).
  integer, parameter, public :: PARIO_SEGMENT_ANY = 0, PARIO_SEGMENT_TOPOLOGY = 1, PARIO_SEGMENT_STATE = 2
  integer, parameter, public :: PARIO_ITEM_SCALAR = 0, PARIO_ITEM_VECTOR = 1, PARIO_ITEM_TENSOR = 2
  integer, parameter, public :: PARIO_SECTION_RANK_ORDERED = 1, PARIO_SECTION_GLOBAL_ORDERED = 2
  integer, parameter, public :: PARIO_INFO_DATASET = 0, PARIO_INFO_VARIABLE = 1, PARIO_INFO_SEGMENT = 2, &
                                PARIO_INFO_STRING = 256
  integer, parameter, public :: PARIO_DATASET_ONE_FILE = 0, PARIO_DATASET_FILE_PER_STEP = 1, &
                                PARIO_DATASET_STEPS_PER_FILE = 2
  integer, parameter, public :: PARIO_DATASET_SYNC_DEFAULT = 0, PARIO_DATASET_SYNC_FSYNC = 1, &
                                PARIO_DATASET_SYNC_WRITE = 2, PARIO_DATASET_SYNC_NONE = 3
  ! MFDn wave-function files (pario/wavefunction.h): transfer hints, the most vectors.
  integer, parameter, public :: PARIO_WF_TRANSFER_DEFAULT = 0, PARIO_WF_TRANSFER_INDEPENDENT = 1, &
                                PARIO_WF_TRANSFER_COLLECTIVE = 2, PARIO_WF_TRANSFER_AGGREGATORS = 3
  integer, parameter, public :: PARIO_WF_MAX_VECTORS = 99999
  ! Where a transfer converts (PARIO_COLLECTIVE_CONVERT decides for the module's calls).
  integer, parameter, public :: PARIO_CONVERT_DEFAULT = 0, PARIO_CONVERT_AUTO = 1, PARIO_CONVERT_SENDER = 2, &
                                PARIO_CONVERT_AGGREGATOR = 3
  ! Collective buffering (the decompositions' buffering argument; absent: PARIO_COLLECTIVE_BUFFERING).
  integer, parameter, public :: PARIO_BUFFERING_DEFAULT = 0, PARIO_BUFFERING_AUTO = 1, &
                                PARIO_BUFFERING_ALWAYS = 2, PARIO_BUFFERING_NEVER = 3
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
  !> An Exodus II file (pario_exodus_create or pario_exodus_open).
  type, public :: pario_exodus
    type(c_ptr) :: h = c_null_ptr
    integer :: num_dim = 0
    integer(int64) :: local_nodes = 0  ! this rank's nodes (pario_exodus_put_nodes)
  end type
  ! pario_exodus_options, field for field.
  type, bind(C) :: exodus_options
    integer(c_int) :: format, float_size, no_step_sync
    type(c_ptr) :: hints
    integer(c_int) :: steps_per_file, int64, nemesis
  end type

  ! pario_decomp_hints, field for field.
  type, bind(C) :: decomp_hints
    integer(c_int) :: aggregators
    type(c_ptr) :: aggregator_ranks
    integer(c_int64_t) :: buffer_size, align
    integer(c_int) :: byte_order
    integer(c_int) :: convert
    integer(c_int) :: buffering
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
  public :: pario_group_world, pario_group_barrier, pario_group_split, pario_group_from_comm, pario_group_free, &
            pario_group_rank, pario_group_node_info, pario_group_sum, pario_group_broadcast
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
  public :: pario_exodus_create, pario_exodus_open, pario_exodus_close, pario_exodus_init, &
            pario_exodus_define_block, pario_exodus_define_node_set, pario_exodus_define_side_set, &
            pario_exodus_put_qa, pario_exodus_put_info, pario_exodus_define_variables, pario_exodus_end_define, &
            pario_exodus_put_nodes, pario_exodus_put_block, pario_exodus_put_node_set, pario_exodus_put_side_set, &
            pario_exodus_put_time, pario_exodus_put_global_values, pario_exodus_put_nodal_values, &
            pario_exodus_put_element_values, pario_exodus_flush, pario_exodus_get_info, pario_exodus_get_block, &
            pario_exodus_get_variable, pario_exodus_get_time, pario_exodus_read_coords, &
            pario_exodus_read_node_ids, pario_exodus_read_block, pario_exodus_read_nodal_values, &
            pario_exodus_read_global_values, pario_exodus_get_truth_table, pario_exodus_read_attributes, &
            pario_exodus_get_partition, &
            pario_exodus_read_element_values, pario_exodus_put_coord_names, pario_exodus_put_truth_table, &
            pario_exodus_put_attributes, pario_exodus_open_append, pario_exodus_attach_nodes, &
            pario_exodus_attach_block, pario_exodus_get_set, pario_exodus_read_node_set, pario_exodus_read_side_set, &
            pario_exodus_read_set_df, pario_exodus_read_coords_by_id, pario_exodus_read_block_by_id, &
            pario_exodus_read_nodal_values_by_id, pario_exodus_read_element_values_by_id, pario_exodus_get_series, &
            pario_exodus_get_loadbal, pario_exodus_get_node_maps, pario_exodus_get_elem_maps, &
            pario_exodus_get_cmap_params, pario_exodus_get_node_cmap, pario_exodus_get_elem_cmap
  ! Values of real64 or real32 (converted to the file's type by pario).
  interface pario_exodus_put_nodal_values
    module procedure exo_put_nodal_r64, exo_put_nodal_r32
  end interface
  interface pario_exodus_put_element_values
    module procedure exo_put_element_r64, exo_put_element_r32
  end interface
  interface pario_exodus_put_attributes
    module procedure exo_put_attributes_r64, exo_put_attributes_r32
  end interface

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
    integer(c_int) function c_group_split(parent, color, g) bind(C, name="pario_group_split")
      import :: c_int, c_ptr
      type(c_ptr), value :: parent
      integer(c_int), value :: color
      type(c_ptr), intent(out) :: g
    end function
    integer(c_int) function c_group_from_fortran_comm(comm, g) bind(C, name="pario_group_from_fortran_comm")
      import :: c_int, c_int64_t, c_ptr
      integer(c_int64_t), value :: comm
      type(c_ptr), intent(out) :: g
    end function
    integer(c_int) function c_group_free(g) bind(C, name="pario_group_free")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: g
    end function
    integer(c_int) function c_group_rank(g, rank) bind(C, name="pario_group_rank")
      import :: c_int, c_ptr
      type(c_ptr), value :: g
      integer(c_int), intent(out) :: rank
    end function
    integer(c_int) function c_group_size(g, size) bind(C, name="pario_group_size")
      import :: c_int, c_ptr
      type(c_ptr), value :: g
      integer(c_int), intent(out) :: size
    end function
    integer(c_int) function c_group_node_info(g, node, nodes, node_rank, node_size) &
        bind(C, name="pario_group_node_info")
      import :: c_int, c_ptr
      type(c_ptr), value :: g
      integer(c_int), intent(out) :: node, nodes, node_rank, node_size
    end function
    integer(c_int) function c_group_sum(g, type, buf, count) bind(C, name="pario_group_sum")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: g, buf
      integer(c_int), value :: type
      integer(c_size_t), value :: count
    end function
    integer(c_int) function c_group_broadcast(g, buf, bytes, root) bind(C, name="pario_group_broadcast")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: g, buf
      integer(c_size_t), value :: bytes
      integer(c_int), value :: root
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

    ! ---- Exodus II files (pario/exodus.h) ----
    integer(c_int) function c_exo_create(g, path, options, x) bind(C, name="pario_exodus_create")
      import :: c_int, c_ptr, c_char, exodus_options
      type(c_ptr), value :: g
      character(kind=c_char), intent(in) :: path(*)
      type(exodus_options), intent(in) :: options
      type(c_ptr), intent(out) :: x
    end function
    integer(c_int) function c_exo_open(g, path, options, x) bind(C, name="pario_exodus_open")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: g, options
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: x
    end function
    integer(c_int) function c_exo_close(x) bind(C, name="pario_exodus_close")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: x
    end function
    integer(c_int) function c_exo_init(x, title, num_dim, num_nodes, num_elem, num_blocks, num_node_sets, &
                                       num_side_sets) bind(C, name="pario_exodus_init")
      import :: c_int, c_ptr, c_char, c_int64_t
      type(c_ptr), value :: x
      character(kind=c_char), intent(in) :: title(*)
      integer(c_int), value :: num_dim, num_blocks, num_node_sets, num_side_sets
      integer(c_int64_t), value :: num_nodes, num_elem
    end function
    integer(c_int) function c_exo_define_block(x, id, name, type, count, npe, attributes) &
        bind(C, name="pario_exodus_define_block")
      import :: c_int, c_ptr, c_char, c_int64_t
      type(c_ptr), value :: x
      integer(c_int64_t), value :: id, count
      character(kind=c_char), intent(in) :: name(*), type(*)
      integer(c_int), value :: npe, attributes
    end function
    integer(c_int) function c_exo_define_node_set(x, id, name, count, has_df) &
        bind(C, name="pario_exodus_define_node_set")
      import :: c_int, c_ptr, c_char, c_int64_t
      type(c_ptr), value :: x
      integer(c_int64_t), value :: id, count
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: has_df
    end function
    integer(c_int) function c_exo_define_side_set(x, id, name, count, df_per_side) &
        bind(C, name="pario_exodus_define_side_set")
      import :: c_int, c_ptr, c_char, c_int64_t
      type(c_ptr), value :: x
      integer(c_int64_t), value :: id, count
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: df_per_side
    end function
    integer(c_int) function c_exo_put_qa(x, n, records) bind(C, name="pario_exodus_put_qa")
      import :: c_int, c_ptr
      type(c_ptr), value :: x
      integer(c_int), value :: n
      type(c_ptr), intent(in) :: records(*)
    end function
    integer(c_int) function c_exo_put_info(x, n, lines) bind(C, name="pario_exodus_put_info")
      import :: c_int, c_ptr
      type(c_ptr), value :: x
      integer(c_int), value :: n
      type(c_ptr), intent(in) :: lines(*)
    end function
    integer(c_int) function c_exo_define_variables(x, kind, n, names) bind(C, name="pario_exodus_define_variables")
      import :: c_int, c_ptr
      type(c_ptr), value :: x
      integer(c_int), value :: kind, n
      type(c_ptr), intent(in) :: names(*)
    end function
    integer(c_int) function c_exo_end_define(x) bind(C, name="pario_exodus_end_define")
      import :: c_int, c_ptr
      type(c_ptr), value :: x
    end function
    integer(c_int) function c_exo_put_nodes(x, n, ids, mem_type, cx, cy, cz) bind(C, name="pario_exodus_put_nodes")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, cx, cy, cz
      integer(c_int64_t), value :: n
      integer(c_int64_t), intent(in) :: ids(*)
      integer(c_int), value :: mem_type
    end function
    integer(c_int) function c_exo_put_block(x, block_id, n, ids, conn) bind(C, name="pario_exodus_put_block")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x
      integer(c_int64_t), value :: block_id, n
      integer(c_int64_t), intent(in) :: ids(*), conn(*)
    end function
    integer(c_int) function c_exo_put_node_set(x, set_id, n, ids, mem_type, df) bind(C, name="pario_exodus_put_node_set")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, df
      integer(c_int64_t), value :: set_id, n
      integer(c_int64_t), intent(in) :: ids(*)
      integer(c_int), value :: mem_type
    end function
    integer(c_int) function c_exo_put_side_set(x, set_id, n, elems, sides, mem_type, df) &
        bind(C, name="pario_exodus_put_side_set")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, df
      integer(c_int64_t), value :: set_id, n
      integer(c_int64_t), intent(in) :: elems(*)
      integer(c_int), intent(in) :: sides(*)
      integer(c_int), value :: mem_type
    end function
    integer(c_int) function c_exo_define_side_set_df(x, id, name, count, num_df) &
        bind(C, name="pario_exodus_define_side_set_df")
      import :: c_int, c_ptr, c_char, c_int64_t
      type(c_ptr), value :: x
      integer(c_int64_t), value :: id, count, num_df
      character(kind=c_char), intent(in) :: name(*)
    end function
    integer(c_int) function c_exo_put_side_set_df(x, set_id, n, elems, sides, counts, mem_type, df) &
        bind(C, name="pario_exodus_put_side_set_df")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, df
      integer(c_int64_t), value :: set_id, n
      integer(c_int64_t), intent(in) :: elems(*)
      integer(c_int), intent(in) :: sides(*), counts(*)
      integer(c_int), value :: mem_type
    end function
    integer(c_int) function c_exo_put_time(x, step, time) bind(C, name="pario_exodus_put_time")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: x
      integer(c_int), value :: step
      real(c_double), value :: time
    end function
    integer(c_int) function c_exo_put_global_values(x, step, n, mem_type, values) &
        bind(C, name="pario_exodus_put_global_values")
      import :: c_int, c_ptr
      type(c_ptr), value :: x, values
      integer(c_int), value :: step, n, mem_type
    end function
    integer(c_int) function c_exo_put_nodal_values(x, step, var, mem_type, values) &
        bind(C, name="pario_exodus_put_nodal_values")
      import :: c_int, c_ptr
      type(c_ptr), value :: x, values
      integer(c_int), value :: step, var, mem_type
    end function
    integer(c_int) function c_exo_put_element_values(x, step, var, block_id, mem_type, values) &
        bind(C, name="pario_exodus_put_element_values")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, values
      integer(c_int), value :: step, var, mem_type
      integer(c_int64_t), value :: block_id
    end function
    integer(c_int) function c_exo_flush(x) bind(C, name="pario_exodus_flush")
      import :: c_int, c_ptr
      type(c_ptr), value :: x
    end function
    integer(c_int) function c_exo_get_info(x, title, title_len, num_dim, num_nodes, num_elem, num_blocks, &
                                           num_node_sets, num_side_sets, num_steps) bind(C, name="pario_exodus_get_info")
      import :: c_int, c_ptr, c_char, c_size_t, c_int64_t
      type(c_ptr), value :: x
      character(kind=c_char), intent(out) :: title(*)
      integer(c_size_t), value :: title_len
      integer(c_int), intent(out) :: num_dim, num_blocks, num_node_sets, num_side_sets, num_steps
      integer(c_int64_t), intent(out) :: num_nodes, num_elem
    end function
    integer(c_int) function c_exo_get_block(x, index, id, name, name_len, type, type_len, count, npe) &
        bind(C, name="pario_exodus_get_block")
      import :: c_int, c_ptr, c_char, c_size_t, c_int64_t
      type(c_ptr), value :: x
      integer(c_int), value :: index
      integer(c_int64_t), intent(out) :: id, count
      character(kind=c_char), intent(out) :: name(*), type(*)
      integer(c_size_t), value :: name_len, type_len
      integer(c_int), intent(out) :: npe
    end function
    integer(c_int) function c_exo_get_block_attributes(x, index, num) bind(C, name="pario_exodus_get_block_attributes")
      import :: c_int, c_ptr
      type(c_ptr), value :: x
      integer(c_int), value :: index
      integer(c_int), intent(out) :: num
    end function
    integer(c_int) function c_exo_read_attributes(x, block_id, start, count, mem_type, values) &
        bind(C, name="pario_exodus_read_attributes")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, values
      integer(c_int64_t), value :: block_id, start, count
      integer(c_int), value :: mem_type
    end function
    integer(c_int) function c_exo_get_variable(x, kind, var, name, name_len, num_vars) &
        bind(C, name="pario_exodus_get_variable")
      import :: c_int, c_ptr, c_char, c_size_t
      type(c_ptr), value :: x
      integer(c_int), value :: kind, var
      character(kind=c_char), intent(out) :: name(*)
      integer(c_size_t), value :: name_len
      integer(c_int), intent(out) :: num_vars
    end function
    integer(c_int) function c_exo_get_partition(x, num_blocks, start, count) bind(C, name="pario_exodus_get_partition")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x
      integer(c_int), value :: num_blocks
      integer(c_int64_t), intent(out) :: start(*), count(*)
    end function
    integer(c_int) function c_exo_get_truth_table(x, num_blocks, num_vars, table) &
        bind(C, name="pario_exodus_get_truth_table")
      import :: c_int, c_ptr
      type(c_ptr), value :: x
      integer(c_int), value :: num_blocks, num_vars
      integer(c_int), intent(out) :: table(*)
    end function
    integer(c_int) function c_exo_get_time(x, step, time) bind(C, name="pario_exodus_get_time")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: x
      integer(c_int), value :: step
      real(c_double), intent(out) :: time
    end function
    integer(c_int) function c_exo_read_coords(x, start, count, mem_type, cx, cy, cz) &
        bind(C, name="pario_exodus_read_coords")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, cx, cy, cz
      integer(c_int64_t), value :: start, count
      integer(c_int), value :: mem_type
    end function
    integer(c_int) function c_exo_get_loadbal(x, processor, num_procs, counts) bind(C, name="pario_exodus_get_loadbal")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x
      integer(c_int), value :: processor
      integer(c_int), intent(out) :: num_procs
      integer(c_int64_t), intent(out) :: counts(7)
    end function
    integer(c_int) function c_exo_get_node_maps(x, processor, internal, border, external) &
        bind(C, name="pario_exodus_get_node_maps")
      import :: c_int, c_ptr
      type(c_ptr), value :: x, internal, border, external
      integer(c_int), value :: processor
    end function
    integer(c_int) function c_exo_get_elem_maps(x, processor, internal, border) &
        bind(C, name="pario_exodus_get_elem_maps")
      import :: c_int, c_ptr
      type(c_ptr), value :: x, internal, border
      integer(c_int), value :: processor
    end function
    integer(c_int) function c_exo_get_cmap_params(x, processor, node_ids, node_counts, elem_ids, elem_counts) &
        bind(C, name="pario_exodus_get_cmap_params")
      import :: c_int, c_ptr
      type(c_ptr), value :: x, node_ids, node_counts, elem_ids, elem_counts
      integer(c_int), value :: processor
    end function
    integer(c_int) function c_exo_get_node_cmap(x, processor, map_id, nodes, procs) &
        bind(C, name="pario_exodus_get_node_cmap")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, nodes, procs
      integer(c_int), value :: processor
      integer(c_int64_t), value :: map_id
    end function
    integer(c_int) function c_exo_get_elem_cmap(x, processor, map_id, elems, sides, procs) &
        bind(C, name="pario_exodus_get_elem_cmap")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, elems, sides, procs
      integer(c_int), value :: processor
      integer(c_int64_t), value :: map_id
    end function
    integer(c_int) function c_exo_read_node_ids(x, start, count, ids) bind(C, name="pario_exodus_read_node_ids")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, ids
      integer(c_int64_t), value :: start, count
    end function
    integer(c_int) function c_exo_read_block(x, block_id, start, count, ids, conn) &
        bind(C, name="pario_exodus_read_block")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, ids, conn
      integer(c_int64_t), value :: block_id, start, count
    end function
    integer(c_int) function c_exo_read_nodal_values(x, step, var, start, count, mem_type, values) &
        bind(C, name="pario_exodus_read_nodal_values")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, values
      integer(c_int), value :: step, var, mem_type
      integer(c_int64_t), value :: start, count
    end function
    integer(c_int) function c_exo_read_global_values(x, step, n, mem_type, values) &
        bind(C, name="pario_exodus_read_global_values")
      import :: c_int, c_ptr
      type(c_ptr), value :: x, values
      integer(c_int), value :: step, n, mem_type
    end function
    integer(c_int) function c_exo_read_element_values(x, step, var, block_id, start, count, mem_type, values) &
        bind(C, name="pario_exodus_read_element_values")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, values
      integer(c_int), value :: step, var, mem_type
      integer(c_int64_t), value :: block_id, start, count
    end function
    integer(c_int) function c_exo_open_append(g, path, options, x) bind(C, name="pario_exodus_open_append")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: g, options
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: x
    end function
    integer(c_int) function c_exo_get_series(x, file_index, first_step, steps) bind(C, name="pario_exodus_get_series")
      import :: c_int, c_ptr
      type(c_ptr), value :: x
      integer(c_int), intent(out) :: file_index, first_step, steps
    end function
    integer(c_int) function c_exo_attach_nodes(x, n, ids) bind(C, name="pario_exodus_attach_nodes")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x
      integer(c_int64_t), value :: n
      integer(c_int64_t), intent(in) :: ids(*)
    end function
    integer(c_int) function c_exo_attach_block(x, block_id, n, ids) bind(C, name="pario_exodus_attach_block")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x
      integer(c_int64_t), value :: block_id, n
      integer(c_int64_t), intent(in) :: ids(*)
    end function
    integer(c_int) function c_exo_put_coord_names(x, names) bind(C, name="pario_exodus_put_coord_names")
      import :: c_int, c_ptr
      type(c_ptr), value :: x
      type(c_ptr), intent(in) :: names(*)
    end function
    integer(c_int) function c_exo_put_truth_table(x, num_blocks, num_vars, table) &
        bind(C, name="pario_exodus_put_truth_table")
      import :: c_int, c_ptr
      type(c_ptr), value :: x
      integer(c_int), value :: num_blocks, num_vars
      integer(c_int), intent(in) :: table(*)
    end function
    integer(c_int) function c_exo_put_attributes(x, block_id, mem_type, values) &
        bind(C, name="pario_exodus_put_attributes")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, values
      integer(c_int64_t), value :: block_id
      integer(c_int), value :: mem_type
    end function
    integer(c_int) function c_exo_get_set(x, kind, index, id, name, name_len, count, df_count) &
        bind(C, name="pario_exodus_get_set")
      import :: c_int, c_ptr, c_int64_t, c_char, c_size_t
      type(c_ptr), value :: x
      integer(c_int), value :: kind, index
      integer(c_int64_t), intent(out) :: id, count, df_count
      character(kind=c_char), intent(out) :: name(*)
      integer(c_size_t), value :: name_len
    end function
    integer(c_int) function c_exo_read_node_set(x, set_id, start, count, ids) bind(C, name="pario_exodus_read_node_set")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, ids
      integer(c_int64_t), value :: set_id, start, count
    end function
    integer(c_int) function c_exo_read_side_set(x, set_id, start, count, elems, sides) &
        bind(C, name="pario_exodus_read_side_set")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, elems, sides
      integer(c_int64_t), value :: set_id, start, count
    end function
    integer(c_int) function c_exo_read_set_df(x, kind, set_id, start, count, mem_type, df) &
        bind(C, name="pario_exodus_read_set_df")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, df
      integer(c_int), value :: kind, mem_type
      integer(c_int64_t), value :: set_id, start, count
    end function
    integer(c_int) function c_exo_read_coords_by_id(x, n, ids, mem_type, cx, cy, cz) &
        bind(C, name="pario_exodus_read_coords_by_id")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, cx, cy, cz
      integer(c_int64_t), value :: n
      integer(c_int64_t), intent(in) :: ids(*)
      integer(c_int), value :: mem_type
    end function
    integer(c_int) function c_exo_read_block_by_id(x, block_id, n, ids, conn) &
        bind(C, name="pario_exodus_read_block_by_id")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, conn
      integer(c_int64_t), value :: block_id, n
      integer(c_int64_t), intent(in) :: ids(*)
    end function
    integer(c_int) function c_exo_read_nodal_values_by_id(x, step, var, n, ids, mem_type, values) &
        bind(C, name="pario_exodus_read_nodal_values_by_id")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, values
      integer(c_int), value :: step, var, mem_type
      integer(c_int64_t), value :: n
      integer(c_int64_t), intent(in) :: ids(*)
    end function
    integer(c_int) function c_exo_read_element_values_by_id(x, step, var, block_id, n, ids, mem_type, values) &
        bind(C, name="pario_exodus_read_element_values_by_id")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: x, values
      integer(c_int), value :: step, var, mem_type
      integer(c_int64_t), value :: block_id, n
      integer(c_int64_t), intent(in) :: ids(*)
    end function
  end interface

  ! ---- self-describing datasets (pario/dataset.h) ----
  !> A dataset (pario_dataset_create or pario_dataset_open).
  type, public :: pario_dataset
    type(c_ptr) :: h = c_null_ptr
  end type
  !> A section's facts (pario_dataset_section_info), in the module's
  !> conventions: piece_start 1-based; dims(1:ndim) the HDF5 dataset's
  !> shape in Fortran order (item dims first, then items).
  type, public :: pario_dataset_section
    integer :: layout = 0  ! PARIO_SECTION_RANK_ORDERED or _GLOBAL_ORDERED
    integer :: writers = 0
    integer(int64) :: items = 0, max_piece = 0, piece_start = 0, piece_count = 0
    integer :: ndim = 0
    integer(int64) :: dims(PARIO_ARRAY_MAX_DIMS) = 0
  end type
  ! pario_dataset_section_t, field for field.
  type, bind(C) :: dataset_section
    integer(c_int) :: layout, writers
    integer(c_int64_t) :: items, max_piece, piece_start, piece_count
    integer(c_int) :: ndim
    integer(c_int64_t) :: dims(PARIO_ARRAY_MAX_DIMS)
  end type

  ! pario_dataset_create_options_t
  type, bind(C) :: c_ds_create_options
    integer(c_int) :: file_mode
    integer(c_int64_t) :: steps_per_file
    integer(c_int) :: sync
    type(c_ptr) :: hints
  end type
  ! pario_dataset_open_options_t
  type, bind(C) :: c_ds_open_options
    integer(c_int) :: sync
    type(c_ptr) :: hints
  end type

  public :: pario_dataset_supported, pario_dataset_create, pario_dataset_open, pario_dataset_close, &
            pario_dataset_create_with, pario_dataset_file_mode, pario_dataset_sync_counts, &
            pario_dataset_segment_append, pario_dataset_segment_count, pario_dataset_segment_info, &
            pario_dataset_segment_find_index, pario_dataset_segment_find_time, pario_dataset_truncate, &
            pario_dataset_variable_register, pario_dataset_variable_find, pario_dataset_variable_count, &
            pario_dataset_variable_info, pario_dataset_section_info, pario_dataset_write_ranked, &
            pario_dataset_read_items, pario_dataset_even_split, pario_dataset_write_decomp, &
            pario_dataset_read_decomp, pario_dataset_write_array, pario_dataset_read_array, &
            pario_dataset_info_put, pario_dataset_info_put_string, pario_dataset_info_get, &
            pario_dataset_info_get_string, pario_dataset_info_name

  interface
    integer(c_int) function c_ds_supported() bind(C, name="pario_dataset_supported")
      import :: c_int
    end function
    integer(c_int) function c_ds_create_with(g, path, mode, options, d) bind(C, name="pario_dataset_create_with")
      import :: c_int, c_ptr, c_char, c_ds_create_options
      type(c_ptr), value :: g
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: mode
      type(c_ds_create_options), intent(in) :: options
      type(c_ptr), intent(out) :: d
    end function
    integer(c_int) function c_ds_file_mode(d, file_mode, steps_per_file, files) bind(C, name="pario_dataset_file_mode")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: d
      integer(c_int), intent(out) :: file_mode
      integer(c_int64_t), intent(out) :: steps_per_file, files
    end function
    integer(c_int) function c_ds_sync_counts(d, policy, syncs, write_backs) bind(C, name="pario_dataset_sync_counts")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: d
      integer(c_int), intent(out) :: policy
      integer(c_int64_t), intent(out) :: syncs, write_backs
    end function
    integer(c_int) function c_ds_open_with(g, path, mode, options, d) bind(C, name="pario_dataset_open_with")
      import :: c_int, c_ptr, c_char, c_ds_open_options
      type(c_ptr), value :: g
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: mode
      type(c_ds_open_options), intent(in) :: options
      type(c_ptr), intent(out) :: d
    end function
    integer(c_int) function c_ds_close(d) bind(C, name="pario_dataset_close")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: d
    end function
    integer(c_int) function c_ds_segment_append(d, kind, time_index, time_value, segment) &
        bind(C, name="pario_dataset_segment_append")
      import :: c_int, c_ptr, c_int64_t, c_double
      type(c_ptr), value :: d
      integer(c_int), value :: kind
      integer(c_int64_t), value :: time_index
      real(c_double), value :: time_value
      integer(c_int64_t), intent(out) :: segment
    end function
    integer(c_int) function c_ds_segment_count(d, n) bind(C, name="pario_dataset_segment_count")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d
      integer(c_int64_t), intent(out) :: n
    end function
    integer(c_int) function c_ds_segment_info(d, segment, kind, time_index, time_value) &
        bind(C, name="pario_dataset_segment_info")
      import :: c_int, c_ptr, c_int64_t, c_double
      type(c_ptr), value :: d
      integer(c_int64_t), value :: segment
      integer(c_int), intent(out) :: kind
      integer(c_int64_t), intent(out) :: time_index
      real(c_double), intent(out) :: time_value
    end function
    integer(c_int) function c_ds_find_index(d, kind, time_index, segment) &
        bind(C, name="pario_dataset_segment_find_index")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d
      integer(c_int), value :: kind
      integer(c_int64_t), value :: time_index
      integer(c_int64_t), intent(out) :: segment
    end function
    integer(c_int) function c_ds_find_time(d, kind, time_value, segment) &
        bind(C, name="pario_dataset_segment_find_time")
      import :: c_int, c_ptr, c_int64_t, c_double
      type(c_ptr), value :: d
      integer(c_int), value :: kind
      real(c_double), value :: time_value
      integer(c_int64_t), intent(out) :: segment
    end function
    integer(c_int) function c_ds_truncate(d, last_kept) bind(C, name="pario_dataset_truncate")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d
      integer(c_int64_t), value :: last_kept
    end function
    integer(c_int) function c_ds_variable_register(d, name, item_kind, item_dims, word_type, variable) &
        bind(C, name="pario_dataset_variable_register")
      import :: c_int, c_ptr, c_char, c_int64_t
      type(c_ptr), value :: d
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: item_kind, word_type
      integer(c_int64_t), intent(in) :: item_dims(2)
      integer(c_int), intent(out) :: variable
    end function
    integer(c_int) function c_ds_variable_find(d, name, variable) bind(C, name="pario_dataset_variable_find")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: d
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: variable
    end function
    integer(c_int) function c_ds_variable_count(d, n) bind(C, name="pario_dataset_variable_count")
      import :: c_int, c_ptr
      type(c_ptr), value :: d
      integer(c_int), intent(out) :: n
    end function
    integer(c_int) function c_ds_variable_info(d, variable, name, name_len, item_kind, item_dims, word_type) &
        bind(C, name="pario_dataset_variable_info")
      import :: c_int, c_ptr, c_char, c_size_t, c_int64_t
      type(c_ptr), value :: d
      integer(c_int), value :: variable
      character(kind=c_char), intent(out) :: name(*)
      integer(c_size_t), value :: name_len
      integer(c_int), intent(out) :: item_kind, word_type
      integer(c_int64_t), intent(out) :: item_dims(2)
    end function
    integer(c_int) function c_ds_set_types(d, variable, put_type, get_type) &
        bind(C, name="pario_dataset_variable_set_types")
      import :: c_int, c_ptr
      type(c_ptr), value :: d
      integer(c_int), value :: variable, put_type, get_type
    end function
    integer(c_int) function c_ds_section_info(d, segment, variable, writer, info) &
        bind(C, name="pario_dataset_section_info")
      import :: c_int, c_ptr, c_int64_t, dataset_section
      type(c_ptr), value :: d
      integer(c_int64_t), value :: segment
      integer(c_int), value :: variable, writer
      type(dataset_section), intent(out) :: info
    end function
    integer(c_int) function c_ds_write_ranked(d, segment, variable, items, buf) &
        bind(C, name="pario_dataset_write_ranked")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, buf
      integer(c_int64_t), value :: segment, items
      integer(c_int), value :: variable
    end function
    integer(c_int) function c_ds_read_items(d, segment, variable, start, items, buf) &
        bind(C, name="pario_dataset_read_items")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, buf
      integer(c_int64_t), value :: segment, start, items
      integer(c_int), value :: variable
    end function
    integer(c_int) function c_ds_even_split(items, parts, part, start, count) bind(C, name="pario_dataset_even_split")
      import :: c_int, c_int64_t
      integer(c_int64_t), value :: items
      integer(c_int), value :: parts, part
      integer(c_int64_t), intent(out) :: start, count
    end function
    integer(c_int) function c_ds_write_decomp(d, segment, variable, decomp, buf) &
        bind(C, name="pario_dataset_write_decomp")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, decomp, buf
      integer(c_int64_t), value :: segment
      integer(c_int), value :: variable
    end function
    integer(c_int) function c_ds_read_decomp(d, segment, variable, decomp, buf) &
        bind(C, name="pario_dataset_read_decomp")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, decomp, buf
      integer(c_int64_t), value :: segment
      integer(c_int), value :: variable
    end function
    integer(c_int) function c_ds_write_array(d, segment, variable, a) bind(C, name="pario_dataset_write_array")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, a
      integer(c_int64_t), value :: segment
      integer(c_int), value :: variable
    end function
    integer(c_int) function c_ds_read_array(d, segment, variable, a) bind(C, name="pario_dataset_read_array")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: d, a
      integer(c_int64_t), value :: segment
      integer(c_int), value :: variable
    end function
    integer(c_int) function c_ds_info_put(d, owner_kind, owner, name, type, count, values) &
        bind(C, name="pario_dataset_info_put")
      import :: c_int, c_ptr, c_int64_t, c_char
      type(c_ptr), value :: d, values
      integer(c_int), value :: owner_kind, type
      integer(c_int64_t), value :: owner, count
      character(kind=c_char), intent(in) :: name(*)
    end function
    integer(c_int) function c_ds_info_get(d, owner_kind, owner, name, type, capacity, values, type_out, count) &
        bind(C, name="pario_dataset_info_get")
      import :: c_int, c_ptr, c_int64_t, c_char
      type(c_ptr), value :: d, values
      integer(c_int), value :: owner_kind, type
      integer(c_int64_t), value :: owner, capacity
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: type_out
      integer(c_int64_t), intent(out) :: count
    end function
    integer(c_int) function c_ds_info_name(d, owner_kind, owner, index, name, name_len, count) &
        bind(C, name="pario_dataset_info_name")
      import :: c_int, c_ptr, c_int64_t, c_char, c_size_t
      type(c_ptr), value :: d
      integer(c_int), value :: owner_kind
      integer(c_int64_t), value :: owner, index
      character(kind=c_char), intent(out) :: name(*)
      integer(c_size_t), value :: name_len
      integer(c_int64_t), intent(out) :: count
    end function
  end interface

  ! ---- MFDn's wave-function file (pario/wavefunction.h) ----
  !> A wave-function file (pario_wavefunction_create or pario_wavefunction_open).
  type, public :: pario_wavefunction
    type(c_ptr) :: h = c_null_ptr
  end type
  !> The many-body basis, pario_wavefunction_basis_t field for field:
  !> dimension (every vector's length), protons (Z), neutrons (N), nmax,
  !> parity (+1/-1), two_mj (2 M_J), hbar_omega (MeV).
  type, public, bind(C) :: pario_wavefunction_basis
    integer(c_int64_t) :: dimension, protons, neutrons, nmax, parity, two_mj
    real(c_double) :: hbar_omega
  end type

  public :: pario_wavefunction_create, pario_wavefunction_open, pario_wavefunction_close, &
            pario_wavefunction_info, pario_wavefunction_write, pario_wavefunction_read, &
            pario_wavefunction_set_observables, pario_wavefunction_observables

  ! pario_wavefunction_options_t
  type, bind(C) :: c_wf_options
    integer(c_int) :: transfer
    type(c_ptr) :: hints
  end type

  interface
    integer(c_int) function c_wf_create(g, path, mode, basis, nvectors, options, w) &
        bind(C, name="pario_wavefunction_create_with")
      import :: c_int, c_ptr, c_char, pario_wavefunction_basis, c_wf_options
      type(c_ptr), value :: g
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: mode, nvectors
      type(pario_wavefunction_basis), intent(in) :: basis
      type(c_wf_options), intent(in) :: options
      type(c_ptr), intent(out) :: w
    end function
    integer(c_int) function c_wf_open(g, path, mode, options, w) bind(C, name="pario_wavefunction_open_with")
      import :: c_int, c_ptr, c_char, c_wf_options
      type(c_ptr), value :: g
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: mode
      type(c_wf_options), intent(in) :: options
      type(c_ptr), intent(out) :: w
    end function
    integer(c_int) function c_wf_close(w) bind(C, name="pario_wavefunction_close")
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: w
    end function
    integer(c_int) function c_wf_info(w, basis, nvectors, transfer) bind(C, name="pario_wavefunction_info")
      import :: c_int, c_ptr, pario_wavefunction_basis
      type(c_ptr), value :: w
      type(pario_wavefunction_basis), intent(out) :: basis
      integer(c_int), intent(out) :: nvectors, transfer
    end function
    integer(c_int) function c_wf_write(w, vector, start, count, buf) bind(C, name="pario_wavefunction_write")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: w, buf
      integer(c_int), value :: vector
      integer(c_int64_t), value :: start, count
    end function
    integer(c_int) function c_wf_read(w, vector, start, count, buf) bind(C, name="pario_wavefunction_read")
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: w, buf
      integer(c_int), value :: vector
      integer(c_int64_t), value :: start, count
    end function
    integer(c_int) function c_wf_set_observables(w, vector, energy, j, t) &
        bind(C, name="pario_wavefunction_set_observables")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: w
      integer(c_int), value :: vector
      real(c_double), value :: energy, j, t
    end function
    integer(c_int) function c_wf_observables(w, vector, energy, j, t, written) &
        bind(C, name="pario_wavefunction_observables")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: w
      integer(c_int), value :: vector
      real(c_double), intent(out) :: energy, j, t
      integer(c_int), intent(out) :: written
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
  ! Sets why when a buffer may not carry values of type as_type (absent:
  ! its own type, always fine): only PARIO_TYPE_UINT* in the signed
  ! integer of the same size differs from the buffer's type (see holds).
  subroutine check_memory_type(b, as_type, why)
    type(buffer_facts), intent(in) :: b
    integer, intent(in), optional :: as_type
    character(len=*), intent(inout) :: why
    if (.not. present(as_type)) return
    if (.not. holds(int(b%type), as_type)) why = 'mem_type ' // type_name(as_type) // ' for a buffer of ' // &
                                                  type_name(int(b%type)) // ' elements'
  end subroutine

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

  !> Collective over parent: the ranks passing the same color >= 0 form a
  !> group (ordered by their rank in parent); a color < 0 gives a null
  !> group (its handle stays unassociated).
  subroutine pario_group_split(g, parent, color, ierr)
    type(pario_group), intent(out) :: g
    type(pario_group), intent(in) :: parent
    integer, intent(in) :: color
    integer, intent(out), optional :: ierr
    call finish(c_group_split(parent%h, int(color, c_int), g%h), ierr)
  end subroutine

  !> Collective over an MPI communicator (the INTEGER handle of mpi or
  !> mpi_f08's comm%mpi_val): a group of the same ranks in the same order
  !> (pario duplicates the communicator; the caller keeps its own).
  subroutine pario_group_from_comm(g, comm, ierr)
    type(pario_group), intent(out) :: g
    integer, intent(in) :: comm
    integer, intent(out), optional :: ierr
    call finish(c_group_from_fortran_comm(int(comm, c_int64_t), g%h), ierr)
  end subroutine

  !> Local: releases the handle (arrays, files and datasets made on the
  !> group keep it alive).
  subroutine pario_group_free(g, ierr)
    type(pario_group), intent(inout) :: g
    integer, intent(out), optional :: ierr
    call finish(c_group_free(g%h), ierr)
  end subroutine

  !> Local: this rank's node within the group and the number of nodes
  !> (DDI_NNode), its place on its node and the ranks on it (DDI_SMP_NProc);
  !> 0-based, as MPI's ranks.
  subroutine pario_group_node_info(g, node, nodes, node_rank, node_size, ierr)
    type(pario_group), intent(in) :: g
    integer, intent(out) :: node, nodes, node_rank, node_size
    integer, intent(out), optional :: ierr
    integer(c_int) :: a, b, c, d, rc
    rc = c_group_node_info(g%h, a, b, c, d)
    if (rc == 0) then
      node = int(a)
      nodes = int(b)
      node_rank = int(c)
      node_size = int(d)
    end if
    call finish(rc, ierr)
  end subroutine

  !> Collective: buf (an array of any pario type; a strided section is
  !> copied) summed element by element over the group, in place, as DDI's
  !> DDI_GSUMF and DDI_GSUMI.
  subroutine pario_group_sum(g, buf, ierr)
    type(pario_group), intent(in) :: g
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(out), optional :: ierr
    type(buffer_facts) :: b
    integer(c_int) :: rc
    b = facts(buf)  ! type 0 (none pario has): refused by C on every rank
    rc = c_group_sum(g%h, b%type, b%base, int(b%elements, c_size_t))
    if (b%type == 0) rc = refuse(INVALID_ARGUMENT, 'pario_group_sum', 'buf is ' // type_name(int(b%type)))
    call finish(rc, ierr)
  end subroutine

  !> Collective: rank root's buf (0-based in the group; any array, its
  !> bytes) to every rank's, as DDI_BCAST.
  subroutine pario_group_broadcast(g, buf, root, ierr)
    type(pario_group), intent(in) :: g
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(in) :: root
    integer, intent(out), optional :: ierr
    type(buffer_facts) :: b
    b = facts(buf)
    call finish(c_group_broadcast(g%h, b%base, bytes(b), int(root, c_int)), ierr)
  end subroutine

  !> Local: this rank's place in the group (0-based, as MPI's) and its size.
  subroutine pario_group_rank(g, rank, size, ierr)
    type(pario_group), intent(in) :: g
    integer, intent(out) :: rank
    integer, intent(out), optional :: size
    integer, intent(out), optional :: ierr
    integer(c_int) :: r, n, rc
    rc = c_group_rank(g%h, r)
    if (rc == 0 .and. present(size)) rc = c_group_size(g%h, n)
    if (rc == 0) then
      rank = int(r)
      if (present(size)) size = int(n)
    end if
    call finish(rc, ierr)
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
  subroutine make_hints(hints, ranks, aggregators, aggregator_ranks, buffer_size, byte_order, align, convert, &
                        buffering)
    type(decomp_hints), intent(out) :: hints
    integer(c_int), allocatable, target, intent(inout) :: ranks(:)
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), byte_order, convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    hints%aggregators = 0
    hints%aggregator_ranks = c_null_ptr
    hints%buffer_size = 0
    hints%align = 0
    hints%byte_order = PARIO_BYTE_ORDER_NATIVE
    hints%convert = 0  ! PARIO_COLLECTIVE_CONVERT, else auto
    hints%buffering = 0  ! PARIO_COLLECTIVE_BUFFERING, else auto
    if (present(aggregators)) hints%aggregators = int(aggregators, c_int)
    if (present(aggregator_ranks)) then
      ranks = int(aggregator_ranks, c_int)
      if (.not. present(aggregators)) hints%aggregators = int(size(ranks), c_int)
      if (size(ranks) > 0) hints%aggregator_ranks = c_loc(ranks)
    end if
    if (present(buffer_size)) hints%buffer_size = buffer_size
    if (present(byte_order)) hints%byte_order = int(byte_order, c_int)
    if (present(align)) hints%align = align
    if (present(convert)) hints%convert = int(convert, c_int)
    if (present(buffering)) hints%buffering = int(buffering, c_int)
  end subroutine

  !> Collective: decomp describes this rank's block starts..starts+counts-1
  !> (1-based) of a global array of shape dims, elements of file_type in the
  !> file. order: PARIO_ORDER_FORTRAN (default) or PARIO_ORDER_C.
  !> aggregators, aggregator_ranks (0-based group ranks), buffer_size
  !> (bytes), byte_order (PARIO_BYTE_ORDER_*), convert (PARIO_CONVERT_*:
  !> where a transfer converts between memory and file types; absent:
  !> PARIO_COLLECTIVE_CONVERT, else auto), buffering (PARIO_BUFFERING_*:
  !> whether transfers go through the aggregators at all; absent:
  !> PARIO_COLLECTIVE_BUFFERING, else auto) and align (bytes: where file
  !> domains start, e.g. a stripe size; default the buffer size) are hints.
  subroutine decomp_create_block(decomp, group, file_type, dims, starts, counts, order, aggregators, &
                                 aggregator_ranks, buffer_size, byte_order, align, convert, buffering, ierr)
    type(pario_decomp), intent(out) :: decomp
    type(pario_group), intent(in) :: group
    integer, intent(in) :: file_type
    integer(int64), intent(in) :: dims(:), starts(:), counts(:)
    integer, intent(in), optional :: order, aggregators, aggregator_ranks(:), byte_order, convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    integer, intent(out), optional :: ierr
    call decomp_create_blocks(decomp, group, file_type, dims, reshape(starts, [size(starts), 1]), &
                              reshape(counts, [size(counts), 1]), order, aggregators, aggregator_ranks, &
                              buffer_size, byte_order, align, convert, buffering, ierr)
  end subroutine

  !> Collective: as above, with block b at starts(:, b), counts(:, b), held
  !> one after the other in memory (size(starts, 2) blocks; 0 for none).
  subroutine decomp_create_blocks(decomp, group, file_type, dims, starts, counts, order, aggregators, &
                                  aggregator_ranks, buffer_size, byte_order, align, convert, buffering, ierr)
    type(pario_decomp), intent(out) :: decomp
    type(pario_group), intent(in) :: group
    integer, intent(in) :: file_type
    integer(int64), intent(in) :: dims(:), starts(:, :), counts(:, :)
    integer, intent(in), optional :: order, aggregators, aggregator_ranks(:), byte_order, convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    integer, intent(out), optional :: ierr
    character(*), parameter :: call = 'pario_decomp_create_blocks'
    type(decomp_hints) :: hints
    integer(c_int), allocatable, target :: ranks(:)
    integer(c_int64_t), allocatable :: c_starts(:, :), c_counts(:, :)
    integer(c_int) :: rc, c_order, nblocks
    character(len=160) :: why
    call make_hints(hints, ranks, aggregators, aggregator_ranks, buffer_size, byte_order, align, convert, &
                    buffering)
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
                                         aggregator_ranks, buffer_size, byte_order, align, convert, buffering, ierr)
    type(pario_decomp), intent(out) :: decomp
    type(pario_group), intent(in) :: group
    integer, intent(in) :: file_type
    integer(int64), intent(in) :: global_size, indices(:)
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), byte_order, convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    integer, intent(out), optional :: ierr
    type(decomp_hints) :: hints
    integer(c_int), allocatable, target :: ranks(:)
    integer(c_int64_t), allocatable :: c_indices(:)
    call make_hints(hints, ranks, aggregators, aggregator_ranks, buffer_size, byte_order, align, convert, &
                    buffering)
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
                                      aggregator_ranks, buffer_size, byte_order, align, convert, buffering, ierr)
    type(pario_decomp), intent(out) :: decomp
    type(pario_group), intent(in) :: group
    integer, intent(in) :: file_type
    integer(int64), intent(in) :: keys(:)
    integer(int64), intent(out), optional :: positions(:), global_size
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), byte_order, convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    integer, intent(out), optional :: ierr
    character(*), parameter :: call = 'pario_decomp_create_keys'
    type(decomp_hints) :: hints
    integer(c_int), allocatable, target :: ranks(:)
    integer(c_int64_t), allocatable :: c_keys(:), c_positions(:)
    integer(c_int64_t) :: n, distinct
    integer(c_int) :: rc
    character(len=160) :: why
    call make_hints(hints, ranks, aggregators, aggregator_ranks, buffer_size, byte_order, align, convert, &
                    buffering)
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
  integer(c_int) function decomp_move(call, decomp, file, offset, b, req, as_type) result(rc)
    character(*), intent(in) :: call
    type(pario_decomp), intent(in) :: decomp
    type(pario_shared_file), intent(in) :: file
    integer(int64), intent(in) :: offset
    type(buffer_facts), intent(in) :: b
    type(pario_request), intent(out), optional :: req
    integer, intent(in), optional :: as_type
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
    else
      call check_memory_type(b, as_type, why)
    end if
    mem_type = b%type
    if (present(as_type)) mem_type = int(as_type, c_int)
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
  !> mem_type (optional, here and in read, iwrite, iread): the buffer's
  !> pario type when it is not the Fortran type's own, that is
  !> PARIO_TYPE_UINT8 .. _UINT64 in integers of the same size.
  subroutine pario_decomp_write(decomp, file, offset, buf, ierr, mem_type)
    type(pario_decomp), intent(in) :: decomp
    type(pario_shared_file), intent(in) :: file
    integer(int64), intent(in) :: offset
    type(*), dimension(..), contiguous, intent(in) :: buf
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: mem_type
    call finish(decomp_move('pario_decomp_write', decomp, file, offset, facts(buf), as_type=mem_type), ierr)
  end subroutine

  !> Collective: reads this rank's elements into buf (converted to its type).
  subroutine pario_decomp_read(decomp, file, offset, buf, ierr, mem_type)
    type(pario_decomp), intent(in) :: decomp
    type(pario_shared_file), intent(in) :: file
    integer(int64), intent(in) :: offset
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: mem_type
    call finish(decomp_move('pario_decomp_read', decomp, file, offset, facts(buf), as_type=mem_type), ierr)
  end subroutine

  !> Collective, nonblocking: starts a write; buf (contiguous) may change as
  !> soon as this returns. pario_wait on req is collective.
  subroutine pario_decomp_iwrite(decomp, file, offset, buf, req, ierr, mem_type)
    type(pario_decomp), intent(in) :: decomp
    type(pario_shared_file), intent(in) :: file
    integer(int64), intent(in) :: offset
    type(*), dimension(..), target, intent(in) :: buf
    type(pario_request), intent(out) :: req
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: mem_type
    call finish(decomp_move('pario_decomp_iwrite', decomp, file, offset, facts(buf), req, as_type=mem_type), ierr)
  end subroutine

  !> Collective, nonblocking: starts a read into buf (contiguous), filled by
  !> pario_wait(req) (collective); leave it alone until then.
  subroutine pario_decomp_iread(decomp, file, offset, buf, req, ierr, mem_type)
    type(pario_decomp), intent(in) :: decomp
    type(pario_shared_file), intent(in) :: file
    integer(int64), intent(in) :: offset
    type(*), dimension(..), target, intent(inout) :: buf
    type(pario_request), intent(out) :: req
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: mem_type
    call finish(decomp_move('pario_decomp_iread', decomp, file, offset, facts(buf), req, as_type=mem_type), ierr)
  end subroutine

  integer(c_size_t) function bytes(b)
    type(buffer_facts), intent(in) :: b
    bytes = int(b%elements * b%elem_bytes, c_size_t)
  end function

  ! ---- Exodus II files (pario/exodus.h) ----
  !
  ! The C calls one for one, collective unless said local: handle first,
  ! ierr last; ids and counts integer(int64), coordinates and values
  ! real(real64), names character(*) (trailing blanks dropped). Indices the
  ! C API takes 0-based are 1-based here: read starts (the first node or
  ! element of the file is 1), block indices of pario_exodus_get_block.
  ! Connectivity is an array (nodes_per_element, n): column e holds element
  ! e's global node ids (put) or 1-based node positions (read). A rank's
  ! array this module refuses (shorter than its ids) still makes the C call,
  ! with a count C refuses, so that every rank fails together.

  ! NUL-terminated copies of strings in buf and a C pointer to each; buf
  ! must stay allocated while ptrs are used.
  subroutine c_strings(strings, buf, ptrs)
    character(*), intent(in) :: strings(:)
    character(kind=c_char), allocatable, target, intent(inout) :: buf(:)
    type(c_ptr), allocatable, intent(inout) :: ptrs(:)
    integer :: i, j, at, n
    allocate (buf(sum(len_trim(strings)) + size(strings) + 1), ptrs(max(1, size(strings))))
    at = 1
    do i = 1, size(strings)
      ptrs(i) = c_loc(buf(at))
      n = len_trim(strings(i))
      do j = 1, n
        buf(at + j - 1) = strings(i)(j:j)
      end do
      buf(at + n) = c_null_char
      at = at + n + 1
    end do
  end subroutine

  ! A C string (NUL-terminated in buf) as a Fortran one, blank-padded.
  subroutine from_c(buf, s)
    character(kind=c_char), intent(in) :: buf(:)
    character(*), intent(out) :: s
    integer :: i
    s = ' '
    do i = 1, min(size(buf), len(s))
      if (buf(i) == c_null_char) exit
      s(i:i) = buf(i)
    end do
  end subroutine

  ! A real32 array's address, or NULL when empty.
  type(c_ptr) function address32(a)
    real(real32), intent(in), target, contiguous :: a(:)
    address32 = c_null_ptr
    if (size(a) > 0) address32 = c_loc(a)
  end function

  ! The optional array's address, or NULL.
  ! Call it only with a present array: gfortran makes a new descriptor for
  ! the call from the actual's, which an absent optional does not have
  ! (UBSan: load of null pointer); hence the present() at the callers.
  type(c_ptr) function address(a)
    real(real64), intent(in), target, contiguous :: a(:)
    address = c_null_ptr
    if (size(a) > 0) address = c_loc(a)
  end function

  ! The address of the hints of the optional arguments (make_hints', the
  ! byte order native) for an options struct of Exodus, a dataset or a
  ! wave-function file; hints and ranks must stay alive for the C call.
  type(c_ptr) function hinted(hints, ranks, aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
    type(decomp_hints), target, intent(out) :: hints
    integer(c_int), allocatable, target, intent(inout) :: ranks(:)
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    call make_hints(hints, ranks, aggregators, aggregator_ranks, buffer_size, align=align, convert=convert, &
                    buffering=buffering)
    hinted = c_loc(hints)
  end function

  ! Exodus options of zeros pointing at the hints of the optional arguments
  ! (hinted's); hints and ranks must stay alive for the C call.
  subroutine exodus_hinted(o, hints, ranks, aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
    type(exodus_options), intent(out) :: o
    type(decomp_hints), target, intent(out) :: hints
    integer(c_int), allocatable, target, intent(inout) :: ranks(:)
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    o = exodus_options(0, 0, 0, hinted(hints, ranks, aggregators, aggregator_ranks, buffer_size, align, convert, &
                                       buffering), 0, 0, 0)
  end subroutine

  !> Collective: makes the file at path (replacing one there) for every
  !> rank of group. format: PARIO_EXODUS_FORMAT_* (default AUTO);
  !> float_size: bytes of a real in the file, 8 (default) or 4.
  !> steps_per_file n > 0: a new file (path-s0002, path-s0003, ...) every n steps.
  !> int64 = .true.: 64-bit integers in the file (CDF-5).
  !> nemesis = .true.: the Nemesis load-balance information of the ranks'
  !> partition (written once the nodes and every block are put).
  !> Each step is synced before readers count it (PARIO_EXODUS_SYNC, "step"
  !> by default: a writer killed during step k leaves steps 1..k-1 readable).
  !> aggregators, aggregator_ranks, buffer_size, align, convert, buffering:
  !> the collective engine's hints as pario_decomp_create_blocks takes them
  !> (no byte_order: netCDF's is big-endian); the file's bytes do not
  !> depend on them. After ierr, which came first: pass them by name.
  subroutine pario_exodus_create(exo, group, path, format, float_size, ierr, steps_per_file, int64, nemesis, &
                                 aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
    type(pario_exodus), intent(out) :: exo
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    integer, intent(in), optional :: format, float_size, steps_per_file
    logical, intent(in), optional :: int64, nemesis
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), convert, buffering
    integer(c_int64_t), intent(in), optional :: buffer_size, align  ! c_int64_t: the argument int64 hides the kind
    type(exodus_options) :: o
    type(decomp_hints), target :: hints
    integer(c_int), allocatable, target :: ranks(:)
    call exodus_hinted(o, hints, ranks, aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
    if (present(int64)) o%int64 = merge(1_c_int, 0_c_int, int64)
    if (present(nemesis)) o%nemesis = merge(1_c_int, 0_c_int, nemesis)
    if (present(format)) o%format = int(format, c_int)
    if (present(float_size)) o%float_size = int(float_size, c_int)
    if (present(steps_per_file)) o%steps_per_file = int(steps_per_file, c_int)
    call finish(c_exo_create(group%h, cstr(path), o, exo%h), ierr)
  end subroutine

  !> Collective: an existing Exodus II file for reading by every rank of group.
  !> steps_per_file n > 0: path is the first file of a series written with n
  !> steps per file, and the last file holding steps opens. The hints (after
  !> ierr) as for pario_exodus_create.
  subroutine pario_exodus_open(exo, group, path, ierr, steps_per_file, aggregators, aggregator_ranks, buffer_size, &
                               align, convert, buffering)
    type(pario_exodus), intent(out) :: exo
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: steps_per_file
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    integer(c_int) :: rc
    integer(c_int64_t) :: nn, ne
    integer(c_int) :: dims, nb, nns, nss, steps
    character(kind=c_char) :: title(1)
    type(exodus_options), target :: o
    type(decomp_hints), target :: hints
    integer(c_int), allocatable, target :: ranks(:)
    call exodus_hinted(o, hints, ranks, aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
    if (present(steps_per_file)) o%steps_per_file = int(steps_per_file, c_int)
    rc = c_exo_open(group%h, cstr(path), c_loc(o), exo%h)
    if (rc == 0) rc = c_exo_get_info(exo%h, title, 1_c_size_t, dims, nn, ne, nb, nns, nss, steps)
    if (rc == 0) exo%num_dim = int(dims)
    call finish(rc, ierr)
  end subroutine

  !> Collective: finishes the open step and the file, closes it.
  subroutine pario_exodus_close(exo, ierr)
    type(pario_exodus), intent(inout) :: exo
    integer, intent(out), optional :: ierr
    call finish(c_exo_close(exo%h), ierr)
  end subroutine

  !> Collective: title, dimensions (1..3), global numbers of nodes and
  !> elements, how many blocks and sets will be defined.
  subroutine pario_exodus_init(exo, title, num_dim, num_nodes, num_elem, num_blocks, num_node_sets, &
                               num_side_sets, ierr)
    type(pario_exodus), intent(inout) :: exo
    character(*), intent(in) :: title
    integer, intent(in) :: num_dim, num_blocks, num_node_sets, num_side_sets
    integer(int64), intent(in) :: num_nodes, num_elem
    integer, intent(out), optional :: ierr
    integer(c_int) :: rc
    rc = c_exo_init(exo%h, cstr(title), int(num_dim, c_int), num_nodes, num_elem, int(num_blocks, c_int), &
                    int(num_node_sets, c_int), int(num_side_sets, c_int))
    if (rc == 0) exo%num_dim = num_dim
    call finish(rc, ierr)
  end subroutine

  !> Collective: an element block (attributes per element: default 0).
  subroutine pario_exodus_define_block(exo, block_id, name, type, count, nodes_per_element, attributes, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: block_id, count
    character(*), intent(in) :: name, type
    integer, intent(in) :: nodes_per_element
    integer, intent(in), optional :: attributes
    integer, intent(out), optional :: ierr
    integer(c_int) :: a
    a = 0
    if (present(attributes)) a = int(attributes, c_int)
    call finish(c_exo_define_block(exo%h, block_id, cstr(name), cstr(type), count, int(nodes_per_element, c_int), &
                                   a), ierr)
  end subroutine

  !> Collective: a node set of count nodes (has_df: one distribution factor each).
  subroutine pario_exodus_define_node_set(exo, set_id, name, count, has_df, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: set_id, count
    character(*), intent(in) :: name
    logical, intent(in), optional :: has_df
    integer, intent(out), optional :: ierr
    integer(c_int) :: df
    df = 0
    if (present(has_df)) df = merge(1_c_int, 0_c_int, has_df)
    call finish(c_exo_define_node_set(exo%h, set_id, cstr(name), count, df), ierr)
  end subroutine

  !> Collective: a side set of count (element, side) pairs, df_per_side
  !> distribution factors each; or, with num_df, sides of different numbers
  !> of factors (num_df in all; put them with pario_exodus_put_side_set's df_counts).
  subroutine pario_exodus_define_side_set(exo, set_id, name, count, df_per_side, ierr, num_df)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: set_id, count
    character(*), intent(in) :: name
    integer, intent(in), optional :: df_per_side
    integer, intent(out), optional :: ierr
    integer(int64), intent(in), optional :: num_df
    integer(c_int) :: df
    if (present(num_df)) then
      call finish(c_exo_define_side_set_df(exo%h, set_id, cstr(name), count, num_df), ierr)
      return
    end if
    df = 0
    if (present(df_per_side)) df = int(df_per_side, c_int)
    call finish(c_exo_define_side_set(exo%h, set_id, cstr(name), count, df), ierr)
  end subroutine

  !> Collective: QA records, records(1:4, i) = code, version, date, time.
  subroutine pario_exodus_put_qa(exo, records, ierr)
    type(pario_exodus), intent(in) :: exo
    character(*), intent(in) :: records(:, :)
    integer, intent(out), optional :: ierr
    character(kind=c_char), allocatable, target :: buf(:)
    type(c_ptr), allocatable :: ptrs(:)
    integer(c_int) :: rc
    if (size(records, 1) /= 4) then
      rc = c_exo_put_qa(exo%h, -1_c_int, [c_null_ptr])  ! refused by C on every rank
      rc = refuse(INVALID_ARGUMENT, 'pario_exodus_put_qa', 'records must have 4 rows (code, version, date, time)')
    else
      call c_strings(reshape(records, [size(records)]), buf, ptrs)
      rc = c_exo_put_qa(exo%h, int(size(records, 2), c_int), ptrs)
    end if
    call finish(rc, ierr)
  end subroutine

  !> Collective: info lines (up to 80 characters each).
  subroutine pario_exodus_put_info(exo, lines, ierr)
    type(pario_exodus), intent(in) :: exo
    character(*), intent(in) :: lines(:)
    integer, intent(out), optional :: ierr
    character(kind=c_char), allocatable, target :: buf(:)
    type(c_ptr), allocatable :: ptrs(:)
    call c_strings(lines, buf, ptrs)
    call finish(c_exo_put_info(exo%h, int(size(lines), c_int), ptrs), ierr)
  end subroutine

  !> Collective: the variables of kind PARIO_EXODUS_GLOBAL, _NODAL or
  !> _ELEMENT, numbered 1..size(names).
  subroutine pario_exodus_define_variables(exo, kind, names, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: kind
    character(*), intent(in) :: names(:)
    integer, intent(out), optional :: ierr
    character(kind=c_char), allocatable, target :: buf(:)
    type(c_ptr), allocatable :: ptrs(:)
    call c_strings(names, buf, ptrs)
    call finish(c_exo_define_variables(exo%h, int(kind, c_int), int(size(names), c_int), ptrs), ierr)
  end subroutine

  !> Collective: ends the definition (otherwise the first data call does).
  subroutine pario_exodus_end_define(exo, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(out), optional :: ierr
    call finish(c_exo_end_define(exo%h), ierr)
  end subroutine

  !> Collective: this rank's nodes (those its elements use): global ids and
  !> coordinates (x, y, z as num_dim needs, each at least size(ids) long).
  subroutine pario_exodus_put_nodes(exo, ids, x, y, z, ierr)
    type(pario_exodus), intent(inout) :: exo
    integer(int64), intent(in) :: ids(:)
    real(real64), intent(in), target, contiguous :: x(:)
    real(real64), intent(in), optional, target, contiguous :: y(:), z(:)
    integer, intent(out), optional :: ierr
    character(*), parameter :: call = 'pario_exodus_put_nodes'
    type(c_ptr) :: py, pz
    integer(c_int64_t) :: n
    integer(c_int) :: rc
    logical :: short
    n = size(ids, kind=int64)
    short = size(x) < n
    if (exo%num_dim >= 2 .and. present(y)) short = short .or. size(y) < n
    if (exo%num_dim >= 3 .and. present(z)) short = short .or. size(z) < n
    py = c_null_ptr
    pz = c_null_ptr
    if (present(y)) py = address(y)
    if (present(z)) pz = address(z)
    rc = c_exo_put_nodes(exo%h, merge(-1_c_int64_t, n, short), ids, int(PARIO_TYPE_DOUBLE, c_int), address(x), py, pz)
    if (short) rc = refuse(INVALID_ARGUMENT, call, 'a coordinate array is shorter than ids')
    if (rc == 0) exo%local_nodes = n
    call finish(rc, ierr)
  end subroutine

  !> Collective: this rank's elements of a block: global ids and
  !> connectivity(nodes_per_element, size(ids)) of global node ids.
  subroutine pario_exodus_put_block(exo, block_id, ids, connectivity, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: block_id, ids(:), connectivity(:, :)
    integer, intent(out), optional :: ierr
    integer(c_int) :: rc
    logical :: bad
    bad = size(connectivity, 2) /= size(ids)
    rc = c_exo_put_block(exo%h, block_id, merge(-1_int64, size(ids, kind=int64), bad), ids, connectivity)
    if (bad) rc = refuse(INVALID_ARGUMENT, 'pario_exodus_put_block', &
                         'connectivity must have one column per element of ids')
    call finish(rc, ierr)
  end subroutine

  !> Collective: this rank's part of a node set (df: one factor per node, if the set has them).
  subroutine pario_exodus_put_node_set(exo, set_id, node_ids, df, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: set_id, node_ids(:)
    real(real64), intent(in), optional, target, contiguous :: df(:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: pdf
    pdf = c_null_ptr
    if (present(df)) pdf = address(df)
    call finish(c_exo_put_node_set(exo%h, set_id, size(node_ids, kind=int64), node_ids, &
                                   int(PARIO_TYPE_DOUBLE, c_int), pdf), ierr)
  end subroutine

  !> Collective: this rank's part of a side set: (elem_ids(i), sides(i)) pairs.
  !> df_counts (a set defined with num_df): df_counts(i) factors of side i,
  !> df all of them, side after side.
  subroutine pario_exodus_put_side_set(exo, set_id, elem_ids, sides, df, ierr, df_counts)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: set_id, elem_ids(:)
    integer, intent(in) :: sides(:)
    real(real64), intent(in), optional, target, contiguous :: df(:)
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: df_counts(:)
    integer(c_int) :: rc
    logical :: bad
    type(c_ptr) :: pdf
    pdf = c_null_ptr
    if (present(df)) pdf = address(df)
    bad = size(sides) /= size(elem_ids)
    if (present(df_counts)) then
      bad = bad .or. size(df_counts) /= size(elem_ids)
      rc = c_exo_put_side_set_df(exo%h, set_id, merge(-1_int64, size(elem_ids, kind=int64), bad), elem_ids, &
                                 int(sides, c_int), int(df_counts, c_int), int(PARIO_TYPE_DOUBLE, c_int), pdf)
    else
      rc = c_exo_put_side_set(exo%h, set_id, merge(-1_int64, size(elem_ids, kind=int64), bad), elem_ids, &
                              int(sides, c_int), int(PARIO_TYPE_DOUBLE, c_int), pdf)
    end if
    if (bad) rc = refuse(INVALID_ARGUMENT, 'pario_exodus_put_side_set', 'sides, df_counts and elem_ids differ in size')
    call finish(rc, ierr)
  end subroutine

  !> Collective: begins step (1, 2, ...) at time.
  subroutine pario_exodus_put_time(exo, step, time, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step
    real(real64), intent(in) :: time
    integer, intent(out), optional :: ierr
    call finish(c_exo_put_time(exo%h, int(step, c_int), real(time, c_double)), ierr)
  end subroutine

  !> Collective: every global variable's value of the step (equal on every rank).
  subroutine pario_exodus_put_global_values(exo, step, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step
    real(real64), intent(in), target, contiguous :: values(:)
    integer, intent(out), optional :: ierr
    call finish(c_exo_put_global_values(exo%h, int(step, c_int), int(size(values), c_int), &
                                        int(PARIO_TYPE_DOUBLE, c_int), address(values)), ierr)
  end subroutine

  !> Collective: nodal variable var (1-based) of the step for this rank's
  !> nodes, in the order of pario_exodus_put_nodes.
  subroutine exo_put_nodal_r64(exo, step, var, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step, var
    real(real64), intent(in), target, contiguous :: values(:)
    integer, intent(out), optional :: ierr
    call exo_put_nodal(exo, step, var, size(values, kind=int64), PARIO_TYPE_DOUBLE, address(values), ierr)
  end subroutine

  subroutine exo_put_nodal_r32(exo, step, var, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step, var
    real(real32), intent(in), target, contiguous :: values(:)
    integer, intent(out), optional :: ierr
    call exo_put_nodal(exo, step, var, size(values, kind=int64), PARIO_TYPE_FLOAT, address32(values), ierr)
  end subroutine

  subroutine exo_put_nodal(exo, step, var, n, mtype, p, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step, var, mtype
    integer(int64), intent(in) :: n
    type(c_ptr), intent(in) :: p
    integer, intent(out), optional :: ierr
    integer(c_int) :: rc, mem_type
    mem_type = int(mtype, c_int)
    if (n < exo%local_nodes) mem_type = 0  ! refused by C on every rank
    rc = c_exo_put_nodal_values(exo%h, int(step, c_int), int(var, c_int), mem_type, p)
    if (mem_type == 0) rc = refuse(INVALID_ARGUMENT, 'pario_exodus_put_nodal_values', &
                                   'values is shorter than this rank''s nodes')
    call finish(rc, ierr)
  end subroutine

  !> Collective: element variable var (1-based) of the step for this
  !> rank's elements of block block_id, in the order of pario_exodus_put_block.
  subroutine exo_put_element_r64(exo, step, var, block_id, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step, var
    integer(int64), intent(in) :: block_id
    real(real64), intent(in), target, contiguous :: values(:)
    integer, intent(out), optional :: ierr
    call finish(c_exo_put_element_values(exo%h, int(step, c_int), int(var, c_int), block_id, &
                                         int(PARIO_TYPE_DOUBLE, c_int), address(values)), ierr)
  end subroutine

  subroutine exo_put_element_r32(exo, step, var, block_id, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step, var
    integer(int64), intent(in) :: block_id
    real(real32), intent(in), target, contiguous :: values(:)
    integer, intent(out), optional :: ierr
    call finish(c_exo_put_element_values(exo%h, int(step, c_int), int(var, c_int), block_id, &
                                         int(PARIO_TYPE_FLOAT, c_int), address32(values)), ierr)
  end subroutine

  !> Collective: ends the open step (synced, then counted for readers).
  subroutine pario_exodus_flush(exo, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(out), optional :: ierr
    call finish(c_exo_flush(exo%h), ierr)
  end subroutine

  !> Local: what a file opened for reading holds (each output optional).
  subroutine pario_exodus_get_info(exo, title, num_dim, num_nodes, num_elem, num_blocks, num_node_sets, &
                                   num_side_sets, num_steps, ierr)
    type(pario_exodus), intent(in) :: exo
    character(*), intent(out), optional :: title
    integer, intent(out), optional :: num_dim, num_blocks, num_node_sets, num_side_sets, num_steps
    integer(int64), intent(out), optional :: num_nodes, num_elem
    integer, intent(out), optional :: ierr
    character(kind=c_char) :: t(81)
    integer(c_int) :: rc, d, nb, nns, nss, ns
    integer(c_int64_t) :: nn, ne
    rc = c_exo_get_info(exo%h, t, int(size(t), c_size_t), d, nn, ne, nb, nns, nss, ns)
    if (rc == 0) then
      if (present(title)) call from_c(t, title)
      if (present(num_dim)) num_dim = int(d)
      if (present(num_nodes)) num_nodes = nn
      if (present(num_elem)) num_elem = ne
      if (present(num_blocks)) num_blocks = int(nb)
      if (present(num_node_sets)) num_node_sets = int(nns)
      if (present(num_side_sets)) num_side_sets = int(nss)
      if (present(num_steps)) num_steps = int(ns)
    end if
    call finish(rc, ierr)
  end subroutine

  !> Local: block `index` (1-based, file order).
  subroutine pario_exodus_get_block(exo, index, block_id, name, type, count, nodes_per_element, ierr, num_attributes)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: index
    integer(int64), intent(out), optional :: block_id, count
    character(*), intent(out), optional :: name, type
    integer, intent(out), optional :: nodes_per_element, num_attributes
    integer, intent(out), optional :: ierr
    character(kind=c_char) :: n(33), t(33)
    integer(c_int64_t) :: id, c
    integer(c_int) :: rc, npe, na
    rc = c_exo_get_block(exo%h, int(index - 1, c_int), id, n, int(size(n), c_size_t), t, int(size(t), c_size_t), &
                         c, npe)
    if (rc == 0 .and. present(num_attributes)) then
      rc = c_exo_get_block_attributes(exo%h, int(index - 1, c_int), na)
      if (rc == 0) num_attributes = int(na)
    end if
    if (rc == 0) then
      if (present(block_id)) block_id = id
      if (present(name)) call from_c(n, name)
      if (present(type)) call from_c(t, type)
      if (present(count)) count = c
      if (present(nodes_per_element)) nodes_per_element = int(npe)
    end if
    call finish(rc, ierr)
  end subroutine

  !> Local: how many variables of a kind (num_vars) and the name of var (1-based; 0: only the count).
  subroutine pario_exodus_get_variable(exo, kind, var, name, num_vars, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: kind, var
    character(*), intent(out), optional :: name
    integer, intent(out), optional :: num_vars
    integer, intent(out), optional :: ierr
    character(kind=c_char) :: n(33)
    integer(c_int) :: rc, nv
    rc = c_exo_get_variable(exo%h, int(kind, c_int), int(var, c_int), n, int(size(n), c_size_t), nv)
    if (rc == 0) then
      if (present(name)) call from_c(n, name)
      if (present(num_vars)) num_vars = int(nv)
    end if
    call finish(rc, ierr)
  end subroutine

  !> Local: pario's own read partition: the file's elements split evenly
  !> over the group's ranks in file order; this rank's elements of block b
  !> (file order) are start(b) .. start(b) + count(b) - 1 (1-based) of it.
  !> start and count have the file's number of blocks.
  subroutine pario_exodus_get_partition(exo, start, count, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(out) :: start(:), count(:)
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: s(max(1, size(start))), c(max(1, size(start)))
    integer(c_int) :: rc
    if (size(count) /= size(start)) then
      call finish(refuse(INVALID_ARGUMENT, 'pario_exodus_get_partition', 'start and count differ in size'), ierr)
      return
    end if
    rc = c_exo_get_partition(exo%h, int(size(start), c_int), s, c)
    if (rc == 0) then
      start = s(1:size(start)) + 1
      count = c(1:size(start))
    end if
    call finish(rc, ierr)
  end subroutine

  !> Local: which element variables each block holds, as
  !> ex_get_truth_table: table(v, b) = 1 for variable v of block b (file
  !> order); table must be (the file's element variables, its blocks).
  subroutine pario_exodus_get_truth_table(exo, table, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(out) :: table(:, :)
    integer, intent(out), optional :: ierr
    integer(c_int) :: t(max(1, size(table)))
    integer(c_int) :: rc
    rc = c_exo_get_truth_table(exo%h, int(size(table, 2), c_int), int(size(table, 1), c_int), t)
    if (rc == 0) table = reshape(int(t(1:size(table))), shape(table))
    call finish(rc, ierr)
  end subroutine

  !> Local: the time of step (1-based).
  subroutine pario_exodus_get_time(exo, step, time, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step
    real(real64), intent(out) :: time
    integer, intent(out), optional :: ierr
    real(c_double) :: t
    integer(c_int) :: rc
    rc = c_exo_get_time(exo%h, int(step, c_int), t)
    if (rc == 0) time = t
    call finish(rc, ierr)
  end subroutine

  !> Collective: coordinates of nodes start .. start + size(x) - 1 (1-based
  !> file positions); y, z as num_dim needs, each as long as x.
  subroutine pario_exodus_read_coords(exo, start, x, y, z, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: start
    real(real64), intent(inout), target, contiguous :: x(:)
    real(real64), intent(inout), optional, target, contiguous :: y(:), z(:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: py, pz
    py = c_null_ptr
    pz = c_null_ptr
    if (present(y)) py = address(y)
    if (present(z)) pz = address(z)
    call finish(c_exo_read_coords(exo%h, start - 1, size(x, kind=int64), int(PARIO_TYPE_DOUBLE, c_int), &
                                  address(x), py, pz), ierr)
  end subroutine

  !> Collective: global ids of nodes start .. start + size(ids) - 1.
  subroutine pario_exodus_read_node_ids(exo, start, ids, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: start
    integer(int64), intent(inout), target, contiguous :: ids(:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(ids) > 0) p = c_loc(ids)
    call finish(c_exo_read_node_ids(exo%h, start - 1, size(ids, kind=int64), p), ierr)
  end subroutine

  !> Collective: elements start .. start + size(connectivity, 2) - 1 of a
  !> block: connectivity(nodes_per_element, count) as 1-based node
  !> positions, and (optional) their global ids.
  subroutine pario_exodus_read_block(exo, block_id, start, connectivity, ids, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: block_id, start
    integer(int64), intent(inout), target, contiguous :: connectivity(:, :)
    integer(int64), intent(inout), optional, target, contiguous :: ids(:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: p, c
    integer(c_int) :: rc
    logical :: bad
    p = c_null_ptr
    c = c_null_ptr
    bad = .false.
    if (present(ids)) then
      bad = size(ids) < size(connectivity, 2)
      if (size(ids) > 0) p = c_loc(ids)
    end if
    if (size(connectivity) > 0) c = c_loc(connectivity)
    rc = c_exo_read_block(exo%h, block_id, start - 1, merge(-1_int64, size(connectivity, 2, kind=int64), bad), p, c)
    if (bad) rc = refuse(INVALID_ARGUMENT, 'pario_exodus_read_block', 'ids is shorter than connectivity''s columns')
    call finish(rc, ierr)
  end subroutine

  !> Collective: nodal variable var of a step, nodes start .. start + size(values) - 1.
  subroutine pario_exodus_read_nodal_values(exo, step, var, start, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step, var
    integer(int64), intent(in) :: start
    real(real64), intent(inout), target, contiguous :: values(:)
    integer, intent(out), optional :: ierr
    call finish(c_exo_read_nodal_values(exo%h, int(step, c_int), int(var, c_int), start - 1, &
                                        size(values, kind=int64), int(PARIO_TYPE_DOUBLE, c_int), address(values)), &
                ierr)
  end subroutine

  !> Collective: attributes of elements start .. start + size(values, 2) - 1
  !> of a block, values(a, e) (size(values, 1) = the block's attributes).
  subroutine pario_exodus_read_attributes(exo, block_id, start, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: block_id, start
    real(real64), intent(inout), target, contiguous :: values(:, :)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: p
    integer(c_int64_t) :: id, c, nn, ne
    integer(c_int) :: rc, npe, na, b, nd, nb, nns, nss, nst
    character(kind=c_char) :: n(2), t(2)
    logical :: bad
    ! The block's attributes per element must be values' rows; a rank whose
    ! are not still enters the call, with a count C refuses everywhere.
    na = -1
    nb = 0
    if (c_exo_get_info(exo%h, n, 2_c_size_t, nd, nn, ne, nb, nns, nss, nst) /= 0) nb = 0
    do b = 0, nb - 1
      rc = c_exo_get_block(exo%h, b, id, n, 2_c_size_t, t, 2_c_size_t, c, npe)
      if (rc == 0 .and. id == block_id) rc = c_exo_get_block_attributes(exo%h, b, na)
    end do
    bad = na >= 0 .and. size(values, 1) /= na .and. size(values, 2) > 0
    p = c_null_ptr
    if (size(values) > 0) p = c_loc(values)
    rc = c_exo_read_attributes(exo%h, block_id, start - 1, merge(-1_int64, size(values, 2, kind=int64), bad), &
                               int(PARIO_TYPE_DOUBLE, c_int), p)
    if (bad) rc = refuse(INVALID_ARGUMENT, 'pario_exodus_read_attributes', 'values'' rows are not the block''s attributes')
    call finish(rc, ierr)
  end subroutine

  !> Collective: global variables 1 .. size(values) of a step, on every rank.
  subroutine pario_exodus_read_global_values(exo, step, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step
    real(real64), intent(inout), target, contiguous :: values(:)
    integer, intent(out), optional :: ierr
    call finish(c_exo_read_global_values(exo%h, int(step, c_int), int(size(values), c_int), &
                                         int(PARIO_TYPE_DOUBLE, c_int), address(values)), ierr)
  end subroutine

  !> Collective: element variable var of a step, elements start ..
  !> start + size(values) - 1 of a block.
  subroutine pario_exodus_read_element_values(exo, step, var, block_id, start, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step, var
    integer(int64), intent(in) :: block_id, start
    real(real64), intent(inout), target, contiguous :: values(:)
    integer, intent(out), optional :: ierr
    call finish(c_exo_read_element_values(exo%h, int(step, c_int), int(var, c_int), block_id, start - 1, &
                                          size(values, kind=int64), int(PARIO_TYPE_DOUBLE, c_int), &
                                          address(values)), ierr)
  end subroutine

  ! ---- self-describing datasets (pario/dataset.h) ----
  !
  ! The C calls one for one, collective unless said local: handle first,
  ! ierr last. The module's conventions: segments (positions in time
  ! order), variables (registration order), item starts and info indices
  ! are 1-based; writers and parts are group ranks, 0-based as in MPI.
  ! Values are Fortran-ordered: a section of items of shape item_dims is
  ! an array (item_dims(1), [item_dims(2),] items), so a vector variable of
  ! k components takes values(k, n), and a tensor variable registered with
  ! item_dims = [c, r] is C's r x c row-major item (pario's file holds the
  ! C order: h5py shows the shape reversed, (n, r, c)).
  !
  ! Buffers are assumed-rank arrays of integer(int8/16/32/64),
  ! real(real32/real64) or complex: their type (read from the descriptor)
  ! is the memory type of the call, converted to and from the word type on
  ! the way (a value that does not fit: PARIO_ERR_OUT_OF_RANGE on every
  ! rank; Fortran has no unsigned integers: an unsigned word takes the
  ! signed buffer's values, range-checked). This replaces C's
  ! pario_dataset_variable_set_types: every call sets it from its buffer.
  ! A buffer this module refuses (no pario type, not whole items) still
  ! makes the C call with an argument C refuses, so that every rank fails
  ! together; this rank gets PARIO_ERR_INVALID_ARGUMENT and the module's
  ! message.

  !> Local: whether this build has parallel HDF5 (datasets work).
  logical function pario_dataset_supported()
    pario_dataset_supported = c_ds_supported() /= 0
  end function

  !> Collective: a new dataset at path for every rank of group, open
  !> read-write. mode (default ior(PARIO_CREATE, PARIO_EXCLUSIVE): an
  !> existing file is PARIO_ERR_EXISTS): ior(PARIO_CREATE, PARIO_TRUNCATE)
  !> replaces a pario dataset there. aggregators, aggregator_ranks,
  !> buffer_size, align, convert, buffering: the collective engine's hints
  !> for pario_dataset_write_array and _read_array, as
  !> pario_decomp_create_blocks takes them (no byte_order: HDF5's types
  !> carry it; absent: the environment's, then the defaults; the same on
  !> every rank). After ierr, which came first: pass them by name.
  subroutine pario_dataset_create(ds, group, path, mode, ierr, aggregators, aggregator_ranks, buffer_size, align, &
                                  convert, buffering)
    type(pario_dataset), intent(out) :: ds
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    integer, intent(in), optional :: mode
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    call pario_dataset_create_with(ds, group, path, PARIO_DATASET_ONE_FILE, mode=mode, ierr=ierr, &
                                   aggregators=aggregators, aggregator_ranks=aggregator_ranks, &
                                   buffer_size=buffer_size, align=align, convert=convert, buffering=buffering)
  end subroutine

  !> Collective: pario_dataset_create with a file mode: PARIO_DATASET_ONE_FILE,
  !> PARIO_DATASET_FILE_PER_STEP (a member file per time index) or
  !> PARIO_DATASET_STEPS_PER_FILE (steps_per_file time indices per member).
  !> sync: a PARIO_DATASET_SYNC_* policy (default PARIO_DATASET_SYNC_DEFAULT:
  !> the environment's PARIO_DATASET_SYNC, else fsync at each segment's end).
  !> The hints as for pario_dataset_create.
  subroutine pario_dataset_create_with(ds, group, path, file_mode, steps_per_file, mode, ierr, sync, aggregators, &
                                       aggregator_ranks, buffer_size, align, convert, buffering)
    type(pario_dataset), intent(out) :: ds
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    integer, intent(in) :: file_mode
    integer(int64), intent(in), optional :: steps_per_file
    integer, intent(in), optional :: mode
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: sync
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    type(decomp_hints), target :: hints
    integer(c_int), allocatable, target :: ranks(:)
    type(c_ds_create_options) :: options
    integer(c_int) :: m
    m = ior(PARIO_CREATE, PARIO_EXCLUSIVE)
    if (present(mode)) m = int(mode, c_int)
    options%file_mode = int(file_mode, c_int)
    options%steps_per_file = 0
    if (present(steps_per_file)) options%steps_per_file = steps_per_file
    options%sync = 0
    if (present(sync)) options%sync = int(sync, c_int)
    options%hints = hinted(hints, ranks, aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
    call finish(c_ds_create_with(group%h, cstr(path), m, options, ds%h), ierr)
  end subroutine

  !> Local: how the dataset is laid out in files: its PARIO_DATASET_* file
  !> mode, time indices per member file, and files (the entry file plus
  !> its members).
  subroutine pario_dataset_file_mode(ds, file_mode, steps_per_file, files, ierr)
    type(pario_dataset), intent(in) :: ds
    integer, intent(out) :: file_mode
    integer(int64), intent(out), optional :: steps_per_file, files
    integer, intent(out), optional :: ierr
    integer(c_int) :: m
    integer(c_int64_t) :: n, f
    call finish(c_ds_file_mode(ds%h, m, n, f), ierr)
    file_mode = int(m)
    if (present(steps_per_file)) steps_per_file = n
    if (present(files)) files = f
  end subroutine

  !> Local: the dataset's sync policy (a PARIO_DATASET_SYNC_* other than
  !> _DEFAULT) and what it has done since it was created or opened, the
  !> same on every rank: file syncs (each an fsync of one file) and
  !> write-backs (a file's metadata written without an fsync).
  subroutine pario_dataset_sync_counts(ds, policy, syncs, write_backs, ierr)
    type(pario_dataset), intent(in) :: ds
    integer, intent(out), optional :: policy
    integer(int64), intent(out), optional :: syncs, write_backs
    integer, intent(out), optional :: ierr
    integer(c_int) :: p, rc
    integer(c_int64_t) :: n, w
    rc = c_ds_sync_counts(ds%h, p, n, w)
    if (rc == 0) then
      if (present(policy)) policy = int(p)
      if (present(syncs)) syncs = n
      if (present(write_backs)) write_backs = w
    end if
    call finish(rc, ierr)
  end subroutine

  !> Collective: an existing dataset, mode PARIO_READ (default) or PARIO_RDWR.
  !> sync: a PARIO_DATASET_SYNC_* policy (a run's choice, as for
  !> pario_dataset_create_with); the hints as for pario_dataset_create.
  subroutine pario_dataset_open(ds, group, path, mode, ierr, sync, aggregators, aggregator_ranks, buffer_size, &
                                align, convert, buffering)
    type(pario_dataset), intent(out) :: ds
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    integer, intent(in), optional :: mode
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: sync
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    type(decomp_hints), target :: hints
    integer(c_int), allocatable, target :: ranks(:)
    type(c_ds_open_options) :: options
    integer(c_int) :: m
    m = PARIO_READ
    if (present(mode)) m = int(mode, c_int)
    options%sync = 0
    if (present(sync)) options%sync = int(sync, c_int)
    options%hints = hinted(hints, ranks, aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
    call finish(c_ds_open_with(group%h, cstr(path), m, options, ds%h), ierr)
  end subroutine

  !> Collective: closes the dataset (everything written out; no fsync).
  subroutine pario_dataset_close(ds, ierr)
    type(pario_dataset), intent(inout) :: ds
    integer, intent(out), optional :: ierr
    call finish(c_ds_close(ds%h), ierr)
  end subroutine

  !> Collective: appends a segment of kind PARIO_SEGMENT_TOPOLOGY or _STATE
  !> (time indices and values never decrease); segment: its position.
  subroutine pario_dataset_segment_append(ds, kind, time_index, time_value, segment, ierr)
    type(pario_dataset), intent(in) :: ds
    integer, intent(in) :: kind
    integer(int64), intent(in) :: time_index
    real(real64), intent(in) :: time_value
    integer(int64), intent(out), optional :: segment
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: s
    integer(c_int) :: rc
    rc = c_ds_segment_append(ds%h, int(kind, c_int), time_index, time_value, s)
    if (rc == 0 .and. present(segment)) segment = s + 1
    call finish(rc, ierr)
  end subroutine

  !> Local: the number of segments.
  subroutine pario_dataset_segment_count(ds, count, ierr)
    type(pario_dataset), intent(in) :: ds
    integer(int64), intent(out) :: count
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: n
    integer(c_int) :: rc
    rc = c_ds_segment_count(ds%h, n)
    if (rc == 0) count = n
    call finish(rc, ierr)
  end subroutine

  !> Local: a segment's kind, time index and time value.
  subroutine pario_dataset_segment_info(ds, segment, kind, time_index, time_value, ierr)
    type(pario_dataset), intent(in) :: ds
    integer(int64), intent(in) :: segment
    integer, intent(out), optional :: kind
    integer(int64), intent(out), optional :: time_index
    real(real64), intent(out), optional :: time_value
    integer, intent(out), optional :: ierr
    integer(c_int) :: k, rc
    integer(c_int64_t) :: ti
    real(c_double) :: tv
    rc = c_ds_segment_info(ds%h, segment - 1, k, ti, tv)
    if (rc == 0) then
      if (present(kind)) kind = int(k)
      if (present(time_index)) time_index = ti
      if (present(time_value)) time_value = tv
    end if
    call finish(rc, ierr)
  end subroutine

  ! A found segment's position, 1-based.
  subroutine found_segment(rc, s, segment, ierr)
    integer(c_int), intent(in) :: rc
    integer(c_int64_t), intent(in) :: s
    integer(int64), intent(out) :: segment
    integer, intent(out), optional :: ierr
    if (rc == 0) segment = s + 1
    call finish(rc, ierr)
  end subroutine

  !> Local: the first segment of kind (PARIO_SEGMENT_ANY too) with this
  !> time index; PARIO_ERR_NOT_FOUND if none.
  subroutine pario_dataset_segment_find_index(ds, kind, time_index, segment, ierr)
    type(pario_dataset), intent(in) :: ds
    integer, intent(in) :: kind
    integer(int64), intent(in) :: time_index
    integer(int64), intent(out) :: segment
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: s
    call found_segment(c_ds_find_index(ds%h, int(kind, c_int), time_index, s), s, segment, ierr)
  end subroutine

  !> Local: the last segment of kind (PARIO_SEGMENT_ANY too) whose time
  !> value is <= time_value; PARIO_ERR_NOT_FOUND if none.
  subroutine pario_dataset_segment_find_time(ds, kind, time_value, segment, ierr)
    type(pario_dataset), intent(in) :: ds
    integer, intent(in) :: kind
    real(real64), intent(in) :: time_value
    integer(int64), intent(out) :: segment
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: s
    call found_segment(c_ds_find_time(ds%h, int(kind, c_int), time_value, s), s, segment, ierr)
  end subroutine

  !> Collective: erases every segment after last_kept (0: every segment).
  subroutine pario_dataset_truncate(ds, last_kept, ierr)
    type(pario_dataset), intent(in) :: ds
    integer(int64), intent(in) :: last_kept
    integer, intent(out), optional :: ierr
    call finish(c_ds_truncate(ds%h, last_kept - 1), ierr)
  end subroutine

  !> Collective: registers a variable: name, item kind PARIO_ITEM_SCALAR,
  !> _VECTOR (item_dims = [k]) or _TENSOR (item_dims = [c, r], see above),
  !> word type PARIO_TYPE_*; variable: its id. The same definition again
  !> gives its id; another one PARIO_ERR_EXISTS.
  subroutine pario_dataset_variable_register(ds, name, item_kind, word_type, variable, item_dims, ierr)
    type(pario_dataset), intent(in) :: ds
    character(*), intent(in) :: name
    integer, intent(in) :: item_kind, word_type
    integer, intent(out), optional :: variable
    integer(int64), intent(in), optional :: item_dims(:)
    integer, intent(out), optional :: ierr
    integer(c_int) :: v, rc
    integer(c_int64_t) :: dims(2)
    integer :: n
    dims = 0  ! C's item dims: the module's, a tensor's reversed (Fortran order)
    if (present(item_dims)) then  ! only then: gfortran reads an absent array's descriptor when passing it on
      n = min(2, size(item_dims))
      dims(1:n) = item_dims(1:n)
      if (item_kind == PARIO_ITEM_TENSOR) dims = [dims(2), dims(1)]
    end if
    rc = c_ds_variable_register(ds%h, cstr(name), int(item_kind, c_int), dims, int(word_type, c_int), v)
    if (rc == 0 .and. present(variable)) variable = int(v) + 1
    call finish(rc, ierr)
  end subroutine

  !> Local: the id of the variable called name; PARIO_ERR_NOT_FOUND if none.
  subroutine pario_dataset_variable_find(ds, name, variable, ierr)
    type(pario_dataset), intent(in) :: ds
    character(*), intent(in) :: name
    integer, intent(out) :: variable
    integer, intent(out), optional :: ierr
    integer(c_int) :: v, rc
    rc = c_ds_variable_find(ds%h, cstr(name), v)
    if (rc == 0) variable = int(v) + 1
    call finish(rc, ierr)
  end subroutine

  !> Local: the number of variables.
  subroutine pario_dataset_variable_count(ds, count, ierr)
    type(pario_dataset), intent(in) :: ds
    integer, intent(out) :: count
    integer, intent(out), optional :: ierr
    integer(c_int) :: n, rc
    rc = c_ds_variable_count(ds%h, n)
    if (rc == 0) count = int(n)
    call finish(rc, ierr)
  end subroutine

  !> Local: a variable's name (blank-padded), item kind, item dims
  !> ([1, 1], [k, 1] or a tensor's [c, r]) and word type.
  subroutine pario_dataset_variable_info(ds, variable, name, item_kind, item_dims, word_type, ierr)
    type(pario_dataset), intent(in) :: ds
    integer, intent(in) :: variable
    character(*), intent(out), optional :: name
    integer, intent(out), optional :: item_kind, word_type
    integer(int64), intent(out), optional :: item_dims(2)
    integer, intent(out), optional :: ierr
    character(kind=c_char) :: buf(256)
    integer(c_int) :: k, w, rc
    integer(c_int64_t) :: d(2)
    rc = c_ds_variable_info(ds%h, int(variable - 1, c_int), buf, int(size(buf), c_size_t), k, d, w)
    if (rc == 0) then
      if (present(name)) call from_c(buf, name)
      if (present(item_kind)) item_kind = int(k)
      if (present(word_type)) word_type = int(w)
      if (k == PARIO_ITEM_TENSOR) d = [d(2), d(1)]
      if (present(item_dims)) item_dims = d
    end if
    call finish(rc, ierr)
  end subroutine

  !> Collective: the section of variable in segment (PARIO_ERR_NOT_FOUND
  !> when that segment has none), with writer's piece (a 0-based rank,
  !> default 0; rank-ordered sections only) in piece_start and piece_count.
  subroutine pario_dataset_section_info(ds, segment, variable, info, writer, ierr)
    type(pario_dataset), intent(in) :: ds
    integer(int64), intent(in) :: segment
    integer, intent(in) :: variable
    type(pario_dataset_section), intent(out) :: info
    integer, intent(in), optional :: writer
    integer, intent(out), optional :: ierr
    type(dataset_section) :: s
    integer(c_int) :: w, rc
    integer :: n
    w = 0
    if (present(writer)) w = int(writer, c_int)
    rc = c_ds_section_info(ds%h, segment - 1, int(variable - 1, c_int), w, s)
    if (rc == 0) then
      n = max(0, min(int(s%ndim), PARIO_ARRAY_MAX_DIMS))
      info = pario_dataset_section(int(s%layout), int(s%writers), s%items, s%max_piece, s%piece_start + 1, &
                                   s%piece_count, n, 0)
      info%dims(1:n) = s%dims(n:1:-1)
    end if
    call finish(rc, ierr)
  end subroutine

  ! Words per item of a variable (1 when C refuses it: the call that
  ! follows fails with C's message then).
  integer(c_int64_t) function item_words(ds, variable) result(words)
    type(pario_dataset), intent(in) :: ds
    integer, intent(in) :: variable
    character(kind=c_char) :: name(256)  ! names are at most 255 bytes
    integer(c_int) :: k, w
    integer(c_int64_t) :: d(2)
    words = 1
    if (c_ds_variable_info(ds%h, int(variable - 1, c_int), name, int(size(name), c_size_t), k, d, w) == 0) then
      words = d(1) * d(2)
    end if
  end function

  ! Why the module refuses a buffer for whole items of variable (blank
  ! when it does not), and how many items it holds. Sets the variable's
  ! put (put) or get type to the buffer's.
  function items_problem(ds, variable, b, put, items) result(why)
    type(pario_dataset), intent(in) :: ds
    integer, intent(in) :: variable
    type(buffer_facts), intent(in) :: b
    logical, intent(in) :: put
    integer(c_int64_t), intent(out) :: items
    character(len=200) :: why
    integer(c_int64_t) :: words
    integer(c_int) :: rc
    why = ' '
    words = item_words(ds, variable)
    items = b%elements / words
    if (b%type == 0) then
      why = 'the buffer holds ' // type_name(int(b%type)) // ' elements'
    else if (mod(b%elements, words) /= 0) then
      write (why, '(a, i0, a, i0, a)') 'the buffer has ', b%elements, ' elements, not whole items of ', words, &
        ' words'
    else if (put) then
      rc = c_ds_set_types(ds%h, int(variable - 1, c_int), b%type, 0)  ! a bad id: the call after says so
    else
      rc = c_ds_set_types(ds%h, int(variable - 1, c_int), 0, b%type)
    end if
  end function

  !> Collective: this rank's piece of a rank-ordered section: buf holds
  !> whole items (size(buf) / words per item of them; 0 too), of any type.
  subroutine pario_dataset_write_ranked(ds, segment, variable, buf, ierr)
    type(pario_dataset), intent(in) :: ds
    integer(int64), intent(in) :: segment
    integer, intent(in) :: variable
    type(*), dimension(..), contiguous, intent(in) :: buf
    integer, intent(out), optional :: ierr
    type(buffer_facts) :: b
    integer(c_int64_t) :: items
    integer(c_int) :: rc
    character(len=200) :: why
    b = facts(buf)
    why = items_problem(ds, variable, b, .true., items)
    if (len_trim(why) > 0) items = -1  ! refused by C on every rank; this rank's message below
    rc = c_ds_write_ranked(ds%h, segment - 1, int(variable - 1, c_int), items, b%base)
    if (len_trim(why) > 0) rc = refuse(INVALID_ARGUMENT, 'pario_dataset_write_ranked', trim(why))
    call finish(rc, ierr)
  end subroutine

  !> Collective: items start .. start + n - 1 (1-based; n = size(buf) /
  !> words per item) of a section of either layout into buf, converted to
  !> its type. Each rank its own range (pario_dataset_even_split, or a
  !> writer's piece from pario_dataset_section_info).
  subroutine pario_dataset_read_items(ds, segment, variable, start, buf, ierr)
    type(pario_dataset), intent(in) :: ds
    integer(int64), intent(in) :: segment, start
    integer, intent(in) :: variable
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(out), optional :: ierr
    type(buffer_facts) :: b
    integer(c_int64_t) :: items
    integer(c_int) :: rc
    character(len=200) :: why
    b = facts(buf)
    why = items_problem(ds, variable, b, .false., items)
    if (len_trim(why) > 0) items = -1  ! refused by C on every rank; this rank's message below
    rc = c_ds_read_items(ds%h, segment - 1, int(variable - 1, c_int), start - 1, items, b%base)
    if (len_trim(why) > 0) rc = refuse(INVALID_ARGUMENT, 'pario_dataset_read_items', trim(why))
    call finish(rc, ierr)
  end subroutine

  !> Local: part `part` (0-based, e.g. a rank) of `parts` of items split
  !> evenly: 1-based start and count (the first mod(items, parts) parts one more).
  subroutine pario_dataset_even_split(items, parts, part, start, count, ierr)
    integer(int64), intent(in) :: items
    integer, intent(in) :: parts, part
    integer(int64), intent(out) :: start, count
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: s, n
    integer(c_int) :: rc
    rc = c_ds_even_split(items, int(parts, c_int), int(part, c_int), s, n)
    if (rc == 0) then
      start = s + 1
      count = n
    end if
    call finish(rc, ierr)
  end subroutine

  ! The checks and the C call of write_decomp or read_decomp.
  integer(c_int) function decomp_section(call, ds, segment, variable, decomp, b) result(rc)
    character(*), intent(in) :: call
    type(pario_dataset), intent(in) :: ds
    integer(int64), intent(in) :: segment
    integer, intent(in) :: variable
    type(pario_decomp), intent(in) :: decomp
    type(buffer_facts), intent(in) :: b
    integer(c_int64_t) :: global_size, local_count
    integer(c_int) :: aggregators, is_aggregator, v
    character(len=200) :: why
    why = ' '
    if (c_decomp_info(decomp%h, global_size, local_count, aggregators, is_aggregator) /= 0) local_count = 0
    if (b%type == 0) then
      why = 'the buffer holds ' // type_name(int(b%type)) // ' elements'
    else if (b%elements < local_count) then
      write (why, '(a, i0, a, i0, a)') 'the buffer has ', b%elements, ' elements, the decomposition ', &
        local_count, ' on this rank'
    end if
    v = int(variable - 1, c_int)
    if (len_trim(why) > 0) then
      v = -1  ! refused by C on every rank; this rank's message below
    else if (call == 'pario_dataset_write_decomp') then
      rc = c_ds_set_types(ds%h, v, b%type, 0)
    else
      rc = c_ds_set_types(ds%h, v, 0, b%type)
    end if
    if (call == 'pario_dataset_write_decomp') then
      rc = c_ds_write_decomp(ds%h, segment - 1, v, decomp%h, b%base)
    else
      rc = c_ds_read_decomp(ds%h, segment - 1, v, decomp%h, b%base)
    end if
    if (len_trim(why) > 0) rc = refuse(INVALID_ARGUMENT, call, trim(why))
  end function

  !> Collective: a global-ordered section through a decomposition of its
  !> words (item i's component j is word (i - 1) * words + j; its
  !> file_type the variable's word type, its group the dataset's): buf
  !> holds this rank's local_count words of any type, in the
  !> decomposition's memory order.
  subroutine pario_dataset_write_decomp(ds, segment, variable, decomp, buf, ierr)
    type(pario_dataset), intent(in) :: ds
    integer(int64), intent(in) :: segment
    integer, intent(in) :: variable
    type(pario_decomp), intent(in) :: decomp
    type(*), dimension(..), contiguous, intent(in) :: buf
    integer, intent(out), optional :: ierr
    call finish(decomp_section('pario_dataset_write_decomp', ds, segment, variable, decomp, facts(buf)), ierr)
  end subroutine

  !> Collective: this rank's words of a section (either layout) through a
  !> decomposition (global size = the section's words) into buf.
  subroutine pario_dataset_read_decomp(ds, segment, variable, decomp, buf, ierr)
    type(pario_dataset), intent(in) :: ds
    integer(int64), intent(in) :: segment
    integer, intent(in) :: variable
    type(pario_decomp), intent(in) :: decomp
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(out), optional :: ierr
    call finish(decomp_section('pario_dataset_read_decomp', ds, segment, variable, decomp, facts(buf)), ierr)
  end subroutine

  !> Collective (over the array's group too): checkpoints a global array
  !> (any distribution) into a global-ordered section of a scalar
  !> variable, of the array's shape (h5py shows it reversed: C order).
  subroutine pario_dataset_write_array(ds, segment, variable, array, ierr)
    type(pario_dataset), intent(in) :: ds
    integer(int64), intent(in) :: segment
    integer, intent(in) :: variable
    type(pario_array), intent(in) :: array
    integer, intent(out), optional :: ierr
    call finish(c_ds_write_array(ds%h, segment - 1, int(variable - 1, c_int), array%h), ierr)
  end subroutine

  !> Collective: restart: reads a section into a global array of as many
  !> elements (any shape, distribution, type and number of ranks; the
  !> elements in the order they were written).
  subroutine pario_dataset_read_array(ds, segment, variable, array, ierr)
    type(pario_dataset), intent(in) :: ds
    integer(int64), intent(in) :: segment
    integer, intent(in) :: variable
    type(pario_array), intent(in) :: array
    integer, intent(out), optional :: ierr
    call finish(c_ds_read_array(ds%h, segment - 1, int(variable - 1, c_int), array%h), ierr)
  end subroutine

  ! C's owner index of an info owner: a variable or segment 1-based here.
  integer(c_int64_t) function c_owner(owner_kind, owner)
    integer, intent(in) :: owner_kind
    integer(int64), intent(in) :: owner
    c_owner = 0
    if (owner_kind /= PARIO_INFO_DATASET) c_owner = owner - 1
  end function

  !> Collective: sets info name of an owner (owner_kind PARIO_INFO_DATASET,
  !> owner ignored; _VARIABLE, owner the variable; _SEGMENT, owner the
  !> segment) to values (an array of any pario type, stored as a 1-D array
  !> of that type; rank 0's values are stored, the type and size must
  !> match on every rank), replacing one of that name. mem_type
  !> (optional, here and in info_get): PARIO_TYPE_UINT8 .. _UINT64 for
  !> values in integers of the same size (stored, or read, as unsigned).
  subroutine pario_dataset_info_put(ds, owner_kind, owner, name, values, ierr, mem_type)
    type(pario_dataset), intent(in) :: ds
    integer, intent(in) :: owner_kind
    integer(int64), intent(in) :: owner
    character(*), intent(in) :: name
    type(*), dimension(..), contiguous, intent(in) :: values
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: mem_type
    type(buffer_facts) :: b
    integer(c_int) :: rc, stored
    character(len=200) :: why
    why = ' '
    b = facts(values)  ! type 0 (none pario has): refused by C on every rank
    if (b%type == 0) then
      why = 'the values are ' // type_name(int(b%type))
    else
      call check_memory_type(b, mem_type, why)
    end if
    stored = b%type
    if (present(mem_type)) stored = int(mem_type, c_int)
    if (len_trim(why) > 0) stored = 0
    rc = c_ds_info_put(ds%h, int(owner_kind, c_int), c_owner(owner_kind, owner), cstr(name), stored, &
                       b%elements, b%base)
    if (len_trim(why) > 0) rc = refuse(INVALID_ARGUMENT, 'pario_dataset_info_put', trim(why))
    call finish(rc, ierr)
  end subroutine

  !> Collective: sets info name of an owner to the string text (all of
  !> it, trailing blanks too: pass trim(text) to drop them).
  subroutine pario_dataset_info_put_string(ds, owner_kind, owner, name, text, ierr)
    type(pario_dataset), intent(in) :: ds
    integer, intent(in) :: owner_kind
    integer(int64), intent(in) :: owner
    character(*), intent(in) :: name, text
    integer, intent(out), optional :: ierr
    character(kind=c_char), allocatable, target :: t(:)
    type(c_ptr) :: p
    integer :: i
    allocate (t(max(1, len(text))))
    do i = 1, len(text)
      t(i) = text(i:i)
    end do
    p = c_loc(t)
    call finish(c_ds_info_put(ds%h, int(owner_kind, c_int), c_owner(owner_kind, owner), cstr(name), &
                              int(PARIO_INFO_STRING, c_int), len(text, kind=c_int64_t), p), ierr)
  end subroutine

  !> Collective: info name of an owner: count (values, or a string's
  !> bytes) and type (PARIO_TYPE_* or PARIO_INFO_STRING) as stored, and
  !> with values (an array of any pario type and at least count elements)
  !> the values converted to its type. PARIO_ERR_NOT_FOUND when absent.
  subroutine pario_dataset_info_get(ds, owner_kind, owner, name, values, count, type, ierr, mem_type)
    type(pario_dataset), intent(in) :: ds
    integer, intent(in) :: owner_kind
    integer(int64), intent(in) :: owner
    character(*), intent(in) :: name
    type(*), dimension(..), contiguous, intent(inout), optional :: values
    integer(int64), intent(out), optional :: count
    integer, intent(out), optional :: type
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: mem_type
    type(buffer_facts) :: b
    integer(c_int) :: rc, stored
    integer(c_int64_t) :: n
    integer(c_int), target :: none(1)
    character(len=200) :: why
    why = ' '
    if (present(values)) then
      b = facts(values)
      if (.not. c_associated(b%base)) b%base = c_loc(none)  ! an empty array: values asked, room for none
      if (b%type == 0) then
        why = 'values is of a type pario lacks'
      else
        call check_memory_type(b, mem_type, why)
        if (present(mem_type)) b%type = int(mem_type, c_int)
      end if
      if (len_trim(why) > 0) b%type = -1  ! refused by C on every rank; this rank's message below
    end if
    rc = c_ds_info_get(ds%h, int(owner_kind, c_int), c_owner(owner_kind, owner), cstr(name), b%type, &
                       b%elements, b%base, stored, n)
    if (len_trim(why) > 0) rc = refuse(INVALID_ARGUMENT, 'pario_dataset_info_get', trim(why))
    if (rc == 0) then
      if (present(count)) count = n
      if (present(type)) type = int(stored)
    end if
    call finish(rc, ierr)
  end subroutine

  !> Collective: string info name of an owner into text (blank-padded;
  !> PARIO_ERR_INVALID_ARGUMENT when longer than text) and its length in bytes.
  subroutine pario_dataset_info_get_string(ds, owner_kind, owner, name, text, length, ierr)
    type(pario_dataset), intent(in) :: ds
    integer, intent(in) :: owner_kind
    integer(int64), intent(in) :: owner
    character(*), intent(in) :: name
    character(*), intent(out) :: text
    integer(int64), intent(out), optional :: length
    integer, intent(out), optional :: ierr
    character(kind=c_char), allocatable, target :: t(:)
    integer(c_int) :: rc, stored
    integer(c_int64_t) :: n, i
    allocate (t(max(1, len(text))))
    rc = c_ds_info_get(ds%h, int(owner_kind, c_int), c_owner(owner_kind, owner), cstr(name), &
                       int(PARIO_INFO_STRING, c_int), len(text, kind=c_int64_t), c_loc(t), stored, n)
    text = ' '
    if (rc == 0) then
      do i = 1, n
        text(i:i) = t(i)
      end do
      if (present(length)) length = n
    end if
    call finish(rc, ierr)
  end subroutine

  !> Collective: the number of infos of an owner (count) and, for
  !> 1 <= index <= count, the name of info `index` in name order.
  subroutine pario_dataset_info_name(ds, owner_kind, owner, index, name, count, ierr)
    type(pario_dataset), intent(in) :: ds
    integer, intent(in) :: owner_kind
    integer(int64), intent(in) :: owner, index
    character(*), intent(out), optional :: name
    integer(int64), intent(out), optional :: count
    integer, intent(out), optional :: ierr
    character(kind=c_char) :: buf(256)
    integer(c_int64_t) :: n
    integer(c_int) :: rc
    buf = c_null_char
    rc = c_ds_info_name(ds%h, int(owner_kind, c_int), c_owner(owner_kind, owner), index - 1, buf, &
                        int(size(buf), c_size_t), n)
    if (rc == 0) then
      if (present(name)) call from_c(buf, name)
      if (present(count)) count = n
    end if
    call finish(rc, ierr)
  end subroutine

  !> Collective: num_dim coordinate names (default x, y, z).
  subroutine pario_exodus_put_coord_names(exo, names, ierr)
    type(pario_exodus), intent(in) :: exo
    character(*), intent(in) :: names(:)
    integer, intent(out), optional :: ierr
    character(kind=c_char), allocatable, target :: buf(:)
    type(c_ptr), allocatable :: ptrs(:)
    integer(c_int) :: rc
    call c_strings(names, buf, ptrs)
    if (size(names) >= exo%num_dim) then
      rc = c_exo_put_coord_names(exo%h, ptrs)
    else  ! too few names: C sees a null one and refuses on every rank
      deallocate (ptrs)
      allocate (ptrs(3))
      ptrs = c_null_ptr
      rc = c_exo_put_coord_names(exo%h, ptrs)
    end if
    call finish(rc, ierr)
  end subroutine

  !> Collective: which element variables each block has: table(var, block)
  !> /= 0, blocks in definition order (table(num_vars, num_blocks)).
  subroutine pario_exodus_put_truth_table(exo, table, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: table(:, :)
    integer, intent(out), optional :: ierr
    integer(c_int), allocatable :: t(:)
    t = int(reshape(table, [size(table)]), c_int)
    if (size(t) == 0) t = [0_c_int]
    call finish(c_exo_put_truth_table(exo%h, int(size(table, 2), c_int), int(size(table, 1), c_int), t), ierr)
  end subroutine

  !> Collective: the block's attributes for this rank's elements,
  !> values(attributes, n) as one array (real64 or real32).
  subroutine exo_put_attributes_r64(exo, block_id, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: block_id
    real(real64), intent(in), target, contiguous :: values(:)
    integer, intent(out), optional :: ierr
    call finish(c_exo_put_attributes(exo%h, block_id, int(PARIO_TYPE_DOUBLE, c_int), address(values)), ierr)
  end subroutine

  subroutine exo_put_attributes_r32(exo, block_id, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: block_id
    real(real32), intent(in), target, contiguous :: values(:)
    integer, intent(out), optional :: ierr
    call finish(c_exo_put_attributes(exo%h, block_id, int(PARIO_TYPE_FLOAT, c_int), address32(values)), ierr)
  end subroutine

  !> Collective: an existing file reopened to append steps (a restart, on
  !> any number of ranks); then pario_exodus_attach_nodes / _attach_block.
  !> steps_per_file n > 0: path is the first file of a series of n steps
  !> per file, continued in its last file (pario_exodus_get_series gives
  !> the run's steps so far). The hints as for pario_exodus_create.
  subroutine pario_exodus_open_append(exo, group, path, ierr, steps_per_file, aggregators, aggregator_ranks, &
                                      buffer_size, align, convert, buffering)
    type(pario_exodus), intent(out) :: exo
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: steps_per_file
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    type(exodus_options), target :: o
    type(decomp_hints), target :: hints
    integer(c_int), allocatable, target :: ranks(:)
    call exodus_hinted(o, hints, ranks, aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
    if (present(steps_per_file)) o%steps_per_file = int(steps_per_file, c_int)
    call finish(c_exo_open_append(group%h, cstr(path), c_loc(o), exo%h), ierr)
  end subroutine

  !> Local: where the open file lies in its series: file_index (1 for a
  !> single file), first_step (the run's steps in the files before it),
  !> steps (the run's steps so far; a writer's next put_time is steps + 1).
  subroutine pario_exodus_get_series(exo, file_index, first_step, steps, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(out), optional :: file_index, first_step, steps, ierr
    integer(c_int) :: f, s, n
    f = 0
    s = 0
    n = 0
    call finish(c_exo_get_series(exo%h, f, s, n), ierr)
    if (present(file_index)) file_index = int(f)
    if (present(first_step)) first_step = int(s)
    if (present(steps)) steps = int(n)
  end subroutine

  !> Collective, after open_append: this rank's nodes by global id, the
  !> order of its later nodal values.
  subroutine pario_exodus_attach_nodes(exo, ids, ierr)
    type(pario_exodus), intent(inout) :: exo
    integer(int64), intent(in) :: ids(:)
    integer, intent(out), optional :: ierr
    integer(c_int) :: rc
    integer(int64) :: none(1)
    if (size(ids) > 0) then
      rc = c_exo_attach_nodes(exo%h, size(ids, kind=int64), ids)
    else
      rc = c_exo_attach_nodes(exo%h, 0_int64, none)
    end if
    if (rc == 0) exo%local_nodes = size(ids, kind=int64)
    call finish(rc, ierr)
  end subroutine

  !> Collective, after open_append: this rank's elements of a block by global id.
  subroutine pario_exodus_attach_block(exo, block_id, ids, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: block_id, ids(:)
    integer, intent(out), optional :: ierr
    integer(int64) :: none(1)
    if (size(ids) > 0) then
      call finish(c_exo_attach_block(exo%h, block_id, size(ids, kind=int64), ids), ierr)
    else
      call finish(c_exo_attach_block(exo%h, block_id, 0_int64, none), ierr)
    end if
  end subroutine

  !> Local: set `index` (1-based, file order) of kind PARIO_EXODUS_NODE_SET
  !> or _SIDE_SET: id, name, entries, distribution factors.
  subroutine pario_exodus_get_set(exo, kind, index, set_id, name, count, df_count, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: kind, index
    integer(int64), intent(out), optional :: set_id, count, df_count
    character(*), intent(out), optional :: name
    integer, intent(out), optional :: ierr
    character(kind=c_char) :: n(33)
    integer(c_int64_t) :: id, c, d
    integer(c_int) :: rc
    rc = c_exo_get_set(exo%h, int(kind, c_int), int(index - 1, c_int), id, n, int(size(n), c_size_t), c, d)
    if (rc == 0) then
      if (present(set_id)) set_id = id
      if (present(name)) call from_c(n, name)
      if (present(count)) count = c
      if (present(df_count)) df_count = d
    end if
    call finish(rc, ierr)
  end subroutine

  !> Local: the Nemesis load-balance parameters of processor (0-based, as
  !> the writing ranks were numbered), as ex_get_loadbal_param gives them:
  !> counts(1:7) = internal, border and external nodes, internal and border
  !> elements, nodal and elemental communication maps. num_procs: the
  !> processors the file describes, 0 when it has no Nemesis information
  !> (counts then 0). A file open for reading (pario_exodus_open).
  subroutine pario_exodus_get_loadbal(exo, processor, num_procs, counts, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: processor
    integer, intent(out), optional :: num_procs
    integer(int64), intent(out), optional :: counts(7)
    integer, intent(out), optional :: ierr
    integer(c_int) :: rc, np
    integer(c_int64_t) :: c(7)
    c = 0
    rc = c_exo_get_loadbal(exo%h, int(processor, c_int), np, c)
    if (rc == 0) then
      if (present(num_procs)) num_procs = int(np)
      if (present(counts)) counts = c
    end if
    call finish(rc, ierr)
  end subroutine

  ! Processor's load-balance counts, for sizing the lists below.
  integer(c_int) function loadbal_counts(exo, processor, c)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: processor
    integer(c_int64_t), intent(out) :: c(7)
    integer(c_int) :: np
    c = 0  ! also without Nemesis information: the read below then says so
    loadbal_counts = c_exo_get_loadbal(exo%h, int(processor, c_int), np, c)
  end function

  !> Local: processor's internal, border and external nodes (1-based node
  !> numbers, file positions), as ex_get_processor_node_maps gives them;
  !> each array is allocated here to its length. PARIO_ERR_NOT_FOUND: the
  !> file has no Nemesis information; PARIO_ERR_OUT_OF_RANGE: no such
  !> processor.
  subroutine pario_exodus_get_node_maps(exo, processor, internal, border, external, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: processor
    integer(int64), allocatable, target, intent(out) :: internal(:), border(:), external(:)
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: c(7)
    integer(c_int) :: rc
    rc = loadbal_counts(exo, processor, c)
    allocate (internal(c(1)), border(c(2)), external(c(3)))
    if (rc == 0) rc = c_exo_get_node_maps(exo%h, int(processor, c_int), address64(internal), address64(border), &
                                          address64(external))
    call finish(rc, ierr)
  end subroutine

  !> Local: processor's internal and border elements (1-based element
  !> numbers), as ex_get_processor_elem_maps gives them; allocated here.
  subroutine pario_exodus_get_elem_maps(exo, processor, internal, border, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: processor
    integer(int64), allocatable, target, intent(out) :: internal(:), border(:)
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: c(7)
    integer(c_int) :: rc
    rc = loadbal_counts(exo, processor, c)
    allocate (internal(c(4)), border(c(5)))
    if (rc == 0) rc = c_exo_get_elem_maps(exo%h, int(processor, c_int), address64(internal), address64(border))
    call finish(rc, ierr)
  end subroutine

  !> Local: the ids and entry counts of processor's nodal and elemental
  !> communication maps, in file order, as ex_get_cmap_params gives them;
  !> allocated here.
  subroutine pario_exodus_get_cmap_params(exo, processor, node_map_ids, node_map_counts, elem_map_ids, &
                                          elem_map_counts, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: processor
    integer(int64), allocatable, target, intent(out) :: node_map_ids(:), node_map_counts(:), elem_map_ids(:), &
                                                        elem_map_counts(:)
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: c(7)
    integer(c_int) :: rc
    rc = loadbal_counts(exo, processor, c)
    allocate (node_map_ids(c(6)), node_map_counts(c(6)), elem_map_ids(c(7)), elem_map_counts(c(7)))
    if (rc == 0) rc = c_exo_get_cmap_params(exo%h, int(processor, c_int), address64(node_map_ids), &
                                            address64(node_map_counts), address64(elem_map_ids), &
                                            address64(elem_map_counts))
    call finish(rc, ierr)
  end subroutine

  ! The entry count of processor's nodal (elemental: elem) map map_id, 0
  ! when it has none of that id (the read then says so).
  integer(c_int) function cmap_count(exo, processor, map_id, elem, count) result(rc)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: processor
    integer(int64), intent(in) :: map_id
    logical, intent(in) :: elem
    integer(int64), intent(out) :: count
    integer(int64), allocatable :: nids(:), ncounts(:), eids(:), ecounts(:)
    integer :: e, k
    call pario_exodus_get_cmap_params(exo, processor, nids, ncounts, eids, ecounts, e)
    rc = int(e, c_int)
    count = 0
    if (rc /= 0) return
    if (elem) then
      do k = 1, size(eids)
        if (eids(k) == map_id) count = ecounts(k)
      end do
    else
      do k = 1, size(nids)
        if (nids(k) == map_id) count = ncounts(k)
      end do
    end if
  end function

  !> Local: nodal communication map map_id of processor: its nodes (1-based)
  !> and the processors (0-based) sharing them, as ex_get_node_cmap gives
  !> them; allocated here. PARIO_ERR_NOT_FOUND: no map of that id.
  subroutine pario_exodus_get_node_cmap(exo, processor, map_id, nodes, procs, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: processor
    integer(int64), intent(in) :: map_id
    integer(int64), allocatable, target, intent(out) :: nodes(:), procs(:)
    integer, intent(out), optional :: ierr
    integer(int64) :: n
    integer(c_int) :: rc
    rc = cmap_count(exo, processor, map_id, .false., n)
    allocate (nodes(n), procs(n))
    if (rc == 0) rc = c_exo_get_node_cmap(exo%h, int(processor, c_int), map_id, address64(nodes), address64(procs))
    call finish(rc, ierr)
  end subroutine

  !> Local: elemental communication map map_id of processor: its elements
  !> (1-based), their sides (1-based) and the processors (0-based) on the
  !> other side, as ex_get_elem_cmap gives them; allocated here.
  subroutine pario_exodus_get_elem_cmap(exo, processor, map_id, elems, sides, procs, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: processor
    integer(int64), intent(in) :: map_id
    integer(int64), allocatable, target, intent(out) :: elems(:), sides(:), procs(:)
    integer, intent(out), optional :: ierr
    integer(int64) :: n
    integer(c_int) :: rc
    rc = cmap_count(exo, processor, map_id, .true., n)
    allocate (elems(n), sides(n), procs(n))
    if (rc == 0) rc = c_exo_get_elem_cmap(exo%h, int(processor, c_int), map_id, address64(elems), address64(sides), &
                                          address64(procs))
    call finish(rc, ierr)
  end subroutine

  ! An int64 array's address, or NULL when empty.
  type(c_ptr) function address64(a)
    integer(int64), intent(in), target, contiguous :: a(:)
    address64 = c_null_ptr
    if (size(a) > 0) address64 = c_loc(a)
  end function

  !> Collective: entries start .. start + size(node_ids) - 1 (1-based) of a
  !> node set, as global node ids.
  subroutine pario_exodus_read_node_set(exo, set_id, start, node_ids, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: set_id, start
    integer(int64), intent(inout), target, contiguous :: node_ids(:)
    integer, intent(out), optional :: ierr
    call finish(c_exo_read_node_set(exo%h, set_id, start - 1, size(node_ids, kind=int64), address64(node_ids)), ierr)
  end subroutine

  !> Collective: entries start .. start + size(elem_ids) - 1 of a side
  !> set: global element ids and sides (as long as elem_ids).
  subroutine pario_exodus_read_side_set(exo, set_id, start, elem_ids, sides, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: set_id, start
    integer(int64), intent(inout), target, contiguous :: elem_ids(:), sides(:)
    integer, intent(out), optional :: ierr
    integer(c_int) :: rc
    logical :: bad
    bad = size(sides) < size(elem_ids)
    rc = c_exo_read_side_set(exo%h, set_id, start - 1, merge(-1_int64, size(elem_ids, kind=int64), bad), &
                             address64(elem_ids), address64(sides))
    if (bad) rc = refuse(INVALID_ARGUMENT, 'pario_exodus_read_side_set', 'sides is shorter than elem_ids')
    call finish(rc, ierr)
  end subroutine

  !> Collective: distribution factors start .. start + size(df) - 1 of a
  !> set of kind PARIO_EXODUS_NODE_SET or _SIDE_SET.
  subroutine pario_exodus_read_set_df(exo, kind, set_id, start, df, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: kind
    integer(int64), intent(in) :: set_id, start
    real(real64), intent(inout), target, contiguous :: df(:)
    integer, intent(out), optional :: ierr
    call finish(c_exo_read_set_df(exo%h, int(kind, c_int), set_id, start - 1, size(df, kind=int64), &
                                  int(PARIO_TYPE_DOUBLE, c_int), address(df)), ierr)
  end subroutine

  !> Collective: coordinates of the nodes with global ids `ids` (x, y, z
  !> as num_dim needs, each as long as ids).
  subroutine pario_exodus_read_coords_by_id(exo, ids, x, y, z, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in), target, contiguous :: ids(:)
    real(real64), intent(inout), target, contiguous :: x(:)
    real(real64), intent(inout), optional, target, contiguous :: y(:), z(:)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: py, pz
    integer(int64) :: none(1)
    py = c_null_ptr
    pz = c_null_ptr
    if (present(y)) py = address(y)
    if (present(z)) pz = address(z)
    if (size(ids) > 0) then
      call finish(c_exo_read_coords_by_id(exo%h, size(ids, kind=int64), ids, int(PARIO_TYPE_DOUBLE, c_int), &
                                          address(x), py, pz), ierr)
    else
      call finish(c_exo_read_coords_by_id(exo%h, 0_int64, none, int(PARIO_TYPE_DOUBLE, c_int), &
                                          address(x), py, pz), ierr)
    end if
  end subroutine

  !> Collective: connectivity(nodes_per_element, size(ids)) of a block's
  !> elements with global ids `ids`, as global node ids.
  subroutine pario_exodus_read_block_by_id(exo, block_id, ids, connectivity, ierr)
    type(pario_exodus), intent(in) :: exo
    integer(int64), intent(in) :: block_id, ids(:)
    integer(int64), intent(inout), target, contiguous :: connectivity(:, :)
    integer, intent(out), optional :: ierr
    type(c_ptr) :: c
    integer(c_int) :: rc
    integer(int64) :: none(1)
    logical :: bad
    c = c_null_ptr
    if (size(connectivity) > 0) c = c_loc(connectivity)
    bad = size(connectivity, 2) < size(ids)
    if (size(ids) > 0) then
      rc = c_exo_read_block_by_id(exo%h, block_id, merge(-1_int64, size(ids, kind=int64), bad), ids, c)
    else
      rc = c_exo_read_block_by_id(exo%h, block_id, 0_int64, none, c)
    end if
    if (bad) rc = refuse(INVALID_ARGUMENT, 'pario_exodus_read_block_by_id', 'connectivity has fewer columns than ids')
    call finish(rc, ierr)
  end subroutine

  !> Collective: nodal variable var of a step at the nodes with global ids `ids`.
  subroutine pario_exodus_read_nodal_values_by_id(exo, step, var, ids, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step, var
    integer(int64), intent(in) :: ids(:)
    real(real64), intent(inout), target, contiguous :: values(:)
    integer, intent(out), optional :: ierr
    integer(int64) :: none(1)
    if (size(ids) > 0) then
      call finish(c_exo_read_nodal_values_by_id(exo%h, int(step, c_int), int(var, c_int), &
                                                merge(-1_int64, size(ids, kind=int64), size(values) < size(ids)), &
                                                ids, int(PARIO_TYPE_DOUBLE, c_int), address(values)), ierr)
    else
      call finish(c_exo_read_nodal_values_by_id(exo%h, int(step, c_int), int(var, c_int), 0_int64, none, &
                                                int(PARIO_TYPE_DOUBLE, c_int), address(values)), ierr)
    end if
  end subroutine

  !> Collective: element variable var of a step at a block's elements with global ids `ids`.
  subroutine pario_exodus_read_element_values_by_id(exo, step, var, block_id, ids, values, ierr)
    type(pario_exodus), intent(in) :: exo
    integer, intent(in) :: step, var
    integer(int64), intent(in) :: block_id, ids(:)
    real(real64), intent(inout), target, contiguous :: values(:)
    integer, intent(out), optional :: ierr
    integer(int64) :: none(1)
    if (size(ids) > 0) then
      call finish(c_exo_read_element_values_by_id(exo%h, int(step, c_int), int(var, c_int), block_id, &
                                                  merge(-1_int64, size(ids, kind=int64), size(values) < size(ids)), &
                                                  ids, int(PARIO_TYPE_DOUBLE, c_int), address(values)), ierr)
    else
      call finish(c_exo_read_element_values_by_id(exo%h, int(step, c_int), int(var, c_int), block_id, 0_int64, &
                                                  none, int(PARIO_TYPE_DOUBLE, c_int), address(values)), ierr)
    end if
  end subroutine

  ! ---- MFDn's wave-function file (pario/wavefunction.h) ----
  !
  ! The C calls one for one, collective unless said local: handle first,
  ! ierr last. Vectors are numbered from 1 (1 .. nvectors) and a slice
  ! starts at a 1-based element, as the module numbers everything; the
  ! vector's length is the basis's dimension. Buffers are real(real64)
  ! arrays of any rank (assumed-rank, contiguous): size(buf) is the
  ! slice's length. A buffer of another type still makes the C call, with
  ! a count C refuses, so every rank fails together; this rank gets
  ! PARIO_ERR_INVALID_ARGUMENT and the module's message. Each rank's
  ! part of an even split: pario_dataset_even_split(dimension, np, me, ...).

  !> Collective: a new wave-function file of nvectors vectors over basis,
  !> open read-write. mode (default ior(PARIO_CREATE, PARIO_EXCLUSIVE): an
  !> existing file is PARIO_ERR_EXISTS): ior(PARIO_CREATE, PARIO_TRUNCATE)
  !> replaces a wave-function file there. transfer: PARIO_WF_TRANSFER_*
  !> (default PARIO_WF_TRANSFER_DEFAULT). aggregators, aggregator_ranks,
  !> buffer_size, align, convert, buffering: the collective engine's hints
  !> for PARIO_WF_TRANSFER_AGGREGATORS, as pario_decomp_create_blocks takes
  !> them (no byte_order: HDF5's types carry it; absent: the
  !> environment's, then the defaults; the same on every rank). After
  !> ierr, which came first: pass them by name.
  subroutine pario_wavefunction_create(wf, group, path, basis, nvectors, mode, transfer, ierr, aggregators, &
                                       aggregator_ranks, buffer_size, align, convert, buffering)
    type(pario_wavefunction), intent(out) :: wf
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    type(pario_wavefunction_basis), intent(in) :: basis
    integer, intent(in) :: nvectors
    integer, intent(in), optional :: mode, transfer
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    type(decomp_hints), target :: hints
    integer(c_int), allocatable, target :: ranks(:)
    type(c_wf_options) :: o
    integer(c_int) :: m
    m = ior(PARIO_CREATE, PARIO_EXCLUSIVE)
    if (present(mode)) m = int(mode, c_int)
    o%transfer = PARIO_WF_TRANSFER_DEFAULT
    if (present(transfer)) o%transfer = int(transfer, c_int)
    o%hints = hinted(hints, ranks, aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
    call finish(c_wf_create(group%h, cstr(path), ior(m, int(PARIO_RDWR, c_int)), basis, int(nvectors, c_int), o, &
                            wf%h), ierr)
  end subroutine

  !> Collective: an existing wave-function file, mode PARIO_READ (default)
  !> or PARIO_RDWR (to write observables or vectors); transfer and the
  !> hints as above.
  subroutine pario_wavefunction_open(wf, group, path, mode, transfer, ierr, aggregators, aggregator_ranks, &
                                     buffer_size, align, convert, buffering)
    type(pario_wavefunction), intent(out) :: wf
    type(pario_group), intent(in) :: group
    character(*), intent(in) :: path
    integer, intent(in), optional :: mode, transfer
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: aggregators, aggregator_ranks(:), convert, buffering
    integer(int64), intent(in), optional :: buffer_size, align
    type(decomp_hints), target :: hints
    integer(c_int), allocatable, target :: ranks(:)
    type(c_wf_options) :: o
    integer(c_int) :: m
    m = PARIO_READ
    if (present(mode)) m = int(mode, c_int)
    o%transfer = PARIO_WF_TRANSFER_DEFAULT
    if (present(transfer)) o%transfer = int(transfer, c_int)
    o%hints = hinted(hints, ranks, aggregators, aggregator_ranks, buffer_size, align, convert, buffering)
    call finish(c_wf_open(group%h, cstr(path), m, o, wf%h), ierr)
  end subroutine

  !> Collective: closes the file (vectors written whole are marked written here).
  subroutine pario_wavefunction_close(wf, ierr)
    type(pario_wavefunction), intent(inout) :: wf
    integer, intent(out), optional :: ierr
    call finish(c_wf_close(wf%h), ierr)
  end subroutine

  !> Local: the basis, the number of vectors and the transfer in use
  !> (PARIO_WF_TRANSFER_INDEPENDENT, _COLLECTIVE or _AGGREGATORS).
  subroutine pario_wavefunction_info(wf, basis, nvectors, transfer, ierr)
    type(pario_wavefunction), intent(in) :: wf
    type(pario_wavefunction_basis), intent(out), optional :: basis
    integer, intent(out), optional :: nvectors, transfer
    integer, intent(out), optional :: ierr
    type(pario_wavefunction_basis) :: b
    integer(c_int) :: n, t, rc
    rc = c_wf_info(wf%h, b, n, t)
    if (rc == 0) then
      if (present(basis)) basis = b
      if (present(nvectors)) nvectors = int(n)
      if (present(transfer)) transfer = int(t)
    end if
    call finish(rc, ierr)
  end subroutine

  ! The checks and the C call of pario_wavefunction_write or _read: a
  ! buffer that is not real(real64) goes to C with count -1 (refused on
  ! every rank), and this rank reports the module's reason.
  integer(c_int) function wf_slice(call, wf, vector, start, b) result(rc)
    character(*), intent(in) :: call
    type(pario_wavefunction), intent(in) :: wf
    integer, intent(in) :: vector
    integer(int64), intent(in) :: start
    type(buffer_facts), intent(in) :: b
    integer(c_int64_t) :: count
    count = b%elements
    if (b%type /= PARIO_TYPE_DOUBLE) count = -1
    if (call == 'pario_wavefunction_write') then
      rc = c_wf_write(wf%h, int(vector - 1, c_int), start - 1, count, b%base)
    else
      rc = c_wf_read(wf%h, int(vector - 1, c_int), start - 1, count, b%base)
    end if
    if (b%type /= PARIO_TYPE_DOUBLE) then
      rc = refuse(INVALID_ARGUMENT, call, 'the buffer holds ' // type_name(int(b%type)) // &
                  ' elements, not real(real64)')
    end if
  end function

  !> Collective: this rank's slice start .. start + size(buf) - 1 (1-based)
  !> of vector `vector` (1-based) from buf. The ranks' slices must tile
  !> the vector (PARIO_ERR_INVALID_ARGUMENT naming the rank otherwise);
  !> writing a vector again replaces it.
  subroutine pario_wavefunction_write(wf, vector, start, buf, ierr)
    type(pario_wavefunction), intent(in) :: wf
    integer, intent(in) :: vector
    integer(int64), intent(in) :: start
    type(*), dimension(..), contiguous, intent(in) :: buf
    integer, intent(out), optional :: ierr
    call finish(wf_slice('pario_wavefunction_write', wf, vector, start, facts(buf)), ierr)
  end subroutine

  !> Collective: this rank's slice start .. start + size(buf) - 1 (1-based;
  !> any slice, overlapping other ranks' or empty) of vector `vector` into
  !> buf. PARIO_ERR_NOT_FOUND for a vector never written whole.
  subroutine pario_wavefunction_read(wf, vector, start, buf, ierr)
    type(pario_wavefunction), intent(in) :: wf
    integer, intent(in) :: vector
    integer(int64), intent(in) :: start
    type(*), dimension(..), contiguous, intent(inout) :: buf
    integer, intent(out), optional :: ierr
    call finish(wf_slice('pario_wavefunction_read', wf, vector, start, facts(buf)), ierr)
  end subroutine

  !> Collective: writes vector's observables (the same on every rank; NaN
  !> for "unknown") into its reserved attributes.
  subroutine pario_wavefunction_set_observables(wf, vector, energy, j, t, ierr)
    type(pario_wavefunction), intent(in) :: wf
    integer, intent(in) :: vector
    real(real64), intent(in) :: energy, j, t
    integer, intent(out), optional :: ierr
    call finish(c_wf_set_observables(wf%h, int(vector - 1, c_int), energy, j, t), ierr)
  end subroutine

  !> Local: vector's observables (NaN where not written) and whether it
  !> was written whole.
  subroutine pario_wavefunction_observables(wf, vector, energy, j, t, written, ierr)
    type(pario_wavefunction), intent(in) :: wf
    integer, intent(in) :: vector
    real(real64), intent(out), optional :: energy, j, t
    logical, intent(out), optional :: written
    integer, intent(out), optional :: ierr
    real(c_double) :: e, jj, tt
    integer(c_int) :: w, rc
    rc = c_wf_observables(wf%h, int(vector - 1, c_int), e, jj, tt, w)
    if (rc == 0) then
      if (present(energy)) energy = e
      if (present(j)) j = jj
      if (present(t)) t = tt
      if (present(written)) written = w /= 0
    end if
    call finish(rc, ierr)
  end subroutine

end module pario
