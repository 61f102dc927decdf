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
  }
  return "unknown";
}

bool valid_element_type(int t) { return t >= 1 && t <= 5; }

}  // namespace pario
