pub fn read_at(addr: usize) -> u8 {
    unsafe { std::ptr::read_volatile(addr as *const u8) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_the_header() {
        assert_eq!(super::read_at(8), 0);
    }
}
