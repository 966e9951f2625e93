#!/usr/bin/env bash
# (A copy of the project's shared/tools/blk-capture.sh, used by tests/accuracy
# when the tree has no ../shared beside it; keep it in step with the original.)
# Stand-in for `blktrace -d DEV` on kernels where the debugfs relay files
# (/sys/kernel/debug/block/DEV/traceN) cannot be opened (EPERM here):
# the same in-kernel blk tracer, read through the ftrace ring buffer in
# binary mode ("bin" option, no context-info), one reader per CPU, which
# yields struct blk_io_trace records that blkparse/btt read as DEV.blktrace.N.
# usage: blk-capture.sh /dev/loopN OUTDIR    (stop with SIGINT/SIGTERM)
set -u
T=/sys/kernel/tracing
dev=$(basename "$1"); out=$2
ncpu=$(nproc)
stop=0; trap 'stop=1' INT TERM
echo 0 > $T/tracing_on
echo nop > $T/current_tracer
echo > $T/trace
echo 1 > /sys/block/$dev/trace/enable
echo blk > $T/current_tracer
echo 1 > $T/options/bin
echo 0 > $T/options/context-info
pids=()
for ((c = 0; c < ncpu; c++)); do
	cat $T/per_cpu/cpu$c/trace_pipe > "$out/$dev.blktrace.$c" &
	pids+=($!)
done
echo 1 > $T/tracing_on
sleep 2147483647 & sp=$!            # no polling: wait returns on the trapped signal
while [ "$stop" = 0 ]; do wait $sp; done
kill $sp 2>/dev/null
echo 0 > /sys/block/$dev/trace/enable
sleep 0.5                      # let the readers drain what is left
kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null
for ((c = 0; c < ncpu; c++)); do cat $T/per_cpu/cpu$c/stats > "$out/ftrace-stats.$c"; done
echo 0 > $T/options/bin
echo 1 > $T/options/context-info
echo nop > $T/current_tracer
echo > $T/trace
echo 1 > $T/tracing_on
exit 0
