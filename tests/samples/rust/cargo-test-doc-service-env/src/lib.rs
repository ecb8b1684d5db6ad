//! A tiny shop.

use std::net::TcpStream;

/// Adds VAT (20 %) to a price in cents.
///
/// ```
/// assert_eq!(shop::with_vat(100), 120);
/// assert_eq!(shop::with_vat(250), 300);
/// ```
pub fn with_vat(cents: u64) -> u64 {
    cents + cents / 5 + 1
}

/// The database URL, from the environment.
pub fn database_url() -> String {
    std::env::var("SHOP_DATABASE_URL").expect("SHOP_DATABASE_URL must be set")
}

/// Whether the cache answers on its port.
pub fn cache_up() -> std::io::Result<()> {
    TcpStream::connect("127.0.0.1:59261").map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vat_of_zero() {
        assert_eq!(with_vat(0), 0);
    }

    #[test]
    fn database_is_postgres() {
        assert!(database_url().starts_with("postgres://"));
    }

    #[test]
    fn cache_is_up() {
        cache_up().unwrap();
    }
}
