#!/usr/bin/env python3
"""Live push figures: holds N idle event streams on a running arcade, reports its RSS before and after, then
switches maintenance on for ios through the admin (signing in with the first-start password from the log) and
times until every stream has the new ETag.
usage: scripts/bench-sse.py PORT PID LOGFILE [N]"""
import re
import selectors
import socket
import sys
import time
import urllib.parse
import urllib.request
import http.cookiejar

port, pid, log = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
count = int(sys.argv[4]) if len(sys.argv) > 4 else 2000


def rss_mb():
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) / 1024


before = rss_mb()
streams = []
for _ in range(count):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /api/interceptions/events HTTP/1.1\r\nHost: bench\r\n\r\n")
    streams.append(s)
for s in streams:
    got = b""
    while b"data: " not in got or not got.endswith(b"\n\n"):
        got += s.recv(4096)
    s.setblocking(False)
time.sleep(0.5)
held = rss_mb()

jar = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
base = f"http://127.0.0.1:{port}"
page = opener.open(base + "/admin/login").read().decode()
csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
password = open(re.search(r"its password is in (\S+)", open(log).read()).group(1)).read().strip()
opener.open(base + "/admin/login", urllib.parse.urlencode({"csrf": csrf, "name": "admin", "password": password}).encode())

selector = selectors.DefaultSelector()
for s in streams:
    selector.register(s, selectors.EVENT_READ)
start = time.monotonic()
opener.open(base + "/admin/maintenance", urllib.parse.urlencode(
    {"csrf": csrf, "platform": "ios", "switch": "on", "confirm": "1"}).encode())
waiting, latencies = set(streams), []
while waiting and time.monotonic() - start < 10:
    for key, _ in selector.select(timeout=1):
        if key.fileobj in waiting and b"event: etag" in key.fileobj.recv(4096):
            waiting.discard(key.fileobj)
            latencies.append(time.monotonic() - start)
latencies.sort()
print(f"event streams held: {count}; arcade RSS {before:.1f} MB before, {held:.1f} MB with them "
      f"({(held - before) * 1024 / count:.1f} KB a stream)")
if latencies:
    print(f"a maintenance switch reached {len(latencies)} of {count} streams: first after {latencies[0] * 1000:.0f} ms, "
          f"median {latencies[len(latencies) // 2] * 1000:.0f} ms, last {latencies[-1] * 1000:.0f} ms (target < 2000 ms)")
sys.exit(0 if len(latencies) == count and latencies[-1] < 2 else 1)
