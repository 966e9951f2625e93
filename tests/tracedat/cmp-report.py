#!/usr/bin/env python3
# cmp-report.py - 'trace-cmd report' of a trace.dat against 'ioreport dump'
# of the recording it was made from, line for line.
#
# usage: cmp-report.py [--no-comm] TRACE_CMD_REPORT IOREPORT_DUMP
#
# The first line of trace-cmd's output ("cpus=N") is skipped.  Its lost
# event lines "CPU:N [M EVENTS DROPPED]" read as ioreport's
# "CPU N: [LOST M EVENTS]".  An event whose print format libtraceevent
# cannot evaluate is "[FAILED TO PARSE] name=value ..." in trace-cmd and
# "name=value ..." in ioreport (its neutral format), with numbers in hex
# or decimal: such a pair compares its names and values as numbers.
# --no-comm leaves the COMM of "COMM-PID" aside.  Prints the number of
# lines compared and of FAILED TO PARSE lines; exits 1 after the first
# differences (at most 5) when a line differs or the counts do.
import re
import sys

DROP = re.compile(r'^CPU:(\d+) \[(\d+ )?EVENTS DROPPED\]$')
HEAD = re.compile(r'^ *(.*)-(\d+) +\[')
NUM = re.compile(r'=(-?0x[0-9a-fA-F]+|-?\d+)\b')
# the timestamp: trace-cmd pads it and rounds to the microsecond,
# 'ioreport dump --trace-clock' truncates it (so that it can be pasted
# into --since): the two agree when they are at most 1 us apart
TS = re.compile(r'\] +(\d+)\.(\d{6}): ')


def same_ts(a, b):
    ma, mb = TS.search(a), TS.search(b)
    if not ma or not mb:
        return a, b
    ua = int(ma.group(1)) * 1000000 + int(ma.group(2))
    ub = int(mb.group(1)) * 1000000 + int(mb.group(2))
    if abs(ua - ub) > 1:
        return a, b
    return TS.sub('] T: ', a, 1), TS.sub('] T: ', b, 1)
FAILED = '[FAILED TO PARSE] '


def num(m):
    return '=%d' % int(m.group(1), 0)


def main(argv):
    nocomm = '--no-comm' in argv
    args = [a for a in argv if a != '--no-comm']
    if len(args) != 2:
        sys.exit(__doc__ or 'usage: cmp-report.py [--no-comm] TC IO')
    with open(args[0], errors='surrogateescape') as f:
        tc = f.read().split('\n')
    with open(args[1], errors='surrogateescape') as f:
        io = f.read().split('\n')
    if tc and tc[0].startswith('cpus='):
        tc = tc[1:]
    if tc and tc[-1] == '':
        tc.pop()
    if io and io[-1] == '':
        io.pop()
    bad, failed = [], 0
    for i in range(max(len(tc), len(io))):
        a = tc[i] if i < len(tc) else '<none>'
        b = io[i] if i < len(io) else '<none>'
        m = DROP.match(a)
        if m:
            a = 'CPU %s: [LOST %sEVENTS]' % (m.group(1), m.group(2) or '')
        if FAILED in a:
            failed += 1
            a = NUM.sub(num, a.replace(FAILED, ''))
            b = NUM.sub(num, b)
        a, b = same_ts(a, b)
        if nocomm:
            a = HEAD.sub(r'\2 [', a)
            b = HEAD.sub(r'\2 [', b)
        if a != b:
            bad.append('line %d:\n  < %s\n  > %s' % (i + 2, a, b))
            if len(bad) >= 5:
                break
    print('%d lines, %d failed-to-parse' % (len(tc), failed))
    if bad:
        print('trace-cmd report (<) and ioreport dump (>) differ:\n' +
              '\n'.join(bad), file=sys.stderr)
        return 1
    return 0


sys.exit(main(sys.argv[1:]))
