;; SPDX-License-Identifier: MIT
;; Named tags, thrown. `jco parse` writes their names as name subsection 11
;; (tags.wasm); wabt 1.0.32 (`wat2wasm --enable-exceptions --debug-names`)
;; writes them as subsection 10, the number the extended name section gives
;; field names (tags-wabt.wasm): wasmprinter fails to read that subsection as
;; field names, so the tags print unnamed and the names after it are lost.
(module
  (tag $oops (param i32))
  (tag $boom)
  (func $thrower (param $x i32)
    local.get $x
    throw $oops)
  (func $other
    throw $boom)
  (func $after (result i32)
    (local $v i32)
    block $out
      local.get $v
      br_if $out
    end
    local.get $v))
