#!/usr/bin/env python3
"""One anonymous client hammering "new game" (and its statistics page) as fast as it is answered, on one cookie,
for SECONDS: how much the database grows (its pages, as a reader sees them), and another client's /healthz p99 during it
as a ratio to idle (target <= 2x). Prints "GROWTH_BYTES IDLE_P99_MS DURING_P99_MS NEW_GAMES REFUSED".
Usage: bench-growth.py HOST PORT DATABASE SECONDS"""
import http.client
import multiprocessing
import os
import sqlite3
import re
import sys
import time

host, port, database, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])


def size():
    """The database's pages as a reader sees them (the WAL's included; the WAL file itself is reused, not grown)."""
    db = sqlite3.connect("file:%s?mode=ro" % database, uri=True)
    try:
        return db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
    finally:
        db.close()


def healthz_p99(duration):
    """Another visitor, from its own address: /healthz one after another on a keep-alive connection."""
    connection = http.client.HTTPConnection(host, port, source_address=("127.0.0.3", 0))
    times = []
    end = time.monotonic() + duration
    while time.monotonic() < end:
        start = time.monotonic()
        connection.request("GET", "/healthz")
        connection.getresponse().read()
        times.append((time.monotonic() - start) * 1000)
        time.sleep(0.002)
    times.sort()
    return times[int(len(times) * 0.99)]


def hammer(duration, counts):
    # The prober shares this core: the hammer yields it, so the prober's times are the server's, not the
    # scheduler's between two clients.
    os.nice(19)
    connection = http.client.HTTPConnection(host, port, source_address=("127.0.0.2", 0))
    connection.request("GET", "/")
    response = connection.getresponse()
    body = response.read()
    cookies = "; ".join(v.split(";")[0] for k, v in response.getheaders() if k.lower() == "set-cookie")
    csrf = re.search(rb'name="csrf-token" content="([^"]+)"', body).group(1).decode()
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    made, refused, n = 0, 0, 0
    end = time.monotonic() + duration
    while time.monotonic() < end:
        headers["Cookie"] = cookies
        connection.request("POST", "/mastermind/new", "csrf=" + csrf, headers)
        response = connection.getresponse()
        response.read()
        for k, v in response.getheaders():
            if k.lower() == "set-cookie":
                name, value = v.split(";")[0].split("=", 1)
                cookies = "; ".join([c for c in cookies.split("; ") if not c.startswith(name + "=")] + [name + "=" + value])
        made += response.status == 303
        refused += response.status == 429
        n += 1
        if n % 10 == 0:
            connection.request("GET", "/mastermind/stats", headers={"Cookie": cookies})
            connection.getresponse().read()
    counts.put((made, refused))


idle = healthz_p99(min(seconds, 10))
before = size()
counts = multiprocessing.Queue()
process = multiprocessing.Process(target=hammer, args=(seconds, counts))
process.start()
time.sleep(1)
during = healthz_p99(seconds - 2)
made, refused = counts.get()
process.join()
print("%d %.2f %.2f %d %d" % (size() - before, idle, during, made, refused))
