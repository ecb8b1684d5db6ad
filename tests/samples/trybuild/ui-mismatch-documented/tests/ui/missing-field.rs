struct S {
    a: u8,
    b: u8,
    c: u8,
}

fn main() {
    let _ = S { a: 1 };
}
