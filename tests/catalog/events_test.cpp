#include <fmt/core.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "pmucat/catalog.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using ::testing::ElementsAre;
using testing::TempTree;

std::vector<std::string> event_names(std::span<const Event> events) {
  std::vector<std::string> names;
  for (const Event& event : events) names.push_back(event.name);
  return names;
}

bool has_id(const std::vector<Diagnostic>& diagnostics, std::string_view id) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [&](const Diagnostic& d) { return d.id == id; });
}

const Term* term(const Event& event, std::string_view name) {
  for (const Term& t : event.terms.terms) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

class EventsTree : public ::testing::Test {
 protected:
  void SetUp() override {
    tree.write("devices/fakepmu/type", "42\n");
    tree.write("devices/fakepmu/format/event", "config:0-7\n");
    tree.write("devices/fakepmu/format/umask", "config:8-15\n");
    tree.write("devices/fakepmu/format/ldlat", "config1:0-15\n");
    tree.write("devices/fakepmu/format/evext", "config:0-7,21\n");
    tree.write("devices/fakepmu/events/foo", "event=0x3c,umask=0x1\n");
    tree.write("devices/fakepmu/events/foo.unit", "MiB\n");
    tree.write("devices/fakepmu/events/foo.scale", "6.103515625e-5\n");
    tree.write("devices/fakepmu/events/foo.per-pkg", "1\n");
    tree.write("devices/fakepmu/events/foo.snapshot", "1\n");
    tree.write("devices/fakepmu/events/Bar_Mixed", "event=0x10\n");
    tree.write("devices/fakepmu/events/UPPER", "event=0x11");
    tree.write("devices/fakepmu/events/param", "event=0x20,cmask=?\n");
    tree.write("devices/fakepmu/events/ld", "event=0xcd,umask=0x1,ldlat=3\n");
    tree.write("devices/fakepmu/events/unc.dot", "event=0x78\n");
    tree.write("devices/fakepmu/events/broken", "event=0x1,,\n");
    tree.write("devices/fakepmu/events/orphan.scale", "2\n");
    auto opened = Catalog::open(tree.path("devices"));
    ASSERT_TRUE(opened) << opened.error().message;
    catalog = std::make_unique<Catalog>(std::move(opened).value());
    pmu = catalog->find_pmu("fakepmu");
    ASSERT_NE(pmu, nullptr);
  }
  TempTree tree;
  std::unique_ptr<Catalog> catalog;
  const Pmu* pmu = nullptr;
};

TEST_F(EventsTree, ListingIsSortedWithMetadataAttached) {
  EXPECT_THAT(event_names(pmu->events()),
              ElementsAre("Bar_Mixed", "UPPER", "broken", "foo", "ld", "param", "unc.dot"));
  const Event* foo = pmu->find_event("foo");
  ASSERT_NE(foo, nullptr);
  EXPECT_TRUE(foo->metadata_loaded);
  EXPECT_EQ(foo->unit, "MiB");
  ASSERT_TRUE(foo->scale);
  EXPECT_DOUBLE_EQ(*foo->scale, 6.103515625e-5);
  EXPECT_EQ(foo->scale_text, "6.103515625e-5");
  EXPECT_TRUE(foo->per_pkg);
  EXPECT_TRUE(foo->snapshot);
  EXPECT_EQ(foo->text, "event=0x3c,umask=0x1\n");
  EXPECT_EQ(foo->path, tree.path("devices/fakepmu/events/foo").string());
  ASSERT_EQ(foo->terms.terms.size(), 2u);
  EXPECT_EQ(foo->terms.terms[0].name, "event");
  EXPECT_EQ(foo->terms.terms[0].value, 0x3cu);
  EXPECT_EQ(foo->terms.terms[1].name, "umask");
  EXPECT_EQ(foo->terms.terms[1].value, 0x1u);
  const Event* ld = pmu->find_event("ld");
  EXPECT_FALSE(ld->unit);
  EXPECT_FALSE(ld->scale);
  EXPECT_FALSE(ld->per_pkg);
  EXPECT_TRUE(ld->metadata_loaded);
}

TEST_F(EventsTree, ParamsAndNoTrailingNewline) {
  const Event* param = pmu->find_event("param");
  ASSERT_NE(param, nullptr);
  ASSERT_NE(term(*param, "cmask"), nullptr);
  EXPECT_EQ(term(*param, "cmask")->kind, TermValueKind::param);
  const Event* upper = pmu->find_event("UPPER");
  ASSERT_NE(upper, nullptr);
  EXPECT_FALSE(upper->error);
  EXPECT_EQ(term(*upper, "event")->value, 0x11u);
}

TEST_F(EventsTree, ParseErrorsAreKeptOnTheEvent) {
  pmu->events();
  const Event* broken = pmu->find_event("broken");
  ASSERT_NE(broken, nullptr);
  ASSERT_TRUE(broken->error);
  EXPECT_EQ(broken->error->severity, Severity::error);
  EXPECT_EQ(broken->error->range.file, broken->path);
  EXPECT_TRUE(broken->terms.terms.empty());
  EXPECT_EQ(broken->text, "event=0x1,,\n");
  EXPECT_TRUE(has_id(pmu->diagnostics(), broken->error->id));
}

TEST_F(EventsTree, OrphanMetadataIsDiagnosed) {
  pmu->events();
  EXPECT_EQ(pmu->find_event("orphan"), nullptr);
  EXPECT_EQ(pmu->find_event("orphan.scale"), nullptr);
  std::vector<Diagnostic> diagnostics = pmu->diagnostics();
  auto orphan = std::find_if(diagnostics.begin(), diagnostics.end(),
                             [](const Diagnostic& d) { return d.id == "event-orphan-metadata"; });
  ASSERT_NE(orphan, diagnostics.end());
  EXPECT_EQ(orphan->range.file, tree.path("devices/fakepmu/events/orphan.scale").string());
}

TEST_F(EventsTree, LookupsAreCaseInsensitive) {
  for (const char* name :
       {"bar_mixed", "BAR_MIXED", "Bar_Mixed", "upper", "UPPER", "FOO", "Unc.Dot"}) {
    EXPECT_NE(pmu->find_event(name), nullptr) << name;
  }
  EXPECT_EQ(pmu->find_event("bar_mixed")->name, "Bar_Mixed");
  EXPECT_EQ(pmu->find_event("upper")->name, "UPPER");
  EXPECT_EQ(pmu->find_event("nosuch"), nullptr);
  EXPECT_EQ(pmu->find_event(""), nullptr);
  EXPECT_EQ(pmu->find_event("../type"), nullptr);
  EXPECT_EQ(pmu->find_event("."), nullptr);
}

TEST_F(EventsTree, FormatsAreParsedAndSorted) {
  std::span<const Format> formats = pmu->formats();
  ASSERT_EQ(formats.size(), 4u);
  EXPECT_EQ(formats[0].name, "event");
  EXPECT_EQ(formats[1].name, "evext");
  EXPECT_EQ(formats[2].name, "ldlat");
  EXPECT_EQ(formats[3].name, "umask");
  const Format* evext = pmu->find_format("evext");
  ASSERT_NE(evext, nullptr);
  EXPECT_EQ(evext->spec.word, 0u);
  EXPECT_EQ(evext->spec.mask, 0x2000ffu);
  EXPECT_EQ(evext->text, "config:0-7,21\n");
  EXPECT_EQ(pmu->find_format("ldlat")->spec.word, 1u);
  EXPECT_EQ(pmu->find_format("ldlat")->spec.mask, 0xffffu);
  EXPECT_EQ(pmu->find_format("Event"), nullptr);  // field names are case-sensitive
}

TEST(EventsMetadata, BadMetadataStaysOnItsEvent) {
  TempTree tree;
  tree.write("devices/p/type", "9\n");
  tree.write("devices/p/events/e", "event=0x1\n");
  tree.write("devices/p/events/e.scale", "\"3.814697266e-6\"\n");  // the DMR defect
  tree.write("devices/p/events/e.unit", "");
  tree.mkdir("devices/p/events/e.per-pkg");
  auto catalog = Catalog::open(tree.path("devices"));
  const Event* e = catalog->find_pmu("p")->events().data();
  ASSERT_EQ(catalog->find_pmu("p")->events().size(), 1u);
  EXPECT_FALSE(e->error);
  EXPECT_FALSE(e->scale);
  EXPECT_FALSE(e->unit);
  EXPECT_TRUE(e->per_pkg);  // existence is what perf checks
  EXPECT_GE(e->diagnostics.size(), 3u);
  EXPECT_TRUE(has_id(e->diagnostics, "file-not-regular"));
}

TEST(EventsMetadata, MetadataBaseNamesMatchExactly) {
  TempTree tree;
  tree.write("devices/p/type", "9\n");
  tree.write("devices/p/events/cas_count_read", "event=0x04,umask=0x03");
  tree.write("devices/p/events/CAS_COUNT_READ.unit", "MiB\n");
  tree.write("devices/p/events/.unit", "event=0x5\n");  // a name no longer than the suffix
  auto catalog = Catalog::open(tree.path("devices"));
  const Pmu* p = catalog->find_pmu("p");
  EXPECT_THAT(event_names(p->events()), ElementsAre(".unit", "cas_count_read"));
  EXPECT_FALSE(p->find_event("cas_count_read")->unit);
  EXPECT_TRUE(has_id(p->diagnostics(), "event-orphan-metadata"));
}

TEST(EventsMetadata, EmptyEventFileIsWarned) {
  TempTree tree;
  tree.write("devices/p/type", "9\n");
  tree.write("devices/p/events/empty", "");
  auto catalog = Catalog::open(tree.path("devices"));
  const Event* empty = catalog->find_pmu("p")->find_event("empty");
  ASSERT_NE(empty, nullptr);
  EXPECT_FALSE(empty->error);
  EXPECT_TRUE(has_id(empty->diagnostics, "event-empty"));
}

TEST(EventsScale, TwoThousandEventsInOnePmu) {
  TempTree tree;
  tree.write("devices/hv_24x7/type", "6\n");
  tree.write("devices/hv_24x7/format/offset", "config:32-63\n");
  for (int i = 0; i < 2000; ++i) {
    std::string name = fmt::format("PM_EVENT_{}", i);
    tree.write("devices/hv_24x7/events/" + name, fmt::format("offset=0x{:x}\n", i * 8));
    if (i % 100 == 0) tree.write("devices/hv_24x7/events/" + name + ".scale", "2\n");
  }
  auto catalog = Catalog::open(tree.path("devices"));
  const Pmu* pmu = catalog->find_pmu("hv_24x7");
  std::span<const Event> events = pmu->events();
  ASSERT_EQ(events.size(), 2000u);
  EXPECT_TRUE(std::is_sorted(events.begin(), events.end(),
                             [](const Event& a, const Event& b) { return a.name < b.name; }));
  for (int i = 0; i < 2000; ++i) {
    const Event* event = pmu->find_event(fmt::format("pm_event_{}", i));
    ASSERT_NE(event, nullptr) << i;
    ASSERT_EQ(event->terms.terms.size(), 1u);
    EXPECT_EQ(event->terms.terms[0].value, static_cast<std::uint64_t>(i) * 8);
    EXPECT_EQ(event->scale.has_value(), i % 100 == 0) << i;
  }
  EXPECT_TRUE(pmu->diagnostics().empty());
}

// find_event before the listing (direct opens) must answer as it does after (the listing is the
// truth): the exact spelling first, then the all-lower, then the all-upper one; a name no
// directory entry can have is not an event. Found by catalog_fuzz.
TEST(EventProbe, AgreesWithTheListing) {
  TempTree tree;
  tree.write("devices/casepmu/type", "42\n");
  tree.write("devices/casepmu/format/event", "config:0-7\n");
  tree.write("devices/casepmu/events/cycles", "event=0x1\n");
  tree.write("devices/casepmu/events/CYCLES", "event=0x2\n");
  tree.write("devices/casepmu/events/loads", "event=0x3\n");
  tree.write("devices/casepmu/events/Loads", "event=0x4\n");
  tree.write("devices/casepmu/events/stores", "event=0x5\n");
  const std::vector<std::string> queries = {
      "cycles",         "CYCLES", "Cycles", "loads",  "LOADS",
      "lOADS",          "stores", "STORES", "nosuch", std::string(300, 'x'),
      "odd\xff\x01name"};
  auto answer = [](const Event* event) {
    return event == nullptr ? std::string("(none)") : event->name;
  };
  for (const std::string& query : queries) {
    auto before = Catalog::open(tree.path("devices"));
    ASSERT_TRUE(before);
    const Pmu* pmu = before->find_pmu("casepmu");
    ASSERT_NE(pmu, nullptr);
    const std::string probed = answer(pmu->find_event(query));
    ASSERT_EQ(pmu->events().size(), 5u);
    EXPECT_EQ(probed, answer(pmu->find_event(query))) << query.substr(0, 20);
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
