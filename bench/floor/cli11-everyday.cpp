// The command-line library's share of the one-event floor comparison: a static C++ program that
// declares pmuencode's everyday options with CLI11 (cli/pmuencode/main.cpp,
// add_everyday_options) and parses argv, without reading any file. CLI11 trims option names with
// std::isspace(c, std::locale()), so it builds the classic locale on every run, as pmuencode
// does. bench/floor/one-event --baselines runs it with pmuencode's arguments.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  CLI::App app;
  app.set_help_flag();  // as the first stage of parse_command_line_staged
  app.allow_extras();
  std::string sysfs, tracefs, events_dir, cpuid, pmu;
  bool no_events_dir = false, json = false, perf_only = false, c_initializer = false;
  std::vector<std::string> specs;
  app.add_option("--sysfs", sysfs, "sysfs tree")->envname("PMUCAT_SYSFS")->type_name("DIR");
  app.add_option("--tracefs", tracefs, "tracefs tree")->envname("PMUCAT_TRACEFS")->type_name("DIR");
  app.add_option("--events-dir", events_dir, "vendor JSON catalogs")->type_name("DIR");
  app.add_flag("--no-events-dir", no_events_dir, "sysfs events only");
  app.add_option("--cpuid", cpuid, "CPU identifier")->type_name("ID");
  app.add_flag("--json", json, "JSON output");
  app.add_option("--pmu", pmu, "PMU for bare terms")->type_name("NAME|GLOB");
  app.add_flag("--perf", perf_only, "canonical specs only");
  app.add_flag("--c", c_initializer, "a C initializer");
  app.add_option("SPEC", specs, "event specs")->type_name("SPEC");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  }
  return specs.empty() ? 1 : 0;
}
