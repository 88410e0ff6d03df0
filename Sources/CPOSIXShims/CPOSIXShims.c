#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif

#include "CPOSIXShims.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <unistd.h>

#if defined(__linux__)

int gitbay_accept(int listener) {
    return accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

int gitbay_pipe(int fds[2], int nonblocking) {
    return pipe2(fds, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0));
}

int gitbay_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int gitbay_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

#else

/// Makes `fd` close-on-exec, and non-blocking when asked: 0, or -1 with errno set.
static int configure(int fd, int nonblocking) {
    int descriptor = fcntl(fd, F_GETFD);
    if (descriptor < 0 || fcntl(fd, F_SETFD, descriptor | FD_CLOEXEC) != 0) {
        return -1;
    }
    if (!nonblocking) {
        return 0;
    }
    int status = fcntl(fd, F_GETFL);
    return status < 0 ? -1 : fcntl(fd, F_SETFL, status | O_NONBLOCK);
}

/// Closes `fd` without losing the errno that made the caller give it up.
static void discard(int fd) {
    int saved = errno;
    close(fd);
    errno = saved;
}

int gitbay_accept(int listener) {
    int fd = accept(listener, NULL, NULL);
    if (fd >= 0 && configure(fd, 1) != 0) {
        discard(fd);
        return -1;
    }
    return fd;
}

int gitbay_pipe(int fds[2], int nonblocking) {
    int ends[2];
    if (pipe(ends) != 0) {
        return -1;
    }
    if (configure(ends[0], nonblocking) != 0 || configure(ends[1], nonblocking) != 0) {
        discard(ends[0]);
        discard(ends[1]);
        return -1;
    }
    fds[0] = ends[0];
    fds[1] = ends[1];
    return 0;
}

#endif
