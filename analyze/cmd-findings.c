// SPDX-License-Identifier: MIT
/*
 * cmd-findings.c - `ioreport findings`: what a recording says in plain
 * sentences, ranked by the time lost (the rules of stats/findings.h,
 * printed by sink/view-findings.c), from the pass with write
 * amplification and dirty throttling (AN_WA | AN_DIRTY).
 */
#include "config.h"

#include "cmd.h"
#include "driver.h"
#include "sink/sink.h"

#define DEFAULT_TOP	20

static const char findings_usage[] =
"usage: ioreport findings [--json | --csv] [--top N] [--by WHAT] [FILTERS] FILE\n"
"\n"
"  -j, --json           one JSON object with a \"findings\" array (rule,\n"
"                       severity, entities, numbers in ns and bytes,\n"
"                       evidence: the view its numbers come from and\n"
"                       that view's fields, sentence, the command that\n"
"                       shows more)\n"
"      --csv            one row per finding: rank, rule, severity, caveat,\n"
"                       lost_ns, view, its evidence fields (the JSON's\n"
"                       names), sentence\n"
"  -n, --top N          at most N findings (default 20)\n"
"      --by unit|container|cgroup  first a table of the findings grouped\n"
"                       by the systemd unit, container or cgroup of the\n"
"                       process each names (\"-\": of none): how many,\n"
"                       their time lost summed, their ranks and rules;\n"
"                       JSON: by, groups, findings_of_no_process; --csv:\n"
"                       the groups\n"
"  -h, --help           this help\n"
VIEW_FILTER_HELP
"\n"
"Answers instead of tables: who loses time on what, one plain sentence\n"
"each naming the process, the files and the device with the numbers\n"
"behind it and the command that shows more, ranked by the time they\n"
"cost, then the caveats about the data (lost events, a damaged file,\n"
"missing event types, I/O that could not be named): fsync\n"
"domination, a slow device (and the small scattered writes of an SD\n"
"card), flushes and barriers, dirty throttling, write amplification and\n"
"its cause, read misses, I/O wait, flash wear per day.  Rules, thresholds\n"
"and what can fool them: docs/findings.md.  Filtered, the findings are\n"
"those of what the filters keep (as the views show it with the same\n"
"filters).\n";

static int print_findings(struct sink *s, const struct view_opts *o,
			  struct stats *after)
{
	(void)after;
	if (view_require_block(s, s->st->info->path))
		return 1;
	view_findings(s, o->top);
	return 0;
}

const struct view_cmd cmd_findings = {
	.usage = findings_usage, .shortopts = "jn:h",
	VIEW_TOP_LISTS(DEFAULT_TOP),
	.want = AN_WA | AN_DIRTY, .slow = true, .filters = true, .csv = true,
	.by = true,
	.print = print_findings,
};
