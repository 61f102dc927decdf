! A task loop in Fortran, as in a Fock build or an integral transformation:
! ranks take tasks from the shared counter (dynamic load balancing), write
! each task's block of "integrals" into one shared scratch file, and count
! the work in integer global arrays; then every rank reads all the blocks
! back. Run: mpiexec -n 2 ./tasks_fortran [dir]
program tasks
  use pario
  use, intrinsic :: iso_fortran_env, only: int32, int64, real64
  implicit none
  integer, parameter :: ntasks = 40, block = 2000
  integer(int64), parameter :: block_bytes = 8_int64 * block
  character(len=1024) :: dir, path
  type(pario_group) :: world
  type(pario_counter) :: next_task
  type(pario_shared_file) :: sf
  type(pario_array) :: times_done, tasks_by_rank
  real(real64) :: ints(block)
  integer(int32) :: done(ntasks)
  integer(int32), allocatable :: by_rank(:)
  integer(int64) :: task
  integer :: me, np, t, mine
  logical :: ok

  dir = '/tmp'
  if (command_argument_count() > 0) call get_command_argument(1, dir)
  call pario_init()
  me = pario_rank()
  np = pario_size()
  call pario_group_world(world)

  write (path, '(a, a)') trim(dir), '/tasks_f.ints'
  call pario_shared_file_create(sf, world, path, ntasks * block_bytes, ntasks * block_bytes, block_bytes)
  call pario_counter_create(next_task, world)
  call pario_array_create(times_done, world, 'times done', [int(ntasks, int64)], PARIO_TYPE_INT32)
  call pario_array_create(tasks_by_rank, world, 'tasks by rank', [int(np, int64)], PARIO_TYPE_INT32)
  call pario_array_fill(times_done, 0_int32)
  call pario_array_fill(tasks_by_rank, 0_int32)

  ! Take tasks until the counter passes the last one (0-based values).
  mine = 0
  do
    task = pario_counter_next(next_task)
    if (task >= ntasks) exit
    call integrals(int(task), ints)
    call pario_shared_file_write(sf, task * block_bytes, ints)
    call pario_array_acc(times_done, [task + 1], [task + 1], [1_int32])
    mine = mine + 1
  end do
  call pario_array_acc(tasks_by_rank, [int(me + 1, int64)], [int(me + 1, int64)], [int(mine, int32)])
  call pario_array_sync(times_done)  ! collective: every rank's acc is done
  call pario_array_sync(tasks_by_rank)
  call pario_group_barrier(world)     ! and every block is in the file

  ! Every rank reads every block back and checks it.
  ok = .true.
  do t = 0, ntasks - 1
    call pario_shared_file_read(sf, t * block_bytes, ints)
    ok = ok .and. all(ints == expected(t))
  end do
  call pario_array_get(times_done, [1_int64], [int(ntasks, int64)], done)
  ok = ok .and. all(done == 1)
  allocate (by_rank(np))
  call pario_array_get(tasks_by_rank, [1_int64], [int(np, int64)], by_rank)
  ok = ok .and. sum(by_rank) == ntasks
  if (.not. ok) print '(a, i0)', 'tasks: MISMATCH on rank ', me
  if (me == 0 .and. ok) print '(a, i0, a, *(1x, i0))', 'tasks: ', ntasks, ' tasks, each done once; per rank:', by_rank

  call pario_array_destroy(tasks_by_rank)
  call pario_array_destroy(times_done)
  call pario_counter_destroy(next_task)
  call pario_shared_file_destroy(sf)
  call pario_finalize()
  if (.not. ok) error stop 1

contains

  ! A stand-in for computing task t's block.
  subroutine integrals(t, v)
    integer, intent(in) :: t
    real(real64), intent(out) :: v(:)
    v = expected(t)
  end subroutine

  function expected(t) result(v)
    integer, intent(in) :: t
    real(real64) :: v(block)
    integer :: i
    v = [(exp(-0.001_real64 * i) * (t + 1), i = 1, block)]
  end function

end program
