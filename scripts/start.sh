#!/bin/sh
# `npm start`: runs scripts/start.mjs (or, when given, these Node arguments instead: the bench
# starts its server entry through here) with the Node flags this machine wants, then becomes
# that Node process (`exec`), so signals reach the server as before.
#
# On one CPU (Node's availableParallelism(): the CPUs this process may run on), V8 collects
# garbage on the main thread only (--single-threaded-gc). Its helper threads for parallel
# scavenges and concurrent marking have no other core to run on there: they take the CPU from the
# event loop in the middle of its work, and chat latency's tail was about twice as long with
# them (docs/decisions.md, "Garbage collection on one CPU"). V8 reads the flag only at start.
set -e
node=${NODE:-node}
[ "$#" -gt 0 ] || set -- "$(dirname "$0")/start.mjs"
if [ "$("$node" -p 'require("node:os").availableParallelism()')" = 1 ]; then
  set -- --single-threaded-gc "$@"
fi
exec "$node" "$@"
