;; SPDX-License-Identifier: MIT
;; A component (layer 1): core modules at top level and inside a nested
;; component, decoded in file order with absolute offsets, each with its own
;; names and function numbering.
(component $outer
  (core module $first
    (import "env" "f" (func $imported (param i32)))
    (func $one (result i32)
      i32.const 1
      call $imported
      i32.const 2))
  (component $inner
    (core module $second
      (func $two (param $x i32) (result i32)
        block $b (result i32)
          local.get $x
          br $b
        end)))
  (core module $third
    (memory 1)
    (func $three (param $p i32) (result i32)
      loop $l
        local.get $p
        i32.load offset=4
        br_if $l
      end
      local.get $p))
)
