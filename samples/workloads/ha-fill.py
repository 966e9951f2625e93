#!/usr/bin/env python3
"""ha-fill.py DB ROWS - a large state history, like a recorder never purged
(story 000's 500 MB database, scaled down)."""
import sqlite3, sys, random
import ctypes
# the process name the story's users saw (prctl PR_SET_NAME)
ctypes.CDLL(None).prctl(15, b"hass", 0, 0, 0)
db, rows = sys.argv[1], int(sys.argv[2])
c = sqlite3.connect(db)
c.execute("create table if not exists states(state_id integer primary key, entity_id text, state text, attributes text, last_updated real)")
c.execute("create index if not exists ix_states_entity on states(entity_id, last_updated)")
with c:
    for i in range(rows):
        c.execute("insert into states(entity_id, state, attributes, last_updated) values (?,?,?,?)",
                  ("sensor.%d" % random.randrange(60), str(random.random()),
                   '{"unit": "W", "friendly_name": "sensor"}' * 4, float(i)))
