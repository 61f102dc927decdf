! MFDn's wave-function file from the Fortran module at 1, 2 and 4 ranks,
! the scenario of tests/python/test_wavefunction.py: a file of three
! vectors created, vector 1 written in uneven slices and vector 2 by the
! even split, each read back whole on every rank and by another rank's
! slice; observables reserved (NaN), written after a reopen read-write,
! read back read-only with the written flags; and errors: a real(real32)
! buffer on rank 0 failing on every rank, a vector never written, vector 0,
! an existing file, a slice past the end, writing a read-only file. And the
! collective engine's hints on create and open (the aggregators' transfer
! through one aggregator in 64-byte rounds gives the same vector; a hint C
! refuses, or one that differs between ranks, fails every rank naming it;
! tests/dataset/wavefunction_test.c counts the rounds).
program wavefunction_test
  use pario
  use test_checks
  use, intrinsic :: iso_fortran_env, only: int64, real32, real64
  use, intrinsic :: ieee_arithmetic, only: ieee_is_nan
  implicit none
  integer(int64), parameter :: dim = 101
  integer :: me, np, ierr, n, transfer
  integer(int64) :: lo, cnt, i, first(0:1)
  real(real64), allocatable :: mine(:), whole(:), grid(:, :)
  real(real32), allocatable :: single(:)
  real(real64) :: e, j, t
  logical :: written
  character(len=256) :: path
  type(pario_group) :: world
  type(pario_wavefunction) :: wf
  type(pario_wavefunction_basis) :: basis, back

  call pario_init()
  me = pario_rank()
  np = pario_size()
  call pario_group_world(world)
  if (.not. pario_dataset_supported()) error stop 'built only where pario has parallel HDF5 (CMake: pario_dataset)'
  path = scratch_file('fortran_wavefunction.h5')
  basis = pario_wavefunction_basis(dimension=dim, protons=2_int64, neutrons=3_int64, nmax=2_int64, &
                                   parity=-1_int64, two_mj=1_int64, hbar_omega=15.0_real64)

  call pario_wavefunction_create(wf, world, trim(path), basis, 3, ior(PARIO_CREATE, PARIO_TRUNCATE), &
                                 PARIO_WF_TRANSFER_INDEPENDENT)
  call pario_wavefunction_info(wf, back, n, transfer)
  call check(back%dimension == dim .and. back%parity == -1 .and. back%two_mj == 1 .and. back%hbar_omega == 15.0, &
             'the basis back')
  call check(n == 3 .and. transfer == PARIO_WF_TRANSFER_INDEPENDENT, 'three vectors, independent transfer')
  call pario_wavefunction_observables(wf, 1, e, j, t, written)
  call check(ieee_is_nan(e) .and. ieee_is_nan(j) .and. ieee_is_nan(t) .and. .not. written, 'observables reserved')

  ! Vector 1: rank 0 writes the first 60 elements, the last rank the rest
  ! (one rank: all of them).
  first = [1_int64, 61_int64]
  lo = first(min(me, 1))
  cnt = merge(dim - lo + 1, 60_int64, me == np - 1)
  if (np > 2 .and. me > 0 .and. me < np - 1) cnt = 0
  mine = [(value(1, i), i = lo, lo + cnt - 1)]
  call pario_wavefunction_write(wf, 1, lo, mine)
  ! Vector 2: the even split.
  call pario_dataset_even_split(dim, np, me, lo, cnt)
  mine = [(value(2, i), i = lo, lo + cnt - 1)]
  call pario_wavefunction_write(wf, 2, lo, mine)
  ! A buffer of reals on rank 0: every rank fails together.
  single = real(mine, real32)
  if (me == 0) then
    call pario_wavefunction_write(wf, 2, lo, single, ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'a real(real32) buffer is refused')
    call check(index(pario_error_message(), 'real(real32)') > 0, 'the message names the buffer type')
  else
    call pario_wavefunction_write(wf, 2, lo, mine, ierr)
    call check(ierr == PARIO_ERR_REMOTE, 'rank 0''s refused buffer fails this rank too')
  end if
  call pario_wavefunction_read(wf, 3, 1_int64, mine, ierr)
  call check(ierr == PARIO_ERR_NOT_FOUND, 'vector 3 was never written')
  call pario_wavefunction_read(wf, 0, 1_int64, mine, ierr)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'there is no vector 0')
  call pario_wavefunction_read(wf, 1, dim, mine(1:2), ierr)
  call check(ierr == PARIO_ERR_OUT_OF_RANGE, 'a slice past the end')
  call pario_wavefunction_close(wf)
  call pario_wavefunction_create(wf, world, trim(path), basis, 3, ierr=ierr)
  call check(ierr == PARIO_ERR_EXISTS, 'an exclusive create of an existing file')

  ! Reopened read-write: every rank reads both vectors whole and writes
  ! the observables.
  call pario_wavefunction_open(wf, world, trim(path), PARIO_RDWR)
  allocate (whole(dim))
  call pario_wavefunction_read(wf, 1, 1_int64, whole)
  call check(all(whole == [(value(1, i), i = 1, dim)]), 'vector 1 reads back whole')
  call pario_wavefunction_read(wf, 2, 1_int64, whole)
  call check(all(whole == [(value(2, i), i = 1, dim)]), 'vector 2 reads back whole')
  call pario_wavefunction_set_observables(wf, 1, -12.5_real64, 1.5_real64, 0.5_real64)
  call pario_wavefunction_close(wf)

  call pario_wavefunction_open(wf, world, trim(path))
  call pario_wavefunction_observables(wf, 1, e, j, t, written)
  call check(e == -12.5 .and. j == 1.5 .and. t == 0.5 .and. written, 'vector 1''s observables')
  call pario_wavefunction_observables(wf, 3, e, written=written)
  call check(ieee_is_nan(e) .and. .not. written, 'vector 3 neither written nor observed')
  ! Another rank's part of the even split, into a 2-d buffer (any rank).
  call pario_dataset_even_split(dim, np, mod(me + 1, np), lo, cnt)
  allocate (grid(cnt, 1))
  call pario_wavefunction_read(wf, 2, lo, grid)
  call check(all(grid(:, 1) == [(value(2, i), i = lo, lo + cnt - 1)]), 'another rank''s slice of vector 2')
  call pario_wavefunction_set_observables(wf, 2, 1.0_real64, 1.0_real64, 1.0_real64, ierr)
  call check(ierr == PARIO_ERR_STATE, 'a read-only file takes no observables')
  call pario_wavefunction_close(wf)

  path = scratch_file('fortran_wavefunction_hints.h5')
  call pario_dataset_even_split(dim, np, me, lo, cnt)
  call pario_wavefunction_create(wf, world, trim(path), basis, 1, ior(PARIO_CREATE, PARIO_TRUNCATE), &
                                 PARIO_WF_TRANSFER_AGGREGATORS, aggregators=1, buffer_size=64_int64, &
                                 buffering=PARIO_BUFFERING_ALWAYS)
  call pario_wavefunction_write(wf, 1, lo, [(value(1, i), i = lo, lo + cnt - 1)])
  call pario_wavefunction_close(wf)
  call pario_wavefunction_open(wf, world, trim(path), transfer=PARIO_WF_TRANSFER_AGGREGATORS, &
                               aggregator_ranks=[np - 1], buffer_size=64_int64, align=128_int64)
  call pario_wavefunction_read(wf, 1, 1_int64, whole)
  call check(all(whole == [(value(1, i), i = 1, dim)]), 'hints: the vector written and read back through them')
  call pario_wavefunction_close(wf)
  call pario_wavefunction_open(wf, world, trim(path), ierr=ierr, buffering=99)
  call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), 'hints->buffering 99') > 0, &
             'hints: an unknown buffering refused')
  if (np > 1) then
    call pario_wavefunction_create(wf, world, trim(path), basis, 1, ior(PARIO_CREATE, PARIO_TRUNCATE), &
                                   ierr=ierr, buffer_size=merge(64_int64, 128_int64, me == 0))
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), '(buffer_size)') > 0, &
               'hints: a buffer size that differs between ranks, named')
  end if

  call pario_finalize()
  if (failures > 0) error stop 1
  if (me == 0) print '(a)', 'fortran wavefunction_test: all checks passed'

contains

  ! Element i (1-based) of vector k.
  real(real64) function value(k, i)
    integer, intent(in) :: k
    integer(int64), intent(in) :: i
    value = sin(0.01_real64 * real(i, real64) * k) + k
  end function

end program wavefunction_test
