// The library on the hostile corpus: a located diagnostic per case, everything else still loads
// and encodes, nothing huge is kept, FIFOs never block, 100k events in one PMU still work.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <nlohmann/json.hpp>

#include "hostile_corpus.h"
#include "pmucat/catalog.h"
#include "pmucat/check.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace hostile {
namespace {
namespace fs = std::filesystem;

Catalog open_catalog(const fs::path& devices) {
  auto catalog = Catalog::open(devices);
  if (!catalog) throw std::runtime_error(catalog.error().message);
  return std::move(catalog).value();
}

// Reads every part of every PMU, as pmuls --json and pmucheck do.
void load_everything(const Catalog& catalog) {
  for (const Pmu& pmu : catalog.pmus()) {
    (void)pmu.attributes();
    (void)pmu.formats();
    (void)pmu.events();
  }
}

std::optional<std::uint64_t> encoded_config(const Catalog& catalog, const std::string& spec) {
  auto encoded = encode(catalog, spec);
  if (!encoded || encoded->size() != 1) return std::nullopt;
  return encoded->front().attr.config[0];
}

long max_rss_kib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

TEST(HostileCorpus, EveryCaseHasALocatedDiagnosticAtTheEntry) {
  const HostileTree tree;
  const Catalog catalog = open_catalog(tree.devices());
  const check::Report report = check::run(catalog, {});
  const auto findings = report.all_findings();
  for (const HostileCase& hostile : tree.cases()) {
    SCOPED_TRACE(hostile.label);
    const std::string path = (tree.devices() / hostile.entry).string();
    const auto found = std::find_if(findings.begin(), findings.end(), [&](const check::Finding& f) {
      return f.diagnostic.range.file == path &&
             std::find(hostile.ids.begin(), hostile.ids.end(), f.rule) != hostile.ids.end();
    });
    ASSERT_NE(found, findings.end()) << "no " << hostile.ids.front() << " at " << path;
    EXPECT_EQ(found->pmu, hostile.pmu);
    if (hostile.located) {
      EXPECT_GE(found->diagnostic.range.line, 1U) << found->diagnostic.message;
      EXPECT_GE(found->diagnostic.range.column, 1U) << found->diagnostic.message;
    }
  }
  // The healthy PMU has nothing to report, and the JSON report is valid JSON (and so valid
  // UTF-8) although names and file contents are not.
  for (const auto& finding : findings) EXPECT_NE(finding.pmu, HostileTree::kGoodPmu);
  EXPECT_TRUE(nlohmann::json::accept(check::render_json(report)));
}

TEST(HostileCorpus, EveryOtherPmuAndEventStillEncodes) {
  const HostileTree tree;
  const Catalog catalog = open_catalog(tree.devices());
  load_everything(catalog);
  EXPECT_EQ(encoded_config(catalog, "good/ok/"), 0x3cU);
  EXPECT_EQ(encoded_config(catalog, "good/plain/"), 0x12U);  // no trailing newline
  EXPECT_EQ(catalog.pmus().size(), tree.cases().size() + 1);
  for (const HostileCase& hostile : tree.cases()) {
    SCOPED_TRACE(hostile.label);
    ASSERT_NE(catalog.find_pmu(hostile.pmu), nullptr);
    if (hostile.usable_spec.empty()) continue;
    EXPECT_EQ(encoded_config(catalog, hostile.usable_spec), hostile.usable_config)
        << hostile.usable_spec;
  }
}

TEST(HostileCorpus, BrokenEntriesAreRejectedWithTheirOwnDiagnostic) {
  const HostileTree tree;
  const Catalog catalog = open_catalog(tree.devices());
  for (const char* label : {"event_fifo", "event_one_mebibyte", "event_nul_byte",
                            "event_link_to_proc_mem", "event_symlink_loop"}) {
    SCOPED_TRACE(label);
    const auto hostile = std::find_if(tree.cases().begin(), tree.cases().end(),
                                      [&](const HostileCase& c) { return c.label == label; });
    ASSERT_NE(hostile, tree.cases().end());
    const std::string event = fs::path(hostile->entry).filename().string();
    auto encoded = encode(catalog, hostile->pmu + "/" + event + "/");
    ASSERT_FALSE(encoded);
    EXPECT_EQ(encoded.error().id, hostile->ids.front()) << encoded.error().message;
    EXPECT_EQ(encoded.error().range.file, (tree.devices() / hostile->entry).string());
  }
}

TEST(HostileCorpus, NothingHugeIsKept) {
  const HostileTree tree;
  const long before = max_rss_kib();
  const Catalog catalog = open_catalog(tree.devices());
  load_everything(catalog);
  (void)check::run(catalog, {});
  std::size_t kept = 0;
  for (const Pmu& pmu : catalog.pmus()) {
    SCOPED_TRACE(pmu.name());
    kept += pmu.attributes().type_text.size();
    for (const Format& format : pmu.formats()) {
      EXPECT_LE(format.text.size(), kMaxSysfsFileSize) << format.path;
      kept += format.text.size();
    }
    for (const Event& event : pmu.events()) {
      EXPECT_LE(event.text.size(), kMaxSysfsFileSize) << event.path;
      kept += event.text.size();
    }
  }
  // Three 1 MiB files are in the tree; the catalog keeps a few hundred bytes of text.
  EXPECT_LT(kept, std::size_t{64} * 1024);
  // A generous bound (sanitizer builds included): reading must not pull the big files in.
  EXPECT_LT(max_rss_kib() - before, 64L * 1024) << "KiB of peak RSS added";
}

// A FIFO opened for reading without O_NONBLOCK waits for a writer forever; the load runs in a
// child with an alarm so that a regression fails this test instead of hanging the suite.
TEST(HostileCorpus, FifosNeverBlockAndAreNotLeftOpen) {
  const HostileTree tree;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::alarm(120);
    const Catalog catalog = open_catalog(tree.devices());
    load_everything(catalog);
    (void)check::run(catalog, {});
    // No reader may remain: opening the FIFOs for writing without blocking must find none.
    for (const char* fifo :
         {"hx_event_fifo/events/pipe", "hx_format_fifo/format/pipe", "hx_type_fifo/type"}) {
      const int fd = ::open((tree.devices() / fifo).c_str(), O_WRONLY | O_NONBLOCK);
      if (fd >= 0 || errno != ENXIO) ::_exit(3);
    }
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_FALSE(WIFSIGNALED(status))
      << "the load was killed by signal " << WTERMSIG(status) << " (SIGALRM: it blocked on a FIFO)";
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "3: a FIFO was still open for reading";
}

TEST(HostileCorpus, InvalidUtf8NamesAreListedAsTheyAre) {
  const HostileTree tree;
  const Catalog catalog = open_catalog(tree.devices());
  const Pmu* pmu = catalog.find_pmu("hx_pmu\xff\xfename");
  ASSERT_NE(pmu, nullptr);
  EXPECT_EQ(pmu->find_event("ok")->text, "event=0x3c\n");
  const Pmu* events = catalog.find_pmu("hx_event_name_invalid_utf8");
  ASSERT_NE(events, nullptr);
  const Event* event = events->find_event("ev\xff\xfe");
  ASSERT_NE(event, nullptr);
  EXPECT_FALSE(event->error);
  const Pmu* formats = catalog.find_pmu("hx_format_name_invalid_utf8");
  ASSERT_NE(formats, nullptr);
  const Format* format = formats->find_format("f\xc3\x28");
  ASSERT_NE(format, nullptr);
  EXPECT_EQ(format->spec.word, 1U);
  EXPECT_EQ(format->spec.mask, 0xfU);
}

TEST(HundredThousandEvents, ListFindAndEncodeStillWork) {
  const HostileTree tree;
  tree.add_big_pmu("big", 100000);
  const long before = max_rss_kib();
  const Catalog catalog = open_catalog(tree.devices());
  const Pmu* big = catalog.find_pmu("big");
  ASSERT_NE(big, nullptr);
  // A named lookup before the listing, then the whole listing.
  ASSERT_NE(big->find_event("e099999"), nullptr);
  EXPECT_EQ(encoded_config(catalog, "big/e099999/"), 0x9fU);
  ASSERT_EQ(big->events().size(), 100001U);
  EXPECT_EQ(big->events().front().name, "e000000");
  EXPECT_EQ(big->find_event("E054321")->text, "event=0x31\n");
  EXPECT_EQ(encoded_config(catalog, "big/e012345,umask=0x2/"), 0x239U);
  EXPECT_EQ(encoded_config(catalog, "good/ok/"), 0x3cU);
  // ~100 bytes of catalog per event; the bound leaves room for sanitizer builds.
  EXPECT_LT(max_rss_kib() - before, 512L * 1024) << "KiB of peak RSS added";
}

}  // namespace
}  // namespace hostile
PMUCAT_END_NAMESPACE
