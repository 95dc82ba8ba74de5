#!/usr/bin/env python3
"""Drives an interactive terminal client (Gemini CLI's TUI) through a pseudo-terminal.

    pty-drive.py --allow N --screen FILE [--done TEXT] [--idle S] -- CMD ARGS...

Runs CMD on a pty of 200x50. Whenever the screen shows an approval dialog
("Allow once"), it answers: Enter (the first option, "Allow once") for the
first N dialogs, then Esc (the user declines). A dialog is answered once: for
four seconds after an answer its redraws are not read as a new one. Once the screen shows TEXT
(default "done.", the scripted model's last words) or nothing new has come for
S seconds (default 20) after the client started, it types /quit and, if the
client is still there two seconds later, ends it. Everything the client wrote,
escape sequences removed, is appended to FILE; the dialogs answered are told on
stdout, one line each. Standard library only; the exit status is the client's.
"""

import argparse
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import fcntl
import time

ANSI = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78]")
DIALOG = b"Allow once"
# The most read from the pty in one session: the driver stops reading past it.
MAX_BYTES = 64 * 1024 * 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--allow", type=int, default=0)
    ap.add_argument("--screen", required=True)
    ap.add_argument("--done", default="done.")
    ap.add_argument("--idle", type=float, default=20.0)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if not cmd:
        ap.error("no command")
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    screen = open(a.screen, "ab")
    seen = b""  # plain text since the last answer
    answered = 0
    last = time.monotonic()
    total = 0
    quitting = None
    quiet_until = 0.0  # a dialog answered is redrawn for a while: not a new one
    done = a.done.encode()
    while True:
        r, _, _ = select.select([fd], [], [], 0.2)
        now = time.monotonic()
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            total += len(chunk)
            if total > MAX_BYTES:
                break
            plain = ANSI.sub(b"", chunk)
            screen.write(plain)
            seen = (seen + plain)[-200000:]
            last = now
        if quitting is None and now < quiet_until:
            seen = b""
        elif quitting is None and DIALOG in seen:
            # Let the dialog finish drawing, then answer it.
            time.sleep(1.0)
            if answered < a.allow:
                os.write(fd, b"\r")
                answered += 1
                print(f"dialog {answered}: Allow once", flush=True)
            else:
                os.write(fd, b"\x1b")
                print("dialog: Esc", flush=True)
            seen = b""
            quiet_until = time.monotonic() + 4.0
            continue
        if quitting is None and (done in seen or now - last > a.idle):
            time.sleep(1.0)
            # Typed, then Enter on its own: text and Enter in one write reads as a paste.
            os.write(fd, b"/quit")
            time.sleep(0.5)
            os.write(fd, b"\r")
            quitting = now
        if quitting is not None and now - quitting > 5:
            os.kill(pid, signal.SIGTERM)
            break
    screen.close()
    _, status = os.waitpid(pid, 0)
    sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)


if __name__ == "__main__":
    main()
