#!/usr/bin/env python3
"""Counts test cases in a meson testlog.json: Criterion's own case counts
where a suite prints them, one case per test otherwise. Prints "PASSED FAILED"."""
import json
import re
import sys

SYNTHESIS = re.compile(r"Synthesis: Tested: (\d+) \| Passing: (\d+) \| Failing: (\d+) \| Crashing: (\d+)")

passed = failed = 0
with open(sys.argv[1], encoding="utf-8") as log:
    for line in log:
        test = json.loads(line)
        out = (test.get("stdout") or "") + (test.get("stderr") or "")
        m = SYNTHESIS.search(out)
        ok = test.get("result") in ("OK", "EXPECTEDFAIL", "SKIP")
        if m:
            passed += int(m.group(2))
            failed += int(m.group(3)) + int(m.group(4))
            if not ok and int(m.group(3)) + int(m.group(4)) == 0:
                failed += 1  # the suite itself failed (sanitizer, timeout) after its cases passed
        else:
            passed += ok
            failed += not ok
print(passed, failed)
