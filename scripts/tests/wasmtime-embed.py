# SPDX-License-Identifier: MIT
# The live run of wasmtime-live.sh: wasmtime's Python embedding (the C API,
# with Cranelift) compiles MODULE, serializes it to ./module.cwasm, maps that
# file back (Module.deserialize_file, file-backed like `wasmtime run` of a
# .cwasm) with the jitdump profiler on, and calls its export `run` for
# SECONDS. The embedding cannot emit CLIF, so such a report has no [CLIF].
#   python3 wasmtime-embed.py SITE-DIR MODULE SECONDS
import sys
import time

sys.path.insert(0, sys.argv[1])
import wasmtime  # noqa: E402

config = wasmtime.Config()
config.profiler = "jitdump"	# ./jit-<pid>.dump, as `wasmtime run --profile=jitdump`
engine = wasmtime.Engine(config)
with open("module.cwasm", "wb") as f:
	f.write(wasmtime.Module.from_file(engine, sys.argv[2]).serialize())
module = wasmtime.Module.deserialize_file(engine, "module.cwasm")
store = wasmtime.Store(engine)
run = wasmtime.Instance(store, module, []).exports(store)["run"]
end = time.time() + float(sys.argv[3])
calls = total = 0
while time.time() < end:
	total = (total + run(store, 2000000)) & 0xffffffff
	calls += 1
print(f"{calls} calls of run(2000000), sum {total}")
