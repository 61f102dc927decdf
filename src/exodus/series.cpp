// A file series as a restart finds it (series.h).
//
// Rank 0 does all of it and the others learn the answer in one agree_max:
// list the directory of path once (a name is a member only as the writer
// spells it; numbers must run 2..K without a gap), then open files 1..K
// read-only in turn, decoding each header from untrusted bytes and
// comparing its model with the first file's (operator== on the netCDF
// model: every dimension, variable and attribute); numrecs must be n in
// files 1..K-1. A last file whose first four bytes are missing or zero is
// one the writer was making when it stopped (next_file copies the header
// and the mesh, each rank its slice, rank 0's slice holding the header):
// the run continues in file K-1, and its next step makes file K again.
// With check_data the continued file's fixed variables are compared with
// the first file's, variable by variable (their begins may differ between
// writers), in chunks of 8 MiB: the mesh the new steps' values belong to
// must be the one the first file describes.
#include "exodus/series.h"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <memory>
#include <system_error>
#include <vector>

#include "base/status_of.h"
#include "comm/comm.h"
#include "exodus/reader.h"
#include "exodus/writer.h"

namespace pario::exodus {
namespace {

Status corrupt(const std::string& what) { return Status(Code::kCorrupt, what); }

// One file of the series, open read-only, its header decoded.
struct Member {
  std::unique_ptr<device::Device> device;
  Header header;
  bool begun = true;  // false: no header yet (the writer stopped while making it)

  Status close() {
    Status s = device ? device->close() : Status::Ok();
    device.reset();
    return s;
  }
};

// may_be_unbegun: the last file, which may be one the writer was making.
Result<Member> open_member(device::Storage& storage, const std::string& name, bool may_be_unbegun) {
  device::OpenOptions o;
  o.write = false;
  Member m;
  PARIO_ASSIGN_OR_RETURN(m.device, storage.open(name, o));
  PARIO_ASSIGN_OR_RETURN(uint64_t size, m.device->size());
  if (may_be_unbegun) {
    unsigned char magic[4] = {0, 0, 0, 0};
    size_t got = 0;
    PARIO_RETURN_IF_ERROR(m.device->read_at(0, magic, sizeof magic, &got));
    if (got < sizeof magic || (magic[0] | magic[1] | magic[2] | magic[3]) == 0) {
      m.begun = false;
      return m;
    }
  }
  std::vector<unsigned char> head;
  Result<Header> h = read_header(*m.device, static_cast<int64_t>(size), &head);
  if (!h.ok()) return h.status().with_context(name);
  m.header = std::move(h).value();
  return m;
}

// The numbers of the files 2.. of path's series in its directory (any
// order, gaps included); strict: a name the writer would not give fails,
// else it is skipped.
Result<std::vector<int>> list_files(const std::string& path, bool strict) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const std::string base = p.filename().string();
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  std::error_code ec;
  std::vector<int> numbers;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    Result<int> k = series_member(base, it->path().filename().string());
    if (!k.ok() && strict) return k.status();
    if (k.ok() && *k > 0) numbers.push_back(*k);
  }
  if (ec) return errno_status(ec.value(), "listing " + dir.string() + " for the files of the series " + path);
  return numbers;
}

// The number of files of the series on disk (1: path alone); a gap is
// refused.
Result<int> count_files(const std::string& path) {
  PARIO_ASSIGN_OR_RETURN(std::vector<int> numbers, list_files(path, /*strict=*/true));
  std::sort(numbers.begin(), numbers.end());
  int next = 2;
  for (int k : numbers) {
    if (k != next) {
      return corrupt("series " + path + ": " + series_name(path, next) + " is missing but " + series_name(path, k) +
                     " exists (a gap in the series)");
    }
    ++next;
  }
  return next - 1;
}

// What first differs between the first file's model and another's, for
// the message.
std::string difference(const Model& first, const Model& other) {
  for (const Dimension& d : first.dims) {
    const int o = other.find_dim(d.name);
    if (o < 0) return "it has no dimension " + d.name;
    if (!(other.dims[o] == d)) {
      return "dimension " + d.name + " is " + std::to_string(other.dims[o].length) + ", not " +
             std::to_string(d.length);
    }
  }
  for (const Variable& v : first.vars) {
    const int o = other.find_var(v.name);
    if (o < 0) return "it has no variable " + v.name;
    if (!(other.vars[o] == v)) return "variable " + v.name + " has another type, shape or attributes";
  }
  if (other.dims.size() != first.dims.size() || other.vars.size() != first.vars.size()) {
    return "it has dimensions or variables the first file lacks";
  }
  return "global attributes or the order of dimensions and variables";
}

// The continued file's fixed variables against the first file's.
Status same_fixed_data(Member& first, const std::string& first_name, Member& other, const std::string& other_name) {
  const Model& m = first.header.model;
  constexpr int64_t kChunk = 8 << 20;
  std::vector<unsigned char> a, b;
  for (size_t v = 0; v < m.vars.size(); ++v) {
    if (m.is_record_var(static_cast<int>(v))) continue;
    const VarLayout& la = first.header.layout.vars[v];
    const VarLayout& lb = other.header.layout.vars[v];
    for (int64_t at = 0; at < la.bytes; at += kChunk) {
      const size_t len = static_cast<size_t>(std::min(kChunk, la.bytes - at));
      a.resize(len);
      b.resize(len);
      size_t got_a = 0, got_b = 0;
      PARIO_RETURN_IF_ERROR(first.device->read_at(static_cast<uint64_t>(la.begin + at), a.data(), len, &got_a));
      PARIO_RETURN_IF_ERROR(other.device->read_at(static_cast<uint64_t>(lb.begin + at), b.data(), len, &got_b));
      if (got_a != len || got_b != len) {
        return corrupt((got_a != len ? first_name : other_name) + ": variable " + m.vars[v].name + " is cut short");
      }
      if (a != b) {
        return corrupt(other_name + ": variable " + m.vars[v].name + " differs from " + first_name +
                       "'s: not the mesh of the series");
      }
    }
  }
  return Status::Ok();
}

// Rank 0: the continued file's index and its steps.
Status find_end(device::Storage& storage, const std::string& path, int n, bool check_data, int64_t found[2]) {
  PARIO_ASSIGN_OR_RETURN(int files, count_files(path));
  PARIO_ASSIGN_OR_RETURN(Member first, open_member(storage, path, /*may_be_unbegun=*/false));
  Member previous;  // file k-1 while k is looked at (1: first itself)
  Member* cont = &first;
  int index = 1;
  auto steps_ok = [&](const Member& m, int k) -> Status {
    const int64_t have = m.header.numrecs;
    if (k < files && have != n) {
      return Status(Code::kInvalidArgument,
                    series_name(path, k) + " holds " + std::to_string(have) + " steps, not steps_per_file = " +
                        std::to_string(n) + ", and a later file of the series exists (another steps_per_file, "
                                            "or files left from another run)");
    }
    if (have > n) {
      return Status(Code::kInvalidArgument, series_name(path, k) + " holds " + std::to_string(have) +
                                                " steps, more than steps_per_file = " + std::to_string(n));
    }
    return Status::Ok();
  };
  PARIO_RETURN_IF_ERROR(steps_ok(first, 1));
  for (int k = 2; k <= files; ++k) {
    const std::string name = series_name(path, k);
    PARIO_ASSIGN_OR_RETURN(Member m, open_member(storage, name, /*may_be_unbegun=*/k == files));
    if (m.begun && !(m.header.model == first.header.model)) {
      return corrupt(name + ": its header differs from " + path + "'s (" +
                     difference(first.header.model, m.header.model) + "): not a file of the same series");
    }
    if (m.begun) PARIO_RETURN_IF_ERROR(steps_ok(m, k));
    if (k < files || (m.begun && m.header.numrecs > 0)) {
      PARIO_RETURN_IF_ERROR(previous.close());
      previous = std::move(m);
      cont = &previous;
      index = k;
    } else {
      PARIO_RETURN_IF_ERROR(m.close());  // not begun: made again from file k-1 by the next step
    }
  }
  if (check_data && index > 1) PARIO_RETURN_IF_ERROR(same_fixed_data(first, path, *cont, series_name(path, index)));
  if (static_cast<int64_t>(index - 1) * n + cont->header.numrecs > INT_MAX - 1) {
    return Status(Code::kOutOfRange, "series " + path + " holds more than 2^31 - 2 steps");
  }
  found[0] = index;
  found[1] = cont->header.numrecs;
  Status closed = previous.close();
  Status closed_first = first.close();
  return closed.ok() ? closed_first : closed;
}

}  // namespace

Result<int> series_member(const std::string& base, const std::string& entry) {
  const std::string prefix = base + "-s";
  if (entry.size() <= prefix.size() || entry.compare(0, prefix.size(), prefix) != 0) return 0;
  const std::string digits = entry.substr(prefix.size());
  for (char c : digits) {
    if (c < '0' || c > '9') return 0;  // another file (a backup, a log)
  }
  if (digits.size() > 9) return corrupt(entry + ": a series file number of more than 9 digits");
  const int k = std::stoi(digits);
  if (k < 2) {
    return corrupt(entry + ": not a file of the series " + base + " (its first file is " + base +
                   " itself, the second " + series_name(base, 2) + ")");
  }
  if (series_name(base, k) != entry) {
    return corrupt(entry + ": not a file of the series " + base + " as the writer names them (file " +
                   std::to_string(k) + " is " + series_name(base, k) + ")");
  }
  return k;
}

Result<SeriesEnd> find_series_end(const comm::Group& group, device::Storage& storage, const std::string& path,
                                  int steps_per_file, bool check_data) {
  const comm::Comm& comm = group.comm_object();
  int64_t found[2] = {0, 0};  // rank 0's: the continued file, its steps
  Status local;
  if (steps_per_file <= 0) {
    local = Status(Code::kInvalidArgument, "steps_per_file " + std::to_string(steps_per_file) + " is not positive");
  } else if (comm.rank() == 0) {
    // The files' headers are untrusted: an allocation they make fail is
    // rank 0's status, not an exception that leaves the others waiting.
    local = status_of("exodus: finding the end of a series",
                      [&] { return find_end(storage, path, steps_per_file, check_data, found); });
  }
  PARIO_RETURN_IF_ERROR(comm::agree_max(comm, local, found, 2));
  SeriesEnd end;
  end.index = static_cast<int>(found[0]);
  end.name = series_name(path, end.index);
  end.first_step = (end.index - 1) * steps_per_file;
  end.steps = static_cast<int>(found[1]);
  return end;
}

Status remove_series_files(const comm::Group& group, const std::string& path) {
  Status local;
  if (group.comm_object().rank() == 0) {
    local = [&]() -> Status {
      PARIO_ASSIGN_OR_RETURN(std::vector<int> numbers, list_files(path, /*strict=*/false));
      for (int k : numbers) {
        std::error_code ec;
        const std::string name = series_name(path, k);
        if (!std::filesystem::remove(name, ec) && ec) return errno_status(ec.value(), "removing " + name);
      }
      return Status::Ok();
    }();
  }
  return comm::agree(group.comm_object(), local);
}

Status check_not_series(const comm::Group& group, const std::string& path) {
  Status local;
  if (group.comm_object().rank() == 0) {
    std::error_code ec;
    const std::string second = series_name(path, 2);
    if (std::filesystem::exists(second, ec)) {
      local = Status(Code::kInvalidArgument, path + " is the first file of a series (" + second +
                                                 " exists): pass the series' steps_per_file to append to it");
    }
  }
  return comm::agree(group.comm_object(), local);
}

}  // namespace pario::exodus
