#!/usr/bin/env python3
"""Makes N players for the write-path benchmark: each visits the home page
once (cookies and CSRF token, no row yet) and the lines `COOKIE<TAB>CSRF`
go to standard output for scripts/bench-actions.lua."""
import http.client
import re
import sys

host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
connection = http.client.HTTPConnection(host, port)
for _ in range(count):
    connection.request("GET", "/")
    response = connection.getresponse()
    body = response.read()
    cookies = "; ".join(value.split(";")[0] for name, value in response.getheaders() if name.lower() == "set-cookie")
    csrf = re.search(rb'name="csrf-token" content="([^"]+)"', body).group(1).decode()
    print(cookies + "\t" + csrf)
