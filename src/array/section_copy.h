// Strided copies of one N-d piece between an array patch and a user buffer:
// the node-local path of get, put and accumulate (plain loads and stores,
// no MPI), and packing for the remote path.
//
// Both sides are row-major. The patch holds the elements of box `patch`
// densely; the buffer holds the section `section` with the shape
// buf_shape (buf_shape[0] = section.count[0], then GA's leading dimensions).
// `piece` lies inside both boxes.
#pragma once

#include <array>
#include <cstdint>

#include "base/box.h"
#include "base/element_type.h"

namespace pario::array {

enum class CopyOp {
  kRead,        // patch -> buffer
  kWrite,       // buffer -> patch
  kAccumulate,  // patch += alpha * buffer (alpha of the element type; null means 1)
  kFetchAccumulate,  // patch += buffer, and buffer gets the patch's old values
};

void copy_piece(ElementType type, CopyOp op, const Box& piece, const Box& patch, char* patch_base,
                const Box& section, char* buf, const Shape& buf_shape, const void* alpha);

// dst[i] = alpha * src[i] for n elements (alpha null means a plain copy).
void scale_copy(ElementType type, const void* alpha, const char* src, char* dst, int64_t n);
// data[i] *= alpha in place.
void scale_in_place(ElementType type, const void* alpha, char* data, int64_t n);
// True if alpha is null or equal to one.
bool is_one(ElementType type, const void* alpha);

}  // namespace pario::array
