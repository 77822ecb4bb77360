# Shared helpers for scripts/: sourced, not run.

# Installs Debian packages that are missing (needs root, as on CI and dev machines).
ensure_apt() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing: ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# budget NAME PID PERCENT: the process (every thread) into a cpu cgroup of its own, capped at PERCENT of a core (cfs
# quota of every 100 ms), as production gives an instance its CPU; false where none can be made (cgroup v1's cpu
# controller, or v2's cpu.max). The caller lists "${BUDGETS[@]}" and removes them (rmdir) when done.
BUDGETS=()
budget() {
    local v1=/sys/fs/cgroup/cpu v2=/sys/fs/cgroup dir quota=$(($3 * 1000))
    if [ -w "$v1/cgroup.procs" ] && [ -e "$v1/cpu.cfs_quota_us" ]; then
        dir="$v1/arcade-bench-$1"
        mkdir -p "$dir" 2>/dev/null && BUDGETS+=("$dir") && echo 100000 > "$dir/cpu.cfs_period_us" \
            && echo $quota > "$dir/cpu.cfs_quota_us" && echo "$2" > "$dir/cgroup.procs"
    elif grep -qw cpu "$v2/cgroup.controllers" 2>/dev/null && [ -w "$v2/cgroup.subtree_control" ]; then
        dir="$v2/arcade-bench-$1"
        echo +cpu > "$v2/cgroup.subtree_control" 2>/dev/null; mkdir -p "$dir" 2>/dev/null && BUDGETS+=("$dir") \
            && echo "$quota 100000" > "$dir/cpu.max" && echo "$2" > "$dir/cgroup.procs"
    else
        return 1
    fi 2>/dev/null
}
