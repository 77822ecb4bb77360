#!/usr/bin/env python3
"""Seeds a stopped site's SQLite file with PLAYERS players and about ACTIONS actions over the last 30 days (Mastermind
games and guesses, Name Game rounds and their faces, cheat marks), spread as a real site's would be.
    bench-insights.py seed FILE PLAYERS ACTIONS
Then signs in as an admin and times GET /admin/insights (the median of RUNS tries, in ms):
    bench-insights.py time HOST PORT NAME PASSWORD RUNS"""
import http.client
import random
import re
import sqlite3
import statistics
import sys
import time
import urllib.parse

def seed(path, players, actions):
    random.seed(28)
    db = sqlite3.connect(path)
    now = int(time.time())
    start = now - 30 * 86400
    people = [row[0] for row in db.execute("SELECT id FROM people")]
    modes = ["normal", "hard", "learn", "review"]
    ids = [f"bench{i:07d}" for i in range(players)]
    db.executemany("INSERT INTO players (id, first_seen) VALUES (?, ?)",
                   ((p, random.randint(start, now)) for p in ids))
    # About a third of the actions are guesses, a third Name Game rounds (each with six faces counted as one), the
    # rest games and cheat marks.
    games = actions // 6
    game_rows, guess_rows, dailies = [], [], set()
    for g in range(1, games + 1):
        created = random.randint(start, now)
        player = random.choice(ids)
        # Finished games only: a player has at most one game in play, and one daily game a day.
        status = random.choice(["won", "won", "lost"])
        finished = min(now, created + random.randint(30, 900))
        daily = (created // 86400) if random.random() < 0.2 and (player, created // 86400) not in dailies else None
        if daily is not None:
            dailies.add((player, daily))
        game_rows.append((g, player, "1234", 4, 1, 6, 10, status, created, finished, daily, daily))
        for n in range(1, random.randint(2, 3) + 1):
            guess_rows.append((g, n, "1111", 1, 1, 2, "rbgg"))
    db.executemany("""INSERT INTO mastermind_games (id, player, secret, code_length, digit_min, digit_max, attempts,
                      status, created, finished, daily, played_day) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)""", game_rows)
    db.executemany("""INSERT INTO mastermind_guesses (game, number, guess, red, blue, gray, pegs)
                      VALUES (?,?,?,?,?,?,?)""", guess_rows)
    rounds = actions // 3
    session_rows, round_rows, face_rows = [], [], []
    for s in range(1, rounds // 10 + 1):
        session_rows.append((s, random.choice(ids), random.choice(modes), (start + random.randint(0, 30 * 86400)) * 1000))
    for r in range(1, rounds + 1):
        session = random.randint(1, len(session_rows))
        _, player, mode, _ = session_rows[session - 1]
        started = random.randint(start, now) * 1000
        status = random.choice(["identified", "identified", "identified", "failed"])
        round_rows.append((r, session, player, mode, 0, started, status, started + random.randint(1000, 20000)))
        face_rows.append((r, 0, random.choice(people)))
    db.executemany("""INSERT INTO namegame_sessions (id, player, mode, started_ms, ended) VALUES (?,?,?,?,1)""", session_rows)
    db.executemany("""INSERT INTO namegame_rounds (id, session, player, mode, answer, started_ms, status, finished_ms)
                      VALUES (?,?,?,?,?,?,?,?)""", round_rows)
    db.executemany("INSERT INTO namegame_round_faces (round, position, person) VALUES (?,?,?)", face_rows)
    marks = actions - len(game_rows) - len(guess_rows) - len(round_rows)
    db.executemany("INSERT OR IGNORE INTO once_marks (player, task, at_ms, times) VALUES (?,?,?,1)",
                   ((random.choice(ids), random.choice(["cheat.konami", "cheat.retro", "cheat.crt", "whatsnew"]),
                     random.randint(start, now) * 1000) for _ in range(max(0, marks))))
    # The run that made the schema stored its closed days, empty then: these rows are history it never saw.
    db.execute("DELETE FROM insights_days")
    db.commit()
    total = len(game_rows) + len(guess_rows) + len(round_rows) + max(0, marks)
    print(f"seeded {players} players and {total} actions")

def timed(host, port, name, password, runs):
    c = http.client.HTTPConnection(host, port)
    c.request("GET", "/admin/login")
    r = c.getresponse()
    body = r.read()
    cookies = "; ".join(v.split(";")[0] for k, v in r.getheaders() if k.lower() == "set-cookie")
    csrf = re.search(rb'name="csrf" value="([^"]+)"', body).group(1).decode()
    form = urllib.parse.urlencode({"csrf": csrf, "name": name, "password": password})
    c.request("POST", "/admin/login", form, {"Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded"})
    r = c.getresponse()
    r.read()
    cookies += "; " + "; ".join(v.split(";")[0] for k, v in r.getheaders() if k.lower() == "set-cookie")
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        c.request("GET", "/admin/insights", headers={"Cookie": cookies})
        r = c.getresponse()
        r.read()
        assert r.status == 200, r.status
        times.append((time.perf_counter() - t) * 1000)
    # The first read loads the stored days from the database; every read sums today's last hour or so live.
    print(f"/admin/insights: first {times[0]:.0f} ms; then median {statistics.median(times[1:]):.0f} ms,"
          f" worst {max(times[1:]):.0f} ms over {runs - 1} tries (target: under 200 ms, every load)")

if sys.argv[1] == "seed":
    seed(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
else:
    timed(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6]))
