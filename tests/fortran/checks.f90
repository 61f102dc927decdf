! What the Fortran tests share: check counts and reports a failed
! condition (with this process's rank) and lets the test go on (the
! program ends with `if (failures > 0) error stop 1`); scratch_file names a
! file in $PARIO_SCRATCH (ctest's build folder), else /tmp.
module test_checks
  use pario, only: pario_rank
  implicit none
  private
  integer, public :: failures = 0
  public :: check, scratch_file

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      print '(a, i0, a, a)', 'rank ', pario_rank(), ': FAILED: ', what
    end if
  end subroutine

  function scratch_file(name) result(path)
    character(*), intent(in) :: name
    character(len=:), allocatable :: path
    character(len=256) :: dir
    call get_environment_variable('PARIO_SCRATCH', dir)
    if (len_trim(dir) == 0) dir = '/tmp'
    path = trim(dir) // '/' // name
  end function

end module test_checks
