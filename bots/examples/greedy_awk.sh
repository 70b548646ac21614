#!/bin/sh
# An external bot in POSIX sh and awk (nothing else: a bare Debian machine has both). It
# speaks bots/PROTOCOL.md and plays like the built-in greedy bot; greedy.awk does the work.
#
#   [[bots]]
#   name = "awk-greedy"
#   command = ["sh", "../bots/examples/greedy_awk.sh"]
#
# mawk (Debian's awk) reads its input in blocks unless told to read line by line.
here=$(dirname "$0")
if command -v mawk >/dev/null 2>&1; then
    exec mawk -W interactive -f "$here/greedy.awk"
fi
exec awk -f "$here/greedy.awk"
