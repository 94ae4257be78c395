#include "pmu_events/text_file.h"

#include "host/host_root.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events {

Expected<std::string, std::string> read_bounded_text_file(const std::filesystem::path& path,
                                                          std::size_t cap) {
  std::string why;
  auto text = host::read_bounded_file(path, cap, &why);
  if (!text) return unexpected(std::move(why));
  return std::move(*text);
}

std::optional<std::string> read_text_file(const std::filesystem::path& path) {
  return host::read_bounded_file(path, kMaxSmallTextSize);
}

}  // namespace pmu_events
PMUCAT_END_NAMESPACE
