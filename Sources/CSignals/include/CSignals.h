#ifndef GITBAY_BOT_CSIGNALS_H
#define GITBAY_BOT_CSIGNALS_H

/// The signal handling the bot's entry point needs, in C because `struct sigaction` is laid out
/// differently by glibc and Darwin: only POSIX declarations, so it builds on both.

/// Opens the pipe the handlers write caught signals to (close-on-exec both ends, the writing end
/// non-blocking) and answers its reading end, or -1 with errno set. Call once, before catching.
int gitbay_signals_open(void);

/// Catches `signo`: each arrival writes its number, one byte, to the pipe. With `once`, the
/// handler is reset to the default action on entry (SA_RESETHAND), so a second arrival ends the
/// process by the signal itself. Answers 0, or -1 with errno set.
int gitbay_signals_catch(int signo, int once);

/// Puts back the default action of `signo`: the next one ends the process. Answers 0, or -1.
int gitbay_signals_default(int signo);

#endif
