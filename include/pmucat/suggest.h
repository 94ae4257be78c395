// "Did you mean ...?": nearest-name suggestions shared by the encoder, the validator and tools.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// Levenshtein distance between `a` and `b`, comparing ASCII letters case-insensitively (a case
// difference is free: `EVENT` is a typo of `event` even where names are case-sensitive).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` when it is close enough to be a plausible typo (distance at
// most a third of the longer name, at least 1), else nullopt. `word` itself is never suggested;
// ties keep the first candidate.
std::optional<std::string> nearest_name(std::string_view word,
                                        std::span<const std::string> candidates);

PMUCAT_END_NAMESPACE
