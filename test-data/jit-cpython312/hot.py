# SPDX-License-Identifier: MIT
# The workload of the jit-cpython312 and jit-cpython313 recordings: for SECS
# seconds (argv[1]), the standard library's own code: json.dumps/json.loads
# of a document, re.findall over a text, and difflib.SequenceMatcher (pure
# Python) comparing two word lists.
import difflib
import json
import random
import re
import sys
import time

secs = float(sys.argv[1]) if len(sys.argv) > 1 else 2
end = time.monotonic() + secs
rnd = random.Random(42)
doc = {"users": [{"id": i, "name": "user%d" % rnd.randrange(1000), "tags": ["a", "b", str(i % 7)],
                  "score": rnd.random()} for i in range(300)]}
text = ", ".join("user%d@host%d.example.com" % (rnd.randrange(1000), i % 7) for i in range(2000))
pat = re.compile(r"([a-z]+)(\d+)@([a-z]+\d)\.example\.com")
words = [rnd.choice("alpha beta gamma delta epsilon zeta eta theta".split()) for _ in range(200)]
other = words[:]
for i in range(0, len(other), 9):
    other[i] = "iota"
rounds = matches = 0
ratio = 0.0
while time.monotonic() < end:
    back = json.loads(json.dumps(doc))
    matches += len(pat.findall(text))
    ratio += difflib.SequenceMatcher(None, words, other, autojunk=False).ratio()
    rounds += 1
print("rounds %d matches %d users %d ratio %.3f" % (rounds, matches, len(back["users"]), ratio))
