! The Fortran module `pario` at 1 and 2 ranks: private and shared files,
! a global array in Fortran order, the counter, nonblocking and transposed
! disk-array transfers, arrays of every element type, and errors through
! ierr (a buffer of the wrong type or size, a strided nonblocking buffer);
! the group's node facts, sum and broadcast.
program pario_module_test
  use pario
  use, intrinsic :: iso_fortran_env, only: int8, int16, int32, int64, real32, real64
  implicit none
  integer :: me, np, ierr, failures = 0, i, j
  character(len=256) :: dir, path
  character(len=11) :: text
  type(pario_file) :: f
  type(pario_request) :: req
  type(pario_shared_file) :: sf
  type(pario_group) :: world
  type(pario_array) :: a
  type(pario_counter) :: c
  type(pario_array) :: t
  type(pario_disk_array) :: d
  type(pario_request) :: r2
  real(real64) :: tw(5, 7)
  real(real64) :: x(1000), y(1000), block(3, 2), col(7), whole(7, 5), counts(64)
  integer(int64) :: k(10), k2(10), lo(2), hi(2), v, mine(10)

  call pario_init()
  me = pario_rank()
  np = pario_size()
  call get_environment_variable('PARIO_SCRATCH', dir)
  if (len_trim(dir) == 0) dir = '/tmp'

  ! Private file: any type, blocking and nonblocking, then errors via ierr.
  write (path, '(a, a, i0)') trim(dir), '/fortran_module.', me
  x = [(real(i, real64) / 3, i = 1, 1000)]
  k = [(int(i, int64) * 1000000007_int64, i = 1, 10)]
  call pario_file_open(f, path, ior(PARIO_RDWR, ior(PARIO_CREATE, PARIO_TRUNCATE)))
  call pario_file_write(f, 0_int64, x)
  call pario_file_iwrite(f, 8000_int64, k, req)
  call pario_wait(req)
  call check(pario_file_length(f) == 8080_int64, 'length after both writes')
  call pario_file_iread(f, 0_int64, y, req)
  call pario_wait(req)
  call pario_file_read(f, 8000_int64, k2)
  call check(all(y == x) .and. all(k2 == k), 'file round trip')
  text = 'hello pario'
  call pario_file_write(f, 8080_int64, text)
  text = ' '
  call pario_file_read(f, 8080_int64, text)
  call check(text == 'hello pario' .and. pario_file_length(f) == 8091_int64, 'a character scalar counts its length')
  call pario_file_read(f, 8000_int64, y, ierr)
  call check(ierr == PARIO_ERR_OUT_OF_RANGE, 'read past end of file gives PARIO_ERR_OUT_OF_RANGE')
  call check(index(pario_error_message(), 'past end of file') > 0, 'the message says why')
  call pario_file_close(f)
  call pario_file_delete(path)
  call pario_file_open(f, path, PARIO_READ, ierr)
  call check(ierr == PARIO_ERR_NOT_FOUND, 'a deleted file is not found')

  ! Shared file: block i by rank mod(i, np), then read the next rank's.
  call pario_group_world(world)
  write (path, '(a, a)') trim(dir), '/fortran_module.sf'
  call pario_shared_file_create(sf, world, path, PARIO_UNKNOWN, PARIO_UNKNOWN, 8000_int64)
  do i = 0, 3
    y = real(i * np + me, real64)
    call pario_shared_file_write(sf, int(i * np + me, int64) * 8000, y)
  end do
  call pario_group_barrier(world)
  do i = 0, 3
    j = i * np + mod(me + 1, np)
    call pario_shared_file_read(sf, int(j, int64) * 8000, y)
    call check(all(y == real(j, real64)), 'shared file cross read')
  end do
  call pario_shared_file_destroy(sf)

  ! Global array a(7, 5), Fortran order, 1-based sections.
  call pario_array_create(a, world, 'fortran', [7_int64, 5_int64])
  call pario_array_fill(a, 0.0_real64)
  if (me == 0) then
    whole = reshape([((real(i + 10 * j, real64), i = 1, 7), j = 1, 5)], [7, 5])
    call pario_array_put(a, [1_int64, 1_int64], [7_int64, 5_int64], whole)
  end if
  call pario_array_sync(a)
  call pario_array_get(a, [2_int64, 3_int64], [4_int64, 4_int64], block)
  call check(all(block == reshape([32d0, 33d0, 34d0, 42d0, 43d0, 44d0], [3, 2])), 'section get in Fortran order')
  call pario_array_sync(a)
  col = 1
  call pario_array_acc(a, [1_int64, 1_int64], [7_int64, 1_int64], col, 2.0_real64)
  call pario_array_sync(a)
  call pario_array_get(a, [1_int64, 1_int64], [7_int64, 1_int64], col)
  call check(all(col == [(real(i + 10, real64) + 2 * np, i = 1, 7)]), 'accumulate from every rank')
  call pario_array_distribution(a, me, lo, hi)
  call check(all(lo >= 1) .and. hi(1) <= 7 .and. hi(2) <= 5, 'own patch inside the array')

  ! Disk array: a(7, 5) stored transposed as disk(5, 7), nonblocking, then
  ! read back untransposed into t(5, 7) with the next write in flight.
  write (path, '(a, a)') trim(dir), '/fortran_module.zarr'
  call pario_disk_array_delete(world, path, ierr)  ! a leftover from an earlier run, if any
  call pario_disk_array_create(d, world, path, [5_int64, 7_int64])
  call pario_disk_array_iwrite(d, a, [1_int64, 1_int64], [7_int64, 5_int64], [1_int64, 1_int64], req, axes=[2, 1])
  call pario_array_fill(a, -1.0_real64)  ! allowed at once: iwrite copied the section out
  call pario_wait(req)
  call pario_array_create(t, world, 'transposed', [5_int64, 7_int64])
  call pario_disk_array_iread(d, t, [1_int64, 1_int64], [5_int64, 7_int64], [1_int64, 1_int64], r2)
  call pario_wait(r2)
  call pario_array_get(t, [1_int64, 1_int64], [5_int64, 7_int64], tw)
  whole = reshape([((real(i + 10 * j, real64) + merge(2 * np, 0, j == 1), i = 1, 7), j = 1, 5)], [7, 5])
  call check(all(tw == transpose(whole)), 'disk array written transposed, read back')
  call pario_disk_array_iwrite(d, a, [1_int64, 1_int64], [7_int64, 5_int64], [1_int64, 1_int64], req, &
                               axes=[1, 1], ierr=ierr)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'a repeated axis is refused')
  call check(index(pario_error_message(), 'perm') > 0, 'the message names the permutation')
  call pario_disk_array_close(d)
  call pario_disk_array_delete(world, path)
  call pario_array_destroy(t)
  call pario_array_destroy(a)

  call typed_arrays()
  call buffer_errors()
  call bad_arguments()

  ! Counter: 10 values per rank, each handed out once.
  call pario_counter_create(c, world)
  do i = 1, 10
    mine(i) = pario_counter_next(c)
  end do
  call pario_array_create(a, world, 'seen', [64_int64, 1_int64])
  call pario_array_fill(a, 0.0_real64)
  do i = 1, 10
    v = mine(i) + 1
    call pario_array_acc(a, [v, 1_int64], [v, 1_int64], [1.0_real64], 1.0_real64)
  end do
  call pario_array_sync(a)
  call pario_array_get(a, [1_int64, 1_int64], [64_int64, 1_int64], counts)
  call check(all(counts(1:10 * np) == 1) .and. all(counts(10 * np + 1:) == 0), 'each counter value once')
  call pario_array_destroy(a)
  call pario_counter_destroy(c)
  call group_collectives()

  call pario_finalize()
  if (failures > 0) then
    print '(a, i0, a)', 'pario_module_test: ', failures, ' failed'
    error stop 1
  end if
  if (me == 0) print '(a)', 'pario_module_test: all passed'

contains

  ! DDI's group calls: node facts, a sum of every kind of number, a
  ! broadcast from the last rank, and a buffer of no pario type refused on
  ! every rank.
  subroutine group_collectives()
    integer :: node, nodes, node_rank, node_size, e
    real(real64) :: r8(3)
    integer(int32) :: i4(2)
    complex(real32) :: c4(1)
    integer(int64) :: from_last(4)
    logical :: flags(2)
    call pario_group_node_info(world, node, nodes, node_rank, node_size)
    call check(nodes >= 1 .and. node >= 0 .and. node < nodes .and. node_rank >= 0 .and. node_rank < node_size &
               .and. node_size <= np, 'node facts')
    r8 = [1.5_real64, real(me, real64), -2.0_real64]
    i4 = [me, 1]
    c4 = [(1.0_real32, 0.5_real32)]
    call pario_group_sum(world, r8)
    call pario_group_sum(world, i4)
    call pario_group_sum(world, c4)
    call check(all(r8 == [1.5_real64 * np, real(np * (np - 1) / 2, real64), -2.0_real64 * np]), 'a real(8) sum')
    call check(all(i4 == [np * (np - 1) / 2, np]), 'an integer(4) sum')
    call check(c4(1) == cmplx(real(np), 0.5 * np, real32), 'a complex(4) sum')
    from_last = [(int(me, int64) * 10 + i, i = 1, 4)]
    call pario_group_broadcast(world, from_last, np - 1)
    call check(all(from_last == [(int(np - 1, int64) * 10 + i, i = 1, 4)]), 'a broadcast from the last rank')
    flags = .true.
    call pario_group_sum(world, flags, e)
    call check(e == PARIO_ERR_INVALID_ARGUMENT, 'a logical sum: refused')
    call pario_group_broadcast(world, from_last, np, e)
    call check(e == PARIO_ERR_INVALID_ARGUMENT, 'a root past the group: refused')
  end subroutine

  ! Every element type: put, get, acc with alpha, fill, nonblocking get and
  ! put, and an integer disk array whose type the open finds in the store.
  subroutine typed_arrays()
    type(pario_array) :: ai, al, af, az, back, a8, au, ac
    type(pario_disk_array) :: dd
    type(pario_request) :: r
    integer(int32) :: iw(6, 4), ir(6, 4)
    integer(int8) :: bw(5), br(5)
    integer(int16) :: hw(3), hr(3)
    complex(real32) :: cw(2), cr(2)
    integer(int64) :: lw(5), lr(5), dims(3)
    real(real32) :: fw(3, 3), fr(3, 3)
    complex(real64) :: zw(4), zr(4)
    integer :: p, q
    iw = reshape([(p * 7 - 11, p = 1, 24)], [6, 4])
    call pario_array_create(ai, world, 'int32', [6_int64, 4_int64], PARIO_TYPE_INT32)
    call check(ai%type == PARIO_TYPE_INT32, 'the array knows its type')
    call pario_array_fill(ai, 5_int32)
    call pario_array_get(ai, [1_int64, 1_int64], [6_int64, 4_int64], ir)
    call check(all(ir == 5), 'int32 fill')
    call pario_group_barrier(world)
    if (me == 0) call pario_array_put(ai, [1_int64, 1_int64], [6_int64, 4_int64], iw)
    call pario_array_sync(ai)
    call pario_array_acc(ai, [2_int64, 2_int64], [3_int64, 3_int64], reshape([1, 2, 3, 4], [2, 2]), 10_int32)
    call pario_array_sync(ai)
    call pario_array_iget(ai, [1_int64, 1_int64], [6_int64, 4_int64], ir, r)
    call pario_wait(r)
    iw(2:3, 2:3) = iw(2:3, 2:3) + 10 * np * reshape([1, 2, 3, 4], [2, 2])
    call check(all(ir == iw), 'int32 put, acc with alpha from every rank, iget')

    ! A disk array of int32: written from ai, opened again, read into back.
    write (path, '(a, a)') trim(dir), '/fortran_module_int.zarr'
    call pario_disk_array_delete(world, path, ierr)
    call pario_disk_array_create(dd, world, path, [6_int64, 4_int64], PARIO_TYPE_INT32)
    call pario_disk_array_write(dd, ai, [1_int64, 1_int64], [6_int64, 4_int64], [1_int64, 1_int64])
    call pario_disk_array_close(dd)
    call pario_disk_array_open(dd, world, path, PARIO_READ)
    call pario_disk_array_shape(dd, dims)
    call check(dd%type == PARIO_TYPE_INT32 .and. dd%ndim == 2 .and. all(dims(1:2) == [6, 4]), &
               'open finds the type and Fortran shape in the store')
    call pario_array_create(back, world, 'int32 back', dims(1:2), dd%type)
    call pario_disk_array_read(dd, back, [1_int64, 1_int64], [6_int64, 4_int64], [1_int64, 1_int64])
    ir = 0
    call pario_array_get(back, [1_int64, 1_int64], [6_int64, 4_int64], ir)
    call check(all(ir == iw), 'int32 disk array round trip')
    call pario_disk_array_close(dd)
    call pario_disk_array_delete(world, path)
    call pario_array_destroy(back)

    call pario_array_create(al, world, 'int64', [5_int64], PARIO_TYPE_INT64)
    lw = [(int(p, int64) * 3000000000_int64, p = 1, 5)]
    call pario_array_fill(al, 0_int64)
    if (me == np - 1) call pario_array_put(al, [1_int64], [5_int64], lw)
    call pario_array_sync(al)
    call pario_array_get(al, [1_int64], [5_int64], lr)
    call check(all(lr == lw), 'int64 values past 2**31')

    call pario_array_create(af, world, 'float', [3_int64, 3_int64], PARIO_TYPE_FLOAT)
    fw = reshape([(real(p, real32) / 4, p = 1, 9)], [3, 3])
    call pario_array_fill(af, 0.0_real32)
    call pario_array_sync(af)
    call pario_array_acc(af, [1_int64, 1_int64], [3_int64, 3_int64], fw)
    call pario_array_sync(af)
    call pario_array_get(af, [1_int64, 1_int64], [3_int64, 3_int64], fr)
    call check(all(fr == np * fw), 'float acc without alpha')

    call pario_array_create(az, world, 'complex', [4_int64], PARIO_TYPE_COMPLEX_DOUBLE)
    zw = [(cmplx(p, -p, real64), p = 1, 4)]
    call pario_array_fill(az, (1.0_real64, 0.5_real64))
    call pario_array_sync(az)
    call pario_array_acc(az, [1_int64], [4_int64], zw, (0.0_real64, 1.0_real64))
    call pario_array_sync(az)
    if (me == 0) then
      call pario_array_iput(az, [2_int64], [2_int64], zw(4:4), r)
      call pario_wait(r)
    end if
    call pario_array_sync(az)
    call pario_array_get(az, [1_int64], [4_int64], zr)
    zw = [((1.0_real64, 0.5_real64) + np * (0.0_real64, 1.0_real64) * zw(q), q = 1, 4)]
    zw(2) = cmplx(4, -4, real64)
    call check(all(zr == zw), 'complex fill, acc with complex alpha, iput')

    ! The smaller types: int8 (acc wraps as the C type does), uint16 through
    ! integer(int16) buffers (bits unchanged: -1 is 65535), complex(real32).
    call pario_array_create(a8, world, 'int8', [5_int64], PARIO_TYPE_INT8)
    bw = [integer(int8) :: -128, -1, 0, 1, 127]
    call pario_array_fill(a8, 0_int8)
    if (me == 0) call pario_array_put(a8, [1_int64], [5_int64], bw)
    call pario_array_sync(a8)
    call pario_array_get(a8, [1_int64], [5_int64], br)
    call check(all(br == bw), 'int8 extremes')
    call pario_array_create(au, world, 'uint16', [3_int64], PARIO_TYPE_UINT16)
    hw = [integer(int16) :: -1, 2, 300]
    call pario_array_fill(au, 0_int16)
    if (me == np - 1) call pario_array_put(au, [1_int64], [3_int64], hw)
    call pario_array_sync(au)
    call pario_array_get(au, [1_int64], [3_int64], hr)
    call check(all(hr == hw), 'uint16 through integer(int16)')
    call pario_array_get(au, [1_int64], [3_int64], ir(1:3, 1), ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), &
               'uint16 (integer(int16) in Fortran)') > 0, 'uint16 refuses an integer(int32) buffer')
    call pario_array_create(ac, world, 'complex float', [2_int64], PARIO_TYPE_COMPLEX_FLOAT)
    cw = [(1.5_real32, -2.0_real32), (0.25_real32, 8.0_real32)]
    call pario_array_fill(ac, (0.0_real32, 0.0_real32))
    call pario_array_sync(ac)
    call pario_array_acc(ac, [1_int64], [2_int64], cw, (2.0_real32, 0.0_real32))
    call pario_array_sync(ac)
    call pario_array_get(ac, [1_int64], [2_int64], cr)
    call check(all(cr == 2 * np * cw), 'complex(real32) acc with alpha')
    call pario_array_destroy(ac)
    call pario_array_destroy(au)
    call pario_array_destroy(a8)

    call pario_array_destroy(az)
    call pario_array_destroy(af)
    call pario_array_destroy(al)
    call pario_array_destroy(ai)
  end subroutine

  ! What only the module can see: a buffer of another type or too small,
  ! a fill value or alpha of another type, a strided nonblocking buffer,
  ! lo and hi of the wrong rank. Each is refused with a message, and
  ! nothing moves.
  subroutine buffer_errors()
    type(pario_array) :: ad
    type(pario_request) :: r
    real(real64) :: m(4, 4), small(3)
    integer(int32) :: wrong(4)
    m = 7
    call pario_array_create(ad, world, 'errors', [4_int64, 4_int64])
    call pario_array_fill(ad, 1.0_real64)
    call pario_array_put(ad, [1_int64, 1_int64], [4_int64, 1_int64], wrong, ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), &
               'pario_array_put: the buffer holds integer(int32) elements, the array real(real64)') > 0, &
               'a buffer of another type is refused')
    call pario_array_get(ad, [1_int64, 1_int64], [4_int64, 1_int64], small, ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. &
               index(pario_error_message(), 'the buffer has 3 elements, the section 4') > 0, &
               'a buffer smaller than the section is refused')
    call pario_array_fill(ad, 1, ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), 'one real(real64)') > 0, &
               'a fill value of another type is refused')
    call pario_array_acc(ad, [1_int64, 1_int64], [4_int64, 1_int64], m(:, 1), 2.0_real32, ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), 'alpha must be one real(real64)') > 0, &
               'an alpha of another type is refused')
    call pario_array_iget(ad, [1_int64, 1_int64], [1_int64, 4_int64], m(1, :), r, ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), 'strided') > 0, &
               'a strided buffer for a nonblocking get is refused')
    call pario_array_get(ad, [1_int64, 1_int64, 1_int64], [4_int64, 4_int64, 1_int64], m, ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. &
               index(pario_error_message(), 'one bound per dimension: 2, not 3 and 3') > 0, &
               'lo and hi of the wrong rank are refused')
    call check(all(m == 7), 'nothing moved')
    call pario_array_get(ad, [1_int64, 1_int64], [1_int64, 4_int64], m(1, :))
    call check(all(m(1, :) == 1) .and. all(m(2:, :) == 7), 'a strided buffer is fine for a blocking get')
    call pario_array_destroy(ad)
  end subroutine

  ! Bad arguments to collectives from Fortran: clear errors on every rank,
  ! no crash, and the job goes on.
  subroutine bad_arguments()
    type(pario_disk_array) :: dd
    type(pario_array) :: ad
    type(pario_group) :: never
    character(len=256) :: dpath
    write (dpath, '(a, a)') trim(dir), '/fortran_bad_args.zarr'
    call pario_disk_array_create(dd, world, trim(dpath), [(2_int64, i = 1, 9)], ierr=ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), 'ndim 9') > 0, &
               'a disk array of 9 dimensions is refused')
    call pario_array_create(ad, world, 'bad', [8_int64, 6_int64])
    call pario_disk_array_create(dd, world, trim(dpath), [8_int64, 6_int64])
    call pario_disk_array_write(dd, ad, [1_int64, 1_int64], [8_int64, 6_int64], &
                                [huge(0_int64) - 1, 1_int64], ierr)
    call check(ierr == PARIO_ERR_OUT_OF_RANGE .and. index(pario_error_message(), 'outside') > 0, &
               'a disk section near huge(0_int64) is out of range, on every rank')
    call pario_group_barrier(never, ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), 'group handle is null') > 0, &
               'a collective on a group never made is refused')
    call pario_group_barrier(world)
    call pario_disk_array_close(dd)
    call pario_disk_array_delete(world, trim(dpath))
    call pario_array_destroy(ad)
  end subroutine

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      print '(a, i0, a, a)', 'rank ', me, ': failed: ', what
    end if
  end subroutine

end program
