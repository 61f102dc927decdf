// File-system type: statfs() gives a magic number, but ext2/3/4 share one
// and FUSE hides the real type, so the name is read from
// /proc/self/mountinfo (the mount whose device number matches the path's
// and whose mount point is the longest prefix of its real path); the magic
// number is only the fallback when mountinfo is unreadable.
#include "device/fs_stat.h"

#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace pario::device {
namespace {

std::string type_from_magic(unsigned long magic) {
  switch (magic) {
    case 0xEF53: return "ext4";
    case 0x58465342: return "xfs";
    case 0x01021994: return "tmpfs";
    case 0x2fc12fc1: return "zfs";
    case 0x794c7630: return "overlay";
    case 0x9123683E: return "btrfs";
    case 0x6969: return "nfs";
    case 0x0BD00BD0: return "lustre";
    case 0x47504653: return "gpfs";
    case 0x19830326: return "beegfs";
    case 0x858458f6: return "ramfs";
    default: return "unknown";
  }
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      out += static_cast<char>(std::strtol(s.substr(i + 1, 3).c_str(), nullptr, 8));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool is_prefix_dir(const std::string& mount, const std::string& path) {
  if (mount == "/") return true;
  return path.compare(0, mount.size(), mount) == 0 &&
         (path.size() == mount.size() || path[mount.size()] == '/');
}

std::string type_from_mountinfo(const std::string& real, dev_t dev) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line, best_type;
  size_t best_len = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, parent, majmin, root, mount;
    fields >> id >> parent >> majmin >> root >> mount;
    unsigned maj = 0, min = 0;
    if (std::sscanf(majmin.c_str(), "%u:%u", &maj, &min) != 2) continue;
    if (makedev(maj, min) != dev) continue;
    mount = unescape(mount);
    if (!is_prefix_dir(mount, real) || mount.size() < best_len) continue;
    size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream rest(line.substr(dash + 3));
    std::string type;
    rest >> type;
    best_type = type;
    best_len = mount.size();
  }
  return best_type;
}

}  // namespace

Result<FsStat> stat_path(const std::string& path) {
  if (path.empty()) return Status(Code::kInvalidArgument, "empty path");
  std::string target = path;
  struct stat st;
  if (::stat(target.c_str(), &st) != 0) {
    if (errno != ENOENT) return errno_status(errno, path);
    size_t slash = target.find_last_of('/');
    target = slash == std::string::npos ? "." : (slash == 0 ? "/" : target.substr(0, slash));
    if (::stat(target.c_str(), &st) != 0) return errno_status(errno, path);
  }
  struct statvfs sv;
  struct statfs sf;
  if (::statvfs(target.c_str(), &sv) != 0) return errno_status(errno, target);
  if (::statfs(target.c_str(), &sf) != 0) return errno_status(errno, target);
  FsStat out;
  out.available_bytes = static_cast<uint64_t>(sv.f_bavail) * sv.f_frsize;
  out.total_bytes = static_cast<uint64_t>(sv.f_blocks) * sv.f_frsize;
  out.block_size = sv.f_bsize;
  char real[PATH_MAX];
  if (::realpath(target.c_str(), real)) out.type = type_from_mountinfo(real, st.st_dev);
  if (out.type.empty()) out.type = type_from_magic(static_cast<unsigned long>(sf.f_type));
  return out;
}

}  // namespace pario::device
