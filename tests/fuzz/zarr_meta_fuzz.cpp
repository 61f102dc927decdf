// libFuzzer target: zarr.json text, as a foreign store may hold it. Whatever
// the bytes, parse_meta returns a status or metadata within pario's limits,
// and what pario then computes from that metadata stays in range.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "base/checked.h"
#include "diskarray/zarr_meta.h"

using namespace pario;
using namespace pario::diskarray;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Result<ZarrMeta> m = parse_meta(text, "fuzz");
  if (!m.ok()) return 0;
  const ZarrMeta& meta = *m;
  const size_t nd = meta.shape.size();
  if (nd < 1 || nd > static_cast<size_t>(kMaxDims) || meta.chunks.size() != nd) std::abort();
  int64_t elements = 0, bytes = 0;
  if (!checked_bytes(meta.chunks.data(), nd, static_cast<int64_t>(meta.element_bytes()), &bytes) ||
      bytes > kMaxChunkBytes) {
    std::abort();  // parse_meta let through a chunk pario cannot hold
  }
  if (!checked_product(meta.shape.data(), nd, &elements)) std::abort();
  // The last chunk's key and shard slot, as a transfer computes them.
  std::vector<int64_t> last(nd);
  for (size_t d = 0; d < nd; ++d) last[d] = meta.shape[d] == 0 ? 0 : (meta.shape[d] - 1) / meta.chunks[d];
  (void)meta.chunk_key(last);
  if (meta.sharded()) {
    int64_t slot = 0;
    (void)meta.shard_index(last, &slot);
    if (slot < 0) std::abort();
  }
  (void)get_attribute(meta, "units");
  return 0;
}
