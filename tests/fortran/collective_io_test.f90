! Collective I/O from the Fortran module at 1, 2 and 4 ranks: a 3-D
! real(real64) array a(6, 5, 8) written in px x py blocks (Fortran order,
! 1-based starts), checked in the file itself by rank 0, read back as
! real(real32); written again as two z-slabs per rank (several blocks),
! read back nonblocking; the file closed, opened again (mode PARIO_READ)
! and read with a 1-based index decomposition into integer(int64); a
! buffer too small on one rank failing on every rank; sparse keys (1-based
! positions and the global size returned), read back by pario_test alone;
! and the align, convert and buffering hints reaching C (refused when out
! of range or when they differ between ranks); a uint32 file from
! integer(int32) through mem_type, an overlapping write and an index past
! the space refused on every rank.
program collective_io_test
  use pario
  use test_checks
  use, intrinsic :: iso_fortran_env, only: int32, int64, real32, real64
  implicit none
  integer, parameter :: nx = 6, ny = 5, nz = 8
  integer :: me, np, ierr, px, py, i, j, k, b
  integer(int64) :: lo(3), cnt(3), n, starts(3, 2), counts(3, 2), local, global
  integer(int64), allocatable :: idx(:), ints(:)
  real(real64) :: whole(nx, ny, nz), disk(nx, ny, nz)
  real(real64), allocatable :: mine(:, :, :), slabs(:), back64(:), flat(:)
  real(real32), allocatable :: back(:, :, :)
  character(len=256) :: path
  type(pario_group) :: world
  type(pario_shared_file) :: f
  type(pario_decomp) :: d
  type(pario_request) :: req
  integer :: aggregators
  logical :: is_aggregator, done
  integer, parameter :: nkeys = 50
  integer(int64), allocatable :: gk(:), keys(:), pos(:), short(:)
  real(real64), allocatable :: vals(:), kdisk(:)
  integer(int64) :: t0, rate, t

  call pario_init()
  me = pario_rank()
  np = pario_size()
  call pario_group_world(world)
  path = scratch_file('fortran_collective.dat')
  whole = reshape([(((real(i + 10 * j + 100 * k, real64), i = 1, nx), j = 1, ny), k = 1, nz)], [nx, ny, nz])

  ! px x py blocks over dimensions 1 and 2; every rank all of dimension 3.
  px = merge(2, 1, np >= 2)
  py = np / px
  lo = [int(nx * mod(me, px) / px + 1, int64), int(ny * (me / px) / py + 1, int64), 1_int64]
  cnt = [int(nx * (mod(me, px) + 1) / px, int64) - lo(1) + 1, int(ny * (me / px + 1) / py, int64) - lo(2) + 1, &
         int(nz, int64)]
  mine = whole(lo(1):lo(1) + cnt(1) - 1, lo(2):lo(2) + cnt(2) - 1, :)
  call pario_shared_file_create(f, world, path, PARIO_UNKNOWN, int(nx * ny * nz * 8, int64), PARIO_UNKNOWN)
  call pario_decomp_create_blocks(d, world, PARIO_TYPE_DOUBLE, [int(nx, int64), int(ny, int64), int(nz, int64)], &
                                  lo, cnt, aggregators=min(2, np), buffer_size=64_int64)
  call pario_decomp_info(d, global, local, aggregators, is_aggregator)
  call check(global == nx * ny * nz .and. local == size(mine, kind=int64), 'decomposition sizes')
  call check(aggregators == min(2, np), 'the aggregators hint')
  call pario_decomp_write(d, f, 0_int64, mine)
  call pario_group_barrier(world)
  if (me == 0) then
    call pario_shared_file_read(f, 0_int64, disk)
    call check(all(disk == whole), 'the file holds the array column-major')
  end if
  allocate (back(cnt(1), cnt(2), cnt(3)))
  call pario_decomp_read(d, f, 0_int64, back)
  call check(all(back == real(mine, real32)), 'read back as real(real32)')
  ! A buffer too small on the last rank: every rank fails, the file is unchanged.
  call pario_decomp_write(d, f, 0_int64, mine(:, :, 1:merge(nz - 1, nz, me == np - 1)) * 0, ierr)
  if (me == np - 1 .or. np == 1) then
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'a buffer too small is refused')
    call check(index(pario_error_message(), 'elements') > 0, 'the message says why')
  else
    call check(ierr == PARIO_ERR_REMOTE, 'the other ranks fail with it')
  end if
  call pario_decomp_free(d)

  ! Two z-slabs per rank (several blocks, 2-D starts and counts), nonblocking.
  do b = 1, 2
    starts(:, b) = [1_int64, 1_int64, int(nz * (2 * me + b - 1) / (2 * np) + 1, int64)]
    counts(:, b) = [int(nx, int64), int(ny, int64), int(nz * (2 * me + b) / (2 * np), int64) - starts(3, b) + 1]
  end do
  slabs = [reshape(whole(:, :, starts(3, 1):starts(3, 1) + counts(3, 1) - 1), [nx * ny * counts(3, 1)]), &
           reshape(whole(:, :, starts(3, 2):starts(3, 2) + counts(3, 2) - 1), [nx * ny * counts(3, 2)])]
  call pario_decomp_create_blocks(d, world, PARIO_TYPE_DOUBLE, [int(nx, int64), int(ny, int64), int(nz, int64)], &
                                  starts, counts)
  call pario_decomp_iwrite(d, f, 0_int64, slabs * 2, req)
  call pario_wait(req)
  allocate (back64(size(slabs)))
  call pario_decomp_iread(d, f, 0_int64, back64, req)
  call pario_wait(req)
  call check(all(back64 == slabs * 2), 'two slabs per rank, nonblocking')
  call pario_decomp_free(d)
  call pario_shared_file_close(f)

  ! Opened again and read round robin by global index (1-based).
  call pario_shared_file_open(f, world, path, PARIO_READ)
  n = (nx * ny * nz - me + np - 1) / np
  idx = [(int(me + 1, int64) + np * i, i = 0, int(n) - 1)]
  allocate (ints(n))
  call pario_decomp_create_indices(d, world, PARIO_TYPE_DOUBLE, int(nx * ny * nz, int64), idx, &
                                   aggregators=min(2, np), buffer_size=64_int64)
  call pario_decomp_read(d, f, 0_int64, ints)
  flat = reshape(whole * 2, [nx * ny * nz])
  call check(all(ints == int(flat(idx), int64)), 'read by 1-based index into integer(int64)')
  call pario_decomp_free(d)
  call pario_shared_file_destroy(f)
  call pario_shared_file_open(f, world, trim(path) // '.missing', PARIO_READ, ierr)
  call check(ierr == PARIO_ERR_NOT_FOUND, 'opening a missing file')

  ! Sparse keys 1000 + 7 * g for the 1-based global element g, held round
  ! robin in reverse order: g is each key's dense position.
  gk = [(int(i, int64), i = nkeys, 1, -1)]
  gk = pack(gk, mod(gk - 1, int(np, int64)) == me)
  keys = 1000 + 7 * gk
  allocate (pos(size(keys)))
  call pario_shared_file_create(f, world, trim(path) // '.keys', PARIO_UNKNOWN, int(nkeys * 8, int64), PARIO_UNKNOWN)
  call pario_decomp_create_keys(d, world, PARIO_TYPE_DOUBLE, keys, pos, global, aggregators=min(2, np), &
                                buffer_size=64_int64, align=128_int64)
  call check(global == nkeys, 'keys: the number of distinct keys')
  call check(all(pos == gk), 'keys: the 1-based dense positions')
  call pario_decomp_write(d, f, 0_int64, real(gk, real64) * 0.5_real64)
  call pario_group_barrier(world)
  if (me == 0) then
    allocate (kdisk(nkeys))
    call pario_shared_file_read(f, 0_int64, kdisk)
    call check(all(kdisk == [(0.5_real64 * i, i = 1, nkeys)]), 'keys: the file in key order')
  end if
  ! pario_test alone finishes a read: the buffer is filled once it says done.
  allocate (vals(size(keys)))
  vals = -1
  call pario_decomp_iread(d, f, 0_int64, vals, req)
  call system_clock(t0, rate)
  done = .false.
  do while (.not. done)
    call pario_test(req, done)
    call system_clock(t)
    if (t - t0 > 30 * rate) exit
  end do
  call check(done, 'pario_test reports the read done')
  call check(all(vals == real(gk, real64) * 0.5_real64), 'pario_test: the data is there before the wait')
  call pario_wait(req)
  call pario_decomp_free(d)
  ! positions too short on the last rank: every rank fails.
  short = pos(1:max(0, size(pos) - merge(1, 0, me == np - 1)))
  call pario_decomp_create_keys(d, world, PARIO_TYPE_DOUBLE, keys, short, ierr=ierr)
  if (me == np - 1 .or. np == 1) then
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'keys: positions too short is refused')
  else
    call check(ierr == PARIO_ERR_REMOTE, 'keys: the other ranks fail with it')
  end if
  ! The align hint reaches C: negative is refused, and so is one that differs between ranks.
  call pario_decomp_create_keys(d, world, PARIO_TYPE_DOUBLE, keys, align=-8_int64, ierr=ierr)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'a negative align is refused')
  if (np > 1) then
    call pario_decomp_create_indices(d, world, PARIO_TYPE_DOUBLE, int(nkeys, int64), gk, &
                                     align=int(64 * (me + 1), int64), ierr=ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'an align that differs between ranks is refused')
  end if
  ! The convert hint reaches C: each side gives the same round trip
  ! (int64 in memory, big endian int64 in the file); an unknown one is
  ! refused, and so is one that differs between ranks, named alone.
  do i = PARIO_CONVERT_DEFAULT, PARIO_CONVERT_AGGREGATOR
    call pario_decomp_create_indices(d, world, PARIO_TYPE_INT64, int(nkeys, int64), gk, &
                                     byte_order=PARIO_BYTE_ORDER_BIG, convert=i, buffer_size=64_int64)
    call pario_decomp_write(d, f, 0_int64, gk * 3 - 40)
    if (allocated(ints)) deallocate (ints)
    allocate (ints(size(gk)))
    ints = 0
    call pario_decomp_read(d, f, 0_int64, ints)
    call check(all(ints == gk * 3 - 40), 'convert: the round trip, big endian in the file')
    deallocate (ints)
    call pario_decomp_free(d)
  end do
  call pario_decomp_create_indices(d, world, PARIO_TYPE_INT64, int(nkeys, int64), gk, convert=99, ierr=ierr)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'an unknown convert is refused')
  if (np > 1) then
    call pario_decomp_create_indices(d, world, PARIO_TYPE_INT64, int(nkeys, int64), gk, &
                                     convert=merge(PARIO_CONVERT_SENDER, PARIO_CONVERT_AGGREGATOR, me == 0), &
                                     ierr=ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), '(convert)') > 0, &
               'a convert that differs between ranks is refused, named')
  end if
  ! The buffering hint reaches C: written each way (round robin indices,
  ! interleaved with several ranks), the file the same, and read back the
  ! other way; an unknown one is refused, and so is one that differs
  ! between ranks, named alone.
  do i = PARIO_BUFFERING_DEFAULT, PARIO_BUFFERING_NEVER
    call pario_decomp_create_indices(d, world, PARIO_TYPE_DOUBLE, int(nkeys, int64), gk, &
                                     aggregators=min(2, np), buffer_size=64_int64, buffering=i)
    call pario_decomp_write(d, f, 0_int64, real(gk, real64) * 0.25_real64 + i)
    call pario_decomp_free(d)
    call pario_group_barrier(world)
    if (me == 0) then
      call pario_shared_file_read(f, 0_int64, kdisk)
      call check(all(kdisk == [(0.25_real64 * j + i, j = 1, nkeys)]), 'buffering: the file in index order')
    end if
    call pario_decomp_create_indices(d, world, PARIO_TYPE_DOUBLE, int(nkeys, int64), gk, &
                                     buffering=merge(PARIO_BUFFERING_ALWAYS, PARIO_BUFFERING_NEVER, &
                                                     i == PARIO_BUFFERING_NEVER))
    vals = -1
    call pario_decomp_read(d, f, 0_int64, vals)
    call check(all(vals == real(gk, real64) * 0.25_real64 + i), 'buffering: read back the other way')
    call pario_decomp_free(d)
  end do
  call pario_decomp_create_indices(d, world, PARIO_TYPE_DOUBLE, int(nkeys, int64), gk, buffering=99, ierr=ierr)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), 'buffering') > 0, &
             'an unknown buffering is refused')
  if (np > 1) then
    call pario_decomp_create_indices(d, world, PARIO_TYPE_DOUBLE, int(nkeys, int64), gk, &
                                     buffering=merge(PARIO_BUFFERING_ALWAYS, PARIO_BUFFERING_NEVER, me == 0), &
                                     ierr=ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), '(buffering)') > 0, &
               'a buffering that differs between ranks is refused, named')
  end if
  call pario_shared_file_destroy(f)
  call unsigned_and_bad_indices()

  call pario_finalize()
  if (failures > 0) error stop 1
  if (me == 0) print '(a)', 'collective_io_test: all checks passed'

contains

  ! A uint32 file written from integer(int32) buffers with mem_type (the
  ! bits of -1 are 2**32 - 1), read back as int64 values, as bits through
  ! mem_type, and refused as out of range into plain integer(int32);
  ! then two ranks holding one index (the write refused, nothing written)
  ! and an index past the space on rank 0 (create refused on every rank).
  subroutine unsigned_and_bad_indices()
    integer, parameter :: m = 12
    integer(int64), allocatable :: at(:), got8(:)
    integer(int32), allocatable :: v4(:), got4(:)
    integer(int32) :: raw(m)
    type(pario_shared_file) :: u
    type(pario_decomp) :: e
    integer :: rc
    character(len=256) :: p
    p = scratch_file('fortran_collective_uint32.bin')
    at = [(int(i, int64), i = me + 1, m, np)]
    v4 = int(at, int32) - 3  ! the first two negative: past int32 as uint32
    call pario_shared_file_create(u, world, trim(p), PARIO_UNKNOWN, int(m * 4, int64), PARIO_UNKNOWN)
    call pario_decomp_create_indices(e, world, PARIO_TYPE_UINT32, int(m, int64), at)
    call pario_decomp_write(e, u, 0_int64, v4, mem_type=PARIO_TYPE_UINT32)
    call pario_group_barrier(world)
    if (me == 0) then
      call pario_shared_file_read(u, 0_int64, raw)
      call check(all(raw == [(i - 3, i = 1, m)]), 'uint32: the file holds the bits')
    end if
    allocate (got8(size(at)), got4(size(at)))
    call pario_decomp_read(e, u, 0_int64, got8)
    call check(all(got8 == merge(at - 3 + 4294967296_int64, at - 3, at < 3)), 'uint32 read as int64 values')
    call pario_decomp_read(e, u, 0_int64, got4, mem_type=PARIO_TYPE_UINT32)
    call check(all(got4 == v4), 'uint32 read through mem_type: the bits')
    call pario_decomp_read(e, u, 0_int64, got4, rc)
    call check(rc == PARIO_ERR_OUT_OF_RANGE .or. (rc == PARIO_ERR_REMOTE .and. all(at >= 3)), &
               'uint32 of 2**32 - 1 into integer(int32): out of range')
    call pario_decomp_write(e, u, 0_int64, v4, rc, mem_type=PARIO_TYPE_DOUBLE)
    call check(rc == PARIO_ERR_INVALID_ARGUMENT, 'mem_type double for integer(int32): refused')
    call pario_decomp_free(e)
    ! Index 1 on every rank too: with two or more ranks, it overlaps.
    at = [1_int64, (int(i, int64), i = me + 2, m, np)]
    call pario_decomp_create_indices(e, world, PARIO_TYPE_UINT32, int(m, int64), at)
    call pario_decomp_write(e, u, 0_int64, [(0_int32, i = 1, size(at))], rc, mem_type=PARIO_TYPE_UINT32)
    if (np > 1) then
      call check(rc == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), 'overlap') > 0, &
                 'two ranks writing one index: refused, named')
      if (me == 0) then
        call pario_shared_file_read(u, 0_int64, raw)
        call check(all(raw == [(i - 3, i = 1, m)]), 'a refused write writes nothing')
      end if
    end if
    call pario_decomp_free(e)
    call pario_decomp_create_indices(e, world, PARIO_TYPE_UINT32, int(m, int64), [int(merge(m + 1, 1, me == 0), int64)], &
                                     ierr=rc)
    call check(rc == merge(PARIO_ERR_OUT_OF_RANGE, PARIO_ERR_REMOTE, me == 0), 'an index past the space: refused')
    call pario_shared_file_destroy(u)
  end subroutine

end program collective_io_test
