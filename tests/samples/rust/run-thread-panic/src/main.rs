use std::thread;

fn restock(counts: Vec<u32>) -> u32 {
    counts[4]
}

fn main() {
    let worker = thread::spawn(|| restock(vec![1, 2, 3]));
    match worker.join() {
        Ok(n) => println!("restocked {n}"),
        Err(_) => std::process::exit(3),
    }
}
