// perf 7.2+'s hwmon PMUs: read from a tree's class/hwmon and encoded as perf 7.3.4 encoded them
// on the same layout (docs/hwmon.md; HwmonDiff.* compares with the real perf where it runs).
#include "pmucat/hwmon.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pmucat/encode.h"
#include "support/hwmon_layout.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::TempTree;

// A tree with one core PMU and the default hwmon layout; `extra` adds devices of its own.
class HwmonTree {
 public:
  HwmonTree() {
    tree.write("devices/cpu/type", "4\n");
    tree.write("devices/cpu/format/event", "config:0-7\n");
    tree.symlink("../../../devices/cpu", "bus/event_source/devices/cpu");
    for (const auto& file : testing::hwmon_default_layout()) {
      device(file.device, file.name, file.text);
    }
  }
  void device(const std::string& link, const std::string& name, const std::string& text) {
    const std::string dir = "devices/virtual/hwmon/" + link;
    tree.write(dir + "/" + name, text);
    if (!std::filesystem::is_symlink(tree.path("class/hwmon/" + link))) {
      tree.symlink("../../" + dir, "class/hwmon/" + link);
    }
  }
  Catalog open() const { return std::move(Catalog::open(tree.root()).value()); }
  TempTree tree{"hwmon"};
};

using Attrs = std::vector<std::pair<std::uint32_t, std::uint64_t>>;

Expected<Attrs> encode_attrs(const Catalog& catalog, std::string_view spec,
                             Profile semantics = Profile::perf(PerfRelease::v7_3)) {
  EncodeOptions options;
  options.semantics = semantics;
  options.tool = Tool::stat;
  auto events = encode(catalog, spec, options);
  if (!events) return unexpected(std::move(events).error());
  Attrs attrs;
  for (const EncodedEvent& event : *events)
    attrs.emplace_back(event.attr.type, event.attr.config[0]);
  return attrs;
}

TEST(Hwmon, DevicesBecomePmusWithTheSensorsThatHaveAnInputFile) {
  const HwmonTree t;
  const Catalog catalog = t.open();
  const HwmonPmus& hwmon = catalog.hwmon_pmus();
  ASSERT_EQ(hwmon.pmus.size(), 2u);
  EXPECT_EQ(hwmon.pmus[0].name(), "hwmon_k10temp");
  EXPECT_EQ(hwmon.pmus[0].attributes().type, 0xffff0000u);
  EXPECT_EQ(hwmon.pmus[1].name(), "hwmon_nvme");
  EXPECT_EQ(hwmon.pmus[1].attributes().type, 0xffff0001u);
  EXPECT_EQ(hwmon.links, (std::vector<std::string>{"hwmon0", "hwmon1"}));
  std::set<std::string> names;
  for (const Event& event : hwmon.pmus[0].events()) names.insert(event.name);
  // perf 7.3.4's `perf list hwmon` on this layout: no temp3 (a label only), temp4 (no input),
  // pwm1 (the bare file), intrusion0 (an alarm only) or cpu0 (vid only).
  EXPECT_EQ(names, (std::set<std::string>{"cpu1", "curr1", "energy1", "fan1", "humidity1", "in0",
                                          "in_vcore", "intrusion1", "power1", "power_ppt", "pwm2",
                                          "temp1", "temp2", "temp_tctl"}));
  EXPECT_TRUE(hwmon.diagnostics.empty());
  // Not among the kernel's PMUs.
  EXPECT_EQ(catalog.find_pmu("hwmon_k10temp"), nullptr);
}

TEST(Hwmon, Perf73EncodesSensorsAsItsHwmonPmusAttrs) {
  const HwmonTree t;
  const Catalog catalog = t.open();
  const Attrs both = {{0xffff0000u, 0xa0001u}, {0xffff0001u, 0xa0001u}};
  const Attrs k10temp = {{0xffff0000u, 0xa0001u}};
  const Attrs nvme = {{0xffff0001u, 0xa0001u}};
  const struct {
    const char* spec;
    Attrs attrs;
  } cases[] = {
      {"temp1", both},
      {"temp1_input", both},
      {"temp01", both},
      {"temp1foo", both},
      {"temp_tctl", k10temp},
      {"temp_Tctl", k10temp},
      {"fan1", {{0xffff0000u, 0x40001u}}},
      {"pwm2", {{0xffff0000u, 0x90002u}}},
      {"in0", {{0xffff0000u, 0x60000u}}},
      {"in_vcore", {{0xffff0000u, 0x60000u}}},
      {"intrusion1", {{0xffff0000u, 0x70001u}}},
      {"cpu1", {{0xffff0000u, 0x10001u}}},
      {"hwmon_k10temp/temp1/", k10temp},
      {"hwmon_k10temp/temp1_input/", k10temp},
      {"hwmon_k10temp/temp_tctl/", k10temp},
      {"hwmon0/temp1/", k10temp},
      {"hwmon_nvme/temp1/", nvme},
      {"hwmon1/temp1/", nvme},
      {"hwmon/temp1/", both},
      {"hwmon_*/temp1/", both},
      {"hwmon_k10*/temp1/", k10temp},
      // perf's term rules: any value, a number the device lacks, the last sensor counts.
      {"hwmon_k10temp/temp1=2/", k10temp},
      {"hwmon_k10temp/temp9/", {{0xffff0000u, 0xa0009u}}},
      {"hwmon_k10temp/temp1,temp2/", {{0xffff0000u, 0xa0002u}}},
      {"hwmon_k10temp/temp_tctl,fan1/", {{0xffff0000u, 0x40001u}}},
      {"hwmon_k10temp//", {{0xffff0000u, 0}}},
  };
  EncodeOptions options;
  options.semantics = Profile::perf(PerfRelease::v7_3);
  options.tool = Tool::stat;
  for (const auto& c : cases) {
    auto attrs = encode_attrs(catalog, c.spec);
    ASSERT_TRUE(attrs.has_value()) << c.spec << ": " << attrs.error().message;
    EXPECT_EQ(*attrs, c.attrs) << c.spec;
    // Each attr's perf string names its PMU and sensor (`hwmon_k10temp/temp1/`), as perf stat
    // prints it, and encodes to it alone.
    const auto events = encode(catalog, c.spec, options);
    ASSERT_TRUE(events.has_value()) << c.spec;
    for (const EncodedEvent& event : *events) {
      auto again = encode(catalog, event.perf_string, options);
      ASSERT_TRUE(again.has_value()) << event.perf_string;
      ASSERT_EQ(again->size(), 1u) << event.perf_string;
      EXPECT_EQ(again->front().attr, event.attr) << event.perf_string;
    }
  }
  EXPECT_EQ(encode(catalog, "temp_tctl:u", options)->front().perf_string, "hwmon_k10temp/temp1/u");
  for (const char* spec :
       {"TEMP1", "Temp1", "temp", "temp_", "temp3", "temp4", "pwm1", "cpu0", "hwmon_k10temp",
        "k10temp/temp1/", "hwmon_nvme/temp_tctl/", "hwmon_k10temp/TEMP1/", "hwmon_k10temp/tctl/",
        "hwmon_k10temp/config=0xa0001/", "hwmon_k10temp/temp1,name=x/",
        "hwmon_k10temp/temp1,period=1000/"}) {
    EXPECT_FALSE(encode_attrs(catalog, spec).has_value()) << spec;
  }
  // The modifiers and groups of any PMU event.
  auto user = encode(catalog, "temp_tctl:u", options);
  ASSERT_TRUE(user.has_value());
  EXPECT_TRUE(user->front().attr.exclude_kernel);
  EXPECT_TRUE(user->front().attr.exclude_hv);
  auto group = encode(catalog, "{temp_tctl,fan1}", options);
  ASSERT_TRUE(group.has_value());
  ASSERT_EQ(group->size(), 2u);
  EXPECT_EQ((*group)[1].group_leader, 0);
  EXPECT_EQ((*group)[1].attr.config[0], 0x40001u);
}

TEST(Hwmon, OnlyPerf72AndPmucatSemanticsHaveThem) {
  const HwmonTree t;
  const Catalog catalog = t.open();
  EXPECT_TRUE(encode_attrs(catalog, "temp1", Profile::perf(PerfRelease::v7_2)).has_value());
  EXPECT_TRUE(encode_attrs(catalog, "temp1", Profile::pmucat()).has_value());
  for (const PerfRelease older : {PerfRelease::v6_1, PerfRelease::v6_12}) {
    EXPECT_FALSE(encode_attrs(catalog, "temp1", Profile::perf(older)).has_value());
    EXPECT_FALSE(encode_attrs(catalog, "hwmon0/temp1/", Profile::perf(older)).has_value());
  }
}

// What perf skips is skipped with a warning: a plain directory, a link out of the tree, a device
// without a name file, a number past the hwmon types. Nothing outside the tree is read.
TEST(Hwmon, EntriesPerfSkipsAreWarnedAbout) {
  HwmonTree t;
  t.tree.write("class/hwmon/hwmon7/name", "plain\n");
  t.tree.write("class/hwmon/hwmon7/temp1_input", "1\n");
  t.tree.write("devices/virtual/hwmon/hwmon2/temp1_input", "1\n");  // no name
  t.tree.symlink("../../devices/virtual/hwmon/hwmon2", "class/hwmon/hwmon2");
  t.device("hwmon65534", "name", "toobig\n");
  t.device("hwmon65534", "temp1_input", "1\n");
  const TempTree outside("hwmon-outside");
  outside.write("dev/name", "outside\n");
  outside.write("dev/temp1_input", "1\n");
  t.tree.symlink(outside.path("dev").string(), "class/hwmon/hwmon3");
  const Catalog catalog = t.open();
  const HwmonPmus& hwmon = catalog.hwmon_pmus();
  ASSERT_EQ(hwmon.pmus.size(), 2u);
  ASSERT_EQ(hwmon.diagnostics.size(), 4u);
  std::set<std::string> why;
  for (const Diagnostic& d : hwmon.diagnostics) {
    EXPECT_EQ(d.id, "hwmon-entry-skipped");
    why.insert(std::filesystem::path(d.range.file).filename().string());
  }
  EXPECT_EQ(why, (std::set<std::string>{"hwmon2", "hwmon3", "hwmon7", "hwmon65534"}));
}

// perf 7.3.4's `perf list -j hwmon` on this layout (docs/hwmon.md §5; HwmonDiff compares all).
TEST(Hwmon, ListEntriesAsPerfListJsonPrintsThem) {
  const HwmonTree t;
  const Catalog catalog = t.open();
  const Pmu& k10temp = catalog.hwmon_pmus().pmus[0];
  auto entry_of = [&](std::string_view name) {
    const Event* event = k10temp.find_event(name);
    EXPECT_NE(event, nullptr) << name;
    return event ? hwmon_list_entry(k10temp, *event) : std::nullopt;
  };
  const auto tctl = entry_of("temp_tctl");
  ASSERT_TRUE(tctl.has_value());
  EXPECT_EQ(tctl->event_name, "temp_tctl");
  EXPECT_EQ(tctl->event_alias, "temp1");
  EXPECT_EQ(tctl->scale_unit, "0.001'C");
  EXPECT_EQ(tctl->description,
            "Temperature in unit k10temp named Tctl. crit=100'C, max=70'C crit_alarm=0'C");
  EXPECT_EQ(tctl->encoding, "hwmon_k10temp/config=0xa0001/");
  // temp1 is listed as the label entry's alias.
  EXPECT_FALSE(entry_of("temp1").has_value());
  const auto fan = entry_of("fan1");
  ASSERT_TRUE(fan.has_value());
  EXPECT_EQ(fan->description, "Fan in unit k10temp named fan1. min=0.3rpm");
  EXPECT_EQ(fan->scale_unit, "1rpm");
  EXPECT_EQ(entry_of("intrusion1")->scale_unit, "");
}

TEST(Hwmon, SensorKeysAsPerfReadsThem) {
  const auto key = parse_hwmon_event_key("temp65537_input");
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(key->kind->code, 10u);
  EXPECT_EQ(key->number, 1u);
  EXPECT_EQ(parse_hwmon_event_key("intrusion1")->kind->prefix, "intrusion");
  EXPECT_EQ(parse_hwmon_event_key("in1")->kind->prefix, "in");
  EXPECT_FALSE(parse_hwmon_event_key("TEMP1").has_value());
  EXPECT_FALSE(parse_hwmon_event_key("temp_tctl").has_value());
  EXPECT_EQ(hwmon_sensor_kinds().size(), 10u);
  for (const char* name : {"temp1", "temp1_input", "temp_tctl", "in0", "intrusion1"}) {
    EXPECT_TRUE(may_name_hwmon_sensor(name)) << name;
  }
  for (const char* name : {"temp", "temp_", "cycles", "TEMP1", "instructions", "fan"}) {
    EXPECT_FALSE(may_name_hwmon_sensor(name)) << name;
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
