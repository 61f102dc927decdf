! Self-describing datasets from the Fortran module at 1, 2 and 4 ranks, the
! scenario of tests/python/test_dataset.py: segments (append, find by time
! index and value, an out-of-order one refused, truncate), variables (scalar,
! vector, tensor; found by name), infos of integer(4/8), real(4/8) and
! string values on the dataset, a variable and a segment (kept across a
! reopen); a rank-ordered section (rank r writes r + 1 items, rank 1 none)
! read back by even split, by writer piece and whole, converted on the way;
! a global-ordered section through a decomposition; a global array written
! and read into one of another shape and type; and a buffer refused on
! rank 0 failing on every rank; the sync policy "write" counted by
! pario_dataset_sync_counts. And the collective engine's hints on create
! and open: a global array through one aggregator in 64-byte rounds reads
! back as written (tests/dataset/dataset_capi_test.c counts the rounds),
! open's own sync policy; a hint C refuses, or one that differs between
! ranks, fails every rank naming it. Infos of every type (unsigned ones
! through mem_type), a file per time index (read back on half the ranks,
! a split group, and on a group from MPI_COMM_WORLD), a text file refused
! as corrupt.
program dataset_test
  use pario
  use test_checks
  use, intrinsic :: iso_fortran_env, only: int32, int64, real32, real64
  implicit none
  integer :: me, np, ierr, u, s, id, v, kind, w
  integer(int64) :: me8
  integer(int64) :: seg, n, lo, cnt, total, ti, dims(2), count, i, ng
  real(real64) :: tv
  real(real64), allocatable :: uval(:, :), back(:, :), rd(:)
  real(real32), allocatable :: back32(:, :), tens(:, :, :)
  integer(int64), allocatable :: ids64(:)
  integer(int32), allocatable :: ids32(:)
  integer(int64), allocatable :: words(:)
  real(real64) :: r8(2), four(4) = 0
  real(real32) :: r4(3)
  integer(int32) :: i4(2)
  integer(int64) :: i8(1)
  logical :: flags(2)
  character(len=256) :: path
  character(len=64) :: text, name
  type(pario_group) :: world
  type(pario_dataset) :: ds
  type(pario_dataset_section) :: sec
  type(pario_decomp) :: decomp
  type(pario_array) :: a, b
  real(real64) :: a_vals(4, 5)
  real(real32) :: b_vals(20)

  call pario_init()
  me = pario_rank()
  np = pario_size()
  me8 = me
  call pario_group_world(world)
  if (.not. pario_dataset_supported()) error stop 'built only where pario has parallel HDF5 (CMake: pario_dataset)'
  path = scratch_file('fortran_dataset.h5')
  total = sum([(piece(i), i = 0, np - 1)])

  call pario_dataset_create(ds, world, trim(path), ior(PARIO_CREATE, PARIO_TRUNCATE))
  call pario_dataset_segment_append(ds, PARIO_SEGMENT_TOPOLOGY, 0_int64, 0.0_real64)
  call pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 0_int64, 0.0_real64, seg)
  call check(seg == 2, 'the second segment is 2')
  call pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 1_int64, 0.5_real64, seg)
  call pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 1_int64, 0.75_real64, ierr=ierr)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'two state segments of one time index are refused')
  call pario_dataset_segment_find_index(ds, PARIO_SEGMENT_STATE, 0_int64, n)
  call check(n == 2, 'find the state at time index 0')
  call pario_dataset_segment_find_time(ds, PARIO_SEGMENT_ANY, 0.6_real64, n)
  call check(n == 3, 'find the state at time 0.6')
  call pario_dataset_segment_find_time(ds, PARIO_SEGMENT_ANY, -1.0_real64, n, ierr)
  call check(ierr == PARIO_ERR_NOT_FOUND, 'nothing before the first time')

  call pario_dataset_variable_register(ds, 'id', PARIO_ITEM_SCALAR, PARIO_TYPE_INT32, id)
  call pario_dataset_variable_register(ds, 'u', PARIO_ITEM_VECTOR, PARIO_TYPE_DOUBLE, u, item_dims=[3_int64])
  call pario_dataset_variable_register(ds, 's', PARIO_ITEM_TENSOR, PARIO_TYPE_FLOAT, s, item_dims=[2_int64, 3_int64])
  call check(id == 1 .and. u == 2 .and. s == 3, 'variable ids 1, 2, 3')
  call pario_dataset_variable_find(ds, 's', v)
  call pario_dataset_variable_info(ds, v, name, kind, dims)
  call check(trim(name) == 's' .and. kind == PARIO_ITEM_TENSOR .and. all(dims == [2, 3]), 'the tensor s, 2 x 3')

  ! Infos on the dataset, a variable and a segment.
  call pario_dataset_info_put(ds, PARIO_INFO_DATASET, 0_int64, 'weights', [0.5_real64, 1.5_real64])
  call pario_dataset_info_put(ds, PARIO_INFO_DATASET, 0_int64, 'shape', [3_int32, 4_int32])
  call pario_dataset_info_put(ds, PARIO_INFO_VARIABLE, int(u, int64), 'scale', [1.0_real32, 2.0_real32, 4.0_real32])
  call pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, seg, 'step', [40_int64])
  call pario_dataset_info_put_string(ds, PARIO_INFO_DATASET, 0_int64, 'title', 'fortran run')
  call pario_dataset_info_put(ds, PARIO_INFO_DATASET, 0_int64, 'flags', flags, ierr)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'logical info values are refused')

  ! Rank-ordered: u (3 x n doubles), s (one 2 x 3 item a rank), id from int64.
  lo = sum([(piece(i), i = 0, me - 1)])
  allocate (uval(3, piece(me8)), ids64(piece(me8)), tens(2, 3, 1))
  do i = 1, piece(me8)
    uval(:, i) = u_of(lo + i)
    ids64(i) = 1000 + lo + i
  end do
  tens(:, :, 1) = reshape([(real(10 * me + i, real32), i = 1, 6)], [2, 3])
  call pario_dataset_write_ranked(ds, seg, u, uval)
  call pario_dataset_write_ranked(ds, seg, s, tens)
  call pario_dataset_write_ranked(ds, seg, id, ids64)
  call pario_dataset_write_ranked(ds, seg, u, uval, ierr)
  call check(ierr == PARIO_ERR_EXISTS, 'a section is written once')
  ! Rank 0 passes 4 words for items of 3: refused there, every rank fails.
  call pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 3_int64, 2.0_real64, n)
  call pario_dataset_write_ranked(ds, n, u, four(1:merge(4, 3, me == 0)), ierr)
  call check(ierr == merge(PARIO_ERR_INVALID_ARGUMENT, PARIO_ERR_REMOTE, me == 0 .or. np == 1), &
             'values that are not whole items on rank 0 fail every rank')
  call pario_dataset_truncate(ds, 3_int64)  ! the segment goes again

  ! Global-ordered: rank r holds items [r * ng / np, (r + 1) * ng / np) of
  ! a (3, ng) Fortran-ordered block decomposition, written from real32.
  ng = 5 * np + 1
  lo = ng * me / np
  cnt = ng * (me + 1) / np - lo
  call pario_decomp_create_blocks(decomp, world, PARIO_TYPE_DOUBLE, [3_int64, ng], [1_int64, lo + 1], [3_int64, cnt])
  allocate (back32(3, cnt))
  do i = 1, cnt
    back32(:, i) = real(u_of(lo + i), real32)
  end do
  call pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 2_int64, 1.0_real64, n)
  ! Rank 0 passes a buffer of a type pario lacks: every rank fails, nothing is written.
  if (me == 0) then
    call pario_dataset_write_decomp(ds, n, u, decomp, flags, ierr)
  else
    call pario_dataset_write_decomp(ds, n, u, decomp, back32, ierr)
  end if
  call check(ierr == merge(PARIO_ERR_INVALID_ARGUMENT, PARIO_ERR_REMOTE, me == 0 .or. np == 1), &
             'a refused buffer on rank 0 fails every rank')
  call pario_dataset_write_decomp(ds, n, u, decomp, back32)
  call pario_decomp_free(decomp)

  ! A 4 x 5 global array into the scalar variable a of segment 4.
  call pario_dataset_variable_register(ds, 'a', PARIO_ITEM_SCALAR, PARIO_TYPE_DOUBLE, v)
  call pario_array_create(a, world, 'a', [4_int64, 5_int64])
  a_vals = reshape([(real(i, real64), i = 1, 20)], [4, 5])
  if (me == 0) call pario_array_put(a, [1_int64, 1_int64], [4_int64, 5_int64], a_vals)
  call pario_array_sync(a)
  call pario_dataset_write_array(ds, n, v, a)
  call pario_array_destroy(a)
  call pario_dataset_close(ds)

  ! Read back.
  call pario_dataset_open(ds, world, trim(path))
  call pario_dataset_segment_count(ds, n)
  call check(n == 4, 'four segments after the reopen')
  call pario_dataset_segment_info(ds, 3_int64, kind, ti, tv)
  call check(kind == PARIO_SEGMENT_STATE .and. ti == 1 .and. tv == 0.5_real64, 'segment 3: state, 1, 0.5')
  call pario_dataset_variable_count(ds, v)
  call check(v == 4, 'four variables')
  call pario_dataset_info_get(ds, PARIO_INFO_DATASET, 0_int64, 'weights', r8, count, kind)
  call check(all(r8 == [0.5_real64, 1.5_real64]) .and. count == 2 .and. kind == PARIO_TYPE_DOUBLE, 'weights')
  call pario_dataset_info_get(ds, PARIO_INFO_DATASET, 0_int64, 'shape', count=count, type=kind)
  call check(count == 2 .and. kind == PARIO_TYPE_INT32, 'shape: two int32 (no values asked)')
  call pario_dataset_info_get(ds, PARIO_INFO_DATASET, 0_int64, 'shape', i4)
  call check(all(i4 == [3, 4]), 'shape')
  call pario_dataset_info_get(ds, PARIO_INFO_VARIABLE, int(u, int64), 'scale', r4)
  call check(all(r4 == [1, 2, 4]), 'the variable info scale')
  call pario_dataset_info_get(ds, PARIO_INFO_SEGMENT, seg, 'step', i8)
  call check(i8(1) == 40, 'the segment info step')
  call pario_dataset_info_get_string(ds, PARIO_INFO_DATASET, 0_int64, 'title', text, count)
  call check(text == 'fortran run' .and. count == 11, 'the string info title')
  call pario_dataset_info_get(ds, PARIO_INFO_DATASET, 0_int64, 'weights', i4(1:1), ierr=ierr)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'two values do not fit one')
  call pario_dataset_info_name(ds, PARIO_INFO_DATASET, 0_int64, 1_int64, name, count)
  call check(count == 3 .and. trim(name) == 'shape', 'three dataset infos, shape first')

  call pario_dataset_section_info(ds, seg, u, sec, writer=np - 1)
  call check(sec%layout == PARIO_SECTION_RANK_ORDERED .and. sec%writers == np .and. sec%items == total .and. &
             sec%piece_start == 1 + sum([(piece(i), i = 0, np - 2)]) .and. &
             sec%piece_count == piece(int(np - 1, int64)) .and. &
             sec%ndim == 2 .and. all(sec%dims(1:2) == [3_int64, total]), 'the section of u')
  ! An even split, as real32.
  call pario_dataset_even_split(total, np, me, lo, cnt)
  allocate (back(3, cnt))
  deallocate (back32)
  allocate (back32(3, cnt))
  call pario_dataset_read_items(ds, seg, u, lo, back32)
  do i = 1, cnt
    call check(all(back32(:, i) == real(u_of(lo + i - 1), real32)), 'an even split of u')
  end do
  ! Every writer's piece, on every rank.
  do w = 0, np - 1
    call pario_dataset_section_info(ds, seg, u, sec, writer=w)
    deallocate (back)
    allocate (back(3, sec%piece_count))
    call pario_dataset_read_items(ds, seg, u, sec%piece_start, back)
    do i = 1, sec%piece_count
      call check(all(back(:, i) == u_of(sec%piece_start + i - 1)), 'a writer''s piece of u')
    end do
  end do
  allocate (ids32(total))
  call pario_dataset_read_items(ds, seg, id, 1_int64, ids32)
  call check(all(ids32 == [(1000 + i, i = 1, total)]), 'id, written as int64, read as int32')
  deallocate (tens)
  allocate (tens(2, 3, np))
  call pario_dataset_read_items(ds, seg, s, 1_int64, tens)
  do w = 0, np - 1
    call check(all(tens(:, :, w + 1) == reshape([(real(10 * w + i, real32), i = 1, 6)], [2, 3])), 'the tensors')
  end do
  call pario_dataset_read_items(ds, seg, u, 1_int64, r4, ierr)
  call check(ierr == PARIO_OK .and. all(r4 == real(u_of(1_int64), real32)), 'one item into a 1-d array')
  ! The global-ordered section of segment 4: whole, then every rank its words in reverse.
  deallocate (back)
  allocate (back(3, ng))
  call pario_dataset_read_items(ds, 4_int64, u, 1_int64, back)
  do i = 1, ng
    call check(all(back(:, i) == real(real(u_of(i), real32), real64)), 'the global-ordered u')
  end do
  words = [(i, i = 3 * ng - me, 1, -np)]
  call pario_decomp_create_indices(decomp, world, PARIO_TYPE_DOUBLE, 3 * ng, words)
  allocate (rd(size(words)))
  call pario_dataset_read_decomp(ds, 4_int64, u, decomp, rd)
  call pario_decomp_free(decomp)
  call check(all(rd == [(back(mod(words(i) - 1, 3) + 1, (words(i) - 1) / 3 + 1), i = 1, size(words))]), &
             'the global-ordered u through another decomposition')
  ! The array, restarted as 20 real32 elements.
  call pario_array_create(b, world, 'b', [20_int64], PARIO_TYPE_FLOAT)
  call pario_dataset_read_array(ds, 4_int64, 4, b)
  call pario_array_get(b, [1_int64], [20_int64], b_vals)
  call check(all(b_vals == [(real(i, real32), i = 1, 20)]), 'the array restarted as 20 floats')
  call pario_array_destroy(b)
  call pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 9_int64, 9.0_real64, ierr=ierr)
  call check(ierr == PARIO_ERR_STATE, 'a dataset opened read-only is not written')
  call pario_dataset_close(ds)

  ! Truncation after segment 2: segments 3 and 4 go, the variables stay.
  call pario_dataset_open(ds, world, trim(path), PARIO_RDWR)
  call pario_dataset_truncate(ds, 2_int64)
  call pario_dataset_segment_count(ds, n)
  call pario_dataset_variable_count(ds, v)
  call check(n == 2 .and. v == 4, 'two segments and four variables after truncate')
  call pario_dataset_close(ds)
  call pario_dataset_open(ds, world, trim(scratch_file('fortran_missing.h5')), ierr=ierr)
  call check(ierr == PARIO_ERR_NOT_FOUND, 'a missing dataset')

  ! Two time indices per member file: three state segments make the entry
  ! file and two members, found again by open; a bad layout is refused.
  ! Written with the sync policy "write" (no fsync at a segment's end).
  path = scratch_file('fortran_dataset_modes.h5')
  call pario_dataset_create_with(ds, world, trim(path), PARIO_DATASET_STEPS_PER_FILE, 2_int64, &
                                 ior(PARIO_CREATE, PARIO_TRUNCATE), sync=PARIO_DATASET_SYNC_WRITE)
  id = 0
  call pario_dataset_variable_register(ds, 'x', PARIO_ITEM_SCALAR, PARIO_TYPE_DOUBLE, variable=id)
  do i = 0, 2
    call pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, i, real(i, real64), seg)
    call pario_dataset_write_ranked(ds, seg, id, [real(10 * i + me, real64)])
  end do
  ! The registration wrote the entry file back, the ends of segments 1
  ! and 2 member 0 (the end of segment 0 found nothing written since).
  call pario_dataset_sync_counts(ds, w, n, count)
  call check(w == PARIO_DATASET_SYNC_WRITE .and. n == 0 .and. count == 3, &
             'sync counts under "write": no fsync, three write-backs')
  call pario_dataset_close(ds)
  call pario_dataset_sync_counts(ds, w, n, count, ierr)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'sync counts of a closed dataset: refused')
  call pario_dataset_open(ds, world, trim(path))
  call pario_dataset_sync_counts(ds, syncs=n, write_backs=count)
  call check(n == 0 .and. count == 0, 'sync counts start at 0 when a dataset is opened')
  call pario_dataset_file_mode(ds, w, n, count)
  call check(w == PARIO_DATASET_STEPS_PER_FILE .and. n == 2 .and. count == 3, &
             'two steps per file: the entry file and two members')
  call pario_dataset_segment_count(ds, n)
  call check(n == 3, 'three segments across the member files')
  call pario_dataset_close(ds)
  call pario_dataset_create_with(ds, world, trim(scratch_file('fortran_dataset_bad.h5')), 7, ierr=ierr)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'an unknown file mode is refused')
  call pario_dataset_create_with(ds, world, trim(scratch_file('fortran_dataset_bad.h5')), PARIO_DATASET_ONE_FILE, &
                                 ierr=ierr, sync=9)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'an unknown sync policy is refused')

  path = scratch_file('fortran_dataset_hints.h5')
  call pario_dataset_create(ds, world, trim(path), ior(PARIO_CREATE, PARIO_TRUNCATE), aggregators=1, &
                            buffer_size=64_int64, buffering=PARIO_BUFFERING_ALWAYS)
  call pario_dataset_variable_register(ds, 'a', PARIO_ITEM_SCALAR, PARIO_TYPE_DOUBLE, v)
  call pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 0_int64, 0.0_real64, seg)
  call pario_array_create(a, world, 'a', [4_int64, 5_int64])
  if (me == 0) call pario_array_put(a, [1_int64, 1_int64], [4_int64, 5_int64], a_vals)
  call pario_array_sync(a)
  call pario_dataset_write_array(ds, seg, v, a)
  call pario_array_destroy(a)
  call pario_dataset_close(ds)
  call pario_dataset_open(ds, world, trim(path), sync=PARIO_DATASET_SYNC_NONE, aggregator_ranks=[np - 1], &
                          buffer_size=64_int64, align=128_int64)
  call pario_array_create(b, world, 'b', [20_int64], PARIO_TYPE_FLOAT)
  call pario_dataset_read_array(ds, seg, v, b)
  call pario_array_get(b, [1_int64], [20_int64], b_vals)
  call check(all(b_vals == [(real(i, real32), i = 1, 20)]), 'hints: the array written and read back through them')
  call pario_array_destroy(b)
  call pario_dataset_sync_counts(ds, w)
  call check(w == PARIO_DATASET_SYNC_NONE, 'the sync policy given to open')
  call pario_dataset_close(ds)
  call pario_dataset_open(ds, world, trim(path), ierr=ierr, aggregators=-1)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), 'hints->aggregators is negative') > 0, &
             'hints: a negative aggregator count refused')
  if (np > 1) then
    call pario_dataset_create(ds, world, trim(path), ior(PARIO_CREATE, PARIO_TRUNCATE), ierr, &
                              buffering=merge(PARIO_BUFFERING_NEVER, PARIO_BUFFERING_ALWAYS, me == 0))
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), '(buffering)') > 0, &
               'hints: a buffering that differs between ranks, named')
  end if

  call every_info_type()
  call file_per_step_and_damaged()

  call pario_finalize()
  if (failures > 0) error stop 1

contains

  ! Infos of the types the first dataset left out: integer(1/2), both
  ! complex kinds, and the unsigned ones through mem_type (the bits of the
  ! signed integer of the same size), read back after a reopen.
  subroutine every_info_type()
    use, intrinsic :: iso_fortran_env, only: int8, int16
    type(pario_dataset) :: d
    integer(int8) :: b1(3)
    integer(int16) :: b2(2)
    integer(int32) :: b4(1)
    integer(int64) :: b8(2), n
    complex(real32) :: c4(2)
    complex(real64) :: c8(1)
    real(real64) :: x(2)
    integer :: t, e
    character(len=256) :: p
    p = scratch_file('fortran_dataset_infos.h5')
    call pario_dataset_create(d, world, trim(p), ior(PARIO_CREATE, PARIO_TRUNCATE))
    call pario_dataset_info_put(d, PARIO_INFO_DATASET, 0_int64, 'i1', [-3_int8, 0_int8, 127_int8])
    call pario_dataset_info_put(d, PARIO_INFO_DATASET, 0_int64, 'i2', [int(-32768, int16), 7_int16])
    call pario_dataset_info_put(d, PARIO_INFO_DATASET, 0_int64, 'c4', [(1.5_real32, -2.0_real32), (0.0, 3.0)])
    call pario_dataset_info_put(d, PARIO_INFO_DATASET, 0_int64, 'c8', [(0.25_real64, 8.0_real64)])
    call pario_dataset_info_put(d, PARIO_INFO_DATASET, 0_int64, 'u1', [-1_int8, 5_int8, 0_int8], &
                                mem_type=PARIO_TYPE_UINT8)
    call pario_dataset_info_put(d, PARIO_INFO_DATASET, 0_int64, 'u2', [-2_int16, 9_int16], mem_type=PARIO_TYPE_UINT16)
    call pario_dataset_info_put(d, PARIO_INFO_DATASET, 0_int64, 'u4', [-1_int32], mem_type=PARIO_TYPE_UINT32)
    call pario_dataset_info_put(d, PARIO_INFO_DATASET, 0_int64, 'u8', [-1_int64, 12_int64], mem_type=PARIO_TYPE_UINT64)
    call pario_dataset_info_put(d, PARIO_INFO_DATASET, 0_int64, 'bad', [1.0_real64], e, mem_type=PARIO_TYPE_UINT64)
    call check(e == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), 'mem_type') > 0, &
               'mem_type uint64 for real64 values: refused')
    call pario_dataset_close(d)

    call pario_dataset_open(d, world, trim(p))
    call pario_dataset_info_get(d, PARIO_INFO_DATASET, 0_int64, 'i1', b1, n, t)
    call check(all(b1 == [-3_int8, 0_int8, 127_int8]) .and. n == 3 .and. t == PARIO_TYPE_INT8, 'an integer(1) info')
    call pario_dataset_info_get(d, PARIO_INFO_DATASET, 0_int64, 'i2', b2, n, t)
    call check(all(b2 == [int(-32768, int16), 7_int16]) .and. t == PARIO_TYPE_INT16, 'an integer(2) info')
    call pario_dataset_info_get(d, PARIO_INFO_DATASET, 0_int64, 'c4', c4, n, t)
    call check(all(c4 == [(1.5_real32, -2.0_real32), (0.0, 3.0)]) .and. t == PARIO_TYPE_COMPLEX_FLOAT, &
               'a complex(real32) info')
    call pario_dataset_info_get(d, PARIO_INFO_DATASET, 0_int64, 'c8', c8, n, t)
    call check(c8(1) == (0.25_real64, 8.0_real64) .and. t == PARIO_TYPE_COMPLEX_DOUBLE, 'a complex(real64) info')
    call pario_dataset_info_get(d, PARIO_INFO_DATASET, 0_int64, 'u1', b1, n, t, mem_type=PARIO_TYPE_UINT8)
    call check(all(b1 == [-1_int8, 5_int8, 0_int8]) .and. t == PARIO_TYPE_UINT8, 'a uint8 info, bits kept')
    call pario_dataset_info_get(d, PARIO_INFO_DATASET, 0_int64, 'u2', b2, n, t, mem_type=PARIO_TYPE_UINT16)
    call check(all(b2 == [-2_int16, 9_int16]) .and. t == PARIO_TYPE_UINT16, 'a uint16 info, bits kept')
    call pario_dataset_info_get(d, PARIO_INFO_DATASET, 0_int64, 'u4', b8(1:1))
    call check(b8(1) == 4294967295_int64, 'a uint32 info read as int64: its value')
    call pario_dataset_info_get(d, PARIO_INFO_DATASET, 0_int64, 'u4', b4, ierr=e)
    call check(e == PARIO_ERR_OUT_OF_RANGE, 'a uint32 of 2**32 - 1 into integer(4): out of range')
    call pario_dataset_info_get(d, PARIO_INFO_DATASET, 0_int64, 'u8', b8, n, t, mem_type=PARIO_TYPE_UINT64)
    call check(all(b8 == [-1_int64, 12_int64]) .and. t == PARIO_TYPE_UINT64, 'a uint64 info, bits kept')
    call pario_dataset_info_get(d, PARIO_INFO_DATASET, 0_int64, 'u8', x)
    call check(x(1) == 18446744073709551615.0_real64 .and. x(2) == 12, 'a uint64 info as real64')
    call pario_dataset_info_get(d, PARIO_INFO_DATASET, 0_int64, 'u8', b8, ierr=e)
    call check(e == PARIO_ERR_OUT_OF_RANGE, 'a uint64 of 2**64 - 1 into integer(8) as signed: out of range')
    call pario_dataset_info_get(d, PARIO_INFO_DATASET, 0_int64, 'u8', x, ierr=e, mem_type=PARIO_TYPE_UINT64)
    call check(e == PARIO_ERR_INVALID_ARGUMENT, 'mem_type uint64 into real64: refused')
    call pario_dataset_close(d)
  end subroutine

  ! Restart on another number of ranks: the first half of the ranks (one
  ! at 1 and 2 ranks; a split group) read every writer's item of each
  ! step; the others take no part (a null group). And a group made from
  ! an MPI communicator (MPI_COMM_WORLD's handle) opens it too.
  subroutine read_on_fewer_ranks(p)
    use, intrinsic :: iso_c_binding, only: c_int64_t, c_associated
    character(*), intent(in) :: p
    interface
      integer(c_int64_t) function test_world_fortran_comm() bind(C)  ! world_comm.c
        import :: c_int64_t
      end function
    end interface
    type(pario_group) :: half, whole
    type(pario_dataset) :: d
    integer :: hr, hn, wr, x
    integer(int64) :: k, w, segs
    real(real64), allocatable :: all_items(:)
    call pario_group_split(half, world, merge(0, -1, me < max(1, np / 2)))
    if (me < max(1, np / 2)) then
      call pario_group_rank(half, hr, hn)
      call check(hr == me .and. hn == max(1, np / 2), 'the split group: the first half, in order')
      call pario_dataset_open(d, half, trim(p))
      call pario_dataset_segment_count(d, segs)
      call check(segs == 3, 'read on fewer ranks: three segments')
      x = 1
      allocate (all_items(np))
      do k = 0, 2
        call pario_dataset_read_items(d, k + 1, x, 1_int64, all_items)
        call check(all(all_items == [(real(10 * k + w, real64), w = 0, np - 1)]), &
                   'read on fewer ranks: every writer''s item')
      end do
      call pario_dataset_close(d)
      call pario_group_free(half)
    else
      call check(.not. c_associated(half%h), 'color -1: a null group')
    end if
    call pario_group_from_comm(whole, int(test_world_fortran_comm()))
    call pario_group_rank(whole, wr)
    call check(wr == me, 'a group from MPI_COMM_WORLD: the same ranks')
    call pario_dataset_open(d, whole, trim(p))
    call pario_dataset_close(d)
    call pario_group_free(whole)
  end subroutine

  ! One member file per time index; a file that is not HDF5 at all.
  subroutine file_per_step_and_damaged()
    type(pario_dataset) :: d
    integer :: x, mode, e, unit
    integer(int64) :: k, per, files, segs
    real(real64) :: got(1)
    character(len=256) :: p
    p = scratch_file('fortran_dataset_per_step.h5')
    call pario_dataset_create_with(d, world, trim(p), PARIO_DATASET_FILE_PER_STEP, 0_int64, &
                                   ior(PARIO_CREATE, PARIO_TRUNCATE))
    call pario_dataset_variable_register(d, 'x', PARIO_ITEM_SCALAR, PARIO_TYPE_DOUBLE, variable=x)
    do k = 0, 2
      call pario_dataset_segment_append(d, PARIO_SEGMENT_STATE, k, real(k, real64))
      call pario_dataset_write_ranked(d, k + 1, x, [real(10 * k + me, real64)])
    end do
    call pario_dataset_close(d)
    call pario_dataset_open(d, world, trim(p))
    call pario_dataset_file_mode(d, mode, per, files)
    call pario_dataset_segment_count(d, segs)
    call check(mode == PARIO_DATASET_FILE_PER_STEP .and. files == 4 .and. segs == 3, &
               'a file per step: the entry file and three members')
    do k = 0, 2
      call pario_dataset_read_items(d, k + 1, x, me8 + 1, got)
      call check(got(1) == real(10 * k + me, real64), 'a file per step: each step read back')
    end do
    call pario_dataset_close(d)
    call read_on_fewer_ranks(p)

    p = scratch_file('fortran_dataset_text.h5')
    if (me == 0) then
      open (newunit=unit, file=trim(p), status='replace', action='write')
      write (unit, '(a)') 'not an HDF5 file'
      close (unit)
    end if
    call pario_group_barrier(world)
    call pario_dataset_open(d, world, trim(p), ierr=e)
    call check(e == PARIO_ERR_CORRUPT .or. (me /= 0 .and. e == PARIO_ERR_REMOTE), 'a text file: corrupt')
    if (me == 0) call check(index(pario_error_message(), 'fortran_dataset_text.h5') > 0, 'the message names the file')
  end subroutine

  ! Rank r's rank-ordered piece: r + 1 items, except rank 1 writes none.
  integer(int64) function piece(r)
    integer(int64), intent(in) :: r
    piece = r + 1
    if (r == 1) piece = 0
  end function

  ! Item k (1-based) of u.
  function u_of(k) result(x)
    integer(int64), intent(in) :: k
    real(real64) :: x(3)
    x = [real(k, real64), 10 + real(k, real64), 100 + 0.5_real64 * k]
  end function

end program dataset_test
