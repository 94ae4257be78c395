#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using ::testing::ElementsAre;

Format format(std::string name, unsigned word, std::uint64_t mask) {
  Format f;
  f.name = std::move(name);
  f.spec.word = word;
  f.spec.mask = mask;
  return f;
}

Event event(std::string name, std::vector<Term> terms) {
  Event e;
  e.name = std::move(name);
  e.terms.terms = std::move(terms);
  return e;
}

Term number(std::string name, std::uint64_t value) {
  Term t;
  t.name = std::move(name);
  t.kind = TermValueKind::number;
  t.value = value;
  return t;
}

PmuInfo krava() {
  PmuInfo info;
  info.name = "perf-pmu-test";
  info.attributes.type = 9999;
  info.formats = {format("krava02", 0, 0x3fc00), format("krava01", 0, 0xc000000000000003)};
  info.events = {event("test-event", {number("krava01", 15), number("krava02", 170)}),
                 event("Another", {number("krava01", 1)})};
  return info;
}

TEST(PmuFromInfo, HoldsExactlyWhatItWasGiven) {
  Pmu pmu = Pmu::from_info(krava());
  EXPECT_EQ(pmu.name(), "perf-pmu-test");
  EXPECT_TRUE(pmu.path().empty());
  EXPECT_EQ(pmu.type(), 9999u);
  ASSERT_EQ(pmu.formats().size(), 2u);
  EXPECT_EQ(pmu.formats()[0].name, "krava01");  // sorted
  EXPECT_EQ(pmu.find_format("krava02")->spec.mask, 0x3fc00u);
  EXPECT_EQ(pmu.find_format("krava03"), nullptr);
  ASSERT_EQ(pmu.events().size(), 2u);
  EXPECT_EQ(pmu.events()[0].name, "Another");
  EXPECT_EQ(pmu.find_event("TEST-EVENT")->terms.terms[1].value, 170u);
  EXPECT_EQ(pmu.find_event("another")->name, "Another");
  EXPECT_EQ(pmu.find_event("missing"), nullptr);
  EXPECT_EQ(pmu.kind(), PmuKind::other);
  EXPECT_TRUE(pmu.diagnostics().empty());
}

TEST(PmuFromInfo, DiagnosticsCollectEveryPart) {
  PmuInfo info = krava();
  info.attributes.diagnostics.push_back(make_file_diagnostic(Severity::error, "a", "type", "m"));
  info.formats[0].spec.lints.push_back(make_file_diagnostic(Severity::warning, "b", "f", "m"));
  info.events[0].error = make_file_diagnostic(Severity::error, "c", "e", "m");
  info.events[1].diagnostics.push_back(make_file_diagnostic(Severity::warning, "d", "e", "m"));
  Pmu pmu = Pmu::from_info(std::move(info));
  std::vector<std::string> ids;
  for (const Diagnostic& d : pmu.diagnostics()) ids.push_back(d.id);
  std::sort(ids.begin(), ids.end());
  EXPECT_THAT(ids, ElementsAre("a", "b", "c", "d"));
}

TEST(CatalogFromPmus, SortedLookupAndMatching) {
  std::vector<Pmu> pmus;
  for (const char* name : {"uncore_cha_10", "cpu", "uncore_cha_2", "software"}) {
    PmuInfo info;
    info.name = name;
    if (std::string_view(name) == "cpu") info.attributes.type = 4;
    pmus.push_back(Pmu::from_info(std::move(info)));
  }
  Catalog catalog = Catalog::from_pmus(std::move(pmus));
  EXPECT_TRUE(catalog.devices_dir().empty());
  EXPECT_TRUE(catalog.diagnostics().empty());
  std::vector<std::string> names;
  for (const Pmu& pmu : catalog.pmus()) names.push_back(pmu.name());
  EXPECT_THAT(names, ElementsAre("cpu", "software", "uncore_cha_2", "uncore_cha_10"));
  EXPECT_EQ(catalog.find_pmu("software")->name(), "software");
  EXPECT_EQ(catalog.core_pmu()->type(), 4u);
  auto chas = catalog.match_pmus("uncore_cha");
  ASSERT_EQ(chas.size(), 2u);
  EXPECT_EQ(chas[0]->name(), "uncore_cha_2");
  EXPECT_EQ(catalog.find_pmu("software")->kind(), PmuKind::software);
}

TEST(CatalogFromPmus, MovedCatalogKeepsPointersValid) {
  std::vector<Pmu> pmus;
  pmus.push_back(Pmu::from_info(krava()));
  Catalog first = Catalog::from_pmus(std::move(pmus));
  const Pmu* before = first.find_pmu("perf-pmu-test");
  const Event* event = before->find_event("test-event");
  Catalog second = std::move(first);
  EXPECT_EQ(second.find_pmu("perf-pmu-test"), before);
  EXPECT_EQ(second.find_pmu("perf-pmu-test")->find_event("test-event"), event);
}

}  // namespace
PMUCAT_END_NAMESPACE
