"""Child processes with a time limit, their wall time and peak memory; an
engine's repeated runs on one workload; the run's overall time budget.

Wall time is taken around the child alone (spawn to exit). Peak host memory
is the child's ru_maxrss from os.wait4, so every engine, whatever it is
written in, is measured the same way. A child past its limit is killed with
its process group (it is started in a session of its own) and recorded as a
timeout, never as a time.

The wait uses a pidfd where the kernel has one: the child stays unreaped
until the rail reaps it, so a kill after the limit can never reach a reused
process id. Without pidfd the rail polls.
"""
import os
import select
import signal
import statistics
import subprocess
import time


class Budget:
    """Seconds left to the whole run; None means no limit."""

    def __init__(self, seconds, reserve_s=0.0):
        self.start = time.monotonic()
        self.end = None if not seconds else self.start + seconds - reserve_s

    def remaining(self):
        return None if self.end is None else self.end - time.monotonic()

    def limit(self, timeout_s):
        """The limit a child may have now: its own timeout, or less when the
        budget ends first. (limit, cut_by_budget)."""
        rem = self.remaining()
        if rem is None or rem >= timeout_s:
            return timeout_s, False
        return max(rem, 0.0), True


def _wait(pid, limit_s):
    """Wait for pid for at most limit_s; True when it exited in time. The
    child is not reaped here."""
    if hasattr(os, "pidfd_open"):
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            fd = None
        if fd is not None:
            try:
                ready, _, _ = select.select([fd], [], [], limit_s)
                return bool(ready)
            finally:
                os.close(fd)
    deadline = time.monotonic() + limit_s
    while True:
        # WNOWAIT leaves the child to be reaped by wait4 below.
        try:
            info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        if info is not None:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.002)


def run_child(argv, env, limit_s, stdout_path, stderr_path):
    """Run argv with its output in files. Returns dict: rc (None after a
    kill), timed_out, wall_s, maxrss_kib."""
    with open(stdout_path, "wb") as so, open(stderr_path, "wb") as se:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=so,
                             stderr=se, start_new_session=True)
        in_time = _wait(p.pid, limit_s)
        t1 = time.perf_counter()
        if not in_time:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    return {"rc": p.returncode if in_time else None, "timed_out": not in_time,
            "wall_s": t1 - t0, "maxrss_kib": ru.ru_maxrss}


def _read(path, limit=20000):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return ""
    text = data.decode("utf-8", "replace")
    return text if len(text) <= limit else text[:limit // 2] + "\n...\n" + text[-limit // 2:]


def median_min(values):
    if not values:
        return None, None
    return statistics.median(values), min(values)


def run_repeats(argv, env, repeats, timeout_s, budget, workdir, out_path, trace_path,
                on_success=None):
    """Run an engine `repeats` times (stopping at the first failure).

    Before each run its output and trace files are removed; after the first
    successful run on_success(i) is called so that the caller can keep that
    output (measure it) before the next run overwrites it. Returns the runs,
    the stderr of the last run, and why it stopped early (None when all ran).
    """
    runs = []
    stderr = stdout = ""
    stop = None
    for i in range(repeats):
        limit, cut = budget.limit(timeout_s)
        if cut and limit < 1.0:
            stop = "budget"
            break
        for p in (out_path, trace_path):
            if p and os.path.exists(p):
                os.unlink(p)
        so = os.path.join(workdir, "stdout-%d.txt" % i)
        se = os.path.join(workdir, "stderr-%d.txt" % i)
        r = run_child(argv, env, limit, so, se)
        r["cut_by_budget"] = bool(r["timed_out"] and cut)
        r["limit_s"] = limit
        stdout, stderr = _read(so), _read(se)
        runs.append(r)
        if r["timed_out"] or r["rc"] != 0:
            break
        if on_success is not None:
            on_success(i, stdout)
    return runs, stdout, stderr, stop
