# tests/accuracy/: live accuracy tests of ioreport against known truths
# measured in the same run (/proc/diskstats, blktrace's btt, trace-cmd, fio).
# Each needs root and tracefs and skips (exit 77) without them; those that
# use the top-level tracefs buffer take /run/iorec-test-toplevel.lock.
ACCURACY_TESTS = \
	tests/accuracy/diskstats.sh \
	tests/accuracy/btt-d2c.sh \
	tests/accuracy/btt-parity.sh \
	tests/accuracy/fio-oracle.sh \
	tests/accuracy/strace-sqlite.sh \
	tests/accuracy/tracedat-vs-iorec.sh \
	tests/accuracy/devices-bytes.sh \
	tests/accuracy/attrib.sh \
	tests/accuracy/attrib-stacked.sh \
	tests/accuracy/procfiles.sh \
	tests/accuracy/wa.sh \
	tests/accuracy/db.sh

TESTS += $(ACCURACY_TESTS)
EXTRA_DIST += $(ACCURACY_TESTS) \
	tests/accuracy/acc-lib.sh \
	tests/accuracy/acc-devstats.py \
	tests/accuracy/btt-recompute.py \
	tests/accuracy/blk-capture.sh
