;; SPDX-License-Identifier: MIT
;; Exception handling: try_table with every catch clause kind (labels counted
;; from outside the try_table), throw, throw_ref; the legacy try, catch,
;; catch_all, rethrow and delegate (after which wasmprinter keeps the
;; delegated try's label on its label stack).
(module
  (tag $e (param i32))
  (tag $empty)
  (func $new (param i32) (result i32)
    block $outer (result i32)
      block $h (result i32 exnref)
        try_table (result i32) (catch $e $outer) (catch_ref $e $h) (catch_all 2) (catch_all_ref $h)
          local.get 0
          throw $e
        end
        return
      end
      throw_ref
    end
    block (result exnref)
      try_table (catch_all_ref 0) (catch $empty 1)
        throw $empty
      end
      unreachable
    end
    drop
    block $t
      try_table $t (catch $empty $t)
        nop
      end
    end)

  (func $legacy (param i32) (result i32)
    try $a (result i32)
      local.get 0
      throw $e
    catch $e
      drop
      try (result i32)
        i32.const 1
      catch_all
        rethrow 1
      end
    catch_all
      i32.const 2
    end
    try $d
      try
        call $thrower
      delegate $d
      block $after
        br $after
      end
      block
        br 0
      end
    catch $empty
      try
        nop
      delegate 1
    end)

  (func $thrower
    throw $empty)
)
