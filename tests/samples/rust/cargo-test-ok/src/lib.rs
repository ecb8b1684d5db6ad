pub fn classify(code: i32) -> &'static str {
    if code == 0 { "ok" } else { "error" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_error_for_nonzero() {
        assert_eq!(classify(2), "error");
    }

    #[test]
    fn test_error_handling_zero_failures() {
        assert_eq!(classify(0), "ok");
    }
}
