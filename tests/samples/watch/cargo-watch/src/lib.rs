pub fn total(prices: &[u32], qty: &[u32]) -> u32 {
    prices.iter().zip(qty).map(|(p, _q)| p).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_multiplies_by_quantity() {
        assert_eq!(total(&[3, 5], &[2, 1]), 11);
    }
}
