// console.cpp - stdin as the PL011's input (console.h).
#include "console.h"

#include <pmtrace/platform/devices/uart_pl011.h>

#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>

namespace pmtrace::vp_cli
{

namespace
{

enum class source { unknown, readable, none };
source stdin_source = source::unknown;
bool ended = false;

termios saved_modes{};
volatile std::sig_atomic_t modes_changed = 0;

extern "C" void restore_at_exit()
{
    restore_console();
}

// A signal that ends pmtrace-vp: the terminal gets its modes back, then the signal does what it
// would have done.
extern "C" void end_on_signal(int sig)
{
    restore_console();
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

void restore_on(int sig)
{
    struct sigaction old {
    };
    if (sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL)
        return; // ignored, or someone's handler: left alone
    struct sigaction sa {
    };
    sa.sa_handler = end_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
}

// A terminal in the foreground: keys to the guest as they are typed, echoed by the guest only.
void take_terminal()
{
    if (tcgetpgrp(STDIN_FILENO) != getpgrp()) {
        stdin_source = source::none; // a background job: reading would stop it (SIGTTIN)
        return;
    }
    if (tcgetattr(STDIN_FILENO, &saved_modes) != 0)
        return;
    termios modes = saved_modes;
    modes.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO); // ISIG stays: Ctrl-C is ours
    modes.c_cc[VMIN] = 1;
    modes.c_cc[VTIME] = 0;
    if (tcsetattr(STDIN_FILENO, TCSANOW, &modes) != 0)
        return;
    modes_changed = 1;
    std::atexit(restore_at_exit);
    for (int sig : {SIGTERM, SIGHUP, SIGQUIT})
        restore_on(sig);
}

} // namespace

void take_console()
{
    if (stdin_source != source::unknown)
        return;
    stdin_source = source::readable;
    if (isatty(STDIN_FILENO))
        take_terminal();
}

int console_char()
{
    take_console();
    if (stdin_source == source::none || ended)
        return platform::uart_input_ended;
    pollfd p{STDIN_FILENO, POLLIN, 0};
    const int ready = poll(&p, 1, 0);
    if (ready < 0)
        return errno == EINTR ? platform::uart_input_none
                              : (ended = true, platform::uart_input_ended);
    if (ready == 0)
        return platform::uart_input_none;
    if (p.revents & POLLNVAL) { // no stdin at all
        ended = true;
        return platform::uart_input_ended;
    }
    unsigned char c = 0;
    const ssize_t n = read(STDIN_FILENO, &c, 1);
    if (n == 1)
        return c;
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return platform::uart_input_none;
    ended = true; // end of file, or an error
    return platform::uart_input_ended;
}

void restore_console()
{
    if (modes_changed) {
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_modes);
        modes_changed = 0;
    }
}

} // namespace pmtrace::vp_cli
