#!/usr/bin/env python3
"""ha-recorder.py DB SECONDS - a recorder like Home Assistant's: every 20 ms
a transaction of 5 state rows and one query, in WAL mode (story 000)."""
import sqlite3, sys, time, random
import ctypes
# the process name the story's users saw (prctl PR_SET_NAME)
ctypes.CDLL(None).prctl(15, b"hass", 0, 0, 0)
db, secs = sys.argv[1], float(sys.argv[2])
c = sqlite3.connect(db)
c.execute("pragma journal_mode=wal")
c.execute("pragma synchronous=normal")
end = time.time() + secs
n = 0
while time.time() < end:
    with c:
        for _ in range(5):
            c.execute("insert into states(entity_id, state, attributes, last_updated) values (?,?,?,?)",
                      ("sensor.%d" % random.randrange(60), str(random.random()),
                       '{"unit": "W", "friendly_name": "sensor"}' * 4, time.time()))
        c.execute("select count(*) from states where entity_id=?", ("sensor.%d" % random.randrange(60),)).fetchone()
    n += 1
    time.sleep(0.02)
c.execute("pragma wal_checkpoint(truncate)")
print("transactions", n)
