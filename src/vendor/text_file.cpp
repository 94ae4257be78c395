#include "vendor/text_file.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pmucat::vendor {

Expected<std::string, std::string> read_bounded_text_file(const std::filesystem::path& path,
                                                          std::size_t cap) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return unexpected(std::string(std::strerror(errno)));
  struct stat status {};
  std::string why;
  std::string text;
  auto too_large = [&] {
    return fmt::format("larger than the {} MiB cap for this file", cap >> 20);
  };
  if (::fstat(fd, &status) != 0) {
    why = std::strerror(errno);
  } else if (!S_ISREG(status.st_mode)) {
    why = "not a regular file";
  } else if (static_cast<std::uint64_t>(status.st_size) > cap) {
    why = too_large();
  } else {
    // /proc and sysfs files say 0 bytes: read until the end or one byte past the cap.
    text.reserve(static_cast<std::size_t>(status.st_size));
    char buffer[8192];
    for (;;) {
      const ssize_t got = ::read(fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        why = std::strerror(errno);
        break;
      }
      if (got == 0) break;
      if (static_cast<std::size_t>(got) > cap - text.size()) {
        why = too_large();
        break;
      }
      text.append(buffer, static_cast<std::size_t>(got));
    }
  }
  ::close(fd);
  if (!why.empty()) return unexpected(std::move(why));
  return text;
}

std::optional<std::string> read_text_file(const std::filesystem::path& path) {
  auto text = read_bounded_text_file(path, kMaxSmallTextSize);
  if (!text) return std::nullopt;
  return std::move(*text);
}

}  // namespace pmucat::vendor
