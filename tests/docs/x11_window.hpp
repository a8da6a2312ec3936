// A user's side of a window, through a second X connection (Xlib): find it by its title,
// minimize and restore it as a window manager does, close it as its close box does. Used by
// renderer.hpp's example and the Vulkan tests (Xvfb has no window manager to do it).
#pragma once

#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <cstring>

namespace x11_user {

/// The window titled `name` at or under `w`, or 0.
inline Window find_named(Display* x, Window w, const char* name) {
  char* got = nullptr;
  if (XFetchName(x, w, &got) != 0 && got != nullptr) {
    const bool match = std::strcmp(got, name) == 0;
    XFree(got);
    if (match) return w;
  }
  Window root = 0, parent = 0;
  Window* children = nullptr;
  unsigned int count = 0;
  if (XQueryTree(x, w, &root, &parent, &children, &count) == 0) return 0;
  Window found = 0;
  for (unsigned int i = 0; i < count && found == 0; ++i) found = find_named(x, children[i], name);
  if (children != nullptr) XFree(children);
  return found;
}

/// Closes `w` as a window manager does when its close box is clicked (WM_DELETE_WINDOW).
inline void close(Display* x, Window w) {
  XEvent e{};
  e.xclient.type = ClientMessage;
  e.xclient.window = w;
  e.xclient.message_type = XInternAtom(x, "WM_PROTOCOLS", False);
  e.xclient.format = 32;
  e.xclient.data.l[0] = static_cast<long>(XInternAtom(x, "WM_DELETE_WINDOW", False));
  e.xclient.data.l[1] = CurrentTime;
  XSendEvent(x, w, False, NoEventMask, &e);
  XFlush(x);
}

/// Minimizes (iconic = true) or restores `w` as a window manager does: its WM_STATE (which
/// GLFW reads as iconified) and its mapping.
inline void set_iconic(Display* x, Window w, bool iconic) {
  const Atom wm_state = XInternAtom(x, "WM_STATE", False);
  const long data[2] = {iconic ? IconicState : NormalState, 0};
  XChangeProperty(x, w, wm_state, wm_state, 32, PropModeReplace, reinterpret_cast<const unsigned char*>(data), 2);
  if (iconic) XUnmapWindow(x, w);
  else XMapWindow(x, w);
  XFlush(x);
}

}  // namespace x11_user
