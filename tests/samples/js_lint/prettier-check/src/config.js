const a = {b:1,
  c: 2}
export   default a
