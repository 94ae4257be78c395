// "Did you mean ...?": the nearest candidate by edit distance.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace pmucat::cli {

// Levenshtein distance between `a` and `b`, comparing ASCII letters case-insensitively.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if it is close enough to be a plausible typo (distance at
// most a third of the word's length, at least 1). Ties go to the earliest candidate.
std::optional<std::string> nearest(std::string_view word, std::span<const std::string> candidates);

}  // namespace pmucat::cli
