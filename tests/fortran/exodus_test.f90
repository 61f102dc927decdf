! Exodus II files from the Fortran module at 1 and 2 ranks: a tiny mesh of
! nx x ny x nz = 2 x 1 x 2 HEX8 cells (blocks 10 and 20, node set 100,
! side set 200, global, nodal and element variables, two steps), each rank
! passing its share of the elements and the nodes they use (global ids
! 2 * (n + 1)), read back by every rank in 1-based slices of its own; and
! connectivity of the wrong shape on rank 0 failing on every rank. Also
! coordinate names, the truth table, real32 attributes and values; then a
! restart: the file reopened to append step 3 from the ranks holding the
! elements in reverse, and every rank reading its own nodes and elements by
! global id, and the sets by ranges. Last, 64-bit integers (int64 =
! .true.): ids beyond 2^32 in a series of one step per file, continued
! from its first name (steps_per_file on open_append) by the ranks in
! reverse, read back by range and by id, and opened for reading by its first
! name (steps_per_file on open: its last file). And a side set of a varying
! number of distribution factors per side (num_df, df_counts), a part whose
! counts do not add up refused on every rank, read back by pario's reader.
! And the collective engine's hints on create, open and open_append: a
! file written through one aggregator in 64-byte rounds is the default's
! byte for byte; hints C refuses fail every rank with C's message, and a
! buffering that differs between ranks fails naming it.
program exodus_test
  use pario
  use test_checks
  use, intrinsic :: iso_fortran_env, only: int8, int64, real32, real64
  implicit none
  integer, parameter :: nx = 2, ny = 1, nz = 2, nn = (nx + 1) * (ny + 1) * (nz + 1), ne = nx * ny * nz
  integer, parameter :: lower = nx * ny  ! block 10: the cells with k = 0
  integer :: me, np, ierr, c, e0, e1, s, i, dims, nblocks, steps, npe, nvars
  integer(int64) :: conn(8, ne), num_nodes, num_elem, lo, cnt, id, count
  integer(int64), allocatable :: mine(:), nodes(:), ids(:), back_conn(:, :)
  real(real64), allocatable :: x(:), y(:), z(:), v(:)
  real(real64) :: t, energy(1)
  integer :: truth(1, 2), natt
  logical :: used(0:nn - 1)
  character(len=256) :: path
  character(len=80) :: title
  character(len=32) :: name, type
  type(pario_group) :: world
  type(pario_exodus) :: exo

  call pario_init()
  me = pario_rank()
  np = pario_size()
  call pario_group_world(world)
  path = scratch_file('fortran_exodus.exo')
  do c = 0, ne - 1
    conn(:, c + 1) = corners(c)
  end do

  ! This rank's elements [e0, e1) (0-based) and the nodes they use.
  e0 = ne * me / np
  e1 = ne * (me + 1) / np
  mine = [(int(i, int64), i = e0, e1 - 1)]
  nodes = nodes_of(e0, e1)
  x = xof(nodes)
  y = yof(nodes)
  z = zof(nodes)

  ! With the Nemesis information of the ranks' partition (the option goes
  ! through; its content is checked by the C tests with libexodusii).
  call pario_exodus_create(exo, world, path, nemesis=.true.)
  call pario_exodus_init(exo, 'fortran exodus', 3, int(nn, int64), int(ne, int64), 2, 1, 1)
  call pario_exodus_define_block(exo, 10_int64, 'lower', 'HEX8', int(lower, int64), 8)
  call pario_exodus_define_block(exo, 20_int64, 'upper', 'HEX8', int(ne - lower, int64), 8, 1)
  call pario_exodus_define_node_set(exo, 100_int64, 'x0', int((ny + 1) * (nz + 1), int64))
  call pario_exodus_define_side_set(exo, 200_int64, 'z0', int(nx * ny, int64))
  call pario_exodus_put_qa(exo, reshape([character(len=10) :: 'pario', '1', '2026-01-01', '00:00:00'], [4, 1]))
  call pario_exodus_put_info(exo, [character(len=20) :: 'generator=fortran'])
  call pario_exodus_define_variables(exo, PARIO_EXODUS_GLOBAL, [character(len=6) :: 'energy'])
  call pario_exodus_define_variables(exo, PARIO_EXODUS_NODAL, [character(len=11) :: 'temperature'])
  call pario_exodus_define_variables(exo, PARIO_EXODUS_ELEMENT, [character(len=6) :: 'stress'])
  call pario_exodus_put_coord_names(exo, [character(len=1) :: 'X', 'Y', 'Z'])
  call pario_exodus_put_truth_table(exo, reshape([1, 1], [1, 2]))
  call pario_exodus_put_nodes(exo, 2 * (nodes + 1), x, y, z)
  ! Rank 0 passes connectivity with a column too few: refused on every rank.
  ids = pack(mine, mine < lower)
  call pario_exodus_put_block(exo, 10_int64, 2 * (ids + 1), 2 * (conn(:, ids(1:size(ids) - merge(1, 0, me == 0)) &
                              + 1) + 1), ierr)
  call check(ierr == merge(PARIO_ERR_INVALID_ARGUMENT, PARIO_ERR_REMOTE, me == 0), 'a wrong shape fails every rank')
  if (me == 0) call check(index(pario_error_message(), 'column') > 0, 'the message says why')
  call pario_exodus_put_block(exo, 10_int64, 2 * (ids + 1), 2 * (conn(:, ids + 1) + 1))
  ids = pack(mine, mine >= lower)
  call pario_exodus_put_block(exo, 20_int64, 2 * (ids + 1), 2 * (conn(:, ids + 1) + 1))
  call pario_exodus_put_attributes(exo, 20_int64, real(ids, real32) + 0.5_real32)
  call pario_exodus_put_node_set(exo, 100_int64, 2 * (pack(nodes, mod(nodes, nx + 1) == 0) + 1))
  ids = pack(mine, mine < nx * ny)
  call pario_exodus_put_side_set(exo, 200_int64, 2 * (ids + 1), [(5, i = 1, size(ids))])
  do s = 1, 2
    t = 0.25_real64 * s
    call pario_exodus_put_time(exo, s, t)
    call pario_exodus_put_global_values(exo, s, [t * t])
    if (s == 1) then  ! real32, converted (the values are exact in both)
      call pario_exodus_put_nodal_values(exo, s, 1, real(300 + 10 * x + 20 * y + 30 * z + t, real32))
    else
      call pario_exodus_put_nodal_values(exo, s, 1, 300 + 10 * x + 20 * y + 30 * z + t)
    end if
    ids = pack(mine, mine < lower)
    call pario_exodus_put_element_values(exo, s, 1, 10_int64, 1000 + real(ids, real64) + t)
    ids = pack(mine, mine >= lower)
    call pario_exodus_put_element_values(exo, s, 1, 20_int64, 1000 + real(ids, real64) + t)
  end do
  call pario_exodus_close(exo)

  ! Read back: every rank its own 1-based slice of the nodes.
  call pario_exodus_open(exo, world, path)
  call pario_exodus_get_info(exo, title, dims, num_nodes, num_elem, nblocks, num_steps=steps)
  call check(title == 'fortran exodus' .and. dims == 3 .and. num_nodes == nn .and. num_elem == ne .and. &
             nblocks == 2 .and. steps == 2, 'the file''s sizes')
  call pario_exodus_get_block(exo, 2, id, name, type, count, npe)
  call check(id == 20 .and. name == 'upper' .and. type == 'HEX8' .and. count == ne - lower .and. npe == 8, &
             'block 2 is 20, upper')
  call pario_exodus_get_variable(exo, PARIO_EXODUS_NODAL, 1, name, nvars)
  call check(name == 'temperature' .and. nvars == 1, 'the nodal variable')
  call pario_exodus_get_time(exo, 2, t)
  call check(t == 0.5_real64, 'the time of step 2')
  lo = nn * me / np + 1
  cnt = nn * (me + 1) / np - lo + 1
  nodes = [(lo - 1 + i, i = 0, int(cnt) - 1)]
  deallocate (x, y, z, ids)
  allocate (x(cnt), y(cnt), z(cnt), v(cnt), ids(cnt))
  call pario_exodus_read_coords(exo, lo, x, y, z)
  call check(all(x == xof(nodes)) .and. all(y == yof(nodes)) .and. all(z == zof(nodes)), 'coordinates')
  call pario_exodus_read_node_ids(exo, lo, ids)
  call check(all(ids == 2 * (nodes + 1)), 'node ids')
  call pario_exodus_read_nodal_values(exo, 2, 1, lo, v)
  call check(all(v == 300 + 10 * x + 20 * y + 30 * z + 0.5_real64), 'temperature at step 2')
  allocate (back_conn(8, ne - lower))
  deallocate (ids)
  allocate (ids(ne - lower))
  call pario_exodus_read_block(exo, 20_int64, 1_int64, back_conn, ids)
  call check(all(back_conn == conn(:, lower + 1:) + 1) .and. all(ids == 2 * [(int(i, int64), i = lower + 1, ne)]), &
             'block 20 connectivity (1-based node positions) and ids')
  deallocate (v)
  allocate (v(lower))
  call pario_exodus_read_element_values(exo, 1, 1, 10_int64, 1_int64, v)
  call check(all(v == 1000 + [(real(i, real64), i = 0, lower - 1)] + 0.25_real64), 'stress of block 10, step 1')
  call pario_exodus_get_block(exo, 2, num_attributes=natt)
  call check(natt == 1, 'block 20 has one attribute')
  block
    real(real64) :: att(1, ne - lower)
    call pario_exodus_read_attributes(exo, 20_int64, 1_int64, att)
    call check(all(att(1, :) == real([(i, i = lower, ne - 1)], real64) + 0.5_real64), 'block 20''s attributes')
  end block
  block
    real(real64) :: two(2, 1)
    call pario_exodus_read_attributes(exo, 20_int64, 1_int64, two, ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'an array of two rows for one attribute is refused')
  end block
  block
    integer(int64) :: pstart(2), pcount(2), lo_e, hi_e
    call pario_exodus_get_partition(exo, pstart, pcount)
    lo_e = ne * me / np
    hi_e = ne * (me + 1) / np  ! this rank's stretch of all elements, blocks one after another
    call check(pcount(1) == max(0_int64, min(hi_e, int(lower, int64)) - lo_e) .and. &
               pcount(1) + pcount(2) == hi_e - lo_e, 'pario''s own partition')
    if (pcount(2) > 0) call check(pstart(2) == max(lo_e, int(lower, int64)) - lower + 1, 'its start in block 20')
  end block
  call pario_exodus_get_truth_table(exo, truth)
  call check(all(truth == 1), 'the truth table: stress on both blocks')
  call pario_exodus_read_global_values(exo, 2, energy)
  call check(energy(1) == 0.25_real64, 'energy at step 2')
  call pario_exodus_read_global_values(exo, 2, y(1:2), ierr)
  call check(ierr == PARIO_ERR_OUT_OF_RANGE, 'more global values than the file has are refused')
  call pario_exodus_read_nodal_values(exo, 3, 1, lo, x, ierr)
  call check(ierr /= PARIO_OK, 'a step the file lacks is refused')
  call nemesis_maps()
  call pario_exodus_close(exo)
  call restart()
  call int64_ids()
  call side_df()
  call hinted()

  call pario_finalize()
  if (failures > 0) error stop 1
  if (me == 0) print '(a)', 'exodus_test: all checks passed'

contains

  ! The Nemesis lists of this rank's processor (rank r wrote processor r):
  ! its nodes (file position = node index + 1, the ids being increasing)
  ! split into internal and border ones, its elements likewise, and at 2
  ! ranks one nodal map (the 6 nodes of the layer z = 1, shared with the
  ! other rank) and one elemental map (the 2 top or bottom faces there).
  subroutine nemesis_maps()
    integer(int64), allocatable :: own(:), internal(:), border(:), external(:), eint(:), ebor(:)
    integer(int64), allocatable :: nids(:), ncounts(:), eids(:), ecounts(:), cnodes(:), cprocs(:), celems(:), &
                                   csides(:), eprocs(:)
    integer(int64) :: counts(7)
    integer :: procs
    own = nodes_of(e0, e1) + 1
    call pario_exodus_get_loadbal(exo, me, procs, counts)
    call check(procs == np .and. counts(3) == 0, 'loadbal: one processor a rank, no external nodes')
    call pario_exodus_get_node_maps(exo, me, internal, border, external)
    call check(size(internal) == counts(1) .and. size(border) == counts(2) .and. size(external) == 0, &
               'node maps: the loadbal counts')
    call check(size(internal) + size(border) == size(own) .and. &
               all([(any(own == internal(i)), i = 1, size(internal))]) .and. &
               all([(any(own == border(i)), i = 1, size(border))]), 'node maps: this rank''s nodes')
    call check(size(border) == merge(0, (nx + 1) * (ny + 1), np == 1), 'node maps: the shared layer is border')
    call pario_exodus_get_elem_maps(exo, me, eint, ebor)
    call check(size(eint) + size(ebor) == e1 - e0 .and. all([eint, ebor] > e0 .and. [eint, ebor] <= e1), &
               'element maps: this rank''s elements (1-based positions)')
    call pario_exodus_get_cmap_params(exo, me, nids, ncounts, eids, ecounts)
    call check(size(nids) == counts(6) .and. size(eids) == counts(7), 'cmap params: the loadbal counts')
    if (np == 1) then
      call check(size(nids) == 0 .and. size(eids) == 0 .and. size(ebor) == 0, 'one rank: no maps')
    else
      call check(size(nids) == 1 .and. size(eids) == 1, 'two ranks: one map of each kind')
      call pario_exodus_get_node_cmap(exo, me, nids(1), cnodes, cprocs)
      call check(size(cnodes) == ncounts(1) .and. size(cnodes) == size(border) .and. all(cprocs == 1 - me) .and. &
                 all([(any(border == cnodes(i)), i = 1, size(cnodes))]), 'nodal map: the border nodes, the other rank')
      call pario_exodus_get_elem_cmap(exo, me, eids(1), celems, csides, eprocs)
      call check(size(celems) == ecounts(1) .and. size(celems) == nx * ny .and. all(eprocs == 1 - me) .and. &
                 all(csides == merge(6, 5, me == 0)) .and. all(celems > e0 .and. celems <= e1), &
                 'elemental map: the faces on the other rank''s side')
    end if
    call pario_exodus_get_node_cmap(exo, me, 99_int64, cnodes, cprocs, ierr)
    call check(ierr == PARIO_ERR_NOT_FOUND .and. size(cnodes) == 0, 'no map of id 99')
    call pario_exodus_get_loadbal(exo, np, procs, counts, ierr)
    call check(ierr == PARIO_ERR_OUT_OF_RANGE, 'a processor past the file''s')
    call pario_exodus_get_node_maps(exo, np, internal, border, external, ierr)
    call check(ierr == PARIO_ERR_OUT_OF_RANGE, 'node maps of a processor past the file''s')
  end subroutine

  ! Step 3 appended by ranks holding the elements in reverse (rank r the
  ! share of rank np - 1 - r); then every rank reads its own part of the
  ! file by global id, and the sets by ranges.
  subroutine restart()
    integer(int64), allocatable :: mine2(:), nodes2(:), part(:), got(:), sides(:), cn(:, :)
    real(real64), allocatable :: vals(:), df(:), zz(:)
    integer :: f0, f1, b
    integer(int64) :: sid, scount, sdf
    character(len=32) :: sname
    f0 = ne * (np - 1 - me) / np
    f1 = ne * (np - me) / np
    mine2 = [(int(i, int64), i = f0, f1 - 1)]
    nodes2 = nodes_of(f0, f1)
    call pario_exodus_open_append(exo, world, path)
    call pario_exodus_attach_nodes(exo, 2 * (nodes2 + 1))
    call pario_exodus_attach_block(exo, 10_int64, 2 * (pack(mine2, mine2 < lower) + 1))
    call pario_exodus_attach_block(exo, 20_int64, 2 * (pack(mine2, mine2 >= lower) + 1))
    call pario_exodus_put_time(exo, 3, 0.75_real64)
    call pario_exodus_put_global_values(exo, 3, [0.5625_real64])
    call pario_exodus_put_nodal_values(exo, 3, 1, 300 + 10 * xof(nodes2) + 20 * yof(nodes2) + 30 * zof(nodes2) + 0.75_real64)
    part = pack(mine2, mine2 < lower)
    call pario_exodus_put_element_values(exo, 3, 1, 10_int64, 1000 + real(part, real64) + 0.75_real64)
    part = pack(mine2, mine2 >= lower)
    call pario_exodus_put_element_values(exo, 3, 1, 20_int64, 1000 + real(part, real64) + 0.75_real64)
    call pario_exodus_close(exo)

    ! Read by partition: this rank's first nodes and elements (mine, as written).
    nodes2 = nodes_of(e0, e1)
    call pario_exodus_open(exo, world, path)
    call pario_exodus_get_info(exo, num_steps=steps)
    call check(steps == 3, 'three steps after the restart')
    allocate (vals(size(nodes2)))
    call pario_exodus_read_nodal_values_by_id(exo, 3, 1, 2 * (nodes2 + 1), vals)
    call check(all(vals == 300 + 10 * xof(nodes2) + 20 * yof(nodes2) + 30 * zof(nodes2) + 0.75_real64), &
               'appended temperature by id')
    call pario_exodus_read_nodal_values_by_id(exo, 1, 1, 2 * (nodes2 + 1), vals)
    call check(all(vals == 300 + 10 * xof(nodes2) + 20 * yof(nodes2) + 30 * zof(nodes2) + 0.25_real64), &
               'step 1 (written as real32) by id')
    deallocate (vals)
    allocate (vals(size(nodes2)), df(size(nodes2)), zz(size(nodes2)), got(size(nodes2)))
    call pario_exodus_read_coords_by_id(exo, 2 * (nodes2 + 1), vals, df, zz)
    call check(all(vals == xof(nodes2)) .and. all(df == yof(nodes2)) .and. all(zz == zof(nodes2)), &
               'coordinates by id')
    do b = 0, 1
      part = pack(mine, (mine >= lower) .eqv. (b == 1))
      deallocate (vals)
      allocate (vals(size(part)), cn(8, size(part)))
      call pario_exodus_read_element_values_by_id(exo, 3, 1, merge(20_int64, 10_int64, b == 1), 2 * (part + 1), vals)
      call check(all(vals == 1000 + real(part, real64) + 0.75_real64), 'appended stress by id')
      call pario_exodus_read_block_by_id(exo, merge(20_int64, 10_int64, b == 1), 2 * (part + 1), cn)
      call check(all(cn == 2 * (conn(:, part + 1) + 1)), 'connectivity by id, as global node ids')
      deallocate (cn)
    end do
    call pario_exodus_get_set(exo, PARIO_EXODUS_NODE_SET, 1, sid, sname, scount, sdf)
    call check(sid == 100 .and. sname == 'x0' .and. scount == (ny + 1) * (nz + 1) .and. sdf == 0, 'node set 100')
    deallocate (got)
    allocate (got(scount))
    call pario_exodus_read_node_set(exo, 100_int64, 1_int64, got)
    call check(all(got == 2 * (pack([(int(i, int64), i = 0, nn - 1)], mod([(i, i = 0, nn - 1)], nx + 1) == 0) + 1)), &
               'node set entries as global node ids')
    call pario_exodus_get_set(exo, PARIO_EXODUS_SIDE_SET, 1, sid, count=scount)
    deallocate (got)
    allocate (got(scount), sides(scount))
    call pario_exodus_read_side_set(exo, 200_int64, 1_int64, got, sides)
    call check(sid == 200 .and. all(got == 2 * [(int(i, int64), i = 1, nx * ny)]) .and. all(sides == 5), &
               'side set entries')
    call pario_exodus_close(exo)
  end subroutine

  ! ids base + 2 (n + 1), base = 3 * 2^31: every id beyond 2^32.
  subroutine int64_ids()
    integer(int64), parameter :: base = 3_int64 * 2_int64**31
    integer(int64), allocatable :: own(:), cn(:, :), got(:), pos(:)
    real(real64), allocatable :: vals(:)
    character(len=256) :: path64
    integer :: f0, f1, file_index, first, nsteps
    path64 = scratch_file('fortran_exodus64.exo')
    own = nodes_of(e0, e1)
    call pario_exodus_create(exo, world, path64, int64=.true., steps_per_file=1)
    call pario_exodus_init(exo, 'fortran int64', 3, int(nn, int64), int(ne, int64), 1, 0, 0)
    call pario_exodus_define_block(exo, 10_int64, 'all', 'HEX8', int(ne, int64), 8)
    call pario_exodus_define_variables(exo, PARIO_EXODUS_NODAL, [character(len=11) :: 'temperature'])
    call pario_exodus_put_nodes(exo, base + 2 * (own + 1), xof(own), yof(own), zof(own))
    call pario_exodus_put_block(exo, 10_int64, base + 2 * (mine + 1), base + 2 * (conn(:, mine + 1) + 1))
    call pario_exodus_put_time(exo, 1, 0.25_real64)
    call pario_exodus_put_nodal_values(exo, 1, 1, 300 + 10 * xof(own) + 0.25_real64)
    call pario_exodus_close(exo)

    ! Continued as a series by the ranks in reverse: step 2 makes the second file.
    f0 = ne * (np - 1 - me) / np
    f1 = ne * (np - me) / np
    own = nodes_of(f0, f1)
    call pario_exodus_open_append(exo, world, path64, steps_per_file=1)
    call pario_exodus_get_series(exo, file_index, first, nsteps)
    call check(file_index == 1 .and. first == 0 .and. nsteps == 1, 'the series continues after step 1')
    call pario_exodus_attach_nodes(exo, base + 2 * (own + 1))
    call pario_exodus_attach_block(exo, 10_int64, base + 2 * ([(int(i, int64), i = f0, f1 - 1)] + 1))
    call pario_exodus_put_time(exo, 2, 0.5_real64)
    call pario_exodus_put_nodal_values(exo, 2, 1, 300 + 10 * xof(own) + 0.5_real64)
    call pario_exodus_get_series(exo, file_index, first, nsteps)
    call check(file_index == 2 .and. first == 1 .and. nsteps == 2, 'step 2 in the second file')
    call pario_exodus_close(exo)

    ! Read back: ids by this rank's range of positions, values and
    ! connectivity by this rank's first ids.
    call pario_exodus_open(exo, world, trim(path64) // '-s0002')
    call pario_exodus_get_info(exo, num_steps=steps)
    call pario_exodus_get_time(exo, 1, t)
    call check(steps == 1 .and. t == 0.5_real64, 'the second file holds step 2')
    lo = nn * me / np + 1
    cnt = nn * (me + 1) / np - lo + 1
    allocate (got(cnt))
    call pario_exodus_read_node_ids(exo, lo, got)
    pos = [(lo - 1 + i, i = 0, int(cnt) - 1)]
    call check(all(got == base + 2 * (pos + 1)), 'node ids beyond 2^32 by range')
    own = nodes_of(e0, e1)
    allocate (vals(size(own)), cn(8, e1 - e0))
    call pario_exodus_read_nodal_values_by_id(exo, 1, 1, base + 2 * (own + 1), vals)
    call check(all(vals == 300 + 10 * xof(own) + 0.5_real64), 'values by 64-bit id')
    call pario_exodus_read_block_by_id(exo, 10_int64, base + 2 * (mine + 1), cn)
    call check(all(cn == base + 2 * (conn(:, mine + 1) + 1)), 'connectivity as 64-bit node ids')
    call pario_exodus_close(exo)

    ! Opened for reading by the series' first name: its last file.
    call pario_exodus_open(exo, world, path64, steps_per_file=1)
    call pario_exodus_get_series(exo, file_index, first, nsteps)
    call pario_exodus_get_time(exo, 1, t)
    call check(file_index == 2 .and. first == 1 .and. t == 0.5_real64, 'open by the first name, steps_per_file=1')
    call pario_exodus_close(exo)
  end subroutine

  ! Element e's side 5 (0-based e) carries 1 + mod(e, 3) factors, 10 e + q
  ! for q = 1, 2, ...; each rank passes its own elements' sides.
  subroutine side_df()
    integer(int64), allocatable :: own(:), got(:), sides(:)
    real(real64), allocatable :: df(:), bad_df(:), back(:)
    integer, allocatable :: counts(:), bad_counts(:)
    integer :: k, q, e
    integer(int64) :: sid, scount, sdf, total
    character(len=256) :: path_df
    path_df = scratch_file('fortran_side_df.exo')
    counts = [(1 + int(mod(mine(k), 3_int64)), k = 1, size(mine))]
    df = [((10.0_real64 * mine(k) + q, q = 1, counts(k)), k = 1, size(mine))]
    total = sum([(1 + mod(e, 3), e = 0, ne - 1)])
    own = nodes_of(e0, e1)
    call pario_exodus_create(exo, world, path_df)
    call pario_exodus_init(exo, 'fortran side df', 3, int(nn, int64), int(ne, int64), 1, 0, 1)
    call pario_exodus_define_block(exo, 10_int64, 'all', 'HEX8', int(ne, int64), 8)
    call pario_exodus_define_side_set(exo, 300_int64, 'mixed', int(ne, int64), num_df=total)
    call pario_exodus_put_nodes(exo, 2 * (own + 1), xof(own), yof(own), zof(own))
    call pario_exodus_put_block(exo, 10_int64, 2 * (mine + 1), 2 * (conn(:, mine + 1) + 1))
    ! Rank 0's last side with one factor more: the sum is num_df + 1, refused on every rank.
    bad_counts = counts
    bad_df = df
    if (me == 0 .and. size(mine) > 0) then
      bad_counts(size(mine)) = bad_counts(size(mine)) + 1
      bad_df = [df, 0.0_real64]
    end if
    call pario_exodus_put_side_set(exo, 300_int64, 2 * (mine + 1), [(5, k = 1, size(mine))], bad_df, ierr, &
                                   df_counts=bad_counts)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT, 'counts adding up to num_df + 1 fail on every rank')
    call pario_exodus_put_side_set(exo, 300_int64, 2 * (mine + 1), [(5, k = 1, size(mine))], df, df_counts=counts)
    call pario_exodus_close(exo)

    call pario_exodus_open(exo, world, path_df)
    call pario_exodus_get_set(exo, PARIO_EXODUS_SIDE_SET, 1, sid, count=scount, df_count=sdf)
    call check(sid == 300 .and. scount == ne .and. sdf == total, 'the side set of varying factors: its sizes')
    allocate (got(scount), sides(scount), back(sdf))
    call pario_exodus_read_side_set(exo, 300_int64, 1_int64, got, sides)
    call check(all(got == 2 * [(int(e, int64), e = 1, ne)]) .and. all(sides == 5), 'its sides, by element')
    call pario_exodus_read_set_df(exo, PARIO_EXODUS_SIDE_SET, 300_int64, 1_int64, back)
    call check(all(back == [((10.0_real64 * e + q, q = 1, 1 + mod(e, 3)), e = 0, ne - 1)]), &
               'its factors, side after side')
    call pario_exodus_close(exo)
  end subroutine

  ! The hints: the file of the defaults and of hints, written, compared,
  ! read and appended to with hints; hints refused.
  subroutine hinted()
    character(len=256) :: plain, hinted_path, refused
    integer(int64), allocatable :: own(:)
    real(real64), allocatable :: vals(:)
    plain = scratch_file('fortran_hints_default.exo')
    hinted_path = scratch_file('fortran_hints.exo')
    refused = scratch_file('fortran_hints_refused.exo')
    own = nodes_of(e0, e1)
    call pario_exodus_create(exo, world, plain)
    call write_small(own)
    call pario_exodus_create(exo, world, hinted_path, aggregators=1, buffer_size=64_int64, &
                             buffering=PARIO_BUFFERING_ALWAYS)
    call write_small(own)
    call pario_group_barrier(world)
    if (me == 0) call check(same_bytes(plain, hinted_path), 'hints: the default''s file byte for byte')

    call pario_exodus_open_append(exo, world, hinted_path, aggregator_ranks=[np - 1], align=512_int64, &
                                  convert=PARIO_CONVERT_SENDER, buffering=PARIO_BUFFERING_NEVER)
    call pario_exodus_attach_nodes(exo, 2 * (own + 1))
    call pario_exodus_put_time(exo, 2, 0.5_real64)
    call pario_exodus_put_nodal_values(exo, 2, 1, 300 + 10 * xof(own) + 0.5_real64)
    call pario_exodus_close(exo)
    call pario_exodus_open(exo, world, hinted_path, aggregators=1, buffer_size=64_int64, &
                           buffering=PARIO_BUFFERING_ALWAYS)
    allocate (vals(size(own)))
    call pario_exodus_read_nodal_values_by_id(exo, 2, 1, 2 * (own + 1), vals)
    call check(all(vals == 300 + 10 * xof(own) + 0.5_real64), 'hints: appended and read back with hints')
    call pario_exodus_close(exo)

    call pario_exodus_create(exo, world, refused, aggregators=-1, ierr=ierr)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. &
               index(pario_error_message(), 'hints->aggregators is negative') > 0, 'hints: negative aggregators')
    call pario_exodus_open(exo, world, plain, ierr, buffering=99)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), 'hints->buffering 99') > 0, &
               'hints: an unknown buffering')
    call pario_exodus_open_append(exo, world, plain, ierr, buffer_size=-1_int64)
    call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), 'hints->buffer_size -1') > 0, &
               'hints: a negative buffer size')
    if (np > 1) then
      call pario_exodus_create(exo, world, refused, ierr=ierr, &
                               buffering=merge(PARIO_BUFFERING_ALWAYS, PARIO_BUFFERING_NEVER, me == 0))
      call check(ierr == PARIO_ERR_INVALID_ARGUMENT .and. index(pario_error_message(), '(buffering)') > 0, &
                 'hints: a buffering that differs between ranks, named')
    end if
  end subroutine

  ! One block of every cell, this rank's, and one step of temperature, into
  ! the file exo was just created as; closes it.
  subroutine write_small(own)
    integer(int64), intent(in) :: own(:)
    call pario_exodus_init(exo, 'fortran hints', 3, int(nn, int64), int(ne, int64), 1, 0, 0)
    call pario_exodus_define_block(exo, 10_int64, 'all', 'HEX8', int(ne, int64), 8)
    call pario_exodus_define_variables(exo, PARIO_EXODUS_NODAL, [character(len=11) :: 'temperature'])
    call pario_exodus_put_nodes(exo, 2 * (own + 1), xof(own), yof(own), zof(own))
    call pario_exodus_put_block(exo, 10_int64, 2 * (mine + 1), 2 * (conn(:, mine + 1) + 1))
    call pario_exodus_put_time(exo, 1, 0.25_real64)
    call pario_exodus_put_nodal_values(exo, 1, 1, 300 + 10 * xof(own) + 0.25_real64)
    call pario_exodus_close(exo)
  end subroutine

  ! Whether the two files hold the same bytes (and some).
  logical function same_bytes(a, b)
    character(*), intent(in) :: a, b
    integer(int8), allocatable :: x1(:), x2(:)
    integer :: u1, u2, n1, n2
    open (newunit=u1, file=trim(a), access='stream', form='unformatted', status='old', action='read')
    open (newunit=u2, file=trim(b), access='stream', form='unformatted', status='old', action='read')
    inquire (unit=u1, size=n1)
    inquire (unit=u2, size=n2)
    allocate (x1(n1), x2(n2))
    read (u1) x1
    read (u2) x2
    close (u1)
    close (u2)
    same_bytes = n1 == n2 .and. n1 > 0
    if (same_bytes) same_bytes = all(x1 == x2)
  end function

  ! The nodes (0-based) that cells [c0, c1) use, in increasing order.
  function nodes_of(c0, c1) result(n)
    integer, intent(in) :: c0, c1
    integer(int64), allocatable :: n(:)
    integer :: k
    used = .false.
    do k = c0, c1 - 1
      used(conn(:, k + 1)) = .true.
    end do
    n = pack([(int(k, int64), k = 0, nn - 1)], used)
  end function

  ! 0-based node index of (i, j, k).
  integer(int64) function node(i, j, k)
    integer, intent(in) :: i, j, k
    node = i + (nx + 1) * (j + (ny + 1) * k)
  end function

  ! HEX8 corners (0-based node indices) of cell c, Exodus order.
  function corners(c) result(n)
    integer, intent(in) :: c
    integer(int64) :: n(8)
    integer :: i, j, k
    i = mod(c, nx)
    j = mod(c / nx, ny)
    k = c / (nx * ny)
    n = [node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k), &
         node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1), node(i, j + 1, k + 1)]
  end function

  elemental real(real64) function xof(n)
    integer(int64), intent(in) :: n
    xof = real(mod(n, int(nx + 1, int64)), real64) / nx
  end function

  elemental real(real64) function yof(n)
    integer(int64), intent(in) :: n
    yof = real(mod(n / (nx + 1), int(ny + 1, int64)), real64) / ny
  end function

  elemental real(real64) function zof(n)
    integer(int64), intent(in) :: n
    zof = real(n / ((nx + 1) * (ny + 1)), real64) / nz
  end function

end program exodus_test
