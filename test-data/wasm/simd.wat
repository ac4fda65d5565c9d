;; SPDX-License-Identifier: MIT
;; SIMD (0xfd): v128 constants, lanes, shuffles, memargs with lanes and
;; alignment, multi-byte sub-opcodes (>= 0x80), relaxed SIMD.
(module
  (memory 1)
  (func $simd (param $p i32) (param $v v128) (result v128)
    v128.const i32x4 1 2 3 0xffffffff
    v128.const i8x16 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0xff
    i8x16.shuffle 0 17 2 19 4 21 6 23 8 25 10 27 12 29 14 31
    local.get $p
    v128.load offset=16
    i32x4.add
    local.get $p
    v128.load align=4
    i8x16.swizzle
    local.get $p
    v128.load8x8_s
    i16x8.mul
    local.get $p
    v128.load32_zero offset=4
    f32x4.add
    local.get $p
    local.get $v
    v128.load8_lane 15
    local.get $p
    local.get $v
    v128.load64_lane offset=8 align=1 1
    v128.or
    i64x2.extract_lane 1
    i64x2.splat
    v128.and
    local.get $p
    v128.load32_splat align=1
    f32x4.extract_lane 3
    f32x4.splat
    i32x4.trunc_sat_f32x4_s
    i8x16.extract_lane_u 15
    i8x16.splat
    i16x8.extend_low_i8x16_s
    i32x4.extadd_pairwise_i16x8_u
    f64x2.convert_low_i32x4_u
    f32x4.demote_f64x2_zero
    v128.any_true
    i32x4.splat
    i64x2.all_true
    i16x8.splat
    i8x16.popcnt
    i32x4.bitmask
    i8x16.splat
    local.get $v
    local.get $v
    v128.bitselect
    f64x2.nearest
    i32x4.dot_i16x8_s
    i64x2.extmul_high_i32x4_u
    i16x8.q15mulr_sat_s
    local.get $v
    i8x16.relaxed_swizzle
    local.get $v
    local.get $v
    f32x4.relaxed_madd
    local.get $v
    local.get $v
    i32x4.relaxed_dot_i8x16_i7x16_add_s
    i32x4.relaxed_trunc_f64x2_u_zero
    local.get $p
    local.get $v
    v128.store16_lane offset=2 7
    local.get $p
    local.get $v
    v128.store offset=32 align=8)
)
