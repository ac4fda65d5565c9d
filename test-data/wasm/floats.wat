;; SPDX-License-Identifier: MIT
;; Float constants whose decimal comment is decided by Rust's tie rule: the
;; exact value lies halfway between the two shortest decimals that read back
;; as it, and wasmprinter prints the one of larger magnitude (printf's
;; correctly rounded digits would take the even one: 1.0039062 for the
;; first). Found by scripts/tools/wasm-float-sweep and kept at many binary
;; exponents, both signs. Then the values where the shortest-digit search is
;; easy to get wrong: lopsided intervals at powers of two, the smallest
;; normal, subnormals with one to three bits, 1e23 (an exact midpoint, read
;; as the even neighbour), the extremes.
(module
  (func $f32_ties
    f32.const 1.00390625 drop
    f32.const -1.00390625 drop
    f32.const 0x1p-12 drop
    f32.const 0x1.4p-9 drop
    f32.const -0x1.dp-6 drop
    f32.const 0x1.44p-3 drop
    f32.const 0x1.82p-2 drop
    f32.const 0x1.f5p+0 drop
    f32.const 0x1.3a4p+2 drop
    f32.const -0x1.e0ap+4 drop
    f32.const 0x1.5f22p+10 drop
    f32.const -0x1.98c88p+12 drop
    f32.const 0x1.348b4p+14 drop
    f32.const 0x1.d9522p+15 drop
    f32.const 0x1.5c741p+17 drop
    f32.const -0x1.9726c8p+18 drop
    f32.const 0x1.c28e74p+20 drop
    f32.const 0x1.6050a2p+21 drop)
  (func $f64_ties
    f64.const 0x1.f7a17b4e59465p+50 drop
    f64.const 0x1p-25 drop
    f64.const -0x1.4p-21 drop
    f64.const 0x1.28p-17 drop
    f64.const 0x1.4ap-14 drop
    f64.const 0x1.a48p-11 drop
    f64.const 0x1.101p-7 drop
    f64.const -0x1.9444p-4 drop
    f64.const 0x1.1cfdp-1 drop
    f64.const 0x1.2f328p+0 drop
    f64.const 0x1.eb7cap+3 drop
    f64.const 0x1.d36e48p+6 drop
    f64.const -0x1.ec079ap+9 drop
    f64.const 0x1.6a1f564p+13 drop
    f64.const -0x1.e703fc5f66a4p+41 drop
    f64.const 0x1.40537fcc46ec8p+46 drop
    f64.const 0x1.d57cad2bddc74p+47 drop
    f64.const 0x1.160037eb72b1ap+49 drop
    f64.const 0x1.0000000000001p+50 drop)
  (func $edges
    f64.const 1e23 drop
    f64.const 0x1.52d02c7e14af7p+76 drop
    f64.const 0x1p-1022 drop
    f64.const 0x1.0000000000001p-1022 drop
    f64.const 0x0.fffffffffffffp-1022 drop
    f64.const 0x1p-1074 drop
    f64.const 0x1p-1073 drop
    f64.const 0x1.8p-1073 drop
    f64.const 0x1p+1023 drop
    f64.const 0x1.fffffffffffffp+1023 drop
    f64.const 0x1p+53 drop
    f64.const 0x1.0000000000001p+53 drop
    f64.const 0x1p-100 drop
    f64.const 0x1p+100 drop
    f32.const 0x1p-126 drop
    f32.const 0x1.000002p-126 drop
    f32.const 0x1p-149 drop
    f32.const 0x1p-148 drop
    f32.const 0x1.8p-148 drop
    f32.const 7e-45 drop
    f32.const 1e-44 drop
    f32.const 0x1.fffffep+127 drop
    f32.const 1e10 drop
    f32.const 0x1p+24 drop
    f32.const 0x1.000002p+24 drop
    f32.const 0x1p+100 drop
    f32.const 0x1p-100 drop))
