// The conformance suite over the device layer's own backends.
#include "conformance.h"
#include "device/fault_device.h"

namespace pario::device {
namespace {

std::vector<Backend> backends() {
  OpenOptions buffered;
  buffered.create = true;
  buffered.truncate = true;
  OpenOptions direct = buffered;
  direct.direct = true;
  return {
      {"memory", [](const std::string& p) { return make_memory_device(p); }},
      {"posix", [buffered](const std::string& p) { return std::move(open_posix(p, buffered)).value(); }},
      {"posix_direct", [direct](const std::string& p) { return std::move(open_posix(p, direct)).value(); }},
      // 3 stripes of an odd size: transfers cross stripe and component ends.
      {"striped3", [buffered](const std::string& p) {
         return std::move(open_striped({p + ".s0", p + ".s1", p + ".s2"}, 1000, buffered)).value();
       }},
      {"fault_short_eintr", [](const std::string& p) {
         FaultPlan plan;
         plan.max_transfer = 777;
         plan.eintr_every = 3;
         return make_fault_device(make_memory_device(p), plan);
       }},
  };
}

INSTANTIATE_TEST_SUITE_P(AllBackends, Conformance, ::testing::ValuesIn(params(backends())),
                         param_name);

}  // namespace
}  // namespace pario::device
