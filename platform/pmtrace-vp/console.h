// console.h - pmtrace-vp's console input: what the guest's PL011 receives, from stdin (QEMU's
// -nographic console).
//
// stdin is read whether it is a pipe, a file or a terminal, a character at a time and never
// blocking (poll with no timeout): the simulation never waits for it. Its end (end of file, or a
// read error) is the input's end, uart_input_ended, after which nothing is read.
//
// A terminal is read only when pmtrace-vp is in the terminal's foreground process group (a
// background job that read it would be stopped by SIGTTIN): in the background the console has no
// input. While pmtrace-vp reads a terminal it sets it to non-canonical mode without echo (each key
// reaches the guest at once, and only the guest echoes it), keeping ISIG so that Ctrl-C still
// interrupts pmtrace-vp; the terminal's modes are restored at exit, when a signal ends
// pmtrace-vp (a second Ctrl-C, SIGTERM, SIGHUP, SIGQUIT) and by restore_console().
#ifndef PMTRACE_VP_CONSOLE_H
#define PMTRACE_VP_CONSOLE_H

namespace pmtrace::vp_cli
{

// Prepares stdin for the run (the terminal's modes, when it is one in the foreground). Once;
// later calls do nothing.
void take_console();

// The PL011's input (uart_config::input): a character, uart_input_none or uart_input_ended.
int console_char();

// Gives the terminal its modes back (async-signal-safe; nothing when they were not changed).
void restore_console();

} // namespace pmtrace::vp_cli

#endif
