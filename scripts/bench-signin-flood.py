#!/usr/bin/env python3
"""Player actions during a sign-in flood: the median time of one player's acknowledged action (a new Mastermind
game) alone, then while 32 clients from 40 loopback addresses (127.0.0.10-49) post wrong sign-ins with random
names as fast as they are answered. Prints "ALONE_MS DURING_MS SIGNINS_ANSWERED REFUSED" (ms medians).
Usage: bench-signin-flood.py HOST PORT SECONDS"""
import http.client
import multiprocessing
import random
import re
import statistics
import sys
import time

host, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])


def visit(connection, path):
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    cookies = "; ".join(v.split(";")[0] for k, v in response.getheaders() if k.lower() == "set-cookie")
    return cookies, re.search(rb'name="csrf-token" content="([^"]+)"', body).group(1).decode()


def post(connection, path, cookies, body):
    connection.request("POST", path, body, {"Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    response.read()
    return response.status


players_made = 0


def new_player():
    """A fresh player, its row made before timing; from addresses of their own (127.0.0.60-69), each of which may
    make a few players a minute."""
    global players_made
    address = "127.0.0.%d" % (60 + players_made % 10)
    players_made += 1
    connection = http.client.HTTPConnection(host, port, source_address=(address, 0))
    cookies, csrf = visit(connection, "/")
    post(connection, "/mastermind/new", cookies, "csrf=" + csrf)
    return connection, cookies, csrf


def player_medians(duration):
    # A player may start a game a second after a burst (the per-player budget): the action goes round players,
    # each taking a share of its burst.
    times = []
    end = time.monotonic() + duration
    while time.monotonic() < end:
        connection, cookies, csrf = new_player()
        for _ in range(40):
            if time.monotonic() >= end:
                break
            start = time.monotonic()
            assert post(connection, "/mastermind/new", cookies, "csrf=" + csrf) in (200, 303)
            times.append((time.monotonic() - start) * 1000)
            time.sleep(0.01)
    return statistics.median(times)


def flooder(index, duration, counts):
    answered, refused = 0, 0
    connections = []
    for k in range(8):
        address = "127.0.0.%d" % (10 + (index * 8 + k) % 40)
        connection = http.client.HTTPConnection(host, port, source_address=(address, 0))
        connections.append((connection, *visit(connection, "/admin/login")))
    end = time.monotonic() + duration
    while time.monotonic() < end:
        for connection, cookies, csrf in connections:
            name = "guess%d" % random.randrange(1 << 30)
            status = post(connection, "/admin/login", cookies, "csrf=%s&name=%s&password=wrong" % (csrf, name))
            answered += 1
            refused += status in (429, 503)
    counts.put((answered, refused))


alone = player_medians(seconds)
counts = multiprocessing.Queue()
# 4 processes of 8 connections each: 32 clients, from 40 addresses between them.
flood = [multiprocessing.Process(target=flooder, args=(i, seconds + 3, counts)) for i in range(4)]
for process in flood:
    process.start()
time.sleep(2)
during = player_medians(seconds)
results = [counts.get() for _ in flood]
for process in flood:
    process.join()
print("%.2f %.2f %d %d" % (alone, during, sum(a for a, _ in results), sum(r for _, r in results)))
