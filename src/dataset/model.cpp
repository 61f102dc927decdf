#include "dataset/model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/checked.h"

namespace pario::dataset {

const char* segment_kind_name(SegmentKind k) { return k == SegmentKind::kTopology ? "topology" : "state"; }

std::optional<SegmentKind> parse_segment_kind(const std::string& s) {
  if (s == "topology") return SegmentKind::kTopology;
  if (s == "state") return SegmentKind::kState;
  return std::nullopt;
}

namespace {

std::string describe(const SegmentRecord& s, int64_t position) {
  char value[64];
  std::snprintf(value, sizeof value, "%.17g", s.time_value);
  return std::string(segment_kind_name(s.kind)) + " segment " + std::to_string(position) + " (time index " +
         std::to_string(s.time_index) + ", time " + value + ")";
}

// Why `next` cannot follow `last`, or empty.
std::string out_of_order(const SegmentRecord& last, const SegmentRecord& next) {
  if (!std::isfinite(next.time_value)) return "a time value that is not finite";
  if (next.time_index < last.time_index) return "a time index before the last segment's";
  if (next.time_index == last.time_index) {
    if (next.kind == last.kind) return std::string("a second ") + segment_kind_name(next.kind) + " segment of this time index";
    if (next.kind == SegmentKind::kTopology) return "a topology segment after the state segment of its time index";
  }
  if (next.time_value < last.time_value) return "a time value before the last segment's";
  return {};
}

}  // namespace

Status check_append(const std::vector<SegmentRecord>& existing, SegmentKind kind, int64_t time_index,
                    double time_value) {
  const SegmentRecord next{kind, time_index, time_value};
  if (!std::isfinite(time_value)) return Status(Code::kInvalidArgument, "time value is not finite");
  if (existing.empty()) return Status::Ok();
  const std::string why = out_of_order(existing.back(), next);
  if (why.empty()) return Status::Ok();
  return Status(Code::kInvalidArgument,
                "segments are appended in time order: " + describe(next, static_cast<int64_t>(existing.size())) +
                    " after " + describe(existing.back(), static_cast<int64_t>(existing.size()) - 1) + ": " + why);
}

Status check_order(const std::vector<SegmentRecord>& segments) {
  for (size_t i = 0; i < segments.size(); ++i) {
    const std::string why = i == 0 ? (std::isfinite(segments[0].time_value) ? "" : "a time value that is not finite")
                                   : out_of_order(segments[i - 1], segments[i]);
    if (!why.empty()) {
      return Status(Code::kCorrupt, describe(segments[i], static_cast<int64_t>(i)) + " is out of order: " + why);
    }
  }
  return Status::Ok();
}

std::optional<int64_t> find_by_index(const std::vector<SegmentRecord>& segments, std::optional<SegmentKind> kind,
                                     int64_t time_index) {
  for (size_t i = 0; i < segments.size(); ++i) {
    if (segments[i].time_index == time_index && (!kind || segments[i].kind == *kind)) return static_cast<int64_t>(i);
  }
  return std::nullopt;
}

std::optional<int64_t> find_by_time(const std::vector<SegmentRecord>& segments, std::optional<SegmentKind> kind,
                                    double t) {
  std::optional<int64_t> found;
  for (size_t i = 0; i < segments.size() && segments[i].time_value <= t; ++i) {
    if (!kind || segments[i].kind == *kind) found = static_cast<int64_t>(i);
  }
  return found;
}

const char* item_kind_name(ItemKind k) {
  switch (k) {
    case ItemKind::kScalar: return "scalar";
    case ItemKind::kVector: return "vector";
    case ItemKind::kTensor: return "tensor";
  }
  return "?";
}

std::optional<ItemKind> parse_item_kind(const std::string& s) {
  if (s == "scalar") return ItemKind::kScalar;
  if (s == "vector") return ItemKind::kVector;
  if (s == "tensor") return ItemKind::kTensor;
  return std::nullopt;
}

Status check_name(const std::string& name, const char* what) {
  const std::string w(what);
  if (name.empty() || name.size() > 255) {
    return Status(Code::kInvalidArgument, w + " '" + name + "' is not 1 to 255 bytes");
  }
  if (name.find('/') != std::string::npos || name.find('\0') != std::string::npos || name == "." || name == "..") {
    return Status(Code::kInvalidArgument, w + " '" + name + "' holds '/' or is '.' or '..'");
  }
  if (name.rfind("pario_", 0) == 0) {
    return Status(Code::kInvalidArgument, w + " '" + name + "' starts with 'pario_', kept for pario's own fields");
  }
  return Status::Ok();
}

Result<VariableRecord> make_variable(const std::string& name, int item_kind, const int64_t* item_dims,
                                     int word_type) {
  PARIO_RETURN_IF_ERROR(check_name(name, "variable name"));
  VariableRecord v;
  v.name = name;
  if (item_kind < 0 || item_kind > 2) {
    return Status(Code::kInvalidArgument, "item_kind " + std::to_string(item_kind) + " is not a PARIO_ITEM_*");
  }
  v.item = static_cast<ItemKind>(item_kind);
  v.item_ndim = item_kind;
  if (v.item_ndim > 0 && item_dims == nullptr) {
    return Status(Code::kInvalidArgument, std::string("item_dims is null for a ") + item_kind_name(v.item));
  }
  int64_t words = 1;
  for (int d = 0; d < v.item_ndim; ++d) {
    if (item_dims[d] < 1 || item_dims[d] > kMaxItemWords || !checked_mul(words, item_dims[d], &words) ||
        words > kMaxItemWords) {
      return Status(Code::kInvalidArgument, "item_dims[" + std::to_string(d) + "] " + std::to_string(item_dims[d]) +
                                                " makes an item of more than " + std::to_string(kMaxItemWords) +
                                                " words, or is < 1");
    }
    v.item_dims[d] = item_dims[d];
  }
  if (!valid_element_type(word_type)) {
    return Status(Code::kInvalidArgument, "word_type " + std::to_string(word_type) + " is not a PARIO_TYPE_*");
  }
  v.word = static_cast<ElementType>(word_type);
  return v;
}

namespace {
// By FilesMode value.
constexpr const char* kFileModeNames[] = {"one_file", "file_per_step", "steps_per_file"};
}  // namespace

const char* file_mode_name(FilesMode m) { return kFileModeNames[static_cast<int>(m)]; }

std::optional<FilesMode> parse_file_mode(const std::string& s) {
  for (int m = 0; m < 3; ++m) {
    if (s == kFileModeNames[m]) return static_cast<FilesMode>(m);
  }
  return std::nullopt;
}

// A file of a million steps is a mistake; the bound keeps member numbers
// within the six digits of the name pattern's usual width and any product
// in range.
constexpr int64_t kMaxStepsPerFile = int64_t{1} << 40;

Result<FileLayout> make_layout(int mode, int64_t steps_per_file, Code code) {
  FileLayout l;
  switch (mode) {
    case static_cast<int>(FilesMode::kOneFile):
      if (steps_per_file != 0) {
        return Status(code, "steps_per_file " + std::to_string(steps_per_file) + " with one file (0 there)");
      }
      return l;
    case static_cast<int>(FilesMode::kFilePerStep):
      if (steps_per_file != 0 && steps_per_file != 1) {
        return Status(code, "steps_per_file " + std::to_string(steps_per_file) + " with a file per step (0 or 1)");
      }
      l.mode = FilesMode::kFilePerStep;
      l.steps_per_file = 1;
      return l;
    case static_cast<int>(FilesMode::kStepsPerFile):
      if (steps_per_file < 1 || steps_per_file > kMaxStepsPerFile) {
        return Status(code, "steps_per_file " + std::to_string(steps_per_file) + " is not in 1..2^40");
      }
      l.mode = FilesMode::kStepsPerFile;
      l.steps_per_file = steps_per_file;
      return l;
    default: break;
  }
  return Status(code, "file mode " + std::to_string(mode) + " is not a PARIO_DATASET_* file mode");
}

std::vector<int64_t> members_of(const std::vector<SegmentRecord>& segments, const FileLayout& layout) {
  std::vector<int64_t> out;
  if (!layout.multi_file()) return out;
  int64_t group = -1;
  for (size_t i = 0; i < segments.size(); ++i) {
    if (i == 0 || segments[i].time_index != segments[i - 1].time_index) ++group;
    out.push_back(group / layout.steps_per_file);
  }
  return out;
}

int64_t member_of_next(const std::vector<SegmentRecord>& existing, int64_t time_index, const FileLayout& layout) {
  if (!layout.multi_file()) return 0;
  int64_t groups = 0;  // time groups before the new segment's
  for (size_t i = 0; i < existing.size(); ++i) {
    if (i == 0 || existing[i].time_index != existing[i - 1].time_index) ++groups;
  }
  if (!existing.empty() && existing.back().time_index == time_index) --groups;  // it joins the last group
  return groups / layout.steps_per_file;
}

namespace {
constexpr const char* kMemberSuffix = ".%06d.h5";
}

std::string member_pattern(const std::string& entry_path) {
  const size_t slash = entry_path.rfind('/');
  std::string name = slash == std::string::npos ? entry_path : entry_path.substr(slash + 1);
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".h5") == 0) name.resize(name.size() - 3);
  std::string escaped;  // a '%' in the name is literal for printf
  for (char c : name) escaped += c == '%' ? std::string("%%") : std::string(1, c);
  return escaped + kMemberSuffix;
}

Status check_member_pattern(const std::string& pattern) {
  const std::string suffix = kMemberSuffix;
  bool good = pattern.size() > suffix.size() && pattern.size() <= 255 &&
              pattern.compare(pattern.size() - suffix.size(), suffix.size(), suffix) == 0 &&
              pattern.find('/') == std::string::npos && pattern.find('\0') == std::string::npos;
  const std::string stem = good ? pattern.substr(0, pattern.size() - suffix.size()) : "";
  for (size_t i = 0; good && i < stem.size(); ++i) {
    if (stem[i] == '%') good = i + 1 < stem.size() && stem[++i] == '%';
  }
  if (!good) return Status(Code::kCorrupt, "member pattern \"" + pattern + "\" is not <name>" + suffix);
  return Status::Ok();
}

std::string member_path(const std::string& entry_path, const std::string& pattern, int64_t k) {
  const size_t slash = entry_path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : entry_path.substr(0, slash + 1);
  std::string name;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == '%') {
      name += '%';
      ++i;
    } else if (pattern.compare(i, 4, "%06d") == 0) {
      char digits[32];
      std::snprintf(digits, sizeof digits, "%06lld", static_cast<long long>(k));
      name += digits;
      i += 3;
    } else {
      name += pattern[i];
    }
  }
  return dir + name;
}

std::optional<int64_t> member_number(const std::string& pattern, const std::string& file_name) {
  if (file_name.find('/') != std::string::npos) return std::nullopt;
  // The names around the number, unescaped as member_path does.
  std::string prefix, suffix;
  bool placeholder = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    std::string& part = placeholder ? suffix : prefix;
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == '%') {
      part += '%';
      ++i;
    } else if (!placeholder && pattern.compare(i, 4, "%06d") == 0) {
      placeholder = true;
      i += 3;
    } else {
      part += pattern[i];
    }
  }
  if (!placeholder || file_name.size() < prefix.size() + 6 + suffix.size() ||
      file_name.compare(0, prefix.size(), prefix) != 0 ||
      file_name.compare(file_name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return std::nullopt;
  }
  const std::string digits = file_name.substr(prefix.size(), file_name.size() - prefix.size() - suffix.size());
  if (digits.size() > 18) return std::nullopt;  // beyond any member count an int64 holds
  int64_t k = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    k = 10 * k + (c - '0');
  }
  if (member_path("", pattern, k) != file_name) return std::nullopt;  // "0000001" is no member's name
  return k;
}

std::string segment_path(int64_t position) {
  char name[48];
  std::snprintf(name, sizeof name, "%s/%08lld", kSegmentsGroup, static_cast<long long>(position));
  return name;
}

std::string variable_path(const std::string& name) { return std::string(kVariablesGroup) + "/" + name; }

std::string section_path(int64_t position, const std::string& variable) {
  return segment_path(position) + "/" + variable;
}

std::optional<int64_t> parse_segment_name(const std::string& name) {
  if (name.size() < 8 || name.size() > 18) return std::nullopt;
  int64_t v = 0;
  for (char c : name) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  char canonical[32];
  std::snprintf(canonical, sizeof canonical, "%08lld", static_cast<long long>(v));
  if (name != canonical) return std::nullopt;
  return v;
}

Result<Pieces> pieces_of(const std::vector<int64_t>& counts, Code code) {
  Pieces p;
  p.starts.reserve(counts.size() + 1);
  p.starts.push_back(0);
  for (size_t w = 0; w < counts.size(); ++w) {
    if (counts[w] < 0 || !checked_add(p.sum, counts[w], &p.sum)) {
      return Status(code, "writer " + std::to_string(w) + "'s piece of " + std::to_string(counts[w]) +
                              " items is negative or overflows the total");
    }
    p.max = std::max(p.max, counts[w]);
    p.starts.push_back(p.sum);
  }
  return p;
}

std::pair<int64_t, int64_t> even_split(int64_t items, int parts, int part) {
  const int64_t base = items / parts, extra = items % parts;
  const int64_t start = part * base + std::min<int64_t>(part, extra);
  return {start, base + (part < extra ? 1 : 0)};
}

Result<std::pair<int, Shape>> section_shape(const VariableRecord& v, int64_t words, int shape_ndim,
                                            const Shape& shape) {
  const int64_t w = v.words_per_item();
  if (words < 0 || words % w != 0) {
    return Status(Code::kInvalidArgument, std::to_string(words) + " words are no whole number of " +
                                              std::to_string(w) + "-word items of variable " + v.name);
  }
  if (shape_ndim > 0) {
    bool fits = shape_ndim > v.item_ndim;
    for (int d = 0; fits && d < v.item_ndim; ++d) {
      fits = shape[shape_ndim - v.item_ndim + d] == v.item_dims[d];
    }
    if (fits) return std::make_pair(shape_ndim, shape);
  }
  Shape out{};
  out[0] = words / w;
  for (int d = 0; d < v.item_ndim; ++d) out[1 + d] = v.item_dims[d];
  return std::make_pair(1 + v.item_ndim, out);
}

}  // namespace pario::dataset
