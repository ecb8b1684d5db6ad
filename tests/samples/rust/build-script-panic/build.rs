fn main() {
    let schema = std::fs::read_to_string("schema/orders.sql").unwrap();
    let tables = schema.matches("CREATE TABLE").count();
    println!("cargo:rustc-env=SHOP_TABLES={tables}");
}
