fn total(prices: &[u32]) -> u32 {
    let subtotal: u32 = prices.iter().sum();
    subtotl + 1
}

fn main() {
    let mut stock = HashMap::new();
    stock.insert("apple", 3);
    println!("{} {:?}", total(&[1, 2]), stock);
}
