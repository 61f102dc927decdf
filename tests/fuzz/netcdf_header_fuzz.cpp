// libFuzzer target: the first bytes of a netCDF classic file
// (exodus::decode_header). The input is the whole file. Whatever the bytes,
// decode_header returns a status, a request for more bytes that a read
// could satisfy, or a header whose variables lie after the header and
// inside the file; a header it accepts and the encoder can write again
// decodes to the same model.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "base/checked.h"
#include "exodus/netcdf_classic.h"

using namespace pario;
using namespace pario::exodus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int64_t fsize = static_cast<int64_t>(size);
  // Half the file in hand: a request for more asks for more than half and
  // no more than the file.
  const size_t half = size / 2;
  Result<Decoded> part = decode_header(data, half, fsize);
  if (part.ok() && !part->complete() &&
      (part->need <= static_cast<int64_t>(half) || part->need > fsize)) {
    std::abort();
  }
  Result<Decoded> d = decode_header(data, size, fsize);
  if (!d.ok()) return 0;
  if (!d->complete()) std::abort();  // the whole file was given
  const Header& h = d->header;
  const Layout& L = h.layout;
  if (L.header_size > fsize || L.vars.size() != h.model.vars.size() || h.numrecs < 0) std::abort();
  for (const VarLayout& v : L.vars) {
    if (v.begin < L.header_size || v.bytes < 0 || v.vsize < v.bytes) std::abort();
    int64_t end = 0;
    if (!v.record && (!checked_add(v.begin, v.bytes, &end) || end > fsize)) std::abort();
  }
  // Written again (when the encoder takes the model: it is stricter about
  // names and limits), the header decodes to the same model.
  Result<std::vector<unsigned char>> again =
      encode_header(h.model, L, h.streaming ? kStreamingRecords : h.numrecs);
  if (!again.ok()) return 0;
  if (static_cast<int64_t>(again->size()) != L.header_size) std::abort();
  Result<Decoded> back = decode_header(again->data(), again->size(), fsize);
  if (!back.ok() || !back->complete() || !(back->header.model == h.model) ||
      back->header.numrecs != h.numrecs) {
    std::abort();
  }
  return 0;
}
