// Replays every file in the directories given on the command line through a fuzz target's
// LLVMFuzzerTestOneInput, so the seed corpora and every input a fuzzer ever crashed on run in the
// normal test suite (and under ASan/UBSan in the sanitizer build). A broken invariant traps; a
// run with no inputs at all fails too, since it would prove nothing.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "fuzz_target.h"

namespace {

std::vector<std::filesystem::path> inputs_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    for (const std::filesystem::path& file : inputs_in(argv[i])) {
      // Named before it runs, so the log says which input crashed.
      std::fprintf(stderr, "replay %s\n", file.c_str());
      const std::vector<std::uint8_t> bytes = read_bytes(file);
      LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
      ++replayed;
    }
  }
  if (replayed == 0) {
    std::fputs("fuzz replay: no inputs found in the given directories\n", stderr);
    return 1;
  }
  std::printf("fuzz replay: %zu inputs ran cleanly\n", replayed);
  return 0;
}
