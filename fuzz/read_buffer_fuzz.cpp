// parse_read_buffer on arbitrary bytes, as a counter's read() might return them: the first byte
// chooses the read_format bits, the second how many counters the group was opened with, the
// rest is what read() returned. Invariants: it parses exactly when the bytes are the layout's
// size (and a group's count matches), a parse holds one value per counter and the times the
// format asks for, and scaling what was read never gives a negative or NaN value.
#include <cmath>
#include <span>

#include "fuzz_target.h"
#include "pmucat/count.h"
#include "pmucat/diagnostic_ids.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint64_t read_format = data[0] & 0x1f;
  const std::size_t members = data[1] == 0xff ? pmucat::kMaxGroupRead + 1 : data[1];
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data + 2), size - 2);
  const bool group = (read_format & pmucat::read_fmt::group) != 0;
  auto parsed = pmucat::parse_read_buffer(bytes, read_format, members, "fuzz");
  const std::size_t counters = group ? members : 1;
  if (!parsed) {
    PMUCAT_FUZZ_CHECK(parsed.error().code == pmucat::DiagId::count_read_short ||
                      parsed.error().code == pmucat::DiagId::count_read_garbled);
    PMUCAT_FUZZ_CHECK(!parsed.error().message.empty());
    return 0;
  }
  PMUCAT_FUZZ_CHECK(counters <= pmucat::kMaxGroupRead);
  PMUCAT_FUZZ_CHECK(bytes.size() == pmucat::read_buffer_size(read_format, counters));
  PMUCAT_FUZZ_CHECK(parsed->counters.size() == counters);
  PMUCAT_FUZZ_CHECK(parsed->enabled.has_value() ==
                    ((read_format & pmucat::read_fmt::total_time_enabled) != 0));
  PMUCAT_FUZZ_CHECK(parsed->running.has_value() ==
                    ((read_format & pmucat::read_fmt::total_time_running) != 0));
  for (const pmucat::CounterRead& counter : parsed->counters) {
    PMUCAT_FUZZ_CHECK(counter.id.has_value() == ((read_format & pmucat::read_fmt::id) != 0));
    PMUCAT_FUZZ_CHECK(counter.lost.has_value() == ((read_format & pmucat::read_fmt::lost) != 0));
    const auto scaled = pmucat::scale_count(counter.value, parsed->enabled.value_or(1),
                                            parsed->running.value_or(1));
    if (scaled) PMUCAT_FUZZ_CHECK(!std::isnan(*scaled) && *scaled >= 0);
  }
  return 0;
}
