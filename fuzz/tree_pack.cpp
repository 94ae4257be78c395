// tree_pack ROOT [SUBPATH...]: writes the tree under ROOT (only the given relative subpaths when
// some are named) to stdout in the tree_codec.h format, as a seed for catalog_fuzz/check_fuzz.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "tree_codec.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs("usage: tree_pack ROOT [SUBPATH...] > seed\n", stderr);
    return 2;
  }
  try {
    const std::vector<std::string> subpaths(argv + 2, argv + argc);
    const auto entries = pmucat::fuzz::read_tree(argv[1], subpaths);
    if (entries.empty()) {
      std::fprintf(stderr, "tree_pack: nothing found under %s\n", argv[1]);
      return 1;
    }
    const std::string packed = pmucat::fuzz::encode_tree(entries);
    return std::fwrite(packed.data(), 1, packed.size(), stdout) == packed.size() ? 0 : 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "tree_pack: %s\n", error.what());
    return 2;
  }
}
