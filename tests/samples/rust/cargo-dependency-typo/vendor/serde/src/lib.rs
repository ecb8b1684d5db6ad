pub fn s() {}
