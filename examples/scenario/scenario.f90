! The newcomer's scenario in Fortran: write and read back a private file,
! fill a global array, store it as a disk array, read it back into another
! global array and compare. Run: mpiexec -n 2 ./scenario_fortran [dir]
program scenario
  use pario
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none
  integer, parameter :: n = 60, m = 40
  character(len=1024) :: dir, path, store
  type(pario_file) :: f
  type(pario_group) :: world
  type(pario_array) :: a, b
  type(pario_disk_array) :: d
  real(real64) :: x(1000), y(1000), all_a(n, m), all_b(n, m)
  real(real64), allocatable :: patch(:, :)
  integer(int64) :: lo(2), hi(2), one(2), dims(2)
  integer :: me, i, j
  logical :: ok

  dir = '/tmp'
  if (command_argument_count() > 0) call get_command_argument(1, dir)
  call pario_init()
  me = pario_rank()

  ! 1. A private file: this rank's own scratch.
  write (path, '(a, a, i0)') trim(dir), '/scenario_f.', me
  x = [(me + i / 8.0_real64, i = 1, 1000)]
  call pario_file_open(f, path, ior(PARIO_RDWR, ior(PARIO_CREATE, PARIO_TRUNCATE)))
  call pario_file_write(f, 0_int64, x)
  call pario_file_read(f, 0_int64, y)
  call pario_file_close(f)
  call pario_file_delete(path)
  ok = all(x == y)

  ! 2. A global array a(n, m), each rank filling its own patch.
  dims = [int(n, int64), int(m, int64)]
  one = 1
  call pario_group_world(world)
  call pario_array_create(a, world, 'scenario', dims)
  call pario_array_distribution(a, me, lo, hi)
  if (all(hi >= lo)) then
    allocate (patch(lo(1):hi(1), lo(2):hi(2)))
    do j = int(lo(2)), int(hi(2))
      do i = int(lo(1)), int(hi(1))
        patch(i, j) = i * 1000.0_real64 + j
      end do
    end do
    call pario_array_put(a, lo, hi, patch)
  end if

  ! 3. Store it as a disk array; 4. read it back into another array.
  write (store, '(a, a)') trim(dir), '/scenario_f.zarr'
  call pario_disk_array_delete(world, store, i)  ! a leftover from an earlier run, if any
  call pario_disk_array_create(d, world, store, dims)
  call pario_disk_array_write(d, a, one, dims, one)
  call pario_disk_array_close(d)
  call pario_array_create(b, world, 'back', dims)
  call pario_disk_array_open(d, world, store, PARIO_READ)
  call pario_disk_array_read(d, b, one, dims, one)
  call pario_disk_array_close(d)
  call pario_array_get(a, one, dims, all_a)
  call pario_array_get(b, one, dims, all_b)
  ok = ok .and. all(all_a == all_b) .and. all_b(n, m) == n * 1000.0_real64 + m

  call pario_disk_array_delete(world, store)
  call pario_array_destroy(a)
  call pario_array_destroy(b)
  call pario_finalize()
  if (me == 0) then
    if (ok) then
      print '(a)', 'scenario (Fortran): ok'
    else
      print '(a)', 'scenario (Fortran): MISMATCH'
    end if
  end if
  if (.not. ok) error stop 1
end program
