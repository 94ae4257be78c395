// diff_vendor_models: one model as two table sets have it, event by event and metric by metric.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pmucat/vendor_diff.h"

namespace {

using pmucat::VendorChange;
using pmucat::VendorModel;

VendorModel model(std::vector<std::pair<std::string, std::string>> events,
                  std::vector<std::pair<std::string, std::string>> metrics = {}) {
  VendorModel out;
  for (auto& [name, terms] : events) {
    pmucat::VendorEvent event;
    event.name = name;
    event.terms = terms;
    out.events.push_back(std::move(event));
  }
  for (auto& [name, expr] : metrics) {
    pmucat::VendorMetric metric;
    metric.name = name;
    metric.expr = expr;
    out.metrics.push_back(std::move(metric));
  }
  return out;
}

TEST(VendorModelDiff, AddedRemovedRenamedReencoded) {
  const VendorModel before = model({{"kept", "event=0xc0"},
                                    {"respelt", "event=0x3c,umask=0x01"},
                                    {"gone", "event=0x11"},
                                    {"old_name", "event=0x24,umask=0x3"},
                                    {"moved", "event=0x2e,umask=0x41"}},
                                   {{"Same", "a + b"}, {"Expr", "a"}, {"Dropped", "c"}});
  const VendorModel after = model({{"kept", "event=0xc0"},
                                   {"respelt", "event=0x3c,umask=1"},
                                   {"new_name", "event=0x24,umask=3"},
                                   {"moved", "event=0x2e,umask=0x4f"},
                                   {"fresh", "event=0x99"}},
                                  {{"Same", "a + b"}, {"Expr", "a * 2"}, {"lpm_x", "d"}});
  const pmucat::VendorModelDiff diff = pmucat::diff_vendor_models(before, after);
  // A respelt number is no change; by name: fresh, gone, moved, new_name (renamed).
  EXPECT_EQ(diff.events_unchanged, 2U);
  ASSERT_EQ(diff.events.size(), 4U);
  EXPECT_EQ(diff.events[0].kind, VendorChange::added);
  EXPECT_EQ(diff.events[0].name, "fresh");
  EXPECT_EQ(diff.events[1].kind, VendorChange::removed);
  EXPECT_EQ(diff.events[1].name, "gone");
  EXPECT_EQ(diff.events[2].kind, VendorChange::reencoded);
  EXPECT_EQ(diff.events[2].old_terms, "event=0x2e,umask=0x41");
  EXPECT_EQ(diff.events[2].new_terms, "event=0x2e,umask=0x4f");
  EXPECT_EQ(diff.events[3].kind, VendorChange::renamed);
  EXPECT_EQ(diff.events[3].old_name, "old_name");
  EXPECT_EQ(diff.events[3].name, "new_name");

  EXPECT_EQ(diff.metrics_unchanged, 1U);
  ASSERT_EQ(diff.metrics.size(), 3U);
  EXPECT_EQ(diff.metrics[0].name, "Dropped");
  EXPECT_EQ(diff.metrics[0].kind, VendorChange::removed);
  EXPECT_EQ(diff.metrics[1].name, "Expr");
  EXPECT_EQ(diff.metrics[1].kind, VendorChange::changed);
  EXPECT_EQ(diff.metrics[2].name, "lpm_x");
  EXPECT_EQ(diff.metrics[2].kind, VendorChange::added);
  EXPECT_EQ(pmucat::to_string(VendorChange::reencoded), "re-encoded");
}

TEST(VendorModelDiff, NoModelOnOneSideIsAllAddedOrRemoved) {
  const VendorModel some = model({{"a", "event=1"}, {"b", "event=1"}}, {{"M", "a"}});
  const pmucat::VendorModelDiff added = pmucat::diff_vendor_models(VendorModel(), some);
  ASSERT_EQ(added.events.size(), 2U);
  EXPECT_EQ(added.events[0].kind, VendorChange::added);
  EXPECT_EQ(added.events[1].kind, VendorChange::added);
  ASSERT_EQ(added.metrics.size(), 1U);
  const pmucat::VendorModelDiff removed = pmucat::diff_vendor_models(some, VendorModel());
  ASSERT_EQ(removed.events.size(), 2U);
  EXPECT_EQ(removed.events[0].kind, VendorChange::removed);
  EXPECT_EQ(removed.metrics[0].kind, VendorChange::removed);
}

}  // namespace
