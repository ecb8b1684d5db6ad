<?php
use PHPUnit\Framework\TestCase;

final class ClientTest extends TestCase
{
    public function testFetchesPrices(): void
    {
        $sock = stream_socket_client("tcp://127.0.0.1:9", $errno, $errstr, 1);
        if ($sock === false) {
            throw new RuntimeException("could not connect to 127.0.0.1:9: $errstr ($errno)");
        }
        $this->assertSame("ok", fgets($sock));
    }

    public function testDatabaseUrl(): void
    {
        $url = getenv("SHOP_DATABASE_URL");
        if ($url === false) {
            throw new RuntimeException("environment variable SHOP_DATABASE_URL is not set");
        }
        $this->assertStringStartsWith("postgres://", $url);
    }
}
