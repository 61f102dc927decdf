// A file series (PXI's second file mode) as a restart finds it on disk.
//
// The writer (writer.h) puts steps 1..n of a run in the file at path and
// each next n steps in path-s0002, path-s0003, ... (series_name), each a
// whole Exodus file: the same header and fixed data (the mesh), its own
// steps from record 0. A writer stopped at any point leaves:
//   - files 1..K-1 with exactly n steps each (the writer counts the last
//     step of a file before it makes the next one);
//   - file K with 0..n steps counted (a step past numrecs may be half
//     written: it is overwritten), or, when the writer was stopped while
//     making file K, a file whose header is not yet there (all zero) or
//     counts no step.
// find_series_end finds K from the directory's names, checks every file
// as untrusted input and says where the run continues: in file K, after
// its steps; or, when file K holds no step, in file K-1 after its n steps,
// so that the next step makes file K again from file K-1, as the writer
// would have.
//
// What is refused, on every rank (kCorrupt unless said):
//   - a name that looks like a member (path-s<digits>) but is not spelled
//     as the writer spells it (path-s2, path-s0001, path-s00002), or whose
//     number has more than 9 digits;
//   - a gap: file k missing while a later one exists;
//   - a file whose header does not decode, or differs from the first
//     file's (dimensions, variables, attributes: another mesh or another
//     set of variables);
//   - a file before the last that does not hold exactly n steps, or a last
//     file with more than n (kInvalidArgument: steps_per_file is not the
//     series');
//   - with check_data, a continued file (K > 1) whose fixed data (the mesh:
//     coordinates, maps, connectivity, sets, names) differs from the first
//     file's, byte for byte. Only that file is compared: the files between
//     the first and the last are read-only history.
//
// Thread safety: one thread per rank.
#pragma once

#include <string>

#include "base/status.h"
#include "comm/group.h"
#include "device/storage.h"

namespace pario::exodus {

// Where a run continues in its series.
struct SeriesEnd {
  int index = 1;       // the file (1-based) whose steps the run continues
  std::string name;    // its name: series_name(path, index)
  int first_step = 0;  // the run's steps in the files before it: (index - 1) * n
  int steps = 0;       // the steps that file counts (numrecs)
};

// Collective over group: the series whose first file is path, with n =
// steps_per_file (> 0) steps per file. Rank 0 lists the directory and
// reads the headers (and, with check_data, the continued file's fixed data
// against the first's); every rank gets the same answer or status.
Result<SeriesEnd> find_series_end(const comm::Group& group, device::Storage& storage, const std::string& path,
                                  int steps_per_file, bool check_data);

// Collective over group: rank 0 removes files 2.. of path's series (a
// new series at path replaces the old one whole: files left from a longer
// run would read as its continuation). Names the writer would not give
// (series_member's kCorrupt) are left alone.
Status remove_series_files(const comm::Group& group, const std::string& path);

// Collective over group: kInvalidArgument when path is the first file of
// a series (series_name(path, 2) exists), for appends that would put
// steps into it as into a single file.
Status check_not_series(const comm::Group& group, const std::string& path);

// Pure: the member number that directory entry `entry` has in the series
// whose first file is named `base` (no directory): 0 when entry is not of
// the form base-s<digits> (not a member: base-s0002.bak, other files);
// kCorrupt when it is but the writer would not have named it so.
Result<int> series_member(const std::string& base, const std::string& entry);

}  // namespace pario::exodus
