pub fn double(x: i32) -> i32 {
    x * facter
}
