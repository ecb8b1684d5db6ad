fn area(w: u32, h: u32) -> u32 {
    return w * h;
}

fn main() {
    let unused = 4;
    println!("{}", area(2, 3));
}
