;; SPDX-License-Identifier: MIT
;; Constants as wasmprinter prints them: integers signed, floats as hex plus
;; Rust's shortest decimal, NaN payloads, infinities, signed zeros,
;; subnormals, power-of-two boundaries; conversions and the 0xfc
;; saturating truncations; sign extension.
(module
  (func $ints
    i32.const 0 drop
    i32.const -1 drop
    i32.const 2147483647 drop
    i32.const -2147483648 drop
    i32.const 0xdeadbeef drop
    i64.const 0 drop
    i64.const -9223372036854775808 drop
    i64.const 9223372036854775807 drop
    i64.const 0x8000_0000 drop
    i64.const -4294967297 drop)
  (func $f32s
    f32.const 0 drop
    f32.const -0 drop
    f32.const 1 drop
    f32.const -1.5 drop
    f32.const 0.1 drop
    f32.const 3.4028234663852886e38 drop
    f32.const 1.1754943508222875e-38 drop
    f32.const 0x1p-149 drop
    f32.const 0x1.8p-148 drop
    f32.const 0x0.fffffep-126 drop
    f32.const 0x1p-127 drop
    f32.const 1e10 drop
    f32.const 16777216 drop
    f32.const 16777217 drop
    f32.const 1e-7 drop
    f32.const 123456.789 drop
    f32.const 0x1p+64 drop
    f32.const 0x1p-64 drop
    f32.const inf drop
    f32.const -inf drop
    f32.const nan drop
    f32.const -nan drop
    f32.const nan:0x1 drop
    f32.const nan:0x200001 drop
    f32.const -nan:0x7fffff drop
    f32.const 0.3333333333 drop
    f32.const 2.5e-45 drop
    f32.const 9.999999e-39 drop)
  (func $f64s
    f64.const 0 drop
    f64.const -0 drop
    f64.const 1 drop
    f64.const 0.1 drop
    f64.const 0.30000000000000004 drop
    f64.const 1.7976931348623157e308 drop
    f64.const 2.2250738585072014e-308 drop
    f64.const 5e-324 drop
    f64.const 0x1.8p-1073 drop
    f64.const 0x0.fffffffffffffp-1022 drop
    f64.const 1e21 drop
    f64.const 1e22 drop
    f64.const 1e23 drop
    f64.const 123456789012345678 drop
    f64.const 1e-7 drop
    f64.const 0x1p+1023 drop
    f64.const 0x1p-1022 drop
    f64.const 0x1p-1000 drop
    f64.const 0x1p+60 drop
    f64.const 9007199254740993 drop
    f64.const -2.5e-310 drop
    f64.const 1.2345678901234567e-300 drop
    f64.const inf drop
    f64.const -inf drop
    f64.const nan drop
    f64.const nan:0x4000000000001 drop
    f64.const -nan:0x1 drop
    f64.const 3.141592653589793 drop
    f64.const 2.718281828459045e100 drop
    f64.const 4.35 drop
    f64.const 0.000001 drop)
  (func $convert (param f32 f64 i32 i64) (result i32)
    local.get 0 i32.trunc_f32_s
    local.get 0 i32.trunc_f32_u i32.add
    local.get 1 i32.trunc_sat_f64_s i32.add
    local.get 1 i32.trunc_sat_f64_u i32.add
    local.get 0 i64.trunc_sat_f32_s i32.wrap_i64 i32.add
    local.get 0 i64.trunc_sat_f32_u i32.wrap_i64 i32.add
    local.get 1 i64.trunc_sat_f64_s i32.wrap_i64 i32.add
    local.get 1 i64.trunc_sat_f64_u i32.wrap_i64 i32.add
    local.get 0 i32.trunc_sat_f32_s i32.add
    local.get 0 i32.trunc_sat_f32_u i32.add
    local.get 2 i32.extend8_s i32.add
    local.get 2 i32.extend16_s i32.add
    local.get 3 i64.extend8_s local.get 3 i64.extend16_s i64.add
    local.get 3 i64.extend32_s i64.add i32.wrap_i64 i32.add
    local.get 2 f64.convert_i32_u f32.demote_f64 f64.promote_f32 f64.sqrt drop)
)
