fn third(prices: &[u32]) -> u32 {
    prices[2]
}

fn main() {
    let prices = vec![120, 80];
    println!("third price: {}", third(&prices));
}
