# tests/export/: `ioreport export` against the recording it reads: the
# Perfetto timeline's slices and counters against the recording's events
# (samples; then a known workload, live: root, tracefs, a loop device).
EXPORT_TESTS = tests/export/perfetto.sh tests/export/fio.sh
TESTS += $(EXPORT_TESTS)
EXTRA_DIST += $(EXPORT_TESTS) tests/export/check-perfetto.py tests/export/writer.py
