#include "test_pmus.h"

#include <algorithm>
#include <stdexcept>

#include "pmucat/format.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

Pmu make_pmu(const std::string& name, std::uint32_t type, const std::vector<NamedText>& formats,
             const std::vector<NamedText>& events, const std::string& cpus,
             const std::string& cpumask) {
  PmuInfo info;
  info.name = name;
  info.attributes.type = type;
  info.attributes.type_text = std::to_string(type);
  if (!cpus.empty()) info.attributes.cpus = *parse_cpu_list(cpus, "cpus");
  if (!cpumask.empty()) info.attributes.cpumask = *parse_cpu_list(cpumask, "cpumask");
  for (const auto& [file, text] : formats) {
    const std::string path = name + "/format/" + file;
    auto spec = parse_format(text, path);
    if (!spec) throw std::runtime_error("bad test format " + file);
    info.formats.push_back(Format{file, *spec, path, text});
  }
  for (const auto& [file, text] : events) {
    Event event;
    event.name = file;
    event.path = name + "/events/" + file;
    event.text = text;
    auto terms = parse_terms(text, event.path);
    if (!terms) throw std::runtime_error("bad test event " + file);
    event.terms = *terms;
    event.metadata_loaded = true;
    info.events.push_back(std::move(event));
  }
  std::sort(info.formats.begin(), info.formats.end(),
            [](const Format& a, const Format& b) { return a.name < b.name; });
  std::sort(info.events.begin(), info.events.end(),
            [](const Event& a, const Event& b) { return a.name < b.name; });
  return Pmu::from_info(std::move(info));
}

Pmu amd_cpu_pmu() {
  return make_pmu("cpu", 4,
                  {{"event", "config:0-7,32-35\n"},
                   {"umask", "config:8-15\n"},
                   {"edge", "config:18\n"},
                   {"inv", "config:23\n"},
                   {"cmask", "config:24-31\n"}},
                  {{"cpu-cycles", "event=0x76\n"}, {"ls-dispatch", "event=0x29,umask=0x7\n"}}, "",
                  "");
}

Pmu hv_24x7_pmu() {
  return make_pmu("hv_24x7", 27,
                  {{"domain", "config:0-3\n"},
                   {"core", "config:16-31\n"},
                   {"chip", "config:16-31\n"},
                   {"offset", "config:32-63\n"},
                   {"lpar", "config1:0-15\n"}},
                  {{"PM_PB_CYC", "domain=1,offset=0x80,chip=?,lpar=0x0\n"}}, "", "0");
}

}  // namespace testing
PMUCAT_END_NAMESPACE
