// RapidCheck generator of perf_event_attr values whose union members agree with their selector
// flags (the only attrs that have a byte representation).
#pragma once

#include <rapidcheck.h>

#include "pmucat/attr.h"

PMUCAT_BEGIN_NAMESPACE
namespace test {

inline rc::Gen<Attr> gen_attr() {
  return rc::gen::exec([] {
    Attr a;
    a.type = *rc::gen::arbitrary<std::uint32_t>();
    a.size = kAttrSizeVer9;
    for (auto& c : a.config) c = *rc::gen::arbitrary<std::uint64_t>();
    a.sample_type = *rc::gen::arbitrary<std::uint64_t>();
    a.read_format = *rc::gen::arbitrary<std::uint64_t>();
    a.set_flags_word(*rc::gen::arbitrary<std::uint64_t>());
    const auto period = *rc::gen::arbitrary<std::uint64_t>();
    (a.freq ? a.sample_freq : a.sample_period) = period;
    const auto wakeup = *rc::gen::arbitrary<std::uint32_t>();
    (a.watermark ? a.wakeup_watermark : a.wakeup_events) = wakeup;
    a.bp_type = *rc::gen::arbitrary<std::uint32_t>();
    a.branch_sample_type = *rc::gen::arbitrary<std::uint64_t>();
    a.sample_regs_user = *rc::gen::arbitrary<std::uint64_t>();
    a.sample_stack_user = *rc::gen::arbitrary<std::uint32_t>();
    a.clockid = *rc::gen::arbitrary<std::int32_t>();
    a.sample_regs_intr = *rc::gen::arbitrary<std::uint64_t>();
    a.aux_watermark = *rc::gen::arbitrary<std::uint32_t>();
    a.sample_max_stack = *rc::gen::arbitrary<std::uint16_t>();
    a.aux_sample_size = *rc::gen::arbitrary<std::uint32_t>();
    a.sig_data = *rc::gen::arbitrary<std::uint64_t>();
    return a;
  });
}

}  // namespace test
PMUCAT_END_NAMESPACE
