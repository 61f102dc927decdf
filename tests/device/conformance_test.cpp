// The conformance suite over the device layer's own backends.
#include "conformance.h"
#include "device/fault_device.h"
#include "device/ram_file.h"

namespace pario::device {
namespace {

// A RAM file under its own budget of `budget` bytes, spilling to p.s0.
std::unique_ptr<Device> ram_device(const std::string& p, uint64_t budget, OpenOptions o) {
  auto b = std::move(RamBudget::create(budget)).value();
  auto f = std::move(RamFile::create(b)).value();
  f->unlink_name();
  b->unlink_name();
  return make_ram_device(p, f, [p, o](bool create) mutable {
    o.create = create;
    o.truncate = false;
    return open_posix(p + ".s0", o);
  });
}

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
      // Files in Memory: all in RAM; RAM for the first MiB then disk (the
      // tests write past 1 MiB); and a spent budget (all on disk).
      {"ram", [buffered](const std::string& p) { return ram_device(p, uint64_t{64} << 20, buffered); }},
      {"ram_spill", [buffered](const std::string& p) { return ram_device(p, uint64_t{1} << 20, buffered); }},
      {"ram_no_budget", [buffered](const std::string& p) { return ram_device(p, 0, buffered); }},
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
