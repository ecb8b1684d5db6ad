fn main() {
    println!("supervisor: worker thread 'main' panicked at boot earlier; restarted");
    println!("0 panics since restart, error: none");
}
