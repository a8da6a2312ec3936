// Reading a file a test's program wrote: all of it, or how many lines it has. Shared by the
// Vulkan tests (test_sample.cpp, test_faults.cpp, test_own_renderer.cpp, test_app.cpp).
#pragma once

#include <cstddef>
#include <fstream>
#include <iterator>
#include <string>

/// The whole file, byte for byte; empty where it cannot be read.
inline std::string slurp(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  return {std::istreambuf_iterator<char>{in}, {}};
}

/// The number of lines (the last one counted whether or not it ends in a newline); 0 where
/// the file cannot be read.
inline std::size_t line_count(const std::string& path) {
  std::ifstream in{path};
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}
