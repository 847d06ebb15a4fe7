"""The pass/fail tally the Python checks print: one line per check, then 'N passed, M failed'."""
import sys


class Checks:
    def __init__(self, quiet_passes=False):
        self.passed = self.failed = 0
        self.quiet_passes = quiet_passes

    def __call__(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        if not ok or not self.quiet_passes:
            print(("ok   " if ok else "FAIL ") + what)

    def finish(self, max_failures=0):
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed > max_failures else 0)
