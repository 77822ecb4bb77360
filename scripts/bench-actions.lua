-- wrk script for the write-path benchmark: every request is one player's
-- cheat action (a committed write), the players taken in turn from the file
-- that scripts/bench-players.py wrote (PLAYERS in the environment).
local players = {}
for line in io.lines(os.getenv("PLAYERS")) do
    local cookie, csrf = line:match("^(.-)\t(.+)$")
    players[#players + 1] = { cookie = cookie, body = "csrf=" .. csrf .. "&kind=key&value=x" }
end
local next = 0

request = function()
    next = next % #players + 1
    local p = players[next]
    return wrk.format("POST", "/cheats/actions", {
        ["Cookie"] = p.cookie,
        ["Content-Type"] = "application/x-www-form-urlencoded",
    }, p.body)
end
