"""A watchdog over a peer driver's phases (issue 58): no driver may hang
silently. OpenMM's LJ liquid once printed nothing for the last 55 s of its
60 s timeout, and three device calls could not say where it was.

Each phase (creating the context, the untimed steps, the warm-up, the timed
repeats, the checks) runs with a time budget: the seconds it is planned to
take plus the watch's slack (the drivers' --phase-seconds). At its start the driver's
record(reason) is told where it is, so that its result file names the phase
even if the process then dies (a crash, a kill). A thread checks the phase
several times a second; past its budget it logs the phase, its seconds and
the steps done and in flight, prints every thread's Python stack, hands that
diagnosis to record(), and ends the process with status HUNG.

The thread needs the GIL. OpenMM releases it inside step() and getState(),
where a device that stops answering leaves the caller waiting, but not in
every call (creating a Context holds it); for those, faulthandler's own
thread, which needs no GIL, dumps every stack `grace` seconds after the
budget and ends the process (status 1). A SIGTERM (the shell's `timeout`)
dumps the stacks too before the process ends."""
import contextlib
import faulthandler
import os
import signal
import sys
import threading
import time
import traceback

HUNG = 3  # the exit status of a driver its watchdog stopped


class PhaseWatch:
    """phase(name, planned seconds) as a context manager; run(steps) wrapped
    by counting(run) counts the steps the phase ran. record(reason), set by
    the driver, writes the reason into its result file (peer_failures)."""

    def __init__(self, log, slack, grace=5.0, stream=None):
        self.log, self.slack, self.grace = log, slack, grace
        self.record = lambda reason: None
        self.stream = stream or sys.stderr
        faulthandler.enable(file=self.stream, all_threads=True)  # a crash (an abort in OpenMM) dumps them too
        self._lock = threading.Lock()
        self._phase = None  # (name, budget, start) of the running phase
        self._done = self._running = 0  # steps finished in the phase; steps of the call in flight
        faulthandler.register(signal.SIGTERM, file=self.stream, all_threads=True, chain=True)
        threading.Thread(target=self._watch, name="phase-watch", daemon=True).start()

    @contextlib.contextmanager
    def phase(self, name, planned):
        budget = planned + self.slack
        self.log(f"{name}: begins (budget {budget:.3g} s)")
        self.record(f"stopped in {name} (budget {budget:.3g} s): the process ended there (a crash, a kill, or the "
                    f"watchdog's stack dump; see the log)")
        with self._lock:
            self._phase, self._done, self._running = (name, budget, time.perf_counter()), 0, 0
        faulthandler.dump_traceback_later(budget + self.grace, exit=True, file=self.stream)
        try:
            yield
        finally:
            faulthandler.cancel_dump_traceback_later()
            with self._lock:
                self._phase = None

    def counting(self, run):
        """run(steps), counted into the running phase's steps."""
        def counted(steps):
            with self._lock:
                self._running = steps
            spent = run(steps)
            with self._lock:
                self._done, self._running = self._done + steps, 0
            return spent
        return counted

    def _watch(self):
        while True:
            with self._lock:
                phase, done, running = self._phase, self._done, self._running
            if phase is not None and time.perf_counter() - phase[2] > phase[1]:
                self._stop(phase, done, running)
            time.sleep(0.05 if phase is None else min(0.5, phase[1] / 8))

    def _stop(self, phase, done, running):
        name, budget, start = phase
        main = sys._current_frames().get(threading.main_thread().ident)
        where = ", called from ".join(f"{f.name} ({os.path.basename(f.filename)}:{f.lineno})"
                                      for f in reversed(traceback.extract_stack(main)[-3:])) if main else "?"
        diagnosis = (f"{name} passed its budget of {budget:.3g} s ({time.perf_counter() - start:.1f} s): {done} "
                     f"steps done, {running} in the call still running; the main thread was in {where}")
        self.log(f"watchdog: {diagnosis}; every thread's stack:")
        faulthandler.dump_traceback(file=self.stream, all_threads=True)
        try:
            self.record(diagnosis)
        except Exception as e:  # noqa: BLE001 - the exit below must still come
            self.log(f"watchdog: the diagnosis could not be recorded: {type(e).__name__}: {e}")
        self.stream.flush()
        os._exit(HUNG)


class Unwatched:
    """PhaseWatch's interface with no budgets (drivers that set none)."""

    @contextlib.contextmanager
    def phase(self, name, planned):
        yield

    @staticmethod
    def counting(run):
        return run
