#include "sample_tree.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "pmucat/format.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

template <class T>
void sort_by_name(std::vector<T>& items) {
  std::sort(items.begin(), items.end(), [](const T& a, const T& b) { return a.name < b.name; });
}

std::vector<Pmu> sample_pmus() {
  std::vector<Pmu> pmus;
  pmus.push_back(make_pmu("fakepmu", "42\n",
                          {{"event", "config:0-7\n"},
                           {"umask", "config:8-15\n"},
                           {"edge", "config:18\n"},
                           {"inv", "config:23\n"},
                           {"cmask", "config:24-31\n"},
                           {"split", "config:36-39,44-47\n"},
                           {"evext", "config:0-7,21\n"},
                           {"ldlat", "config1:0-15\n"},
                           {"spaced", "config1 : 40 - 43 , 48\n"},
                           {"c2", "config2:0-63\n"},
                           {"c2lo", "config2:4,6,8\n"}},
                          {{"foo", "event=0x3c,umask=0x1\n"},
                           {"Bar_Mixed", "event=0x10\n"},
                           {"UPPER", "event=0x11\n"},
                           {"ld", "event=0xcd,umask=0x1,ldlat=3\n"},
                           {"param", "event=0x20,cmask=?\n"},
                           {"hexup", "event=0xAB\n"},
                           {"withspace", "  event = 0x21 ,  umask=0x2  \n\n"},
                           {"edgeonly", "event=0x22,edge\n"},
                           {"rawcfg", "config=0x1234\n"},
                           {"cfg1", "event=0x1,config1=0x55\n"},
                           {"dec", "event=16\n"},
                           {"octal", "event=010\n"},
                           {"per", "event=0x3,period=1000\n"},
                           {"cycles", "event=0x76\n"},
                           {"unc.dot", "event=0x78\n"},
                           {"read", "event=0x79\n"},
                           {"ext1", "evext=0x11e\n"},
                           {"dup", "event=0x7,event=0x8\n"}}));
  pmus.push_back(make_pmu("fakehv", "43\n",
                          {{"domain", "config:0-3\n"},
                           {"offset", "config:16-31\n"},
                           {"core", "config:32-47\n"},
                           {"lpar", "config1:0-15\n"}},
                          {{"PM_X", "domain=2,offset=8,core=?,lpar=0x0\n"},
                           {"PM_Y", "domain=1,offset=0x10,core=?,lpar=?\n"}}));
  pmus.push_back(
      make_pmu("c3pmu", "44\n", {{"event", "config:0-7\n"}, {"x3", "config3:0-7\n"}}, {}));
  pmus.push_back(make_pmu("hextype", "0x2e\n", {{"event", "config:0-7\n"}}, {}));
  pmus.push_back(make_pmu("oddfmt", "48\n",
                          {{"rev", "config:7-0\n"},
                           {"twoterm", "config:0-3 config1:0-3\n"},
                           {"junk", "xyz config:4-7 garbage\n"}},
                          {}));
  pmus.push_back(
      make_pmu("rawpmu", "4\n", {{"event", "config:0-7\n"}, {"umask", "config:8-15\n"}}, {}));
  return pmus;
}

}  // namespace

Pmu make_pmu(const std::string& name, const std::string& type_text,
             const std::vector<NamedText>& formats, const std::vector<NamedText>& events) {
  PmuInfo info;
  info.name = name;
  std::string type = type_text;
  if (!type.empty() && type.back() == '\n') type.pop_back();
  info.attributes.type_text = type;
  if (!type.empty() &&
      std::all_of(type.begin(), type.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    info.attributes.type = static_cast<std::uint32_t>(std::stoul(type));
  }
  for (const auto& [file, text] : formats) {
    const std::string path = name + "/format/" + file;
    auto spec = parse_format(text, path);
    EXPECT_TRUE(spec.has_value()) << path;
    if (!spec) continue;
    info.formats.push_back(Format{file, *spec, path, text});
  }
  for (const auto& [file, text] : events) {
    Event event;
    event.name = file;
    event.path = name + "/events/" + file;
    event.text = text;
    auto terms = parse_terms(text, event.path, TermSyntax::event_file);
    if (terms) {
      event.terms = std::move(*terms);
    } else {
      event.error = terms.error();
    }
    info.events.push_back(std::move(event));
  }
  sort_by_name(info.formats);
  sort_by_name(info.events);
  return Pmu::from_info(std::move(info));
}

std::vector<NamedText> krava_formats() {
  return {{"krava01", "config:0-1,62-63\n"},
          {"krava02", "config:10-17\n"},
          {"krava03", "config:5\n"},
          {"krava11", "config1:0,2,4,6,8,20-28\n"},
          {"krava12", "config1:63\n"},
          {"krava13", "config1:45-47\n"},
          {"krava21", "config2:0-3,10-13,20-23,30-33,40-43,50-53,60-63\n"},
          {"krava22", "config2:8,18,48,58\n"},
          {"krava23", "config2:28-29,38\n"}};
}

Catalog sample_catalog() {
  return Catalog::from_pmus(sample_pmus());
}

Catalog extended_catalog() {
  std::vector<Pmu> pmus = sample_pmus();
  pmus.push_back(make_pmu("cpu", "4\n",
                          {{"event", "config:0-7\n"},
                           {"umask", "config:8-15\n"},
                           {"edge", "config:18\n"},
                           {"pc", "config:19\n"},
                           {"any", "config:21\n"},
                           {"inv", "config:23\n"},
                           {"cmask", "config:24-31\n"},
                           {"ldlat", "config1:0-15\n"},
                           {"in_tx", "config:32\n"},
                           {"in_tx_cp", "config:33\n"},
                           {"frontend", "config1:0-23\n"}},
                          {{"mem-loads", "event=0xcd,umask=0x1,ldlat=3\n"},
                           {"cache-misses", "event=0x2e,umask=0x41\n"},
                           {"cycles-t", "event=0x3c,in_tx=1\n"}}));
  const std::string krava_event = std::string(kKravaTerms) + "\n";
  pmus.push_back(make_pmu("pmutest", "9999\n", krava_formats(), {{"test-event", krava_event}}));
  pmus.push_back(
      make_pmu("perf-pmu-test", "9999\n", krava_formats(), {{"test-event", krava_event}}));
  pmus.push_back(make_pmu("uncore_cha_0", "20\n", {{"event", "config:0-7\n"}}, {}));
  pmus.push_back(make_pmu("uncore_cha_1", "21\n", {{"event", "config:0-7\n"}}, {}));
  pmus.push_back(make_pmu("software", "1\n", {}, {}));
  pmus.push_back(make_pmu("notype", "", {{"event", "config:0-7\n"}}, {}));
  return Catalog::from_pmus(std::move(pmus));
}

}  // namespace testing
PMUCAT_END_NAMESPACE
