"""Runs browser tests as `python3 -m unittest -v` would, with each test's wall time on its line and the slowest ten
at the end, so a slow run says where its minutes went. Where the runner's group has a CPU account (ARCADE_CPU_USAGE,
a cgroup's cpuacct.usage: Chromium's processes are not the runner's children), each test's CPU seconds too: on a busy
machine wall time says little of what a test costs.

    timed.py NAME...        these tests, in turn
    timed.py --queue FILE   tests taken one at a time from FILE (one name a line) until it is empty: several runners
                            sharing one queue finish within about one test of each other, whatever each test costs
"""
import fcntl
import os
import sys
import time
import unittest


USAGE = os.environ.get("ARCADE_CPU_USAGE")


def cpu_seconds():
    with open(USAGE) as file:
        return int(file.read()) / 1e9


class TimedResult(unittest.TextTestResult):
    times = []
    cpu = []

    def startTest(self, test):
        self._started = time.monotonic()
        self._cpu = cpu_seconds() if USAGE else 0
        super().startTest(test)

    def stopTest(self, test):
        super().stopTest(test)
        seconds = time.monotonic() - self._started
        TimedResult.times.append((seconds, test.id()))
        if USAGE:
            used = cpu_seconds() - self._cpu
            TimedResult.cpu.append((used, test.id()))
            self.stream.writeln(f"    {seconds:.1f} s, {used:.1f} CPU-s")
        else:
            self.stream.writeln(f"    {seconds:.1f} s")
        self.stream.flush()


def take(queue):
    """The next name from the queue file, under a lock shared with the other runners; None once it is empty."""
    with open(queue, "r+") as file:
        fcntl.flock(file, fcntl.LOCK_EX)
        names = file.read().split()
        if not names:
            return None
        file.seek(0)
        file.truncate()
        file.write("\n".join(names[1:]))
        return names[0]


def names(arguments):
    if arguments[:1] == ["--queue"]:
        while (name := take(arguments[1])) is not None:
            yield name
    else:
        yield from arguments


def main(arguments):
    stream = unittest.runner._WritelnDecorator(sys.stderr)
    result = TimedResult(stream, True, 2)
    started = time.monotonic()
    result.startTestRun()
    for name in names(arguments):
        unittest.defaultTestLoader.loadTestsFromName(name)(result)
    result.stopTestRun()
    result.printErrors()
    stream.writeln(unittest.TextTestResult.separator2)
    stream.writeln(f"Ran {result.testsRun} tests in {time.monotonic() - started:.3f}s\n")
    stream.writeln("OK" if result.wasSuccessful() else
                   f"FAILED (failures={len(result.failures)}, errors={len(result.errors)})")
    stream.writeln("slowest:")
    for seconds, name in sorted(TimedResult.times, reverse=True)[:10]:
        stream.writeln(f"  {seconds:6.1f} s  {name}")
    if TimedResult.cpu:
        stream.writeln(f"costliest ({sum(used for used, _ in TimedResult.cpu):.0f} CPU-s in all):")
        for used, name in sorted(TimedResult.cpu, reverse=True)[:10]:
            stream.writeln(f"  {used:6.1f} CPU-s  {name}")
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
