# tests/live/ build fragment: live tests that record real kernel events
# with iorec (need root and tracefs; each skips with exit 77 otherwise).
LIVE_TESTS = \
	tests/live/record-check.sh \
	tests/live/record-dd.sh \
	tests/live/record-rawsyscalls.sh \
	tests/live/record-stdout.sh \
	tests/live/record-signals.sh \
	tests/live/record-kill9.sh \
	tests/live/record-enospc.sh \
	tests/live/record-flight.sh \
	tests/live/record-blackbox.sh \
	tests/live/record-blackbox-iowait.sh tests/live/record-blackbox-d2c.sh \
	tests/live/blackbox-service.sh \
	tests/live/record-rotate.sh \
	tests/live/record-rotate-set.sh \
	tests/live/record-limits.sh \
	tests/live/record-cut.sh \
	tests/live/record-compat-auto.sh \
	tests/live/record-filter.sh \
	tests/live/record-command-only.sh \
	tests/live/record-overrun.sh \
	tests/live/record-self.sh \
	tests/live/record-inode-uncached.sh

# ioreport on live A/B recordings (stories 001 and 002); redact of names
# the test makes up
REPORT_LIVE_TESTS = \
	tests/live/report-fsync.sh \
	tests/live/report-dirty.sh \
	tests/live/report-split.sh \
	tests/live/report-bitesize.sh \
	tests/live/report-findings.sh \
	tests/live/report-diff-moved.sh \
	tests/live/report-findings-rules.sh \
	tests/live/report-filters.sh \
	tests/live/report-owners.sh \
	tests/live/redact-live.sh \
	tests/live/redact-hostile.sh \
	tests/live/report-fsync-many.sh

# every way a program writes a file lands on that file (issue 13)
PATHS_LIVE_TESTS = \
	tests/live/paths-exec.sh \
	tests/live/paths-uring.sh \
	tests/live/paths-copy.sh \
	tests/live/paths-names.sh \
	tests/live/paths-mmap.sh \
	tests/live/paths-closed.sh \
	tests/live/paths-aio.sh \
	tests/live/paths-static.sh

TESTS += $(LIVE_TESTS) $(REPORT_LIVE_TESTS) $(PATHS_LIVE_TESTS)
EXTRA_DIST += $(LIVE_TESTS) $(REPORT_LIVE_TESTS) $(PATHS_LIVE_TESTS) \
	tests/live/lib.sh tests/live/paths-lib.sh \
	bench/lib.sh bench/record-bench.sh bench/report-bench.sh bench/db-bench.sh \
	bench/storm-bench.sh bench/blackbox-bench.sh bench/rotate-bench.sh \
	bench/html-bench.sh bench/README
