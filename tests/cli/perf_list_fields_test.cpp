// Internal unit test of what pmuls shows as perf 6.12's `perf list` does: the Encoding spelling,
// the unit a JSON event is listed under, the perf list -j fields of sysfs and undescribed JSON
// events, and the text listing's `Unit:` suffix and commas. Expected values are perf 6.12's output
// on fixtures/sysfs/intel-spr and intel-adl-hybrid (listing_differential_test compares them in
// full). Then perf 7.3's `perf list -j` fields (list_json_fields), from perf 7.3.4's output on
// intel-spr.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "pmucat/version.h"
#include "pmuls/catalog_json.h"
#include "pmuls/event_listing.h"
#include "test_pmus.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

using testing::make_pmu;

const std::vector<testing::NamedText> kCoreFormats = {{"event", "config:0-7\n"},
                                                      {"umask", "config:8-15\n"}};

TEST(PerfListFields, EncodingSpellsZeroAsPerfDoes) {
  // perf 6.12: `ref-cycles` is `cpu/event=0,umask=0x3/`, `uncore_imc_0/clockticks/` is
  // `uncore_imc_0/event=0x1,umask=0/` (C's %#x: no 0x for zero).
  const Pmu cpu =
      make_pmu("cpu", 4, kCoreFormats, {{"ref-cycles", "event=0x00,umask=0x03\n"}}, "0-3");
  ASSERT_NE(cpu.find_event("ref-cycles"), nullptr);
  EXPECT_EQ(perf_list_encoding("cpu", *cpu.find_event("ref-cycles")), "cpu/event=0,umask=0x3/");
  const Pmu imc = make_pmu("uncore_imc_0", 18, kCoreFormats,
                           {{"clockticks", "event=0x01,umask=0x00\n"}}, "", "0");
  ASSERT_NE(imc.find_event("clockticks"), nullptr);
  EXPECT_EQ(perf_list_encoding("uncore_imc_0", *imc.find_event("clockticks")),
            "uncore_imc_0/event=0x1,umask=0/");
}

std::shared_ptr<VendorEvent> vendor_event(std::string name, std::string pmu) {
  auto vendor = std::make_shared<VendorEvent>();
  vendor->name = std::move(name);
  vendor->pmu = std::move(pmu);
  vendor->rules = PerfRelease::v6_12;
  return vendor;
}

Event event_of(std::shared_ptr<VendorEvent> vendor) {
  Event event;
  event.name = vendor->name;
  event.source = EventSource::json;
  event.vendor = std::move(vendor);
  return event;
}

TEST(PerfListFields, UnitIsTheTablesPmuOrTheCorePmu) {
  // perf 6.12 -j: `unc_cha_clockticks` of uncore_cha_0..3 once under `uncore_cha`; broadwell's
  // `unc_clock.socket` (Unit `cbox_0`) under `uncore_cbox_0`, also on uncore_cbox_0_0; a core
  // event (no Unit) under its PMU, `cpu_core` on a hybrid tree; a sysfs event under its PMU.
  const Pmu cha = make_pmu("uncore_cha_3", 12, kCoreFormats, {}, "", "0");
  EXPECT_EQ(perf_list_unit(cha, event_of(vendor_event("unc_cha_clockticks", "uncore_cha"))),
            "uncore_cha");
  const Pmu cbox = make_pmu("uncore_cbox_0_0", 13, kCoreFormats, {}, "", "0");
  EXPECT_EQ(perf_list_unit(cbox, event_of(vendor_event("unc_clock.socket", "uncore_cbox_0"))),
            "uncore_cbox_0");
  const Pmu core = make_pmu("cpu_core", 4, kCoreFormats, {{"slots", "event=0,umask=4\n"}}, "0-3");
  EXPECT_EQ(perf_list_unit(core, event_of(vendor_event("inst_retired.any", ""))), "cpu_core");
  ASSERT_NE(core.find_event("slots"), nullptr);
  EXPECT_EQ(perf_list_unit(core, *core.find_event("slots")), "cpu_core");
}

TEST(PerfListFields, Perf612ScaleUnitsPrintTheirNumberAsPercentG) {
  // perf 6.12 -j on cascadelakex: `6.103515625E-5MB/sec` -> `6.10352E-05MB/sec`,
  // `6000000000ns` -> `6E+09ns`; the others of the x86 tables print as written.
  EXPECT_EQ(perf612_scale_unit("6.103515625E-5MB/sec"), "6.10352E-05MB/sec");
  EXPECT_EQ(perf612_scale_unit("6000000000ns"), "6E+09ns");
  EXPECT_EQ(perf612_scale_unit("64Bytes"), "64Bytes");
  EXPECT_EQ(perf612_scale_unit("7.11E-06Bytes"), "7.11E-06Bytes");
  EXPECT_EQ(perf612_scale_unit("MB"), "MB");
}

TEST(PerfListFields, Perf612TextJoinsWordsAtCommas) {
  // perf 6.12 `perf list` on intel-spr: "... the local socket's L1,L2,or L3 caches" for the JSON
  // text "... the local socket's L1, L2, or L3 caches"; blanks alone stay one blank.
  EXPECT_EQ(perf612_list_text("socket's L1, L2, or L3  caches"), "socket's L1,L2,or L3 caches");
  EXPECT_EQ(perf612_list_text("Spec update: BDM11, BDM55 ,x"), "Spec update: BDM11,BDM55,x");
}

TEST(PerfListFields, SysfsEventsCarryPerfListJsonFields) {
  // perf 6.12 -j on intel-spr: {"Unit": "cpu", "EventName": "ref-cycles", "EventAlias":
  // "cpu/ref-cycles/", "EventType": "Kernel PMU event", "Encoding": "cpu/event=0,umask=0x3/"}.
  const Pmu cpu =
      make_pmu("cpu", 4, kCoreFormats, {{"ref-cycles", "event=0x00,umask=0x03\n"}}, "0-3");
  const Profile perf612 = Profile::perf(PerfRelease::v6_12);
  const Json core = pmu_to_json(cpu, nullptr, {}, perf612)["events"][0];
  EXPECT_EQ(core["Unit"], "cpu");
  EXPECT_EQ(core["EventName"], "ref-cycles");
  EXPECT_EQ(core["EventAlias"], "cpu/ref-cycles/");
  EXPECT_EQ(core["EventType"], "Kernel PMU event");
  EXPECT_EQ(core["Encoding"], "cpu/event=0,umask=0x3/");
  // An uncore PMU's: `PMU/name/`, no alias.
  const Pmu imc = make_pmu("uncore_imc_0", 18, kCoreFormats,
                           {{"cas_count_read", "event=0x05,umask=0xcf\n"}}, "", "0");
  const Json uncore = pmu_to_json(imc, nullptr, {}, perf612)["events"][0];
  EXPECT_EQ(uncore["Unit"], "uncore_imc_0");
  EXPECT_EQ(uncore["EventName"], "uncore_imc_0/cas_count_read/");
  EXPECT_FALSE(uncore.contains("EventAlias"));
  EXPECT_EQ(uncore["Encoding"], "uncore_imc_0/event=0x5,umask=0xcf/");
  // perf 7.3 -j (list_json_fields), and pmucat's semantics with it: a core PMU's event named as a
  // legacy hardware event is not listed, and the Encoding is the events/ file's text.
  EXPECT_FALSE(pmu_to_json(cpu)["events"][0].contains("EventName"));
  EXPECT_EQ(pmu_to_json(imc)["events"][0]["Encoding"], "uncore_imc_0/event=0x05,umask=0xcf/");
}

TEST(PerfListFields, UndescribedJsonEventsAreNamedAsSysfsOnes) {
  // perf 6.12 -j on amd-zen4 (amdzen4): {"Unit": "amd_df", "Topic": "data fabric", "EventName":
  // "amd_df/local_processor_read_data_beats_cs0/", ...} (the JSON has a PublicDescription only)
  // and {"Unit": "cpu", "Topic": "cache", "EventName": "ls_inef_sw_pref.all", "EventAlias":
  // "cpu/ls_inef_sw_pref.all/", ...} (its BriefDescription key is misspelt).
  for (const bool core : {true, false}) {
    const std::string name = core ? "cpu" : "amd_df";
    const Pmu base = core ? make_pmu(name, 4, kCoreFormats, {}, "0-3")
                          : make_pmu(name, 11, kCoreFormats, {}, "", "0");
    auto vendor = std::make_shared<VendorEvent>();
    vendor->name = "some.event";
    vendor->public_description = "Only a public description";
    vendor->rules = PerfRelease::v6_12;
    Event event;
    event.name = vendor->name;
    event.source = EventSource::json;
    event.vendor = std::move(vendor);
    PmuInfo info;
    info.name = name;
    info.attributes = base.attributes();
    info.formats.assign(base.formats().begin(), base.formats().end());
    info.events.push_back(std::move(event));
    const Json json = pmu_to_json(Pmu::from_info(std::move(info)))["events"][0];
    EXPECT_EQ(json["EventName"], core ? "some.event" : "amd_df/some.event/");
    EXPECT_EQ(json.contains("EventAlias"), core);
    if (core) {
      EXPECT_EQ(json["EventAlias"], "cpu/some.event/");
    }
    EXPECT_FALSE(json.contains("BriefDescription"));
    EXPECT_EQ(json["PublicDescription"], "Only a public description");
  }
}

Pmu pmu_with_json_event(PerfRelease rules) {
  const Pmu base = make_pmu("uncore_cha_0", 12, kCoreFormats, {}, "", "0");
  auto vendor = std::make_shared<VendorEvent>();
  vendor->name = "unc_cha_bypass_cha_imc.not_taken";
  vendor->pmu = "uncore_cha";
  vendor->topic = "uncore cache";
  vendor->brief_description = "CHA to iMC Bypass : Not Taken";
  vendor->public_description = "CHA to iMC Bypass : Not Taken : Counts the number of times";
  vendor->has_perf_description = true;
  vendor->rules = rules;
  Event event;
  event.name = vendor->name;
  event.source = EventSource::json;
  event.vendor = std::move(vendor);
  PmuInfo info;
  info.name = "uncore_cha_0";
  info.formats.assign(base.formats().begin(), base.formats().end());
  info.events.push_back(std::move(event));
  return Pmu::from_info(std::move(info));
}

std::string render(const Pmu& pmu, DescriptionKind descriptions) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> sink(std::fopen("/dev/null", "w"), &std::fclose);
  DiagnosticPrinter printer(sink.get(), false, "pmuls");
  EventListing listing;
  listing.descriptions = descriptions;
  listing.columns = 0;
  return render_pmu_events(pmu, listing, printer);
}

TEST(PerfListFields, BriefDescriptionsEndWithTheUnitUnderPerf612Rules) {
  // perf 6.12 `perf list` on intel-spr: `[CHA to iMC Bypass : Not Taken. Unit: uncore_cha]`;
  // with -v the public description, without the suffix.
  const Pmu pmu = pmu_with_json_event(PerfRelease::v6_12);
  EXPECT_NE(render(pmu, DescriptionKind::brief)
                .find("       [CHA to iMC Bypass : Not Taken. Unit: uncore_cha]\n"),
            std::string::npos);
  EXPECT_NE(render(pmu, DescriptionKind::long_form)
                .find("       [CHA to iMC Bypass : Not Taken : Counts the number of times]\n"),
            std::string::npos);
  // A brief that ends in `.` (graniterapids' `... for counting..`, one `.` stripped) gets no
  // second one: perf 6.12 prints `... for counting. Unit: uncore_upi`.
  auto dotted = std::make_shared<VendorEvent>(*pmu.events()[0].vendor);
  dotted->brief_description = "Count Data Flits, for counting..";
  Event dotted_event = pmu.events()[0];
  dotted_event.vendor = dotted;
  PmuInfo info;
  info.name = pmu.name();
  info.formats.assign(pmu.formats().begin(), pmu.formats().end());
  info.events.push_back(std::move(dotted_event));
  EXPECT_NE(render(Pmu::from_info(std::move(info)), DescriptionKind::brief)
                .find("       [Count Data Flits,for counting. Unit: uncore_cha]\n"),
            std::string::npos);
  // 6.1's jevents wrote its own `Unit:` into the description: nothing more is added.
  const std::string text61 = render(pmu_with_json_event(PerfRelease::v6_1), DescriptionKind::brief);
  const std::size_t unit = text61.find("Unit: uncore_cha");
  ASSERT_NE(unit, std::string::npos) << text61;
  EXPECT_EQ(text61.find("Unit:", unit + 1), std::string::npos) << text61;
}

const Profile kPerf73 = Profile::perf(PerfRelease::v7_3);
const Profile kPerf612 = Profile::perf(PerfRelease::v6_12);

// A core PMU `cpu` with one JSON-only event of `vendor`.
Pmu core_pmu_with_json_event(std::shared_ptr<VendorEvent> vendor) {
  const Pmu base = make_pmu("cpu", 4, kCoreFormats, {}, "0-3");
  Event event;
  event.name = vendor->name;
  event.source = EventSource::json;
  event.text = vendor->terms;
  event.vendor = std::move(vendor);
  PmuInfo info;
  info.name = "cpu";
  info.attributes = base.attributes();
  info.formats.assign(base.formats().begin(), base.formats().end());
  info.events.push_back(std::move(event));
  return Pmu::from_info(std::move(info));
}

TEST(PerfListFields, Perf73EncodingIsTheTermsAsItsTablesHoldThem) {
  // perf 7.3 -j on intel-spr: `cpu/event=0xcd,umask=0x1,ldlat=3/` for the sysfs mem-loads
  // (file `event=0xcd,umask=0x1,ldlat=3`; perf 6.12: `ldlat=0x3`), `cpu/event=0x00,umask=0x4/`
  // for slots (6.12: `event=0`), `cpu/event=0xb0,cmask=1,period=1000003,umask=9/` for the JSON
  // arith.div_active (6.12: `period=0xf4243`).
  const Pmu cpu = make_pmu(
      "cpu", 4, kCoreFormats,
      {{"mem-loads", "event=0xcd,umask=0x1,ldlat=3\n"}, {"slots", "event=0x00,umask=0x4\n"}},
      "0-3");
  const Json perf73 = pmu_to_json(cpu, nullptr, {}, kPerf73)["events"];
  EXPECT_EQ(perf73[0]["Encoding"], "cpu/event=0xcd,umask=0x1,ldlat=3/");
  EXPECT_EQ(perf73[1]["Encoding"], "cpu/event=0x00,umask=0x4/");
  const Json perf612 = pmu_to_json(cpu, nullptr, {}, kPerf612)["events"];
  EXPECT_EQ(perf612[0]["Encoding"], "cpu/event=0xcd,umask=0x1,ldlat=0x3/");
  EXPECT_EQ(perf612[1]["Encoding"], "cpu/event=0,umask=0x4/");

  auto vendor = vendor_event("arith.div_active", "");
  vendor->terms = "event=0xb0,cmask=1,period=1000003,umask=9";
  vendor->rules = PerfRelease::v7_3;
  const Pmu json = core_pmu_with_json_event(vendor);
  EXPECT_EQ(perf73_list_encoding("cpu", json.events()[0]),
            "cpu/event=0xb0,cmask=1,period=1000003,umask=9/");
  EXPECT_EQ(pmu_to_json(json, nullptr, {}, kPerf73)["events"][0]["Encoding"],
            "cpu/event=0xb0,cmask=1,period=1000003,umask=9/");
}

TEST(PerfListFields, Perf73LeavesOutAPublicDescriptionThatSaysTheBriefOne) {
  // perf 7.3 -j on intel-spr: uops_executed.cycles_ge_1 (Brief "Cycles where at least 1 uop was
  // executed per-thread", Public the same with a `.`) has no PublicDescription, nor has
  // l1d.hwpf_miss (no PublicDescription in the JSON); perf 6.12 printed the brief text as the
  // public one for both. A public text of its own stays.
  auto same = vendor_event("uops_executed.cycles_ge_1", "");
  same->brief_description = "Cycles where at least 1 uop was executed per-thread";
  same->public_description = "Cycles where at least 1 uop was executed per-thread.";
  same->has_perf_description = true;
  same->rules = PerfRelease::v7_3;
  const Pmu pmu = core_pmu_with_json_event(same);
  const Json perf73 = pmu_to_json(pmu, nullptr, {}, kPerf73)["events"][0];
  EXPECT_EQ(perf73["BriefDescription"], "Cycles where at least 1 uop was executed per-thread");
  EXPECT_FALSE(perf73.contains("PublicDescription"));
  EXPECT_EQ(pmu_to_json(pmu, nullptr, {}, kPerf612)["events"][0]["PublicDescription"],
            "Cycles where at least 1 uop was executed per-thread");

  auto brief_only = std::make_shared<VendorEvent>(*same);
  brief_only->public_description.clear();
  EXPECT_FALSE(
      pmu_to_json(core_pmu_with_json_event(brief_only), nullptr, {}, kPerf73)["events"][0].contains(
          "PublicDescription"));

  auto own = std::make_shared<VendorEvent>(*same);
  own->public_description = "Counts cycles during which at least 1 uop was executed.";
  EXPECT_EQ(pmu_to_json(core_pmu_with_json_event(own), nullptr, {},
                        kPerf73)["events"][0]["PublicDescription"],
            "Counts cycles during which at least 1 uop was executed");
}

TEST(PerfListFields, Perf73ListsNoCoreSysfsEventNamedAsALegacyOne) {
  // perf 7.3 -j on intel-spr, amd-zen4 and intel-adl-hybrid lists none of the core PMUs' sysfs
  // `instructions`, `cpu-cycles`, `branch-misses`, `ref-cycles`, ... (its tables' legacy events
  // of those names), and lists `cycles-t`; perf 6.12 lists both. pmuls keeps the event with its
  // own fields, without perf's.
  const Pmu cpu = make_pmu("cpu", 4, kCoreFormats,
                           {{"cycles-t", "event=0x3c,in_tx=1\n"},
                            {"instructions", "event=0xc0\n"},
                            {"Ref-Cycles", "event=0x00,umask=0x03\n"}},
                           "0-3");
  const Json perf73 = pmu_to_json(cpu, nullptr, {}, kPerf73)["events"];
  ASSERT_EQ(perf73.size(), 3U);
  for (const Json& event : perf73) {
    EXPECT_EQ(event.contains("EventName"), event["name"] == "cycles-t") << event.dump();
    EXPECT_EQ(event.contains("Encoding"), event["name"] == "cycles-t") << event.dump();
  }
  const Json perf612 = pmu_to_json(cpu, nullptr, {}, kPerf612);
  for (const Json& event : perf612["events"]) {
    EXPECT_TRUE(event.contains("EventName")) << event.dump();
  }
  ASSERT_NE(cpu.find_event("instructions"), nullptr);
  ASSERT_NE(cpu.find_event("cycles-t"), nullptr);
  EXPECT_TRUE(perf73_list_hides(cpu, *cpu.find_event("instructions")));
  EXPECT_FALSE(perf73_list_hides(cpu, *cpu.find_event("cycles-t")));
  // Not measured on other PMUs: an uncore PMU's namesake is listed.
  const Pmu imc =
      make_pmu("uncore_imc_0", 18, kCoreFormats, {{"instructions", "event=0x1\n"}}, "", "0");
  EXPECT_FALSE(perf73_list_hides(imc, imc.events()[0]));
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE
