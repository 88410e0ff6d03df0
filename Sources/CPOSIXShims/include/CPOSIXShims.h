#ifndef GITBAY_BOT_CPOSIXSHIMS_H
#define GITBAY_BOT_CPOSIXSHIMS_H

/// Descriptor calls that are close-on-exec from the start, where Swift's Glibc module cannot reach.
///
/// glibc declares `accept4`, `pipe2` and the `posix_spawn_file_actions_*_np` actions only under
/// `_GNU_SOURCE`, which Swift's Glibc module is not built with, so Swift cannot call them. These
/// thin wrappers are declared with POSIX types only; the C file defines `_GNU_SOURCE` for itself
/// on Linux and falls back to POSIX calls (`pipe`, `accept`, then `fcntl`) elsewhere, that is on
/// Darwin, where a descriptor is close-on-exec a moment after it exists rather than from the start.

/// The next connection waiting on `listener`, close-on-exec and non-blocking, or -1 with errno set.
int gitbay_accept(int listener);

/// Fills `fds` with a new pipe, both ends close-on-exec, and non-blocking too when `nonblocking`
/// is not 0. Answers 0, or -1 with errno set (and `fds` untouched).
int gitbay_pipe(int fds[2], int nonblocking);

#if defined(__linux__)
#include <spawn.h>

/// Adds to `actions` the closing of every descriptor from `lowest` up (glibc 2.34 or later).
///
/// Darwin has no such action: there `POSIX_SPAWN_CLOEXEC_DEFAULT` does the same. Answers 0 or an
/// error number, as the `posix_spawn_file_actions_*` calls do.
int gitbay_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

/// Adds to `actions` a change of directory to `path` (glibc 2.29 or later).
///
/// Darwin's headers declare `posix_spawn_file_actions_addchdir_np` for Swift, so this is Linux
/// only. Answers 0 or an error number.
int gitbay_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);
#endif

#endif
