// The libFuzzer entry point every target in fuzz/ defines. Declared here so the same sources link
// into libFuzzer (clang) and into the corpus replay tests (tests/fuzz, any compiler).
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

// Stops the run on a broken invariant: libFuzzer and the replay tests both report it as a crash.
#define PMUCAT_FUZZ_CHECK(condition)    \
  do {                                  \
    if (!(condition)) __builtin_trap(); \
  } while (false)
