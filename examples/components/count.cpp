// pmucat::count: counts a command's page faults with a counting session, each value with its
// grades: `consumer [COMMAND ARGS...]` (default /bin/true). Where this kernel does not let the
// user open perf events it says so and exits 0: linking and running is what is checked.
#include "pmucat/count.h"

#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  auto catalog = pmucat::Catalog::open("/sys/bus/event_source/devices");
  if (!catalog) {
    std::fputs(pmucat::render(catalog.error()).c_str(), stderr);
    return 2;
  }
  pmucat::EncodeOptions encode_options;
  encode_options.tool = pmucat::Tool::stat;
  auto events = pmucat::encode(*catalog, "page-faults", encode_options);
  if (!events) {
    std::fputs(pmucat::render(events.error()).c_str(), stderr);
    return 2;
  }
  pmucat::CountOptions options;
  options.target.command = argc > 1 ? std::vector<std::string>(argv + 1, argv + argc)
                                    : std::vector<std::string>{"/bin/true"};
  const auto kernel = pmucat::linux_perf_events();
  auto session = pmucat::CountSession::open(*catalog, *kernel, *events, options);
  if (!session) {
    std::printf("count: cannot count here: %s\n", session.error().message.c_str());
    return 0;
  }
  session->start();
  int status = 0;
  ::waitpid(session->child(), &status, 0);
  auto reading = session->read();
  if (!reading) {
    std::fputs(pmucat::render(reading.error()).c_str(), stderr);
    return 1;
  }
  for (const pmucat::EventValue& value : reading->values) {
    std::printf("count: %s %.0f [%s]\n", session->events()[value.event].name.c_str(),
                value.value.value_or(-1),
                std::string(pmucat::to_string(value.trust.front().grade)).c_str());
  }
  return 0;
}
