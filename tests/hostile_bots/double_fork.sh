#!/bin/sh
# Starts a sleeper in a session of its own, twice removed from the bot ("setsid" in a
# subshell that exits at once: the sleeper's parent is gone, its group is not the bot's),
# then exits without a word: the runner forfeits the bot ("exit"). $SLEEP_SECONDS lets the
# test find the sleeper.
( setsid sleep "${SLEEP_SECONDS:-3604}" </dev/null >/dev/null 2>&1 & )
sleep 0.2
echo "started a sleeper of ${SLEEP_SECONDS:-3604} s in its own session" >&2
exit 3
