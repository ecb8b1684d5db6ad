.text
movz %eax, %ebx
  addq $1
