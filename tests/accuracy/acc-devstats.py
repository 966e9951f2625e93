#!/usr/bin/env python3
# acc-devstats.py - print the per-operation numbers of one block device from
# 'ioreport devices --json' output, one line per operation:
#
#     OP REQUESTS BYTES D2C_COUNT D2C_AVG_NS
#
# usage: acc-devstats.py DEVICES.json DEVNAME MAJ:MIN
#
# It reads the "devices" array of {dev, name, op, requests, bytes,
# device: {count, sum_ns}} objects; a missing key is an error that names it.
import json
import sys

path, devname, majmin = sys.argv[1:4]


def die(msg):
	print("acc-devstats: %s: %s" % (path, msg), file=sys.stderr)
	sys.exit(1)


try:
	doc = json.load(open(path))
	rows = [d for d in doc["devices"] if d["dev"] == majmin]
	if not rows:
		die("no device %s (%s) in \"devices\"" % (devname, majmin))
	for d in rows:
		if d.get("device") not in (None, devname):
			die("device %s is named %r, not %r" % (majmin, d["device"], devname))
		dev = d["d2c"]
		n = dev["count"]
		avg = "%.0f" % (dev["sum_ns"] / n) if n else "-"
		print(d["op"], d["requests"], d["bytes"], n, avg)
except (OSError, ValueError) as e:
	die(str(e))
except KeyError as e:
	die("no key %s in the JSON (did 'ioreport devices --json' change?)" % e)
