fn main() {
    let v = vec![1];
    let r = &v;
    drop(v);
    println!("{:?}", r);
    let unused = 3;
}
