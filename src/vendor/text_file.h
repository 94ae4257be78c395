// Reading a vendor catalog's small text files (mapfile.csv, JSON files, /proc texts).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace pmucat::vendor {

// The whole content of the regular file at `path`; nullopt when it cannot be opened or read or
// is not a regular file (a FIFO is refused without blocking: O_NONBLOCK, then fstat). Plain
// read() calls: an iostream costs more than parsing a mapfile.
std::optional<std::string> read_text_file(const std::filesystem::path& path);

}  // namespace pmucat::vendor
