// spawn_shell: a command run by /bin/sh in a child process whose pid the test knows (the
// command execs the program, so the pid is the program's): the test signals it, or finds the
// window it made by _NET_WM_PID. test_sample.cpp and test_minimize.cpp start the sample so.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <string>

/// Forks and runs `sh -c cmd`; with `out_fd` >= 0 the child's stdout and stderr go to it (give
/// the other pipe ends O_CLOEXEC: exec closes them in the child). -1 if fork failed.
inline pid_t spawn_shell(const std::string& cmd, int out_fd = -1) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (out_fd >= 0) {
      dup2(out_fd, 1);
      dup2(out_fd, 2);
    }
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}
