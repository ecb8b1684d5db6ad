fn main() {
    println!("shop");
}
