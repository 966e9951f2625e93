#!/usr/bin/env python3
"""commit-loop.py DB N - N committed SQLite transactions with
synchronous=FULL, like the Bcfg2 statistics import of story 001."""
import sqlite3, sys
import ctypes
# the process name the story's users saw (prctl PR_SET_NAME)
ctypes.CDLL(None).prctl(15, b"bcfg2-server", 0, 0, 0)
c = sqlite3.connect(sys.argv[1])
c.execute("pragma journal_mode=delete")
c.execute("pragma synchronous=full")
c.execute("create table if not exists stats(id integer primary key, client text, value text)")
for i in range(int(sys.argv[2])):
    with c:
        c.execute("insert into stats(client, value) values (?, ?)", ("host%d" % (i % 7), "x" * 200))
