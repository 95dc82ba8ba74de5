#!/usr/bin/env python3
"""Runs an interactive client on a pseudo-terminal and keeps what it showed.

    pty-screen.py --screen FILE --until TEXT [--limit S] [--cols N] -- CMD ARGS...

Runs CMD on a pty of 50 rows and N columns (default 400, so one line of the
client's stays one line), answers its cursor-position queries, and appends
everything it writes to FILE as text: escape sequences removed, a cursor move
to a later column of the same row written as the blanks it skips (Codex
draws the spaces between words so), a move to another row as a line break. Once the screen has
shown TEXT (the scripted model's last words) it waits a second for the client
to finish drawing, then ends it (SIGTERM, then SIGKILL); after S seconds
(default 60) it ends it anyway. At most 64 MiB are read. Exit 0 when TEXT was
shown, 1 when not. Standard library only.
"""

import argparse
import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
import unicodedata

ESCAPE = re.compile(rb"\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78]")
MAX_BYTES = 64 * 1024 * 1024


class Text:
    """The client's output as text, following the cursor's row and column."""

    def __init__(self):
        self.row, self.col = 1, 1
        self.pending = b""

    def feed(self, chunk):
        data = self.pending + chunk
        # An escape sequence cut at the chunk's end waits for the rest.
        cut = data.rfind(b"\x1b")
        if cut >= 0 and len(data) - cut < 64 and not ESCAPE.match(data, cut):
            data, self.pending = data[:cut], data[cut:]
        else:
            self.pending = b""
        out = []
        at = 0
        for m in ESCAPE.finditer(data):
            out.append(self.text(data[at:m.start()]))
            at = m.end()
            final = m.group(2)
            if final in (b"H", b"f"):
                parts = (m.group(1) or b"").split(b";")
                row = int(parts[0] or 1) if parts[0].isdigit() or not parts[0] else self.row
                col = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 1
                out.append(self.move(row, col))
            elif final == b"C":
                n = int(m.group(1) or 1) if (m.group(1) or b"1").isdigit() else 1
                out.append(self.move(self.row, self.col + n))
        out.append(self.text(data[at:]))
        return "".join(out)

    def move(self, row, col):
        if row != self.row:
            self.row, self.col = row, col
            return "\n"
        gap = col - self.col
        self.col = col
        return " " * gap if gap > 0 else ""

    def text(self, raw):
        text = raw.decode("utf-8", "replace")
        for ch in text:
            if ch in "\r\n":
                self.col = 1
                if ch == "\n":
                    self.row += 1
            elif unicodedata.combining(ch) == 0 and ch.isprintable():
                self.col += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        return text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--screen", required=True)
    ap.add_argument("--until", required=True)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--cols", type=int, default=400)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if not cmd:
        ap.error("no command")
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, a.cols, 0, 0))
    until = a.until
    text = Text()
    start = time.monotonic()
    seen = ""
    total = 0
    shown_at = None
    with open(a.screen, "a", encoding="utf-8") as screen:
        while True:
            now = time.monotonic()
            if now - start > a.limit or (shown_at is not None and now - shown_at > 1.0):
                break
            r, _, _ = select.select([fd], [], [], 0.1)
            if not r:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            total += len(chunk)
            if total > MAX_BYTES:
                break
            if b"\x1b[6n" in chunk:
                os.write(fd, b"\x1b[1;1R")
            plain = text.feed(chunk)
            screen.write(plain)
            seen = (seen + plain)[-1_000_000:]
            if shown_at is None and until in seen:
                shown_at = time.monotonic()
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            break
        time.sleep(0.5)
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
    else:
        os.waitpid(pid, 0)
    sys.exit(0 if shown_at is not None else 1)


if __name__ == "__main__":
    main()
