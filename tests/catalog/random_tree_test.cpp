// Internal unit test of src/catalog/pmu_parts.h: the loaders behind Catalog::open, random bytes.
// Arbitrary bytes in every kind of file: loading never crashes or throws, and every problem
// ends up as a diagnostic with a stable id.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <sys/stat.h>

#include "catalog/pmu_parts.h"
#include "pmucat/catalog.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::TempTree;

RC_GTEST_PROP(RandomTree, AnyContentLoadsWithDiagnostics,
              (const std::string& type, const std::string& cpumask, const std::string& format,
               const std::string& event, const std::string& scale, const std::string& unit)) {
  TempTree tree;
  tree.write("devices/p/type", type);
  tree.write("devices/p/cpumask", cpumask);
  tree.write("devices/p/caps/c", cpumask);
  tree.write("devices/p/format/f", format);
  tree.write("devices/p/events/e", event);
  tree.write("devices/p/events/e.scale", scale);
  tree.write("devices/p/events/e.unit", unit);
  auto catalog = Catalog::open(tree.path("devices"));
  RC_ASSERT(catalog.has_value());
  const Pmu* pmu = catalog->find_pmu("p");
  RC_ASSERT(pmu != nullptr);
  const Event* probed = pmu->find_event("E");
  RC_ASSERT(probed != nullptr);
  RC_ASSERT(pmu->formats().size() == 1u);
  RC_ASSERT(pmu->events().size() == 1u);
  const Event& listed = pmu->events()[0];
  RC_ASSERT(listed.text == event || (listed.error && listed.text.empty()));
  RC_ASSERT(listed.error.has_value() || probed->terms == listed.terms);
  RC_ASSERT(pmu->attributes().type.has_value() || !pmu->attributes().diagnostics.empty());
  for (const Diagnostic& diagnostic : pmu->diagnostics()) {
    RC_ASSERT(!diagnostic.id.empty());
    RC_ASSERT(!diagnostic.message.empty());
  }
  pmu->kind();
}

RC_GTEST_PROP(RandomType, ReadsLikePercentU, (const std::string& text)) {
  detail::TypeReading reading = detail::read_type(text, "type");
  std::size_t start = text.find_first_not_of(" \t\n\v\f\r");
  bool has_digit = start != std::string::npos && text[start] >= '0' && text[start] <= '9';
  if (!has_digit) {
    RC_ASSERT(!reading.type.has_value());
    RC_ASSERT(reading.diagnostics.size() == 1u);
  } else if (reading.type) {
    std::size_t end = text.find_first_not_of("0123456789", start);
    RC_ASSERT(std::to_string(*reading.type) ==
              std::to_string(std::stoull(text.substr(start, end - start))));
  }
}

TEST(RandomType, Examples) {
  EXPECT_EQ(detail::read_type("4\n", "t").type, 4u);
  EXPECT_EQ(detail::read_type("\n\n 17 \n", "t").type, 17u);
  EXPECT_EQ(detail::read_type("007", "t").type, 7u);
  EXPECT_EQ(detail::read_type("0x2e", "t").diagnostics.at(0).id, "pmu-type-hex");
  EXPECT_EQ(detail::read_type("5x", "t").diagnostics.at(0).id, "pmu-type-trailing");
}

TEST(LiveSysfs, OpensFromSlashAndSys) {
  struct stat status {};
  if (::stat("/sys/bus/event_source/devices", &status) != 0) {
    GTEST_SKIP() << "this machine has no /sys/bus/event_source/devices";
  }
  for (const char* root : {"/", "/sys", "/sys/bus/event_source/devices"}) {
    auto catalog = Catalog::open(root);
    ASSERT_TRUE(catalog) << root << ": " << catalog.error().message;
    EXPECT_EQ(catalog->devices_dir(), "/sys/bus/event_source/devices") << root;
    if (const Pmu* software = catalog->find_pmu("software")) {
      EXPECT_EQ(software->type(), 1u);
      EXPECT_EQ(software->kind(), PmuKind::software);
    }
    for (const Pmu& pmu : catalog->pmus()) {
      pmu.events();
      pmu.formats();
      EXPECT_TRUE(pmu.type().has_value()) << pmu.name();
    }
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
