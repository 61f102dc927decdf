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
