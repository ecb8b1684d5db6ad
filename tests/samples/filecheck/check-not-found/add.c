// RUN: cat %s | FileCheck %s
// CHECK: define i32 @add
// CHECK-NEXT: ret i32 %sum
int add(int a, int b) { return a + b; }
