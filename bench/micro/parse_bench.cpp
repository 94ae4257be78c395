// The parsers alone, on strings in memory: format files, event-term lists (both syntaxes) and
// whole spec lists. Each reports its heap allocations per iteration.
#include <benchmark/benchmark.h>
#include <pmucat/format.h>
#include <pmucat/spec.h>
#include <pmucat/terms.h>

#include <string_view>
#include <vector>

#include "alloc_counter.h"

namespace {

using pmucat::bench::AllocationScope;

void format_parse(benchmark::State& state, std::string_view text) {
  AllocationScope allocations;
  for (auto _ : state) {
    auto spec = pmucat::parse_format(text, "format/umask");
    if (!spec) state.SkipWithError("parse_format failed");
    benchmark::DoNotOptimize(spec);
  }
  allocations.report(state);
}
BENCHMARK_CAPTURE(format_parse, contiguous, "config:0-7\n");
BENCHMARK_CAPTURE(format_parse, split, "config:8-15,32-55\n");
BENCHMARK_CAPTURE(format_parse, config1_bits, "config1:0,2,4-6,20-28\n");

void term_parse(benchmark::State& state, std::string_view text, pmucat::TermSyntax syntax) {
  AllocationScope allocations;
  for (auto _ : state) {
    auto terms = pmucat::parse_terms(text, "events/x", syntax);
    if (!terms) state.SkipWithError("parse_terms failed");
    benchmark::DoNotOptimize(terms);
  }
  allocations.report(state);
}
BENCHMARK_CAPTURE(term_parse, event_file, "event=0xcd,umask=0x1,ldlat=3\n",
                  pmucat::TermSyntax::event_file);
BENCHMARK_CAPTURE(term_parse, event_file_param, "event=0xcd,umask=0x1,ldlat=?\n",
                  pmucat::TermSyntax::event_file);
BENCHMARK_CAPTURE(term_parse, command_line, "event=0x3c,umask=0x1,inv,cmask=3",
                  pmucat::TermSyntax::command_line);

// The view-based parser with its output vector kept across calls, as the encoder uses it.
void term_views_parse(benchmark::State& state, std::string_view text) {
  std::vector<pmucat::TermView> views;
  std::vector<pmucat::Diagnostic> lints;
  views.reserve(16);
  AllocationScope allocations;
  for (auto _ : state) {
    views.clear();
    auto parsed =
        pmucat::parse_term_views(text, "<spec>", pmucat::TermSyntax::command_line, 0, views, lints);
    if (!parsed) state.SkipWithError("parse_term_views failed");
    benchmark::DoNotOptimize(views.data());
  }
  allocations.report(state);
}
BENCHMARK_CAPTURE(term_views_parse, command_line, "event=0x3c,umask=0x1,inv,cmask=3");

void spec_parse(benchmark::State& state, std::string_view text) {
  AllocationScope allocations;
  for (auto _ : state) {
    auto specs = pmucat::parse_spec_list(text);
    if (!specs) state.SkipWithError("parse_spec_list failed");
    benchmark::DoNotOptimize(specs);
  }
  allocations.report(state);
}
BENCHMARK_CAPTURE(spec_parse, pmu_terms, "cpu/event=0x3c,umask=0x1,inv,cmask=3/u");
BENCHMARK_CAPTURE(spec_parse, event_name, "mem-loads:pp");
BENCHMARK_CAPTURE(spec_parse, three_events,
                  "cpu/event=0x3c/,uncore_imc_0/cas_count_read/,power/energy-pkg/");

}  // namespace
