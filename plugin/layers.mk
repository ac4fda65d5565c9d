# SPDX-License-Identifier: MIT
# The plugin's rooms: one folder each, bottom up, and what each may use (its
# own folder and these, all lower). As for the post-processor
# (postproc/layers.mk), a folder's objects make one archive, and a unit test
# of plugin/tests/FOLDER/ links only that folder's archive and those of
# PLUGIN_USES_FOLDER, so that a call up a layer is an undefined reference;
# scripts/tests/layers.sh holds every #include to the same list.
#   lib      what both programs share: UTF-8 and the terminal rule, byte
#            order, growable arrays, messages, the stream's format
#   symbols  a file's symbols as perf finds them (ELF tables, .eh_frame,
#            debug files), shared with the post-processor too
#   perf     what perf gives the plugin: its --dlarg options, its command
#            line, the recording (perf.data) walked once
#   jit      JIT code: jitdump files, the time-aware code map, perf maps
#   native   file-backed code: the recording's mappings, symbols per file
#   sample   one sample's way: its event, its class, its count, its
#            branch stack's edges and ranges, its callchain's stack
#   emit     the stream section, written to its destination
# plugin/hotblocks-dlfilter.c, perf's entry points, wires them.
PLUGIN_DIRS := lib symbols perf jit native sample emit

PLUGIN_USES_lib :=
PLUGIN_USES_symbols := lib
PLUGIN_USES_perf := lib
PLUGIN_USES_jit := perf symbols lib
PLUGIN_USES_native := jit perf symbols lib
PLUGIN_USES_sample := native jit perf symbols lib
PLUGIN_USES_emit := sample native jit perf symbols lib

# The plugin's libraries the post-processor links and may include: the two
# lowest rooms. Nothing else of the plugin is the post-processor's.
PLUGIN_SHARED := symbols lib
