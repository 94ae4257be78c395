// Internal unit test of src/encode/spec_views.h: what one Encoder reuses between calls.
// What the Encoder remembers between calls (the PMU a name is, each PMU's term table, type and
// default config, the aliases it classified, the last modifiers, the scanned event it reuses)
// must never change a result: a spec list encoded round after round on one Encoder gives, every
// time, what encode() gives, successes and errors alike.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "parser/spec_views.h"
#include "pmucat/encode.h"
#include "sample_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

Catalog open_tree(const std::string& tree) {
  auto catalog = Catalog::open(tree);
  if (!catalog) throw std::runtime_error("cannot open " + tree);
  return std::move(*catalog);
}

// encode_one() against encode(): the same attr, PMU and event; several attrs rejected; the same
// diagnostic for an error. Returns a description of the first difference, or "".
std::string difference(const Catalog& catalog, Encoder& encoder, const std::string& spec,
                       const EncodeOptions& options) {
  auto reference = encode(catalog, spec, options);
  Attr attr;
  attr.config[0] = 0xdead;  // must be overwritten
  auto fast = encoder.encode_one(spec, attr);
  if (reference && reference->size() == 1) {
    if (!fast) return "encode_one failed: " + render(fast.error());
    const EncodedEvent& event = reference->front();
    if (!(attr == event.attr)) return "different attr";
    if (fast->pmu == nullptr) {  // a built-in event: encode() names it, no sysfs event is used
      return event.pmu.empty() && fast->event == nullptr ? "" : "built-in event differs";
    }
    const std::string pmu = fast->pmu == nullptr ? std::string() : fast->pmu->name();
    const std::string alias = fast->event == nullptr ? std::string() : fast->event->name;
    if (pmu != event.pmu) return "PMU " + pmu + " instead of " + event.pmu;
    if (alias != event.event) return "event " + alias + " instead of " + event.event;
    return "";
  }
  if (fast) return "encode_one succeeded where encode() did not";
  if (reference) {
    return fast.error().id == "encode-several-attrs" ? "" : "not encode-several-attrs";
  }
  if (fast.error().id == "encode-several-attrs") return "";  // a later instance failed in encode()
  if (!(fast.error() == reference.error())) {
    return "different error:\n" + render(fast.error()) + "\ninstead of\n" +
           render(reference.error());
  }
  return "";
}

std::string pick(const std::vector<std::string>& names) {
  return names[*rc::gen::inRange<std::size_t>(0, names.size())];
}

// A spec on one of the catalog's PMUs, shaped to reach what the Encoder remembers: event
// aliases (also in other letter case, with a user override, with `?` parameters left open),
// format terms with fitting and too-big values, modifiers, special terms, unknown names.
std::string random_spec(const Catalog& catalog) {
  const std::span<const Pmu> pmus = catalog.pmus();
  const Pmu& pmu = pmus[*rc::gen::inRange<std::size_t>(0, pmus.size())];
  std::vector<std::string> events;
  for (const Event& event : pmu.events()) events.push_back(event.name);
  std::vector<std::string> formats;
  for (const Format& format : pmu.formats()) formats.push_back(format.name);
  std::vector<std::string> terms;
  const int shape = *rc::gen::inRange(0, 8);
  if (!events.empty() && shape <= 3) {
    std::string name = pick(events);
    if (shape == 1) {
      for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    terms.push_back(shape == 2 ? "event=" + name : name);
  }
  if (shape == 4 && !events.empty()) {
    const std::string mods = *rc::gen::element<std::string>("", "u", "k", "pp", "uk", "G");
    return mods.empty() ? pick(events) : pick(events) + ":" + mods;
  }
  if (shape == 5) terms.push_back("nosuchterm");
  const auto count = formats.empty() ? 0 : *rc::gen::inRange<std::size_t>(0, 4);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string name = pick(formats);
    switch (*rc::gen::inRange(0, 4)) {
      case 0:
        terms.push_back(name);
        break;
      case 1:
        terms.push_back(fmt::format("{}={:#x}", name, *rc::gen::arbitrary<std::uint64_t>()));
        break;
      default:
        terms.push_back(fmt::format("{}={}", name, *rc::gen::inRange(0, 4)));
        break;
    }
  }
  if (*rc::gen::inRange(0, 5) == 0) {
    terms.push_back(*rc::gen::element<std::string>("period=1000", "config=0x3c", "config1=1",
                                                   "name=x", "call-graph=fp"));
  }
  const std::string mods = *rc::gen::element<std::string>("", "", "u", "k", "pp", "uk", "ppp");
  std::string spec = pmu.name() + "/";
  for (std::size_t i = 0; i < terms.size(); ++i) spec += (i ? "," : "") + terms[i];
  return spec + "/" + mods;
}

void expect_rounds_agree(const Catalog& catalog) {
  const auto count = *rc::gen::inRange<std::size_t>(1, 7);
  std::vector<std::string> specs;
  for (std::size_t i = 0; i < count; ++i) specs.push_back(random_spec(catalog));
  for (const Profile semantics : {Profile::pmucat(), Profile::perf(PerfRelease::v6_1)}) {
    for (const Tool tool : {Tool::record, Tool::stat}) {
      EncodeOptions options;
      options.semantics = semantics;
      options.tool = tool;
      Encoder encoder(catalog, options);
      for (int round = 0; round < 3; ++round) {
        for (const std::string& spec : specs) {
          RC_LOG() << "round " << round << ": " << spec << "\n";
          const std::string problem = difference(catalog, encoder, spec, options);
          RC_ASSERT(problem == "");
        }
      }
    }
  }
}

RC_GTEST_PROP(EncoderReuse, RoundsAgreeWithEncodeOnFixtureTrees, ()) {
  const std::string tree =
      *rc::gen::element<std::string>("fixtures/sysfs/intel-spr", "fixtures/sysfs/amd-zen4",
                                     "fixtures/sysfs/arm-neoverse", "fixtures/sysfs/power9");
  expect_rounds_agree(open_tree(tree));
}

// perf's test PMUs: a hex type (unusable for pmucat, 0 for perf 6.1), config3 formats, `?`
// parameters, odd formats.
RC_GTEST_PROP(EncoderReuse, RoundsAgreeWithEncodeOnSamplePmus, ()) {
  expect_rounds_agree(testing::extended_catalog());
}

TEST(EncoderReuse, RepeatedErrorsAreReportedAlike) {
  const Catalog catalog = open_tree("fixtures/sysfs/intel-spr");
  Encoder encoder(catalog);
  for (int round = 0; round < 3; ++round) {
    for (const char* spec : {"cpu/mem-loads,ldlat=30,ldlat=31/", "cpu/umask=0x100/",
                             "cpu/event=1,event=2/", "cpu/evnt=1/", "cpu/mem-loads,cpu-cycles/",
                             "cpu/mem-loads,ldlat=30/", "cpu/event=0x3c,inv/uu"}) {
      SCOPED_TRACE(spec);
      EXPECT_EQ(difference(catalog, encoder, spec, {}), "");
    }
  }
}

TEST(EncoderReuse, AnUnusableTypeStaysAnErrorAndAUsableOneStaysUsable) {
  const Catalog catalog = testing::extended_catalog();
  for (const Profile semantics : {Profile::pmucat(), Profile::perf(PerfRelease::v6_1)}) {
    EncodeOptions options;
    options.semantics = semantics;
    Encoder encoder(catalog, options);
    for (int round = 0; round < 3; ++round) {
      Attr attr;
      auto result = encoder.encode_one("hextype/event=1/", attr);
      EXPECT_EQ(difference(catalog, encoder, "hextype/event=1/", options), "");
      if (semantics == Profile::perf(PerfRelease::v6_1)) {
        ASSERT_TRUE(result.has_value()) << render(result.error());
        EXPECT_EQ(attr.type, 0u);  // perf 6.1 reads "0x2e" with %u
      } else {
        ASSERT_FALSE(result.has_value());
        EXPECT_EQ(result.error().id, "pmu-no-type");
      }
      EXPECT_EQ(difference(catalog, encoder, "rawpmu/event=1,umask=2/", options), "");
    }
  }
}

TEST(EncoderReuse, AnAliasInAnotherLetterCaseIsTheSameEvent) {
  const Catalog catalog = open_tree("fixtures/sysfs/intel-spr");
  Encoder encoder(catalog);
  Attr lower;
  Attr upper;
  ASSERT_TRUE(encoder.encode_one("cpu/mem-loads,ldlat=30/", lower).has_value());
  auto source = encoder.encode_one("cpu/MEM-LOADS,ldlat=30/", upper);
  ASSERT_TRUE(source.has_value()) << render(source.error());
  EXPECT_EQ(lower, upper);
  EXPECT_EQ(source->event->name, "mem-loads");
}

// The scanner reuses the last scan's event: nothing of it may survive into the next scan.
TEST(EncoderReuse, ScannedEventsKeepNothingFromTheLastScan) {
  using spec_detail::SpecViews;
  const std::vector<std::string> specs = {"cpu/event=0x3c,umask=0x1,inv,cmask=3/ukppp",
                                          "cycles:u",
                                          "cpu/event=1/",
                                          "uncore_imc_0/cas_count_read/k",
                                          "r1a3",
                                          "cpu//",
                                          "cpu/event=1/,cpu/event=2/u",
                                          "power/energy-pkg/"};
  SpecViews reused;
  for (int round = 0; round < 2; ++round) {
    for (const std::string& spec : specs) {
      SCOPED_TRACE(spec);
      SpecViews fresh;
      ASSERT_FALSE(spec_detail::parse_spec_views_full(spec, fresh).has_value());
      ASSERT_FALSE(spec_detail::parse_spec_views(spec, reused).has_value());
      ASSERT_EQ(reused.events.size(), fresh.events.size());
      for (std::size_t i = 0; i < fresh.events.size(); ++i) {
        const spec_detail::EventSpecView& a = reused.events[i];
        const spec_detail::EventSpecView& b = fresh.events[i];
        EXPECT_EQ(a.form, b.form);
        EXPECT_EQ(a.text, b.text);
        EXPECT_EQ(a.offset, b.offset);
        EXPECT_EQ(a.pmu, b.pmu);
        EXPECT_EQ(a.pmu_offset, b.pmu_offset);
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.raw_config, b.raw_config);
        EXPECT_EQ(a.terms_begin, b.terms_begin);
        EXPECT_EQ(a.terms_end, b.terms_end);
        EXPECT_EQ(a.lints_begin, b.lints_begin);
        EXPECT_EQ(a.lints_end, b.lints_end);
        EXPECT_EQ(a.modifiers, b.modifiers);
      }
      EXPECT_EQ(reused.terms, fresh.terms);
      EXPECT_EQ(reused.lints, fresh.lints);
    }
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
