fn main() {
    let dir = std::env::var("SHOP_PROTO_DIR").expect("SHOP_PROTO_DIR must be set");
    println!("cargo:rerun-if-changed={dir}");
}
