#!/usr/bin/env python3
"""A flood of new HTTPS visitors: CLIENTS processes, each making full handshakes one after another (no session
resumed: every connection gets a fresh SSL context's worth of nothing), each fetching PATH once with Connection:
close. Prints "CONNECTIONS_PER_SECOND P99_MS" over the measured window (after a one-second warm-up); any failed
connection stops it with an error, as wrk's errors do in scripts/bench-tls.

    bench-tls-flood.py HOST PORT PATH SECONDS [CLIENTS]
"""
import multiprocessing
import socket
import ssl
import sys
import time

WARM = 1.0


def client(host, port, path, start, stop, out):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the client's verifying is not what is measured
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
    times, errors = [], 0
    while time.monotonic() < start:
        time.sleep(0.001)
    while True:
        began = time.monotonic()
        if began >= stop:
            break
        try:
            with socket.create_connection((host, port)) as raw, context.wrap_socket(raw) as tls:
                tls.sendall(request)
                head = b""
                while True:
                    chunk = tls.recv(65536)
                    if not chunk:
                        break
                    head = head or chunk
                if not head.startswith(b"HTTP/1.1 200"):
                    raise OSError(f"answer {head[:40]!r}")
        except (OSError, ssl.SSLError) as error:
            errors += 1
            out.put(("error", str(error)))
            break
        ended = time.monotonic()
        if began >= start + WARM and ended <= stop:
            times.append(ended - began)
    out.put(("done", times, errors))


def main():
    host, port, path, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    clients = int(sys.argv[5]) if len(sys.argv) > 5 else 8
    start = time.monotonic() + 0.5
    stop = start + WARM + seconds
    out = multiprocessing.Queue()
    workers = [multiprocessing.Process(target=client, args=(host, port, path, start, stop, out))
               for _ in range(clients)]
    for worker in workers:
        worker.start()
    times = []
    for _ in workers:
        message = out.get()
        if message[0] == "error":
            sys.exit(f"a connection failed: {message[1]}")
        times += message[1]
    for worker in workers:
        worker.join()
    if not times:
        sys.exit("no connection completed")
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
    print(f"{len(times) / seconds:.0f} {p99:.2f}")


if __name__ == "__main__":
    main()
