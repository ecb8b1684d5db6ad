; RUN: cat %s | FileCheck %s
; CHECK: define i32 @add
; CHECK-NEXT: %s = add i32 %a, %b
define i32 @add(i32 %a, i32 %b) {
  %s = add i32 %a, %b
  ret i32 %s
}
