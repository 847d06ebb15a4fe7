#!/usr/bin/env python3
"""docs/rtl_testplan.md lists exactly the coverage bins (and goals) tb/agu_tb.cpp counts.
usage: check_testplan.py AGU_TB TESTPLAN_MD     prints 'N passed, M failed'"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402

tb, doc = sys.argv[1], sys.argv[2]
out = subprocess.run([tb, "--list-bins"], check=True, capture_output=True, text=True).stdout
bench = dict(m.groups() for m in re.finditer(r"^([a-z][\w.>^]*) (\d+)$", out, re.M))
text = open(doc).read()
documented = dict(m.groups() for m in re.finditer(r"^\| `([a-z][\w.>^]*)` \| (\d+) \|", text, re.M))
checks = Checks(quiet_passes=True)
for b, goal in bench.items():
    checks(documented.get(b) == goal, f"bin {b} (goal {goal}) is in the testplan with that goal")
for b in documented:
    checks(b in bench, f"testplan bin {b} is counted by the bench")
checks(len(bench) > 0, f"the bench lists its bins ({len(bench)})")
checks.finish()
