// Internal unit test of cli/common/: the front end, colours, tables and JSON the tools share.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/app.h"
#include "common/attr_fields.h"
#include "common/color.h"
#include "common/diagnostics.h"
#include "common/json.h"
#include "common/text_table.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

TEST(Color, ModesParse) {
  EXPECT_EQ(parse_color_mode("auto"), ColorMode::automatic);
  EXPECT_EQ(parse_color_mode("always"), ColorMode::always);
  EXPECT_EQ(parse_color_mode("never"), ColorMode::never);
  EXPECT_EQ(parse_color_mode("yes"), std::nullopt);
}

TEST(Color, AutoNeedsATerminalAndNoNoColor) {
  EXPECT_TRUE(decide_color(ColorMode::automatic, true, false));
  EXPECT_FALSE(decide_color(ColorMode::automatic, false, false));
  EXPECT_FALSE(decide_color(ColorMode::automatic, true, true));
}

TEST(Color, ExplicitModesWin) {
  EXPECT_TRUE(decide_color(ColorMode::always, false, true));
  EXPECT_FALSE(decide_color(ColorMode::never, true, false));
}

TEST(Color, PaletteIsEmptyWhenOff) {
  const Palette off{false};
  EXPECT_EQ(off.red(), "");
  EXPECT_EQ(off.reset(), "");
  const Palette on{true};
  EXPECT_EQ(on.red(), "\x1b[1;31m");
}

TEST(TextTable, AlignsColumnsAndTrimsTrailingBlanks) {
  TextTable table({TextTable::Align::left, TextTable::Align::right, TextTable::Align::left});
  table.add_row({"cpu", "4", ""});
  table.add_row({"uncore_cha_10", "123", "x"});
  EXPECT_EQ(table.render("  "),
            "  cpu              4\n"
            "  uncore_cha_10  123  x\n");
}

TEST(AttrFields, TypeAndSizeAlwaysOthersOnlyWhenSet) {
  Attr attr;
  attr.type = 4;
  attr.config[0] = 0x3c;
  attr.exclude_kernel = true;
  attr.precise_ip = 2;
  attr.config[3] = 0x7;
  const auto fields = set_attr_fields(attr);
  std::vector<std::string> names;
  for (const auto& field : fields) names.emplace_back(field.name);
  EXPECT_EQ(names, (std::vector<std::string>{"type", "size", "config", "exclude_kernel",
                                             "precise_ip", "config3"}));
  EXPECT_EQ(fields[2].style, FieldStyle::hex);
  EXPECT_EQ(fields[3].style, FieldStyle::flag);
  EXPECT_EQ(fields[4].value, 2u);
}

TEST(AttrFields, UnionMembersFollowTheirSelectorFlag) {
  Attr attr;
  attr.freq = true;
  attr.sample_freq = 4000;
  attr.watermark = true;
  attr.wakeup_watermark = 4096;
  std::vector<std::string> names;
  for (const auto& field : set_attr_fields(attr, false)) names.emplace_back(field.name);
  EXPECT_EQ(names, (std::vector<std::string>{"type", "size", "sample_freq", "freq", "watermark",
                                             "wakeup_watermark"}));
}

TEST(Json, SixtyFourBitWordsStayExactUnsignedIntegers) {
  Attr attr;
  attr.config[0] = 0xffffffffffffffffULL;
  attr.config[1] = 0x8000000000000001ULL;
  Json object = Json::object();
  add_attr_fields(attr, object);
  const std::string text = dump_json(object);
  EXPECT_NE(text.find("\"config\": 18446744073709551615"), std::string::npos) << text;
  EXPECT_NE(text.find("\"config1\": 9223372036854775809"), std::string::npos) << text;
  const Json parsed = Json::parse(text);
  EXPECT_TRUE(parsed["config"].is_number_unsigned());
  EXPECT_EQ(parsed["config"].get<std::uint64_t>(), 0xffffffffffffffffULL);
}

RC_GTEST_PROP(Json, ConfigWordsRoundTrip, (std::uint64_t config, std::uint64_t config3)) {
  Attr attr;
  attr.config[0] = config;
  attr.config[3] = config3;
  Json object = Json::object();
  add_attr_fields(attr, object);
  const Json parsed = Json::parse(dump_json(object));
  RC_ASSERT(parsed["config"].get<std::uint64_t>() == config);
  RC_ASSERT(parsed["config3"].get<std::uint64_t>() == config3);
}

TEST(Json, FlagsAreBooleansAndZeroFieldsAreLeftOut) {
  Attr attr;
  attr.exclude_user = true;
  attr.clockid = -1;
  attr.use_clockid = true;
  Json object = Json::object();
  add_attr_fields(attr, object);
  EXPECT_EQ(object["exclude_user"], true);
  EXPECT_EQ(object["clockid"], -1);
  EXPECT_FALSE(object.contains("exclude_kernel"));
  EXPECT_FALSE(object.contains("sample_period"));
}

TEST(Json, InvalidUtf8DoesNotAbortTheDump) {
  Json object = Json::object();
  object["text"] = std::string("bad \xff byte");
  EXPECT_NO_THROW((void)dump_json(object));
}

TEST(Json, DiagnosticCarriesItsLocation) {
  const Diagnostic diagnostic = argument_error(pmucat::DiagId::pmu_unknown, "<pmu>", "cpux", 0, 4,
                                               "unknown PMU 'cpux'", "did you mean 'cpu'?");
  const Json json = diagnostic_to_json(diagnostic);
  EXPECT_EQ(json["file"], "<pmu>");
  EXPECT_EQ(json["line"], 1);
  EXPECT_EQ(json["column"], 1);
  EXPECT_EQ(json["length"], 4);
  EXPECT_EQ(json["hint"], "did you mean 'cpu'?");
}

std::string printed(bool color, void (*action)(DiagnosticPrinter&)) {
  std::FILE* file = std::tmpfile();
  DiagnosticPrinter printer(file, color, "tool");
  action(printer);
  std::rewind(file);
  std::string text;
  char buffer[512];
  std::size_t count;
  while ((count = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, count);
  std::fclose(file);
  return text;
}

TEST(DiagnosticPrinter, PlainErrorWithoutLocation) {
  EXPECT_EQ(printed(false, [](DiagnosticPrinter& p) { p.error("cannot read /nowhere"); }),
            "tool: error: cannot read /nowhere\n");
  const std::string colored =
      printed(true, [](DiagnosticPrinter& p) { p.error("cannot read /nowhere"); });
  EXPECT_NE(colored.find("\x1b["), std::string::npos);
}

TEST(DiagnosticPrinter, ErrorsBecomeWarningsAndLintsAreSkipped) {
  const std::string text = printed(false, [](DiagnosticPrinter& p) {
    Diagnostic error =
        argument_error(pmucat::DiagId::decode_bad_value, "<f>", "abc", 0, 1, "broken");
    Diagnostic lint =
        argument_error(pmucat::DiagId::decode_unknown_word, "<f>", "abc", 1, 1, "odd");
    lint.severity = Severity::warning;
    const std::vector<Diagnostic> list = {error, lint};
    p.print_errors_as_warnings(list);
    EXPECT_FALSE(p.had_error());
  });
  EXPECT_NE(text.find("warning: broken"), std::string::npos) << text;
  EXPECT_EQ(text.find("odd"), std::string::npos) << text;
  EXPECT_EQ(text.find("\x1b["), std::string::npos);
}

TEST(DiagnosticPrinter, LocatedErrorHasCaretAndHint) {
  const std::string text = printed(false, [](DiagnosticPrinter& p) {
    p.print(argument_error(pmucat::DiagId::pmu_unknown, "<pmu>", "cpux", 0, 4, "unknown PMU 'cpux'",
                           "did you mean 'cpu'?"));
    EXPECT_TRUE(p.had_error());
  });
  EXPECT_NE(text.find("<pmu>:1:1: error: unknown PMU 'cpux'"), std::string::npos) << text;
  EXPECT_NE(text.find("cpux\n^"), std::string::npos) << text;
  EXPECT_NE(text.find("did you mean 'cpu'?"), std::string::npos) << text;
}

TEST(RunMain, ReturnsTheBodysStatus) {
  EXPECT_EQ(run_main(0, nullptr, "tool", [](int, char**) { return 1; }), 1);
}

TEST(RunMain, AnExceptionEscapingTheBodyIsExitTwoWithAMessage) {
  ::testing::internal::CaptureStderr();
  const int status = run_main(0, nullptr, "tool", [](int, char**) -> int {
    throw std::runtime_error("basic_ios::clear: iostream error");
  });
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, to_int(ExitCode::usage));
  EXPECT_EQ(err, "tool: error: unexpected failure: basic_ios::clear: iostream error\n");
}

TEST(RunMain, OutOfMemoryAndForeignExceptionsToo) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run_main(0, nullptr, "tool", [](int, char**) -> int { throw std::bad_alloc(); }), 2);
  EXPECT_EQ(run_main(0, nullptr, "tool", [](int, char**) -> int { throw 42; }), 2);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err,
            "tool: error: out of memory\n"
            "tool: error: unexpected failure (unknown exception)\n");
}

TEST(HelpFooter, ExamplesEnvironmentAndTheExitStatusTable) {
  const std::string footer =
      help_footer({.examples = "\n  $ tool x\n      does x\n", .rejected = "bad x"});
  EXPECT_EQ(footer,
            "Examples:\n"
            "  $ tool x\n"
            "      does x\n"
            "\n"
            "Environment:\n"
            "  PMUCAT_SYSFS       tree to read when --sysfs is not given\n"
            "  PMUCAT_EVENTS_DIR  vendor JSON catalogs when --events-dir is not given (set but\n"
            "                     empty: sysfs only)\n"
            "  PMUCAT_CPUID       CPU identifier when --cpuid is not given\n"
            "  PMUCAT_TRACEFS     tracefs root when --tracefs is not given\n"
            "  XDG_CACHE_HOME     where a JSON events directory is compiled once\n"
            "                     (pmucat/vendor-index; default: $HOME/.cache)\n"
            "  NO_COLOR           set to a non-empty value: no colour with --color=auto\n"
            "\n"
            "EXIT STATUS\n"
            "  0  success\n"
            "  1  input rejected: bad x\n"
            "  2  usage error, or an I/O error (unreadable tree or file, unwritable output)\n");
  const std::string no_tree = help_footer({.examples = "", .rejected = "", .reads_sysfs = false});
  EXPECT_EQ(no_tree.find("PMUCAT_SYSFS"), std::string::npos);
  EXPECT_EQ(no_tree.find("PMUCAT_CPUID"), std::string::npos);
}

// A tool's options for the staged parse: the everyday ones, and the whole set adding more. The
// staged parse adds the trees' options (--sysfs, --tracefs) to both stages itself.
struct StagedOptions {
  CommonOptions common;
  bool perf = false;
  std::vector<std::string> specs;
  bool plan = false;
  std::string for_tool;
  std::vector<std::string> counters;
  bool operator==(const StagedOptions& other) const {
    return common.sysfs == other.common.sysfs && common.tracefs == other.common.tracefs &&
           perf == other.perf && specs == other.specs && plan == other.plan &&
           for_tool == other.for_tool && counters == other.counters;
  }
};

void add_everyday(StagedApp& app, StagedOptions& options) {
  app.add_flag("--perf", options.perf);
  app.add_option("SPEC", options.specs);
}

void add_all(StagedApp& app, StagedOptions& options) {
  app.name("tool");
  add_everyday(app, options);
  app.add_flag("-p,--plan", options.plan);
  app.add_option("--for", options.for_tool).check(CLI::IsMember({"stat", "record"}));
  app.add_option("-c,--counters", options.counters).allow_extra_args(false);
}

// The whole App of a tool with the staged parse's options, built in one go for comparison.
void add_whole(CLI::App& app, StagedOptions& options) {
  app.name("tool");
  add_common_options(app, options.common,
                     {.sysfs = true, .catalog = false, .json = false, .general = false});
  app.add_flag("--perf", options.perf);
  app.add_option("SPEC", options.specs);
  app.add_flag("-p,--plan", options.plan);
  app.add_option("--for", options.for_tool)->check(CLI::IsMember({"stat", "record"}));
  app.add_option("-c,--counters", options.counters)->allow_extra_args(false);
}

struct ParseOutcome {
  std::optional<int> status;
  StagedOptions options;
};

std::vector<char*> argv_of(std::vector<std::string>& words) {
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  return argv;
}

ParseOutcome parse_staged(std::vector<std::string> words) {
  words.insert(words.begin(), "tool");
  std::vector<char*> argv = argv_of(words);
  ParseOutcome outcome;
  outcome.status = parse_command_line_staged(static_cast<int>(argv.size()), argv.data(),
                                             outcome.options, add_everyday, add_all);
  return outcome;
}

ParseOutcome parse_whole(std::vector<std::string> words) {
  words.insert(words.begin(), "tool");
  std::vector<char*> argv = argv_of(words);
  ParseOutcome outcome;
  CLI::App app;
  add_whole(app, outcome.options);
  outcome.status = parse_command_line(app, static_cast<int>(argv.size()), argv.data());
  return outcome;
}

TEST(StagedParse, EverydayLinesParseWithTheSmallApp) {
  const ParseOutcome outcome = parse_staged({"--sysfs", "tree", "--perf", "cpu/event=1/", "x"});
  EXPECT_EQ(outcome.status, std::nullopt);
  EXPECT_EQ(outcome.options.common.sysfs, "tree");
  EXPECT_TRUE(outcome.options.perf);
  EXPECT_EQ(outcome.options.specs, (std::vector<std::string>{"cpu/event=1/", "x"}));
}

TEST(StagedParse, AnyOtherOptionIsParsedAgainByTheWholeApp) {
  // The small App would have taken "stat" for a spec and kept "--sysfs" from its own parse.
  const ParseOutcome outcome = parse_staged({"--sysfs", "tree", "--for", "stat", "e"});
  EXPECT_EQ(outcome.status, std::nullopt);
  EXPECT_EQ(outcome.options.for_tool, "stat");
  EXPECT_EQ(outcome.options.specs, std::vector<std::string>{"e"});
  EXPECT_EQ(outcome.options.common.sysfs, "tree");
}

// The first stage reads the trees from the environment without the callbacks adding them.
TEST(StagedParse, OptionsReadFromTheEnvironmentAreInTheFirstStage) {
  ::setenv("PMUCAT_SYSFS", "sysfs-from-env", 1);
  ::setenv("PMUCAT_TRACEFS", "tracefs-from-env", 1);
  const ParseOutcome outcome = parse_staged({"e"});
  ::unsetenv("PMUCAT_SYSFS");
  ::unsetenv("PMUCAT_TRACEFS");
  EXPECT_EQ(outcome.status, std::nullopt);
  EXPECT_EQ(outcome.options.common.sysfs, "sysfs-from-env");
  EXPECT_EQ(outcome.options.common.tracefs, "tracefs-from-env");
  EXPECT_EQ(outcome.options.specs, std::vector<std::string>{"e"});
}

TEST(StagedParse, ErrorsComeFromTheWholeApp) {
  ::testing::internal::CaptureStderr();
  const ParseOutcome outcome = parse_staged({"--nope"});
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(outcome.status, to_int(ExitCode::usage));
  EXPECT_EQ(err,
            "tool: error: The following argument was not expected: --nope\n"
            "Run 'tool --help' for usage and examples.\n");
}

// Whatever the command line, the staged parse gives what the whole App alone gives: the same
// exit status, and the same option values when parsing succeeded.
RC_GTEST_PROP(StagedParse, SameResultAsTheWholeApp, ()) {
  const std::vector<std::string> vocabulary = {
      "--sysfs", "--sysfs=t", "t",      "--perf",  "--perf=0", "-p",         "--plan",
      "--for",   "stat",      "record", "--",      "-pc",      "-c",         "a=1+2",
      "--nope",  "-x",        "-",      "--for=x", "c/e/",     "--tracefs=u"};
  const auto words = *rc::gen::container<std::vector<std::string>>(
      *rc::gen::inRange<std::size_t>(0, 7), rc::gen::elementOf(vocabulary));
  ::testing::internal::CaptureStderr();
  const ParseOutcome staged = parse_staged(words);
  const ParseOutcome whole = parse_whole(words);
  ::testing::internal::GetCapturedStderr();
  RC_ASSERT(staged.status == whole.status);
  if (!whole.status) RC_ASSERT(staged.options == whole.options);
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE
