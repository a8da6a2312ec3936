// A user's side of a window, through a second X connection (Xlib): find it by its title,
// minimize and restore it as a window manager does, close it as its close box does. Used by
// renderer.hpp's example and the Vulkan tests (Xvfb has no window manager to do it).
#pragma once

#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>

#include <cstring>

namespace x11_user {

/// The process that made `w`, from the _NET_WM_PID GLFW sets on its windows; 0 if unknown.
inline unsigned long window_pid(Display* x, Window w) {
  Atom type = 0;
  int format = 0;
  unsigned long items = 0, after = 0;
  unsigned char* data = nullptr;
  unsigned long pid = 0;
  if (XGetWindowProperty(x, w, XInternAtom(x, "_NET_WM_PID", False), 0, 1, False, XA_CARDINAL, &type, &format,
                         &items, &after, &data) == Success &&
      data != nullptr && format == 32 && items == 1)
    pid = *reinterpret_cast<unsigned long*>(data);
  if (data != nullptr) XFree(data);
  return pid;
}

inline Window find_named_under(Display* x, Window w, const char* name, unsigned long pid);

/// The window titled `name` at or under `w` and made by process `pid`, or 0. The pid tells
/// it from a window of the same title that another test, run beside this one on the same
/// X server (ctest -j2), has open. The search walks every window on the server, so it holds
/// the server for its length (XGrabServer): another client's window destroyed between
/// XQueryTree listing it and the next request about it was a BadWindow error, which Xlib's
/// default handler ends the process on (`docs_example_renderer_hpp_runs` failed so in 9 of
/// 180 runs beside a client making and destroying windows; 0 of 180 with the grab). An
/// error handler cannot help where GLFW, on another thread of the same process, sets and
/// resets the handler.
inline Window find_named(Display* x, Window w, const char* name, unsigned long pid) {
  XGrabServer(x);
  const Window found = find_named_under(x, w, name, pid);
  XUngrabServer(x);
  XFlush(x);
  return found;
}

inline Window find_named_under(Display* x, Window w, const char* name, unsigned long pid) {
  char* got = nullptr;
  if (XFetchName(x, w, &got) != 0 && got != nullptr) {
    const bool match = std::strcmp(got, name) == 0;
    XFree(got);
    if (match && window_pid(x, w) == pid) return w;
  }
  Window root = 0, parent = 0;
  Window* children = nullptr;
  unsigned int count = 0;
  if (XQueryTree(x, w, &root, &parent, &children, &count) == 0) return 0;
  Window found = 0;
  for (unsigned int i = 0; i < count && found == 0; ++i) found = find_named_under(x, children[i], name, pid);
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
