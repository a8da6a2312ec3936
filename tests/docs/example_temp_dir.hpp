// A directory of a header example's own (tests/docs/example_*_hpp.cpp) for the files its
// example names (run.csv, run.meta.json): made and entered on construction, left and removed
// on destruction.
#pragma once

#include <filesystem>
#include <random>
#include <string>

namespace example {

class InTempDir {
 public:
  explicit InTempDir(const std::string& stem)
      : home_{std::filesystem::current_path()},
        dir_{std::filesystem::temp_directory_path() / (stem + "_" + std::to_string(std::random_device{}()))} {
    std::filesystem::create_directories(dir_);
    std::filesystem::current_path(dir_);
  }
  ~InTempDir() {
    std::error_code ignored;
    std::filesystem::current_path(home_, ignored);
    std::filesystem::remove_all(dir_, ignored);
  }
  InTempDir(const InTempDir&) = delete;
  InTempDir& operator=(const InTempDir&) = delete;

 private:
  std::filesystem::path home_, dir_;
};

}  // namespace example
