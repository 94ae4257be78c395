// Reading and writing whole files, and making the special files hostile trees need.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

// The file's bytes; empty when it cannot be read.
std::string read_text(const std::filesystem::path& path);
std::vector<std::byte> read_bytes(const std::filesystem::path& path);

// Writes `content` (creating parent directories); throws std::runtime_error when it cannot.
void write_text(const std::filesystem::path& path, std::string_view content);

// A FIFO (mode 0644), and a UNIX socket's inode left behind as a dead daemon's would be: both
// create parent directories and throw std::runtime_error when they cannot.
void make_fifo(const std::filesystem::path& path);
void make_socket(const std::filesystem::path& path);

}  // namespace testing
PMUCAT_END_NAMESPACE
