# analyze/stats/: attribution and aggregates
# what one pass computed, as the sinks see it; latency histograms
analyze_libioreport_a_SOURCES += analyze/stats/stats.h analyze/stats/stats.c analyze/stats/anomalies.c \
	analyze/stats/hist.h analyze/stats/hist.c \
	analyze/stats/busy.h analyze/stats/busy.c \
	analyze/stats/btt.h analyze/stats/btt.c
# processes and files: syscall aggregates, block I/O attribution, identity
analyze_libioreport_a_SOURCES += \
	analyze/stats/account.h analyze/stats/account.c \
	analyze/stats/attrib.h analyze/stats/attrib.c \
	analyze/stats/fileid.h analyze/stats/fileid.c
# write amplification and fsync cost; dirty throttling
analyze_libioreport_a_SOURCES += analyze/stats/wa.h analyze/stats/wa.c \
	analyze/stats/dirty.h analyze/stats/dirty.c
# the rows the views print, the summary's diskstats and config
analyze_libioreport_a_SOURCES += analyze/stats/rows.h analyze/stats/rows.c \
	analyze/stats/summary.h analyze/stats/summary.c \
	analyze/stats/filter.h analyze/stats/filter.c \
	analyze/stats/owner.h analyze/stats/owner.c \
	analyze/stats/interval.h analyze/stats/interval.c \
	analyze/stats/trigger.h analyze/stats/trigger.c
# two recordings: what changed in the machine, the diff model
analyze_libioreport_a_SOURCES += \
	analyze/stats/snapcmp.h analyze/stats/snapcmp.c \
	analyze/stats/diffmodel.h analyze/stats/diffmodel.c \
	analyze/stats/diffpair.h analyze/stats/diffpair.c \
	analyze/stats/signif.h analyze/stats/signif.c
# findings: the rules that answer (findings.h, docs/findings.md)
analyze_libioreport_a_SOURCES += \
	analyze/stats/findings.h analyze/stats/findings.c \
	analyze/stats/findings-int.h analyze/stats/findings-more.c \
	analyze/stats/findings-sync.c analyze/stats/findings-device.c \
	analyze/stats/findings-write.c \
	analyze/stats/findings-diff.c
# what the HTML page plots over time: bins and samples
analyze_libioreport_a_SOURCES += \
	analyze/stats/timeline.h analyze/stats/timeline.c
