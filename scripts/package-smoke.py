"""Smoke test of an installed Arcade (scripts/package-test): the home page, a Mastermind game, an admin sign-in and a
backup, as a person and an operator would, over HTTP on loopback. Prints each step; exits 1 on the first failure."""
import http.cookiejar, json, os, re, secrets, subprocess, sys, time, urllib.error, urllib.parse, urllib.request

port, log = int(sys.argv[1]), sys.argv[2]
base = f"http://127.0.0.1:{port}"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


def client():
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect())


def fetch(opener, path, fields=None):
    data = urllib.parse.urlencode(fields).encode() if fields is not None else None
    try:
        with opener.open(base + path, data=data, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def csrf(page):
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def check(what, ok):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        sys.exit(1)


# The server is up when it answers (it was started a moment ago as another user).
deadline = time.monotonic() + 60
while True:
    try:
        status, _ = fetch(client(), "/healthz")
        break
    except OSError:
        check("the server started within 60 s", time.monotonic() < deadline)
        time.sleep(0.1)

player = client()
status, home = fetch(player, "/")
check(f"home page: {status}", status == 200 and "Mastermind" in home)
status, page = fetch(player, "/mastermind")
check(f"Mastermind page: {status}", status == 200)
token = csrf(page)
status, _ = fetch(player, "/mastermind/new", {"csrf": token})
check(f"new game: {status}", status == 303)
status, page = fetch(player, "/mastermind")
game = re.search(r'name="game" value="([^"]+)"', page).group(1)
turn = re.search(r'name="turn" value="([^"]+)"', page).group(1)
status, _ = fetch(player, "/mastermind/guess", {"csrf": csrf(page), "game": game, "turn": turn, "guess": "0123"})
check(f"a guess: {status}", status == 303)
status, page = fetch(player, "/mastermind")
check("the guess is on the board", status == 200 and "0123" in re.sub(r"<[^>]+>|\s", "", page))

# An admin made on the command line (as the arcade user, the password on standard input), then signed in.
password = secrets.token_urlsafe(18)
made = subprocess.run(
    ["runuser", "-u", "arcade", "--", "/usr/bin/arcade", "admin", "create", "smoke", "--db",
     "/var/lib/arcade/arcade.sqlite"], input=password + "\n", text=True, capture_output=True, cwd="/")
check(f"arcade admin create: {made.stdout.strip()} {made.stderr.strip()}", made.returncode == 0)
admin = client()
status, page = fetch(admin, "/admin/login")
status, _ = fetch(admin, "/admin/login", {"csrf": csrf(page), "name": "smoke", "password": password})
check(f"admin sign-in: {status}", status == 303)
status, page = fetch(admin, "/admin")
check(f"admin console: {status}", status == 200)

backup = "/var/lib/arcade/backups/smoke.sqlite"
made = subprocess.run(
    ["runuser", "-u", "arcade", "--", "/usr/bin/arcade", "db", "backup", backup, "--db",
     "/var/lib/arcade/arcade.sqlite"], text=True, capture_output=True, cwd="/")
check(f"arcade db backup: exit {made.returncode}", made.returncode == 0 and os.path.getsize(backup) > 0)
check(f"the backup is the arcade user's alone: {oct(os.stat(backup).st_mode & 0o777)}",
      os.stat(backup).st_mode & 0o077 == 0)
status, page = fetch(admin, "/admin/people")
check("the Name Game starts with an empty directory (ARCADE_DEMO_PEOPLE=off)",
      status == 200 and "data-person=" not in page)

# The log is JSON (the env file says so): every line, start-up and access lines alike, parses with time and level.
def parsed(line):
    try:
        return json.loads(line)
    except ValueError:
        print(f"not JSON: {line}")
        return {}


with open(log) as f:
    lines = [parsed(line) for line in f.read().splitlines()]
check(f"{len(lines)} JSON log lines parse, each with time and level",
      len([l for l in lines if l.get("msg") == "access"]) >= 8 and all("time" in l and "level" in l for l in lines))
