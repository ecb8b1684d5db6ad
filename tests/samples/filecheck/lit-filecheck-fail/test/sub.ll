; RUN: grep -v CHECK %s | FileCheck %s
; CHECK: define i32 @sub
; CHECK-NEXT: ret i32 %d
define i32 @sub(i32 %a, i32 %b) {
  %d = sub i32 %a, %b
  ret i32 %d
}
