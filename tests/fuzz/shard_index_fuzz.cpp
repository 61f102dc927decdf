// libFuzzer target: a shard file's index. The first bytes choose the store's
// layout (rank, chunks per shard, index at the start or end, CRC-32C or
// not, and whether to give the index a correct checksum so the entries
// themselves are reached); the rest is the shard file. Every entry
// parse_shard_index accepts lies inside the shard's data.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "diskarray/chunk_store.h"

using namespace pario;
using namespace pario::diskarray;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  ZarrMeta m;
  const int nd = 1 + data[0] % 3;
  m.index_at_end = data[1] & 1;
  m.index_crc32c = data[1] & 2;
  const bool fix_crc = data[1] & 4;
  for (int d = 0; d < nd; ++d) {
    const int64_t per = 1 + ((data[2] >> (2 * d)) & 3);
    m.chunks.push_back(2);
    m.shard.push_back(2 * per);
    m.shape.push_back(2 * per * 3);
  }
  std::vector<char> file(data + 3, data + size);
  int64_t slots = 1;
  for (int d = 0; d < nd; ++d) slots *= m.shard[d] / m.chunks[d];
  const size_t ib = static_cast<size_t>(slots) * 16 + (m.index_crc32c ? 4 : 0);
  if (file.size() < ib) {
    if (parse_shard_index(m, file.data(), file.size(), file.size(), "fuzz").ok()) std::abort();
    return 0;
  }
  char* idx = file.data() + (m.index_at_end ? file.size() - ib : 0);
  if (m.index_crc32c && fix_crc) {
    const uint32_t crc = crc32c(idx, ib - 4);
    std::memcpy(idx + ib - 4, &crc, 4);
  }
  Result<std::vector<uint64_t>> entries = parse_shard_index(m, idx, ib, file.size(), "fuzz");
  if (!entries.ok()) return 0;
  const uint64_t begin = m.index_at_end ? 0 : ib, end = m.index_at_end ? file.size() - ib : file.size();
  for (size_t e = 0; e < entries->size(); e += 2) {
    const uint64_t off = (*entries)[e], n = (*entries)[e + 1];
    if (off == ~uint64_t{0} && n == ~uint64_t{0}) continue;
    if (off < begin || off + n > end || off + n < off) std::abort();
  }
  return 0;
}
