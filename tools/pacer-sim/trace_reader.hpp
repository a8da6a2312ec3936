// trace_reader.hpp - reads a frame-time trace (CSV with a frame_ms column) as render costs.
//
// A stop-gap for pacer-sim and bench/ until the load profiles (pacer/load_profile.hpp)
// land; the format is the one of traces/README.md: a header line naming the columns,
// then one frame per line, milliseconds.
//
//   std::vector<pacer::Nanos> costs = fp_tools::read_frame_ms("traces/x.csv", 0.5);  // throws on error
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pacer/time.hpp"

namespace fp_tools {

inline std::vector<pacer::Nanos> read_frame_ms(const std::string& path, double scale) {
  std::ifstream in{path};
  if (!in) throw std::runtime_error("cannot read trace '" + path + "'");
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error("trace '" + path + "' is empty");
  int column = -1, index = 0;
  std::stringstream header{line};
  for (std::string name; std::getline(header, name, ','); ++index) {
    while (!name.empty() && (name.back() == '\r' || name.back() == ' ')) name.pop_back();
    if (name == "frame_ms") column = index;
  }
  if (column < 0) throw std::runtime_error("trace '" + path + "' has no frame_ms column");
  std::vector<pacer::Nanos> out;
  while (std::getline(in, line)) {
    if (line.empty() || line == "\r") continue;
    std::stringstream row{line};
    std::string cell;
    for (int i = 0; i <= column && std::getline(row, cell, ','); ++i) {
    }
    char* end = nullptr;
    const double ms = std::strtod(cell.c_str(), &end);
    if (end == cell.c_str() || !(ms >= 0)) throw std::runtime_error("trace '" + path + "': bad value '" + cell + "'");
    out.push_back(pacer::from_ms(ms * scale));
  }
  if (out.empty()) throw std::runtime_error("trace '" + path + "' has no frames");
  return out;
}

}  // namespace fp_tools
