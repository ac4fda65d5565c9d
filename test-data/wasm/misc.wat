;; SPDX-License-Identifier: MIT
;; Threads (0xfe) on a shared memory, memory64 offsets beyond 32 bits, bulk
;; memory and table instructions (0xfc) with zero and nonzero indices, tail
;; calls, multi-value blocks, wide arithmetic, memory.discard.
(module
  (type $v (func))
  (memory $shared 1 1 shared)
  (memory $big i64 1)
  (table $t0 2 funcref)
  (table $t1 2 externref)
  (data $seg "abcd")
  (elem $fns func $a $b)
  (func $a)
  (func $b (param i32) (result i32) local.get 0)
  (func $atomics (param $p i32) (result i32)
    local.get $p
    i32.const 1
    memory.atomic.notify
    local.get $p
    i32.const 0
    i64.const -1
    memory.atomic.wait32 offset=8
    i32.add
    local.get $p
    i64.const 0
    i64.const 100
    memory.atomic.wait64
    i32.add
    atomic.fence
    local.get $p
    i32.atomic.load
    i32.add
    local.get $p
    i64.atomic.load8_u offset=3
    i32.wrap_i64
    i32.add
    local.get $p
    i32.const 5
    i32.atomic.store16 offset=2
    local.get $p
    i32.const 1
    i32.atomic.rmw.add
    i32.add
    local.get $p
    i64.const 1
    i64.atomic.rmw32.xchg_u
    i32.wrap_i64
    i32.add
    local.get $p
    i32.const 1
    i32.const 2
    i32.atomic.rmw8.cmpxchg_u align=1
    i32.add
    local.get $p
    i64.const 1
    i64.const 2
    i64.atomic.rmw.cmpxchg offset=16
    i32.wrap_i64
    i32.add)
  (func $mem64 (param $p i64) (result i64)
    local.get $p
    i64.load $big offset=0x100000000
    local.get $p
    i32.load8_u $big offset=18446744073709551615
    i64.extend_i32_u
    i64.add
    memory.size $big
    i64.add
    i64.const 1
    memory.grow $big
    i64.add)
  (func $bulk (param i32)
    local.get 0
    i32.const 0
    i32.const 4
    memory.init $seg
    local.get 0
    i32.const 0
    i32.const 4
    memory.init $shared $seg
    i32.const 0
    i64.const 0
    i32.const 4
    memory.copy $shared $big
    local.get 0
    local.get 0
    i32.const 1
    memory.copy
    local.get 0
    i32.const 0
    i32.const 8
    memory.fill
    i64.const 0
    i32.const 0
    i64.const 8
    memory.fill $big
    data.drop $seg
    i32.const 0
    i32.const 0
    i32.const 2
    table.init $fns
    i32.const 0
    i32.const 0
    i32.const 2
    table.init $t0 $fns
    elem.drop $fns
    i32.const 0
    i32.const 1
    i32.const 1
    table.copy
    i32.const 0
    i32.const 1
    i32.const 1
    table.copy $t0 $t0
    ref.null extern
    i32.const 1
    table.grow $t1
    drop
    i32.const 0
    ref.null extern
    i32.const 2
    table.fill $t1
    i32.const 1
    ref.null extern
    table.set $t1
    table.size $t1
    drop
    i64.const 0
    i64.const 1
    i64.const 2
    i64.const 3
    i64.add128
    i64.mul_wide_u
    drop drop drop)
  (func $tail (param i32) (result i32)
    local.get 0
    i32.eqz
    if
      i32.const 0
      i32.const 1
      return_call_indirect $t0 (type $b_t)
    end
    local.get 0
    return_call $b)
  (type $b_t (func (param i32) (result i32)))
  (func $discard
    i32.const 0
    i32.const 65536
    memory.discard $shared)
)
