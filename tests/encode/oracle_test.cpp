// Every encoding row of the perf 6.1 oracle tables (perf-pmu.md section 4) against the same
// PMUs built in memory: Profile::perf(PerfRelease::v6_1) must give perf's numbers;
// Profile::pmucat() gives the same except for the documented divergences (docs/perf-compat.md),
// asserted here as such.
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>

#include "pmucat/encode.h"
#include "sample_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

struct Outcome {
  bool ok = true;
  std::uint32_t type = 0;
  ConfigWords config{};
  std::string error;  // a substring of the message when !ok ("" = any error)
};

Outcome attr(std::uint32_t type, std::uint64_t c0, std::uint64_t c1 = 0, std::uint64_t c2 = 0,
             std::uint64_t c3 = 0) {
  return Outcome{true, type, {c0, c1, c2, c3}, ""};
}
Outcome fails(std::string message) {
  return Outcome{false, 0, {}, std::move(message)};
}

struct Row {
  Row(std::string spec_text, Outcome perf_result, std::optional<Outcome> pmucat_result = {})
      : spec(std::move(spec_text)),
        perf(std::move(perf_result)),
        pmucat(std::move(pmucat_result)) {}
  std::string spec;
  Outcome perf;                   // perf 6.1's result
  std::optional<Outcome> pmucat;  // nullopt: the same as perf
};

std::ostream& operator<<(std::ostream& out, const Row& row) {
  return out << row.spec;
}

void expect_outcome(const Catalog& catalog, const std::string& spec, Profile semantics,
                    const Outcome& expected) {
  EncodeOptions options;
  options.semantics = semantics;
  auto encoded = encode(catalog, spec, options);
  const char* mode = semantics == Profile::perf(PerfRelease::v6_1) ? "perf" : "pmucat";
  if (!expected.ok) {
    ASSERT_FALSE(encoded.has_value()) << mode << ": expected an error, got config " << std::hex
                                      << encoded->front().attr.config[0];
    EXPECT_NE(encoded.error().message.find(expected.error), std::string::npos)
        << mode << ": " << encoded.error().message;
    return;
  }
  ASSERT_TRUE(encoded.has_value()) << mode << ": " << encoded.error().message;
  ASSERT_EQ(encoded->size(), 1u) << mode;
  const Attr& attr = encoded->front().attr;
  EXPECT_EQ(attr.type, expected.type) << mode;
  for (unsigned w = 0; w < 4; ++w) {
    EXPECT_EQ(attr.config[w], expected.config[w])
        << mode << " config word " << w << std::hex << " got 0x" << attr.config[w] << " want 0x"
        << expected.config[w];
  }
}

class OracleRow : public ::testing::TestWithParam<Row> {
 protected:
  static void SetUpTestSuite() { catalog_ = new Catalog(testing::extended_catalog()); }
  static void TearDownTestSuite() {
    delete catalog_;
    catalog_ = nullptr;
  }
  static Catalog* catalog_;
};
Catalog* OracleRow::catalog_ = nullptr;

TEST_P(OracleRow, PerfSemanticsEqualsPerf61) {
  expect_outcome(*catalog_, GetParam().spec, Profile::perf(PerfRelease::v6_1), GetParam().perf);
}

TEST_P(OracleRow, PmucatSemanticsEqualsPerfOrDocumentedDivergence) {
  const Row& row = GetParam();
  if (row.pmucat) {
    // A documented divergence: make sure it really differs from perf, then check our side.
    const Outcome& ours = *row.pmucat;
    EXPECT_TRUE(ours.ok != row.perf.ok || ours.config != row.perf.config ||
                ours.type != row.perf.type);
  }
  expect_outcome(*catalog_, row.spec, Profile::pmucat(), row.pmucat.value_or(row.perf));
}

const Row kRows[] = {
    {"fakepmu/foo/", attr(42, 0x13c)},
    {"fakepmu/event=0x1,umask=0x2,edge,inv,cmask=3/", attr(42, 0x3840201)},
    {"fakepmu/split=0xff/", attr(42, 0xf0f000000000)},
    {"fakepmu/split=0x5a/", attr(42, 0x50a000000000)},
    {"fakepmu/evext=0x11e/", attr(42, 0x20001e)},
    {"fakepmu/ext1/", attr(42, 0x20001e)},
    {"fakepmu/evext=0x20001e/", fails("maximum 0x1ff = 511")},
    {"fakepmu/event=0x100/", fails("maximum 0xff = 255")},
    {"fakepmu/split=0x100/", fails("maximum 0xff = 255")},
    {"fakepmu/edge=2/", fails("maximum 0x1 = 1")},
    {"fakepmu/nosuch=1/", fails("unknown term 'nosuch' for PMU 'fakepmu'")},
    // perf 6.1's clone bug encodes a bare multi-bit field as 1; fixed in newer perf.
    {"fakepmu/event/", attr(42, 0x1), fails("no value assigned for term 'event'")},
    {"fakepmu/event=1,edge/", attr(42, 0x40001)},
    {"fakepmu/param/", fails("required parameter 'cmask'")},
    {"fakepmu/param,cmask=5/", attr(42, 0x5000020)},
    {"fakepmu/bar_mixed/", attr(42, 0x10)},
    {"fakepmu/BAR_MIXED/", attr(42, 0x10)},
    {"fakepmu/upper/", attr(42, 0x11)},
    {"fakepmu/FOO/", attr(42, 0x13c)},
    {"fakepmu/EVENT=1/", fails("unknown term 'EVENT'")},
    {"FAKEPMU/event=1/", fails("unknown PMU 'FAKEPMU'")},
    {"fakepmu/event=0xAB/", attr(42, 0xab)},
    {"fakepmu/event=0XAB/", fails("")},
    {"fakepmu/hexup/", attr(42, 0xab)},
    {"fakepmu/event=010/", attr(42, 0xa)},
    {"fakepmu/event=-1/", fails("")},
    {"fakepmu/ldlat=0xffff,c2=0xffffffffffffffff/", attr(42, 0, 0xffff, 0xffffffffffffffff)},
    {"fakepmu/c2=0x10000000000000000/", fails("")},
    {"fakepmu/c2lo=5/", attr(42, 0, 0, 0x110)},
    {"fakepmu/spaced=0x1f/", attr(42, 0, 0x10f0000000000)},
    {"fakepmu/withspace/", attr(42, 0x221)},
    {"fakepmu/edgeonly/", attr(42, 0x40022)},
    {"fakepmu/rawcfg/", attr(42, 0x1234)},
    {"fakepmu/cfg1/", attr(42, 0x1, 0x55)},
    {"fakepmu/dec/", attr(42, 0x10)},
    {"fakepmu/octal/", attr(42, 0xa)},
    {"fakepmu/dup/", attr(42, 0xf)},
    {"fakepmu/ld/", attr(42, 0x1cd, 0x3)},
    // perf ORs a user term into the event's value of the same field; pmucat overrides it.
    {"fakepmu/ld,ldlat=0x10/", attr(42, 0x1cd, 0x13), attr(42, 0x1cd, 0x10)},
    {"fakepmu/foo,umask=0x4/", attr(42, 0x53c), attr(42, 0x43c)},
    {"fakepmu/foo,event=0x1/", attr(42, 0x13d), attr(42, 0x101)},
    {"fakepmu/event=1,event=2/", attr(42, 0x3), fails("field 'event' given twice")},
    {"fakepmu/config=0x1234,config1=0x5,config2=0x6/", attr(42, 0x1234, 0x5, 0x6)},
    {"fakepmu/event=0x1,config=0xff00/", attr(42, 0xff01)},
    {"fakepmu/config=1,config=2/", attr(42, 0x2), fails("'config' assigned twice")},
    {"fakepmu/r1234/", attr(42, 0x1234)},
    {"fakepmu/rabc,event=0x1/", attr(42, 0xabd)},
    {"fakepmu/read/", attr(42, 0x79)},
    {"fakepmu/event=foo/", attr(42, 0x13c)},
    // `NAME=1` names an event only in perf 6.1.
    {"fakepmu/foo=1/", attr(42, 0x13c), fails("unknown term 'foo'")},
    {"fakepmu/foo=2/", fails("unknown term 'foo'")},
    {"fakepmu/foo,upper/", fails("cannot combine events")},
    {"fakepmu/cycles/", attr(42, 0x76)},
    {"fakepmu/unc.dot/", attr(42, 0x78)},
    {"fakepmu/ event = 0x5 , umask = 1 /", attr(42, 0x105)},
    {"fakepmu//", attr(42, 0)},
    {"fakepmu/event=1,/", fails("")},
    {"foo", attr(42, 0x13c)},
    {"FOO", attr(42, 0x13c)},
    {"unc.dot", attr(42, 0x78)},
    {"fakehv/PM_X,core=3/", attr(43, 0x300080002)},
    {"fakehv/core=3,PM_X/", attr(43, 0x300080002)},
    {"fakehv/pm_x,core=3/", attr(43, 0x300080002)},
    {"fakehv/PM_X/", fails("required parameter 'core'")},
    {"fakehv/PM_Y,core=1,lpar=0x7/", attr(43, 0x100100001, 0x7)},
    {"fakehv/PM_Y,core=1/", fails("required parameter 'lpar'")},
    {"fakehv/PM_X,core=0x10000/", fails("maximum 0xffff = 65535")},
    {"fakehv/domain=2,offset=8,core=1/", attr(43, 0x100080002)},
    {"c3pmu/event=1/", attr(44, 0x1)},
    // config3 exists since perf 6.3 / kernel 6.3; pmucat knows it.
    {"c3pmu/x3=1/", fails("config3"), attr(44, 0, 0, 0, 0x1)},
    {"c3pmu/config3=1/", fails("unknown term 'config3'"), attr(44, 0, 0, 0, 0x1)},
    // perf reads the type file with %u ("0x2e" is 0); pmucat refuses such a type.
    {"hextype/event=1/", attr(0, 0x1), fails("unusable type '0x2e'")},
    {"oddfmt/rev=1/", attr(48, 0x80)},
    {"oddfmt/twoterm=0xf/", attr(48, 0xf)},
    {"oddfmt/junk=0xf/", attr(48, 0xf0)},
    {"rawpmu/config=0x10001/", attr(4, 0x10001)},
    {"fakepmu/foo/:u", fails("")},
    {"fakepmu/foo/x", fails("unknown modifier 'x'")},
    // Further perf 6.1 runs (stat) made for this test suite.
    {"fakepmu/param,cmask=0x100/", fails("maximum 0xff = 255")},
    {"fakepmu/cmask=?/", fails("required parameter 'cmask'")},
    {"fakepmu/umask=foo/", fails("expected numeric value")},
    {"fakepmu/event=abc/", fails("")},
    {"fakepmu/edge=0/", attr(42, 0)},
    {"fakepmu/foo,ld/", fails("cannot combine events")},
    {"fakepmu/foo,foo/", fails("cannot combine events")},
    {"fakepmu/foo,EVENT=foo/", fails("cannot combine events")},
    {"fakepmu/Event=foo/", attr(42, 0x13c)},
    {"fakepmu/foo=0/", fails("unknown term 'foo'")},
    {"fakepmu/rawcfg,event=0x1/", attr(42, 0x1235)},
    {"fakepmu/config=0xffff,event=0x1/", attr(42, 0xffff)},
    {"fakepmu/foo,config=0x1/", attr(42, 0x13d)},
    {"fakepmu/r0xABC/", attr(42, 0xabc)},
    {"fakepmu/R0x10/", fails("unknown term 'R0x10'")},
    {"rabc", attr(4, 0xabc)},
    {"fakehv/PM_X,core=3,core=4/", attr(43, 0x700080002), attr(43, 0x400080002)},
    {"fakepmu/param,cmask=5,cmask=6/", attr(42, 0x7000020), attr(42, 0x6000020)},
    {"fakepmu/config1=1,ld/", attr(42, 0x1cd, 0x3)},
};

INSTANTIATE_TEST_SUITE_P(Perf61, OracleRow, ::testing::ValuesIn(kRows));

}  // namespace
PMUCAT_END_NAMESPACE
