use std::io::Write;
use std::net::TcpStream;

pub fn ping(addr: &str) -> std::io::Result<()> {
    let mut s = TcpStream::connect(addr)?;
    s.write_all(b"PING\r\n")
}

#[cfg(test)]
mod tests {
    #[test]
    fn cache_answers() -> Result<(), Box<dyn std::error::Error>> {
        super::ping("127.0.0.1:59271")?;
        Ok(())
    }

    #[test]
    fn token_is_set() {
        let token = std::env::var("SVC_TOKEN").unwrap();
        assert!(!token.is_empty());
    }
}
