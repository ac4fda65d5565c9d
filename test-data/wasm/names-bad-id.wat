;; SPDX-License-Identifier: MIT
;; A name section written byte by byte (the module has no $identifiers, so the
;; text parser adds no name section of its own): function names (subsection
;; 1), an unknown subsection 0x7f (skipped: local names after it still
;; count), local names (2), then a malformed subsection id 0x80 (wasmparser
;; reads ids as 7-bit values and fails there, so wasmprinter ignores the
;; rest), then label names (3), which must not be used.
(module
  (func (param i32) (result i32)
    (local i32)
    block
      local.get 0
      br_if 0
    end
    local.get 1
    call 1)
  (func (param i32) (result i32)
    local.get 0)
  (@custom "name" (after code)
    "\01\10" "\02" "\00\05first" "\01\06second"
    "\7f\03" "abc"
    "\02\09" "\01" "\00\02" "\00\01x" "\01\01y"
    "\80\02" "\00\00"
    "\03\08" "\01" "\00\01" "\00\03out"))
