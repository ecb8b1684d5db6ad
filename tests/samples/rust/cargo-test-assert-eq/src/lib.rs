pub fn add(a: i32, b: i32) -> i32 {
    a + b + 1
}

pub fn parse_port(s: &str) -> u16 {
    s.parse().unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_works() {
        assert_eq!(add(2, 2), 4);
    }

    #[test]
    fn parses_port() {
        assert_eq!(parse_port("80x"), 80);
    }

    #[test]
    fn error_handling_passes() {
        assert!(add(0, 0) > 0);
    }
}
