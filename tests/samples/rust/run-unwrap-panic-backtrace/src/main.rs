fn parse_quantity(s: &str) -> u32 {
    s.trim().parse().unwrap()
}

fn main() {
    let total: u32 = ["2", "3x"].iter().map(|s| parse_quantity(s)).sum();
    println!("{total}");
}
