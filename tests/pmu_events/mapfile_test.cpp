// Internal unit test of src/pmu_events (cpuid_prefilter.h, host identifiers): mapfile.csv rows and
// perf's CPU identifier rules (x86 stepping, whole match elsewhere).
#include <gtest/gtest.h>
#include <regex.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pmu_events/cpuid_prefilter.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"
#include "support/scratch_dir.h"

namespace {

using pmucat::CpuidRules;
using pmucat::DiagId;

const std::filesystem::path kArch = PMUCAT_SOURCE_DIR "/tests/pmu_events/data/arch";

TEST(Mapfile, SkipsFirstRowCommentsAndBlankLines) {
  const pmucat::Mapfile mapfile = pmucat::parse_mapfile(
      "Family-model,Version,Filename,EventType\n#comment,1,x,core\n\nA-1,v1,dir/a,core\r\n"
      "B-2,v2,b\n",
      "m.csv", "x86");
  ASSERT_EQ(mapfile.rows.size(), 2u);
  EXPECT_EQ(mapfile.rows[0].cpuid, "A-1");
  EXPECT_EQ(mapfile.rows[0].version, "v1");
  EXPECT_EQ(mapfile.rows[0].directory, "dir/a");
  EXPECT_EQ(mapfile.rows[0].type, "core");
  EXPECT_EQ(mapfile.rows[0].line, 4u);
  EXPECT_EQ(mapfile.rows[1].type, "");
  EXPECT_TRUE(mapfile.diagnostics.empty());
}

TEST(Mapfile, FirstRowIsSkippedEvenWhenAComment) {
  // arm64's mapfile starts with comments and comments out its header: the first data row counts.
  const pmucat::Mapfile mapfile = pmucat::parse_mapfile(
      "# Format:\n#Family-model,Version\n0x41,v1,arm/a53,core\n", "m.csv", "arm64");
  ASSERT_EQ(mapfile.rows.size(), 1u);
  EXPECT_EQ(mapfile.rows[0].directory, "arm/a53");
}

TEST(Mapfile, BadRowsAndRegexesAreLocated) {
  const pmucat::Mapfile mapfile = pmucat::parse_mapfile(
      "header\nonly,two\nGenuineIntel-6-(,v1,bad,core\nGenuineIntel-6-55,v1,good,core\n", "m.csv",
      "x86");
  ASSERT_EQ(mapfile.diagnostics.size(), 2u);
  EXPECT_EQ(mapfile.diagnostics[0].code, DiagId::mapfile_syntax);
  EXPECT_EQ(mapfile.diagnostics[0].range.line, 2u);
  EXPECT_EQ(mapfile.diagnostics[1].code, DiagId::mapfile_regex);
  EXPECT_EQ(mapfile.diagnostics[1].range.line, 3u);
  EXPECT_EQ(mapfile.diagnostics[1].range.column, 1u);
  // The bad row stays (perf keeps it) but never matches.
  ASSERT_EQ(mapfile.rows.size(), 2u);
  const pmucat::MapfileRow* row = pmucat::find_mapfile_row(mapfile, "GenuineIntel-6-55-4");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->directory, "good");
}

TEST(CpuidRules, X86StepIsIgnoredUnlessTheRowNamesOne) {
  EXPECT_EQ(pmucat::cpuid_rules_for_arch("x86"), CpuidRules::x86);
  EXPECT_EQ(pmucat::cpuid_rules_for_arch("arm64"), CpuidRules::whole);
  const auto x86 = CpuidRules::x86;
  EXPECT_TRUE(pmucat::cpuid_matches("GenuineIntel-6-8F", "GenuineIntel-6-8F-8", x86));
  EXPECT_TRUE(pmucat::cpuid_matches("GenuineIntel-6-(8F|CF)", "GenuineIntel-6-CF-2", x86));
  EXPECT_TRUE(pmucat::cpuid_matches("GenuineIntel-6-8F", "GenuineIntel-6-8F", x86));
  EXPECT_FALSE(pmucat::cpuid_matches("GenuineIntel-6-8F", "GenuineIntel-6-8F0-8", x86));
  EXPECT_FALSE(pmucat::cpuid_matches("GenuineIntel-6-8", "GenuineIntel-6-8F-8", x86));
  // A row with a stepping needs an identifier with one, and compares all of it.
  EXPECT_TRUE(pmucat::cpuid_matches("GenuineIntel-6-55-[01234]", "GenuineIntel-6-55-4", x86));
  EXPECT_FALSE(pmucat::cpuid_matches("GenuineIntel-6-55-[01234]", "GenuineIntel-6-55-5", x86));
  EXPECT_FALSE(pmucat::cpuid_matches("GenuineIntel-6-55-[01234]", "GenuineIntel-6-55", x86));
  // The regex searches the whole identifier: a match running into the stepping is too long.
  EXPECT_FALSE(pmucat::cpuid_matches("GenuineIntel-6-8F.*", "GenuineIntel-6-8F-8", x86));
  // perf compares lengths only, not where the match starts.
  EXPECT_TRUE(pmucat::cpuid_matches("Intel-6-8F-8|GenuineIntel-6-8F", "GenuineIntel-6-8F-8", x86));
  EXPECT_FALSE(pmucat::cpuid_matches("GenuineIntel-6-(", "GenuineIntel-6-8F-8", x86));
  // perf counts the row's dashes as written: a range like [5-9] makes it a "four part" row no
  // more, so the stepping is dropped from the compared length and the row cannot match.
  EXPECT_FALSE(pmucat::cpuid_matches("GenuineIntel-6-55-[5-9]", "GenuineIntel-6-55-7", x86));
  EXPECT_TRUE(pmucat::cpuid_matches("GenuineIntel-6-55-[56789]", "GenuineIntel-6-55-7", x86));
}

TEST(CpuidRules, WholeIdentifierElsewhere) {
  const auto whole = CpuidRules::whole;
  EXPECT_TRUE(pmucat::cpuid_matches("0x00000000410fd0c0", "0x00000000410fd0c0", whole));
  EXPECT_FALSE(pmucat::cpuid_matches("0x00000000410fd0c", "0x00000000410fd0c0", whole));
  EXPECT_FALSE(pmucat::cpuid_matches("0x00000000410fd0c0", "0x00000000410fd0c01", whole));
  EXPECT_TRUE(pmucat::cpuid_matches("004e[[:xdigit:]]{4}", "004e1202", whole));
  // Dashes mean nothing outside x86: the whole identifier must match.
  EXPECT_FALSE(pmucat::cpuid_matches("A-B-C", "A-B-C-D", whole));
}

// Rows are skipped without compiling when their literal start is not in the identifier; a
// quantified last byte, alternatives and escapes must not make that skip a row that matches.
TEST(CpuidRules, LiteralStartNeverSkipsARowThatMatches) {
  const auto whole = CpuidRules::whole;
  EXPECT_TRUE(pmucat::cpuid_matches("abc?d", "abd", whole));
  EXPECT_TRUE(pmucat::cpuid_matches("abc*d", "abd", whole));
  EXPECT_TRUE(pmucat::cpuid_matches("abc{0,1}d", "abd", whole));
  EXPECT_TRUE(pmucat::cpuid_matches("xyz|abd", "abd", whole));
  EXPECT_TRUE(pmucat::cpuid_matches("x[|]z|abd", "abd", whole));
  EXPECT_TRUE(pmucat::cpuid_matches("a\\.d|abd", "abd", whole));
  EXPECT_TRUE(pmucat::cpuid_matches("(xyz|ab)d", "abd", whole));
  EXPECT_FALSE(pmucat::cpuid_matches("abx(d|e)", "abd", whole));
  EXPECT_FALSE(pmucat::cpuid_matches("x(y|abd)", "abd", whole));
}

// True when the extended regular expression matches anywhere in `id` (glibc, as perf).
bool regex_finds(const std::string& pattern, const std::string& id) {
  regex_t regex;
  if (regcomp(&regex, pattern.c_str(), REG_EXTENDED) != 0) return false;
  const bool found = regexec(&regex, id.c_str(), 0, nullptr, 0) == 0;
  regfree(&regex);
  return found;
}

// The prefilter may only skip a row the regular expression cannot match: checked against glibc
// on every row of linux 6.1's mapfiles (when the build has them), hand-made patterns at the
// edges of what it understands, and every x86 family/model/stepping and Arm MIDR it could see.
TEST(CpuidPrefilter, NeverSkipsARowTheRegexMatches) {
  std::vector<std::string> patterns = {"GenuineIntel-6-(97|9A|B7)",
                                       "GenuineIntel-6-55-[56789ABCDEF]",
                                       "GenuineIntel-6-9[6C]",
                                       "AuthenticAMD-23-([12][0-9A-F]|[0-9A-F])",
                                       "AuthenticAMD-25-[[:xdigit:]]+",
                                       "GenuineIntel-6-(8F|)",
                                       "GenuineIntel-6-(8F)?",
                                       "GenuineIntel-6-[8F]*",
                                       "GenuineIntel-6-8+F",
                                       "GenuineIntel-6-(8+|9)F",
                                       "GenuineIntel-6-[^9]F",
                                       "GenuineIntel-6-[]8]F",
                                       "GenuineIntel-6-[8-9A]F",
                                       "GenuineIntel-6-(8.|9)",
                                       "GenuineIntel-6-(8[F]|9)",
                                       "GenuineIntel-6-8F|AuthenticAMD",
                                       "GenuineIntel-6-(8|9){1,2}",
                                       "GenuineIntel-6-\\(8",
                                       "GenuineIntel-6-[8",
                                       "^GenuineIntel-6-8F$",
                                       "0x00000000410fd0c0",
                                       "0x00000000410fd0[4-9a-f]0"};
  for (const char* arch : {"x86", "arm64", "powerpc", "s390"}) {
    std::ifstream in(std::filesystem::path(PMUCAT_TEST_EVENTS_DIR) / arch / "mapfile.csv");
    std::ostringstream text;
    text << in.rdbuf();
    for (const pmucat::MapfileRow& row : pmucat::parse_mapfile(text.str(), "m", arch).rows) {
      patterns.push_back(row.cpuid);
    }
  }
  std::vector<std::string> ids;
  const char* hex = "0123456789ABCDEF";
  for (const char* vendor : {"GenuineIntel-6-", "AuthenticAMD-23-", "AuthenticAMD-25-"}) {
    for (int model = 0; model < 256; ++model) {
      const std::string base = std::string(vendor) + hex[model >> 4] + hex[model & 15];
      ids.push_back(base);
      for (int step = 0; step < 16; step += 5) ids.push_back(base + "-" + hex[step]);
    }
  }
  for (int part = 0; part < 4096; part += 7) {
    char midr[32];
    std::snprintf(midr, sizeof midr, "0x00000000410f%03x0", part);
    ids.push_back(midr);
  }
  std::size_t skipped = 0;
  for (const std::string& pattern : patterns) {
    for (const std::string& id : ids) {
      if (pmucat::pmu_events::cpuid_may_match(pattern, id)) continue;
      ++skipped;
      EXPECT_FALSE(regex_finds(pattern, id)) << "'" << pattern << "' on " << id;
    }
  }
  EXPECT_GT(skipped, ids.size()) << "the prefilter skips nothing";
}

// perf's rule, with glibc doing every match: the leftmost match's length must be the identifier's
// (x86: less the stepping, unless the pattern names one; a pattern naming one needs an
// identifier that has one).
bool perf_rule_matches(const std::string& pattern, const std::string& id, CpuidRules rules) {
  std::size_t required = id.size();
  if (rules == CpuidRules::x86) {
    auto dashes = [](const std::string& text) { return std::count(text.begin(), text.end(), '-'); };
    const bool full_pattern = dashes(pattern) == 3;
    const bool full_id = dashes(id) == 3;
    if (full_pattern && !full_id) return false;
    if (!full_pattern && full_id) required = id.rfind('-');
  }
  regex_t regex;
  if (regcomp(&regex, pattern.c_str(), REG_EXTENDED) != 0) return false;
  regmatch_t match[1];
  const bool found = regexec(&regex, id.c_str(), 1, match, 0) == 0;
  regfree(&regex);
  return found && static_cast<std::size_t>(match[0].rm_eo - match[0].rm_so) == required;
}

// Literal rows (no special byte) are decided without regcomp; with the prefilter, every row of
// linux 6.1's mapfiles and literal ones at the edges (a stepping, an identifier holding the
// pattern later on, the pattern longer than the identifier) agree with glibc on every identifier.
TEST(CpuidRules, RowsDecidedWithoutCompilingAgreeWithGlibc) {
  std::vector<std::string> patterns = {"GenuineIntel-6-8F",
                                       "GenuineIntel-6-55-4",
                                       "6-8F",
                                       "GenuineIntel-6-8F-8-1",
                                       "Intel-6-8",
                                       "0x00000000410fd0c0",
                                       "GenuineIntel-6-(57|85)",
                                       "AuthenticAMD-25-[[:xdigit:]]+"};
  std::vector<std::string> ids = {
      "GenuineIntel-6-8F",    "GenuineIntel-6-8F-8", "GenuineIntel-6-8F-", "GenuineIntel-6-55-4",
      "GenuineIntel-6-55",    "xGenuineIntel-6-8F",  "GenuineIntel-6-8",   "0x00000000410fd0c0",
      "AuthenticAMD-25-11-1", "GenuineIntel-6-85-3"};
  for (const char* arch : {"x86", "arm64"}) {
    std::ifstream in(std::filesystem::path(PMUCAT_TEST_EVENTS_DIR) / arch / "mapfile.csv");
    std::ostringstream text;
    text << in.rdbuf();
    for (const pmucat::MapfileRow& row : pmucat::parse_mapfile(text.str(), "m", arch).rows) {
      patterns.push_back(row.cpuid);
    }
  }
  const char* hex = "0123456789ABCDEF";
  for (int model = 0; model < 256; model += 3) {
    const std::string base = std::string("GenuineIntel-6-") + hex[model >> 4] + hex[model & 15];
    ids.push_back(base);
    ids.push_back(base + "-" + hex[model & 15]);
  }
  std::size_t matched = 0;
  for (const std::string& pattern : patterns) {
    for (const std::string& id : ids) {
      for (CpuidRules rules : {CpuidRules::x86, CpuidRules::whole}) {
        const bool expected = perf_rule_matches(pattern, id, rules);
        matched += expected ? 1 : 0;
        EXPECT_EQ(pmucat::cpuid_matches(pattern, id, rules), expected)
            << "'" << pattern << "' on " << id << (rules == CpuidRules::x86 ? " (x86)" : "");
      }
    }
  }
  EXPECT_GT(matched, patterns.size()) << "too few matches to prove anything";
}

// glibc's regcomp copies a repeated part once per repetition, nested ones multiplied: a hostile
// mapfile row must cost a diagnostic, not gigabytes (found by fuzz/pmu_events_fuzz.cpp).
TEST(Mapfile, PatternsThatRepeatTooMuchAreNotCompiled) {
  const std::string stacked = "GenuineIntel-6-." + std::string(120, '+');
  const std::string nested = "(((GenuineIntel){255}){255}){255}";
  const std::string text = "Family-model,Version,Filename,EventType\n" + stacked + ",v1,a,core\n" +
                           nested + ",v1,b,core\n";
  const pmucat::Mapfile mapfile = pmucat::parse_mapfile(text, "mapfile.csv", "x86");
  ASSERT_EQ(mapfile.rows.size(), 2u);
  ASSERT_EQ(mapfile.diagnostics.size(), 2u);
  for (const pmucat::Diagnostic& diagnostic : mapfile.diagnostics) {
    EXPECT_EQ(diagnostic.id, pmucat::to_string(DiagId::mapfile_regex));
  }
  EXPECT_FALSE(pmucat::cpuid_matches(stacked, "GenuineIntel-6-8F-8", CpuidRules::x86));
  // What real mapfiles repeat still compiles and matches.
  EXPECT_TRUE(pmucat::cpuid_matches("AuthenticAMD-25-[[:xdigit:]]+", "AuthenticAMD-25-11-1",
                                    CpuidRules::x86));
  EXPECT_TRUE(pmucat::cpuid_matches("0x00000000004[bcd][[:xdigit:]]{4}", "0x00000000004b1234",
                                    CpuidRules::whole));
}

// perf's powerpc identifier: the PVR as eight lower-case hex digits, which the mapfile's rows
// (`004e[[:xdigit:]]{4}`) match whole.
TEST(HostCpuid, PowerpcIsThePvrInEightHexDigits) {
  EXPECT_EQ(pmucat::powerpc_cpuid(0x004e1202), "004e1202");
  EXPECT_EQ(pmucat::powerpc_cpuid(0x80'0200), "00800200");
  EXPECT_TRUE(pmucat::cpuid_matches("004e[[:xdigit:]]{4}", pmucat::powerpc_cpuid(0x004e1202),
                                    CpuidRules::whole));
  EXPECT_FALSE(pmucat::cpuid_matches("004e[[:xdigit:]]{4}", pmucat::powerpc_cpuid(0x00801200),
                                     CpuidRules::whole));
}

// perf's s390 identifier from /proc/sysinfo and /proc/service_levels, as the mapfile's rows
// expect it; words split at spaces only, the model's two words joined by a comma, only the first
// Model: line, fields cut to perf's buffers, the version part only with both values.
TEST(HostCpuid, S390IsManufacturerTypeModelAndCounterFacility) {
  const std::string sysinfo =
      "Manufacturer:         IBM\n"
      "Type:                 8561\n"
      "LIC Identifier:       0123456789abcdef\n"
      "Model:                703              T01\n"
      "Model Capacity:       703              00000000\n"
      "Model:                999\n";
  const std::string levels =
      "CPU-MF: Counter facility: version=3.6 authorization=002f\n"
      "CPU-MF: Sampling facility: min_rate=18228 max_rate=170650536 cpu_speed=5200 mode=basic\n";
  const auto id = pmucat::s390_cpuid(sysinfo, levels);
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(*id, "IBM,8561,703,T01,3.6,002f");
  EXPECT_TRUE(pmucat::cpuid_matches("^IBM.856[12].*3\\.6.[[:xdigit:]]+$", *id, CpuidRules::whole));
  EXPECT_EQ(pmucat::s390_cpuid(sysinfo, std::nullopt), "IBM,8561,703,T01");
  EXPECT_EQ(pmucat::s390_cpuid(sysinfo, "CPU-MF: Counter facility: version=3.6\n"),
            "IBM,8561,703,T01");
  EXPECT_EQ(pmucat::s390_cpuid("Manufacturer: IBM\nModel: 703\n", levels), std::nullopt);
  // perf's type buffer holds 7 bytes; a tab is part of a word.
  EXPECT_EQ(pmucat::s390_cpuid("Manufacturer: IBM\nType: 123456789\nModel: a\tb\n", std::nullopt),
            "IBM,1234567,a\tb");
}

TEST(CpuidPrefilter, SkipsTheAlternativesAndBracketsItUnderstands) {
  using pmucat::pmu_events::cpuid_may_match;
  EXPECT_FALSE(cpuid_may_match("GenuineIntel-6-(97|9A|B7)", "GenuineIntel-6-8F-8"));
  // A whole alternative must follow, not only its first byte.
  EXPECT_FALSE(cpuid_may_match("GenuineIntel-6-(57|85)", "GenuineIntel-6-8F-8"));
  EXPECT_TRUE(cpuid_may_match("GenuineIntel-6-(57|85)", "GenuineIntel-6-85-2"));
  EXPECT_TRUE(cpuid_may_match("GenuineIntel-6-(57|85)+", "GenuineIntel-6-8557"));
  EXPECT_FALSE(cpuid_may_match("GenuineIntel-6-55-[56789ABCDEF]", "GenuineIntel-6-55-4"));
  EXPECT_TRUE(cpuid_may_match("GenuineIntel-6-55-[56789ABCDEF]", "GenuineIntel-6-55-7"));
  // Optional or unknown continuations decide nothing.
  EXPECT_TRUE(cpuid_may_match("GenuineIntel-6-(97|9A)?", "GenuineIntel-6-8F-8"));
  EXPECT_TRUE(cpuid_may_match("GenuineIntel-6-[[:xdigit:]]", "GenuineIntel-6-8F-8"));
  EXPECT_TRUE(cpuid_may_match("GenuineIntel-6-(9+|8)", "GenuineIntel-6-8F-8"));
}

TEST(ChooseVendorModel, FirstMatchingRowOfTheArchitectures) {
  std::vector<pmucat::Diagnostic> notes;
  auto choice = pmucat::choose_vendor_model(kArch, "GenuineIntel-6-8F-8", notes);
  ASSERT_TRUE(choice.has_value());
  EXPECT_EQ(choice->arch, "x86");
  EXPECT_EQ(choice->row.directory, "testlake");
  choice = pmucat::choose_vendor_model(kArch, "GenuineIntel-6-55-7", notes);
  ASSERT_TRUE(choice.has_value());
  EXPECT_EQ(choice->row.directory, "steplake2");
  choice = pmucat::choose_vendor_model(kArch, "0x00000000410fd0c0", notes);
  ASSERT_TRUE(choice.has_value());
  EXPECT_EQ(choice->arch, "arm64");
  EXPECT_EQ(choice->row.directory, "acme/core1");
  notes.clear();
  EXPECT_FALSE(pmucat::choose_vendor_model(kArch, "GenuineIntel-6-01-1", notes).has_value());
  ASSERT_FALSE(notes.empty());
  EXPECT_EQ(notes.back().code, DiagId::mapfile_no_match);
  EXPECT_EQ(notes.back().severity, pmucat::Severity::note);
  // The x86 mapfile's bad rows are reported on the way.
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(),
                          [](const auto& d) { return d.code == DiagId::mapfile_regex; }));
  EXPECT_FALSE(pmucat::choose_vendor_model(kArch / "nowhere", "x", notes).has_value());
}

TEST(HostCpuid, Arm64MidrOfTheFirstCpuWithVariantAndRevisionCleared) {
  pmucat::testing::ScratchDir dir("vendor");
  const auto write = [&](const std::string& cpu, const std::string& text) {
    const auto path = dir.path() / "devices/system/cpu" / cpu / "regs/identification";
    std::filesystem::create_directories(path);
    std::ofstream(path / "midr_el1") << text;
  };
  EXPECT_FALSE(pmucat::arm64_midr_cpuid(dir.path()).has_value());
  write("cpu10", "0x00000000413fd0c1\n");
  write("cpu2", "0x00000000411fd0c3\n");
  std::filesystem::create_directories(dir.path() / "devices/system/cpu/cpu1");
  EXPECT_EQ(pmucat::arm64_midr_cpuid(dir.path()), "0x00000000410fd0c0");
}

TEST(HostCpuid, X86IdentifierHasFourParts) {
#if defined(__x86_64__)
  const auto id = pmucat::host_cpuid("/sys");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(std::count(id->begin(), id->end(), '-'), 3) << *id;
#else
  GTEST_SKIP() << "not an x86 host";
#endif
}

}  // namespace
