// Internal unit test of cli/pmuls/ and cli/pmuencode/: the tools' views of in-memory PMUs.
// The pmuls views and pmuencode's pieces on in-memory PMUs.
#include <fmt/core.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>

#include "json_schema.h"
#include "pmucat/encode.h"
#include "pmuencode/decode_words.h"
#include "pmuencode/encode_specs.h"
#include "pmuencode/output.h"
#include "pmuls/catalog_json.h"
#include "pmuls/event_view.h"
#include "pmuls/register_map.h"
#include "test_pmus.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

using testing::amd_cpu_pmu;
using testing::hv_24x7_pmu;
using testing::make_pmu;

nlohmann::json load_schema(const std::string& name) {
  std::ifstream file(std::string(PMUCAT_SOURCE_DIR) + "/docs/schema/" + name + ".schema.json");
  return nlohmann::json::parse(file);
}

std::string line_starting(const std::string& text, const std::string& prefix) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    if (line.rfind(prefix, 0) == 0) return line;
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return {};
}

TEST(RegisterMap, SplitFieldIsDrawnInBothPlaces) {
  const Pmu pmu = amd_cpu_pmu();
  const std::string text = render_formats(pmu.formats(), Palette{false});
  EXPECT_EQ(line_starting(text, "  config  "),
            "  config  .... .... .... .... .... .... .... eeee cccc cccc i... .d.. uuuu uuuu "
            "eeee eeee")
      << text;
  EXPECT_NE(text.find("config:0-7,32-35"), std::string::npos) << text;
  EXPECT_EQ(text.find('#'), std::string::npos) << "no overlaps here:\n" << text;
}

TEST(RegisterMap, OverlapsAreMarkedAndListed) {
  const Pmu pmu = hv_24x7_pmu();
  const std::string text = render_formats(pmu.formats(), Palette{false});
  EXPECT_EQ(line_starting(text, "  config  "),
            "  config   ffff ffff ffff ffff ffff ffff ffff ffff #### #### #### #### .... .... "
            ".... dddd")
      << text;
  EXPECT_NE(text.find("config:16-31"), std::string::npos);
  EXPECT_NE(text.find("chip, core"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "  config1 "), "") << text;
}

TEST(RegisterMap, ColourHighlightsOverlapsOnlyWhenOn) {
  const Pmu pmu = hv_24x7_pmu();
  EXPECT_NE(render_formats(pmu.formats(), Palette{true}).find("\x1b[1;31m#"), std::string::npos);
  EXPECT_EQ(render_formats(pmu.formats(), Palette{false}).find('\x1b'), std::string::npos);
}

TEST(RegisterMap, NoFormats) {
  EXPECT_EQ(render_formats({}, Palette{false}), "  (no formats)\n");
}

RC_GTEST_PROP(RegisterMap, KeysAreUniqueAndAlphanumeric, ()) {
  const auto count = *rc::gen::inRange<std::size_t>(0, 62);
  std::vector<Format> formats;
  for (std::size_t i = 0; i < count; ++i) {
    Format format;
    format.name = *rc::gen::container<std::string>(rc::gen::inRange('a', 'z'));
    format.spec.word = *rc::gen::inRange(0u, 4u);
    format.spec.mask = *rc::gen::arbitrary<std::uint64_t>();
    formats.push_back(format);
  }
  const std::vector<std::string> keys = assign_format_keys(formats);
  RC_ASSERT(keys.size() == formats.size());
  std::set<std::string> seen;
  for (const std::string& key : keys) {
    RC_ASSERT(key.size() == 1u);
    RC_ASSERT(std::isalnum(static_cast<unsigned char>(key[0])) != 0);
    RC_ASSERT(seen.insert(key).second);
  }
}

// Past 62 formats (the alphabet and digits) keys stay distinct, of one width, and never a map
// mark such as '?'.
RC_GTEST_PROP(RegisterMap, KeysStayDistinctPastTheAlphabet, ()) {
  const auto count = *rc::gen::inRange<std::size_t>(63, 400);
  std::vector<Format> formats(count);
  for (std::size_t i = 0; i < count; ++i) {
    formats[i].name = fmt::format("f{}", i);
    formats[i].spec.word = *rc::gen::inRange(0u, 4u);
    formats[i].spec.mask = *rc::gen::arbitrary<std::uint64_t>();
  }
  const std::vector<std::string> keys = assign_format_keys(formats);
  RC_ASSERT(keys.size() == formats.size());
  std::set<std::string> seen;
  for (const std::string& key : keys) {
    RC_ASSERT(key.size() == keys.front().size());
    RC_ASSERT(key.find_first_of(".# ?") == std::string::npos);
    RC_ASSERT(seen.insert(key).second);
  }
}

TEST(RegisterMap, SeventyFormatsAreDrawnWithDistinctKeys) {
  std::vector<testing::NamedText> files;
  for (int bit = 0; bit < 64; ++bit)
    files.emplace_back(fmt::format("b{}", bit), fmt::format("config:{}", bit));
  for (int bit = 0; bit < 6; ++bit)
    files.emplace_back(fmt::format("x{}", bit), fmt::format("config1:{}", bit));
  const Pmu pmu = make_pmu("wide", 30, files, {});
  const std::string text = render_formats(pmu.formats(), Palette{false});
  EXPECT_EQ(text.find('?'), std::string::npos) << text;
  // Every bit of config has its own owner: 64 distinct keys on the map line.
  const std::string map = line_starting(text, "  config  ");
  std::set<char> drawn(map.begin() + 10, map.end());
  drawn.erase(' ');
  EXPECT_EQ(drawn.size(), 64u) << map;
  // The table lists formats naturally: b2 before b10.
  EXPECT_LT(text.find(" b2 "), text.find(" b10 ")) << text;
}

// Bits past the word (`config:65`) are shown as ignored, never folded into the word's last bit.
TEST(RegisterMap, BitsBeyondTheWordAreShownAsIgnored) {
  const Pmu pmu = make_pmu("far", 31, {{"past", "config:65"}, {"tail", "config:60-70"}}, {});
  const std::string text = render_formats(pmu.formats(), Palette{false});
  EXPECT_EQ(text.find("config:64"), std::string::npos) << text;
  EXPECT_NE(text.find("config: no bits (65 beyond bit 63, ignored)"), std::string::npos) << text;
  EXPECT_NE(text.find("config:60-63 (64-70 beyond bit 63, ignored)"), std::string::npos) << text;
}

TEST(EventView, ParametersAreShownAndEncodedAsZero) {
  const Pmu pmu = hv_24x7_pmu();
  const EventView view = view_event(pmu, pmu.events().front());
  EXPECT_EQ(view.perf_name, "hv_24x7/PM_PB_CYC,chip=?/");
  EXPECT_EQ(view.params, std::vector<std::string>{"chip"});
  ASSERT_TRUE(view.config.has_value()) << (view.error ? view.error->message : "");
  EXPECT_EQ((*view.config)[0], 0x8000000001ULL);
  EXPECT_EQ((*view.config)[1], 0u);
}

TEST(EventView, SplitFieldEncoding) {
  const Pmu pmu =
      make_pmu("cpu", 4, {{"event", "config:0-7,32-35\n"}}, {{"big", "event=0x423\n"}}, "0-3");
  const EventView view = view_event(pmu, pmu.events().front());
  ASSERT_TRUE(view.config.has_value());
  EXPECT_EQ((*view.config)[0], 0x400000023ULL);
  EXPECT_EQ(encoding_text(*view.config), "config=0x400000023");
  EXPECT_EQ(encoding_text({0x1, 0, 0x5, 0}), "config=0x1 config2=0x5");
}

TEST(EventView, AnEventThatCannotBeEncodedCarriesTheReason) {
  const Pmu pmu = make_pmu("cpu", 4, {{"event", "config:0-7\n"}}, {{"bad", "event=0x423\n"}});
  const EventView view = view_event(pmu, pmu.events().front());
  EXPECT_FALSE(view.config.has_value());
  ASSERT_TRUE(view.error.has_value());
  EXPECT_EQ(view.error->range.file, "cpu/events/bad");
}

TEST(CatalogJson, MatchesTheSchemaAndKeepsWordsExact) {
  const Pmu pmu = make_pmu("cpu", 4, {{"event", "config:0-7\n"}, {"all", "config1:0-63\n"}},
                           {{"wide", "event=0x1,all=0xffffffffffffffff\n"}}, "0-3");
  const std::vector<Json> pmus = {pmu_to_json(pmu)};
  const Catalog catalog = Catalog::from_pmus({});
  const Json json = catalog_to_json(catalog, pmus);
  const auto parsed = nlohmann::json::parse(json.dump());
  EXPECT_EQ(testing::validate_json(load_schema("pmuls"), parsed), std::vector<std::string>{});
  const auto& event = parsed["pmus"][0]["events"][0];
  EXPECT_EQ(event["config1"].get<std::uint64_t>(), 0xffffffffffffffffULL);
  EXPECT_EQ(event["perf"], "cpu/wide/");
  const auto& format = parsed["pmus"][0]["formats"][0];
  EXPECT_EQ(format["name"], "all");
  EXPECT_EQ(format["bits"].size(), 64u);
  EXPECT_EQ(format["max"].get<std::uint64_t>(), 0xffffffffffffffffULL);
}

Catalog amd_catalog() {
  std::vector<Pmu> pmus;
  pmus.push_back(amd_cpu_pmu());
  pmus.push_back(make_pmu("amd_l3", 11, {{"event", "config:0-7\n"}, {"umask", "config:8-15\n"}},
                          {{"cpu-cycles", "event=0x90\n"}}, "", "0"));
  return Catalog::from_pmus(std::move(pmus));
}

TEST(EncodeSpecs, DesignExampleOnAmd) {
  const Catalog catalog = amd_catalog();
  const std::vector<std::string> specs = {"event=0x423,inv,cmask=0x3"};
  const EncodeResult result = encode_specs(catalog, specs, "", {});
  ASSERT_TRUE(result.errors.empty()) << result.errors.front().message;
  ASSERT_EQ(result.events.size(), 1u);
  EXPECT_EQ(result.events[0].pmu, "cpu");
  EXPECT_EQ(result.events[0].attr.config[0], 0x403800023ULL);
}

TEST(EncodeSpecs, PmuOptionChoosesThePmuForBareTerms) {
  const Catalog catalog = amd_catalog();
  const std::vector<std::string> specs = {"event=0x4,umask=0x1"};
  const EncodeResult result = encode_specs(catalog, specs, "amd_l3", {});
  ASSERT_TRUE(result.errors.empty()) << result.errors.front().message;
  ASSERT_EQ(result.events.size(), 1u);
  EXPECT_EQ(result.events[0].pmu, "amd_l3");
  EXPECT_EQ(result.events[0].attr.type, 11u);
  EXPECT_EQ(result.events[0].attr.config[0], 0x104u);
}

TEST(EncodeSpecs, PmuOptionNarrowsBareEventNames) {
  const Catalog catalog = amd_catalog();
  const std::vector<std::string> specs = {"cpu-cycles"};
  // A built-in name is the core PMU's event (or the built-in encoding) by default...
  const EncodeResult everywhere = encode_specs(catalog, specs, "", {});
  ASSERT_TRUE(everywhere.errors.empty()) << everywhere.errors.front().message;
  ASSERT_EQ(everywhere.events.size(), 1u);
  EXPECT_EQ(everywhere.events[0].pmu, "cpu");
  // ... and the chosen PMU's event of that name with --pmu.
  const EncodeResult narrowed = encode_specs(catalog, specs, "amd_l3", {});
  ASSERT_TRUE(narrowed.errors.empty()) << narrowed.errors.front().message;
  ASSERT_EQ(narrowed.events.size(), 1u);
  EXPECT_EQ(narrowed.events[0].pmu, "amd_l3");
  EXPECT_EQ(narrowed.events[0].attr.config[0], 0x90u);
}

TEST(EncodeSpecs, EventNotOnTheChosenPmuIsALocatedError) {
  const Catalog catalog = amd_catalog();
  const std::vector<std::string> specs = {"ls-dispatch"};
  const EncodeResult result = encode_specs(catalog, specs, "amd_l3", {});
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].id, "event-not-on-pmu");
  EXPECT_EQ(result.errors[0].range.column, 1u);
}

TEST(EncodeSpecs, UnknownPmuOptionSuggestsTheNearest) {
  const Catalog catalog = amd_catalog();
  const std::vector<std::string> specs = {"event=0x1"};
  const EncodeResult result = encode_specs(catalog, specs, "amd_l4", {});
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].hint, "did you mean 'amd_l3'?");
}

TEST(EncodeSpecs, EachRejectedArgumentGivesOneError) {
  const Catalog catalog = amd_catalog();
  const std::vector<std::string> specs = {"cpu/event=0x1/", "cpu/nosuch=1/", "cpu/umask=0x100/"};
  const EncodeResult result = encode_specs(catalog, specs, "", {});
  EXPECT_EQ(result.events.size(), 1u);
  EXPECT_EQ(result.errors.size(), 2u);
}

TEST(DecodeWords, ParsesEachWordInDecimalOrHex) {
  const std::vector<std::string> words = {"config=0x1c3003c", "config2=17",
                                          "config3=0xffffffffffffffff"};
  auto parsed = parse_config_words(words);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(*parsed, (ConfigWords{0x1c3003c, 0, 17, 0xffffffffffffffffULL}));
}

TEST(DecodeWords, ErrorsPointIntoTheArgument) {
  const auto error_of = [](std::string word) {
    const std::vector<std::string> words = {std::move(word)};
    auto parsed = parse_config_words(words);
    EXPECT_FALSE(parsed);
    return parsed ? Diagnostic{} : parsed.error();
  };
  const Diagnostic typo = error_of("confg1=0x1");
  EXPECT_EQ(typo.id, "decode-unknown-word");
  EXPECT_EQ(typo.hint, "did you mean 'config1'?");
  const Diagnostic bad = error_of("config=0xZZ");
  EXPECT_EQ(bad.id, "decode-bad-value");
  EXPECT_EQ(bad.range.column, 8u);
  EXPECT_EQ(error_of("config=0x10000000000000000").id, "decode-value-too-big");
  EXPECT_EQ(error_of("config").id, "decode-missing-value");
  EXPECT_EQ(error_of("config=").id, "decode-bad-value");
  const std::vector<std::string> twice = {"config=1", "config=2"};
  EXPECT_EQ(parse_config_words(twice).error().id, "decode-repeated-word");
}

RC_GTEST_PROP(DecodeWords, AnyWordRoundTrips, (std::uint64_t value, bool hex)) {
  const std::string text =
      hex ? fmt::format("config1={:#x}", value) : fmt::format("config1={}", value);
  const std::vector<std::string> words = {text};
  auto parsed = parse_config_words(words);
  RC_ASSERT(parsed.has_value());
  RC_ASSERT((*parsed)[1] == value);
}

TEST(DecodeOutput, NamesTermsAndMatchingEvents) {
  const Pmu pmu = amd_cpu_pmu();
  const ConfigWords words{0x729, 0, 0, 0};
  const Decoded decoded = decode(pmu, words);
  const std::string text = render_decoded(pmu, words, decoded);
  EXPECT_NE(text.find("cpu/ls-dispatch/"), std::string::npos) << text;
  const auto json = nlohmann::json::parse(decoded_to_json(pmu, words, decoded).dump());
  EXPECT_EQ(testing::validate_json(load_schema("pmuencode-decode"), nlohmann::json::array({json})),
            std::vector<std::string>{});
}

std::vector<EncodedEvent> encode_or_fail(const Catalog& catalog, const std::string& spec) {
  auto encoded = encode(catalog, spec);
  EXPECT_TRUE(encoded) << (encoded ? "" : encoded.error().message);
  return encoded ? *encoded : std::vector<EncodedEvent>{};
}

TEST(EncodeOutput, JsonMatchesTheSchema) {
  const Catalog catalog = amd_catalog();
  const auto events =
      encode_or_fail(catalog, "cpu/event=0x423,inv,cmask=0x3/uk,cpu-cycles,amd_l3/cpu-cycles/");
  ASSERT_EQ(events.size(), 3u);
  auto items = nlohmann::json::array();
  for (const EncodedEvent& event : events)
    items.push_back(nlohmann::json::parse(encoded_to_json(event).dump()));
  EXPECT_EQ(testing::validate_json(load_schema("pmuencode"), items), std::vector<std::string>{});
  EXPECT_EQ(items[0]["config"].get<std::uint64_t>(), 0x403800023ULL);
  EXPECT_EQ(items[0]["type"], 4);
}

TEST(EncodeOutput, PerfStringsOnePerLine) {
  const Catalog catalog = amd_catalog();
  const auto events = encode_or_fail(catalog, "cpu-cycles,amd_l3/cpu-cycles/");
  const std::string text = render_perf_strings(events);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
}

TEST(EncodeOutput, DumpEndsWithTheCanonicalString) {
  const Catalog catalog = amd_catalog();
  const auto events = encode_or_fail(catalog, "cpu/event=0x76/k");
  ASSERT_EQ(events.size(), 1u);
  const std::string text = render_attr_dumps(events);
  EXPECT_EQ(text.rfind("------------------------------------------------------------\n"
                       "perf_event_attr:\n",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("config"), std::string::npos);
  EXPECT_TRUE(text.size() > events[0].perf_string.size() &&
              text.substr(text.size() - events[0].perf_string.size() - 1) ==
                  events[0].perf_string + "\n")
      << text;
}

// The C initializer must compile against the system's <linux/perf_event.h> and hold the values.
TEST(EncodeOutput, CInitializerCompilesAndHoldsTheWords) {
  const Catalog catalog = amd_catalog();
  for (const std::string spec : {"cpu/event=0x423,inv,cmask=0x3/u", "cpu-cycles"}) {
    const auto events = encode_or_fail(catalog, spec);
    const std::string program =
        render_c_initializer(events) +
        "#include <stdio.h>\n"
        "int main(void) {\n"
        "  const struct perf_event_attr *a = (const struct perf_event_attr *)&" +
        std::string(events.size() == 1 ? "attr" : "attrs[0]") +
        ";\n"
        "  printf(\"%u %llx %u\\n\", a->type, (unsigned long long)a->config, a->exclude_kernel);\n"
        "  return 0;\n"
        "}\n";
    const std::string dir = ::testing::TempDir();
    const std::string source = dir + "/pmuencode_c_test.c";
    const std::string binary = dir + "/pmuencode_c_test";
    std::ofstream(source) << program;
    const std::string compile = "cc -std=c11 -Wall -Werror -o " + binary + " " + source;
    ASSERT_EQ(std::system(compile.c_str()), 0) << program;
    std::FILE* pipe = popen(binary.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char line[128] = {};
    ASSERT_NE(std::fgets(line, sizeof line, pipe), nullptr);
    pclose(pipe);
    EXPECT_EQ(std::string(line),
              fmt::format("{} {:x} {}\n", events[0].attr.type, events[0].attr.config[0],
                          events[0].attr.exclude_kernel ? 1 : 0));
  }
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE
