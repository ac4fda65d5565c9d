# SPDX-License-Identifier: MIT
# The workload of the stripped-python3 recording: difflib's SequenceMatcher
# (pure Python, so the interpreter's own loop and objects) over generated
# lines, for SECS seconds (argv[1]).
import difflib
import sys
import time

secs = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
words = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split()
a = [" ".join(words[(i * 7 + k) % 10] for k in range(6)) for i in range(400)]
b = [s if i % 7 else s.upper() for i, s in enumerate(a)]
end = time.monotonic() + secs
rounds = 0
while time.monotonic() < end:
    sm = difflib.SequenceMatcher(None, a, b)
    rounds += len(sm.get_opcodes()) + int(sm.ratio() * 100)
print("rounds", rounds)
