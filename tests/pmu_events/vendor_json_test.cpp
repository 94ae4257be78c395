// Internal unit test of src/pmu_events (vendor_numbers.h): one vendor JSON file to events, every
// field jevents.py reads, every term rule, descriptions, and bad input (located diagnostics,
// never a throw).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"
#include "pmu_events/vendor_numbers.h"

namespace {

using pmucat::DiagId;
using pmucat::Diagnostic;
using pmucat::VendorEvent;

struct Parsed {
  std::vector<VendorEvent> events;
  std::vector<Diagnostic> diagnostics;
};

Parsed parse(std::string_view text, const std::vector<VendorEvent>& std_events = {},
             pmucat::PerfRelease rules = pmucat::PerfRelease::v6_1) {
  Parsed parsed;
  parsed.events =
      pmucat::parse_vendor_json(text, "t.json", "topic", std_events, rules, parsed.diagnostics);
  return parsed;
}

// The term string of the only event of `[object]`.
std::string terms_of(std::string_view object) {
  const Parsed parsed = parse("[" + std::string(object) + "]");
  EXPECT_TRUE(parsed.diagnostics.empty())
      << (parsed.diagnostics.empty() ? "" : pmucat::render(parsed.diagnostics[0]));
  return parsed.events.size() == 1 ? parsed.events[0].terms : "<no event>";
}

TEST(VendorJsonTerms, EventCodeAndFieldsInJeventsOrder) {
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventCode":"0x3C"})"), "event=0x3c");
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventCode":"60"})"), "event=0x3c");
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventCode":"0"})"), "event=0");
  EXPECT_EQ(terms_of(R"({"EventName":"a"})"), "event=0");
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventCode":"0xB7,0xBB","UMask":"0x1"})"),
            "event=0xb7,umask=0x1");
  EXPECT_EQ(terms_of(R"({"EventName":"a","UMask":"0x01","SampleAfterValue":"100003",
      "Invert":"1","FCMask":"0x2","EdgeDetect":"1","CounterMask":"4","PortMask":"0x3",
      "AnyThread":"1","EventCode":"0x10"})"),
            "event=0x10,any=1,ch_mask=0x3,cmask=4,edge=1,fc_mask=0x2,inv=1,period=100003,"
            "umask=0x01");
  // Only the string "0" is left out: "0x00" is kept as written.
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventCode":"0x1","UMask":"0x00","CounterMask":"0",
      "EdgeDetect":"0","Invert":"0","AnyThread":"0"})"),
            "event=0x1,umask=0x00");
}

TEST(VendorJsonTerms, ExtSelIsDecimalAndShiftedByEight) {
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventCode":"0xC2","ExtSel":"1"})"), "event=0x1c2");
  const Parsed hex = parse(R"([{"EventName":"a","EventCode":"0xC2","ExtSel":"0x1"}])");
  ASSERT_EQ(hex.diagnostics.size(), 1u);
  EXPECT_EQ(hex.diagnostics[0].code, DiagId::vendor_json_field);
  EXPECT_TRUE(hex.events.empty());
}

TEST(VendorJsonTerms, ConfigCodeReplacesEvent) {
  EXPECT_EQ(terms_of(R"({"EventName":"a","ConfigCode":"0x1000","EventCode":"0x3",
      "UMask":"0x2"})"),
            "config=0x1000,umask=0x2");
  EXPECT_EQ(terms_of(R"({"EventName":"a","ConfigCode":"0"})"), "config=0");
  // EventidCode is not a field perf 6.1 reads.
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventidCode":"0x5","EventCode":"0x3"})"), "event=0x3");
}

TEST(VendorJsonTerms, FilterThenMsr) {
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventCode":"0x34","Filter":"filter_opc=0x202",
      "UMask":"0x1"})"),
            "event=0x34,umask=0x1,filter_opc=0x202");
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventCode":"0xcd","MSRIndex":"0x3F6","MSRValue":"0x4",
      "UMask":"0x1"})"),
            "event=0xcd,umask=0x1,ldlat=0x4");
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventCode":"0xb7","MSRIndex":"0x1a6,0x1a7",
      "MSRValue":"0x10001"})"),
            "event=0xb7,offcore_rsp=0x10001");
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventCode":"0xbb","MSRIndex":"0x1A7",
      "MSRValue":"0x1"})"),
            "event=0xbb,offcore_rsp=0x1");
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventCode":"0xc6","MSRIndex":"0x3f7","MSRValue":"0x11",
      "Filter":"x=1"})"),
            "event=0xc6,x=1,frontend=0x11");
  EXPECT_EQ(terms_of(R"({"EventName":"a","EventCode":"0xc6","MSRIndex":"","MSRValue":"0x11"})"),
            "event=0xc6");
  for (const char* bad : {R"({"EventName":"a","MSRIndex":"0x123","MSRValue":"1"})",
                          R"({"EventName":"a","MSRIndex":"0x3F6"})",
                          R"({"EventName":"a","MSRIndex":"zz","MSRValue":"1"})"}) {
    const Parsed parsed = parse("[" + std::string(bad) + "]");
    ASSERT_EQ(parsed.diagnostics.size(), 1u) << bad;
    EXPECT_EQ(parsed.diagnostics[0].code, DiagId::vendor_json_field) << bad;
    EXPECT_TRUE(parsed.events.empty()) << bad;
  }
}

TEST(VendorJsonTerms, PerfFixedNames) {
  EXPECT_EQ(terms_of(R"({"EventName":"INST_RETIRED.ANY","UMask":"0x1","EventCode":"0x0"})"),
            "event=0xc0,period=2000003");
  EXPECT_EQ(terms_of(R"({"EventName":"inst_retired.any_p","EventCode":"0xc0"})"),
            "event=0xc0,period=2000003");
  EXPECT_EQ(terms_of(R"({"EventName":"CPU_CLK_UNHALTED.REF","UMask":"0x3"})"),
            "event=0x0,umask=0x03,period=2000003");
  EXPECT_EQ(terms_of(R"({"EventName":"CPU_CLK_UNHALTED.THREAD"})"), "event=0x3c,period=2000003");
  EXPECT_EQ(terms_of(R"({"EventName":"CPU_CLK_UNHALTED.CORE"})"), "event=0x3c,period=2000003");
  EXPECT_EQ(terms_of(R"({"EventName":"CPU_CLK_UNHALTED.THREAD_ANY"})"),
            "event=0x3c,any=1,period=2000003");
  EXPECT_EQ(terms_of(R"({"EventName":"CPU_CLK_UNHALTED.THREAD_P","EventCode":"0x3c"})"),
            "event=0x3c");
}

TEST(VendorJsonFields, EveryFieldKept) {
  const Parsed parsed = parse(R"([{
    "EventName": "UNC_M_CAS_COUNT.RD", "Unit": "iMC", "EventCode": "0x4", "UMask": "0x3",
    "BriefDescription": "Reads.", "PublicDescription": "All DRAM reads.", "ScaleUnit": "64Bytes",
    "PerPkg": "1", "Deprecated": "1", "Errata": "SPR1", "PEBS": "0", "Data_LA": "1",
    "Counter": "0,1,2,3", "CounterMask": "0", "Compat": "v1", "ArchStdEvent": ""}])");
  ASSERT_TRUE(parsed.diagnostics.empty());
  ASSERT_EQ(parsed.events.size(), 1u);
  const VendorEvent& e = parsed.events[0];
  EXPECT_EQ(e.name, "unc_m_cas_count.rd");
  EXPECT_EQ(e.pmu, "uncore_imc");
  EXPECT_EQ(e.unit, "iMC");
  EXPECT_EQ(e.terms, "event=0x4,umask=0x3");
  EXPECT_EQ(e.topic, "topic");
  EXPECT_EQ(e.brief_description, "Reads.");
  EXPECT_EQ(e.public_description, "All DRAM reads.");
  EXPECT_EQ(e.scale_unit, "64Bytes");
  EXPECT_TRUE(e.per_pkg);
  EXPECT_TRUE(e.deprecated);
  EXPECT_EQ(e.errata, "SPR1");
  EXPECT_EQ(e.pebs, "0");
  EXPECT_TRUE(e.data_la);
  EXPECT_EQ(e.counter, "0,1,2,3");
  EXPECT_EQ(e.counter_mask, "0");
  EXPECT_EQ(e.compat, "v1");
  EXPECT_TRUE(e.has_perf_description);
  EXPECT_EQ(e.location.file, "t.json");
  EXPECT_EQ(e.location.line, 1u);
  EXPECT_EQ(e.location.column, 2u);
}

TEST(VendorJsonFields, PerPkgReadAsScanfDoes) {
  for (const auto& [text, expected] : std::vector<std::pair<std::string, bool>>{{"1", true},
                                                                                {" 1", true},
                                                                                {"01", true},
                                                                                {"1x", true},
                                                                                {"0", false},
                                                                                {"2", false},
                                                                                {"", false},
                                                                                {"x", false},
                                                                                {"-1", false}}) {
    EXPECT_EQ(pmucat::pmu_events::scanf_int_is_one(text), expected) << text;
  }
}

TEST(VendorJsonFields, DeprecatedIsAnyNonEmptyString) {
  // perf 6.1 keeps the string and tests it for NULL: "0" is deprecated too.
  const Parsed parsed = parse(R"([{"EventName":"a","Deprecated":"0"},
      {"EventName":"b","Deprecated":""},{"EventName":"c"}])");
  ASSERT_EQ(parsed.events.size(), 3u);
  EXPECT_TRUE(parsed.events[0].deprecated);
  EXPECT_FALSE(parsed.events[1].deprecated);
  EXPECT_FALSE(parsed.events[2].deprecated);
}

TEST(VendorJsonFields, UnitToPmuTable) {
  const std::vector<std::pair<std::string, std::string>> cases{{"CBO", "uncore_cbox"},
                                                               {"QPI LL", "uncore_qpi"},
                                                               {"SBO", "uncore_sbox"},
                                                               {"iMPH-U", "uncore_arb"},
                                                               {"CPU-M-CF", "cpum_cf"},
                                                               {"CPU-M-SF", "cpum_sf"},
                                                               {"PAI-CRYPTO", "pai_crypto"},
                                                               {"UPI LL", "uncore_upi"},
                                                               {"hisi_sicl,cpa", "hisi_sicl,cpa"},
                                                               {"hisi_sccl,ddrc", "hisi_sccl,ddrc"},
                                                               {"hisi_sccl,hha", "hisi_sccl,hha"},
                                                               {"hisi_sccl,l3c", "hisi_sccl,l3c"},
                                                               {"imx8_ddr", "imx8_ddr"},
                                                               {"L3PMC", "amd_l3"},
                                                               {"DFPMC", "amd_df"},
                                                               {"cpu_core", "cpu_core"},
                                                               {"cpu_atom", "cpu_atom"},
                                                               {"CHA", "uncore_cha"},
                                                               {"cbo", "uncore_cbo"},
                                                               {"iMC", "uncore_imc"},
                                                               {"", ""}};
  for (const auto& [unit, pmu] : cases) {
    const Parsed parsed = parse(R"([{"EventName":"a","Unit":")" + unit + R"("}])");
    ASSERT_EQ(parsed.events.size(), 1u) << unit;
    EXPECT_EQ(parsed.events[0].pmu, pmu) << unit;
  }
}

TEST(VendorJsonFields, MetricsAndNamelessObjectsAreNotEvents) {
  const Parsed parsed = parse(R"([{"MetricName":"IPC","MetricExpr":"a / b","PerPkg":1},
      {"EventName":"","EventCode":"0x1"},{"EventName":"real"}])");
  EXPECT_TRUE(parsed.diagnostics.empty());
  ASSERT_EQ(parsed.events.size(), 1u);
  EXPECT_EQ(parsed.events[0].name, "real");
}

TEST(VendorJsonDescriptions, DecoratedAsPerfList) {
  const Parsed parsed = parse(R"([
    {"EventName":"a","BriefDescription":"Loads.  ","PEBS":"2","Data_LA":"1"},
    {"EventName":"b","BriefDescription":"Branches. ","PublicDescription":"All branches.",
     "PEBS":"1","Errata":"SKL091"},
    {"EventName":"c","BriefDescription":"Already (Precise Event).","PEBS":"1"},
    {"EventName":"d","BriefDescription":"TOR inserts","Unit":"CHA"},
    {"EventName":"e","Unit":"CHA","PEBS":"1","Errata":"X"},
    {"EventName":"f","BriefDescription":"Ends with dot space. ","Unit":"CHA"},
    {"EventName":"g","PublicDescription":"Public only.","PEBS":"0","Data_LA":"1","Errata":"E"},
    {"EventName":"h"}])");
  ASSERT_EQ(parsed.events.size(), 8u);
  const auto& e = parsed.events;
  EXPECT_EQ(pmucat::perf_brief_description(e[0]),
            "Loads  Supports address when precise (Must be precise)");
  EXPECT_EQ(pmucat::perf_public_description(e[0]), pmucat::perf_brief_description(e[0]));
  EXPECT_EQ(pmucat::perf_brief_description(e[1]), "Branches  Spec update: SKL091 (Precise event)");
  EXPECT_EQ(pmucat::perf_public_description(e[1]),
            "All branches  Spec update: SKL091 (Precise event)");
  EXPECT_EQ(pmucat::perf_brief_description(e[2]), "Already (Precise Event)");
  EXPECT_EQ(pmucat::perf_brief_description(e[3]), "TOR inserts. Unit: uncore_cha ");
  EXPECT_EQ(pmucat::perf_public_description(e[3]), "TOR inserts. Unit: uncore_cha ");
  EXPECT_EQ(pmucat::perf_brief_description(e[4]), "Unit: uncore_cha ");
  EXPECT_EQ(pmucat::perf_brief_description(e[5]), "Ends with dot space. Unit: uncore_cha ");
  // Extras join only a description that exists; the precise hint needs a brief one.
  EXPECT_EQ(pmucat::perf_brief_description(e[6]), "");
  EXPECT_EQ(pmucat::perf_public_description(e[6]),
            "Public only  Supports address when precise.  Spec update: E");
  EXPECT_EQ(pmucat::perf_brief_description(e[7]), "");
  EXPECT_EQ(pmucat::perf_public_description(e[7]), "");
  EXPECT_TRUE(e[3].has_perf_description);
  EXPECT_TRUE(e[4].has_perf_description);
  EXPECT_FALSE(e[6].has_perf_description);
  EXPECT_FALSE(e[7].has_perf_description);
}

TEST(VendorJsonStdEvents, CopiesTermsAndEmptyFields) {
  const Parsed standard = parse(R"([
    {"EventName":"L1D_CACHE_REFILL","EventCode":"0x03","BriefDescription":"L1D refill.",
     "PublicDescription":"Level 1 data cache refill","ScaleUnit":"1x","PerPkg":"1"},
    {"EventName":"INST_RETIRED","EventCode":"0x08","BriefDescription":"Instructions"}])");
  ASSERT_EQ(standard.events.size(), 2u);
  const Parsed parsed = parse(R"([
    {"ArchStdEvent":"l1d_cache_refill"},
    {"ArchStdEvent":"L1D_CACHE_REFILL","EventName":"my_refill","EventCode":"0x99",
     "BriefDescription":"Mine","PerPkg":"0"},
    {"ArchStdEvent":"inst_retired","PublicDescription":"Own public"},
    {"ArchStdEvent":"NOPE","EventName":"kept","EventCode":"0x5"},
    {"ArchStdEvent":"NOPE"}])",
                              standard.events);
  ASSERT_EQ(parsed.events.size(), 4u);
  const auto& e = parsed.events;
  EXPECT_EQ(e[0].name, "l1d_cache_refill");
  EXPECT_EQ(e[0].terms, "event=0x3");
  EXPECT_EQ(pmucat::perf_brief_description(e[0]), "L1D refill");
  EXPECT_EQ(pmucat::perf_public_description(e[0]), "Level 1 data cache refill");
  EXPECT_EQ(e[0].scale_unit, "1x");
  EXPECT_TRUE(e[0].per_pkg);
  EXPECT_EQ(e[1].name, "my_refill");
  EXPECT_EQ(e[1].terms, "event=0x3");  // the standard event's terms win over EventCode
  EXPECT_EQ(pmucat::perf_brief_description(e[1]), "Mine");
  EXPECT_EQ(pmucat::perf_public_description(e[1]), "Level 1 data cache refill");
  EXPECT_FALSE(e[1].per_pkg);  // "0" is a value of its own: not copied
  EXPECT_EQ(pmucat::perf_brief_description(e[2]), "Instructions");
  EXPECT_EQ(pmucat::perf_public_description(e[2]), "Own public");
  EXPECT_EQ(e[3].terms, "event=0x5");
  ASSERT_EQ(parsed.diagnostics.size(), 2u);
  EXPECT_EQ(parsed.diagnostics[0].code, DiagId::vendor_std_event_unknown);
  EXPECT_EQ(parsed.diagnostics[0].severity, pmucat::Severity::warning);
}

TEST(VendorJsonErrors, MalformedJsonIsLocated) {
  std::vector<Diagnostic> diagnostics;
  const auto events =
      pmucat::parse_vendor_json("[\n  {\"EventName\": \"a\",\n   \"X\": 0x12}\n]", "dir/bad.json",
                                "t", {}, pmucat::PerfRelease::v6_1, diagnostics);
  EXPECT_TRUE(events.empty());
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].code, DiagId::vendor_json_syntax);
  EXPECT_EQ(diagnostics[0].range.file, "dir/bad.json");
  EXPECT_EQ(diagnostics[0].range.line, 3u);
  EXPECT_EQ(diagnostics[0].range.column, 10u);
  EXPECT_EQ(pmucat::render(diagnostics[0]).rfind("dir/bad.json:3:10: error: ", 0), 0u)
      << pmucat::render(diagnostics[0]);
}

TEST(VendorJsonErrors, NotAnArrayOrNotObjects) {
  for (const char* text : {"{\"EventName\":\"a\"}", "42", "\"x\"", "null"}) {
    const Parsed parsed = parse(text);
    EXPECT_TRUE(parsed.events.empty()) << text;
    ASSERT_EQ(parsed.diagnostics.size(), 1u) << text;
    EXPECT_EQ(parsed.diagnostics[0].code, DiagId::vendor_json_syntax) << text;
  }
  const Parsed mixed = parse(R"([1, "x", {"EventName":"ok"}, [], null])");
  ASSERT_EQ(mixed.events.size(), 1u);
  EXPECT_EQ(mixed.events[0].name, "ok");
  EXPECT_EQ(mixed.diagnostics.size(), 4u);
}

TEST(VendorJsonErrors, WrongFieldTypesSkipTheEventAtItsObject) {
  const Parsed parsed = parse(
      "[{\"EventName\":\"ok\"},\n {\"EventName\":\"bad\",\"UMask\":1},\n"
      " {\"EventName\":\"bad2\",\"EventCode\":\"0xzz\"},\n"
      " {\"EventName\":7},\n {\"EventName\":\"n\",\"Errata\":null}]");
  ASSERT_EQ(parsed.events.size(), 1u);
  ASSERT_EQ(parsed.diagnostics.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(parsed.diagnostics[i].code, DiagId::vendor_json_field);
    EXPECT_EQ(parsed.diagnostics[i].range.line, i + 2);
    EXPECT_EQ(parsed.diagnostics[i].range.column, 2u);
  }
  EXPECT_NE(parsed.diagnostics[0].message.find("'UMask'"), std::string::npos);
}

TEST(VendorJsonErrors, DeepNestingAndStringsWithBraces) {
  const Parsed deep = parse(std::string(100000, '['));
  ASSERT_EQ(deep.diagnostics.size(), 1u);
  EXPECT_EQ(deep.diagnostics[0].code, DiagId::vendor_json_syntax);
  // Braces inside strings do not move the located objects.
  const Parsed parsed = parse("[{\"EventName\":\"a{[\\\"\"},\n{\"EventName\":\"b\",\"UMask\":1}]");
  ASSERT_EQ(parsed.diagnostics.size(), 1u);
  EXPECT_EQ(parsed.diagnostics[0].range.line, 2u);
  EXPECT_EQ(parsed.diagnostics[0].range.column, 1u);
}

TEST(VendorNumbers, PythonIntBaseZero) {
  using pmucat::pmu_events::parse_python_int_auto;
  EXPECT_EQ(parse_python_int_auto("0x3C"), 0x3cu);
  EXPECT_EQ(parse_python_int_auto("0X3c"), 0x3cu);
  EXPECT_EQ(parse_python_int_auto(" 12 "), 12u);
  EXPECT_EQ(parse_python_int_auto("0o17"), 15u);
  EXPECT_EQ(parse_python_int_auto("0b101"), 5u);
  EXPECT_EQ(parse_python_int_auto("0x_1f"), 0x1fu);
  EXPECT_EQ(parse_python_int_auto("1_000"), 1000u);
  EXPECT_EQ(parse_python_int_auto("00"), 0u);
  EXPECT_EQ(parse_python_int_auto("-0"), 0u);
  EXPECT_EQ(parse_python_int_auto("0xffffffffffffffff"), UINT64_MAX);
  for (const char* bad :
       {"", "012", "0x", "1__0", "_1", "1_", "-1", "0x1g", "0x10000000000000000", "1.0", "0x 1"}) {
    EXPECT_FALSE(parse_python_int_auto(bad).has_value()) << bad;
  }
  EXPECT_EQ(pmucat::pmu_events::parse_python_int_decimal("007"), 7u);
  EXPECT_FALSE(pmucat::pmu_events::parse_python_int_decimal("0x1").has_value());
  EXPECT_EQ(pmucat::pmu_events::hex_like_printf(0), "0");
  EXPECT_EQ(pmucat::pmu_events::hex_like_printf(0xC0), "0xc0");
}

}  // namespace
