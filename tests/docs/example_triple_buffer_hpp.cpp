// header: engine/include/engine/triple_buffer.hpp
// links: framepacer::engine_core
// run: yes
// The usage example of engine/triple_buffer.hpp, word for word between the two marks, its two
// columns (writer, reader) run in turn on one thread, then twice more: the reader takes nothing
// before the first publish, then every snapshot published, in order, each exactly once.
#include <cstdio>
#include <vector>

#include "engine/triple_buffer.hpp"

struct Snapshot {
  int tick = -1;
};
static int g_tick = 0;
static Snapshot make_snapshot() { return Snapshot{g_tick++}; }
static std::vector<int> g_drawn;
static void draw(const Snapshot& s) { g_drawn.push_back(s.tick); }

int main() {
// [example]
engine::TripleBuffer<Snapshot> buf;
// writer thread                         // reader thread
buf.back() = make_snapshot();            if (buf.take()) draw(buf.front());
buf.publish();
// [example]
  for (int i = 0; i < 2; ++i) {
    buf.back() = make_snapshot();
    if (buf.take()) draw(buf.front());
    buf.publish();
  }
  if (buf.take()) draw(buf.front());
  if (g_drawn != std::vector<int>{0, 1, 2} || buf.take()) return 1;
  std::printf("reader drew snapshots 0, 1, 2 in order\n");
  return 0;
}
