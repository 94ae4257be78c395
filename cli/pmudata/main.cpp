// pmudata: inspect (info), validate (check) and convert perf.data files and PerfDataProto.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "common/app.h"
#include "common/json.h"
#include "common/output_path.h"
#include "common/tree.h"
#include "pmucat/diagnostic_ids.h"
#include "pmudata/info.h"
#include "pmudata/inputs.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

constexpr const char* kExamples = R"(
  $ pmudata info perf.data
      header, events (attrs as perf prints them), features, record counts
  $ pmudata info --sysfs /sys perf.data
      also decode each event's config back to PMU terms and event names
  $ pmudata convert perf.data out.pb
      perf.data -> binary PerfDataProto (quipper's schema); .pbtxt gives text
  $ pmudata convert out.pb back.data
      PerfDataProto -> perf.data (the input format is detected from the content)
  $ pmudata convert --to pipe perf.data piped.data
      file mode -> pipe mode
  $ pmudata convert perf.data out.pprof
      perf.data -> pprof profile (as quipper's perf_to_profile writes it); go tool pprof reads it
  $ pmudata check perf.data
      structural validation; every problem with its byte offset
  $ pmudata convert out.pb - | perf script -i -
      to standard output (perf.data in pipe mode)
)";

// perf.data problems have a byte offset, not a line: `file: error: message [id]`.
void report(const Diagnostic& d) {
  std::fprintf(stderr, "%s: %s: %s%s\n", d.range.file.c_str(),
               std::string(to_string(d.severity)).c_str(), d.message.c_str(),
               d.id.empty() ? "" : fmt::format(" [{}]", d.id).c_str());
}

int run_info(const std::string& file, const InputLimits& limits, const CommonOptions& common,
             DiagnosticPrinter& printer) {
  auto loaded = load_summary(file, limits);
  if (!loaded) {
    report(loaded.error());
    return exit_status_for(loaded.error());
  }
  std::optional<snap::OpenedTree> tree;
  if (!common.sysfs.empty()) {
    auto opened = open_tree(common, printer);
    if (!opened) {
      printer.print(opened.error());
      return to_int(ExitCode::usage);
    }
    tree = std::move(*opened);
  }
  const Catalog* cat = tree ? &tree->catalog : nullptr;
  write_stdout(common.json ? dump_json(info_json(*loaded, cat)) + "\n" : info_text(*loaded, cat));
  return to_int(ExitCode::success);
}

int run_check(const std::string& file, const InputLimits& limits, const CommonOptions& common) {
  const auto problems = check_perf_data_file(file, limits);
  // An input that cannot be read at all gives one diagnostic with an I/O id: exit 2.
  if (problems.size() == 1 && problems.front().code == DiagId::perfdata_io) {
    report(problems.front());
    return exit_status_for(problems.front());
  }
  bool errors = false;
  for (const auto& p : problems) errors = errors || p.severity == Severity::error;
  if (common.json) {
    Json out;
    out["file"] = file;
    out["ok"] = !errors;
    Json list = Json::array();
    for (const auto& p : problems) {
      Json j = diagnostic_to_json(p);
      j["offset"] = p.range.offset;
      list.push_back(std::move(j));
    }
    out["problems"] = std::move(list);
    write_stdout(dump_json(out) + "\n");
  } else {
    for (const auto& p : problems) report(p);
    if (problems.empty()) write_stdout(fmt::format("{}: ok\n", file));
  }
  return to_int(errors ? ExitCode::rejected : ExitCode::success);
}

int run_convert(const std::string& input, const std::string& output, const std::string& to,
                const InputLimits& limits, std::uint64_t text_limit) {
  const std::optional<DataFormat> format =
      to.empty() ? std::nullopt : std::optional<DataFormat>(*parse_format(to));
  if (auto error = convert_data(input, output, format, limits, text_limit)) {
    if (error->code == DiagId::perfdata_io) {
      report(*error);
      return exit_status_for(*error);
    }
    report(*error);
    // A model no output format can hold (an other-endian file, an oversized record) is the
    // input's fault; anything else is an I/O error, exit 2 as on every tool.
    const bool output_failed = error->code == DiagId::output_path_empty ||
                               error->code == DiagId::output_is_directory ||
                               error->code == DiagId::output_io;
    return to_int(output_failed ? ExitCode::usage : ExitCode::rejected);
  }
  return to_int(ExitCode::success);
}

int run(int argc, char** argv) {
  CLI::App app{"pmudata: inspect, check and convert perf.data files and PerfDataProto", "pmudata"};
  app.footer(help_footer(
      {.examples = kExamples, .rejected = "a malformed file, or problems found by check"}));
  app.require_subcommand(1);
  CommonOptions common;
  add_common_options(app, common);
  InputLimits limits;
  std::uint64_t text_limit = kTextProtoLimit;
  app.add_option_function<std::string>(
         "--max-input-size",
         [&limits, &text_limit](const std::string& text) {
           const auto bytes = parse_byte_size(text);
           if (!bytes || *bytes == 0) throw CLI::ValidationError("--max-input-size", text);
           limits = InputLimits::uniform(*bytes);
           text_limit = *bytes;
         },
         "largest input read into memory (suffixes K, M, G). A regular perf.data or binary "
         ".pb file is streamed in bounded memory whatever its size (only its header sections "
         "count); read whole are a pipe, FIFO or device (default cap 32M) and .pbtxt, built "
         "in memory and refused over 16M of input unless this option says more")
      ->type_name("SIZE");

  std::string file, input, output, to;
  auto* info = app.add_subcommand("info", "Show the header, events, features and record counts");
  info->add_option(
          "FILE", file,
          "perf.data or PerfDataProto file, or a perf.data directory (DIR/data, DIR/data.N)")
      ->required();
  auto* check = app.add_subcommand("check", "Validate the structure; report problems with offsets");
  check->add_option("FILE", file, "perf.data file or perf.data directory (DIR/data, DIR/data.N)")
      ->required();
  auto* convert = app.add_subcommand(
      "convert", "Convert between perf.data and PerfDataProto, or either to pprof");
  convert
      ->add_option("IN", input,
                   "perf.data (file or pipe mode, or a perf.data directory of DIR/data and "
                   "DIR/data.N, written out as one file) or PerfDataProto")
      ->required();
  convert
      ->add_option("OUT", output,
                   "output; its extension (.pb, .pbtxt, .pprof) picks the format; - is standard "
                   "output (perf.data then in pipe mode, as into a FIFO or device)")
      ->required()
      ->check(output_path_check());
  convert
      ->add_option("--to", to,
                   "output format: perf, pipe, pb, pbtxt, pprof (a pprof profile.proto, "
                   "unsymbolized, uncompressed)")
      ->check(CLI::IsMember({"perf", "file", "pipe", "pb", "pbtxt", "pprof"}));

  for (auto* sub : {info, check, convert}) sub->fallthrough();  // --json/--sysfs after it too
  if (const auto status = parse_command_line(app, argc, argv)) return *status;
  DiagnosticPrinter printer(stderr, stream_wants_color(color_mode(common), stderr), "pmudata");
  if (info->parsed()) return run_info(file, limits, common, printer);
  if (check->parsed()) return run_check(file, limits, common);
  return run_convert(input, output, to, limits, text_limit);
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE

int main(int argc, char** argv) {
  return pmucat::cli::run_main(argc, argv, "pmudata", pmucat::cli::run);
}
