#include "pmucat/suggest.h"

#include <algorithm>
#include <cctype>
#include <vector>

PMUCAT_BEGIN_NAMESPACE
namespace {

char fold(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const bool same = fold(a[i - 1]) == fold(b[j - 1]);
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> nearest_name(std::string_view word,
                                        std::span<const std::string> candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const std::string& candidate : candidates) {
    if (candidate == word) continue;
    const std::size_t allowed =
        std::max<std::size_t>(1, std::max(word.size(), candidate.size()) / 3);
    // The distance is at least the difference in length: a name far longer than every candidate
    // (a 128 KiB spec through the C API) costs no quadratic comparison.
    const std::size_t longer = std::max(word.size(), candidate.size());
    const std::size_t shorter = std::min(word.size(), candidate.size());
    if (longer - shorter > allowed) continue;
    const std::size_t distance = edit_distance(word, candidate);
    if (distance > allowed) continue;
    if (!best || distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

PMUCAT_END_NAMESPACE
