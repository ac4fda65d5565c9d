# SPDX-License-Identifier: MIT
# The post-processor's layers: one folder each, bottom up, and what each may
# use (its own folder and these, all lower). The Makefile builds a folder's
# objects into one archive and links a unit test with its folder's archive
# and those of USES_<folder>, in this order: a call up a layer is an
# undefined reference. scripts/tests/layers.sh holds every #include to it.
POSTPROC_DIRS := lib annotate/beam stream analysis annotate/dwarf annotate/v8 annotate/hotspot annotate/cpython annotate/mono \
	annotate/wasm annotate/wasmtime \
	annotate report diff render/graph render/html render cli

# Data-only headers (no .c) of a folder that the folders under it implement,
# and so include from below: annotate/columns.h is what a source of the
# annotator's columns fills (annotate/wasmtime/ is one); annotate/jit-runtime.h
# the row each runtime's folder fills for annotate/jits.c.
INTERFACES := annotate/columns.h annotate/jit-runtime.h

USES_lib :=
USES_annotate/beam := lib
USES_stream := annotate/beam lib
USES_analysis := stream annotate/beam lib
USES_annotate/dwarf := lib
USES_annotate/v8 := analysis stream annotate/beam lib
USES_annotate/hotspot := lib
USES_annotate/cpython :=
USES_annotate/mono :=
USES_annotate/wasm := lib
USES_annotate/wasmtime := annotate/wasm annotate/dwarf stream annotate/beam lib
USES_annotate := annotate/wasmtime annotate/wasm annotate/dwarf annotate/mono annotate/cpython annotate/hotspot annotate/v8 \
	analysis stream annotate/beam lib
USES_report := annotate $(USES_annotate)
USES_diff := report $(USES_report)
USES_render/graph := report $(USES_report)
USES_render/html := render/graph $(USES_render/graph)
USES_render := render/html render/graph diff $(USES_diff)
USES_cli := render $(USES_render)
