#!/usr/bin/env python3
"""Holds N keep-alive connections open to a server, idle, until killed.

Each connection first completes one request, so it is a real idle
keep-alive connection (not one waiting for its first request).
Prints "ready N" once all are open; on SIGTERM prints how many are still open.
"""
import resource, select, signal, socket, sys, time

host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 64)), hard))

socks = []
for _ in range(count):
    s = socket.create_connection((host, port))
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n")
    socks.append(s)
for s in socks:
    s.settimeout(10)
    data = b""
    while b"\r\n\r\nok" not in data:
        chunk = s.recv(4096)
        if not chunk:
            sys.exit("a connection closed before its first response")
        data += chunk
print(f"ready {count}", flush=True)

def report(*_):
    # A closed connection reads as EOF without blocking.
    readable, _, _ = select.select([], [], [], 0)
    still = 0
    for s in socks:
        s.setblocking(False)
        try:
            still += 1 if s.recv(1) else 0
        except BlockingIOError:
            still += 1
        except OSError:
            pass
    print(f"open {still}", flush=True)
    sys.exit(0)

signal.signal(signal.SIGTERM, report)
while True:
    time.sleep(3600)
