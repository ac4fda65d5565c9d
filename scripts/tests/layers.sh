#!/bin/sh
# SPDX-License-Identifier: MIT
# The layers of both programs, as plugin/layers.mk and postproc/layers.mk
# list them: every #include of a file in FOLDER (its unit tests in
# TREE/tests/FOLDER/ too) names a file of FOLDER or of a folder its uses
# list. The post-processor may include the plugin's shared libraries
# (PLUGIN_SHARED: plugin/lib/, plugin/symbols/) and nothing else of the
# plugin, but for the stream writer in the round-trip tests of its reader.
# No folder with C files is left out of the lists, and no layer uses one above it.
# The same lists decide what each unit test links (the Makefile), so a call
# up a layer fails to link as an include up a layer fails here.
. "$(dirname "$0")/lib.sh"

make -s --no-print-directory -C "$top" -f - <<'MK' >"$tmp/lists" 2>&1
include postproc/layers.mk
include plugin/layers.mk
print:
	@$(foreach d,$(POSTPROC_DIRS),echo 'postproc $(d): $(USES_$(d))';)
	@$(foreach d,$(PLUGIN_DIRS),echo 'plugin $(d): $(PLUGIN_USES_$(d))';)
	@$(foreach i,$(INTERFACES),echo 'interface $(i)';)
	@echo 'shared $(PLUGIN_SHARED)'
MK
check "postproc/layers.mk and plugin/layers.mk list the layers" \
	sh -c "grep -q '^postproc lib:' $tmp/lists && grep -q '^plugin lib:' $tmp/lists"
sed -n 's/^interface //p' "$tmp/lists" >"$tmp/interfaces"
shared=$(sed -n 's/^shared //p' "$tmp/lists")

# Every folder with C files is a layer (the plugin's entry file aside).
for tree in plugin postproc; do
	(cd "$top/$tree" && find . -mindepth 2 -name '*.c' ! -path './tests/*' | sed 's|^\./||; s|/[^/]*$||' | sort -u) >"$tmp/dirs"
	sed -n "s/^$tree \([^:]*\):.*/\1/p" "$tmp/lists" | sort -u >"$tmp/listed"
	m=$(comm -23 "$tmp/dirs" "$tmp/listed" | paste -sd' ' -)
	if [ -z "$m" ]; then ok "every folder of $tree/ is a layer of $tree/layers.mk"
	else echo "not listed: $m" >"$tmp/m"; not_ok "every folder of $tree/ is a layer of $tree/layers.mk" "$tmp/m"; fi
done
# The plugin's top folder holds perf's entry points alone.
n=$(ls "$top"/plugin/*.c | wc -l)
check "plugin/ itself holds one C file, perf's entry points" sh -c "test $n -eq 1 && test -f $top/plugin/hotblocks-dlfilter.c"

# allowed TREE FOLDER USES TARGET: may a file of TREE/FOLDER include TARGET
# (a path from the top)?
allowed() {
	t=$4
	case $t in
	"$1/tests/"*) case $f in */tests/*) return 0 ;; esac ;;
	esac
	if [ "$1" = postproc ]; then
		case $t in
		plugin/emit/stream-writer.h) case $f in */tests/*) return 0 ;; esac; return 1 ;;
		plugin/*)
			for s in $shared; do case $t in "plugin/$s/"*) return 0 ;; esac; done
			return 1 ;;
		esac
		# an interface of a folder above, from a folder under it
		if grep -qx "${t#postproc/}" "$tmp/interfaces"; then
			case $2/ in "$(dirname "${t#postproc/}")"/*) return 0 ;; esac
		fi
	fi
	case $t in "$1/"*) ;; *) return 1 ;; esac
	t=${t#"$1/"}
	t=${t%/*}
	[ "$t" = "$2" ] && return 0
	case " $3 " in *" $t "*) return 0 ;; esac
	return 1
}

# Each include, resolved as the compiler does (beside the file, then the
# tree's own folder), must be allowed.
: >"$tmp/bad"
sed -n 's/^\(plugin\|postproc\) \([^:]*\):\(.*\)/\1 \2 \3/p' "$tmp/lists" | while read -r tree d uses; do
	for f in "$top/$tree/$d"/*.[ch] "$top/$tree/tests/$d"/*.[ch]; do
		[ -e "$f" ] || continue
		sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
			if [ -e "$(dirname "$f")/$inc" ]; then p=$(realpath -m "$(dirname "$f")/$inc")
			elif [ -e "$top/$tree/$inc" ]; then p=$(realpath -m "$top/$tree/$inc")
			else continue	# made by the build (html-assets.h)
			fi
			allowed "$tree" "$d" "$uses" "${p#"$top"/}" ||
				echo "${f#"$top"/}: #include \"$inc\" (${p#"$top"/} is not below $tree/$d)"
		done
	done
done >>"$tmp/bad"
if [ -s "$tmp/bad" ]; then not_ok "every include stays in its layer or goes down" "$tmp/bad"; else ok "every include stays in its layer or goes down"; fi

# The check can fail: an include up a layer, planted in a copy, is found.
f=$top/plugin/jit/planted.c
if allowed plugin jit "perf symbols lib" plugin/sample/classify.h; then
	not_ok "an include from plugin/jit/ up to plugin/sample/ is refused"
else
	ok "an include from plugin/jit/ up to plugin/sample/ is refused"
fi
f=$top/postproc/annotate/planted.c
if allowed postproc annotate "lib" plugin/jit/jitdump.h; then
	not_ok "an include of the plugin's jit/ from the post-processor is refused"
else
	ok "an include of the plugin's jit/ from the post-processor is refused"
fi
echo "1..$tap_n"
