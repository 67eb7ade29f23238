;; The policy net's affine layer, out = x·W + b, for one observation, with the arithmetic of the
;; plain-JavaScript kernel (policy/affine.ts, jsAffine) bit for bit:
;;   acc = float32(acc + x[r] · W[r][c])   over the nonzero rows r in order, from acc = b[c],
;; where the product and the sum are taken in float64 (as JavaScript numbers are) and only the
;; sum is rounded to float32. So the float64 lanes: f64x2.mul, f64x2.add, then demote to float32
;; and promote back, the round trip that Math.fround makes.
;;
;; Sixteen outputs are summed at once, in eight two-lane accumulators that stay in registers
;; while the nonzero rows go by. Weights, biases and outputs are float64 (the weights promoted
;; once, exactly, when a net is loaded), each row padded to a multiple of sixteen columns with
;; zeros, so there is no tail to handle.
;;
;; Memory layout (byte offsets, set by the caller, policy/affine.ts):
;;   $w    rows × $stride float64, row-major       $b    $stride float64
;;   $x    float64 by row (only the listed rows are read)
;;   $nz   $n int32 row indices, ascending         $out  $stride float64, written
;;
;; Built into policy/affine-wasm.ts by scripts/build-affine-wasm.ts (npm run build:wasm);
;; policy/affine.test.ts checks that the two agree.
(module
  (memory (export "memory") 1)
  (func (export "affine")
    (param $w i32) (param $b i32) (param $stride i32) (param $x i32) (param $nz i32) (param $n i32) (param $out i32)
    (local $col i32)  ;; first column of the block of sixteen
    (local $k i32)    ;; index into $nz
    (local $row i32)
    (local $at i32)   ;; byte offset of W[row][col]
    (local $xr v128)  ;; x[row] in both lanes
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $a4 v128) (local $a5 v128) (local $a6 v128) (local $a7 v128)
    (block $blocks_done
      (loop $blocks
        (br_if $blocks_done (i32.ge_u (local.get $col) (local.get $stride)))
        (local.set $at (i32.add (local.get $b) (i32.shl (local.get $col) (i32.const 3))))
        (local.set $a0 (v128.load offset=0 (local.get $at)))
        (local.set $a1 (v128.load offset=16 (local.get $at)))
        (local.set $a2 (v128.load offset=32 (local.get $at)))
        (local.set $a3 (v128.load offset=48 (local.get $at)))
        (local.set $a4 (v128.load offset=64 (local.get $at)))
        (local.set $a5 (v128.load offset=80 (local.get $at)))
        (local.set $a6 (v128.load offset=96 (local.get $at)))
        (local.set $a7 (v128.load offset=112 (local.get $at)))
        (local.set $k (i32.const 0))
        ;; Each row adds its term to the sixteen: float32(acc + x · w), kept as float64. (Written
        ;; out, not called: V8 does not inline the call, and it costs half again the time.)
        (block $rows_done
          (loop $rows
            (br_if $rows_done (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $row (i32.load (i32.add (local.get $nz) (i32.shl (local.get $k) (i32.const 2)))))
            (local.set $xr (f64x2.splat (f64.load (i32.add (local.get $x) (i32.shl (local.get $row) (i32.const 3))))))
            (local.set $at
              (i32.add (local.get $w)
                (i32.shl (i32.add (i32.mul (local.get $row) (local.get $stride)) (local.get $col)) (i32.const 3))))
            (local.set $a0 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
              (f64x2.add (local.get $a0) (f64x2.mul (local.get $xr) (v128.load offset=0 (local.get $at)))))))
            (local.set $a1 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
              (f64x2.add (local.get $a1) (f64x2.mul (local.get $xr) (v128.load offset=16 (local.get $at)))))))
            (local.set $a2 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
              (f64x2.add (local.get $a2) (f64x2.mul (local.get $xr) (v128.load offset=32 (local.get $at)))))))
            (local.set $a3 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
              (f64x2.add (local.get $a3) (f64x2.mul (local.get $xr) (v128.load offset=48 (local.get $at)))))))
            (local.set $a4 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
              (f64x2.add (local.get $a4) (f64x2.mul (local.get $xr) (v128.load offset=64 (local.get $at)))))))
            (local.set $a5 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
              (f64x2.add (local.get $a5) (f64x2.mul (local.get $xr) (v128.load offset=80 (local.get $at)))))))
            (local.set $a6 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
              (f64x2.add (local.get $a6) (f64x2.mul (local.get $xr) (v128.load offset=96 (local.get $at)))))))
            (local.set $a7 (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
              (f64x2.add (local.get $a7) (f64x2.mul (local.get $xr) (v128.load offset=112 (local.get $at)))))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $rows)))
        (local.set $at (i32.add (local.get $out) (i32.shl (local.get $col) (i32.const 3))))
        (v128.store offset=0 (local.get $at) (local.get $a0))
        (v128.store offset=16 (local.get $at) (local.get $a1))
        (v128.store offset=32 (local.get $at) (local.get $a2))
        (v128.store offset=48 (local.get $at) (local.get $a3))
        (v128.store offset=64 (local.get $at) (local.get $a4))
        (v128.store offset=80 (local.get $at) (local.get $a5))
        (v128.store offset=96 (local.get $at) (local.get $a6))
        (v128.store offset=112 (local.get $at) (local.get $a7))
        (local.set $col (i32.add (local.get $col) (i32.const 16)))
        (br $blocks))))
)
