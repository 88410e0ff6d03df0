#include "CSignals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t writing_end = -1;

/// Only async-signal-safe calls: write(2), and errno saved for the code it interrupted.
static void relay(int signo) {
    int saved = errno;
    unsigned char number = (unsigned char)signo;
    if (writing_end >= 0) {
        (void)write(writing_end, &number, 1);
    }
    errno = saved;
}

static int close_on_exec(int fd) {
    int flags = fcntl(fd, F_GETFD);
    return flags < 0 ? -1 : fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

int gitbay_signals_open(void) {
    int fds[2];
    if (pipe(fds) != 0) {
        return -1;
    }
    int status = fcntl(fds[1], F_GETFL);
    if (close_on_exec(fds[0]) != 0 || close_on_exec(fds[1]) != 0 || status < 0
        || fcntl(fds[1], F_SETFL, status | O_NONBLOCK) != 0) {
        int saved = errno;
        close(fds[0]);
        close(fds[1]);
        errno = saved;
        return -1;
    }
    writing_end = fds[1];
    return fds[0];
}

int gitbay_signals_catch(int signo, int once) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = relay;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART | (once ? SA_RESETHAND : 0);
    return sigaction(signo, &action, NULL);
}

int gitbay_signals_default(int signo) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    return sigaction(signo, &action, NULL);
}
