// A model directory of our own JSON files: table order, topics, duplicates, a broken file that
// does not stop the others, and arm64 standard events.
#include <gtest/gtest.h>

#include <algorithm>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"

namespace {

using pmucat::DiagId;
using pmucat::VendorEvent;

const std::filesystem::path kArch = PMUCAT_SOURCE_DIR "/tests/pmu_events/data/arch";

const VendorEvent* find(const pmucat::VendorModel& model, std::string_view name) {
  const auto it = std::find_if(model.events.begin(), model.events.end(),
                               [&](const VendorEvent& e) { return e.name == name; });
  return it == model.events.end() ? nullptr : &*it;
}

TEST(VendorModel, TableOrderTopicsAndEncodings) {
  auto model = pmucat::load_vendor_model(kArch / "x86", "testlake", pmucat::PerfRelease::v6_1);
  ASSERT_TRUE(model.has_value());
  EXPECT_EQ(model->arch, "x86");
  EXPECT_EQ(model->directory, "testlake");
  std::vector<std::string> order;
  for (const VendorEvent& e : model->events) order.push_back(e.topic + "/" + e.name + "/" + e.pmu);
  // Events without a description first, then by topic, name, PMU; stable within equal keys.
  EXPECT_EQ(order, (std::vector<std::string>{
                       "pipeline/cpu_clk_unhalted.no_description/",
                       "cache/dup.event/",
                       "cache/dup.event/",
                       "cache/mem_trans_retired.load_latency_gt_4/",
                       "cache/ocr.demand_data_rd.any_response/",
                       "pipeline/frontend_retired.dsb_miss/",
                       "pipeline/inst_retired.any/",
                       "uncore memory/dup.event/uncore_imc",
                       "uncore memory/unc_cha_tor_inserts.ia_miss/uncore_cha",
                   }));
  EXPECT_EQ(model->events[1].brief_description, "Second definition of a cache event");
  EXPECT_EQ(find(*model, "inst_retired.any")->terms, "event=0xc0,period=2000003");
  EXPECT_EQ(find(*model, "mem_trans_retired.load_latency_gt_4")->terms,
            "event=0xcd,period=100003,umask=0x1,ldlat=0x4");
  EXPECT_EQ(find(*model, "ocr.demand_data_rd.any_response")->terms,
            "event=0x2a,period=100003,umask=0x1,offcore_rsp=0x10001");
  EXPECT_EQ(find(*model, "frontend_retired.dsb_miss")->terms,
            "event=0xc6,period=100007,umask=0x1,frontend=0x11");
  EXPECT_EQ(find(*model, "unc_cha_tor_inserts.ia_miss")->terms, "event=0x35,umask=0xc001fe01");
  EXPECT_EQ(pmucat::perf_brief_description(*find(*model, "mem_trans_retired.load_latency_gt_4")),
            "Loads with latency above 4 cycles  Supports address when precise (Must be precise)");
}

TEST(VendorModel, BrokenFileIsLocatedAndDuplicatesWarned) {
  auto model = pmucat::load_vendor_model(kArch / "x86", "testlake", pmucat::PerfRelease::v6_1);
  ASSERT_TRUE(model.has_value());
  std::vector<std::string> ids;
  for (const auto& d : model->diagnostics) ids.push_back(d.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"vendor-json-syntax", "vendor-event-duplicate"}));
  const auto& syntax = model->diagnostics[0];
  EXPECT_TRUE(syntax.range.file.ends_with("testlake/zz-broken.json")) << syntax.range.file;
  EXPECT_EQ(syntax.range.line, 4u);
  EXPECT_EQ(syntax.range.column, 19u);
  const auto& duplicate = model->diagnostics[1];
  EXPECT_EQ(duplicate.severity, pmucat::Severity::warning);
  EXPECT_TRUE(duplicate.range.file.ends_with("cache.json"));
  EXPECT_EQ(duplicate.range.line, 29u);  // the second in table order: DUP.EVENT's object
}

TEST(VendorModel, Arm64StandardEvents) {
  auto model = pmucat::load_vendor_model(kArch / "arm64", "acme/core1", pmucat::PerfRelease::v6_1);
  ASSERT_TRUE(model.has_value());
  ASSERT_EQ(model->events.size(), 3u);
  const VendorEvent* refill = find(*model, "l1d_cache_refill");
  ASSERT_NE(refill, nullptr);
  EXPECT_EQ(refill->terms, "event=0x3");
  EXPECT_EQ(refill->topic, "cache");
  EXPECT_EQ(pmucat::perf_brief_description(*refill), "L1D cache refill");
  EXPECT_EQ(pmucat::perf_public_description(*refill),
            "Level 1 data cache refill. The counter counts each refill");
  EXPECT_EQ(find(*model, "cpu_cycles_alias")->terms, "event=0x11");
  EXPECT_EQ(find(*model, "acme_event")->terms, "event=0x44");
  ASSERT_EQ(model->diagnostics.size(), 1u);
  EXPECT_EQ(model->diagnostics[0].code, DiagId::vendor_std_event_unknown);
}

TEST(VendorModel, MissingDirectoryFails) {
  auto model = pmucat::load_vendor_model(kArch / "x86", "nosuchmodel", pmucat::PerfRelease::v6_1);
  ASSERT_FALSE(model.has_value());
  EXPECT_EQ(model.error().code, DiagId::vendor_json_unreadable);
}

}  // namespace
