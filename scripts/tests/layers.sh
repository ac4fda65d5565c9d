#!/bin/sh
# SPDX-License-Identifier: MIT
# The post-processor's layers (postproc/layers.mk): every #include of a file
# in postproc/FOLDER/ (its unit tests in postproc/tests/FOLDER/ too) names a
# file of FOLDER or of a folder USES_FOLDER lists, the plugin's wire format
# (plugin/stream-format.h, from the stream reader alone), the one UTF-8
# decoder of both trees (plugin/utf8.h, built into lib), the ELF symbols of a
# file as perf finds them (plugin/elfsyms.h, built into lib), or a file the build
# makes, or an interface of a folder above it that it implements
# (INTERFACES); no folder is left out of the list, and no layer uses one
# above it.
. "$(dirname "$0")/lib.sh"

make -s --no-print-directory -C "$top" -f - <<'MK' >"$tmp/uses" 2>&1
include postproc/layers.mk
print:
	@$(foreach d,$(POSTPROC_DIRS),echo '$(d): $(USES_$(d))';)
MK
make -s --no-print-directory -C "$top" -f - <<'MK' >"$tmp/interfaces" 2>&1
include postproc/layers.mk
print:
	@$(foreach i,$(INTERFACES),echo '$(i)';)
MK
check "postproc/layers.mk lists the layers" grep -q '^lib:' "$tmp/uses"

# Every folder with C files is a layer.
(cd "$top/postproc" && find . -name '*.c' ! -path './tests/*' | sed 's|^\./||; s|/[^/]*$||' | sort -u) >"$tmp/dirs"
cut -d: -f1 "$tmp/uses" | sort -u >"$tmp/listed"
m=$(comm -23 "$tmp/dirs" "$tmp/listed" | paste -sd' ' -)
if [ -z "$m" ]; then ok "every folder of postproc/ is a layer of layers.mk"; else echo "not listed: $m" >"$tmp/m"; not_ok "every folder of postproc/ is a layer of layers.mk" "$tmp/m"; fi

# Each include, resolved as the compiler does (beside the file, then
# -Ipostproc), must land in the file's folder or one of its uses.
: >"$tmp/bad"
while IFS=: read -r d uses; do
	for f in "$top"/postproc/"$d"/*.[ch] "$top"/postproc/tests/"$d"/*.[ch]; do
		[ -e "$f" ] || continue
		sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
			if [ -e "$(dirname "$f")/$inc" ]; then p=$(realpath -m "$(dirname "$f")/$inc")
			elif [ -e "$top/postproc/$inc" ]; then p=$(realpath -m "$top/postproc/$inc")
			else continue	# made by the build (html-assets.h)
			fi
			case $p in
			"$top"/plugin/stream-format.h) [ "$d" = stream ] && continue ;;
			"$top"/plugin/utf8.h) continue ;;	# built into lib (the Makefile)
			"$top"/plugin/elfsyms.h) continue ;;	# built into lib (the Makefile)
			"$top"/plugin/stream-writer.h) case $f in */tests/*) continue ;; esac ;;
			"$top"/postproc/tests/*) case $f in */tests/*) continue ;; esac ;;
			esac
			t=${p#"$top"/postproc/}
			# an interface of a folder above, from a folder under it
			if grep -qx "$t" "$tmp/interfaces"; then
				case $d/ in "${t%/*}"/*) continue ;; esac
			fi
			t=${t%/*}
			[ "$t" = "$d" ] && continue
			case " $uses " in *" $t "*) continue ;; esac
			echo "${f#"$top"/}: #include \"$inc\" ($t is not below $d)"
		done
	done
done <"$tmp/uses" >>"$tmp/bad"
if [ -s "$tmp/bad" ]; then not_ok "every include stays in its layer or goes down" "$tmp/bad"; else ok "every include stays in its layer or goes down"; fi
