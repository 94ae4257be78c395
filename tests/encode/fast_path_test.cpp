// Encoder::encode_one (the allocation-free fast path) against encode(): same attr, same
// diagnostics, on the fixture trees, for fixed and random specs.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

const std::vector<std::string>& fixture_trees() {
  static const std::vector<std::string> trees = {
      "fixtures/sysfs/intel-spr", "fixtures/sysfs/amd-zen4", "fixtures/sysfs/arm-neoverse",
      "fixtures/sysfs/power9"};
  return trees;
}

Catalog open_tree(const std::string& tree) {
  auto catalog = Catalog::open(tree);
  if (!catalog) throw std::runtime_error("cannot open " + tree);
  return std::move(*catalog);
}

// The fast path must agree with encode(): one attr -> the same attr, PMU and event; several ->
// encode-several-attrs; an error -> the same diagnostic.
void expect_same(const Catalog& catalog, Encoder& encoder, const std::string& spec,
                 const EncodeOptions& options) {
  auto reference = encode(catalog, spec, options);
  Attr attr;
  attr.type = 0xdead;  // must be overwritten
  auto fast = encoder.encode_one(spec, attr);
  if (reference && reference->size() == 1) {
    RC_ASSERT(fast.has_value());
    RC_ASSERT(attr == reference->front().attr);
    const EncodedEvent& event = reference->front();
    if (fast->pmu == nullptr) {  // a built-in event: encode() names it, no sysfs event is used
      RC_ASSERT(event.pmu.empty());
      RC_ASSERT(fast->event == nullptr);
      return;
    }
    RC_ASSERT(fast->pmu->name() == event.pmu);
    RC_ASSERT((fast->event == nullptr ? std::string() : fast->event->name) == event.event);
    return;
  }
  RC_ASSERT(!fast.has_value());
  if (reference) {
    RC_ASSERT(fast.error().id == "encode-several-attrs");
    return;
  }
  if (fast.error().id == "encode-several-attrs") return;  // a later instance failed in encode()
  RC_ASSERT(fast.error() == reference.error());
}

std::string random_modifiers() {
  const std::string letters = "ukhpPGHSDIeW";
  const auto count = *rc::gen::inRange<std::size_t>(0, 4);
  std::string mods;
  for (std::size_t i = 0; i < count; ++i) mods += letters[*rc::gen::inRange<std::size_t>(0, 12)];
  return mods;
}

// A value for a field: mostly fitting, sometimes at or one past its maximum.
std::uint64_t random_value(const Format& format) {
  const std::uint64_t max = format.spec.max_value();
  switch (*rc::gen::inRange(0, 4)) {
    case 0:
      return max;
    case 1:
      return max + 1;  // 0 for a 64-bit field
    default:
      return *rc::gen::arbitrary<std::uint64_t>() & max;
  }
}

std::string random_spec(const Catalog& catalog) {
  const std::span<const Pmu> pmus = catalog.pmus();
  const Pmu& pmu = pmus[*rc::gen::inRange<std::size_t>(0, pmus.size())];
  const std::span<const Format> formats = pmu.formats();
  const std::span<const Event> events = pmu.events();
  std::vector<std::string> terms;
  const int shape = *rc::gen::inRange(0, 7);
  if (!events.empty() && shape <= 2) {
    terms.push_back(events[*rc::gen::inRange<std::size_t>(0, events.size())].name);
  }
  if (shape == 3 && !events.empty()) {
    // A bare event name: every PMU that has it.
    const std::string& name = events[*rc::gen::inRange<std::size_t>(0, events.size())].name;
    const std::string mods = random_modifiers();
    return mods.empty() ? name : name + ":" + mods;
  }
  if (shape == 4) return fmt::format("r{:x}", *rc::gen::arbitrary<std::uint32_t>());
  const auto count = formats.empty() ? 0 : *rc::gen::inRange<std::size_t>(0, 4);
  for (std::size_t i = 0; i < count; ++i) {
    const Format& format = formats[*rc::gen::inRange<std::size_t>(0, formats.size())];
    terms.push_back(*rc::gen::inRange(0, 5) == 0
                        ? format.name
                        : fmt::format("{}={:#x}", format.name, random_value(format)));
  }
  switch (*rc::gen::inRange(0, 8)) {
    case 0:
      terms.push_back(fmt::format("config={:#x}", *rc::gen::arbitrary<std::uint64_t>()));
      break;
    case 1:
      terms.push_back(fmt::format("period={}", *rc::gen::inRange(1, 100000)));
      break;
    case 2:
      terms.push_back("name=x");
      break;
    case 3:
      terms.push_back("bogus=1");
      break;
    case 4:
      terms.push_back("call-graph=dwarf");
      break;
    default:
      break;
  }
  std::string pmu_name = pmu.name();
  // Sometimes the PMU without its instance suffix (several attrs, or a perf 6.1 pattern).
  if (*rc::gen::inRange(0, 4) == 0) {
    const auto underscore = pmu_name.rfind('_');
    if (underscore != std::string::npos) pmu_name.resize(underscore);
  }
  if (shape == 5) return fmt::format("{}", fmt::join(terms, ","));
  std::string spec = pmu_name + "/";
  for (std::size_t i = 0; i < terms.size(); ++i) spec += (i ? "," : "") + terms[i];
  return spec + "/" + random_modifiers();
}

RC_GTEST_PROP(EncoderFastPath, SameAsEncodeOnFixtureTrees, ()) {
  const std::string& tree =
      fixture_trees()[*rc::gen::inRange<std::size_t>(0, fixture_trees().size())];
  const Catalog catalog = open_tree(tree);
  for (const Profile semantics : {Profile::pmucat(), Profile::perf(PerfRelease::v6_1)}) {
    for (const Tool tool : {Tool::record, Tool::stat}) {
      EncodeOptions options;
      options.semantics = semantics;
      options.tool = tool;
      // One encoder for many specs: nothing may leak from one call into the next.
      Encoder encoder(catalog, options);
      for (int i = 0; i < 8; ++i) {
        const std::string spec = random_spec(catalog);
        RC_LOG() << tree << " " << spec << "\n";
        expect_same(catalog, encoder, spec, options);
      }
    }
  }
}

struct Case {
  const char* tree;
  const char* spec;
};

class EncoderFixedSpecs : public ::testing::TestWithParam<Case> {};

TEST_P(EncoderFixedSpecs, SameAsEncode) {
  const Catalog catalog = open_tree(GetParam().tree);
  for (const Profile semantics : {Profile::pmucat(), Profile::perf(PerfRelease::v6_1)}) {
    EncodeOptions options;
    options.semantics = semantics;
    Encoder encoder(catalog, options);
    auto reference = encode(catalog, GetParam().spec, options);
    ASSERT_TRUE(reference.has_value()) << render(reference.error());
    ASSERT_EQ(reference->size(), 1u);
    for (int round = 0; round < 2; ++round) {  // the second call runs on reused buffers
      Attr attr;
      auto fast = encoder.encode_one(GetParam().spec, attr);
      ASSERT_TRUE(fast.has_value()) << render(fast.error());
      EXPECT_EQ(attr, reference->front().attr);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Typical, EncoderFixedSpecs,
    ::testing::Values(Case{"fixtures/sysfs/intel-spr", "cpu/event=0x3c,umask=0x1,inv,cmask=3/u"},
                      Case{"fixtures/sysfs/intel-spr", "cpu/mem-loads,ldlat=30/"},
                      Case{"fixtures/sysfs/intel-spr", "cpu/mem-loads,ldlat=30/pp"},
                      Case{"fixtures/sysfs/intel-spr", "uncore_imc_0/cas_count_read/"},
                      Case{"fixtures/sysfs/intel-spr", "cpu/cpu-cycles/"},
                      Case{"fixtures/sysfs/intel-spr", "cpu/cpu-cycles,period=1000/k"},
                      Case{"fixtures/sysfs/intel-spr", "power/energy-pkg/"},
                      Case{"fixtures/sysfs/intel-spr", "intel_pt//u"},
                      Case{"fixtures/sysfs/intel-spr", "r1a3:u"},
                      Case{"fixtures/sysfs/intel-spr", "event=0x3c,umask=1"},
                      Case{"fixtures/sysfs/intel-spr", "cpu-clock"},
                      Case{"fixtures/sysfs/amd-zen4", "event=0x423,inv,cmask=0x3"}));

TEST(EncoderFastPath, SeveralAttrsAreRejectedClearly) {
  const Catalog catalog = open_tree("fixtures/sysfs/intel-spr");
  Encoder encoder(catalog);
  Attr attr;
  auto instances = encoder.encode_one("uncore_imc/cas_count_read/", attr);
  ASSERT_FALSE(instances.has_value());
  EXPECT_EQ(instances.error().id, "encode-several-attrs");
  EXPECT_NE(instances.error().message.find("stands for 4 attrs"), std::string::npos)
      << instances.error().message;
  auto list = encoder.encode_one("cpu/event=0x3c/,cpu/event=0x3d/", attr);
  ASSERT_FALSE(list.has_value());
  EXPECT_EQ(list.error().id, "encode-several-attrs");
  EXPECT_NE(list.error().message.find("2 events"), std::string::npos) << list.error().message;
  // The encoder is still usable after a rejection.
  auto one = encoder.encode_one("uncore_imc_1/cas_count_read/", attr);
  ASSERT_TRUE(one.has_value()) << render(one.error());
  EXPECT_EQ(one->pmu->name(), "uncore_imc_1");
  EXPECT_EQ(one->event->name, "cas_count_read");
}

TEST(EncoderFastPath, ErrorsAreEncodesErrors) {
  const Catalog catalog = open_tree("fixtures/sysfs/intel-spr");
  Encoder encoder(catalog);
  for (const char* spec : {"cpu/umask=0x100/", "cpu/evnt=1/", "nosuch/event=1/", "cpu/event=1",
                           "cpu/mem-loads,ldlat=30,ldlat=31/", "cycels", ""}) {
    auto reference = encode(catalog, spec);
    ASSERT_FALSE(reference.has_value()) << spec;
    Attr attr;
    auto fast = encoder.encode_one(spec, attr);
    ASSERT_FALSE(fast.has_value()) << spec;
    EXPECT_EQ(fast.error(), reference.error()) << spec;
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
