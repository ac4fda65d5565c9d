;; SPDX-License-Identifier: MIT
;; GC (0xfb), typed function references and reference types: struct and array
;; instructions with type and field names, casts and br_on_cast with every
;; nullability, abstract and concrete heap types, i31, call_ref,
;; return_call_ref, br_on_null, typed select, ref.null of each heap type.
(module
  (rec
    (type $point (struct (field $x (mut i32)) (field $y (mut i32)) (field $z i64)))
    (type $list (struct (field $head i32) (field $tail (ref null $list)))))
  (type $bytes (array (mut i8)))
  (type $refs (array (mut anyref)))
  (type $fn (func (param i32) (result i32)))
  (type $sub (sub $point (struct (field (mut i32)) (field (mut i32)) (field i64) (field f32))))
  (data $d "\01\02\03\04")
  (elem $e anyref (ref.i31 (i32.const 1)))
  (elem declare func $id)

  (func $id (type $fn) local.get 0)

  (func $structs (param $p (ref null $point)) (result i32)
    local.get $p
    struct.get $point $x
    local.get $p
    struct.get $point 2
    i32.wrap_i64
    i32.add
    local.get $p
    i32.const 5
    struct.set $point $y
    i32.const 1
    i32.const 2
    i64.const 3
    struct.new $point
    struct.get $point $y
    i32.add
    struct.new_default $point
    drop
    i32.const 7
    ref.null $list
    struct.new $list
    struct.get $list $tail
    ref.is_null
    i32.add)

  (func $arrays (result i32)
    (local $a (ref null $bytes))
    i32.const 1
    i32.const 2
    i32.const 3
    array.new_fixed $bytes 3
    local.set $a
    local.get $a
    i32.const 0
    array.get_u $bytes
    local.get $a
    i32.const 1
    array.get_s $bytes
    i32.add
    local.get $a
    array.len
    i32.add
    i32.const 0
    i32.const 4
    array.new_data $bytes $d
    i32.const 0
    i32.const 9
    i32.const 2
    array.fill $bytes
    local.get $a
    i32.const 0
    local.get $a
    i32.const 1
    i32.const 2
    array.copy $bytes $bytes
    i32.const 0
    i32.const 1
    array.new_elem $refs $e
    i32.const 0
    i32.const 0
    i32.const 1
    array.init_elem $refs $e
    i32.const 4
    array.new_default $refs
    drop
    local.get $a
    i32.const 0
    i32.const 0
    i32.const 1
    array.init_data $bytes $d)

  (func $casts (param $r anyref) (param $e externref) (result i32)
    local.get $r
    ref.test (ref $point)
    local.get $r
    ref.test (ref null $point)
    i32.add
    local.get $r
    ref.test i31ref
    i32.add
    local.get $r
    ref.test (ref eq)
    i32.add
    local.get $r
    ref.cast (ref null $list)
    drop
    local.get $r
    ref.cast (ref struct)
    drop
    local.get $e
    any.convert_extern
    extern.convert_any
    drop
    i32.const 42
    ref.i31
    i31.get_s
    i32.add
    local.get $r
    ref.cast i31ref
    i31.get_u
    i32.add
    block $b (result (ref $point))
      block (result anyref)
        local.get $r
        br_on_cast $b anyref (ref $point)
        br_on_cast_fail 0 anyref (ref null eq)
        br_on_cast 0 (ref null any) (ref null $sub)
        br_on_cast_fail $b anyref (ref $point)
        br_on_cast 0 (ref any) (ref none)
      end
      drop
      unreachable
    end
    drop)

  (func $refs (param $f (ref null $fn)) (result i32)
    ref.null func drop
    ref.null extern drop
    ref.null any drop
    ref.null none drop
    ref.null noextern drop
    ref.null nofunc drop
    ref.null eq drop
    ref.null struct drop
    ref.null array drop
    ref.null i31 drop
    ref.null exn drop
    ref.null noexn drop
    ref.null $fn drop
    ref.func $id
    ref.as_non_null
    drop
    block $null
      local.get $f
      br_on_null $null
      drop
    end
    block $nn (result (ref $fn))
      local.get $f
      br_on_non_null $nn
      unreachable
    end
    drop
    i32.const 1
    local.get $f
    call_ref $fn
    ref.null eq
    ref.null eq
    ref.eq
    i32.add
    ref.null func
    ref.null func
    i32.const 0
    select (result funcref)
    drop)

  (func $tail (param i32) (result i32)
    local.get 0
    ref.func $id
    return_call_ref $fn)
)
