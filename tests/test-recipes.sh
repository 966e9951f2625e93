#!/usr/bin/env bash
# test-recipes.sh - analyze/README.md's recipes, followed once: in a copy
# of the source tree, a new view ("example": requests per device and
# operation) and a new finding ("example-device-writes": each device's
# written bytes, citing the wa view) are added exactly where "Where the
# next things go" says (a sink/view-*.c declared in sink/sink.h, a
# cmd-*.c with its struct view_cmd, a row of ioreport.c's table, a rule in
# a stats/findings-*.c declared in findings-int.h with a row of rules[],
# each file in its folder's local.mk), the copy is configured and built,
# and what the new view and finding print is held to the views that
# already print the same numbers (devices, wa).  When the code moves and
# the README does not, this test fails.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
export LC_ALL=C
for c in autoreconf make cc python3; do
	command -v $c >/dev/null || { echo "SKIP: $c needed to build a copy"; exit 77; }
done
fail=0
bad() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/src
sample=$top_srcdir/samples/story000-sqlite-before.iorec
mkdir "$src"
# the sources only: no build products, no git, no samples or goldens
(cd "$top_srcdir" && tar cf - --exclude=.git --exclude=samples \
	--exclude=tests/golden --exclude='*.o' --exclude='*.a' --exclude='*.lo' \
	--exclude='*.la' --exclude=.deps --exclude=.libs --exclude=.dirstamp \
	--exclude=autom4te.cache --exclude='*.log' --exclude='*.trs' \
	--exclude=config.status --exclude=Makefile --exclude=config.h \
	--exclude=libtool --exclude=stamp-h1 --exclude=./iorec --exclude=./ioreport \
	.) | (cd "$src" && tar xf -) || { echo "FAIL: copying the sources"; exit 1; }
chmod -R u+w "$src"

# --- a new view: sink/view-example.c, cmd-example.c, a row in ioreport.c
cat >"$src/analyze/sink/view-example.c" <<'EOF'
// SPDX-License-Identifier: MIT
/* view-example.c - requests per device and operation (recipe test). */
#include "config.h"

#include <inttypes.h>

#include "sink/json.h"
#include "sink/sink.h"
#include "stats/stats.h"

void view_example(struct sink *s)
{
	const struct stats *st = s->st;
	char buf[64];

	if (s->j)
		json_array_begin(s->j, "example");
	for (size_t i = 0; i < st->ndev; i++) {
		const struct devstat *d = &st->dev[i];
		const char *name = stats_dev_name(st, d->dev, buf, sizeof(buf));
		const char *op = blk_op_name(d->op);

		if (!s->j) {
			fprintf(s->out, "%-12s %-6s %" PRIu64 "\n", name, op,
				d->reqs);
			continue;
		}
		json_object_begin(s->j, NULL);
		json_str(s->j, "device", name);
		json_str(s->j, "op", op);
		json_u64(s->j, "requests", d->reqs);
		json_object_end(s->j);
	}
	if (s->j)
		json_array_end(s->j);
}
EOF
cat >"$src/analyze/cmd-example.c" <<'EOF'
// SPDX-License-Identifier: MIT
/* cmd-example.c - `ioreport example` (recipe test). */
#include "config.h"

#include "cmd.h"
#include "driver.h"
#include "sink/sink.h"

static const char example_usage[] =
"usage: ioreport example [--json] FILE\n";

static int print_example(struct sink *s, const struct view_opts *o,
			 struct stats *after)
{
	(void)o;
	(void)after;
	view_example(s);
	return 0;
}

const struct view_cmd cmd_example = {
	.usage = example_usage, .shortopts = "jh",
	.want = AN_BLOCK, .print = print_example,
};
EOF
# --- a new finding: stats/findings-example.c and a row of rules[]
cat >"$src/analyze/stats/findings-example.c" <<'EOF'
// SPDX-License-Identifier: MIT
/* findings-example.c - each device's written bytes (recipe test). */
#include "config.h"

#include "stats/findings-int.h"
#include "stats/stats.h"
#include "stats/wa.h"
#include "base/units.h"

void rule_example(struct ctx *c)
{
	const struct wa *wa = c->st->wa;

	for (size_t i = 0; wa && i < wa->ndev; i++) {
		const struct wa_dev *d = &wa->dev[i];
		struct sbuf sb = SBUF_INIT;
		struct finding *x;
		char buf[96];

		if (!d->ops.bytes[BLK_OP_WRITE])
			continue;
		x = fnd_add(c, "example-device-writes", FND_INFO, 0);
		stats_dev_name(c->st, d->dev, buf, sizeof(buf));
		fnd_ent(c, x, "device", buf, d->dev);
		fnd_ev_view(x, "wa");
		fnd_evs(c, x, "device", buf);
		fnd_evn(x, "write_bytes", (double)d->ops.bytes[BLK_OP_WRITE]);
		sbuf_addf(&sb, "%s was written ", buf);
		units_add_bytes(&sb, (double)d->ops.bytes[BLK_OP_WRITE]);
		sbuf_addstr(&sb, ".");
		fnd_say(c, x, &sb, "wa");
	}
}
EOF
python3 - "$src" <<'PY' || { echo "FAIL: a place the README names is not there"; exit 1; }
import re, sys
src = sys.argv[1]
def edit(path, anchor, text, after=True):
    p = src + '/' + path
    s = open(p).read()
    if anchor not in s:
        sys.exit('%s: no %r' % (path, anchor))
    i = s.index(anchor) + (len(anchor) if after else 0)
    open(p, 'w').write(s[:i] + text + s[i:])
# the view: declared in sink/sink.h, the command in cmd.h and ioreport.c
edit('analyze/sink/sink.h', '#endif /* IOREPORT_SINK_SINK_H */',
     'void view_example(struct sink *s);\n', after=False)
edit('analyze/cmd.h', '#endif /* IOREPORT_CMD_H */',
     'extern const struct view_cmd cmd_example;\n', after=False)
edit('analyze/ioreport.c', 'static const struct command commands[] = {\n',
     '\t{ "example",   NULL,     &cmd_example,   "requests per device and operation (recipe test)" },\n')
# the finding: declared in findings-int.h, a row of rules[]
edit('analyze/stats/findings-int.h', 'void rule_wear(struct ctx *c);',
     '\nvoid rule_example(struct ctx *c);')
edit('analyze/stats/findings.c', '} rules[] = {\n',
     '\t{ "example-device-writes", rule_example },\n')
# each file in its folder's local.mk
edit('analyze/local.mk', '\tanalyze/cmd-dirty.c \\\n', '\tanalyze/cmd-example.c \\\n')
edit('analyze/sink/local.mk', '\tanalyze/sink/view-wa.c \\\n',
     '\tanalyze/sink/view-example.c \\\n')
edit('analyze/stats/local.mk', '\tanalyze/stats/findings-write.c \\\n',
     '\tanalyze/stats/findings-example.c \\\n')
PY

(cd "$src" && autoreconf -fi && ./configure -q && make -s -j2 ioreport) \
	>"$tmp/build.log" 2>&1 ||
	{ tail -30 "$tmp/build.log"; echo "FAIL: the copy with the new view and finding does not build"; exit 1; }
new=$src/ioreport

"$new" --help 2>&1 | grep -q '^ *example ' || bad "ioreport --help does not list the new view"
"$new" example --json "$sample" >"$tmp/example.json" || bad "ioreport example failed"
"$new" devices --json "$sample" >"$tmp/devices.json" || bad "ioreport devices failed"
"$new" wa --json "$sample" >"$tmp/wa.json" || bad "ioreport wa failed"
"$new" findings --json "$sample" >"$tmp/findings.json" || bad "ioreport findings failed"
python3 - "$tmp" <<'PY' || bad "the new view or finding disagrees with devices or wa"
import json, sys
t = sys.argv[1]
load = lambda n: json.load(open('%s/%s.json' % (t, n)))
ex, dv, wa, fd = load('example'), load('devices'), load('wa'), load('findings')
ok = True
got = {(r['device'], r['op']): r['requests'] for r in ex['example']}
want = {(r['device'], r['op']): r['requests'] for r in dv['devices']
        if r['op'] in ('read', 'write') and r['requests']}
for k, v in want.items():
    if got.get(k) != v:
        print('example %s: %s requests, devices says %s' % (k, got.get(k), v))
        ok = False
walk = {d['device']: d['write_bytes'] for d in wa['devices'] if d.get('write_bytes')}
mine = [x for x in fd['findings'] if x['rule'] == 'example-device-writes']
if not mine or len(mine) != len(walk):
    print('%d example findings for %d devices with writes' % (len(mine), len(walk)))
    ok = False
for x in mine:
    e = x['evidence']
    if walk.get(e['device']) != e['write_bytes']:
        print('finding on %s: %s bytes, wa says %s' % (e['device'], e['write_bytes'], walk.get(e['device'])))
        ok = False
print('%d device rows, %d findings checked against devices and wa' % (len(want), len(mine)))
sys.exit(0 if ok else 1)
PY
exit $fail
