#include "base/element_type.h"

#include <complex>
#include <cstdint>

namespace pario {

size_t element_size(ElementType t) {
  switch (t) {
    case ElementType::kDouble: return sizeof(double);
    case ElementType::kFloat: return sizeof(float);
    case ElementType::kInt32: return sizeof(int32_t);
    case ElementType::kInt64: return sizeof(int64_t);
    case ElementType::kComplexDouble: return sizeof(std::complex<double>);
    case ElementType::kInt8: return sizeof(int8_t);
    case ElementType::kUInt8: return sizeof(uint8_t);
    case ElementType::kInt16: return sizeof(int16_t);
    case ElementType::kUInt16: return sizeof(uint16_t);
    case ElementType::kUInt32: return sizeof(uint32_t);
    case ElementType::kUInt64: return sizeof(uint64_t);
    case ElementType::kComplexFloat: return sizeof(std::complex<float>);
  }
  return 0;
}

const char* element_name(ElementType t) {
  switch (t) {
    case ElementType::kDouble: return "double";
    case ElementType::kFloat: return "float";
    case ElementType::kInt32: return "int32";
    case ElementType::kInt64: return "int64";
    case ElementType::kComplexDouble: return "complex double";
    case ElementType::kInt8: return "int8";
    case ElementType::kUInt8: return "uint8";
    case ElementType::kInt16: return "int16";
    case ElementType::kUInt16: return "uint16";
    case ElementType::kUInt32: return "uint32";
    case ElementType::kUInt64: return "uint64";
    case ElementType::kComplexFloat: return "complex float";
  }
  return "unknown";
}

bool valid_element_type(int t) { return t >= kFirstElementType && t <= kLastElementType; }

bool is_integer(ElementType t) {
  switch (t) {
    case ElementType::kInt8: case ElementType::kUInt8: case ElementType::kInt16: case ElementType::kUInt16:
    case ElementType::kInt32: case ElementType::kUInt32: case ElementType::kInt64: case ElementType::kUInt64:
      return true;
    default: return false;
  }
}

bool is_complex(ElementType t) { return t == ElementType::kComplexDouble || t == ElementType::kComplexFloat; }

}  // namespace pario
