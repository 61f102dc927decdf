! Fortran direct-access I/O, the baseline of ChemIO's Figures 3 and 4:
! random-order write, then read, of a whole file in records of RECL bytes.
! Usage: fortran_direct PATH FILE_BYTES RECL REP  -> prints write and read MB/s
program fortran_direct
  use iso_fortran_env, only: int64, real64
  implicit none
  character(len=4096) :: path, arg
  integer(int64) :: file_bytes, t0, t1, t2, rate
  integer :: recl, rep, nrec, i, j, tmp, u, ios
  integer, allocatable :: order(:)
  character(len=:), allocatable :: buf
  real(real64) :: r, mb
  integer, allocatable :: seed(:)
  integer :: nseed

  call get_command_argument(1, path)
  call get_command_argument(2, arg); read (arg, *) file_bytes
  call get_command_argument(3, arg); read (arg, *) recl
  call get_command_argument(4, arg); read (arg, *) rep
  nrec = int(file_bytes / recl)
  allocate (order(nrec))
  allocate (character(len=recl) :: buf)
  buf = repeat('Z', recl)
  call random_seed(size=nseed)
  allocate (seed(nseed))
  seed = 4321 + rep
  call random_seed(put=seed)

  open (newunit=u, file=trim(path), access='direct', recl=recl, form='unformatted', &
        status='replace', action='readwrite', iostat=ios)
  if (ios /= 0) error stop 'fortran_direct: open failed'
  call shuffle()
  call system_clock(t0, rate)
  do i = 1, nrec
    write (u, rec=order(i)) buf
  end do
  call system_clock(t1)
  call shuffle()
  do i = 1, nrec
    read (u, rec=order(i)) buf
  end do
  call system_clock(t2)
  close (u, status='delete')
  mb = real(nrec, real64) * recl / 1.0d6
  print '(a,f0.3,a,f0.3)', 'write ', mb / (real(t1 - t0, real64) / rate), ' read ', &
        mb / (real(t2 - t1, real64) / rate)
contains
  subroutine shuffle()
    do i = 1, nrec
      order(i) = i
    end do
    do i = nrec, 2, -1
      call random_number(r)
      j = 1 + int(r * i)
      tmp = order(i); order(i) = order(j); order(j) = tmp
    end do
  end subroutine
end program
