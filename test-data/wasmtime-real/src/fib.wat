;; SPDX-License-Identifier: MIT
;; Iterative Fibonacci numbers mod 2^32, in the shape of wasmtime's own fib
;; example: a named $fib with a block/loop pair and labels, called from an
;; unnamed `_start` (so its rows fall back to `wasm[0]::function[1]`).
(module
  (func $fib (param $n i32) (result i32)
    (local $a i32) (local $b i32) (local $t i32)
    (local.set $b (i32.const 1))
    (block $break
      (loop $loop
        (br_if $break (i32.eqz (local.get $n)))
        (local.set $t (i32.add (local.get $a) (local.get $b)))
        (local.set $a (local.get $b))
        (local.set $b (local.get $t))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $loop)))
    (local.get $a))
  (func (export "_start")
    (drop (call $fib (i32.const 1500000000)))))
