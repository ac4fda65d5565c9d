/* SPDX-License-Identifier: MIT */
/*
 * The encoder of pprof's profile.proto (render/pprof/profile.proto, from
 * google/pprof), as protobuf-c's protoc-c writes it at build time into the
 * build's gen/ directory: compiled here, as a member of this layer.
 */
#include "profile.pb-c.c"
