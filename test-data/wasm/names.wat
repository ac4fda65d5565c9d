;; SPDX-License-Identifier: MIT
;; Names from the name section in instruction text: functions (imports
;; included), locals, labels (named, unnamed, shadowed), types, tables,
;; memories, globals, data and elem segments; quoted, empty, '#' and duplicate
;; names; branch depths and label comments; memargs; call_indirect.
(module $names
  (type $binop (func (param i32 i32) (result i32)))
  (type $pair (func (param i32) (result i32 i32)))
  (import "env" "log" (func $log (param i32)))
  (import "env" "g" (global $imported_g i32))
  (memory $mem 1)
  (memory $other 1)
  (table $tab 4 funcref)
  (table $tab2 2 funcref)
  (global $counter (mut i32) (i32.const 0))
  (global (mut i64) (i64.const 0))
  (data $blob (memory $mem) (i32.const 16) "hello")
  (data "unnamed")
  (elem $fns (table $tab) (i32.const 0) func $fib $add)
  (elem declare func $add)

  (func $fib (param $n i32) (result i32) (local $a i32) (local $b i32) (local i32)
    i32.const 1
    local.set $a
    block $break
      loop $loop
        local.get $n
        i32.eqz
        br_if $break
        local.get $a
        local.get $b
        i32.add
        local.get $a
        local.set $b
        local.set $a
        local.get $n
        i32.const -1
        i32.add
        local.tee $n
        local.set 3
        br $loop
      end
    end
    local.get $b)

  (func $add (type $binop) local.get 0 local.get 1 i32.add)

  (func $shadow (param i32) (result i32)
    block $l (result i32)
      block $l
        local.get 0
        br_if $l
        block
          local.get 0
          br_if 1
          i32.const 7
          br 2
        end
        br 0
      end
      i32.const 3
      br 0
    end
    block $m
      block
        block $n
          br 2
        end
      end
    end
    drop
    i32.const 9
    br 0)

  (func $table (param $sel i32) (result i32)
    block $a
      block
        block $c
          local.get $sel
          br_table $a 1 $c 2 0
        end
        i32.const 1
        return
      end
      i32.const 2
      return
    end
    i32.const 3)

  (func $"quoted name" (param $"a b" i32) (param $"ünï" i32) (param $ok i32) (result i32)
    local.get $"a b"
    local.get $"ünï"
    i32.add
    local.get $ok
    i32.add)

  (func (@name "") (param i32) (local (@name "dup") i32) (local $x (@name "dup") i32)
    local.get 0
    call $log
    local.get 1
    drop
    local.get 2
    drop)

  (func (@name "#hash") (param (@name "dup") i32) (param (@name "dup") i32) (param (@name "") i32)
    local.get 0
    local.get 1
    i32.add
    local.get 2
    i32.add
    drop)

  (func $memory (param $p i32) (result i32)
    local.get $p
    i32.load
    local.get $p
    i32.load offset=4
    i32.add
    local.get $p
    i32.load8_u offset=1 align=1
    i32.add
    local.get $p
    i32.load16_s align=1
    i32.add
    local.get $p
    i32.load $other offset=8
    i32.add
    local.get $p
    i64.load32_u $other offset=12 align=2
    i32.wrap_i64
    i32.add
    local.get $p
    f64.load align=4
    i32.trunc_f64_s
    i32.add
    local.get $p
    local.get $p
    i64.store offset=65536 align=8
    local.get $p
    local.get $p
    i32.store8 $other offset=3
    memory.size
    memory.size $other
    i32.add
    i32.const 1
    memory.grow $other
    i32.add
    global.get $counter
    global.get 1
    i32.wrap_i64
    i32.add
    global.get $imported_g
    i32.add
    global.set $counter
    i32.add)

  (func $calls (param i32 i32) (result i32)
    local.get 0
    local.get 1
    i32.const 0
    call_indirect $tab (type $binop)
    local.get 0
    local.get 1
    i32.const 1
    call_indirect $tab2 (type $binop)
    i32.add
    local.get 0
    call $fib
    i32.add
    ref.func $add
    drop
    i32.const 0
    table.get $tab2
    drop
    table.size $tab
    drop)

  (func $blocks (param i32) (result i32)
    local.get 0
    block (type $pair) (param i32) (result i32 i32)
      i32.const 1
    end
    i32.add
    local.get 0
    if (result i32)
      i32.const 5
    else
      i32.const 6
    end
    i32.add
    local.get 0
    if $named
      nop
    end
    loop (param i32) (result i32)
    end
    block $outer (param i32) (result i32)
      loop $inner (param i32) (result i32)
        br_if $outer
        i32.const 1
      end
    end
    select
    local.get 0
    local.get 0
    i32.const 1
    select (result i32)
    drop)
)
